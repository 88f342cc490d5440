/* SPDX-License-Identifier: MIT */
/*
 * The reads behind ras-fdr-ctl export. Rows are read in id order after a
 * cursor (ids name one record for good: db_insert.c hands none out twice).
 * Folded records are read from the folds' growth log (schema step 17): each
 * write to a folds row is an entry, with the records it added and, for those
 * that were committed rows first, their ids, so what an export delivered as
 * rows is told from what it did not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_export.h"
#include "db_fold.h"

void ras_db_identity(struct ras_db *db, char *out, size_t len)
{
	sqlite3_stmt *st;

	out[0] = 0;
	if (!ras_db_table_exists(db, "meta") ||
	    sqlite3_prepare_v2(db->h, "SELECT value FROM meta WHERE key = 'database_id'", -1, &st,
			       NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

int64_t ras_db_position_high(struct ras_db *db, const char *table)
{
	char sql[256];
	int64_t id = 0, floor = 0;

	if (!ras_db_table_exists(db, table))
		return 0;
	snprintf(sql, sizeof(sql), "SELECT coalesce(max(rowid), 0) FROM %s", table);
	ras_db_int(db, sql, &id);
	snprintf(sql, sizeof(sql), "SELECT value FROM meta WHERE key = 'id_floor:%s'", table);
	if (ras_db_table_exists(db, "meta"))
		ras_db_int(db, sql, &floor);
	return id > floor ? id : floor;
}

int ras_db_snapshot_begin(struct ras_db *db)
{
	int64_t v;

	if (ras_db_exec(db, "BEGIN") < 0)
		return -EIO;
	/* SQLite takes the snapshot at the first read. */
	return ras_db_int(db, "SELECT count(*) FROM sqlite_master", &v) < 0 ? -EIO : 0;
}

void ras_db_snapshot_end(struct ras_db *db)
{
	ras_db_exec(db, "COMMIT");
}

int ras_db_rows_after(struct ras_db *db, unsigned type_idx, int64_t after, ras_db_row_fn fn,
		      void *ctx)
{
	struct ras_db_row_cols *cols;
	void *decoded;
	sqlite3_stmt *ids, *row;
	char sql[256];
	int n = 0, r = 0;

	if (type_idx >= ras_n_event_types || !ras_db_table_exists(db, ras_event_types[type_idx].table))
		return 0;
	snprintf(sql, sizeof(sql), "SELECT id FROM %s WHERE id > ? ORDER BY id",
		 ras_event_types[type_idx].table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &ids, NULL) != SQLITE_OK)
		return -EIO;
	cols = calloc(1, sizeof(*cols));
	decoded = aligned_alloc(16, RAS_DECODED_MAX);
	row = cols && decoded ? ras_db_row_stmt(db, type_idx, cols) : NULL;
	if (!row) {
		free(cols);
		free(decoded);
		sqlite3_finalize(ids);
		return -EIO;
	}
	sqlite3_bind_int64(ids, 1, after);
	while (r == 0 && sqlite3_step(ids) == SQLITE_ROW) {
		r = ras_db_deliver_row(row, type_idx, sqlite3_column_int64(ids, 0), cols, decoded,
				       fn, ctx);
		n++;
	}
	sqlite3_finalize(ids);
	sqlite3_finalize(row);
	free(cols);
	free(decoded);
	return r < 0 ? r : n;
}

/* ---- folded records ---- */

/* Columns 0-7 from fold_growth, 10-21 from the folds row; 22 the growth's seconds. */
static const char growth_sql[] =
	"SELECT g.seq, g.fold, g.records, g.errors, g.first_ns, g.last_ns, g.prev_s, g.ids,"
	" NULL, NULL, f.tbl, f.subject, (SELECT boot_id FROM boots WHERE id = f.boot),"
	" f.source, f.synthetic, f.severity, f.location, f.detail_name, f.details, f.details_more,"
	" f.addr_lo, f.addr_hi,"
	" substr(f.times, g.times_from + 1, CASE WHEN g.times_to < 0 THEN length(f.times)"
	" ELSE g.times_to - g.times_from END)"
	" FROM fold_growth g JOIN folds f ON f.id = g.fold WHERE g.seq > ?1 ORDER BY g.seq";

static const char *text_or_empty(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	return s ? s : "";
}

/* The folds row's side of an entry: where, what, and its distinct values. */
static void growth_row(sqlite3_stmt *st, struct ras_db_fold_growth *g)
{
	const struct ras_event_type *t = ras_event_type_find(text_or_empty(st, 10));
	const uint8_t *d = sqlite3_column_blob(st, 18);
	int nd = sqlite3_column_bytes(st, 18) / 8;

	g->seq = sqlite3_column_int64(st, 0);
	g->fold_id = sqlite3_column_int64(st, 1);
	g->type_idx = t ? (unsigned)(t - ras_event_types) : ras_n_event_types;
	g->subject = text_or_empty(st, 11);
	g->boot_id = text_or_empty(st, 12);
	g->source = text_or_empty(st, 13);
	g->synthetic = sqlite3_column_int(st, 14) != 0;
	g->severity = text_or_empty(st, 15);
	g->location = text_or_empty(st, 16);
	g->detail_name = text_or_empty(st, 17);
	g->details_more = sqlite3_column_int(st, 19) != 0;
	g->have_addr = sqlite3_column_type(st, 20) == SQLITE_INTEGER;
	g->addr_lo = (uint64_t)sqlite3_column_int64(st, 20);
	g->addr_hi = (uint64_t)sqlite3_column_int64(st, 21);
	g->ndetails = 0;
	for (int i = 0; d && i < nd && i < RAS_DB_FOLD_DETAILS; i++)
		memcpy(&g->details[g->ndetails++], d + 8 * i, 8);
}

/*
 * The entry's records an export has not delivered: all of them when they
 * were never rows (ids NULL), else those whose row id is above delivered.
 * secs gets their seconds (room for cap).
 */
static void growth_records(sqlite3_stmt *st, int64_t delivered, struct ras_db_fold_growth *g,
			   int64_t *secs, int64_t cap)
{
	const uint8_t *t = sqlite3_column_blob(st, 22), *ids = sqlite3_column_blob(st, 7);
	const uint8_t *tend = t + ras_db_fold_times_used(t, (size_t)sqlite3_column_bytes(st, 22));
	const uint8_t *iend = ids ? ids + sqlite3_column_bytes(st, 7) : NULL;
	int64_t s = sqlite3_column_int64(st, 6), id = 0, total = sqlite3_column_int64(st, 2);

	g->records = g->errors = g->as_rows = 0;
	g->ids_known = ids != NULL;
	g->first_ns = INT64_MAX;
	g->last_ns = INT64_MIN;
	g->nseconds = 0;
	for (int64_t i = 0; i < total; i++) {
		int64_t w = 1;
		bool have_second = t && ras_db_fold_next_delta(&t, tend, &s);

		if (ids && ras_db_fold_next_delta(&ids, iend, &id)) {
			int64_t w1 = 0;

			ras_db_fold_next_delta(&ids, iend, &w1);
			w = w1 + 1;
			if (id <= delivered) {
				g->as_rows++;
				continue;
			}
		}
		g->records++;
		g->errors += w;
		if (have_second && g->nseconds < (size_t)cap) {
			secs[g->nseconds++] = s;
			g->first_ns = s * 1000000000LL < g->first_ns ? s * 1000000000LL : g->first_ns;
			g->last_ns = s * 1000000000LL > g->last_ns ? s * 1000000000LL : g->last_ns;
		}
	}
	/* Nothing taken away: the entry's own figures, to the nanosecond. */
	if (!g->as_rows) {
		g->errors = ids ? g->errors : sqlite3_column_int64(st, 3);
		g->first_ns = sqlite3_column_int64(st, 4);
		g->last_ns = sqlite3_column_int64(st, 5);
	}
	if (!g->records)
		g->first_ns = g->last_ns = 0;
}

int ras_db_fold_growth_after(struct ras_db *db, int64_t after, const int64_t *delivered,
			     ras_db_growth_fn fn, void *ctx)
{
	struct ras_db_fold_growth g;
	sqlite3_stmt *st;
	int64_t *secs = NULL, cap = 0;
	int n = 0, r = 0, step;

	if (!ras_db_table_exists(db, "fold_growth"))
		return 0;
	if (sqlite3_prepare_v2(db->h, growth_sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, after);
	while (r == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t total = sqlite3_column_int64(st, 2);

		if (total > cap) {
			int64_t *s = realloc(secs, (size_t)total * sizeof(*s));

			if (!s) {
				r = -ENOMEM;
				break;
			}
			secs = s;
			cap = total;
		}
		memset(&g, 0, sizeof(g));
		growth_row(st, &g);
		if (g.type_idx < ras_n_event_types)
			growth_records(st, delivered[g.type_idx], &g, secs, cap);
		g.seconds = secs;
		r = fn(ctx, &g);
		n++;
	}
	if (r == 0 && step != SQLITE_DONE) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		r = -EIO;
	}
	sqlite3_finalize(st);
	free(secs);
	return r < 0 ? r : n;
}

int ras_db_action_growth_after(struct ras_db *db, int64_t after, ras_db_action_growth_fn fn,
			       void *ctx)
{
	struct ras_db_action_growth g;
	sqlite3_stmt *st;
	int n = 0, r = 0;

	if (!ras_db_table_exists(db, "action_growth"))
		return 0;
	if (sqlite3_prepare_v2(db->h, "SELECT seq, action, repeats, coalesce(last_ns, 0),"
			       " coalesce(last_event_id, 0) FROM action_growth WHERE seq > ?1"
			       " ORDER BY seq", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, after);
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
		g = (struct ras_db_action_growth){
			.seq = sqlite3_column_int64(st, 0), .action_id = sqlite3_column_int64(st, 1),
			.repeats = sqlite3_column_int64(st, 2), .last_ns = sqlite3_column_int64(st, 3),
			.last_event_id = sqlite3_column_int64(st, 4),
		};
		r = fn(ctx, &g);
		n++;
	}
	sqlite3_finalize(st);
	return r < 0 ? r : n;
}

/* ---- losses and decisions ---- */

int ras_db_lost_after(struct ras_db *db, int64_t after, ras_db_lost_fn fn, void *ctx)
{
	struct ras_db_lost_row l;
	sqlite3_stmt *st;
	int n = 0, r = 0;

	if (!ras_db_table_exists(db, "lost_events"))
		return 0;
	if (sqlite3_prepare_v2(db->h, "SELECT l.id, b.boot_id, l.instance, l.cpu, l.count,"
			       " coalesce(l.from_ns, 0), coalesce(l.to_ns, 0), l.origin"
			       " FROM lost_events l LEFT JOIN boots b ON b.id = l.boot WHERE l.id > ?"
			       " ORDER BY l.id", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, after);
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
		l = (struct ras_db_lost_row){
			.id = sqlite3_column_int64(st, 0), .boot_id = text_or_empty(st, 1),
			.instance = text_or_empty(st, 2), .cpu = sqlite3_column_int(st, 3),
			.count = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 :
				 sqlite3_column_int64(st, 4),
			.from_ns = sqlite3_column_int64(st, 5), .to_ns = sqlite3_column_int64(st, 6),
			.origin = text_or_empty(st, 7),
		};
		r = fn(ctx, &l);
		n++;
	}
	sqlite3_finalize(st);
	return r < 0 ? r : n;
}

/* "a.name" when the actions table has that column (an older schema may not), else "NULL". */
static const char *action_col(struct ras_db *db, const char *name, char *buf, size_t len)
{
	sqlite3_stmt *st;
	bool have = false;

	if (sqlite3_prepare_v2(db->h, "SELECT 1 FROM pragma_table_info('actions') WHERE name = ?",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		have = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	snprintf(buf, len, have ? "a.\"%s\"" : "NULL", name);
	return buf;
}

static sqlite3_stmt *actions_stmt(struct ras_db *db)
{
	static const char *const optional[] = {
		"synthetic", "event_table", "event_id", "repeats", "last_ns", "last_event_id",
	};
	char cols[6][48], sql[1024];
	sqlite3_stmt *st;

	for (int i = 0; i < 6; i++)
		action_col(db, optional[i], cols[i], sizeof(cols[i]));
	snprintf(sql, sizeof(sql),
		 "SELECT a.id, b.boot_id, a.wall_ns, a.kind, a.subject, a.count, a.threshold, a.action,"
		 " a.target, a.result, a.errno, coalesce(%s, 0), %s, %s, coalesce(%s, 1),"
		 " coalesce(%s, a.wall_ns), %s FROM actions a LEFT JOIN boots b ON b.id = a.boot"
		 " WHERE a.id > ?1 ORDER BY a.id",
		 cols[0], cols[1], cols[2], cols[3], cols[4], cols[5]);
	return sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK ? st : NULL;
}

static void action_of(sqlite3_stmt *st, struct ras_db_action_row *a)
{
	*a = (struct ras_db_action_row){
		.id = sqlite3_column_int64(st, 0), .boot_id = text_or_empty(st, 1),
		.wall_ns = sqlite3_column_int64(st, 2), .kind = text_or_empty(st, 3),
		.subject = text_or_empty(st, 4),
		.have_count = sqlite3_column_type(st, 5) == SQLITE_INTEGER,
		.count = sqlite3_column_int64(st, 5),
		.threshold = (const char *)sqlite3_column_text(st, 6),
		.action = text_or_empty(st, 7), .target = (const char *)sqlite3_column_text(st, 8),
		.result = text_or_empty(st, 9),
		.have_errno = sqlite3_column_type(st, 10) == SQLITE_INTEGER,
		.err = sqlite3_column_int64(st, 10), .synthetic = sqlite3_column_int(st, 11) != 0,
		.event_table = (const char *)sqlite3_column_text(st, 12),
		.have_event_id = sqlite3_column_type(st, 13) == SQLITE_INTEGER,
		.event_id = sqlite3_column_int64(st, 13), .repeats = sqlite3_column_int64(st, 14),
		.last_ns = sqlite3_column_int64(st, 15),
		.have_last_event_id = sqlite3_column_type(st, 16) == SQLITE_INTEGER,
		.last_event_id = sqlite3_column_int64(st, 16),
	};
}

int ras_db_actions_after(struct ras_db *db, int64_t after, ras_db_action_fn fn, void *ctx)
{
	struct ras_db_action_row a;
	sqlite3_stmt *st;
	int n = 0, r = 0;

	if (!ras_db_table_exists(db, "actions"))
		return 0;
	if (!(st = actions_stmt(db))) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, after);
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
		action_of(st, &a);
		r = fn(ctx, &a);
		n++;
	}
	sqlite3_finalize(st);
	return r < 0 ? r : n;
}
