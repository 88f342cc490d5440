/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include "db_internal.h"
#include "db_link.h"

static void copy_text(sqlite3_stmt *st, int col, char *out, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(out, len, "%s", t ? (const char *)t : "");
}

int ras_db_memfail_link(struct ras_db *db, int64_t signal_id, struct ras_db_memfail_link *out)
{
	static const char sql[] =
		"SELECT m.id, m.wall_ns, m.pfn, m.type_name, m.result_name"
		" FROM signal_generate s JOIN memory_failure_event_decoded m"
		" ON m.boot = s.boot AND m.synthetic = s.synthetic AND m.wall_ns <= s.wall_ns + ?2"
		" WHERE s.id = ?1 ORDER BY abs(m.wall_ns - s.wall_ns), m.id LIMIT 1";
	sqlite3_stmt *st;
	int r;

	memset(out, 0, sizeof(*out));
	if (ras_db_sync(db) < 0)
		return -EIO;
	/* A database made before these tables existed, opened read-only: nothing to link. */
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, signal_id);
	sqlite3_bind_int64(st, 2, RAS_DB_LINK_AFTER_NS);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->wall_ns = sqlite3_column_int64(st, 1);
		out->pfn = sqlite3_column_int64(st, 2);
		copy_text(st, 3, out->page_type, sizeof(out->page_type));
		copy_text(st, 4, out->recovery, sizeof(out->recovery));
	}
	sqlite3_finalize(st);
	return r == SQLITE_ROW ? 1 : r == SQLITE_DONE ? 0 : -EIO;
}
