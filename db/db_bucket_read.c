/* SPDX-License-Identifier: MIT */
/* The committed threshold buckets, read on a connection of their own (db_bucket_read.h). */
#include <errno.h>
#include <stdlib.h>
#include "db_internal.h"
#include "db_bucket_read.h"

struct ras_db_bucket_reader {
	sqlite3 *h;
	sqlite3_stmt *get;
	unsigned long reads;
};

bool ras_db_writes_behind(const struct ras_db *db)
{
	return db && db->wb;
}

int ras_db_bucket_reader_open(struct ras_db *db, struct ras_db_bucket_reader **out)
{
	const char *path = db ? sqlite3_db_filename(db->h, "main") : NULL;
	struct ras_db_bucket_reader *r;

	*out = NULL;
	if (!path || !*path)
		return -ENOTSUP;
	if (!(r = calloc(1, sizeof(*r))))
		return -ENOMEM;
	/*
	 * Read-only, no busy wait: a read that meets a lock (a log being
	 * recovered) fails at once and the caller asks the writer's connection.
	 * Only the event loop uses it: no SQLite mutexes.
	 */
	ras_db_sqlite_setup();
	if (sqlite3_open_v2(path, &r->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v3(r->h, "SELECT level, last_ns, total FROM buckets"
			       " WHERE kind = ? AND subject = ?", -1, SQLITE_PREPARE_PERSISTENT,
			       &r->get, NULL) != SQLITE_OK) {
		ras_db_bucket_reader_close(r);
		return -EIO;
	}
	*out = r;
	return 0;
}

void ras_db_bucket_reader_close(struct ras_db_bucket_reader *r)
{
	if (!r)
		return;
	sqlite3_finalize(r->get);
	sqlite3_close(r->h);
	free(r);
}

int ras_db_bucket_get_committed(struct ras_db_bucket_reader *r, const char *kind,
				const char *subject, struct ras_db_bucket *out)
{
	sqlite3_stmt *st = r->get;
	int s, found = 0;

	r->reads++;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, subject, -1, SQLITE_STATIC);
	s = sqlite3_step(st);
	if (s == SQLITE_ROW) {
		out->level = sqlite3_column_int64(st, 0);
		out->last_ns = sqlite3_column_int64(st, 1);
		out->total = sqlite3_column_int64(st, 2);
		found = 1;
		s = sqlite3_step(st);
	}
	/* The reset ends the read transaction: the log's frames are free to be copied. */
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return s == SQLITE_DONE ? found : -EIO;
}

unsigned long ras_db_bucket_reader_reads(const struct ras_db_bucket_reader *r)
{
	return r ? r->reads : 0;
}
