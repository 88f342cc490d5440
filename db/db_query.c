/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_query.h"

/* WHERE clause shared by every query; its parameters are bound by bind_filter(). */
static const char filter_sql[] =
	" (?1 = 0 OR wall_ns >= ?1) AND (?2 = 0 OR wall_ns < ?2)"
	" AND (?3 OR (source <> 'synthetic' AND synthetic = 0))"
	" AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4))";

static void bind_filter(sqlite3_stmt *st, const struct ras_db_filter *f)
{
	sqlite3_bind_int64(st, 1, f->since_ns);
	sqlite3_bind_int64(st, 2, f->until_ns);
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
	return ras_db_table_exists(db, ras_event_types[i].table);
}

/* Builds "SELECT 'i', id, wall_ns FROM t WHERE ... UNION ALL ..." over existing tables. */
static char *ordering_sql(struct ras_db *db, const struct ras_db_filter *f)
{
	size_t cap = 65536, n = 0;
	char *sql = malloc(cap);

	if (!sql)
		return NULL;
	sql[0] = 0;
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		if (!wanted(db, f, i))
			continue;
		n += (size_t)snprintf(sql + n, cap - n, "%sSELECT %u AS t, id, wall_ns FROM %s WHERE%s",
				      n ? " UNION ALL " : "", i, ras_event_types[i].table, filter_sql);
	}
	if (!n) {
		free(sql);
		return NULL;
	}
	snprintf(sql + n, cap - n, " ORDER BY wall_ns DESC, id DESC LIMIT ?5");
	return sql;
}

/* Selects every expected column that the table really has; the rest read as NULL. */
sqlite3_stmt *ras_db_row_stmt(struct ras_db *db, unsigned idx, int *colmap)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	char sql[8192], probe[256];
	size_t n;
	sqlite3_stmt *st;
	int col = 5;

	n = (size_t)snprintf(sql, sizeof(sql), "SELECT e.wall_ns, e.trace_ts, e.trace_cpu,"
			     " (SELECT boot_id FROM boots WHERE id = e.boot), e.source, e.severity, e.location");
	for (unsigned i = 0; i < type->n_fields; i++) {
		const char *name = ras_db_column_name(idx, ras_db_table_of(idx)->first_raw + i);

		snprintf(probe, sizeof(probe), "SELECT \"%s\" FROM %s_decoded LIMIT 0", name, type->table);
		colmap[i] = -1;
		if (sqlite3_prepare_v2(db->h, probe, -1, &st, NULL) != SQLITE_OK)
			continue;
		sqlite3_finalize(st);
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", e.\"%s\"", name);
		colmap[i] = 2 + col++;
	}
	snprintf(sql + n, sizeof(sql) - n, " FROM %s_decoded e WHERE e.id = ?", type->table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
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

int ras_db_deliver_row(sqlite3_stmt *st, unsigned idx, int64_t id, const int *colmap,
		       ras_db_row_fn fn, void *ctx)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	struct ras_db_row row = { .type_idx = idx, .id = id };

	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_reset(st);
		return 0;
	}
	row.wall_ns = sqlite3_column_int64(st, 0);
	row.trace_ts = sqlite3_column_int64(st, 1);
	row.trace_cpu = sqlite3_column_int(st, 2);
	row.boot_id = (const char *)sqlite3_column_text(st, 3);
	row.source = (const char *)sqlite3_column_text(st, 4);
	row.severity = (const char *)sqlite3_column_text(st, 5);
	row.location = (const char *)sqlite3_column_text(st, 6);
	for (unsigned i = 0; i < type->n_fields; i++)
		read_value(st, colmap[i], &row.values[i]);
	int r = fn(ctx, &row);
	sqlite3_reset(st);
	return r;
}

int ras_db_errors(struct ras_db *db, const struct ras_db_filter *f, ras_db_row_fn fn, void *ctx)
{
	sqlite3_stmt *order, *rows[64] = { 0 };
	int colmap[64][RAS_MAX_FIELDS];
	char *sql = ordering_sql(db, f);
	int n = 0, r = 0;

	if (!sql)
		return 0;
	if (sqlite3_prepare_v2(db->h, sql, -1, &order, NULL) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		free(sql);
		return -EIO;
	}
	free(sql);
	bind_filter(order, f);
	sqlite3_bind_int64(order, 5, f->limit ? (int64_t)f->limit : -1);
	while (r == 0 && sqlite3_step(order) == SQLITE_ROW) {
		unsigned idx = (unsigned)sqlite3_column_int(order, 0);

		if (idx >= ras_n_event_types)
			continue;
		if (!rows[idx] && !(rows[idx] = ras_db_row_stmt(db, idx, colmap[idx])))
			continue;
		r = ras_db_deliver_row(rows[idx], idx, sqlite3_column_int64(order, 1), colmap[idx], fn, ctx);
		n++;
	}
	sqlite3_finalize(order);
	for (unsigned i = 0; i < 64; i++)
		sqlite3_finalize(rows[i]);
	return r < 0 ? r : n;
}

int ras_db_summary(struct ras_db *db, const struct ras_db_filter *f, ras_db_count_fn fn, void *ctx)
{
	char sql[1024];
	int r = 0;

	for (unsigned i = 0; i < ras_n_event_types && r == 0; i++) {
		sqlite3_stmt *st;

		if (!wanted(db, f, i))
			continue;
		snprintf(sql, sizeof(sql),
			 "SELECT severity, location, count(*), min(wall_ns), max(wall_ns) FROM %s_decoded"
			 " WHERE%s GROUP BY severity, location ORDER BY count(*) DESC",
			 ras_event_types[i].table, filter_sql);
		if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
			continue;  /* an older table without these columns */
		bind_filter(st, f);
		while (r == 0 && sqlite3_step(st) == SQLITE_ROW)
			r = fn(ctx, i, (const char *)sqlite3_column_text(st, 0),
			       (const char *)sqlite3_column_text(st, 1), sqlite3_column_int64(st, 2),
			       sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4));
		sqlite3_finalize(st);
	}
	return r;
}

int ras_db_lost_totals(struct ras_db *db, const struct ras_db_filter *f, int64_t *counted,
		       int64_t *unknown_gaps)
{
	sqlite3_stmt *st;
	const char *sql =
		"SELECT coalesce(sum(CASE WHEN origin = 'stats' THEN count END), 0),"
		" coalesce(sum(CASE WHEN origin = 'subbuffer' AND count IS NULL THEN 1 END), 0)"
		" FROM lost_events WHERE (?1 = 0 OR to_ns >= ?1) AND (?2 = 0 OR to_ns < ?2)"
		" AND (?3 OR 1) AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4))";

	*counted = *unknown_gaps = 0;
	if (!ras_db_table_exists(db, "lost_events"))
		return 0;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	bind_filter(st, f);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*counted = sqlite3_column_int64(st, 0);
		*unknown_gaps = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return 0;
}

int ras_db_table_stats(struct ras_db *db, unsigned type_idx, int64_t *rows, int64_t *last_ns)
{
	char sql[256];
	sqlite3_stmt *st;

	*rows = *last_ns = 0;
	if (!ras_db_table_exists(db, ras_event_types[type_idx].table))
		return -ENOENT;
	snprintf(sql, sizeof(sql), "SELECT count(*), coalesce(max(wall_ns), 0) FROM %s",
		 ras_event_types[type_idx].table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*rows = sqlite3_column_int64(st, 0);
		*last_ns = sqlite3_column_int64(st, 1);
	}
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
