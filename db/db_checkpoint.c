/* SPDX-License-Identifier: MIT */
/*
 * Checkpoints off the writer's path. The writer's commit only appends to the
 * log and syncs it; copying the log into the database file and syncing that
 * (a checkpoint) is done by a thread on its own connection, woken when a
 * commit leaves the log past its threshold. SQLite runs a passive checkpoint
 * beside a writer without blocking it, so a record's commit never waits for
 * one. Should the thread fall behind (or be missing), the writer checkpoints
 * itself once the log is four times the threshold.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "db_internal.h"
#include "lib/timeline.h"

struct ras_db_ckpt {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool due, stop;
	sqlite3 *h;
	int frames;                  /* log frames that call for a checkpoint */
};

/* Waits until woken, stopped, or (retry) 200 ms have passed. Called with the lock held. */
static void wait_due(struct ras_db_ckpt *c, bool retry)
{
	struct timespec until;

	if (!retry) {
		while (!c->due && !c->stop)
			pthread_cond_wait(&c->wake, &c->lock);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 200 * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (!c->due && !c->stop && pthread_cond_timedwait(&c->wake, &c->lock, &until) == 0)
		;
}

static void *checkpointer(void *arg)
{
	struct ras_db_ckpt *c = arg;
	bool retry = false;

	/*
	 * The lowest priority (a thread's nice value, Linux): in a storm the
	 * event loop and the writer thread keep both cores busy, and copying the
	 * log is work that can wait for a core they leave idle. Should it fall
	 * behind, the writer checkpoints itself (after_commit).
	 */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
	pthread_mutex_lock(&c->lock);
	for (;;) {
		int log = 0, copied = 0, r;

		wait_due(c, retry);
		if (c->stop)
			break;
		c->due = false;
		pthread_mutex_unlock(&c->lock);
		/*
		 * A failure (full disk, I/O error) or a pass that met a commit under way
		 * (busy, or frames left uncopied) leaves records in the log: tried again
		 * shortly, so the log is copied even when no further commit wakes us.
		 */
		ras_tl_begin(RAS_TL_CHECKPOINT);
		r = sqlite3_wal_checkpoint_v2(c->h, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
		ras_tl_end(RAS_TL_CHECKPOINT);
		retry = r != SQLITE_OK || copied < log;
		pthread_mutex_lock(&c->lock);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* Called by SQLite after each commit on the writer's connection, with the log's length. */
static int after_commit(void *ctx, sqlite3 *h, const char *name, int frames)
{
	struct ras_db_ckpt *c = ctx;

	if (frames >= 4 * c->frames) {
		ras_tl_begin(RAS_TL_CHECKPOINT);
		sqlite3_wal_checkpoint_v2(h, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		ras_tl_end(RAS_TL_CHECKPOINT);
	} else if (frames >= c->frames) {
		pthread_mutex_lock(&c->lock);
		c->due = true;
		pthread_cond_signal(&c->wake);
		pthread_mutex_unlock(&c->lock);
	}
	return SQLITE_OK;
}

static void free_ckpt(struct ras_db_ckpt *c)
{
	sqlite3_close(c->h);
	pthread_cond_destroy(&c->wake);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

int ras_db_checkpointer_start(struct ras_db *db, int frames)
{
	const char *path = sqlite3_db_filename(db->h, "main");
	struct ras_db_ckpt *c = calloc(1, sizeof(*c));
	sigset_t all, old;
	int r;

	if (!c)
		return -ENOMEM;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->wake, NULL);
	c->frames = frames;
	/* Read once, so the connection knows the log: until then a checkpoint does nothing. */
	ras_db_sqlite_setup();
	if (!path || sqlite3_open_v2(path, &c->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
				     SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    sqlite3_exec(c->h, "PRAGMA schema_version", NULL, NULL, NULL) != SQLITE_OK) {
		free_ckpt(c);
		return -EIO;
	}
	/* Signals stay with the thread that waits for them (rasd's signalfd). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&c->thread, NULL, checkpointer, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0) {
		free_ckpt(c);
		return -r;
	}
	pthread_setname_np(c->thread, "rasd-checkpoint");
	db->ckpt = c;
	sqlite3_wal_hook(db->h, after_commit, c);
	return 0;
}

void ras_db_checkpointer_stop(struct ras_db *db)
{
	struct ras_db_ckpt *c = db->ckpt;

	if (!c)
		return;
	sqlite3_wal_hook(db->h, NULL, NULL);
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
	ras_tl_begin(RAS_TL_CKPT_JOIN);
	pthread_join(c->thread, NULL);
	ras_tl_end(RAS_TL_CKPT_JOIN);
	free_ckpt(c);
	db->ckpt = NULL;
}
