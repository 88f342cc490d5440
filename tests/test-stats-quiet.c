/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: the kernel's per-CPU drop counters are compared with the stored
 * ones at every read of the buffers (rasd/pipeline.c); reading the stored ones
 * waits for the writer thread, a commit behind included. A CPU whose counters
 * are 0 in the kernel and in the database, and which this pipeline never
 * wrote outside a fresh start, is checked from the kernel's figures alone
 * while they stay 0. Every loss is still counted once, and a CPU written
 * after a loss (a write that could be rolled back) is always read again.
 * Reads are counted (ras_pipeline.stats_reads), not timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "test_util.h"
#include "stats_fixture.h"
#include "rasd/pipeline.h"

static struct stats_fixture t;

/* n checks of cpu; the stored counters' reads they made. */
static uint64_t checks(struct ras_pipeline *p, int cpu, int n)
{
	uint64_t before = p->stats_reads;
	int failed = 0;

	for (int i = 0; i < n; i++)
		failed += ras_pipeline_check_cpu(p, cpu, 1000 + i) < 0;
	if (failed)
		tap_diag("%d checks failed", failed);
	return p->stats_reads - before;
}

static int64_t lost(int cpu)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "SELECT coalesce(sum(count), 0) FROM lost_events WHERE cpu = %d", cpu);
	return test_sql_int(t.dbpath, sql);
}

int main(void)
{
	static struct ras_pipeline p;
	struct ras_db *db;

	if (stats_fixture_open(&t, NULL, "quiet") < 0)
		return tap_ok(0, "a directory"), tap_done();
	db = t.db;
	if (!tap_ok(db != NULL, "database opened"))
		return tap_done();
	ras_pipeline_init(&p, NULL, db, &t.tr, &t.cfg, NULL, "live");
	set_stats(t.dir, 0, 0, 0);
	set_stats(t.dir, 1, 0, 0);

	tap_is_int(checks(&p, 0, 1000), 1, "a quiet CPU: the stored counters read once in 1,000 reads");
	set_stats(t.dir, 0, 0, 3);
	tap_is_int(checks(&p, 0, 1), 1, "3 dropped: read again");
	ras_db_commit(db);
	tap_is_int(lost(0), 3, "the 3 counted as lost");
	tap_is_int(checks(&p, 0, 10), 10, "dropped counters not 0: read at every check");
	ras_db_commit(db);
	tap_is_int(lost(0), 3, "and the loss counted once");

	set_stats(t.dir, 0, 0, 5);
	tap_is_int(checks(&p, 0, 1), 1, "2 more dropped: read");
	ras_db_commit(db);
	tap_is_int(lost(0), 5, "the 2 more counted: 5 in all");

	/* A fresh instance: its counters are stored at the first check, then it is quiet. */
	p.stats_fresh = true;
	tap_is_int(checks(&p, 1, 3), 3, "fresh: read at every check while the start is not committed");
	ras_db_commit(db);
	p.stats_fresh = false;   /* as the commit of the fresh figures does (pipeline_commit.c) */
	tap_is_int(checks(&p, 1, 1000), 1, "committed: read once more, then quiet");
	tap_is_int(lost(1), 0, "nothing lost on cpu 1");
	set_stats(t.dir, 1, 2, 0);
	tap_is_int(checks(&p, 1, 1), 1, "2 overrun on a quiet CPU: read at once");
	ras_db_commit(db);
	tap_is_int(lost(1), 2, "and counted");
	stats_fixture_close(&t);
	return tap_done();
}
