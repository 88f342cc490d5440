/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_fold.h"
#include "db_locations.h"
#include "db_query.h"
#include "db_rollup.h"

/*
 * WHERE clause shared by every query; its parameters are bound by bind_filter().
 * The window is a plain range, ?10 and ?11 with an open end bound as the
 * extreme value, so SQLite searches the time index: "?1 = 0 OR wall_ns >= ?1"
 * made it walk the whole index, even for a window with no record in it.
 * (Numbered: a named parameter would take the number of the next ?N.)
 */
static const char filter_sql[] =
	" wall_ns >= ?10 AND wall_ns < ?11"
	" AND (?3 OR (source <> 'synthetic' AND synthetic = 0))"
	" AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4))";

static void bind_filter(sqlite3_stmt *st, const struct ras_db_filter *f)
{
	sqlite3_bind_int64(st, 1, f->since_ns);
	sqlite3_bind_int64(st, 2, f->until_ns);
	/* Out of range (a statement without them) is harmless: nothing is bound. */
	sqlite3_bind_int64(st, 10, f->since_ns ? f->since_ns : INT64_MIN);
	sqlite3_bind_int64(st, 11, f->until_ns ? f->until_ns : INT64_MAX);
	sqlite3_bind_int(st, 3, f->include_synthetic);
	if (f->boot_id)
		sqlite3_bind_text(st, 4, f->boot_id, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 4);
}

static bool wanted(struct ras_db *db, const struct ras_db_filter *f, unsigned i)
{
	if (f->type_idx >= 0 && (unsigned)f->type_idx != i)
		return false;
	if (f->type_idx < 0 && f->type_mask && (i >= 64 || !(f->type_mask & (UINT64_C(1) << i))))
		return false;
	/* Only a type with a count of errors (an mc_event) has records of several. */
	if (f->several_errors && !ras_event_types[i].errors)
		return false;
	return ras_db_table_exists(db, ras_event_types[i].table);
}

/* Ordering rows numbered from here are folds rows of event type (number - FOLD_ROW_BASE). */
#define FOLD_ROW_BASE 1000u

static const char fold_filter_sql[] =
	" (?3 OR (source <> 'synthetic' AND synthetic = 0))"
	" AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4))";

/* Whether "" is among the filter's locations (rows without a decoding read so). */
static bool has_empty(const struct ras_db_filter *f)
{
	for (unsigned i = 0; i < f->nlocations; i++)
		if (!f->locations[i][0])
			return true;
	return false;
}

/* Appends a piece of SQL (its length, or -1 if it did not fit) to sql[*n]. */
static void append(char *sql, size_t cap, size_t *n, int len)
{
	*n = len < 0 ? cap : *n + (size_t)len;
}

/*
 * Builds "SELECT 'i', id, wall_ns FROM t WHERE ... UNION ALL ..." over
 * existing tables. NULL with *r 0: no table; with *r -errno: out of memory
 * or room, or too many locations.
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
	size_t first;
	int w = 0;

	if (f->locations && (f->nlocations > RAS_DB_LOCATIONS_MAX ||
			     (w = ras_db_locations_with(sql, cap, f->nlocations)) < 0)) {
		free(sql);
		*r = -E2BIG;
		return NULL;
	}
	first = n = (size_t)w;
	for (unsigned i = 0; i < ras_n_event_types && n < cap; i++) {
		if (!wanted(db, f, i))
			continue;
		n += (size_t)snprintf(sql + n, cap - n, "%sSELECT %u AS t, id, wall_ns FROM %s WHERE%s%s%s%s",
				      n > first ? " UNION ALL " : "", i, ras_event_types[i].table, filter_sql,
				      f->several_errors ? " AND \"" : "",
				      f->several_errors ? ras_event_types[i].errors->name : "",
				      f->several_errors ? "\" > 1" : "");
		if (f->locations && n < cap)
			append(sql, cap, &n, ras_db_locations_rows(sql + n, cap - n, i, has_empty(f)));
		/* A folded period is listed at its last record, when it overlaps the window. */
		if (folds && !f->several_errors && n < cap)
			n += (size_t)snprintf(sql + n, cap - n, " UNION ALL SELECT %u, id, last_ns FROM folds"
					      " WHERE tbl = '%s' AND (?1 = 0 OR last_ns >= ?1)"
					      " AND (?2 = 0 OR first_ns < ?2) AND%s",
					      FOLD_ROW_BASE + i, ras_event_types[i].table, fold_filter_sql);
		if (folds && !f->several_errors && f->locations && n < cap)
			append(sql, cap, &n, ras_db_locations_folds(sql + n, cap - n));
	}
	*r = n >= cap ? -E2BIG : 0;
	if (n == first || n >= cap) {
		free(sql);
		return NULL;
	}
	snprintf(sql + n, cap - n, " ORDER BY wall_ns DESC, id DESC LIMIT ?5");
	return sql;
}

/* Appends ", <alias>.\"name\"" when the view has that column (older databases may not). */
static int add_column(struct ras_db *db, const char *view, const char *name, char *sql,
		      size_t cap, size_t *n, int *col)
{
	char probe[256];
	sqlite3_stmt *st;

	/* Qualified: SQLite reads an unknown "name" alone as a string, not an error. */
	snprintf(probe, sizeof(probe), "SELECT e.\"%s\" FROM %s e LIMIT 0", name, view);
	if (sqlite3_prepare_v2(db->h, probe, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_finalize(st);
	*n += (size_t)snprintf(sql + *n, cap - *n, ", e.\"%s\"", name);
	return (*col)++;
}

/* Selects the common, raw and decoded columns the view really has; the rest read as NULL. */
sqlite3_stmt *ras_db_row_stmt(struct ras_db *db, unsigned idx, struct ras_db_row_cols *rc)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	char sql[16384], view[96];
	size_t n;
	sqlite3_stmt *st;
	int col = 7;

	snprintf(view, sizeof(view), "%s_decoded", type->table);
	n = (size_t)snprintf(sql, sizeof(sql), "SELECT e.wall_ns, e.trace_ts, e.trace_cpu,"
			     " (SELECT boot_id FROM boots WHERE id = e.boot), e.source, e.severity,"
			     " e.synthetic");
	for (unsigned i = 0; i < type->n_fields; i++)
		rc->raw[i] = add_column(db, view, ras_db_column_name(idx, t->first_raw + i), sql,
					sizeof(sql), &n, &col);
	for (size_t i = 0; i < *type->n_dfields && i < RAS_DB_MAX_COLS; i++)
		rc->dec[i] = -1;
	rc->location = -1;
	for (unsigned k = 0; k < t->ndcols; k++) {
		int c = add_column(db, view, t->dcols[k].name, sql, sizeof(sql), &n, &col);

		if (t->dfield[k] < 0)
			rc->location = c;
		else
			rc->dec[t->dfield[k]] = c;
	}
	for (unsigned k = 0; k < t->nrec; k++)
		rc->dec[t->rfield[k]] = add_column(db, view, t->cols[t->first_rec + k].name, sql,
						   sizeof(sql), &n, &col);
	snprintf(sql + n, sizeof(sql) - n, " FROM %s e WHERE e.id = ?", view);
	if (n >= sizeof(sql) || sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	return st;
}

static void read_value(sqlite3_stmt *st, int col, struct ras_value *v)
{
	int t = col >= 0 ? sqlite3_column_type(st, col) : SQLITE_NULL;

	memset(v, 0, sizeof(*v));
	if (t == SQLITE_NULL)
		return;
	v->present = true;
	if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
		v->i = sqlite3_column_int64(st, col);
		return;
	}
	v->p = t == SQLITE_BLOB ? sqlite3_column_blob(st, col) : (const void *)sqlite3_column_text(st, col);
	v->len = (uint32_t)sqlite3_column_bytes(st, col);
}

/* Sets one decoded member from a value; absent is RAS_DF_NONE or "". */
static void set_member(void *out, const struct ras_dfield *f, const struct ras_value *v)
{
	char *m = (char *)out + f->offset;

	if (f->type == RAS_DF_INT) {
		*(int64_t *)m = v->present && !v->p ? v->i : RAS_DF_NONE;
		return;
	}
	m[0] = 0;
	if (v->present && v->p && f->size)
		snprintf(m, f->size, "%.*s", (int)v->len, (const char *)v->p);
}

/*
 * Rebuilds the decoder's output struct from what was stored: severity,
 * location and every decoded field, those that restate a raw field from its
 * column. No decoder runs: the row reads the same on any machine.
 */
static void load_decoded(sqlite3_stmt *st, unsigned idx, const struct ras_db_row_cols *rc,
			 const struct ras_db_row *row, void *out)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	struct ras_decoded_head *h = out;
	enum ras_severity sev = RAS_SEV_UNKNOWN;
	struct ras_value v;

	memset(out, 0, RAS_DECODED_MAX);
	if (row->severity)
		ras_severity_parse(row->severity, &sev);
	h->severity = sev;
	read_value(st, rc->location, &v);
	if (v.present && v.p)
		snprintf(h->location, sizeof(h->location), "%.*s", (int)v.len, (const char *)v.p);
	for (size_t i = 0; i < *type->n_dfields && i < RAS_DB_MAX_COLS; i++) {
		const struct ras_dfield *f = &type->dfields[i];
		int raw = ras_db_restated_raw(type, f);

		if (rc->dec[i] >= 0)
			read_value(st, rc->dec[i], &v);
		else if (raw >= 0)
			v = row->values[raw];
		else
			memset(&v, 0, sizeof(v));
		set_member(out, f, &v);
	}
}

int ras_db_deliver_row(sqlite3_stmt *st, unsigned idx, int64_t id, const struct ras_db_row_cols *rc,
		       void *decoded, ras_db_row_fn fn, void *ctx)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	struct ras_db_row row = { .type_idx = idx, .id = id, .decoded = decoded };
	int r;

	sqlite3_bind_int64(st, 1, id);
	int step = sqlite3_step(st);

	if (step != SQLITE_ROW) {
		sqlite3_reset(st);
		/* Gone since the ordering query: skip it. A damaged page: say so. */
		return step == SQLITE_DONE ? 0 : -EIO;
	}
	row.wall_ns = sqlite3_column_int64(st, 0);
	row.trace_ts = sqlite3_column_int64(st, 1);
	row.trace_cpu = sqlite3_column_int(st, 2);
	row.boot_id = (const char *)sqlite3_column_text(st, 3);
	row.source = (const char *)sqlite3_column_text(st, 4);
	row.severity = (const char *)sqlite3_column_text(st, 5);
	row.synthetic = sqlite3_column_int(st, 6) != 0 ||
			(row.source && !strcmp(row.source, "synthetic"));
	for (unsigned i = 0; i < type->n_fields; i++)
		read_value(st, rc->raw[i], &row.values[i]);
	load_decoded(st, idx, rc, &row, decoded);
	row.location = ((const struct ras_decoded_head *)decoded)->location;
	r = fn(ctx, &row);
	sqlite3_reset(st);
	return r;
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
 * A folded period's decoded fields: its first record's stored decoding (the
 * dec row the folds row keeps), for views that group by them (summary --by
 * vendor). The per-record fields and those restating a raw field stay unknown.
 */
static void fold_decoding(struct ras_db *db, unsigned idx, int64_t dec, void *out)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	char sql[16384];
	size_t n = (size_t)snprintf(sql, sizeof(sql), "SELECT id");
	sqlite3_stmt *st;
	struct ras_value v;
	int col = 1;

	for (size_t i = 0; i < *type->n_dfields; i++)
		if (type->dfields[i].type == RAS_DF_INT)
			*(int64_t *)((char *)out + type->dfields[i].offset) = RAS_DF_NONE;
	for (unsigned k = 0; k < t->ndcols && n < sizeof(sql); k++)
		if (t->dfield[k] >= 0)
			n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", \"%s\"", t->dcols[k].name);
	if (n < sizeof(sql))
		snprintf(sql + n, sizeof(sql) - n, " FROM %s_dec WHERE id = ?", type->table);
	/* An older database's table may lack columns: the period keeps its head only. */
	if (n >= sizeof(sql) || sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, dec);
	if (sqlite3_step(st) == SQLITE_ROW)
		for (unsigned k = 0; k < t->ndcols; k++)
			if (t->dfield[k] >= 0) {
				read_value(st, col++, &v);
				set_member(out, &type->dfields[t->dfield[k]], &v);
			}
	sqlite3_finalize(st);
}

/* One folds row as a row of ras_db_errors: what it stands for, with its first record's decoding. */
static int deliver_fold(struct ras_db *db, unsigned idx, int64_t id, void *decoded,
			ras_db_row_fn fn, void *ctx)
{
	struct ras_decoded_head *h = decoded;
	struct ras_db_fold_info fi;
	struct ras_db_row row = { .type_idx = idx, .id = id, .decoded = decoded, .fold = &fi };
	enum ras_severity sev = RAS_SEV_UNKNOWN;
	sqlite3_stmt *st;
	int r = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT subject, records, errors, first_ns, last_ns, addr_lo,"
			       " addr_hi, detail_name, details, details_more,"
			       " (SELECT boot_id FROM boots WHERE id = folds.boot), source, severity,"
			       " location, dec, synthetic FROM folds WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		fold_info_of(st, &fi);
		memset(decoded, 0, RAS_DECODED_MAX);
		fold_decoding(db, idx, sqlite3_column_int64(st, 14), decoded);
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
		r = fn(ctx, &row);
	}
	sqlite3_finalize(st);
	return r;
}

int ras_db_errors(struct ras_db *db, const struct ras_db_filter *f, ras_db_row_fn fn, void *ctx)
{
	sqlite3_stmt *order, *rows[RAS_MAX_EVENT_TYPES] = { 0 };
	struct ras_db_row_cols *cols;
	void *decoded;
	char *sql;
	int n = 0, r = 0;

	if (ras_db_sync(db) < 0)
		return -EIO;
	sql = ordering_sql(db, f, &r);

	if (!sql)
		return r;
	cols = calloc(RAS_MAX_EVENT_TYPES, sizeof(*cols));
	decoded = aligned_alloc(16, RAS_DECODED_MAX);
	if (!cols || !decoded) {
		free(cols);
		free(decoded);
		free(sql);
		return -ENOMEM;
	}
	if (sqlite3_prepare_v2(db->h, sql, -1, &order, NULL) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		free(cols);
		free(decoded);
		free(sql);
		return -EIO;
	}
	free(sql);
	bind_filter(order, f);
	sqlite3_bind_int64(order, 5, f->limit ? (int64_t)f->limit : -1);
	if (f->locations)
		ras_db_locations_bind(order, f->locations, f->nlocations);
	int step = SQLITE_DONE;

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
	sqlite3_finalize(order);
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++)
		sqlite3_finalize(rows[i]);
	free(cols);
	free(decoded);
	return r < 0 ? r : n;
}

/* Every row read: the reference the roll-ups are tested against, and older databases' answer. */
int ras_db_summary_scan(struct ras_db *db, const struct ras_db_filter *f, ras_db_count_fn fn, void *ctx)
{
	char sql[2048], loc[1024];
	int r = 0, step = SQLITE_DONE;

	for (unsigned i = 0; i < ras_n_event_types && r == 0; i++) {
		sqlite3_stmt *st;

		if (!wanted(db, f, i) || ras_db_sumloc_sql(loc, sizeof(loc), i, "e", false) < 0)
			continue;
		snprintf(sql, sizeof(sql),
			 "SELECT severity, %s, count(*), min(wall_ns), max(wall_ns) FROM %s_decoded e"
			 " WHERE%s GROUP BY 1, 2 ORDER BY count(*) DESC",
			 loc, ras_event_types[i].table, filter_sql);
		if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
			continue;  /* an older table without these columns */
		bind_filter(st, f);
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
 * full scan's.
 */
static const char rollup_filter[] =
	" (?3 OR (source <> 'synthetic' AND synthetic = 0))"
	" AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4))";

static sqlite3_stmt *summary_stmt(struct ras_db *db, unsigned idx, const struct ras_db_filter *f)
{
	const char *table = ras_event_types[idx].table;
	char sql[8192], raw[5120];
	sqlite3_stmt *st;

	if (ras_db_rollup_raw_rows_sql(raw, sizeof(raw), idx, ras_db_table_exists(db, "folds")) < 0)
		return NULL;
	snprintf(sql, sizeof(sql),
		 "WITH points(t) AS (SELECT ?1 WHERE ?1 <> 0 UNION ALL SELECT ?2 WHERE ?2 <> 0),"
		 " r AS (SELECT * FROM rollup_hourly WHERE tbl = ?5 AND hour >= ?6 AND hour <= ?7),"
		 RAS_DB_CUT_SQL
		 " SELECT severity, location, sum(records), min(first_ns), max(last_ns) FROM ("
		 " SELECT boot, source, synthetic, severity, location, records, first_ns, last_ns"
		 " FROM r WHERE" RAS_DB_UNCUT_SQL
		 " UNION ALL SELECT boot, source, synthetic, severity, location, records, first_ns,"
		 " last_ns FROM (%s)) WHERE%s GROUP BY 1, 2 ORDER BY 3 DESC",
		 raw, rollup_filter);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	bind_filter(st, f);
	sqlite3_bind_text(st, 5, table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, ras_db_first_hour(f->since_ns));
	sqlite3_bind_int64(st, 7, ras_db_last_hour(f->until_ns));
	return st;
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
	int r = 0;

	if (!ras_db_table_exists(db, "rollup_hourly"))
		return ras_db_summary_scan(db, f, fn, ctx);  /* an older database, read-only */
	for (unsigned i = 0; i < ras_n_event_types && r == 0; i++) {
		struct ras_db_filter one = *f;
		sqlite3_stmt *st;

		if (!wanted(db, f, i))
			continue;
		if (!rollup_keyed(db, i)) {
			one.type_idx = (int)i;
			r = ras_db_summary_scan(db, &one, fn, ctx);
			continue;
		}
		if (!(st = summary_stmt(db, i, f)))
			continue;
		while (r == 0 && sqlite3_step(st) == SQLITE_ROW)
			r = fn(ctx, i, or_null(sqlite3_column_text(st, 0)),
			       or_null(sqlite3_column_text(st, 1)), sqlite3_column_int64(st, 2),
			       sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4));
		sqlite3_finalize(st);
	}
	return r;
}

/*
 * ras_db_summary_columns: the columns' starts are bound from ?20 on, as a
 * "cols(t)" table; a record's column is the number of starts at or before
 * its time, less one (-1 before the first, n after the last end).
 */
#define COL_PARAM 20
#define COLUMN_OF(t) " (SELECT count(*) FROM cols WHERE t <= " t ") - 1"

static int cols_sql(char *out, size_t cap, unsigned n)
{
	int len = snprintf(out, cap, "cols(t) AS (VALUES");

	for (unsigned i = 0; i <= n && len > 0 && (size_t)len < cap; i++)
		len += snprintf(out + len, cap - (size_t)len, "%s (?%u)", i ? "," : "", COL_PARAM + i);
	if (len > 0 && (size_t)len < cap)
		len += snprintf(out + len, cap - (size_t)len, ")");
	return len > 0 && (size_t)len < cap ? 0 : -1;
}

/* The summary's statement (summary_stmt) with every column start a cut point. */
static sqlite3_stmt *columns_rollup_stmt(struct ras_db *db, unsigned idx, const char *cols)
{
	char sql[12288], raw[5120];
	sqlite3_stmt *st;

	if (ras_db_rollup_raw_rows_sql(raw, sizeof(raw), idx, ras_db_table_exists(db, "folds")) < 0)
		return NULL;
	snprintf(sql, sizeof(sql),
		 "WITH %s, points(t) AS (SELECT ?1 WHERE ?1 <> 0 UNION ALL SELECT ?2 WHERE ?2 <> 0"
		 " UNION ALL SELECT t FROM cols),"
		 " r AS (SELECT * FROM rollup_hourly WHERE tbl = ?5 AND hour >= ?6 AND hour <= ?7),"
		 RAS_DB_CUT_SQL
		 " SELECT severity, location," COLUMN_OF("first_ns") ", sum(records) FROM ("
		 " SELECT boot, source, synthetic, severity, location, records, first_ns"
		 " FROM r WHERE" RAS_DB_UNCUT_SQL
		 " UNION ALL SELECT boot, source, synthetic, severity, location, records, first_ns"
		 " FROM (%s)) WHERE%s GROUP BY 1, 2, 3",
		 cols, raw, rollup_filter);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 5, ras_event_types[idx].table, -1, SQLITE_STATIC);
	return st;
}

/* ras_db_summary_scan's statement, by column. */
static sqlite3_stmt *columns_scan_stmt(struct ras_db *db, unsigned idx, const char *cols)
{
	char sql[4096], loc[1024];
	sqlite3_stmt *st;

	if (ras_db_sumloc_sql(loc, sizeof(loc), idx, "e", false) < 0)
		return NULL;
	snprintf(sql, sizeof(sql),
		 "WITH %s SELECT severity, %s," COLUMN_OF("wall_ns") ", count(*) FROM %s_decoded e"
		 " WHERE%s GROUP BY 1, 2, 3", cols, loc, ras_event_types[idx].table, filter_sql);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;  /* an older table without these columns */
	return st;
}

int ras_db_summary_columns(struct ras_db *db, const struct ras_db_filter *f, const int64_t *starts,
			   unsigned n, ras_db_column_fn fn, void *ctx)
{
	bool rollups = ras_db_table_exists(db, "rollup_hourly");
	char cols[32 + 8 * (RAS_DB_COLUMNS_MAX + 1)];
	int r = 0, step = SQLITE_DONE;

	if (n == 0 || n > RAS_DB_COLUMNS_MAX || cols_sql(cols, sizeof(cols), n) < 0)
		return -EINVAL;
	for (unsigned i = 0; i < ras_n_event_types && r == 0; i++) {
		bool scan = !rollups || !rollup_keyed(db, i);
		sqlite3_stmt *st;

		if (!wanted(db, f, i))
			continue;
		if (!(st = scan ? columns_scan_stmt(db, i, cols) : columns_rollup_stmt(db, i, cols)))
			continue;
		bind_filter(st, f);
		sqlite3_bind_int64(st, 6, ras_db_first_hour(f->since_ns));
		sqlite3_bind_int64(st, 7, ras_db_last_hour(f->until_ns));
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
	bind_filter(st, f);
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
