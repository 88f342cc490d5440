/* SPDX-License-Identifier: MIT */
/*
 * The size and age limits: when raw rows are older than keep_raw or the
 * database's used pages pass max_db_size, the oldest raw rows are folded
 * (db_fold.c does the folding: counted, then deleted; it hands its
 * ras_db_fold_oldest in, so that this file calls nothing of folding's). Counts are never
 * deleted, so the file stops growing with raw records.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "db_fold.h"

#define SEC_NS 1000000000LL

/* The table whose oldest raw row is the oldest of all; -1 when every table is empty. */
static int oldest_table(struct ras_db *db, int64_t *oldest)
{
	char sql[256];
	int best = -1;

	for (unsigned i = 0; i < ras_n_event_types; i++) {
		int64_t min;

		snprintf(sql, sizeof(sql), "SELECT min(wall_ns) FROM %s", ras_event_types[i].table);
		if (ras_db_int(db, sql, &min) == 0 && (best < 0 || min < *oldest)) {
			best = (int)i;
			*oldest = min;
		}
	}
	return best;
}

int ras_db_fold_apply_limits(struct ras_db *db, const struct ras_db_limits *l, int64_t newest_ns,
			      ras_db_fold_oldest_fn fold_oldest)
{
	struct timespec now;
	int64_t oldest = 0, pages = 0, free_pages = 0, page_size = 0;
	int idx;

	if (l->keep_raw_ns > 0) {
		int64_t newest;

		clock_gettime(CLOCK_REALTIME, &now);
		newest = (int64_t)now.tv_sec * SEC_NS + now.tv_nsec;
		/* Records dated ahead of this clock (a replay, a wrong clock) age from the newest. */
		if (newest_ns > newest)
			newest = newest_ns;
		for (unsigned i = 0; i < ras_n_event_types; i++)
			if (fold_oldest(db, i, newest - l->keep_raw_ns) < 0)
				return -EIO;
	}
	if (l->max_db_bytes <= 0)
		return 0;
	ras_db_int(db, "PRAGMA page_count", &pages);
	ras_db_int(db, "PRAGMA freelist_count", &free_pages);
	ras_db_int(db, "PRAGMA page_size", &page_size);
	if ((pages - free_pages) * page_size > l->max_db_bytes && (idx = oldest_table(db, &oldest)) >= 0)
		return fold_oldest(db, (unsigned)idx, INT64_MAX);
	return 0;
}
