/* SPDX-License-Identifier: MIT */
/* Reading rows in id order after a cursor, for ras-fdr-ctl export. */
#ifndef RAS_DB_EXPORT_H
#define RAS_DB_EXPORT_H

#include "db_query.h"

/* Rows of one event table with id > after, ascending. Returns rows delivered or -errno. */
int ras_db_rows_after(struct ras_db *db, unsigned type_idx, int64_t after, ras_db_row_fn fn,
		      void *ctx);

#define RAS_DB_GENERIC_MAX 32

/* A row of a bookkeeping table, column by column. */
struct ras_db_generic_row {
	int64_t id;
	unsigned n;
	const char *names[RAS_DB_GENERIC_MAX];
	int kinds[RAS_DB_GENERIC_MAX];          /* 'i' integer, 'f' real, 't' text, 'b' blob, 'n' null */
	int64_t ints[RAS_DB_GENERIC_MAX];
	double reals[RAS_DB_GENERIC_MAX];
	const void *ptrs[RAS_DB_GENERIC_MAX];
	int lens[RAS_DB_GENERIC_MAX];
};

typedef int (*ras_db_generic_fn)(void *ctx, const struct ras_db_generic_row *row);

/* The bookkeeping tables export knows, by the "type" of their lines. */
enum ras_db_extra { RAS_DB_EXTRA_LOST, RAS_DB_EXTRA_ACTION, RAS_DB_EXTRA_COUNT_ };
/* "lost" or "action". */
const char *ras_db_extra_name(enum ras_db_extra which);
/*
 * Rows of lost_events (with the boot id instead of the boot's row number) or of
 * the actions table, id > after, ascending; 0 rows when the table does not exist.
 */
int ras_db_extra_rows_after(struct ras_db *db, enum ras_db_extra which, int64_t after,
			    ras_db_generic_fn fn, void *ctx);

#endif
