/* SPDX-License-Identifier: MIT */
/*
 * make stepprof: bench/stepprof.so, preloaded into rasd, times every
 * sqlite3_step by its statement's text (thread CPU time) and writes, at
 * exit, one line per statement to $STEPPROF_OUT (default stepprof.txt):
 * seconds, calls, SQL. Sort with sort -rn. Profiling only; not installed.
 *
 *   LD_PRELOAD=bench/stepprof.so STEPPROF_OUT=/tmp/steps.txt rasd/rasd ... --once
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOTS 8192

struct slot {
	char *sql;
	long calls;
	double seconds;
};

static struct slot slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int (*real_step)(sqlite3_stmt *);

static double thread_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The slot of sql (added if new), or NULL when the table is full. */
static struct slot *slot_of(const char *sql)
{
	unsigned h = 5381;

	for (const char *p = sql; *p; p++)
		h = h * 33 + (unsigned char)*p;
	for (unsigned n = 0, i = h % SLOTS; n < SLOTS; n++, i = (i + 1) % SLOTS) {
		if (!slots[i].sql && !(slots[i].sql = strdup(sql)))
			return NULL;
		if (!strcmp(slots[i].sql, sql))
			return &slots[i];
	}
	return NULL;
}

int sqlite3_step(sqlite3_stmt *st)
{
	const char *sql = sqlite3_sql(st);
	double t0;
	struct slot *s;
	int r;

	if (!real_step)
		real_step = (int (*)(sqlite3_stmt *))dlsym(RTLD_NEXT, "sqlite3_step");
	t0 = thread_seconds();
	r = real_step(st);
	t0 = thread_seconds() - t0;
	pthread_mutex_lock(&lock);
	s = slot_of(sql ? sql : "?");
	if (s) {
		s->calls++;
		s->seconds += t0;
	}
	pthread_mutex_unlock(&lock);
	return r;
}

__attribute__((destructor)) static void write_profile(void)
{
	const char *path = getenv("STEPPROF_OUT") ? getenv("STEPPROF_OUT") : "stepprof.txt";
	FILE *f = fopen(path, "we");

	if (!f)
		return;
	for (unsigned i = 0; i < SLOTS; i++)
		if (slots[i].sql)
			fprintf(f, "%9.3f s %10ld  %s\n", slots[i].seconds, slots[i].calls, slots[i].sql);
	fclose(f);
}
