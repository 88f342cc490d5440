/* SPDX-License-Identifier: MIT */
/* Flight-recorder snapshots (lib/snapshot.h) in the database. */
#ifndef RAS_DB_SNAPSHOT_H
#define RAS_DB_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include "db.h"
#include "lib/snapshot.h"


typedef int (*ras_db_snapshot_fn)(void *ctx, const struct ras_snapshot *s);

/* Stores s (its id is ignored) for this boot; *id gets the new row id. */
int ras_db_snapshot_insert(struct ras_db *db, const struct ras_snapshot *s, int64_t *id);
/* Every snapshot, oldest first, without data. Returns the count or -errno (-ENOENT: no table). */
int ras_db_snapshot_list(struct ras_db *db, ras_db_snapshot_fn fn, void *ctx);
/* One snapshot with its data; -ENOENT when there is none with that id. */
int ras_db_snapshot_get(struct ras_db *db, int64_t id, struct ras_snapshot *out);
/* Row id of the last record stored through this handle (ras_db_insert_event), for trigger_row_id. */
int64_t ras_db_last_row_id(struct ras_db *db);

#endif
