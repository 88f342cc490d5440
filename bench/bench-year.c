/* SPDX-License-Identifier: MIT */
/*
 * make bench-year: a year of one stuck bit, one corrected mc_event a second
 * (31,536,000 records), replayed through fake tracing trees into rasd --once
 * with rasd's default configuration (storm folding on), a month per run on
 * one database, as a machine that restarts rasd now and then. Prints the
 * database size, the time rasd took, the counts summary gives (they must
 * equal the records replayed, also in windows that cut hours) and how long
 * summary takes. Prints measured figures only; exits 1 when a count is off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/fileio.h"
#include "tests/fake_tree.h"
#include "tests/test_util.h"

#define SEC 1000000000ULL
#define CHUNKS 12

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long long file_size(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 ? (long long)st.st_size : 0;
}

/* One tree holding records [from, to) of the year, each a second after the one before. */
static int build_chunk(struct fake_tree *t, long from, long to)
{
	static char *assign[] = {
		"error_type=0", "msg=memory read error", "label=DIMM_A1", "error_count=1",
		"mc_index=0", "top_layer=1", "middle_layer=0", "lower_layer=-1",
		"address=0x12345680", "grain_bits=6", "syndrome=0x2f", "driver_detail=rank:0 row:0x1a2b",
	};
	char formats[1024];
	uint8_t rec[1024];
	int len;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	if (fake_tree_create(t, formats, 1, "rasd", "boot") < 0)
		return -1;
	len = fake_record(t, "ras:mc_event", assign, 12, rec, sizeof(rec));
	if (len < 0)
		return -1;
	for (long i = from; i < to; i++)
		if (fake_add(t, 0, SEC + (uint64_t)i * SEC, rec, (uint32_t)len) < 0)
			return -1;
	return fake_tree_finish(t);
}

static int run(char *const argv[], double *wall, double *cpu, const char *out)
{
	struct rusage ru;
	double t0 = now_s();
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();

	if (pid == 0) {
		if (!freopen(out ? out : "/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	*wall = now_s() - t0;
	*cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return 0;
}

/* ras-fdr-ctl summary --json [extra], best of three (wall and CPU); its "total" or -1. */
static long long summary(const char *dir, const char *db, const char *since, const char *until,
			 double *best, double *best_cpu)
{
	char ctl[1024], out[600], *text = NULL, *p;
	char *argv[12] = { ctl, "--db", (char *)db, "summary", "--json", NULL };
	int n = 5;
	long long total = -1;

	snprintf(ctl, sizeof(ctl), "%s/ctl/ras-fdr-ctl", test_builddir());
	snprintf(out, sizeof(out), "%s/summary.json", dir);
	if (since) {
		argv[n++] = "--since";
		argv[n++] = (char *)since;
	}
	if (until) {
		argv[n++] = "--until";
		argv[n++] = (char *)until;
	}
	*best = *best_cpu = 1e9;
	for (int i = 0; i < 3; i++) {
		double wall, cpu;

		if (run(argv, &wall, &cpu, out) < 0)
			return -1;
		*best = wall < *best ? wall : *best;
		*best_cpu = cpu < *best_cpu ? cpu : *best_cpu;
	}
	if (ras_read_file(out, &text, NULL) == 0 && (p = strstr(text, "\"total\":")))
		total = atoll(p + 8);
	free(text);
	return total;
}

/* Records of the year whose replayed second lies in [a, b) seconds after the first. */
static long long expected(long n, long a, long b)
{
	a = a < 0 ? 0 : a;
	b = b > n ? n : b;
	return b > a ? b - a : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 31536000L;
	char dir[256], db[512], lock[512], rasd[1024], since[64], until[64];
	char *conf = getenv("BENCH_YEAR_CONF") && *getenv("BENCH_YEAR_CONF") ? getenv("BENCH_YEAR_CONF") : "/dev/null";
	char *rasd_argv[] = { rasd, "--config", conf, "--tracing-dir", NULL, "--db", db,
			      "--lock-dir", lock, "--once", NULL };
	double wall = 0, cpu = 0, t_all, t_win, c_all, c_win;
	long long total, in_window, first_s;
	long a, b;
	int bad = 0;

	test_tmpdir(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/year.db", dir);
	snprintf(lock, sizeof(lock), "%s/lock", dir);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	printf("bench-year: %ld records of one stuck bit, one a second, in %d runs of rasd --once\n"
	       "            (configuration %s; the default folds past 100/1h, keeping 10)\n", n, CHUNKS,
	       conf);
	for (int c = 0; c < CHUNKS; c++) {
		struct fake_tree t;
		double w, u;

		if (build_chunk(&t, n * c / CHUNKS, n * (c + 1) / CHUNKS) < 0) {
			fprintf(stderr, "bench-year: cannot build the tree\n");
			return 1;
		}
		rasd_argv[4] = t.root;
		if (run(rasd_argv, &w, &u, NULL) < 0) {
			fprintf(stderr, "bench-year: rasd failed\n");
			return 1;
		}
		wall += w;
		cpu += u;
		fake_tree_destroy(&t);
	}
	printf("rasd:     %.1f s wall, %.1f s CPU for the year -> %.0f records/s\n", wall, cpu, n / wall);
	printf("database: %.1f MB (%lld raw rows kept, %lld folds rows, %.2f bytes/record)\n",
	       (file_size(db) + file_size((snprintf(lock, sizeof(lock), "%s-wal", db), lock))) / 1e6,
	       (long long)test_sql_int(db, "SELECT count(*) FROM mc_event"),
	       (long long)test_sql_int(db, "SELECT count(*) FROM folds"),
	       (double)(file_size(db)) / (double)n);
	printf("          of which raw mc_event %.1f MB, folds %.1f MB, roll-ups %.1f MB, actions %.1f MB\n",
	       test_sql_int(db, "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'mc_event%'") / 1e6,
	       test_sql_int(db, "SELECT sum(pgsize) FROM dbstat WHERE name LIKE '%folds%'") / 1e6,
	       test_sql_int(db, "SELECT sum(pgsize) FROM dbstat WHERE name LIKE '%rollup%'") / 1e6,
	       test_sql_int(db, "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'actions%'") / 1e6);
	/* Repeated identical decisions fold into one row (schema 12): rows stay few, decisions exact. */
	printf("actions:  %lld rows for %lld decisions\n",
	       (long long)test_sql_int(db, "SELECT count(*) FROM actions"),
	       (long long)test_sql_int(db, "SELECT coalesce(sum(repeats), 0) FROM actions"));
	total = summary(dir, db, NULL, NULL, &t_all, &c_all);
	printf("summary:  %lld records counted (replayed %ld), best of 3: %.0f ms wall, %.0f ms CPU\n",
	       total, n, t_all * 1e3, c_all * 1e3);
	bad += total != n;
	/* A window from 100.5 days in to 200.25 days in (cutting hours), in whole seconds. */
	first_s = test_sql_int(db, "SELECT min(first_ns) / 1000000000 FROM rollup_hourly");
	a = (long)(n * 100.5 / 365) + 1799;
	b = (long)(n * 200.25 / 365) + 17;
	snprintf(since, sizeof(since), "@%lld", first_s + a);
	snprintf(until, sizeof(until), "@%lld", first_s + b);
	in_window = summary(dir, db, since, until, &t_win, &c_win);
	printf("summary --since %s --until %s: %lld records (expected %lld),\n"
	       "          best of 3: %.0f ms wall, %.0f ms CPU\n",
	       since, until, in_window, expected(n, a, b), t_win * 1e3, c_win * 1e3);
	bad += in_window != expected(n, a, b);
	if (getenv("BENCH_YEAR_KEEP"))
		printf("kept %s\n", db);
	else
		test_rmtree(dir);
	printf("bench-year: %s\n", bad ? "COUNTS DIFFER" : "counts exact");
	return bad ? 1 : 0;
}
