/* SPDX-License-Identifier: MIT */
/* The report's own reads (db_report.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "db_report.h"
#include "db_internal.h"
#include "db_rollup.h"
#include "lib/event_table.h"

static int step_error(struct ras_db *db)
{
	snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
	return -EIO;
}

int ras_db_report_schema(struct ras_db *db)
{
	sqlite3_stmt *st;
	int v = -EIO;

	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return step_error(db);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

int ras_db_report_boots(struct ras_db *db, ras_db_boot_fn fn, void *ctx)
{
	/* The order of db_crashes_read.c's boot numbers: first seen, then row id. */
	static const char sql[] = "SELECT boot_id, coalesce(first_seen_ns, 0) FROM boots"
				  " ORDER BY first_seen_ns, id";
	sqlite3_stmt *st;
	int n = 0, r = 0, step;

	if (!ras_db_table_exists(db, "boots"))
		return 0;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return step_error(db);
	while (r == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		r = fn(ctx, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1));
		n++;
	}
	if (r == 0 && step != SQLITE_DONE)
		r = step_error(db);
	sqlite3_finalize(st);
	return r < 0 ? r : n;
}

int ras_db_report_record_place(struct ras_db *db, unsigned idx, int64_t id, char *out, size_t len)
{
	char loc[1024], sql[1400];
	sqlite3_stmt *st;
	int r = 0;

	if (idx >= ras_n_event_types || ras_db_sumloc_sql(loc, sizeof(loc), idx, "e", false) < 0)
		return -EINVAL;
	snprintf(sql, sizeof(sql), "SELECT %s FROM %s_decoded e WHERE e.id = ?1", loc,
		 ras_event_types[idx].table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;  /* an older database without that table or view */
	sqlite3_bind_int64(st, 1, id);
	switch (sqlite3_step(st)) {
	case SQLITE_ROW:
		snprintf(out, len, "%s", sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "");
		r = 1;
		break;
	case SQLITE_DONE:
		break;
	default:
		r = step_error(db);
	}
	sqlite3_finalize(st);
	return r;
}

int ras_db_report_for_rows(struct ras_db *db)
{
	/* Not mmap: a file cut short under a map is a SIGBUS, under read() an error. */
	if (sqlite3_exec(db->h, "PRAGMA cache_size = -32768", NULL, NULL, NULL) != SQLITE_OK)
		return step_error(db);
	return 0;
}
