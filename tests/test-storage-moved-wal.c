/* SPDX-License-Identifier: MIT */
/*
 * The database file replaced behind the writer's back (a restored backup
 * renamed over it) while a reader has the path open: the reader opened the
 * new file but shares the old file's -wal and -shm, which are still named
 * after the path, and holds a read lock on that log. Asserted, with no
 * timing (a child process holds the lock until told to let go):
 *  - the old connection's failure is "moved" (-ESTALE), never corrupt;
 *  - the path opened again is the restored file as it was: good, its own
 *    rows and none of the old file's (the old log is never applied to it),
 *    not moved aside, and a new row commits into it;
 *  - the old file's rows all reached the old file (kept here under another
 *    name, as an archive would be).
 * Before the fix the old log stayed at the path (its TRUNCATE checkpoint met
 * the reader) and the new file was opened through it. And rasd's answer to a
 * corrupt database (rasd_storage_replace_corrupt) moves aside only the file
 * found corrupt: a backup renamed over it meanwhile is opened, not moved.
 * A log whose frames a reader of an old snapshot kept from the moved file is
 * renamed <path>-wal.moved-TIME, and rasd's reopen records where it went as
 * a storage event (moved-log-kept) in the file now at the path, and in the
 * state file that ras-fdr-ctl status reads (moved_log).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "db/db.h"
#include "lib/rasd_state.h"
#include "rasd/storage.h"
#include "tap.h"

static char dir[] = "/tmp/ras-fdr-moved-wal-XXXXXX";
static char path[256], restore[300], archive[300];
static const char boot[] = "00000000-0000-0000-0000-00000000b007";

/* n storage_events rows named what, in one transaction: log frames, not yet checkpointed. */
static int fill(struct ras_db *db, const char *what, int n)
{
	char detail[600];

	memset(detail, 'x', sizeof(detail) - 1);
	detail[sizeof(detail) - 1] = 0;
	if (ras_db_begin(db) < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (ras_db_storage_event(db, what, detail) < 0)
			return -1;
	return ras_db_commit(db);
}

/* A good database at p with n rows named what, closed cleanly (no log left). */
static int make_db(const char *p, const char *what, int n)
{
	struct ras_db *db;
	char err[1024];
	int r = ras_db_open_writer(&db, p, boot, err, sizeof(err));

	if (r < 0) {
		tap_diag("%s", err);
		return r;
	}
	r = fill(db, what, n);
	ras_db_close(db);
	return r;
}

/* "<rows named what>" of the file at p, or -1: read in a process of its own (POSIX locks are per process). */
static long long count_rows(const char *p, const char *what)
{
	int fds[2];
	long long n = -1;
	pid_t pid;

	if (pipe(fds) < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		sqlite3 *h;
		sqlite3_stmt *st;

		close(fds[0]);
		if (sqlite3_open_v2(p, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
		    sqlite3_prepare_v2(h, "SELECT count(*) FROM storage_events WHERE what = ?", -1, &st,
				       NULL) == SQLITE_OK) {
			sqlite3_bind_text(st, 1, what, -1, SQLITE_STATIC);
			if (sqlite3_step(st) == SQLITE_ROW)
				n = sqlite3_column_int64(st, 0);
			sqlite3_finalize(st);
		}
		if (n < 0) {
			tap_diag("reading %s: %s", p, sqlite3_errmsg(h));
			fflush(stdout);
		}
		if (write(fds[1], &n, sizeof(n)) != (ssize_t)sizeof(n))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &n, sizeof(n)) != (ssize_t)sizeof(n))
		n = -1;
	close(fds[0]);
	waitpid(pid, NULL, 0);
	return n;
}

/*
 * A reader in another process: opens p, begins a read transaction and holds
 * it until go is written to. Returns its pid once it holds it (-1: failed).
 */
static pid_t hold_reader(const char *p, int *go)
{
	int ready[2], hold[2];
	char c;
	pid_t pid;

	if (pipe(ready) < 0 || pipe(hold) < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		sqlite3 *h;

		close(ready[0]);
		close(hold[1]);
		/* Whatever it reads through the old log: the read lock is what matters. */
		if (sqlite3_open_v2(p, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
		    sqlite3_exec(h, "BEGIN; SELECT count(*) FROM sqlite_master;", NULL, NULL, NULL) != SQLITE_OK)
			_exit(1);
		c = 'r';
		if (write(ready[1], &c, 1) != 1 || read(hold[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(ready[1]);
	close(hold[0]);
	*go = hold[1];
	if (read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		return -1;
	}
	close(ready[0]);
	return pid;
}

static void release_reader(pid_t pid, int go)
{
	char c = 'g';

	if (write(go, &c, 1) != 1)
		kill(pid, SIGKILL);
	close(go);
	waitpid(pid, NULL, 0);
}

/* The test's directory holds files only. */
static void remove_dir(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	char p[600];

	while (dp && (e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", d, e->d_name);
		unlink(p);
	}
	if (dp)
		closedir(dp);
	rmdir(d);
}

static bool same_file(const char *p, const struct stat *was)
{
	struct stat st;

	return stat(p, &st) == 0 && st.st_dev == was->st_dev && st.st_ino == was->st_ino;
}

/* Files in the test's directory whose name has "corrupt" in it. */
static int corrupt_files(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	while (dp && (e = readdir(dp)))
		n += strstr(e->d_name, "corrupt") != NULL;
	if (dp)
		closedir(dp);
	return n;
}

/*
 * A commit found the database corrupt, and before rasd acted on it (its
 * back-off) a backup was renamed over the path: the backup is opened, kept.
 */
static void corrupt_then_replaced(void)
{
	struct rasd_storage s;
	struct ras_db *db = NULL;
	struct stat restored;
	char err[1024] = "";
	int r;

	rasd_storage_init(&s, dir, "test");
	snprintf(s.db_path, sizeof(s.db_path), "%s", path);
	unlink(path);
	r = make_db(restore, "backup", 5);
	if (r == 0)
		r = ras_db_open_writer(&db, path, boot, err, sizeof(err));
	if (r == 0)
		r = fill(db, "doomed", 20);
	stat(restore, &restored);
	tap_ok(r == 0 && rename(restore, path) == 0, "a database in use, a backup renamed over it %s", err);
	r = rasd_storage_replace_corrupt(&s, boot, &db, "database disk image is malformed");
	tap_ok(r == 0 && db, "rasd's answer to corruption records again");
	if (db)
		ras_db_storage_event(db, "after", "x");
	ras_db_close(db);
	tap_ok(same_file(path, &restored) && corrupt_files(dir) == 0,
	       "the backup renamed over it is at the path, nothing moved aside as corrupt");
	tap_ok(count_rows(path, "backup") == 5 && count_rows(path, "after") == 1,
	       "it keeps its 5 rows and takes the new one");
}

/* The name of the file in d that starts with prefix, in out ("" when none). */
static void find_file(const char *d, const char *prefix, char *out, size_t len)
{
	DIR *dp = opendir(d);
	struct dirent *e;

	out[0] = 0;
	while (dp && (e = readdir(dp)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			snprintf(out, len, "%s/%s", d, e->d_name);
	if (dp)
		closedir(dp);
}

/* The detail of the newest storage event named what in the file at p (read here: no lock held). */
static void event_detail(const char *p, const char *what, char *out, size_t len)
{
	sqlite3 *h;
	sqlite3_stmt *st;

	out[0] = 0;
	if (sqlite3_open_v2(p, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, "SELECT detail FROM storage_events WHERE what = ? ORDER BY rowid DESC",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, what, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
}

/*
 * A reader holds a snapshot of the old file, older than its last commits:
 * those frames cannot reach it before the reader lets go, so its log is
 * renamed aside at close (after the busy timeout), and rasd's reopen says
 * where, in the log and as a storage event of the file now at the path.
 */
static void log_kept_aside(void)
{
	char p[300], backup[300], aside[600], detail[1200];
	struct rasd_storage s;
	struct ras_db *db = NULL;
	char err[1024] = "";
	int go = -1, r;
	pid_t reader = -1;

	snprintf(p, sizeof(p), "%s/kept.db", dir);
	snprintf(backup, sizeof(backup), "%s/kept-backup.db", dir);
	rasd_storage_init(&s, dir, "test");
	snprintf(s.db_path, sizeof(s.db_path), "%s", p);
	r = make_db(backup, "backup", 3);
	if (r == 0)
		r = ras_db_open_writer(&db, p, boot, err, sizeof(err));
	if (r == 0)
		r = fill(db, "early", 10);
	if (r == 0 && (reader = hold_reader(p, &go)) < 0)
		r = -1;
	if (r == 0)
		r = fill(db, "late", 50);
	tap_ok(r == 0 && rename(backup, p) == 0,
	       "a reader holds an old snapshot of the file in use, a backup renamed over it %s", err);
	r = rasd_storage_reopen_moved(&s, boot, &db, "test: moved");
	tap_ok(r == 0 && db, "rasd opens the path again");
	rasd_storage_note_db(&s, db);
	ras_db_close(db);
	if (reader > 0)
		release_reader(reader, go);
	find_file(dir, "kept.db-wal.moved-", aside, sizeof(aside));
	tap_ok(aside[0] != 0, "the old log, frames not copied, kept aside (%s)", aside);
	event_detail(p, "moved-log-kept", detail, sizeof(detail));
	tap_ok(aside[0] && !strncmp(detail, aside, strlen(aside)),
	       "a moved-log-kept storage event names it: %s", detail);
	{
		struct ras_rasd_state *st = calloc(1, sizeof(*st));

		if (st)
			ras_rasd_state_parse(dir, "test", st);
		tap_ok(st && aside[0] && !strcmp(st->moved_log, aside),
		       "the state file (ras-fdr-ctl status) names it: %s", st ? st->moved_log : "");
		free(st);
	}
}

int main(void)
{
	struct ras_db *db = NULL, *again = NULL;
	enum ras_db_state st = RAS_DB_UNREADABLE;
	struct stat restored;
	char err[1024] = "";
	int go = -1, r;
	pid_t reader;

	tap_plan(20);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/ras.db", dir);
	snprintf(restore, sizeof(restore), "%s/restore.db", dir);
	snprintf(archive, sizeof(archive), "%s/archive.db", dir);

	/* The backup to restore: 10 rows of its own. */
	tap_is_int(make_db(restore, "restored", 10), 0, "a backup with 10 rows of its own");
	/* The database in use: 300 rows committed into its log, not checkpointed yet. */
	r = ras_db_open_writer(&db, path, boot, err, sizeof(err));
	tap_ok(r == 0 && fill(db, "old", 300) == 0, "the database in use has 300 rows in its log %s", err);
	/* An operator keeps the old file (a hard link: the archive) and renames the backup over the path. */
	stat(restore, &restored);
	tap_ok(link(path, archive) == 0 && rename(restore, path) == 0, "the backup replaces it");
	/* A reader (ras-fdr-ctl, sqlite3) opens the path now: the new file, through the old log. */
	reader = hold_reader(path, &go);
	tap_ok(reader > 0, "a reader holds a read lock through the old file's log");

	/* The old connection's next commit: moved, not corrupt, whatever else failed. */
	r = ras_db_begin(db);
	if (r == 0)
		r = ras_db_storage_event(db, "after", "x");
	if (r == 0)
		r = ras_db_commit(db);
	tap_is_int(r, -ESTALE, "the old connection's commit fails as moved (-ESTALE)");
	tap_is_int(ras_db_last_errno(db), -ESTALE, "and its last failure is told as moved");
	ras_db_rollback(db);

	/* rasd's reopen: the old connection closed, the path opened again, the reader still there. */
	ras_db_close(db);
	r = ras_db_open_writer_state(&again, path, boot, &st, err, sizeof(err));
	tap_ok(r == 0 && st == RAS_DB_GOOD, "the path opens again as a good database (state %s) %s",
	       ras_db_state_name(st), err);
	r = r == 0 ? ras_db_storage_event(again, "new", "x") : r;
	tap_is_int(r, 0, "a row commits into it");
	ras_db_close(again);
	if (reader > 0)
		release_reader(reader, go);

	tap_ok(same_file(path, &restored), "the restored file is still at the path (not moved aside)");
	{
		long long kept = count_rows(path, "restored"), leaked = count_rows(path, "old"),
			  added = count_rows(path, "new");

		tap_ok(kept == 10 && leaked == 0 && added == 1,
		       "it holds its own 10 rows (%lld), none of the old file's (%lld), and the new one (%lld)",
		       kept, leaked, added);
	}
	tap_is_int(count_rows(archive, "old"), 300, "the old file (the archive) holds its 300 rows");
	corrupt_then_replaced();
	log_kept_aside();
	if (!tap_failed)
		remove_dir(dir);
	return tap_failed ? 1 : 0;
}
