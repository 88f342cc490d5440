/* SPDX-License-Identifier: MIT */
/* rasd's metrics_textfile: rewritten after each committed batch, for node_exporter. */
#ifndef RAS_METRICS_FILE_H
#define RAS_METRICS_FILE_H

#include "lib/config.h"
#include "db/db.h"

/*
 * Brings the counts up to date (only rows stored since the last call are
 * read) and replaces cfg->metrics_textfile atomically. Does nothing when the
 * key is empty. Failures are logged once per cause, never fatal. 0 or -errno.
 */
int rasd_metrics_file_update(struct ras_db *db, const struct rasd_config *cfg);

#endif
