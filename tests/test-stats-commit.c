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
#include <unistd.h>
#include "tap.h"
#include "test_util.h"
#include "stats_fixture.h"
#include "lib/clock.h"
#include "lib/reader.h"
#include "rasd/pipeline.h"
#include "rasd/stats_due.h"

static struct stats_fixture t;

/* An empty buffer for the reader (a replayed tree's file: it only names the CPU). */
static void add_buffer(int cpu)
{
	char path[600];
	int fd;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", t.dir, cpu);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}

static int64_t lost(void)
{
	return test_sql_int(t.dbpath, "SELECT coalesce(sum(count), 0) FROM lost_events "
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
	uint64_t before;

	if (stats_fixture_open(&t, NULL, "due") < 0)
		return tap_ok(0, "a directory"), tap_done();
	set_stats(t.dir, 0, 0, 0);
	set_stats(t.dir, 1, 0, 0);
	add_buffer(0);
	add_buffer(1);
	if (!tap_ok(t.db && ras_reader_open(&r, NULL, t.dir, 4096, true) == 0, "database and reader"))
		return tap_done();
	t.tr.real = true;
	ras_pipeline_init(&p, NULL, t.db, &t.tr, &t.cfg, NULL, "live");

	ras_pipeline_after_read(&p, r);
	tap_is_int(p.stats_checks, 1, "the run's first read: checked at once");
	ras_pipeline_commit(&p);
	storm(&p, r);
	set_stats(t.dir, 1, 0, 4);
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
	set_stats(t.dir, 0, 2, 0);
	p.stats_missed = true;   /* as a lost page met by the read sets it */
	before = p.stats_checks;
	read_after_check(&p, r);
	tap_is_int(p.stats_checks - before, 1, "a lost page met: checked at once");
	ras_pipeline_commit(&p);
	tap_is_int(lost(), 6, "the 2 overrun counted");

	storm(&p, r);
	set_stats(t.dir, 0, 2, 1);
	p.group_first_ns = 0;    /* the read opened no group: no commit is coming */
	before = p.stats_checks;
	read_after_check(&p, r);
	tap_is_int(p.stats_checks - before, 1, "no group open: checked at once");
	ras_pipeline_commit(&p);
	tap_is_int(lost(), 7, "and counted");

	ras_pipeline_free(&p);
	ras_reader_close(r);
	stats_fixture_close(&t);
	return tap_done();
}
