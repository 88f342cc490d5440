/* SPDX-License-Identifier: MIT */
/*
 * rasd's side of the EDAC work: topology snapshots into the database and
 * the DIMM labels that fill an mc_event's label when the kernel gave none.
 * Single-threaded, like the daemon; the state lives in edac_daemon.c.
 */
#ifndef RAS_EDAC_DAEMON_H
#define RAS_EDAC_DAEMON_H

#include "lib/config.h"
#include "db/db.h"
#include "lib/decode.h"
#include "lib/dimm_labels.h"

/*
 * Reads the EDAC tree under cfg->sysfs_root, gives its layer names to dctx
 * and stores a snapshot for this boot if it differs from the last one stored. Cheap when nothing changed:
 * sysfs is read at most every few seconds, except right after
 * edac_daemon_load_labels(). Returns 1 when a snapshot was stored, 0 when
 * not (unchanged, too soon, or no EDAC driver), -errno on database errors.
 */
int edac_daemon_snapshot(struct ras_db *db, const struct rasd_config *cfg,
			 struct ras_decode_ctx *dctx);

/*
 * (Re)loads the label files of cfg->labels_dirs for the machine described
 * by <sysfs_root>/class/dmi/id. Each problem goes to on_error as
 * (file, line, reason); a file with problems is ignored, the others apply.
 * Returns the number of problems or -errno.
 */
int edac_daemon_load_labels(const struct rasd_config *cfg,
			    void (*on_error)(void *ctx, const char *file, unsigned line,
					     const char *reason),
			    void *ctx);

/* The labels loaded last, or NULL; valid until the next edac_daemon_load_labels(). */
struct dimm_labels *edac_daemon_labels(void);

/* Frees the state (tests, clean shutdown). */
void edac_daemon_cleanup(void);

#endif
