/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include "db_internal.h"
#include "db_fold.h"
#include "db_txn.h"
#include "lib/safe_path.h"

/* A reader may hold the database briefly; the writer waits, never drops. */
#define BUSY_TIMEOUT_MS 5000

static const char *const stmt_sql[STMT_COUNT_] = {
	[STMT_BEGIN] = "BEGIN",
	[STMT_COMMIT] = "COMMIT",
	[STMT_ROLLBACK] = "ROLLBACK",
	[STMT_LOST] = "INSERT INTO lost_events (boot, instance, cpu, count, from_ns, to_ns, origin)"
		      " VALUES (?, ?, ?, ?, ?, ?, ?)",
	[STMT_STATS_GET] = "SELECT overrun, dropped, ident FROM cpu_stats"
			   " WHERE boot = ? AND instance = ? AND cpu = ?",
	[STMT_STATS_SET] = "INSERT OR REPLACE INTO cpu_stats (boot, instance, cpu, overrun, dropped, ident)"
			   " VALUES (?, ?, ?, ?, ?, ?)",
	[STMT_COUNTER_ADD] = "INSERT INTO counters (name, value) VALUES (?, ?)"
			     " ON CONFLICT(name) DO UPDATE SET value = value + excluded.value",
	[STMT_MARK_GET] = "SELECT read_events FROM read_marks WHERE boot = ? AND instance = ? AND cpu = ?",
	/*
	 * Updated in place, and only when it moved: a REPLACE deleted and
	 * re-inserted the row, touching the table and its key's index at every commit.
	 */
	[STMT_MARK_SET] = "INSERT INTO read_marks (boot, instance, cpu, read_events) VALUES (?, ?, ?, ?)"
			  " ON CONFLICT (boot, instance, cpu) DO UPDATE SET read_events = excluded.read_events"
			  " WHERE read_events <> excluded.read_events",
};

const char *ras_db_errmsg(struct ras_db *db)
{
	if (db->err[0])
		return db->err;
	return db->h ? sqlite3_errmsg(db->h) : "out of memory";
}

static int prepare_decoded(struct ras_db *db, unsigned idx)
{
	const struct ras_db_table *t = ras_db_table_of(idx);
	const char *table = ras_event_types[idx].table;
	size_t cap = 8192, n;
	char *sql = malloc(cap);
	int r;

	if (!sql)
		return -1;
	n = (size_t)snprintf(sql, cap, "INSERT OR IGNORE INTO %s_dec (sig", table);
	for (unsigned i = 0; i < t->ndcols && n < cap; i++)
		n += (size_t)snprintf(sql + n, cap - n, ",\"%s\"", t->dcols[i].name);
	n += (size_t)snprintf(sql + n, cap - n, ") VALUES (?");
	for (unsigned i = 0; i < t->ndcols && n < cap; i++)
		n += (size_t)snprintf(sql + n, cap - n, ",?");
	if (n < cap)
		snprintf(sql + n, cap - n, ")");
	r = sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &db->dec_insert[idx], NULL);
	snprintf(sql, cap, "SELECT id FROM %s_dec WHERE sig = ?", table);
	if (r == SQLITE_OK)
		r = sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &db->dec_find[idx], NULL);
	free(sql);
	return r == SQLITE_OK ? 0 : -1;
}

static int prepare_all(struct ras_db *db)
{
	for (int i = 0; i < STMT_COUNT_; i++)
		if (sqlite3_prepare_v3(db->h, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
				       &db->stmt[i], NULL) != SQLITE_OK)
			return -1;
	for (unsigned i = 0; i < ras_n_event_types; i++)
		if (ras_db_prepare_insert(db, i, 1, &db->insert[i]) < 0 || prepare_decoded(db, i) < 0)
			return -1;
	return 0;
}

static int register_boot(struct ras_db *db, const char *boot_id)
{
	sqlite3_stmt *st;
	struct timespec now;
	int r = -1;

	clock_gettime(CLOCK_REALTIME, &now);
	if (sqlite3_prepare_v2(db->h, "INSERT OR IGNORE INTO boots (boot_id, first_seen_ns) VALUES (?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, boot_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
	sqlite3_step(st);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db->h, "SELECT id FROM boots WHERE boot_id = ?", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, boot_id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		db->boot = sqlite3_column_int64(st, 0);
		r = 0;
	}
	sqlite3_finalize(st);
	return r;
}

/* Refuses at start what would fail at the first commit, and directories others can write. */
static int check_directory(const char *path, char *err, size_t errlen)
{
	char *copy = strdup(path);
	char *dir, why[400];
	int r = 0;

	if (!copy)
		return -ENOMEM;
	dir = dirname(copy);
	/* The default directory may not exist yet on a new machine. */
	if (access(dir, F_OK) != 0 && errno == ENOENT)
		mkdir(dir, 0750);
	if (access(dir, W_OK | X_OK) != 0) {
		r = -errno;
		snprintf(err, errlen, "database directory %s is not writable: %s", dir, strerror(errno));
	} else if ((r = ras_dir_is_safe(dir, why, sizeof(why))) < 0) {
		snprintf(err, errlen, "refusing database %s: %s", path, why);
	}
	free(copy);
	return r;
}

static int open_common(struct ras_db **out, const char *path, int flags, const char *vfs,
		       char *err, size_t errlen)
{
	struct ras_db *db = calloc(1, sizeof(*db));

	if (!db)
		return -ENOMEM;
	db->rows_store = ras_db_rows_store;
	db->unheld_store = ras_db_fold_store_unheld;
	ras_db_sqlite_setup();
	/* Not through a link: SQLite would follow one to wherever it points. */
	if (sqlite3_open_v2(path, &db->h, flags | SQLITE_OPEN_NOFOLLOW, vfs) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open database %s: %s", path,
			 db->h ? sqlite3_errmsg(db->h) : "out of memory");
		ras_db_close(db);
		return -EIO;
	}
	sqlite3_extended_result_codes(db->h, 0);
	sqlite3_busy_timeout(db->h, BUSY_TIMEOUT_MS);
	if (ras_db_fold_register(db->h) < 0) {
		snprintf(err, errlen, "cannot open database %s: %s", path, sqlite3_errmsg(db->h));
		ras_db_close(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

/* The file rasd is about to use: created 0640 by us, or an existing regular file of ours. */
static enum ras_db_state prepare_file(const char *path, char *why, size_t whylen)
{
	enum ras_db_state s = ras_db_inspect(path, NULL, why, whylen);
	int fd;

	if (s != RAS_DB_GOOD && s != RAS_DB_MISSING && s != RAS_DB_EMPTY)
		return s;
	fd = ras_open_safe(path, O_RDWR | O_CREAT);
	if (fd < 0) {
		snprintf(why, whylen, "%s", fd == -EPERM ? "belongs to another user, is writable by "
			 "others or is not a regular file" : strerror(-fd));
		return RAS_DB_UNREADABLE;
	}
	close(fd);
	return s == RAS_DB_GOOD ? s : RAS_DB_EMPTY;
}

/*
 * The log is copied into the database (checkpointed) once it holds this
 * much; journal_size_limit then cuts a log a storm grew back to twice that.
 */
#define WAL_CHECKPOINT_BYTES (4 << 20)

static int page_size(struct ras_db *db)
{
	sqlite3_stmt *st;
	int ps = 0;

	if (sqlite3_prepare_v2(db->h, "PRAGMA page_size", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		ps = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return ps > 0 ? ps : 4096;
}

static int set_up_writer(struct ras_db *db, const char *boot_id)
{
	char sql[80];
	int frames;

	/*
	 * 1 KiB pages (a new database only; an existing one keeps its own). A
	 * trickle of records commits a few rows at a time, and every commit
	 * writes each page it touched whole to the log: the event table's last
	 * leaf, its time index, the hour's roll-up row and the read marks.
	 * Measured with make soak (50 records/s, a commit every 50 ms), 32 KiB
	 * pages wrote 71 KB per record, 4 KiB pages 8 KB and 1 KiB pages under
	 * 4 KiB. Rows (about 150 bytes) still fit a page several times over.
	 *
	 * WAL lets ras-fdr-ctl read while rasd writes. FULL syncs the log at every
	 * commit: the errors just before a crash are the ones that matter, and a
	 * panic loses whatever sat in the page cache. Commits are grouped in
	 * time (commit_delay_ms, rasd/pipeline.c) so a trickle shares them.
	 * Checkpoints come every WAL_CHECKPOINT_BYTES of log, not every 1000
	 * pages (fewer rewrites of the same hot pages), from a thread of their
	 * own (db_checkpoint.c): a commit never waits for the database file's sync.
	 *
	 * A 16 MiB page cache (SQLite's default is 2): a batch of a varied storm
	 * (batch_max_records, 50,000) dirties some 10 MB of pages, and a cache
	 * smaller than that spills pages to the log before the commit. A spilled
	 * page written again (an index's root, a table's last leaf) is overwritten
	 * in the log, and the commit then reads back every frame after it to
	 * checksum them again: with 8 MiB, 125,000 frame reads and as many header
	 * writes on make bench's 1M records (the writer thread's system time 0.75
	 * -> 0.52 s, peak RSS +10 MiB). The cache grows only as pages are used:
	 * a rasd that saw no storm stays as small.
	 */
	if (ras_db_exec(db, "PRAGMA page_size=1024; PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
			" PRAGMA cache_size=-16384;") < 0)
		return -1;
	db->page_bytes = page_size(db);
	frames = WAL_CHECKPOINT_BYTES / db->page_bytes;
	sqlite3_wal_autocheckpoint(db->h, frames);
	/* Without the thread, SQLite checkpoints in the commit that crossed the threshold. */
	ras_db_checkpointer_start(db, frames);
	snprintf(sql, sizeof(sql), "PRAGMA journal_size_limit=%d;", 2 * WAL_CHECKPOINT_BYTES);
	if (ras_db_exec(db, sql) < 0 || ras_db_migrate(db) < 0 || register_boot(db, boot_id) < 0 ||
	    prepare_all(db) < 0)
		return -1;
	return 0;
}

int ras_db_open_writer_state(struct ras_db **out, const char *path, const char *boot_id,
			     enum ras_db_state *state, char *err, size_t errlen)
{
	enum ras_db_state dummy, *s = state ? state : &dummy;
	struct ras_db *db;
	char why[400] = "";
	int r = check_directory(path, err, errlen);

	*s = RAS_DB_UNREADABLE;
	if (r < 0)
		return r;
	*s = prepare_file(path, why, sizeof(why));
	/*
	 * Judged read-only first: a read-write open may already change the file
	 * (an invalid -wal is reset), and a corrupt or foreign file is kept as found.
	 */
	if (*s == RAS_DB_GOOD) {
		r = open_common(&db, path, SQLITE_OPEN_READONLY, NULL, err, errlen);
		if (r < 0)
			return r;
		*s = ras_db_inspect(path, db->h, why, sizeof(why));
		ras_db_close(db);
	}
	if (*s != RAS_DB_GOOD && *s != RAS_DB_EMPTY) {
		snprintf(err, errlen, "database %s is %s: %s", path, ras_db_state_name(*s), why);
		return -EPROTO;
	}
	/* One thread uses each handle: no SQLite mutexes. */
	r = open_common(&db, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			ras_db_log_vfs(), err, errlen);
	if (r < 0)
		return r;
	*s = ras_db_inspect(path, db->h, why, sizeof(why));
	if (*s != RAS_DB_GOOD && *s != RAS_DB_EMPTY) {
		snprintf(err, errlen, "database %s is %s: %s", path, ras_db_state_name(*s), why);
		ras_db_close(db);
		return -EPROTO;
	}
	if (set_up_writer(db, boot_id) < 0) {
		int code = sqlite3_errcode(db->h);

		if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
			*s = RAS_DB_CORRUPT;
		snprintf(err, errlen, "database %s: %s", path, ras_db_errmsg(db));
		ras_db_close(db);
		return *s == RAS_DB_CORRUPT ? -EPROTO : -EIO;
	}
	ras_db_note_log_files(db, path);
	*out = db;
	return 0;
}

int ras_db_open_writer(struct ras_db **out, const char *path, const char *boot_id,
		       char *err, size_t errlen)
{
	return ras_db_open_writer_state(out, path, boot_id, NULL, err, errlen);
}

static int reader_refusal(enum ras_db_state s, const char *path, const char *why,
			  char *err, size_t errlen)
{
	switch (s) {
	case RAS_DB_MISSING:
		snprintf(err, errlen, "cannot read database %s: %s", path, why);
		return -ENOENT;
	case RAS_DB_EMPTY:
		snprintf(err, errlen, "database %s is empty: not a ras-fdr database (has rasd run yet?)", path);
		return -EPROTO;
	case RAS_DB_CORRUPT:
		snprintf(err, errlen, "database %s is corrupt: %s", path, why);
		return -EBADMSG;
	case RAS_DB_FOREIGN:
	case RAS_DB_NEWER:
		snprintf(err, errlen, "database %s cannot be read: %s", path, why);
		return -EPROTO;
	default:
		snprintf(err, errlen, "cannot read database %s: %s", path, why);
		return -EACCES;
	}
}

int ras_db_check_usable(const char *path, sqlite3 *h, char *err, size_t errlen)
{
	char why[400] = "";
	enum ras_db_state s = ras_db_inspect(path, h, why, sizeof(why));

	return s == RAS_DB_GOOD ? 0 : reader_refusal(s, path, why, err, errlen);
}

int ras_db_open_reader(struct ras_db **out, const char *path, char *err, size_t errlen)
{
	char why[400] = "";
	enum ras_db_state s = ras_db_inspect(path, NULL, why, sizeof(why));
	struct ras_db *db;
	int r;

	if (s == RAS_DB_GOOD && access(path, R_OK) != 0) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
		s = RAS_DB_UNREADABLE;
	}
	if (s != RAS_DB_GOOD)
		return reader_refusal(s, path, why, err, errlen);
	/*
	 * A reader's connection is used by the one thread that opened it (ctl has
	 * no other): SQLite's per-call mutex is pure cost there (0.21 G of
	 * report --part's 5.64 G instructions on the bench's 10M database).
	 */
	r = open_common(&db, path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL, err, errlen);
	if (r < 0)
		return r;
	s = ras_db_inspect(path, db->h, why, sizeof(why));
	if (s != RAS_DB_GOOD) {
		ras_db_close(db);
		return reader_refusal(s, path, why, err, errlen);
	}
	db->readonly = true;
	*out = db;
	return 0;
}

void ras_db_close(struct ras_db *db)
{
	ras_db_close_keep(db, NULL, 0);
}

void ras_db_close_keep(struct ras_db *db, char *kept, size_t len)
{
	char path[PATH_MAX] = "";
	bool moved, copied = false;

	if (kept && len)
		kept[0] = '\0';

	if (!db)
		return;
	/* Its jobs are run (or dropped after a failure), then it goes: the connection is ours. */
	ras_db_write_behind_stop(db);
	/* Only what was committed is kept: an open transaction here is an abandoned one. */
	if (db->in_txn)
		ras_db_rollback(db);
	for (int i = 0; i < STMT_COUNT_; i++)
		sqlite3_finalize(db->stmt[i]);
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++) {
		sqlite3_finalize(db->insert[i]);
		free(db->row_bound[i]);
		free(db->dec_bound[i]);
		sqlite3_finalize(db->dec_insert[i]);
		sqlite3_finalize(db->dec_find[i]);
		for (unsigned k = 0; k < RAS_DB_RUNS; k++) {
			sqlite3_finalize(db->insert_rows[i][k]);
			free(db->bound[i][k]);
			sqlite3_finalize(db->dec_inserts[i][k]);
			free(db->dec_runs_bound[i][k]);
		}
		free(db->dec_cache[i]);
		free(db->dec_sent[i]);
	}
	ras_db_stages_free(db);
	/* First: the writer's handle, closed last, makes the final checkpoint. */
	ras_db_checkpointer_stop(db);
	moved = !db->readonly && ras_db_file_moved(db);
	if (moved) {
		snprintf(path, sizeof(path), "%s", sqlite3_db_filename(db->h, "main"));
		copied = ras_db_empty_moved_log(db);
	}
	sqlite3_close(db->h);
	if (moved && path[0])
		ras_db_forget_moved_log(db, path, copied, kept, len);
	free(db);
}

int ras_db_storage_event(struct ras_db *db, const char *what, const char *detail)
{
	sqlite3_stmt *st;
	struct timespec now;
	int r;

	if (ras_db_sync(db) < 0)
		return ras_db_last_errno(db);
	clock_gettime(CLOCK_REALTIME, &now);
	if (sqlite3_prepare_v2(db->h, "INSERT INTO storage_events (boot, at_ns, what, detail)"
			       " VALUES (?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, db->boot);
	sqlite3_bind_int64(st, 2, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
	sqlite3_bind_text(st, 3, what, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, detail, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? 0 : ras_db_errno_of(r);
}

int ras_db_previous_boot(struct ras_db *db, int64_t *boot)
{
	static const char newest[] = "SELECT id FROM boots WHERE id <> ?1 ORDER BY first_seen_ns DESC, id DESC LIMIT 1";
	static const char add[] = "INSERT OR IGNORE INTO boots (boot_id, first_seen_ns)"
				  " SELECT 'before:' || boot_id, first_seen_ns - 1 FROM boots WHERE id = ?1";
	static const char named[] = "SELECT id FROM boots WHERE boot_id = (SELECT 'before:' || boot_id FROM boots WHERE id = ?1)";
	const char *steps[3] = { newest, add, named };
	int r = -ENOENT;

	if (ras_db_sync(db) < 0)
		return -EIO;
	for (int i = 0; i < 3 && r < 0; i++) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db->h, steps[i], -1, &st, NULL) != SQLITE_OK)
			return -EIO;
		sqlite3_bind_int64(st, 1, db->boot);
		if (sqlite3_step(st) == SQLITE_ROW) {
			*boot = sqlite3_column_int64(st, 0);
			r = 0;
		}
		sqlite3_finalize(st);
	}
	return r;
}
