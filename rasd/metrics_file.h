/* SPDX-License-Identifier: MIT */
/*
 * rasd's metrics_textfile, for node_exporter: rewritten after each committed
 * batch, and at least every RASD_METRICS_HEARTBEAT_MS while rasd runs (its
 * ras_fdr_metrics_timestamp_seconds then says rasd is alive; a file that
 * stops being rewritten says it is not), and once more at a stop (up 0).
 */
#ifndef RAS_METRICS_FILE_H
#define RAS_METRICS_FILE_H

#include "lib/config.h"
#include "db/db.h"

#define RASD_METRICS_HEARTBEAT_MS 60000

struct rasd_storage;
/* The storage state the file reports (rasd's, in daemon.c); NULL: working. */
void rasd_metrics_file_set_storage(const struct rasd_storage *s);
/*
 * Brings the counts up to date (only rows stored since the last call are
 * read) and replaces cfg->metrics_textfile atomically. Does nothing when the
 * key is empty. Failures are logged once per cause, never fatal. 0 or -errno.
 */
int rasd_metrics_file_update(struct ras_db *db, const struct rasd_config *cfg);
/*
 * Rewrites the file when the last write is RASD_METRICS_HEARTBEAT_MS old (an
 * idle rasd); db NULL while storage fails: the counts as last read, the
 * storage state failing.
 */
void rasd_metrics_file_heartbeat(struct ras_db *db, const struct rasd_config *cfg);
/* rasd stops: the file says so (up 0, storage stopped). */
void rasd_metrics_file_stop(struct ras_db *db, const struct rasd_config *cfg);

#endif
