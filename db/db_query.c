/* SPDX-License-Identifier: MIT */
/*
 * Read-side counts used by ras-fdr-ctl (db_query.h): the summary from the
 * roll-ups (or a scan), its timeline columns, the losses, a table's totals.
 * The rows themselves are read by db_errors.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_filter.h"
#include "db_query.h"
#include "db_rollup.h"


/* Every row read: the reference the roll-ups are tested against, and older databases' answer. */
int ras_db_summary_scan(struct ras_db *db, const struct ras_db_filter *f, ras_db_count_fn fn, void *ctx)
{
	char sql[2048], loc[1024];
	int r = 0, step = SQLITE_DONE;

	for (unsigned i = 0; i < ras_n_event_types && r == 0; i++) {
		sqlite3_stmt *st;

		if (!ras_db_filter_wants(db, f, i) || ras_db_sumloc_sql(loc, sizeof(loc), i, "e", false) < 0)
			continue;
		snprintf(sql, sizeof(sql),
			 "SELECT severity, %s, count(*), min(wall_ns), max(wall_ns) FROM %s_decoded e"
			 " WHERE%s GROUP BY 1, 2 ORDER BY count(*) DESC",
			 loc, ras_event_types[i].table, RAS_DB_FILTER_SQL);
		if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
			continue;  /* an older table without these columns */
		ras_db_bind_filter(st, f);
		while (r == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
			r = fn(ctx, i, (const char *)sqlite3_column_text(st, 0),
			       (const char *)sqlite3_column_text(st, 1), sqlite3_column_int64(st, 2),
			       sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4));
		if (r == 0 && step != SQLITE_DONE) {
			snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
			r = -EIO;
		}
		sqlite3_finalize(st);
	}
	return r;
}

/*
 * A window is answered from the roll-ups of the hours it touches plus the
 * raw rows of the hours where a roll-up row spans one of its ends (see
 * RAS_DB_CUT_SQL), so the cost does not grow with history; the counts are a
 * full scan's (the window is the hours', not RAS_DB_FILTER_SQL's).
 */

/*
 * f->location_holds, bound as ?8: the roll-up rows of other locations are
 * left out before the cut hours are found, so --part reads only its own
 * (a raw row's location is known only once read: tested again outside).
 */
#define HOLDS_SQL(col) " (?8 IS NULL OR instr(" col ", ?8) > 0)"
#define ROLLUP_ROWS_SQL \
	" r AS (SELECT * FROM rollup_hourly WHERE tbl = ?5 AND hour >= ?6 AND hour <= ?7 AND" \
	HOLDS_SQL("location") "),"

/*
 * Without a cut point (no end to the window, no column starting inside an
 * hour) no hour is cut and the raw half is empty: the roll-up rows that pass
 * the filter are the answer, read without the cut's subqueries (28 % of the
 * summary's time on the bench).
 */
#define UNCUT_ROWS_SQL \
	" rollup_hourly WHERE tbl = ?5 AND hour >= ?6 AND hour <= ?7 AND" HOLDS_SQL("location") \
	" AND" RAS_DB_FILTER_NO_WINDOW_SQL

static void bind_holds(sqlite3_stmt *st, const char *holds)
{
	if (holds)
		sqlite3_bind_text(st, 8, holds, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 8);
}

/* The summary's lines, or (records) each roll-up and raw row's records alone, ungrouped. */
static sqlite3_stmt *summary_stmt(struct ras_db *db, unsigned idx, const struct ras_db_filter *f,
				  bool records)
{
	const char *what = records ? "records"
				   : "severity, location, sum(records), min(first_ns), max(last_ns)";
	const char *group = records ? "" : " GROUP BY 1, 2 ORDER BY 3 DESC";
	char sql[8192], raw[5120];
	sqlite3_stmt *st;

	if (!f->since_ns && !f->until_ns) {
		snprintf(sql, sizeof(sql), "SELECT %s FROM" UNCUT_ROWS_SQL "%s", what, group);
	} else {
		if (ras_db_rollup_raw_rows_sql(raw, sizeof(raw), idx,
					       ras_db_table_exists(db, "folds")) < 0)
			return NULL;
		snprintf(sql, sizeof(sql),
			 "WITH points(t) AS (SELECT ?1 WHERE ?1 <> 0 UNION ALL SELECT ?2 WHERE ?2 <> 0),"
			 ROLLUP_ROWS_SQL
			 RAS_DB_CUT_SQL
			 " SELECT %s FROM ("
			 " SELECT boot, source, synthetic, severity, location, records, first_ns, last_ns"
			 " FROM r WHERE" RAS_DB_UNCUT_SQL
			 " UNION ALL SELECT boot, source, synthetic, severity, location, records, first_ns,"
			 " last_ns FROM (%s)) WHERE%s AND" HOLDS_SQL("location") "%s",
			 what, raw, RAS_DB_FILTER_NO_WINDOW_SQL, group);
	}
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	ras_db_bind_filter(st, f);
	sqlite3_bind_text(st, 5, ras_event_types[idx].table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, ras_db_first_hour(f->since_ns));
	sqlite3_bind_int64(st, 7, ras_db_last_hour(f->until_ns));
	bind_holds(st, records ? NULL : f->location_holds);
	return st;
}

/*
 * Each table's roll-up rows of the window's hours that f lets through, its
 * ends aside (a row of an hour the window cuts is still listed whole): one
 * statement for every table (?5 bound to each in turn), cheap to prepare
 * where the summary's costs 4 M instructions. With holds, only the rows whose
 * location holds it.
 */
static sqlite3_stmt *rollup_rows_stmt(struct ras_db *db, const struct ras_db_filter *f,
				      const char *holds)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->h, "SELECT records FROM rollup_hourly WHERE tbl = ?5 AND hour >= ?6"
			       " AND hour <= ?7 AND" HOLDS_SQL("location") " AND"
			       RAS_DB_FILTER_NO_WINDOW_SQL, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	ras_db_bind_filter(st, f);
	sqlite3_bind_int64(st, 6, ras_db_first_hour(f->since_ns));
	sqlite3_bind_int64(st, 7, ras_db_last_hour(f->until_ns));
	bind_holds(st, holds);
	return st;
}

static void rollup_rows_of(sqlite3_stmt *st, unsigned idx)
{
	sqlite3_reset(st);
	sqlite3_bind_text(st, 5, ras_event_types[idx].table, -1, SQLITE_STATIC);
}

static const char *or_null(const unsigned char *s)
{
	return s && *s ? (const char *)s : NULL;
}

/*
 * Whether table idx's hourly roll-ups are keyed by its summary location: a
 * database rasd has not upgraded past version 11 (a reader does not migrate)
 * keyed them by the full location, then only a scan gives the coarser lines.
 */
static bool rollup_keyed(struct ras_db *db, unsigned idx)
{
	sqlite3_stmt *st;
	int v = 0;

	if (!ras_event_types[idx].sumloc)
		return true;
	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v >= 12;
}

int ras_db_summary(struct ras_db *db, const struct ras_db_filter *f, ras_db_count_fn fn, void *ctx)
{
	sqlite3_stmt *holding = NULL;
	int r = 0;

	if (!ras_db_table_exists(db, "rollup_hourly"))
		return ras_db_summary_scan(db, f, fn, ctx);  /* an older database, read-only */
	/*
	 * A location's records, cut hours' too, are all in its roll-up rows: a
	 * table with no row (holding location_holds) in the window's hours has
	 * no line to give, and its statement is not prepared (16 of the bench's
	 * 21 tables are empty: 74 M instructions).
	 */
	holding = rollup_rows_stmt(db, f, f->location_holds);
	for (unsigned i = 0; i < ras_n_event_types && r == 0; i++) {
		struct ras_db_filter one = *f;
		sqlite3_stmt *st;

		if (!ras_db_filter_wants(db, f, i))
			continue;
		if (!rollup_keyed(db, i)) {
			one.type_idx = (int)i;
			r = ras_db_summary_scan(db, &one, fn, ctx);
			continue;
		}
		if (holding) {
			rollup_rows_of(holding, i);
			if (sqlite3_step(holding) != SQLITE_ROW)
				continue;
		}
		if (!(st = summary_stmt(db, i, f, false)))
			continue;
		while (r == 0 && sqlite3_step(st) == SQLITE_ROW)
			r = fn(ctx, i, or_null(sqlite3_column_text(st, 0)),
			       or_null(sqlite3_column_text(st, 1)), sqlite3_column_int64(st, 2),
			       sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4));
		sqlite3_finalize(st);
	}
	sqlite3_finalize(holding);
	return r;
}

/* A scan's lines summed (databases without keyed roll-ups); 1 stops it once past the limit. */
struct records_sum {
	int64_t n, stop_above;
};

static int sum_line(void *ctx, unsigned idx, const char *sev, const char *loc, int64_t count,
		    int64_t first_ns, int64_t last_ns)
{
	struct records_sum *s = ctx;

	(void)idx, (void)sev, (void)loc, (void)first_ns, (void)last_ns;
	s->n += count;
	return s->stop_above && s->n > s->stop_above ? 1 : 0;
}

int ras_db_summary_records(struct ras_db *db, const struct ras_db_filter *f, int64_t stop_above,
			   int64_t *records)
{
	struct records_sum s = { .stop_above = stop_above };
	bool rollups = ras_db_table_exists(db, "rollup_hourly");
	/* No end to the window, no hour cut: the summary is the roll-up rows alone. */
	sqlite3_stmt *whole = rollups && !f->since_ns && !f->until_ns ? rollup_rows_stmt(db, f, NULL) : NULL;
	int r = 0;

	for (unsigned i = 0; i < ras_n_event_types && r == 0; i++) {
		struct ras_db_filter one = *f;
		sqlite3_stmt *st;

		if (!ras_db_filter_wants(db, f, i))
			continue;
		if (!rollups || !rollup_keyed(db, i)) {
			one.type_idx = (int)i;
			r = ras_db_summary_scan(db, &one, sum_line, &s);
			continue;
		}
		if (whole)
			rollup_rows_of(st = whole, i);
		else if (!(st = summary_stmt(db, i, f, true)))
			continue;
		while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
			s.n += sqlite3_column_int64(st, 0);
			r = stop_above && s.n > stop_above ? 1 : 0;
		}
		if (st != whole)
			sqlite3_finalize(st);
	}
	sqlite3_finalize(whole);
	*records = s.n;
	return r < 0 ? r : 0;
}

/*
 * ras_db_summary_columns: the columns' starts are bound from ?20 on; a
 * record's column is the number of starts at or before its time, less one
 * (-1 before the first, n after the last end), found by a binary search
 * written out as nested CASEs (column_of): counting the starts in a
 * subquery for every roll-up row cost 0.3 G instructions of the
 * whole-machine report on the bench (8,852 rows x 41 starts).
 */
#define COL_PARAM 20

struct sql_buf {
	char *s;
	size_t cap, len;
};

static void sql_add(struct sql_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sql_add(struct sql_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= b->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len = n < 0 ? b->cap : b->len + (size_t)n;
}

/* The last of starts lo..hi-1 at or before t, lo - 1 if none (those before lo are). */
static void column_of(struct sql_buf *b, unsigned lo, unsigned hi, const char *t)
{
	unsigned mid = (lo + hi) / 2;

	if (hi - lo == 1) {
		sql_add(b, "CASE WHEN ?%u <= %s THEN %u ELSE %d END", COL_PARAM + lo, t, lo, (int)lo - 1);
		return;
	}
	sql_add(b, "CASE WHEN ?%u <= %s THEN (", COL_PARAM + mid, t);
	column_of(b, mid, hi, t);
	sql_add(b, ") ELSE (");
	column_of(b, lo, mid, t);
	sql_add(b, ") END");
}

/*
 * The cut points: the window's ends and the starts inside an hour. A start
 * on an hour's boundary cuts no roll-up row (a row's records lie in its
 * hour) and bounds no range but that hour's own: left out, whole-hour
 * columns (a large window's) cost no more than the summary.
 */
static void points_sql(struct sql_buf *b, const int64_t *starts, unsigned n)
{
	sql_add(b, "points(t) AS (SELECT ?1 WHERE ?1 <> 0 UNION ALL SELECT ?2 WHERE ?2 <> 0");
	for (unsigned i = 0; i <= n; i++)
		if (starts[i] % RAS_DB_HOUR_NS)
			sql_add(b, " UNION ALL SELECT ?%u", COL_PARAM + i);
	sql_add(b, ")");
}

/* The summary's statement (summary_stmt) with every column start a cut point. */
static sqlite3_stmt *columns_rollup_stmt(struct ras_db *db, unsigned idx, const int64_t *starts,
					 unsigned n, bool uncut)
{
	char text[20480], raw[5120];
	struct sql_buf b = { text, sizeof(text), 0 };
	sqlite3_stmt *st;

	if (uncut) {
		sql_add(&b, "SELECT severity, location, ");
		column_of(&b, 0, n + 1, "first_ns");
		sql_add(&b, ", sum(records) FROM" UNCUT_ROWS_SQL " GROUP BY 1, 2, 3");
	} else {
		if (ras_db_rollup_raw_rows_sql(raw, sizeof(raw), idx,
					       ras_db_table_exists(db, "folds")) < 0)
			return NULL;
		sql_add(&b, "WITH ");
		points_sql(&b, starts, n);
		sql_add(&b, "," ROLLUP_ROWS_SQL RAS_DB_CUT_SQL " SELECT severity, location, ");
		column_of(&b, 0, n + 1, "first_ns");
		sql_add(&b, ", sum(records) FROM ("
			" SELECT boot, source, synthetic, severity, location, records, first_ns"
			" FROM r WHERE" RAS_DB_UNCUT_SQL
			" UNION ALL SELECT boot, source, synthetic, severity, location, records, first_ns"
			" FROM (%s)) WHERE%s AND" HOLDS_SQL("location") " GROUP BY 1, 2, 3",
			raw, RAS_DB_FILTER_NO_WINDOW_SQL);
	}
	if (b.len >= b.cap || sqlite3_prepare_v2(db->h, text, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 5, ras_event_types[idx].table, -1, SQLITE_STATIC);
	return st;
}

/* ras_db_summary_scan's statement, by column. */
static sqlite3_stmt *columns_scan_stmt(struct ras_db *db, unsigned idx, unsigned n)
{
	char text[12288], loc[1024];
	struct sql_buf b = { text, sizeof(text), 0 };
	sqlite3_stmt *st;

	if (ras_db_sumloc_sql(loc, sizeof(loc), idx, "e", false) < 0)
		return NULL;
	sql_add(&b, "SELECT severity, %s, ", loc);
	column_of(&b, 0, n + 1, "wall_ns");
	sql_add(&b, ", count(*) FROM %s_decoded e WHERE%s GROUP BY 1, 2, 3",
		ras_event_types[idx].table, RAS_DB_FILTER_SQL);
	if (b.len >= b.cap || sqlite3_prepare_v2(db->h, text, -1, &st, NULL) != SQLITE_OK)
		return NULL;  /* an older table without these columns */
	return st;
}

int ras_db_summary_columns(struct ras_db *db, const struct ras_db_filter *f, const int64_t *starts,
			   unsigned n, ras_db_column_fn fn, void *ctx)
{
	bool rollups = ras_db_table_exists(db, "rollup_hourly");
	bool uncut = !f->since_ns && !f->until_ns;
	int r = 0, step = SQLITE_DONE;

	if (n == 0 || n > RAS_DB_COLUMNS_MAX)
		return -EINVAL;
	for (unsigned c = 0; c <= n; c++)
		uncut = uncut && starts[c] % RAS_DB_HOUR_NS == 0;
	for (unsigned i = 0; i < ras_n_event_types && r == 0; i++) {
		bool scan = !rollups || !rollup_keyed(db, i);
		sqlite3_stmt *st;

		if (!ras_db_filter_wants(db, f, i))
			continue;
		if (!(st = scan ? columns_scan_stmt(db, i, n) : columns_rollup_stmt(db, i, starts, n, uncut)))
			continue;
		ras_db_bind_filter(st, f);
		sqlite3_bind_int64(st, 6, ras_db_first_hour(f->since_ns));
		sqlite3_bind_int64(st, 7, ras_db_last_hour(f->until_ns));
		if (!scan)
			bind_holds(st, f->location_holds);
		for (unsigned c = 0; c <= n; c++)
			sqlite3_bind_int64(st, (int)(COL_PARAM + c), starts[c]);
		while (r == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t col = sqlite3_column_int64(st, 2);
			const unsigned char *sev = sqlite3_column_text(st, 0);

			if (col >= 0 && col < (int64_t)n)
				r = fn(ctx, i, scan ? (const char *)sev : or_null(sev),
				       scan ? (const char *)sqlite3_column_text(st, 1)
					    : or_null(sqlite3_column_text(st, 1)),
				       (unsigned)col, sqlite3_column_int64(st, 3));
		}
		if (r == 0 && step != SQLITE_DONE) {
			snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
			r = -EIO;
		}
		sqlite3_finalize(st);
	}
	return r;
}

static struct ras_db_loss_origin *loss_origin(struct ras_db_losses *l, const char *name)
{
	for (unsigned i = 0; i < l->n; i++)
		if (!strcmp(l->o[i].origin, name))
			return &l->o[i];
	if (l->n == RAS_DB_LOSS_ORIGINS_MAX)
		return &l->o[l->n - 1];    /* past 16 origins, the last holds the rest */
	snprintf(l->o[l->n].origin, sizeof(l->o[l->n].origin), "%s", name);
	l->o[l->n].in_total = strcmp(name, "subbuffer") != 0;
	return &l->o[l->n++];
}

int ras_db_losses(struct ras_db *db, const struct ras_db_filter *f, int64_t after_id,
		  struct ras_db_losses *out)
{
	static const char *const known[] = RAS_DB_LOSS_ORIGINS;
	/* A negative count is unknown as NULL is (rasd stores NULL; an older one may have -1). */
	static const char sql[] =
		"SELECT coalesce(origin, ''), coalesce(sum(CASE WHEN count >= 0 THEN count END), 0),"
		" sum(count IS NULL OR count < 0), count(*), max(id) FROM lost_events"
		" WHERE (?1 = 0 OR to_ns >= ?1) AND (?2 = 0 OR to_ns < ?2) AND (?3 OR 1)"
		" AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4)) AND id > ?6"
		" GROUP BY 1 ORDER BY 1";
	sqlite3_stmt *st;
	int step;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		loss_origin(out, known[i]);
	if (!ras_db_table_exists(db, "lost_events"))
		return 0;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	ras_db_bind_filter(st, f);
	sqlite3_bind_int64(st, 6, after_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct ras_db_loss_origin *o = loss_origin(out, (const char *)sqlite3_column_text(st, 0));

		o->records += sqlite3_column_int64(st, 1);
		o->gaps += sqlite3_column_int64(st, 2);
		o->rows += sqlite3_column_int64(st, 3);
		if (sqlite3_column_int64(st, 4) > out->max_id)
			out->max_id = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	for (unsigned i = 0; i < out->n; i++) {
		out->records += out->o[i].in_total ? out->o[i].records : 0;
		out->gaps += out->o[i].gaps;
	}
	return 0;
}

int ras_db_lost_totals(struct ras_db *db, const struct ras_db_filter *f, int64_t *counted,
		       int64_t *unknown_gaps)
{
	struct ras_db_losses l;
	int r = ras_db_losses(db, f, 0, &l);

	*counted = l.records;
	*unknown_gaps = l.gaps;
	return r;
}

int ras_db_last_crash(struct ras_db *db, int64_t *records, int64_t *at_ns)
{
	sqlite3_stmt *st;
	int r = 0;

	*records = *at_ns = 0;
	if (!ras_db_table_exists(db, "lost_events"))
		return 0;
	/* One accounting at a start stores a row per CPU, all with the same to_ns. */
	if (sqlite3_prepare_v2(db->h, "SELECT coalesce(sum(count), 0), to_ns FROM lost_events"
			       " WHERE origin = 'crash' AND to_ns = (SELECT max(to_ns) FROM lost_events"
			       " WHERE origin = 'crash')", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*records = sqlite3_column_int64(st, 0);
		*at_ns = sqlite3_column_int64(st, 1);
	} else {
		r = -EIO;
	}
	sqlite3_finalize(st);
	return r;
}

int ras_db_table_stats(struct ras_db *db, unsigned type_idx, int64_t *rows, int64_t *last_ns)
{
	char sql[256];
	sqlite3_stmt *st;

	*rows = *last_ns = 0;
	if (!ras_db_table_exists(db, ras_event_types[type_idx].table))
		return -ENOENT;
	/* The roll-ups count every row: a status check does not scan the history. */
	if (ras_db_table_exists(db, "rollup_totals"))
		snprintf(sql, sizeof(sql), "SELECT coalesce(sum(records), 0), coalesce(max(last_ns), 0)"
			 " FROM rollup_totals WHERE tbl = ?1");
	else if (ras_db_table_exists(db, "rollup_hourly"))
		snprintf(sql, sizeof(sql), "SELECT coalesce(sum(records), 0), coalesce(max(last_ns), 0)"
			 " FROM rollup_hourly WHERE tbl = ?1");
	else
		snprintf(sql, sizeof(sql), "SELECT count(*), coalesce(max(wall_ns), 0) FROM %s",
			 ras_event_types[type_idx].table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_bind_parameter_count(st))
		sqlite3_bind_text(st, 1, ras_event_types[type_idx].table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		sqlite3_finalize(st);
		return -EIO;
	}
	*rows = sqlite3_column_int64(st, 0);
	*last_ns = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	return 0;
}

int ras_db_boot_by_offset(struct ras_db *db, unsigned back, char *out, size_t len)
{
	sqlite3_stmt *st;
	int r = -ENOENT;

	if (!ras_db_table_exists(db, "boots") ||
	    sqlite3_prepare_v2(db->h, "SELECT boot_id FROM boots ORDER BY first_seen_ns DESC, id DESC"
			       " LIMIT 1 OFFSET ?", -1, &st, NULL) != SQLITE_OK)
		return -ENOENT;
	sqlite3_bind_int(st, 1, (int)back);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
		r = 0;
	}
	sqlite3_finalize(st);
	return r;
}

int64_t ras_db_counter(struct ras_db *db, const char *name)
{
	sqlite3_stmt *st;
	int64_t v = 0;

	if (!ras_db_table_exists(db, "counters") ||
	    sqlite3_prepare_v2(db->h, "SELECT value FROM counters WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}
