/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_export.h"

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

static const struct {
	const char *name, *table, *sql;
} extras[RAS_DB_EXTRA_COUNT_] = {
	[RAS_DB_EXTRA_LOST] = { "lost", "lost_events",
		"SELECT l.id, b.boot_id, l.instance, l.cpu, l.count, l.from_ns, l.to_ns, l.origin"
		" FROM lost_events l LEFT JOIN boots b ON b.id = l.boot WHERE l.id > ? ORDER BY l.id" },
	/* The actions table belongs to rasd's actions; its columns are taken as they are. */
	[RAS_DB_EXTRA_ACTION] = { "action", "actions",
		"SELECT rowid AS id, * FROM actions WHERE rowid > ? ORDER BY rowid" },
};

const char *ras_db_extra_name(enum ras_db_extra which)
{
	return extras[which].name;
}

static void read_generic(sqlite3_stmt *st, struct ras_db_generic_row *g)
{
	int cols = sqlite3_column_count(st);

	g->n = 0;
	g->id = sqlite3_column_int64(st, 0);
	for (int c = 1; c < cols && g->n < RAS_DB_GENERIC_MAX; c++) {
		unsigned i = g->n;

		g->names[i] = sqlite3_column_name(st, c);
		/* "SELECT rowid AS id, *" repeats an id column; the first one stands. */
		if (!strcmp(g->names[i], "id"))
			continue;
		switch (sqlite3_column_type(st, c)) {
		case SQLITE_INTEGER: g->kinds[i] = 'i'; g->ints[i] = sqlite3_column_int64(st, c); break;
		case SQLITE_FLOAT: g->kinds[i] = 'f'; g->reals[i] = sqlite3_column_double(st, c); break;
		case SQLITE_TEXT:
			g->kinds[i] = 't';
			g->ptrs[i] = sqlite3_column_text(st, c);
			g->lens[i] = sqlite3_column_bytes(st, c);
			break;
		case SQLITE_BLOB:
			g->kinds[i] = 'b';
			g->ptrs[i] = sqlite3_column_blob(st, c);
			g->lens[i] = sqlite3_column_bytes(st, c);
			break;
		default: g->kinds[i] = 'n'; break;
		}
		g->n++;
	}
}

int ras_db_extra_rows_after(struct ras_db *db, enum ras_db_extra which, int64_t after,
			    ras_db_generic_fn fn, void *ctx)
{
	struct ras_db_generic_row g;
	sqlite3_stmt *st;
	int n = 0, r = 0;

	if (!ras_db_table_exists(db, extras[which].table))
		return 0;
	if (sqlite3_prepare_v2(db->h, extras[which].sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, after);
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
		read_generic(st, &g);
		r = fn(ctx, &g);
		n++;
	}
	sqlite3_finalize(st);
	return r < 0 ? r : n;
}
