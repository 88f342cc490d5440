/* SPDX-License-Identifier: MIT */
/*
 * SQLite's allocation statistics stay off in rasd's connections. Kept on,
 * every malloc and free SQLite makes takes a global mutex and updates four
 * counters: about 4.6 % of the writer thread's instructions in a storm. The
 * setting is refused once SQLite is initialised, and rasd's first call into
 * SQLite is not an open but the log VFS's sqlite3_vfs_find, which once made
 * the setting come too late. Asserted the way rasd opens (the writer's open,
 * which registers the VFS first), then, in a child that initialises SQLite
 * before that open, that the same measure sees the statistics when they are
 * on, so it is not blind.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "db/db.h"
#include "tap.h"

static char dir[] = "/tmp/ras-fdr-memstatus-XXXXXX";
static const char boot[] = "00000000-0000-0000-0000-0000000000a1";

/* The writer's open and one committed row; the bytes SQLite says it holds, or -1. */
static long long open_and_write(const char *name)
{
	char path[300], err[512];
	struct ras_db *db;
	long long used;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (ras_db_open_writer(&db, path, boot, err, sizeof(err)) < 0) {
		fprintf(stderr, "# %s\n", err);
		return -1;
	}
	if (ras_db_begin(db) < 0 || ras_db_storage_event(db, "test", "memstatus") < 0 ||
	    ras_db_commit(db) < 0) {
		ras_db_close(db);
		return -1;
	}
	used = (long long)sqlite3_memory_used();
	ras_db_close(db);
	return used;
}

/* In a child: SQLite initialised before the open, as rasd once did. */
static long long used_when_initialised_first(void)
{
	int fds[2], status;
	long long used = -1;
	pid_t pid;

	if (pipe(fds) < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		sqlite3_initialize();
		used = open_and_write("first.db");
		_exit(write(fds[1], &used, sizeof(used)) == sizeof(used) ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], &used, sizeof(used)) != sizeof(used))
		used = -1;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return used;
}

int main(void)
{
	char cmd[400];
	long long used;

	if (!mkdtemp(dir))
		return 1;
	/* The child first: its SQLite is its own, initialised before any open. */
	used = used_when_initialised_first();
	tap_ok(used > 0, "initialised before the open, the statistics count (%lld bytes)", used);
	used = open_and_write("rasd.db");
	tap_ok(used == 0, "the writer's open: no allocation statistics (%lld bytes counted)", used);
	tap_ok(sqlite3_memory_highwater(0) == 0, "no high-water mark kept either");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# could not remove %s\n", dir);
	return tap_done();
}
