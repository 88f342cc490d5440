/* SPDX-License-Identifier: MIT */
/* Roll-ups of the event tables (db_rollup.c, db_edac_rollup.c, db_metrics.c); internal to db/. */
#ifndef RAS_DB_ROLLUP_H
#define RAS_DB_ROLLUP_H

#include "db_internal.h"

/*
 * Hourly keys gathered per batch before they are written. A varied storm's
 * batch of 20,000 records names about 7,000 machine-check locations (CPU x
 * bank x level); with 4,096 slots it wrote them twice per batch (make bench:
 * 3 % of rasd's instructions, callgrind; 8,192 slots cost 1 MiB more).
 */
#define RAS_DB_ROLLUP_SLOTS 16384
#define RAS_DB_HOUR_NS (3600LL * 1000000000LL)
/* The hour of a time column, rounding down like ras_db_hour_of (x a column name). */
#define RAS_DB_HOUR_SQL(x) "(CASE WHEN " x " >= 0 THEN " x " / 3600000000000" \
	" ELSE (" x " - 3599999999999) / 3600000000000 END)"
/*
 * The EDAC snapshot a record of boot b at time t maps through (SQL; b and t
 * column names): the newest of its boot taken before it, else the first of
 * its boot (records drained at start precede it), else the newest of an
 * earlier boot, else 0.
 */
#define RAS_DB_SNAPSHOT_AT(b, t) \
	"coalesce((SELECT max(s.id) FROM edac_snapshots s WHERE s.boot = " b \
	" AND s.taken_ns <= " t ")," \
	" (SELECT min(s.id) FROM edac_snapshots s WHERE s.boot = " b ")," \
	" (SELECT max(s.id) FROM edac_snapshots s WHERE s.boot < " b "), 0)"

/*
 * min(a, b) and max(a, b) of two integer columns (NOT NULL) in an upsert's
 * SET: the same values, without a call of SQL function each (an upsert of
 * the hourly roll-up took about 14,000 instructions).
 */
#define RAS_DB_MIN_SQL(a, b) "(CASE WHEN " b " < " a " THEN " b " ELSE " a " END)"
#define RAS_DB_MAX_SQL(a, b) "(CASE WHEN " b " > " a " THEN " b " ELSE " a " END)"
#define RAS_DB_FNV_PRIME 0x100000001b3ULL
#define RAS_DB_FNV_BYTE(h, c) ((h) = ((h) ^ (unsigned char)(c)) * RAS_DB_FNV_PRIME)

/* FNV-1a over n bytes, eight a round: the same value as a byte at a time, an eighth of the tests. */
static inline uint64_t ras_db_fnv_bytes(uint64_t h, const char *p, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		RAS_DB_FNV_BYTE(h, p[i]);
		RAS_DB_FNV_BYTE(h, p[i + 1]);
		RAS_DB_FNV_BYTE(h, p[i + 2]);
		RAS_DB_FNV_BYTE(h, p[i + 3]);
		RAS_DB_FNV_BYTE(h, p[i + 4]);
		RAS_DB_FNV_BYTE(h, p[i + 5]);
		RAS_DB_FNV_BYTE(h, p[i + 6]);
		RAS_DB_FNV_BYTE(h, p[i + 7]);
	}
	switch (n - i) {     /* the last 0 to 7 bytes, in order */
	case 7: RAS_DB_FNV_BYTE(h, p[i]); i++; /* fall through */
	case 6: RAS_DB_FNV_BYTE(h, p[i]); i++; /* fall through */
	case 5: RAS_DB_FNV_BYTE(h, p[i]); i++; /* fall through */
	case 4: RAS_DB_FNV_BYTE(h, p[i]); i++; /* fall through */
	case 3: RAS_DB_FNV_BYTE(h, p[i]); i++; /* fall through */
	case 2: RAS_DB_FNV_BYTE(h, p[i]); i++; /* fall through */
	case 1: RAS_DB_FNV_BYTE(h, p[i]); /* fall through */
	default: break;
	}
	return h;
}

/*
 * Two texts in zero-padded fields of at least 16 bytes: equal, as strcmp
 * finds them, comparing the first 16 bytes whole (most texts end there).
 */
static inline bool ras_db_same_field16(const char *a, const char *b)
{
	return !memcmp(a, b, 16) && (!a[15] || !strcmp(a + 16, b + 16));
}

/* The hour (UTC, since the epoch) of a wall time, rounding down. */
int64_t ras_db_hour_of(int64_t wall_ns);
/* Asks the CPU early for the memory ras_db_rollup_add will read for this record (nothing else). */
void ras_db_rollup_prefetch(struct ras_db *db, const struct ras_db_event *ev, int64_t boot, uint64_t sig);
/* Counts an inserted record (row id) in the open batch's roll-ups. */
int ras_db_rollup_add(struct ras_db *db, const struct ras_db_event *ev, int64_t boot, uint64_t sig);
/* Writes the batch's roll-ups; called inside the transaction, before COMMIT. */
int ras_db_rollup_flush(struct ras_db *db);
/*
 * A commit behind (db_txn.c): hand swaps the open batch's counts with the set
 * handed over before (flushed and empty by then: db->rollups_ticket), so
 * that the next records count into a set of their own; flush_out writes the
 * set handed over, on the writer thread, before that commit's COMMIT. The
 * same for the EDAC and subject counts below.
 */
void ras_db_rollup_hand(struct ras_db *db);
int ras_db_rollup_flush_out(struct ras_db *db);
/* Forgets the batch's roll-ups and those handed over (the transaction was rolled back). */
void ras_db_rollup_discard(struct ras_db *db);
void ras_db_rollup_free(struct ras_db *db);
/* Between transactions: frees the batch's slots (allocated again by the next record). */
void ras_db_rollup_trim(struct ras_db *db);
size_t ras_db_rollup_slot_bytes(const struct ras_db *db);
/* Recounts every roll-up of a table, or of every table, from the stored rows. */
int ras_db_rollup_rebuild(struct ras_db *db, unsigned idx);
int ras_db_rollup_rebuild_all(struct ras_db *db);
/* Counts the hourly roll-ups of the types with a summary location again (schema 12). */
int ras_db_rollup_rekey_sumloc(struct ras_db *db);
/*
 * The summary location (lib/event_table.h struct ras_sumloc) of table idx's
 * rows aliased a, as an SQL expression over the stored location and decoded
 * columns (via_dec: those of the decoding a.dec names, for folds rows). The
 * one SQL twin of ras_summary_location(); its length, or -1 if cap is short.
 */
int ras_db_sumloc_sql(char *out, size_t cap, unsigned idx, const char *a, bool via_dec);

/*
 * A window [since, until) (?1, ?2; 0 unbounded) is answered from the
 * roll-up rows of the hours it touches: a row whose records (first_ns to
 * last_ns) lie on one side of every point where what a record counts toward
 * changes (the window's ends; for EDAC also snapshot times and resets) is
 * counted whole or not at all, and an hour holding a row that spans a point
 * is read from its raw rows. Given "points(t)" and "r" (the candidate
 * roll-up rows), these define "cut(hour)" and "ranges(lo, hi)", the parts
 * of the cut hours inside the window split at every point (so a folded
 * row's count in a range falls on one side of each point), and the
 * condition on r's uncut rows.
 */
#define RAS_DB_CUT_SQL \
	" cut(hour) AS (SELECT DISTINCT hour FROM r WHERE EXISTS (SELECT 1 FROM points" \
	" WHERE t > r.first_ns AND t <= r.last_ns))," \
	" bnd(hour, t) AS (SELECT hour, hour * 3600000000000 FROM cut" \
	" UNION SELECT hour, hour * 3600000000000 + 3600000000000 FROM cut" \
	" UNION SELECT c.hour, p.t FROM cut c JOIN points p ON p.t > c.hour * 3600000000000" \
	" AND p.t < c.hour * 3600000000000 + 3600000000000)," \
	" ranges(lo, hi) AS (SELECT lo, hi FROM (SELECT b.t AS lo, (SELECT min(b2.t) FROM bnd b2" \
	" WHERE b2.hour = b.hour AND b2.t > b.t) AS hi FROM bnd b) WHERE hi IS NOT NULL" \
	" AND (?1 = 0 OR lo >= ?1) AND (?2 = 0 OR hi <= ?2))"
#define RAS_DB_UNCUT_SQL \
	" hour NOT IN (SELECT hour FROM cut) AND (?1 = 0 OR first_ns >= ?1)" \
	" AND (?2 = 0 OR last_ns < ?2)"
/* The first and last hour [since, until) touches, for the candidate rows. */
int64_t ras_db_first_hour(int64_t since_ns);
int64_t ras_db_last_hour(int64_t until_ns);

/*
 * The raw-row halves of the roll-ups: the one function per roll-up family
 * that counts records from their rows rather than from a roll-up. Each
 * returns a SELECT (its length, or -1 if cap is short) over the records whose
 * wall_ns lies in one of the ranges of a "ranges(lo, hi)" table the caller's
 * WITH clause defines, with the same columns as the roll-up table, one row
 * per key and record time. Records stored some other way than one row each
 * (storm folding) are to be counted here, and only here.
 */
int ras_db_rollup_raw_rows_sql(char *sql, size_t cap, unsigned idx,
			       bool folds);                                 /* rollup_hourly */
int ras_db_edac_raw_rows_sql(char *sql, size_t cap, bool folds);           /* rollup_edac */
/*
 * The folded records (db_fold.c) of one table in the ranges, as rows of
 * ras_fold_count/first/last over each folds row's seconds: n, fn, ln beside
 * the folds columns (alias f). Appended to the raw rows when folds exist.
 */
#define RAS_DB_FOLDED_IN_RANGES(tbl) \
	" SELECT f.*, ras_fold_count(f.times, g.lo, g.hi) AS n," \
	" ras_fold_first(f.times, g.lo, g.hi) AS fn, ras_fold_last(f.times, g.lo, g.hi) AS ln" \
	" FROM ranges g JOIN folds f ON f.tbl = '" tbl "' AND f.hour * 3600000000000 <= g.lo" \
	" AND g.lo < f.hour * 3600000000000 + 3600000000000"

/*
 * The batch's mc_event records by rollup_edac key (db->edac_acc), counted in
 * memory at each insert (ras_db_rollup_add calls it; made at the first) and
 * upserted once per key at the commit: a stage of db_txn.c's table (flush,
 * discard, free), as is the next.
 */
int ras_db_edac_acc_add(struct ras_db *db, const struct ras_db_event *ev, int64_t boot, int64_t hour);
int ras_db_edac_acc_flush(struct ras_db *db);
void ras_db_edac_acc_hand(struct ras_db *db);
int ras_db_edac_acc_flush_out(struct ras_db *db);
void ras_db_edac_acc_discard(struct ras_db *db);
void ras_db_edac_acc_free(struct ras_db *db);
/*
 * The batch's rollup_subjects counts (db_metrics.c, db->subjects_acc),
 * gathered the same way by the rules of the metrics' subject table.
 */
int ras_db_metrics_acc_add(struct ras_db *db, const struct ras_db_event *ev);
int ras_db_metrics_acc_flush(struct ras_db *db);
void ras_db_metrics_acc_hand(struct ras_db *db);
int ras_db_metrics_acc_flush_out(struct ras_db *db);
void ras_db_metrics_acc_discard(struct ras_db *db);
void ras_db_metrics_acc_free(struct ras_db *db);
/* The mc_event rows from row id first_id on, added to rollup_edac (a rebuild). */
int ras_db_edac_rollup_rows(struct ras_db *db, int64_t first_id);
/* The rows of table idx from first_id on, added to rollup_subjects (a rebuild; db_metrics.c). */
int ras_db_metrics_rollup_rows(struct ras_db *db, unsigned idx, int64_t first_id);
/* Recounts rollup_edac / the table's rollup_subjects rows from every stored row. */
int ras_db_edac_rollup_rebuild(struct ras_db *db);
/* Schema step 17: rows made before count an mc_event of error_count 0 as one error too. */
int ras_db_edac_rollup_count_zero(struct ras_db *db);
/* ras_db_edac_counts()'s statement over the roll-up; NULL without one or on error (db->err). */
struct ras_db_filter;
sqlite3_stmt *ras_db_edac_rollup_counts_stmt(struct ras_db *db, const struct ras_db_filter *f,
					     const int64_t *bounds, unsigned n_bounds);
/* The table's rollup_subjects rows recounted from its rows and folded records; every table's. */
int ras_db_metrics_rollup_rebuild(struct ras_db *db, unsigned idx);
int ras_db_metrics_rollup_rebuild_all(struct ras_db *db);

#endif
