/* SPDX-License-Identifier: MIT */
/*
 * ras_db_errors (db_query.h): the records of the event tables and their
 * folded periods, newest first. A listing (errors, the newest 50) is one
 * ordering query over every wanted table (type, id, time: the time index
 * finds the newest) and each row then read by its id. Narrowed to summary
 * locations (report --part), each table's rows are one ordered query reading
 * every column a row needs, found by <table>_by_dec (db_locations.c), from
 * the table itself: each boot id and decoding is looked up once, not joined
 * to every row (db_row_read.c, ras_db_row_cols.by_key), and
 * each table's folded periods another; they are merged here, newest first,
 * as the ordering query's ORDER BY would: a part's 100,000 rows spread over
 * a 1.6 GB table cost a page read each when looked up one by one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_filter.h"
#include "db_locations.h"
#include "db_query.h"

/* Ordering rows numbered from here are folds rows of event type (number - FOLD_ROW_BASE). */
#define FOLD_ROW_BASE 1000u

/* A folds row's columns as a period of ras_db_errors delivers it (folds aliased f). */
#define FOLD_COLS "subject, records, errors, first_ns, last_ns, addr_lo, addr_hi, detail_name," \
	" details, details_more, (SELECT boot_id FROM boots WHERE id = f.boot), source, severity," \
	" location, dec, synthetic, id"
#define FOLD_COL_LAST 4
#define FOLD_COL_ID 16

/*
 * Builds "SELECT 'i', id, wall_ns FROM t WHERE ... UNION ALL ..." over
 * existing tables. NULL with *r 0: no table; with *r -errno: out of memory
 * or room.
 */
static char *ordering_sql(struct ras_db *db, const struct ras_db_filter *f, int *r)
{
	size_t cap = 65536, n = 0;
	char *sql = malloc(cap);

	*r = -ENOMEM;
	if (!sql)
		return NULL;
	sql[0] = 0;
	bool folds = f->with_folds && ras_db_table_exists(db, "folds");
	size_t first = 0;

	for (unsigned i = 0; i < ras_n_event_types && n < cap; i++) {
		if (!ras_db_filter_wants(db, f, i))
			continue;
		n += (size_t)snprintf(sql + n, cap - n, "%sSELECT %u AS t, id, wall_ns FROM %s WHERE%s%s%s%s",
				      n > first ? " UNION ALL " : "", i, ras_event_types[i].table, RAS_DB_FILTER_SQL,
				      f->several_errors ? " AND \"" : "",
				      f->several_errors ? ras_event_types[i].errors->name : "",
				      f->several_errors ? "\" > 1" : "");
		/* A folded period is listed at its last record, when it overlaps the window. */
		if (folds && !f->several_errors && n < cap)
			n += (size_t)snprintf(sql + n, cap - n, " UNION ALL SELECT %u, id, last_ns FROM folds"
					      " WHERE tbl = '%s' AND (?1 = 0 OR last_ns >= ?1)"
					      " AND (?2 = 0 OR first_ns < ?2) AND%s",
					      FOLD_ROW_BASE + i, ras_event_types[i].table,
					      RAS_DB_FILTER_NO_WINDOW_SQL);
	}
	*r = n >= cap ? -E2BIG : 0;
	if (n == first || n >= cap) {
		free(sql);
		return NULL;
	}
	snprintf(sql + n, cap - n, " ORDER BY wall_ns DESC, id DESC LIMIT ?5");
	return sql;
}


static void fold_info_of(sqlite3_stmt *st, struct ras_db_fold_info *fi)
{
	const uint8_t *d = sqlite3_column_blob(st, 8);
	int nd = sqlite3_column_bytes(st, 8) / 8;

	*fi = (struct ras_db_fold_info){
		.subject = (const char *)sqlite3_column_text(st, 0),
		.records = sqlite3_column_int64(st, 1), .errors = sqlite3_column_int64(st, 2),
		.first_ns = sqlite3_column_int64(st, 3), .last_ns = sqlite3_column_int64(st, 4),
		.have_addr = sqlite3_column_type(st, 5) == SQLITE_INTEGER,
		.addr_lo = (uint64_t)sqlite3_column_int64(st, 5),
		.addr_hi = (uint64_t)sqlite3_column_int64(st, 6),
		.detail_name = (const char *)sqlite3_column_text(st, 7),
		.details_more = sqlite3_column_int(st, 9) != 0,
	};
	for (int i = 0; d && i < nd && i < RAS_DB_FOLD_DETAILS; i++)
		memcpy(&fi->details[fi->ndetails++], d + 8 * i, 8);
	if (!fi->subject)
		fi->subject = "";
	if (!fi->detail_name)
		fi->detail_name = "";
}


/*
 * The folds row st (of FOLD_COLS) stands on as a row of ras_db_errors: what
 * it stands for, with its first record's decoding.
 */
static int fold_read(struct ras_db *db, sqlite3_stmt *st, unsigned idx, void *decoded,
		     ras_db_row_fn fn, void *ctx)
{
	struct ras_decoded_head *h = decoded;
	struct ras_db_fold_info fi;
	struct ras_db_row row = { .type_idx = idx, .id = sqlite3_column_int64(st, FOLD_COL_ID),
				  .decoded = decoded, .fold = &fi };
	enum ras_severity sev = RAS_SEV_UNKNOWN;

	fold_info_of(st, &fi);
	memset(decoded, 0, RAS_DECODED_MAX);
	ras_db_dec_read(db, idx, sqlite3_column_int64(st, 14), decoded);
	row.wall_ns = fi.last_ns;
	row.boot_id = (const char *)sqlite3_column_text(st, 10);
	row.source = (const char *)sqlite3_column_text(st, 11);
	row.severity = (const char *)sqlite3_column_text(st, 12);
	row.synthetic = sqlite3_column_int(st, 15) != 0 ||
			(row.source && !strcmp(row.source, "synthetic"));
	if (row.severity)
		ras_severity_parse(row.severity, &sev);
	h->severity = sev;
	snprintf(h->location, sizeof(h->location), "%s",
		 sqlite3_column_text(st, 13) ? (const char *)sqlite3_column_text(st, 13) : "");
	row.location = h->location;
	return fn(ctx, &row);
}

static int deliver_fold(struct ras_db *db, unsigned idx, int64_t id, void *decoded,
			ras_db_row_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int r = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT " FOLD_COLS " FROM folds f WHERE id = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		r = fold_read(db, st, idx, decoded, fn, ctx);
	sqlite3_finalize(st);
	return r;
}

/* The walk by the ordering query: each row then read by its id. */
static int errors_ordered(struct ras_db *db, const struct ras_db_filter *f, sqlite3_stmt *order,
			  struct ras_db_row_cols *cols, void *decoded, ras_db_row_fn fn, void *ctx)
{
	sqlite3_stmt *rows[RAS_MAX_EVENT_TYPES] = { 0 };
	int n = 0, r = 0, step = SQLITE_DONE;

	ras_db_bind_filter(order, f);
	sqlite3_bind_int64(order, 5, f->limit ? (int64_t)f->limit : -1);
	while (r == 0 && (step = sqlite3_step(order)) == SQLITE_ROW) {
		unsigned idx = (unsigned)sqlite3_column_int(order, 0);

		if (idx >= FOLD_ROW_BASE && idx - FOLD_ROW_BASE < ras_n_event_types) {
			r = deliver_fold(db, idx - FOLD_ROW_BASE, sqlite3_column_int64(order, 1), decoded,
					 fn, ctx);
			n++;
			continue;
		}
		if (idx >= ras_n_event_types)
			continue;
		if (!rows[idx] && !(rows[idx] = ras_db_row_stmt(db, idx, &cols[idx])))
			continue;
		r = ras_db_deliver_row(rows[idx], idx, sqlite3_column_int64(order, 1), &cols[idx], decoded,
				fn, ctx);
		if (r == -EIO)
			snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		n++;
	}
	/* A damaged page ends the walk with an error, never as "no more rows". */
	if (r == 0 && step != SQLITE_DONE) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		r = -EIO;
	}
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++)
		sqlite3_finalize(rows[i]);
	return r < 0 ? r : n;
}

static int errors_by_order(struct ras_db *db, const struct ras_db_filter *f,
			   struct ras_db_row_cols *cols, void *decoded, ras_db_row_fn fn, void *ctx)
{
	sqlite3_stmt *order;
	int r = 0;
	char *sql = ordering_sql(db, f, &r);

	if (!sql)
		return r;
	if (sqlite3_prepare_v2(db->h, sql, -1, &order, NULL) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		free(sql);
		return -EIO;
	}
	free(sql);
	r = errors_ordered(db, f, order, cols, decoded, fn, ctx);
	sqlite3_finalize(order);
	return r;
}

/* One ordered source of the merged walk: a table's rows, or its folded periods. */
struct source {
	sqlite3_stmt *st;
	unsigned idx;
	bool fold;
	int64_t wall, id;             /* of the row st stands on */
};

/* Counts a piece of SQL written at *n (its length, or -1 if it did not fit: *n = cap). */
static void append(size_t cap, size_t *n, int len)
{
	*n = len < 0 ? cap : *n + (size_t)len;
}

/* Whether "" is among the filter's locations (rows without a decoding read so). */
static bool has_empty(const struct ras_db_filter *f)
{
	for (unsigned i = 0; i < f->nlocations; i++)
		if (!f->locations[i][0])
			return true;
	return false;
}

/*
 * Table idx's rows of f's locations, newest first, with every column a row
 * needs (ras_db_row_select), or its folded periods (FOLD_COLS).
 */
static sqlite3_stmt *source_stmt(struct ras_db *db, const struct ras_db_filter *f, unsigned idx,
				 bool fold, struct ras_db_row_cols *rc)
{
	const struct ras_event_type *t = &ras_event_types[idx];
	size_t cap = 65536, n;
	char *sql = malloc(cap);
	sqlite3_stmt *st = NULL;
	int w;

	if (!sql || (w = ras_db_locations_with(sql, cap, f->nlocations)) < 0) {
		free(sql);
		return NULL;
	}
	n = (size_t)w;
	if (fold) {
		n += (size_t)snprintf(sql + n, cap - n, "SELECT " FOLD_COLS " FROM folds f WHERE tbl = '%s'"
				      " AND (?1 = 0 OR last_ns >= ?1) AND (?2 = 0 OR first_ns < ?2) AND"
				      RAS_DB_FILTER_NO_WINDOW_SQL, t->table);
		append(cap, &n, n < cap ? ras_db_locations_folds(sql + n, cap - n, idx, "f") : -1);
		if (n < cap)
			n += (size_t)snprintf(sql + n, cap - n, " ORDER BY last_ns DESC, id DESC");
	} else {
		/* From the table: its rows' boots and decodings are looked up once each, not joined. */
		rc->by_key = true;
		if ((w = ras_db_row_select(db, idx, rc, sql, cap, n)) < 0)
			n = cap;
		else
			n = (size_t)w;
		if (n < cap)
			n += (size_t)snprintf(sql + n, cap - n, " FROM %s e WHERE" RAS_DB_FILTER_SQL
					      "%s%s%s", t->table, f->several_errors ? " AND e.\"" : "",
					      f->several_errors ? t->errors->name : "",
					      f->several_errors ? "\" > 1" : "");
		append(cap, &n, n < cap ? ras_db_locations_rows(sql + n, cap - n, idx, has_empty(f),
								     "e") : -1);
		if (n < cap)
			n += (size_t)snprintf(sql + n, cap - n, " ORDER BY e.wall_ns DESC, e.id DESC");
	}
	if (n < cap && sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK) {
		ras_db_bind_filter(st, f);
		ras_db_locations_bind(st, f->locations, f->nlocations);
	}
	free(sql);
	return st;
}

/* Steps s to its next row: 1, 0 at its end (finalized), or -EIO. */
static int source_next(struct ras_db *db, struct source *s)
{
	int step = sqlite3_step(s->st);

	if (step == SQLITE_ROW) {
		s->wall = sqlite3_column_int64(s->st, s->fold ? FOLD_COL_LAST : 0);
		s->id = sqlite3_column_int64(s->st, s->fold ? FOLD_COL_ID : 7);
		return 1;
	}
	if (step != SQLITE_DONE)
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
	sqlite3_finalize(s->st);
	s->st = NULL;
	return step == SQLITE_DONE ? 0 : -EIO;
}

/* The source whose row is the newest (time, then id, as ORDER BY wall_ns DESC, id DESC), or NULL. */
static struct source *newest(struct source *s, unsigned n)
{
	struct source *best = NULL;

	for (unsigned i = 0; i < n; i++)
		if (s[i].st && (!best || s[i].wall > best->wall ||
				(s[i].wall == best->wall && s[i].id > best->id)))
			best = &s[i];
	return best;
}

/* Opens the wanted tables' sources, each at its first row. Returns how many, or -errno. */
static int sources_open(struct ras_db *db, const struct ras_db_filter *f, struct source *s,
			struct ras_db_row_cols *cols)
{
	bool folds = f->with_folds && !f->several_errors && ras_db_table_exists(db, "folds");
	unsigned n = 0;
	int r = 0;

	for (unsigned i = 0; i < ras_n_event_types && r >= 0; i++)
		for (int fold = 0; fold <= folds && r >= 0; fold++) {
			if (!ras_db_filter_wants(db, f, i))
				continue;
			s[n] = (struct source){ .idx = i, .fold = fold };
			/* A table an older database lacks columns of is skipped, as errors_ordered does. */
			if (!(s[n].st = source_stmt(db, f, i, fold, &cols[i])))
				continue;
			if ((r = source_next(db, &s[n])) > 0)
				n++;
		}
	for (unsigned i = 0; r < 0 && i < n; i++)
		sqlite3_finalize(s[i].st);
	return r < 0 ? r : (int)n;
}

/* The locations' rows and folded periods, each table's in one ordered query, merged. */
static int errors_merged(struct ras_db *db, const struct ras_db_filter *f,
			 struct ras_db_row_cols *cols, void *decoded, ras_db_row_fn fn, void *ctx)
{
	struct source s[2 * RAS_MAX_EVENT_TYPES], *x;
	int n = 0, r, ns;

	if (f->nlocations > RAS_DB_LOCATIONS_MAX)
		return -E2BIG;
	ns = sources_open(db, f, s, cols);
	r = ns < 0 ? ns : 0;
	while (r == 0 && ns > 0 && (!f->limit || n < (int)f->limit) && (x = newest(s, (unsigned)ns))) {
		r = x->fold ? fold_read(db, x->st, x->idx, decoded, fn, ctx)
			    : ras_db_row_read(x->st, x->idx, &cols[x->idx], decoded, fn, ctx);
		n++;
		if (r == 0 && (r = source_next(db, x)) > 0)
			r = 0;
	}
	for (int i = 0; i < ns; i++)
		sqlite3_finalize(s[i].st);
	return r < 0 ? r : n;
}

int ras_db_errors(struct ras_db *db, const struct ras_db_filter *f, ras_db_row_fn fn, void *ctx)
{
	struct ras_db_row_cols *cols;
	void *decoded;
	int r;

	if (ras_db_sync(db) < 0)
		return -EIO;
	cols = calloc(RAS_MAX_EVENT_TYPES, sizeof(*cols));
	decoded = aligned_alloc(16, RAS_DECODED_MAX);
	if (!cols || !decoded)
		r = -ENOMEM;
	else if (f->locations)
		r = errors_merged(db, f, cols, decoded, fn, ctx);
	else
		r = errors_by_order(db, f, cols, decoded, fn, ctx);
	for (unsigned i = 0; cols && i < RAS_MAX_EVENT_TYPES; i++)
		ras_db_row_cols_release(&cols[i]);
	free(cols);
	free(decoded);
	return r;
}
