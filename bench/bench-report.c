/* SPDX-License-Identifier: MIT */
/*
 * make bench-report: ras-fdr-ctl report on the bench's large database
 * (BENCH_REPORT_RECORDS, 10 million by default), wall and CPU, HTML and
 * --json, the whole machine and --part.
 *
 * rasd stores the bench's stream at a few thousand records a second, so a
 * 10-million-record database would take most of an hour. It is built here
 * in two steps instead, each faithful to what rasd leaves:
 *   1. BENCH_REPORT_BASE records (100000) of the bench stream stored by
 *      rasd --once through the whole path (bench/queries.c does the same):
 *      rows, their shared decodings, the diagnosis, the roll-ups;
 *   2. every event row copied COPIES-1 times, each copy later by the base's
 *      span (its wall and trace times shifted, nothing else changed: the
 *      same decodings, the same locations), so the database holds the
 *      stream again and again, as a machine repeating its faults does; then
 *      every roll-up recounted from the stored rows by the database layer's
 *      own rebuild (ras_db_rollup_rebuild_all: what a schema upgrade runs
 *      on rows stored before the roll-ups existed).
 * The diagnosis's parts keep the base's counts (they are rasd's judgement,
 * not a count the report makes). The copy is SQL of its own, here only: a
 * benchmark's tool, never run by rasd or ras-fdr-ctl.
 *
 * BENCH_REPORT_DIR keeps the database there and reuses it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>
#include "stream.h"
#include "db/db.h"
#include "db/db_rollup.h"
#include "lib/event_table.h"
#include "tests/test_util.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Runs argv with stdout to out (NULL: /dev/null); its wall and CPU seconds. */
static int run(char *const argv[], const char *out, double *wall, double *cpu)
{
	struct rusage ru;
	int status;
	double t0 = now_s();
	pid_t pid;

	fflush(stdout);     /* the child's copy of the buffer must not print again */
	pid = fork();

	if (pid == 0) {
		if (!freopen(out ? out : "/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status))
		return -1;
	*wall = now_s() - t0;
	*cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return WEXITSTATUS(status);
}

/* Step 1: the base through rasd --once. */
static int build_base(const char *dir, long n, const char *db)
{
	struct fake_tree t;
	char formats[1024], rasd[1024], conf[600];
	char *argv[] = { rasd, "--config", conf, "--tracing-dir", t.root, "--db", (char *)db,
			 "--lock-dir", (char *)dir, "--once", NULL };
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	double wall, cpu;
	int r;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	if (bench_unfolded_conf(dir, conf, sizeof(conf)) < 0 ||
	    fake_tree_create(&t, formats, 2, "rasd", "boot") < 0)
		return -1;
	for (long i = 0; i < n; i++)
		if (bench_stream_add(&t, i, &seed) < 0)
			return -1;
	fake_tree_finish(&t);
	r = run(argv, NULL, &wall, &cpu);
	fake_tree_destroy(&t);
	printf("report:   base of %ld records stored by rasd --once in %.1f s (%.0f records/s)\n", n,
	       wall, n / wall);
	return r == 0 ? 0 : -1;
}

static int exec_sql(sqlite3 *h, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(h, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "bench: %s: %s\n", sql, err ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* "a, b, c" of the table's columns but id, into cols; with wall_ns and trace_ts shifted into shifted. */
static int columns(sqlite3 *h, const char *table, char *cols, char *shifted, size_t cap)
{
	char sql[256];
	sqlite3_stmt *st;
	size_t a = 0, b = 0;

	snprintf(sql, sizeof(sql), "PRAGMA table_info(\"%s\")", table);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	cols[0] = shifted[0] = 0;
	while (sqlite3_step(st) == SQLITE_ROW && a < cap && b < cap) {
		const char *c = (const char *)sqlite3_column_text(st, 1);

		if (!strcmp(c, "id"))
			continue;
		a += (size_t)snprintf(cols + a, cap - a, "%s\"%s\"", a ? ", " : "", c);
		if (!strcmp(c, "wall_ns") || !strcmp(c, "trace_ts"))
			b += (size_t)snprintf(shifted + b, cap - b, "%s\"%s\" + ?1", b ? ", " : "", c);
		else
			b += (size_t)snprintf(shifted + b, cap - b, "%s\"%s\"", b ? ", " : "", c);
	}
	sqlite3_finalize(st);
	return a < cap && b < cap ? 0 : -1;
}

/* Step 2a: the table's rows copied copies-1 times, each copy one span later. */
static int copy_table(sqlite3 *h, const char *table, long copies, long long *rows)
{
	char cols[4096], shifted[4096], sql[9000];
	sqlite3_stmt *st;
	long long lo = 0, hi = 0, n = 0, last;

	snprintf(sql, sizeof(sql), "SELECT min(wall_ns), max(wall_ns), count(*), max(id) FROM \"%s\"", table);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;                 /* a table this schema does not have */
	if (sqlite3_step(st) == SQLITE_ROW) {
		lo = sqlite3_column_int64(st, 0);
		hi = sqlite3_column_int64(st, 1);
		n = sqlite3_column_int64(st, 2);
	}
	last = sqlite3_column_int64(st, 3);
	sqlite3_finalize(st);
	if (!n)
		return 0;
	if (columns(h, table, cols, shifted, sizeof(cols)) < 0)
		return -1;
	snprintf(sql, sizeof(sql), "INSERT INTO \"%s\" (%s) SELECT %s FROM \"%s\" WHERE id <= %lld ORDER BY id",
		 table, cols, shifted, table, last);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (long k = 1; k < copies; k++) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)k * (hi - lo + 1000000000LL));
		if (sqlite3_step(st) != SQLITE_DONE) {
			fprintf(stderr, "bench: copying %s: %s\n", table, sqlite3_errmsg(h));
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	*rows += n * copies;
	return 0;
}

static int multiply(const char *db, long copies)
{
	struct ras_db *w;
	sqlite3 *h;
	sqlite3_stmt *st;
	char err[256], boot[128] = "bench-report";
	long long rows = 0;
	double t0 = now_s();
	int r = 0;

	if (sqlite3_open(db, &h) != SQLITE_OK || exec_sql(h, "PRAGMA journal_mode=WAL; BEGIN") < 0)
		return -1;
	for (unsigned i = 0; i < ras_n_event_types && r == 0; i++)
		r = copy_table(h, ras_event_types[i].table, copies, &rows);
	r = r == 0 ? exec_sql(h, "COMMIT") : -1;
	/* The writer registers a boot: the base's own, so that no boots row is added. */
	if (r == 0 && sqlite3_prepare_v2(h, "SELECT boot_id FROM boots ORDER BY id DESC LIMIT 1", -1, &st,
					 NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			snprintf(boot, sizeof(boot), "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	if (r < 0)
		return -1;
	printf("report:   copied to %lld rows in %.1f s\n", rows, now_s() - t0);
	/* Step 2b: the roll-ups, by the database layer's own rebuild. */
	t0 = now_s();
	if (ras_db_open_writer(&w, db, boot, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench: %s\n", err);
		return -1;
	}
	r = ras_db_begin(w) < 0 || ras_db_rollup_rebuild_all(w) < 0 || ras_db_commit(w) < 0 ? -1 : 0;
	if (r < 0)
		fprintf(stderr, "bench: recounting the roll-ups: %s\n", ras_db_errmsg(w));
	ras_db_close(w);
	printf("report:   roll-ups recounted from the rows in %.1f s\n", now_s() - t0);
	return r;
}

/* The database at this build's schema (its new indexes made): what rasd's next start does. */
static int upgrade(const char *db)
{
	struct ras_db *w;
	sqlite3 *h;
	sqlite3_stmt *st;
	char err[256], boot[128] = "bench-report";
	double t0 = now_s();

	/* The writer registers a boot: the newest's own, so that no boots row is added. */
	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, "SELECT boot_id FROM boots ORDER BY id DESC LIMIT 1", -1, &st, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			snprintf(boot, sizeof(boot), "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	if (ras_db_open_writer(&w, db, boot, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench: %s\n", err);
		return -1;
	}
	ras_db_close(w);
	printf("report:   database opened by the writer (schema upgraded if older) in %.1f s\n",
	       now_s() - t0);
	return 0;
}

/*
 * Best of three of each way of asking, wall and CPU: the whole report, then
 * --part of a DIMM with 1 % of the records (104,600 attached, 129 MB of
 * lines) and of a machine-check bank's cache level (300), each read by the
 * database's selection and, with BENCH_REPORT_SCAN=1, also by the full scan
 * it replaced (RAS_FDR_REPORT_SCAN=1: every row decoded; a minute or more each).
 */
static int time_report(const char *dir, const char *db, const char *part, const char *small)
{
	static const struct { int part; bool scan; const char *args[3]; } ways[] = {
		{ 0, false, { "-o", "/dev/null" } }, { 0, false, { "--json" } },
		{ 1, false, { "-o", "/dev/null" } }, { 1, false, { "--json" } },
		{ 2, false, { "--json" } }, { 2, true, { "--json" } }, { 1, true, { "--json" } },
	};
	const bool scan = getenv("BENCH_REPORT_SCAN") && !strcmp(getenv("BENCH_REPORT_SCAN"), "1");
	char ctl[1024], out[700];

	snprintf(ctl, sizeof(ctl), "%s/ctl/ras-fdr-ctl", test_builddir());
	snprintf(out, sizeof(out), "%s/report.out", dir);
	printf("report:   %-60s %10s %10s %10s\n", "ras-fdr-ctl report (best of 3; scan: once)", "wall", "CPU",
	       "bytes");
	for (size_t w = 0; w < sizeof(ways) / sizeof(ways[0]); w++) {
		char *argv[12] = { ctl, "--config", "/dev/null", "--db", (char *)db, "report" };
		char name[120] = "";
		double best_wall = 1e9, best_cpu = 1e9, wall, cpu;
		int a = 6;

		const char *p = ways[w].part == 1 ? part : small;
		int reps = ways[w].scan ? 1 : 3;

		if (ways[w].scan && !scan)
			continue;
		if (ways[w].part) {
			argv[a++] = "--part";
			argv[a++] = (char *)p;
			snprintf(name, sizeof(name), "%s--part '%.40s%s' ", ways[w].scan ? "scan " : "", p,
				 strlen(p) > 40 ? "..." : "");
		}
		for (int k = 0; k < 3 && ways[w].args[k]; k++) {
			argv[a++] = (char *)ways[w].args[k];
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s", k ? " " : "",
				 ways[w].args[k]);
		}
		/* The old full scan as the reference (run's child takes it from the environment). */
		setenv("RAS_FDR_REPORT_SCAN", ways[w].scan ? "1" : "0", 1);
		for (int rep = 0; rep < reps; rep++) {
			if (run(argv, out, &wall, &cpu) != 0) {
				fprintf(stderr, "bench: report %s failed\n", name);
				return -1;
			}
			best_wall = wall < best_wall ? wall : best_wall;
			best_cpu = cpu < best_cpu ? cpu : best_cpu;
		}
		printf("report:   %-60s %8.0f ms %8.0f ms %10ld\n", name, best_wall * 1e3, best_cpu * 1e3,
		       file_size(out));
	}
	return 0;
}

int main(int argc, char **argv)
{
	long records = getenv("BENCH_REPORT_RECORDS") ? atol(getenv("BENCH_REPORT_RECORDS")) : 10000000;
	long base = getenv("BENCH_REPORT_BASE") ? atol(getenv("BENCH_REPORT_BASE")) : 100000;
	char tmpl[] = "/tmp/ras-fdr-bench-report-XXXXXX", db[700];
	const char *dir = getenv("BENCH_REPORT_DIR");

	(void)argc;
	(void)argv;
	if (base <= 0 || records < base) {
		fprintf(stderr, "bench: BENCH_REPORT_RECORDS must be at least BENCH_REPORT_BASE\n");
		return 2;
	}
	if (!dir && !(dir = mkdtemp(tmpl)))
		return 1;
	snprintf(db, sizeof(db), "%s/report.db", dir);
	if (access(db, F_OK) != 0 &&
	    (build_base(dir, base, db) < 0 || multiply(db, records / base) < 0)) {
		fprintf(stderr, "bench: building %s failed\n", db);
		return 1;
	}
	/* A kept database (BENCH_REPORT_DIR) of an older schema: upgraded as rasd's next start does. */
	if (upgrade(db) < 0) {
		fprintf(stderr, "bench: upgrading %s failed\n", db);
		return 1;
	}
	printf("report:   database %s, %ld bytes\n", db, file_size(db));
	/* --part: one DIMM of the stream (BENCH_REPORT_PART to name another). */
	return time_report(dir, db, getenv("BENCH_REPORT_PART") ? getenv("BENCH_REPORT_PART") :
				    "mc0, layers 0:0",
			   "socket 1, CPU 48, bank 13 (IMC), memory controller 0, channel 0, L2 cache") < 0 ? 1 : 0;
}
