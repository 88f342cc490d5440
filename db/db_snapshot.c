/* SPDX-License-Identifier: MIT */
/* Flight-recorder snapshots: schema step 4 and the statements that use it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_snapshot.h"


#define SNAPSHOT_COLUMNS \
	"s.id, b.boot_id, s.wall_ns, s.reason, s.trigger_table, s.trigger_row_id," \
	" s.trigger_trace_ts, s.trigger_wall_ns, s.instance, s.raw_size, s.record_count," \
	" s.missed, s.ncpus, length(s.data)"

int ras_db_snapshot_insert(struct ras_db *db, const struct ras_snapshot *s, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO snapshots (boot, wall_ns, reason, trigger_table, trigger_row_id,"
		" trigger_trace_ts, trigger_wall_ns, instance, data, raw_size, record_count,"
		" missed, ncpus) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
	sqlite3_stmt *st;
	int r;

	if (db->readonly)
		return -EROFS;
	if (s->data_len > INT32_MAX)
		return -E2BIG;
	if (ras_db_sync(db) < 0)
		return -EIO;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, db->boot);
	sqlite3_bind_int64(st, 2, s->wall_ns);
	sqlite3_bind_text(st, 3, s->reason, -1, SQLITE_STATIC);
	if (s->trigger_table[0]) {
		sqlite3_bind_text(st, 4, s->trigger_table, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 5, s->trigger_row_id);
	}
	sqlite3_bind_int64(st, 6, (int64_t)s->trigger_trace_ts);
	sqlite3_bind_int64(st, 7, s->trigger_wall_ns);
	sqlite3_bind_text(st, 8, s->instance, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 9, s->data, (int)s->data_len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 10, (int64_t)s->raw_size);
	sqlite3_bind_int64(st, 11, s->record_count);
	sqlite3_bind_int64(st, 12, s->missed);
	sqlite3_bind_int64(st, 13, s->ncpus);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	if (r != SQLITE_DONE)
		return -EIO;
	if (id)
		*id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

static void copy_text(sqlite3_stmt *st, int col, char *out, size_t outlen)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(out, outlen, "%s", t ? (const char *)t : "");
}

static void read_row(sqlite3_stmt *st, struct ras_snapshot *s)
{
	int64_t compressed;

	memset(s, 0, sizeof(*s));
	s->id = sqlite3_column_int64(st, 0);
	copy_text(st, 1, s->boot_id, sizeof(s->boot_id));
	s->wall_ns = sqlite3_column_int64(st, 2);
	copy_text(st, 3, s->reason, sizeof(s->reason));
	copy_text(st, 4, s->trigger_table, sizeof(s->trigger_table));
	s->trigger_row_id = sqlite3_column_int64(st, 5);
	s->trigger_trace_ts = (uint64_t)sqlite3_column_int64(st, 6);
	s->trigger_wall_ns = sqlite3_column_int64(st, 7);
	copy_text(st, 8, s->instance, sizeof(s->instance));
	s->raw_size = (uint64_t)sqlite3_column_int64(st, 9);
	s->record_count = sqlite3_column_int64(st, 10);
	s->missed = sqlite3_column_int64(st, 11);
	s->ncpus = (unsigned)sqlite3_column_int64(st, 12);
	compressed = sqlite3_column_int64(st, 13);
	s->data_len = compressed > 0 ? (size_t)compressed : 0;
}

int ras_db_snapshot_list(struct ras_db *db, ras_db_snapshot_fn fn, void *ctx)
{
	static const char sql[] = "SELECT " SNAPSHOT_COLUMNS " FROM snapshots s"
				  " LEFT JOIN boots b ON b.id = s.boot ORDER BY s.id";
	sqlite3_stmt *st;
	int n = 0, r;

	if (!ras_db_table_exists(db, "snapshots"))
		return -ENOENT;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct ras_snapshot s;

		read_row(st, &s);
		n++;
		if (fn(ctx, &s) != 0)
			break;
	}
	sqlite3_finalize(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? n : -EIO;
}

int ras_db_snapshot_get(struct ras_db *db, int64_t id, struct ras_snapshot *out)
{
	static const char sql[] = "SELECT " SNAPSHOT_COLUMNS ", s.data FROM snapshots s"
				  " LEFT JOIN boots b ON b.id = s.boot WHERE s.id = ?";
	sqlite3_stmt *st;
	int r = -ENOENT;

	if (!ras_db_table_exists(db, "snapshots"))
		return -ENOENT;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const void *blob = sqlite3_column_blob(st, 14);
		int len = sqlite3_column_bytes(st, 14);
		void *copy = len > 0 ? malloc((size_t)len) : NULL;

		read_row(st, out);
		r = len > 0 && !copy ? -ENOMEM : 0;
		if (copy && blob)
			memcpy(copy, blob, (size_t)len);
		out->data = copy;
		out->data_len = copy ? (size_t)len : 0;
	}
	sqlite3_finalize(st);
	return r;
}

int64_t ras_db_last_row_id(struct ras_db *db)
{
	return db->last_event_id;
}
