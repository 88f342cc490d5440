/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: the kernel's drop counters are read before each commit, not at
 * every read (rasd/stats_due.h). A loss the kernel counted before a read
 * whose check was left to the commit is stored by that commit, never later;
 * a lost page or a read with no group open is checked at once. Checks are
 * counted (ras_pipeline.stats_checks), and each read follows a check whose
 * time the test sets: the 100 ms bound is tests/test-stats-due's, on given
 * figures.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "test_util.h"
#include "db/db.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "lib/reader.h"
#include "lib/tracing.h"
#include "rasd/pipeline.h"
#include "rasd/stats_due.h"

static char dir[256], dbpath[300];
static struct ras_tracing tr;

static void set_stats(int cpu, unsigned overrun, unsigned dropped)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", dir, cpu);
	mkdir(path, 0755);
	strcat(path, "/stats");
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "entries: 0\noverrun: %u\ncommit overrun: 0\nbytes: 0\n"
		"dropped events: %u\nread events: 0\n", overrun, dropped);
	fclose(f);
}

/* An empty buffer for the reader (a replayed tree's file: it only names the CPU). */
static void add_buffer(int cpu)
{
	char path[600];
	int fd;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, cpu);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}

static int64_t lost(void)
{
	return test_sql_int(dbpath, "SELECT coalesce(sum(count), 0) FROM lost_events "
			    "WHERE origin = 'stats'");
}

/*
 * A read right after a check (the check's time set by the test, so no clock
 * decides): false when the clock itself went past the bound meanwhile, a
 * machine stalled that long; the rule then checks, rightly.
 */
static bool read_after_check(struct ras_pipeline *p, struct ras_reader *r)
{
	int64_t at = ras_clock_ns(CLOCK_MONOTONIC);

	p->stats_checked_mono = at;
	ras_pipeline_after_read(p, r);
	return ras_clock_ns(CLOCK_MONOTONIC) - at < RASD_STATS_EVERY_NS;
}

static void storm(struct ras_pipeline *p, struct ras_reader *r)
{
	uint64_t checked = 0;
	int reads = 0;

	/* A storm's wakes: a group open, each read just after a check. */
	p->group_first_ns = 1;   /* any time: only whether one is open counts here */
	for (int i = 0; i < 100; i++) {
		uint64_t before = p->stats_checks;

		if (read_after_check(p, r)) {
			reads++;
			checked += p->stats_checks - before;
		}
	}
	tap_is_int(checked, 0, "%d reads of a storm, a group open: none checked", reads);
}

int main(void)
{
	static struct ras_pipeline p;
	struct ras_reader *r = NULL;
	struct rasd_config cfg;
	struct ras_db *db;
	uint64_t before;

	if (test_tmpdir(dir, sizeof(dir)) < 0)
		return tap_ok(0, "a directory"), tap_done();
	mkdir(strcat(strcpy(dbpath, dir), "/per_cpu"), 0755);
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", dir);
	db = test_db_open(dir, "ras.db");
	set_stats(0, 0, 0);
	set_stats(1, 0, 0);
	add_buffer(0);
	add_buffer(1);
	if (!tap_ok(db && ras_reader_open(&r, NULL, dir, 4096, true) == 0, "database and reader"))
		return tap_done();
	rasd_config_defaults(&cfg);
	snprintf(tr.instance_dir, sizeof(tr.instance_dir), "%s", dir);
	snprintf(tr.name, sizeof(tr.name), "due");
	tr.real = true;
	ras_pipeline_init(&p, NULL, db, &tr, &cfg, NULL, "live");

	ras_pipeline_after_read(&p, r);
	tap_is_int(p.stats_checks, 1, "the run's first read: checked at once");
	ras_pipeline_commit(&p);
	storm(&p, r);
	set_stats(1, 0, 4);
	before = p.stats_checks;
	if (!read_after_check(&p, r))
		tap_diag("the machine stalled past the bound: that read checked, rightly");
	tap_is_int(lost(), 0, "4 dropped, the check left to the commit: not stored yet");
	tap_is_int(ras_pipeline_commit(&p), 0, "the group committed");
	tap_is_int(p.stats_checks - before, 1, "checked once: before it (or at a stalled read)");
	tap_is_int(lost(), 4, "and the 4 are in that commit");
	before = p.stats_checks;
	ras_pipeline_commit(&p);
	tap_is_int(p.stats_checks - before, 0, "a commit with no read since: no check");

	storm(&p, r);
	set_stats(0, 2, 0);
	p.stats_missed = true;   /* as a lost page met by the read sets it */
	before = p.stats_checks;
	read_after_check(&p, r);
	tap_is_int(p.stats_checks - before, 1, "a lost page met: checked at once");
	ras_pipeline_commit(&p);
	tap_is_int(lost(), 6, "the 2 overrun counted");

	storm(&p, r);
	set_stats(0, 2, 1);
	p.group_first_ns = 0;    /* the read opened no group: no commit is coming */
	before = p.stats_checks;
	read_after_check(&p, r);
	tap_is_int(p.stats_checks - before, 1, "no group open: checked at once");
	ras_pipeline_commit(&p);
	tap_is_int(lost(), 7, "and counted");

	ras_pipeline_free(&p);
	ras_reader_close(r);
	ras_db_close(db);
	test_rmtree(dir);
	return tap_done();
}
