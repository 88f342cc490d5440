/* SPDX-License-Identifier: MIT */
/* Hourly roll-ups of the event tables (db_rollup.c); internal to db/. */
#ifndef RAS_DB_ROLLUP_H
#define RAS_DB_ROLLUP_H

#include "db_internal.h"

#define RAS_DB_ROLLUP_SLOTS 4096

/* The hour (UTC, since the epoch) of a wall time, rounding down. */
int64_t ras_db_hour_of(int64_t wall_ns);
/* Counts an inserted record in the open batch's roll-ups. */
int ras_db_rollup_add(struct ras_db *db, const struct ras_db_event *ev, int64_t boot);
/* Writes the batch's roll-ups; called inside the transaction, before COMMIT. */
int ras_db_rollup_flush(struct ras_db *db);
/* Forgets the batch's roll-ups (the transaction was rolled back). */
void ras_db_rollup_discard(struct ras_db *db);
void ras_db_rollup_free(struct ras_db *db);
/* Recounts a table's roll-ups, or every table's, from the stored rows. */
int ras_db_rollup_rebuild(struct ras_db *db, unsigned idx);
int ras_db_rollup_rebuild_all(struct ras_db *db);

#endif
