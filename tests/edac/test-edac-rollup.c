/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl answers the same from the roll-ups as from a full scan. Twelve
 * hours of mc_event records go through rasd --once with a fake EDAC sysfs
 * (the topology snapshot and a "reset" window fall inside those hours), then
 * every option of edac, edac --report, summary --by dimm and metrics is run
 * on the database and on a copy stripped back to schema 9 without the EDAC
 * and subject roll-ups, which ras-fdr-ctl reads by scanning every row. The
 * outputs must be identical, for windows that cut hours too.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "edac_fixtures.h"
#include "tests/fake_tree.h"
#include "tests/tap.h"
#include "tests/test_util.h"

#define SEC 1000000000ULL

static char tmp[256], conf[512], out[600];

static void add_records(struct fake_tree *t, unsigned n)
{
	uint64_t seed = 99;

	for (unsigned i = 0; i < n; i++) {
		char a[8][64], *assign[8];
		uint8_t rec[1024];
		int len;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		snprintf(a[0], sizeof(a[0]), "error_type=%u", (unsigned)(seed >> 60) < 14 ? 0 : 1);
		snprintf(a[1], sizeof(a[1]), "msg=read error");
		snprintf(a[2], sizeof(a[2]), "label=any memory");
		snprintf(a[3], sizeof(a[3]), "error_count=%u", 1 + (unsigned)(seed >> 40) % 3);
		snprintf(a[4], sizeof(a[4]), "mc_index=%u", (unsigned)(seed >> 50) % 2);
		snprintf(a[5], sizeof(a[5]), "top_layer=%u", (unsigned)(seed >> 33) % 3);
		snprintf(a[6], sizeof(a[6]), "middle_layer=%u", (unsigned)(seed >> 36) % 2);
		snprintf(a[7], sizeof(a[7]), "lower_layer=-1");
		for (int k = 0; k < 8; k++)
			assign[k] = a[k];
		len = fake_record(t, "ras:mc_event", assign, 8, rec, sizeof(rec));
		/* 72 s apart: 600 records over 12 hours from boot on. */
		if (len <= 0 || fake_add(t, i % 2, SEC + (uint64_t)i * 72 * SEC, rec, (uint32_t)len) < 0)
			tap_ok(0, "record %u written", i);
	}
}

/*
 * Masks the seconds counted since a window's start, which tick while the test
 * runs: the number, whatever its digits (9 s for one command, 10 s for the
 * next on a slow machine), becomes one '#'.
 */
static void mask_clock(char *s)
{
	static const char *const marks[] = { "counting for ", "seconds_since_reset" };

	/* With --json the timer's file has two numbers, its value (a string) and its count. */
	for (size_t m = 0; m < 2; m++)
		for (char *p = s; (p = strstr(p, marks[m])); ) {
			p += strlen(marks[m]);
			for (int n = m == 1 && *p == '"' ? 2 : 1; n > 0; n--) {
				for (int skip = 0; skip < 12 && *p && *p != '}' && (*p < '0' || *p > '9'); skip++)
					p++;
				if (*p >= '0' && *p <= '9') {
					char *end = p;

					while (*end >= '0' && *end <= '9')
						end++;
					*p++ = '#';
					memmove(p, end, strlen(end) + 1);
				}
			}
		}
}

/* ras-fdr-ctl's whole output on db for argv (NULL-terminated, at most 6 words). */
static char *run_ctl(const char *db, const char *const *args)
{
	char bin[1024], *argv[12] = { bin, "--config", conf, "--db", (char *)db }, *buf;
	int a = 5;

	snprintf(bin, sizeof(bin), "%s/ctl/ras-fdr-ctl", test_builddir());
	for (int k = 0; args[k] && k < 6; k++)
		argv[a++] = (char *)args[k];
	argv[a] = NULL;
	unlink(out);
	test_run(argv, out);
	if (ras_read_file(out, &buf, NULL) < 0)
		return strdup("");
	mask_clock(buf);
	return buf;
}

/* The records' first and last second, from the database. */
static void record_span(const char *db, int64_t *first, int64_t *last)
{
	sqlite3 *h;
	sqlite3_stmt *st;

	*first = *last = 0;
	sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL);
	if (sqlite3_prepare_v2(h, "SELECT min(wall_ns) / 1000000000, max(wall_ns) / 1000000000"
			       " FROM mc_event", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		*first = sqlite3_column_int64(st, 0);
		*last = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
}

static int by_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The metrics' samples, sorted, without the times (when they were written,
 * the file's last write): the order subjects appeared in is a roll-up's
 * alone (metrics_subjects), a scan of an older database names them by key.
 */
static char *samples(char *text)
{
	char *lines[4096], *joined = calloc(1, strlen(text) + 1), *p, *save = NULL;
	size_t n = 0;

	for (p = strtok_r(text, "\n", &save); p && n < 4096; p = strtok_r(NULL, "\n", &save))
		if (p[0] != '#' && !strstr(p, "_timestamp_seconds"))
			lines[n++] = p;
	qsort(lines, n, sizeof(lines[0]), by_line);
	for (size_t i = 0; joined && i < n; i++)
		strcat(strcat(joined, lines[i]), "\n");
	free(text);
	return joined;
}

static void compare_all(const char *db, const char *scan_db, int64_t first, int64_t last)
{
	static const char *const cmds[][3] = {
		{ "edac" }, { "edac", "--json" }, { "edac", "--report" }, { "edac", "--report", "--json" },
		{ "summary", "--by", "dimm" }, { "summary", "--json", "--by" },
	};
	char w[6][2][32];
	const char *windows[][4] = {
		{ NULL }, { "--since", w[0][0], "--until", w[0][1] }, { "--since", w[1][0] },
		{ "--until", w[2][1] }, { "--since", w[3][0], "--until", w[3][1] },
		{ "--synthetic" }, { "--boot", "0" },
	};

	snprintf(w[0][0], 32, "@%lld", (long long)(first + 3 * 3600 + 1234));
	snprintf(w[0][1], 32, "@%lld", (long long)(last - 2 * 3600 - 777));
	snprintf(w[1][0], 32, "@%lld", (long long)(first + 5 * 3600 + 59));
	snprintf(w[2][1], 32, "@%lld", (long long)(last - 4 * 3600 - 3));
	snprintf(w[3][0], 32, "@%lld", (long long)(first + 6 * 3600 + 100));  /* inside two hours */
	snprintf(w[3][1], 32, "@%lld", (long long)(first + 7 * 3600 + 100));
	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++)
		for (size_t k = 0; k < sizeof(windows) / sizeof(windows[0]); k++) {
			const char *args[8] = { cmds[c][0], cmds[c][1], cmds[c][2] };
			int n = cmds[c][2] ? 3 : cmds[c][1] ? 2 : 1;
			char *a, *b;

			if (c == 5)
				args[n++] = "dimm";
			for (int j = 0; j < 4 && windows[k][j]; j++)
				args[n++] = windows[k][j];
			a = run_ctl(db, args);
			b = run_ctl(scan_db, args);
			tap_ok(strlen(a) > 20 && !strcmp(a, b), "'%s %s %s' %s%s: roll-up equals a full scan",
			       args[0], args[1] ? args[1] : "", args[2] ? args[2] : "",
			       windows[k][0] ? windows[k][0] : "(whole history)",
			       windows[k][2] ? " --until" : "");
			if (strcmp(a, b))
				tap_diag("roll-up:\n%s\nscan:\n%s", a, b);
			free(a);
			free(b);
		}
	char *a = samples(run_ctl(db, (const char *[]){ "metrics", NULL }));
	char *b = samples(run_ctl(scan_db, (const char *[]){ "metrics", NULL }));

	tap_ok(strstr(a, "dimm") && !strcmp(a, b), "metrics: roll-up equals a full scan");
	if (strcmp(a, b))
		tap_diag("roll-up:\n%s\nscan:\n%s", a, b);
	free(a);
	free(b);
}

int main(void)
{
	char sysroot[400], labels[400], formats[1024], rasd[1024], cmd[1600], db[512], scan_db[512];
	char *rasd_argv[] = { rasd, "--config", conf, "--tracing-dir", NULL, "--once", NULL };
	char *sh[] = { "sh", "-c", cmd, NULL };
	struct fake_tree t;
	int64_t first, last;
	sqlite3 *h;
	FILE *f;

	test_tmpdir(tmp, sizeof(tmp));
	snprintf(sysroot, sizeof(sysroot), "%s/sys", tmp);
	snprintf(labels, sizeof(labels), "%s/labels", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	snprintf(db, sizeof(db), "%s/ras.db", tmp);
	snprintf(scan_db, sizeof(scan_db), "%s/scan.db", tmp);
	snprintf(out, sizeof(out), "%s/ctl.out", tmp);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp %s/tests/edac/labels/10-supermicro.conf %s/",
		 labels, test_srcdir(), labels);
	tap_is_int(test_run(sh, NULL), 0, "label file in place");
	tap_is_int(fx_intel_tree(sysroot), 0, "fake sysfs: Intel server, two memory controllers");
	f = fopen(conf, "we");
	fprintf(f, "database = %s\nlock_dir = %s\nsysfs_root = %s\nlabels_dirs = %s\n", db, tmp,
		sysroot, labels);
	fclose(f);
	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	if (!tap_ok(fake_tree_create(&t, formats, 2, "rasd", "boot") == 0, "tracing tree built"))
		return tap_done();
	add_records(&t, 600);
	fake_tree_finish(&t);
	rasd_argv[4] = t.root;
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	tap_is_int(test_run(rasd_argv, out), 0, "rasd --once stores 600 records and the topology");
	fake_tree_destroy(&t);
	free(run_ctl(db, (const char *[]){ "reset", "mc0/dimm2", "--yes", NULL }));
	free(run_ctl(db, (const char *[]){ "reset", "mc1", "--yes", NULL }));

	/* The copy a version-9 ras-fdr-ctl would have: no EDAC or subject roll-ups. */
	snprintf(cmd, sizeof(cmd), "cp %s %s", db, scan_db);
	tap_is_int(test_run(sh, NULL), 0, "database copied");
	sqlite3_open(scan_db, &h);
	tap_is_int(sqlite3_exec(h, "DROP TABLE rollup_edac; DROP TABLE rollup_subjects;"
				" DROP TABLE rollup_totals;"
				" PRAGMA user_version = 9;", NULL, NULL, NULL), SQLITE_OK,
		   "the copy is a version-9 database without the new roll-ups");
	sqlite3_close(h);
	record_span(db, &first, &last);
	tap_ok(last - first > 11 * 3600, "records span %lld s", (long long)(last - first));
	compare_all(db, scan_db, first, last);
	test_rmtree(tmp);
	return tap_done();
}
