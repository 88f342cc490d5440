/* SPDX-License-Identifier: MIT */
/* The writer tests' fixture: see writer_fixture.h. */
#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "db/db_internal.h"
#include "db/db_writer_internal.h"
#include "tap.h"
#include "writer_fixture.h"

struct ras_db *open_db(const char *path, bool behind)
{
	struct ras_db *db = NULL;
	char err[512];

	if (ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) < 0) {
		tap_diag("open %s: %s", path, err);
		return NULL;
	}
	if (behind && ras_db_write_behind_start(db) < 0) {
		ras_db_close(db);
		return NULL;
	}
	return db;
}

static unsigned last_rows;   /* VALUES tuples of the last INSERT into the table watched */
static const char *watched;

static int note_insert(unsigned type, void *ctx, void *p, void *x)
{
	const char *sql = sqlite3_sql(p);
	char head[128];
	unsigned rows = 1;

	(void)type, (void)ctx, (void)x;
	snprintf(head, sizeof(head), "INSERT OR IGNORE INTO %s (", watched);
	if (!sql || strncmp(sql, head, strlen(head)))
		return 0;
	for (const char *q = sql; (q = strstr(q, "),(")); q++)
		rows++;
	__atomic_store_n(&last_rows, rows, __ATOMIC_RELAXED);
	return 0;
}

void watch_inserts(struct ras_db *db, const char *table)
{
	watched = table;
	sqlite3_trace_v2(db->h, SQLITE_TRACE_STMT, note_insert, NULL);
}

unsigned watched_rows(void)
{
	return __atomic_load_n(&last_rows, __ATOMIC_RELAXED);
}

int64_t differing(const char *a, const char *b, const char *table)
{
	char sql[1024];
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t n = -1;

	if (sqlite3_open_v2(a, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return -1;
	snprintf(sql, sizeof(sql), "ATTACH '%s' AS b", b);
	sqlite3_exec(h, sql, NULL, NULL, NULL);
	snprintf(sql, sizeof(sql), "SELECT (SELECT count(*) FROM (SELECT * FROM main.%s EXCEPT SELECT * FROM b.%s))"
		 " + (SELECT count(*) FROM (SELECT * FROM b.%s EXCEPT SELECT * FROM main.%s))",
		 table, table, table, table);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool started, released, gave_up;
} hold = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false, false };

static pthread_once_t conds_once = PTHREAD_ONCE_INIT;
static void monotonic_conds(void);

/* Runs on the writer thread until released; the deadline only ends a test that would hang. */
static int hold_writer(struct ras_db *db, const void *arg)
{
	struct timespec until;

	(void)db, (void)arg;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += 60;
	pthread_mutex_lock(&hold.lock);
	hold.started = true;
	pthread_cond_broadcast(&hold.cond);
	while (!hold.released && !hold.gave_up)
		hold.gave_up = pthread_cond_timedwait(&hold.cond, &hold.lock, &until) == ETIMEDOUT;
	pthread_mutex_unlock(&hold.lock);
	return SQLITE_OK;
}

static int filler(struct ras_db *db, const void *arg)
{
	(void)db, (void)arg;
	return SQLITE_OK;
}

/*
 * A job the size of a whole chunk after the holding one never fits beside
 * it, so the chunk holding it goes to the writer thread (a job of 250 KB did
 * only when the chunk already held 6 KB, which depended on what was queued
 * before: CI once hung there).
 */
int writer_hold_start(struct ras_db *db)
{
	static char big[WB_CHUNK_BYTES - sizeof(struct job_head)];

	pthread_once(&conds_once, monotonic_conds);
	hold.started = hold.released = hold.gave_up = false;
	if (ras_db_defer_call(db, hold_writer, NULL, 0) < 0 ||
	    ras_db_defer_call(db, filler, big, sizeof(big)) < 0)
		return -1;
	pthread_mutex_lock(&hold.lock);
	while (!hold.started)
		pthread_cond_wait(&hold.cond, &hold.lock);
	pthread_mutex_unlock(&hold.lock);
	return 0;
}

bool writer_hold_release(void)
{
	bool gave_up;

	pthread_mutex_lock(&hold.lock);
	hold.released = true;
	gave_up = hold.gave_up;
	pthread_cond_broadcast(&hold.cond);
	pthread_mutex_unlock(&hold.lock);
	return !gave_up;
}

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool hold_next, held, let_go, fail_held, through, fired;
	pthread_t dog;
} gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false, false, false, false,
	   false, 0 };

/*
 * The minute's deadlines are on the monotonic clock: on the wall clock a step
 * forward (NTP setting a fresh CI machine's clock) ended a hold or fired the
 * watchdog at once. Set before either condition is first waited on.
 */
static void monotonic_conds(void)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&hold.cond, &a);
	pthread_cond_init(&gate.cond, &a);
	pthread_condattr_destroy(&a);
}

/* On the writer thread, inside a COMMIT: the one asked for waits for the test; non-zero fails it. */
static int on_commit(void *ctx)
{
	int fail = 0;

	(void)ctx;
	pthread_mutex_lock(&gate.lock);
	if (gate.hold_next) {
		gate.hold_next = false;
		gate.held = true;
		pthread_cond_broadcast(&gate.cond);
		while (!gate.let_go)
			pthread_cond_wait(&gate.cond, &gate.lock);
		gate.held = gate.let_go = false;
		fail = gate.fail_held;
	}
	pthread_mutex_unlock(&gate.lock);
	return fail;
}

void commit_gate_install(struct ras_db *db)
{
	pthread_once(&conds_once, monotonic_conds);
	sqlite3_commit_hook(db->h, on_commit, NULL);
}

void commit_gate_hold_next(void)
{
	pthread_mutex_lock(&gate.lock);
	gate.hold_next = true;
	pthread_mutex_unlock(&gate.lock);
}

void commit_gate_wait_held(void)
{
	pthread_mutex_lock(&gate.lock);
	while (!gate.held)
		pthread_cond_wait(&gate.cond, &gate.lock);
	pthread_mutex_unlock(&gate.lock);
}

void commit_gate_release(bool fail)
{
	pthread_mutex_lock(&gate.lock);
	gate.fail_held = fail;
	gate.let_go = true;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
}

/* On its own thread: a minute's wait for the test to get through, then the held commit let go. */
static void *watchdog(void *arg)
{
	struct timespec until;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += 60;
	pthread_mutex_lock(&gate.lock);
	while (!gate.through && pthread_cond_timedwait(&gate.cond, &gate.lock, &until) != ETIMEDOUT)
		;
	if (!gate.through && gate.held) {
		gate.fired = true;
		gate.let_go = true;
		pthread_cond_broadcast(&gate.cond);
	}
	pthread_mutex_unlock(&gate.lock);
	return NULL;
}

void commit_gate_watchdog_start(void)
{
	pthread_once(&conds_once, monotonic_conds);
	gate.through = false;
	pthread_create(&gate.dog, NULL, watchdog, NULL);
}

bool commit_gate_watchdog_end(void)
{
	pthread_mutex_lock(&gate.lock);
	gate.through = true;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	pthread_join(gate.dog, NULL);
	return gate.fired;
}
