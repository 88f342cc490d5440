/* SPDX-License-Identifier: MIT */
/*
 * rasd turns the kernel's per-CPU drop counters (per_cpu/cpuN/stats: overrun,
 * dropped events) into losses by subtracting what it stored at its last look
 * (rasd/pipeline.c). An instance removed and made again between two rasd runs
 * of one boot (an admin, another tool, a cleanup after a crash) starts its
 * counters at 0; once they grow past the stored ones, subtracting the old
 * instance's figures under-counts the new one's losses, silently. The stored
 * figures carry the instance's identity (its directory's inode, which tracefs
 * gives anew at every mkdir): another identity means other counters, all of
 * them new, and a gap of unknown size for what went with the old instance.
 * Counters going back in rasd's own instance (its buffer cleared) are such a
 * gap too; in an adopted one they are rasd's own clear after storing it.
 * And an instance a killed rasd left, removed by a cleanup and made by the
 * next rasd, went with what it held: a gap, where a clean stop's is none.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "test_util.h"
#include "stats_fixture.h"
#include "rasd/pipeline.h"

static struct stats_fixture t;

static int64_t known(void)
{
	return test_sql_int(t.dbpath, "SELECT coalesce(sum(count), 0) FROM lost_events WHERE count >= 0");
}

static int64_t gaps(void)
{
	return test_sql_int(t.dbpath, "SELECT count(*) FROM lost_events WHERE count IS NULL");
}

/*
 * One rasd run: a pipeline that took the instance back (not fresh) or made it
 * (fresh, after a killed rasd or not), one check of cpu 0, committed.
 */
static void run_fresh(struct ras_db *db, int64_t now, const char *source, bool fresh, bool killed)
{
	static struct ras_pipeline p;

	ras_pipeline_init(&p, NULL, db, &t.tr, &t.cfg, NULL, source);
	p.stats_fresh = fresh;
	p.stats_left_gone = fresh && killed;   /* as daemon_setup.c sets them */
	if (ras_pipeline_check_cpu(&p, 0, now) < 0)
		tap_diag("the check failed");
	ras_db_commit(db);
	ras_pipeline_free(&p);
}

static void run_as(struct ras_db *db, int64_t now, const char *source)
{
	run_fresh(db, now, source, false, false);
}

static void run(struct ras_db *db, int64_t now)
{
	run_as(db, now, "live");
}

/* The instance removed and made again beside it: another inode. */
static void remake(const char *inst, const char *made, const char *gone)
{
	test_rmtree(gone);
	set_stats(made, 0, 0, 0);
	if (rename(inst, gone) < 0 || rename(made, inst) < 0)
		tap_diag("cannot swap the instance directories");
}

int main(void)
{
	char made[320], gone[320];
	const char *inst = t.tr.instance_dir;
	struct ras_db *db;

	if (stats_fixture_open(&t, "rasd", "rasd") < 0)
		return tap_ok(0, "a directory"), tap_done();
	snprintf(made, sizeof(made), "%s/rasd.new", t.dir);
	snprintf(gone, sizeof(gone), "%s/rasd.gone", t.dir);
	db = t.db;
	if (!tap_ok(db != NULL, "database opened"))
		return tap_done();

	set_stats(inst, 0, 0, 5);
	run(db, 1000);
	tap_is_int(known(), 5, "the first run: 5 dropped, counted");
	set_stats(inst, 0, 0, 7);
	run(db, 2000);
	tap_is_int(known(), 7, "the same instance, 7 dropped: the 2 more counted");
	tap_is_int(gaps(), 0, "and no gap");

	/* Removed and made again between runs (made beside it first: another inode). */
	remake(inst, made, gone);
	set_stats(inst, 0, 3, 9);
	run(db, 3000);
	tap_is_int(known(), 7 + 12, "made again, its counters past the old ones: all 12 counted");
	tap_is_int(gaps(), 1, "and what went with the old instance is a gap of unknown size");
	set_stats(inst, 0, 3, 10);
	run(db, 4000);
	tap_is_int(known(), 7 + 13, "the new instance's next drop counted once");
	tap_is_int(gaps(), 1, "and no new gap");

	/* Cleared in place (echo > trace): the counters go back to 0 in the same instance. */
	set_stats(inst, 0, 0, 2);
	run(db, 5000);
	tap_is_int(known(), 7 + 13 + 2, "cleared: the 2 after the clear counted");
	tap_is_int(gaps(), 2, "and the clear is a gap of unknown size");

	/* The persistent instance rasd empties itself once stored (daemon_boot.c): no gap. */
	set_stats(inst, 0, 0, 6);
	run_as(db, 6000, "previous-boot");
	set_stats(inst, 0, 0, 1);
	run_as(db, 7000, "previous-boot");
	tap_is_int(known(), 7 + 13 + 2 + 4 + 1, "an adopted instance emptied by rasd: counted from 0");
	tap_is_int(gaps(), 2, "without a gap");

	/* rasd stopped and removed its instance; the next one makes it: nothing went with it. */
	remake(inst, made, gone);
	set_stats(inst, 0, 0, 4);
	run_fresh(db, 8000, "live", true, false);
	tap_is_int(known(), 27 + 4, "made by the next rasd after a clean stop: counted from 0");
	tap_is_int(gaps(), 2, "without a gap");
	/* rasd was killed, a cleanup removed what it left, the next rasd makes it anew. */
	remake(inst, made, gone);
	set_stats(inst, 0, 0, 1);
	run_fresh(db, 9000, "live", true, true);
	tap_is_int(known(), 27 + 4 + 1, "made after a killed rasd's instance was removed: counted from 0");
	tap_is_int(gaps(), 3, "and what the removed one held is a gap of unknown size");
	run_fresh(db, 9500, "live", true, true);
	tap_is_int(gaps(), 3, "once: the next fresh check finds its own instance stored");

	stats_fixture_close(&t);
	return tap_done();
}
