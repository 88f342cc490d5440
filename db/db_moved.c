/* SPDX-License-Identifier: MIT */
/*
 * A database file moved or removed while rasd has it open: telling it
 * (SQLite's HAS_MOVED), and at close keeping the next file opened at the
 * path from reading this one's log (-wal, -shm) as its own. Split from db.c,
 * which calls it; it calls nothing of db/.
 */
#include <limits.h>
#include <stdio.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include "db_internal.h"

/* The writer's -wal and -shm as SQLite opened them, to tell them from others at the path later. */
void ras_db_note_log_files(struct ras_db *db, const char *path)
{
	char p[PATH_MAX + 8];
	struct stat st;

	snprintf(p, sizeof(p), "%s-wal", path);
	if (stat(p, &st) == 0) {
		db->log_dev = st.st_dev;
		db->log_ino = st.st_ino;
	}
	snprintf(p, sizeof(p), "%s-shm", path);
	if (stat(p, &st) == 0) {
		db->shm_dev = st.st_dev;
		db->shm_ino = st.st_ino;
	}
}

/*
 * Whether the database's path still names the file SQLite has open. Removed
 * (a clean-up that deletes it) or replaced, every commit would go on into a
 * file nobody can open again: records lost without a word.
 */
bool ras_db_file_moved(struct ras_db *db)
{
	int moved = 0;

	if (db->moved)
		return true;
	if (sqlite3_file_control(db->h, "main", SQLITE_FCNTL_HAS_MOVED, &moved) != SQLITE_OK || !moved)
		return false;
	snprintf(db->err, sizeof(db->err), "database file %s was removed or replaced while in use",
		 sqlite3_db_filename(db->h, "main"));
	return db->moved = true;
}

bool ras_db_moved(struct ras_db *db)
{
	return db && !db->readonly && ras_db_file_moved(db);
}

/*
 * The file was moved or removed (found now or at a commit). SQLite neither
 * checkpoints such a file at close nor removes its log, and the log and its
 * index (-wal, -shm) are still named after the path: whatever is opened
 * there next (a restored backup, a fresh database) would read this file's
 * pages through them as its own, and look corrupt or be corrupted. Its
 * frames go into the file they belong to first: a passive pass, which waits
 * for nobody; only when a reader of an older snapshot kept some back, a
 * TRUNCATE that waits for it (the busy timeout). With every frame copied a
 * reader is no reason to wait: it reads the new file through this log,
 * whatever it sees is wrong anyway. True when every frame is in the file.
 */
bool ras_db_empty_moved_log(struct ras_db *db)
{
	int log = -1, copied = -1, r;

	r = sqlite3_wal_checkpoint_v2(db->h, "main", SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
	if (r == SQLITE_OK && log >= 0 && copied >= log) {
		sqlite3_busy_timeout(db->h, 0);
		sqlite3_wal_checkpoint_v2(db->h, "main", SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
		return true;
	}
	r = sqlite3_wal_checkpoint_v2(db->h, "main", SQLITE_CHECKPOINT_TRUNCATE, &log, &copied);
	return r == SQLITE_OK || (log >= 0 && copied >= log);
}

/* Whether path+suffix is still the file noted at open (never another's put there since). */
static bool same_file(const char *path, const char *suffix, dev_t dev, ino_t ino, char *p, size_t len)
{
	struct stat st;

	snprintf(p, len, "%s%s", path, suffix);
	return ino && stat(p, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

/*
 * After the moved file's connection is closed: its -wal and -shm, if still
 * at the path and not empty, go, so the next open there starts a log of its
 * own. The log first: an index without its log is rebuilt, a log without its
 * index would be replayed. A log whose frames did not all reach the file
 * (an I/O error, a reader that held on) is kept beside, for a person to put
 * back next to the file it belongs to; its name goes to kept (len > 0), for
 * the caller to tell (a storage event in the next file, and the log).
 */
void ras_db_forget_moved_log(const struct ras_db *db, const char *path, bool copied,
			     char *kept, size_t len)
{
	char p[PATH_MAX + 8], aside[PATH_MAX + 64], stamp[32];
	time_t now = time(NULL);
	struct stat st;
	struct tm tm;

	if (!same_file(path, "-wal", db->log_dev, db->log_ino, p, sizeof(p)))
		return;
	if (stat(p, &st) == 0 && st.st_size == 0)
		return;  /* emptied by the TRUNCATE: its index says so, the next open may share both */
	if (copied) {
		unlink(p);
	} else {
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		snprintf(aside, sizeof(aside), "%s-wal.moved-%s", path, stamp);
		/* Left as found when it cannot be: never removed with records in it. */
		if (rename(p, aside) != 0)
			return;
		if (kept && len)
			snprintf(kept, len, "%s", aside);
	}
	if (same_file(path, "-shm", db->shm_dev, db->shm_ino, p, sizeof(p)))
		unlink(p);
}
