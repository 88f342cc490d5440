/* SPDX-License-Identifier: MIT */
/*
 * Flight-recorder snapshots: the compressed container of raw sub-buffers
 * and formats (rasd/fdr_blob.h), with the record that triggered it.
 */
#ifndef RAS_DB_SNAPSHOT_H
#define RAS_DB_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include "db.h"

struct ras_db_snapshot {
	int64_t id;                 /* set by insert, read by list and get */
	char boot_id[64];           /* list and get only */
	int64_t wall_ns;            /* when it was taken */
	char reason[256];
	char trigger_table[64];     /* empty: manual */
	int64_t trigger_row_id;
	uint64_t trigger_trace_ts;  /* trace clock "boot", 0: unknown */
	int64_t trigger_wall_ns;
	char instance[64];
	const void *data;           /* compressed; get: owned, freed by ras_db_snapshot_free */
	size_t data_len;
	uint64_t raw_size;
	int64_t record_count;
	int64_t missed;             /* records the kernel reported lost; -1 some, unknown count */
	unsigned ncpus;             /* CPUs with data */
};

typedef int (*ras_db_snapshot_fn)(void *ctx, const struct ras_db_snapshot *s);

/* Stores s (its id is ignored) for this boot; *id gets the new row id. */
int ras_db_snapshot_insert(struct ras_db *db, const struct ras_db_snapshot *s, int64_t *id);
/* Every snapshot, oldest first, without data. Returns the count or -errno (-ENOENT: no table). */
int ras_db_snapshot_list(struct ras_db *db, ras_db_snapshot_fn fn, void *ctx);
/* One snapshot with its data; -ENOENT when there is none with that id. */
int ras_db_snapshot_get(struct ras_db *db, int64_t id, struct ras_db_snapshot *out);
void ras_db_snapshot_free(struct ras_db_snapshot *s);
/* Row id of the last row inserted through this handle, for trigger_row_id. */
int64_t ras_db_last_row_id(struct ras_db *db);

#endif
