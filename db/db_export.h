/* SPDX-License-Identifier: MIT */
/*
 * What ras-fdr-ctl export reads: rows in id order after a cursor, the growth
 * of folded storm periods and of folded decisions after a cursor, and the
 * database's identity (schema step 17).
 */
#ifndef RAS_DB_EXPORT_H
#define RAS_DB_EXPORT_H

#include "db_query.h"

/* The database's identity: 32 hex digits made with it; "" for a database before schema 17. */
void ras_db_identity(struct ras_db *db, char *out, size_t len);
/*
 * The highest id table has handed out: an event table's newest row or the id
 * floor a purge or a limit left, lost_events' or actions' newest row, the
 * newest entry of fold_growth or action_growth; 0 when empty or absent.
 */
int64_t ras_db_position_high(struct ras_db *db, const char *table);
/* A read transaction: every read until _end sees one state of the database. */
int ras_db_snapshot_begin(struct ras_db *db);
void ras_db_snapshot_end(struct ras_db *db);

/* Rows of one event table with id > after, ascending. Returns rows delivered or -errno. */
int ras_db_rows_after(struct ras_db *db, unsigned type_idx, int64_t after, ras_db_row_fn fn,
		      void *ctx);

/*
 * What one write added to a folds row (fold_growth), less the records an
 * export already delivered as rows: those folded after they were committed
 * whose ids are at or below its cursor.
 */
struct ras_db_fold_growth {
	int64_t seq, fold_id;
	unsigned type_idx;
	const char *subject, *boot_id, *source, *severity, *location, *detail_name;
	bool synthetic;
	int64_t records, errors;       /* the ones not delivered as rows */
	int64_t as_rows;               /* the ones delivered as rows before they were folded */
	bool ids_known;                /* false: folded before schema 17, delivered whole */
	int64_t first_ns, last_ns;     /* of the records not delivered (to the second when some were) */
	const int64_t *seconds;        /* each one's second, in the order folded */
	size_t nseconds;
	bool have_addr, details_more;  /* the folds row's address range and distinct values */
	uint64_t addr_lo, addr_hi;
	uint64_t details[RAS_DB_FOLD_DETAILS];
	unsigned ndetails;
};
typedef int (*ras_db_growth_fn)(void *ctx, const struct ras_db_fold_growth *g);
/*
 * The fold growth with seq > after, ascending; delivered[type index] is the
 * last row id of each event table an export delivered. The growth of folds
 * rows a purge removed is gone with them. Entries delivered (those with
 * records left) or -errno.
 */
int ras_db_fold_growth_after(struct ras_db *db, int64_t after, const int64_t *delivered,
			     ras_db_growth_fn fn, void *ctx);

/* Repeats a decision gained after its row was written (action_growth). */
struct ras_db_action_growth {
	int64_t seq, action_id, repeats, last_ns, last_event_id;   /* last_event_id 0: none */
};
typedef int (*ras_db_action_growth_fn)(void *ctx, const struct ras_db_action_growth *g);
/* The growth with seq > after, ascending. */
int ras_db_action_growth_after(struct ras_db *db, int64_t after, ras_db_action_growth_fn fn,
			       void *ctx);

/* A lost_events row. */
struct ras_db_lost_row {
	int64_t id, count, from_ns, to_ns;     /* count -1: unknown */
	int cpu;
	const char *boot_id, *instance, *origin;
};
typedef int (*ras_db_lost_fn)(void *ctx, const struct ras_db_lost_row *row);
int ras_db_lost_after(struct ras_db *db, int64_t after, ras_db_lost_fn fn, void *ctx);

/* An actions row (a decision), its columns as the schema has them; absent ones NULL or -1. */
struct ras_db_action_row {
	int64_t id, wall_ns, last_ns, count, event_id, last_event_id, repeats, err;
	bool have_count, have_errno, have_event_id, have_last_event_id, synthetic;
	const char *boot_id, *kind, *subject, *threshold, *action, *target, *result, *event_table;
};
typedef int (*ras_db_action_fn)(void *ctx, const struct ras_db_action_row *row);
int ras_db_actions_after(struct ras_db *db, int64_t after, ras_db_action_fn fn, void *ctx);

#endif
