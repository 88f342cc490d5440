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
#include "db_rollup.h"
#include "lib/safe_path.h"

/* A reader may hold the database briefly; the writer waits, never drops. */
#define BUSY_TIMEOUT_MS 5000

static const char *const stmt_sql[STMT_COUNT_] = {
	[STMT_BEGIN] = "BEGIN",
	[STMT_COMMIT] = "COMMIT",
	[STMT_ROLLBACK] = "ROLLBACK",
	[STMT_LOST] = "INSERT INTO lost_events (boot, instance, cpu, count, from_ns, to_ns, origin)"
		      " VALUES (?, ?, ?, ?, ?, ?, ?)",
	[STMT_STATS_GET] = "SELECT overrun, dropped FROM cpu_stats WHERE boot = ? AND instance = ? AND cpu = ?",
	[STMT_STATS_SET] = "INSERT OR REPLACE INTO cpu_stats (boot, instance, cpu, overrun, dropped)"
			   " VALUES (?, ?, ?, ?, ?)",
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

/* Whether folding's flush has work at a commit behind (defined with it, below). */
static bool fold_behind(struct ras_db *db, bool limit_due);

/*
 * The write path's stages after the raw rows (db_insert.c writes those as
 * records come, through the writer thread), run in this order from here and
 * from nowhere else: at commit the roll-ups count the transaction's rows
 * (the totals and hourly counts, the EDAC counts, the metrics' subjects),
 * then folding takes rows away (held records stored, rows folded, the
 * limits, the folds rows); after COMMIT folding may fold them later; a
 * rollback gives back each stage's share of the transaction; between
 * transactions each frees its batch's slots (trim, NULL: kept until close),
 * and says what they hold (slot_bytes, NULL: none counted). Each stage is
 * one module behind its own header (db_rollup.h, db_fold.h) and calls no
 * other's internals (tests/test-db-calls.sh).
 *
 * Where a flush runs. With a writer thread (rasd) every flush, the COMMIT
 * and every stage's end of it are jobs of that thread: a commit made here
 * (ras_db_commit) waits for them, a commit behind (ras_db_commit_behind)
 * does not. A commit behind hands a stage's state over with it: folding's
 * (behind), which the writer thread already owns until the next sync, and
 * the roll-ups' counts (hand), swapped for a second set that the next
 * transaction's records count into while the writer thread writes the
 * first (flush_out). A rollback empties both sets.
 */
static const struct ras_db_stage {
	int (*flush)(struct ras_db *db);              /* before COMMIT: 0 or -1 */
	void (*committed)(struct ras_db *db);         /* after COMMIT, or NULL */
	void (*discard)(struct ras_db *db);           /* after ROLLBACK */
	void (*trim)(struct ras_db *db);              /* between transactions, or NULL */
	void (*free)(struct ras_db *db);              /* at close */
	size_t (*slot_bytes)(const struct ras_db *db);   /* or NULL */
	/* A commit behind: whether its flush is a job now (NULL: see hand). */
	bool (*behind)(struct ras_db *db, bool limit_due);
	/* A commit behind: the state handed over, and its flush, a job (NULL: see behind). */
	void (*hand)(struct ras_db *db);
	int (*flush_out)(struct ras_db *db);
} stages[] = {
	{ ras_db_rollup_flush, NULL, ras_db_rollup_discard, ras_db_rollup_trim, ras_db_rollup_free,
	  ras_db_rollup_slot_bytes, NULL, ras_db_rollup_hand, ras_db_rollup_flush_out },
	{ ras_db_edac_acc_flush, NULL, ras_db_edac_acc_discard, NULL, ras_db_edac_acc_free, NULL, NULL,
	  ras_db_edac_acc_hand, ras_db_edac_acc_flush_out },
	{ ras_db_metrics_acc_flush, NULL, ras_db_metrics_acc_discard, NULL, ras_db_metrics_acc_free, NULL,
	  NULL, ras_db_metrics_acc_hand, ras_db_metrics_acc_flush_out },
	{ ras_db_fold_flush, ras_db_fold_committed, ras_db_fold_discard, ras_db_fold_trim, ras_db_fold_free,
	  ras_db_fold_slot_bytes, fold_behind, NULL, NULL },
};
#define N_STAGES (sizeof(stages) / sizeof(stages[0]))

static int open_common(struct ras_db **out, const char *path, int flags, const char *vfs,
		       char *err, size_t errlen)
{
	struct ras_db *db = calloc(1, sizeof(*db));

	if (!db)
		return -ENOMEM;
	db->rows_store = ras_db_rows_store;
	/*
	 * No allocation statistics: they take a global mutex around every
	 * malloc SQLite makes, a few percent of a storm's CPU time. Refused
	 * (harmlessly) once SQLite is initialised, so only the first open sets it.
	 */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
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
	r = open_common(&db, path, SQLITE_OPEN_READONLY, NULL, err, errlen);
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
		sqlite3_finalize(db->insert_rows[i]);
		free(db->bound[i]);
		free(db->row_bound[i]);
		free(db->dec_bound[i]);
		sqlite3_finalize(db->dec_insert[i]);
		sqlite3_finalize(db->dec_find[i]);
		free(db->dec_cache[i]);
		free(db->dec_sent[i]);
	}
	for (size_t i = 0; i < N_STAGES; i++)
		stages[i].free(db);
	free(db->fold_pack);
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

static int step_reset(sqlite3_stmt *st)
{
	int r = sqlite3_step(st);

	sqlite3_reset(st);
	return r == SQLITE_DONE || r == SQLITE_ROW ? 0 : -EIO;
}

int ras_db_begin(struct ras_db *db)
{
	if (db->in_txn)
		return 0;
	/* A commit handed over: this transaction follows it on the writer thread, nothing waits. */
	if (db->commit_behind && !db->wb_failed) {
		if (ras_db_defer_begin(db) < 0)
			return -EIO;
		db->err[0] = 0;
		db->in_txn = true;
		return 0;
	}
	if (ras_db_sync(db) < 0)
		return ras_db_last_errno(db);
	/* A new transaction: an earlier failure's text no longer describes anything. */
	db->err[0] = 0;
	if (step_reset(db->stmt[STMT_BEGIN]) < 0)
		return -EIO;
	db->in_txn = true;
	memset(db->next_id, 0, sizeof(db->next_id));
	return 0;
}

/* A failure on a file that has gone (SQLite may say "read-only") is told as such. */
int ras_db_last_errno(struct ras_db *db)
{
	if (ras_db_file_moved(db))
		return -ESTALE;
	/* A deferred write's failure: the connection may have run nothing since, or a rollback. */
	return ras_db_errno_of(db->wb_failed ? db->wb_failed : sqlite3_errcode(db->h));
}

/* Every minute at most, a storm's commit waits for the age limit (keep_raw_days) to be applied. */
#define AGE_LIMIT_EVERY_NS (60 * 1000000000LL)

static int64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The SQLite code of a failure on the writer thread (a job's): SQLITE_ERROR when SQLite had none. */
static int job_code(struct ras_db *db)
{
	int r = sqlite3_errcode(db->h);

	return r != SQLITE_OK && r != SQLITE_DONE && r != SQLITE_ROW ? r : SQLITE_ERROR;
}

/* A stage's flush job: which stage, and whether of the state a commit behind handed over. */
struct flush_arg {
	size_t i;
	bool out;
};

/* Stage *arg's flush, on the writer thread, before its COMMIT. */
static int stage_flush_job(struct ras_db *db, const void *arg)
{
	struct flush_arg a;

	memcpy(&a, arg, sizeof(a));
	return (a.out ? stages[a.i].flush_out(db) : stages[a.i].flush(db)) < 0 ? job_code(db) : SQLITE_OK;
}

/* After its COMMIT (a job run only when the COMMIT was made): stage *arg's end of it. */
static int stage_committed_job(struct ras_db *db, const void *arg)
{
	size_t i;

	memcpy(&i, arg, sizeof(i));
	stages[i].committed(db);
	return SQLITE_OK;
}

/*
 * Hands the writer thread the flushes of the stages handed[] names, the
 * COMMIT of ticket, then those stages' ends of it: ended[i] says whether
 * stage i's end is handed over (or it has none). An end not handed over
 * (a stage flushed here, or no memory for the job) is the caller's to run
 * once the COMMIT is made.
 */
static int hand_commit(struct ras_db *db, uint64_t ticket, const bool *handed, bool *ended, bool behind)
{
	for (size_t i = 0; i < N_STAGES; i++) {
		struct flush_arg a = { .i = i, .out = behind && stages[i].flush_out };

		if (handed[i] && ras_db_defer_call(db, stage_flush_job, &a, sizeof(a)) < 0)
			return -ENOMEM;
	}
	if (ras_db_defer_commit(db, ticket) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < N_STAGES; i++)
		ended[i] = !stages[i].committed ||
			   (handed[i] && ras_db_defer_call(db, stage_committed_job, &i, sizeof(i)) == 0);
	return 0;
}

/*
 * The transaction is over: the stages' ends of it not run on the writer
 * thread, here. Made here, the next transaction reads its row ids again;
 * behind, they go on from where they are (the next follows this one).
 */
static void txn_committed(struct ras_db *db, const bool *ended, bool behind)
{
	db->in_txn = false;
	if (!behind)
		memset(db->next_id, 0, sizeof(db->next_id));
	for (size_t i = 0; i < N_STAGES; i++)
		if (!ended[i] && stages[i].committed)
			stages[i].committed(db);
}

/*
 * With a writer thread: every stage's flush, the COMMIT and the stages' ends
 * of it are its jobs, and this thread waits for them. A failure leaves the
 * transaction open, as a failed COMMIT here does: the caller rolls it back.
 */
static int commit_on_writer(struct ras_db *db)
{
	bool all[N_STAGES], ended[N_STAGES];
	uint64_t ticket = db->commit_ticket + 1;
	int r;

	for (size_t i = 0; i < N_STAGES; i++)
		all[i] = true;
	r = hand_commit(db, ticket, all, ended, false);
	if (r == 0)
		db->commit_ticket = ticket;
	/* The jobs handed over before a refusal run; the caller rolls the transaction back. */
	if (ras_db_sync(db) < 0 || r < 0 || ras_db_commit_poll(db, ticket) != 1)
		return r < 0 ? r : ras_db_last_errno(db);
	txn_committed(db, ended, false);
	return 0;
}

int ras_db_commit(struct ras_db *db)
{
	bool ended[N_STAGES] = { false };
	int r;

	if (!db->in_txn)
		return 0;
	if (ras_db_file_moved(db))
		return -ESTALE;
	if (db->wb && !db->wb_failed) {
		r = commit_on_writer(db);
	} else {
		/* No writer thread: here, in the table's order (roll-ups first: they count what folds take away). */
		for (size_t i = 0; i < N_STAGES; i++)
			if (stages[i].flush(db) < 0 || ras_db_sync(db) < 0)
				return ras_db_last_errno(db);
		/* The busy timeout has already waited; the caller backs off and tries again. */
		r = sqlite3_step(db->stmt[STMT_COMMIT]);
		sqlite3_reset(db->stmt[STMT_COMMIT]);
		/* The file replaced while committing: "moved", whatever the log read as. */
		if (r != SQLITE_DONE)
			return ras_db_file_moved(db) ? -ESTALE : ras_db_errno_of(r);
		txn_committed(db, ended, false);
		ras_db_note_committed(db);
		r = 0;
	}
	/* The fold flush applied the limits. */
	if (r == 0)
		db->age_checked_ns = monotonic_ns();
	return r;
}

/*
 * Whether a limit is due at this commit: the age limit once a minute, the
 * size limit once the pages in use (as of the last commit) come within a
 * sixteenth of it. Read from the event loop's copy of the limits: folding's
 * own is the writer thread's.
 */
static bool limit_due(struct ras_db *db)
{
	const struct ras_db_limits *l = db->have_limits ? &db->limits : NULL;
	int64_t used = ras_db_used_bytes(db);

	if (!l)
		return false;
	if (l->keep_raw_ns > 0 && monotonic_ns() - db->age_checked_ns >= AGE_LIMIT_EVERY_NS)
		return true;
	return l->max_db_bytes > 0 && (used < 0 || used >= l->max_db_bytes - l->max_db_bytes / 16);
}

/*
 * Folding's flush at a commit behind: a job when it has work (records handed
 * over for it, or, read only while it is not the writer thread's, rows to
 * fold or folding on) or a limit is due, which its flush applies. Its state
 * is then the writer thread's until the next sync.
 */
static bool fold_behind(struct ras_db *db, bool due)
{
	return due || db->fold_out || ras_db_fold_busy(db);
}

/*
 * The roll-ups' counts a commit behind handed over are flushed before its
 * COMMIT: once it is made their set is empty and this thread's again (rasd
 * has waited for it before the next commit behind; a caller that has not,
 * waits here). Not made, the writer thread has failed: it drops every job
 * until the rollback, which empties both sets, so what either holds is
 * never written.
 */
static void rollups_back(struct ras_db *db)
{
	if (db->rollups_ticket && ras_db_commit_poll(db, db->rollups_ticket) == 0)
		ras_db_commit_wait(db, db->rollups_ticket);
	db->rollups_ticket = 0;
}

int ras_db_commit_behind(struct ras_db *db, uint64_t *ticket)
{
	bool handed[N_STAGES], ended[N_STAGES], due, fold = false, rollups = false;

	*ticket = 0;
	if (!db->in_txn)
		return 0;
	if (!ras_db_deferring(db))
		return ras_db_commit(db);
	if (ras_db_file_moved(db))
		return -ESTALE;
	rollups_back(db);
	due = limit_due(db);
	/* In the table's order: the writer thread runs the flushes in it. */
	for (size_t i = 0; i < N_STAGES; i++) {
		if (stages[i].hand) {
			stages[i].hand(db);
			handed[i] = rollups = true;
			continue;
		}
		handed[i] = stages[i].behind && stages[i].behind(db, due);
		fold = fold || handed[i];
		if (!handed[i] && !stages[i].behind && stages[i].flush(db) < 0)
			return ras_db_last_errno(db);
	}
	if (hand_commit(db, db->commit_ticket + 1, handed, ended, true) < 0)
		return ras_db_last_errno(db);
	*ticket = ++db->commit_ticket;
	if (rollups)
		db->rollups_ticket = *ticket;
	db->commit_behind = true;
	for (size_t i = 0; i < N_STAGES; i++)
		/* A handed stage whose end found no memory for its job: ended here, once the thread is idle. */
		if (handed[i] && !ended[i] && ras_db_sync(db) < 0)
			return ras_db_last_errno(db);
	/* A stage not handed over ends here now: its state is this thread's. */
	txn_committed(db, ended, true);
	if (fold)
		db->fold_out = true;
	if (due)
		db->age_checked_ns = monotonic_ns();
	return 0;
}

void ras_db_rollback(struct ras_db *db)
{
	/* The writer thread's jobs are dropped or run; its failure is the rolled-back transaction's. */
	ras_db_sync_clear(db);
	/* After a full disk or an I/O error SQLite may have rolled back already. */
	if (!sqlite3_get_autocommit(db->h))
		step_reset(db->stmt[STMT_ROLLBACK]);
	db->in_txn = false;
	memset(db->next_id, 0, sizeof(db->next_id));
	/* The writer thread is idle: the roll-ups handed over are this thread's to empty. */
	db->rollups_ticket = 0;
	for (size_t i = 0; i < N_STAGES; i++)
		stages[i].discard(db);
	/* Decodings stored in the abandoned transaction are gone with it. */
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++) {
		if (db->dec_cache[i])
			memset(db->dec_cache[i], 0, RAS_DB_DEC_CACHE * sizeof(*db->dec_cache[i]));
		if (db->dec_sent[i])
			memset(db->dec_sent[i], 0, RAS_DB_DEC_CACHE * sizeof(*db->dec_sent[i]));
	}
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

size_t ras_db_slot_bytes(const struct ras_db *db)
{
	size_t n = 0;

	for (size_t i = 0; db && i < N_STAGES; i++)
		if (stages[i].slot_bytes)
			n += stages[i].slot_bytes(db);
	return n;
}

void ras_db_release_memory(struct ras_db *db)
{
	if (!db || ras_db_sync(db) < 0)
		return;
	/* A storm's batch slots, touched whole by a varied storm, stay resident otherwise. */
	if (!db->in_txn) {
		for (size_t i = 0; i < N_STAGES; i++)
			if (stages[i].trim)
				stages[i].trim(db);
		ras_db_write_behind_trim(db);
	}
	sqlite3_db_release_memory(db->h);
}

static int release_waiting_job(struct ras_db *db, const void *arg)
{
	(void)arg;
	return ras_db_fold_release_waiting(db) < 0 ? job_code(db) : SQLITE_OK;
}

/*
 * Folds the committed rows that wait for their subject's (fold_or_queue,
 * db_fold.c), in a transaction of its own: here, with the transaction's
 * other steps, so that folding calls no commit of its own.
 */
int ras_db_fold_settle(struct ras_db *db)
{
	int r;

	/* The writer thread's until it is idle. */
	if (ras_db_sync(db) < 0)
		return -EIO;
	if (!ras_db_fold_waiting(db))
		return 0;
	if (db->in_txn)
		return -EBUSY;
	if (ras_db_begin(db) < 0)
		return -EIO;
	/* With a writer thread, there (and its commit: ras_db_commit): this thread waits. */
	if (db->wb && !db->wb_failed)
		r = ras_db_defer_call(db, release_waiting_job, NULL, 0) < 0 ? -ENOMEM : 0;
	else
		r = ras_db_fold_release_waiting(db);
	if (r == 0)
		r = ras_db_commit(db);
	if (r < 0)
		ras_db_rollback(db);
	return r;
}
