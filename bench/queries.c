/* SPDX-License-Identifier: MIT */
/*
 * The query half of make bench: a database of N varied records (the same
 * stream, stored by rasd --once through the whole path), then the wall time
 * of each ras-fdr-ctl query a fleet runs often. Best of three runs each, so
 * one slow moment of a busy machine does not stand for the query.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "queries.h"
#include "stream.h"
#include "tests/test_util.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Every option of summary (times relative to now: the stream's records are some hours old). */
#define MAX_ARGS 6
static const char *const queries[][MAX_ARGS] = {
	{ "summary" }, { "summary", "--since", "-1h" }, { "summary", "--until", "-1h" },
	{ "summary", "--since", "-1d", "--until", "-1h" },
	{ "summary", "--type", "memory_failure_event" }, { "summary", "--boot", "0" },
	{ "summary", "--include-synthetic" }, { "summary", "--json" },
	{ "summary", "--by", "dimm" }, { "summary", "--by", "dimm", "--since", "-1d" },
	{ "summary", "--by", "dimm", "--json" },
	{ "status" }, { "edac" }, { "edac", "--report" },
	{ "metrics" }, { "errors", "--limit", "20" },
};
#define N_QUERIES (sizeof(queries) / sizeof(queries[0]))

/* Builds the database in dir; 0 or -1. */
static int build_db(const char *dir, long n, const char *db)
{
	struct fake_tree t;
	char formats[1024], rasd[1024], lock[600], conf[600];
	char *argv[] = { rasd, "--config", conf, "--tracing-dir", t.root, "--db", (char *)db,
			 "--lock-dir", lock, "--once", NULL };
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	int r;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(lock, sizeof(lock), "%s", dir);
	if (bench_unfolded_conf(dir, conf, sizeof(conf)) < 0 ||
	    fake_tree_create(&t, formats, 2, "rasd", "boot") < 0)
		return -1;
	for (long i = 0; i < n; i++)
		if (bench_stream_add(&t, i, &seed) < 0)
			return -1;
	fake_tree_finish(&t);
	r = run(argv);
	fake_tree_destroy(&t);
	return r == 0 ? 0 : -1;
}

static int time_queries(const char *db, double *best)
{
	int failed = 0;

	char ctl[1024];

	snprintf(ctl, sizeof(ctl), "%s/ctl/ras-fdr-ctl", test_builddir());
	for (size_t q = 0; q < N_QUERIES; q++) {
		char *argv[5 + MAX_ARGS + 1] = { ctl, "--config", "/dev/null", "--db", (char *)db };
		int a = 5;

		for (int k = 0; k < MAX_ARGS && queries[q][k]; k++)
			argv[a++] = (char *)queries[q][k];
		argv[a] = NULL;
		best[q] = 1e9;
		for (int rep = 0; rep < 3; rep++) {
			double t0 = now_s();
			int rc = run(argv);

			/* A refusal would be fast and mean nothing: say so. Exit 3 is an answer
			 * ("attention": no rasd running, no EDAC topology in a replayed database). */
			if (rc != 0 && rc != 3 && !rep) {
				fprintf(stderr, "bench: '%s %s' failed on %s\n", queries[q][0],
					queries[q][1] ? queries[q][1] : "", db);
				failed++;
			}
			if (now_s() - t0 < best[q])
				best[q] = now_s() - t0;
		}
	}
	return failed ? -1 : 0;
}

/*
 * BENCH_QUERY_DIR keeps the databases there and reuses them: an existing one
 * only gets an empty rasd --once (which upgrades its schema), so a 10-million
 * record database is built once while the queries are worked on.
 */
static long keep_or(const char *db, long n)
{
	return getenv("BENCH_QUERY_DIR") && access(db, F_OK) == 0 ? 0 : n;
}

int bench_queries(const char *dir, long small, long large)
{
	char db_small[600], db_large[600];
	double t_small[N_QUERIES], t_large[N_QUERIES];

	if (getenv("BENCH_QUERY_DIR"))
		dir = getenv("BENCH_QUERY_DIR");
	snprintf(db_small, sizeof(db_small), "%s/small.db", dir);
	snprintf(db_large, sizeof(db_large), "%s/large.db", dir);
	printf("queries:  building databases of %ld and %ld varied records through rasd...\n",
	       small, large);
	fflush(stdout);
	if (build_db(dir, keep_or(db_small, small), db_small) < 0 ||
	    build_db(dir, keep_or(db_large, large), db_large) < 0) {
		fprintf(stderr, "bench: building the query databases failed\n");
		return -1;
	}
	if (time_queries(db_small, t_small) < 0 || time_queries(db_large, t_large) < 0)
		return -1;
	printf("queries:  %-36s %10ld rec %10ld rec  ratio\n", "ras-fdr-ctl (best of 3, wall)", small,
	       large);
	for (size_t q = 0; q < N_QUERIES; q++) {
		char name[80] = "";

		for (int k = 0; k < MAX_ARGS && queries[q][k]; k++)
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s", k ? " " : "",
				 queries[q][k]);
		printf("queries:  %-36s %8.1f ms %8.1f ms  %5.1fx\n", name, t_small[q] * 1e3,
		       t_large[q] * 1e3, t_large[q] / t_small[q]);
	}
	return 0;
}
