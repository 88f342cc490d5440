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
#include <string.h>
#include <sys/stat.h>
#include "tap.h"
#include "test_util.h"
#include "db/db.h"
#include "lib/config.h"
#include "lib/tracing.h"
#include "rasd/pipeline.h"

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
	return test_sql_int(dbpath, sql);
}

int main(void)
{
	static struct ras_pipeline p;
	struct rasd_config cfg;
	struct ras_db *db;

	if (test_tmpdir(dir, sizeof(dir)) < 0)
		return tap_ok(0, "a directory"), tap_done();
	mkdir(strcat(strcpy(dbpath, dir), "/per_cpu"), 0755);
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", dir);
	db = test_db_open(dir, "ras.db");
	if (!tap_ok(db != NULL, "database opened"))
		return tap_done();
	rasd_config_defaults(&cfg);
	snprintf(tr.instance_dir, sizeof(tr.instance_dir), "%s", dir);
	snprintf(tr.name, sizeof(tr.name), "quiet");
	ras_pipeline_init(&p, NULL, db, &tr, &cfg, NULL, "live");
	set_stats(0, 0, 0);
	set_stats(1, 0, 0);

	tap_is_int(checks(&p, 0, 1000), 1, "a quiet CPU: the stored counters read once in 1,000 reads");
	set_stats(0, 0, 3);
	tap_is_int(checks(&p, 0, 1), 1, "3 dropped: read again");
	ras_db_commit(db);
	tap_is_int(lost(0), 3, "the 3 counted as lost");
	tap_is_int(checks(&p, 0, 10), 10, "dropped counters not 0: read at every check");
	ras_db_commit(db);
	tap_is_int(lost(0), 3, "and the loss counted once");

	set_stats(0, 0, 5);
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
	set_stats(1, 2, 0);
	tap_is_int(checks(&p, 1, 1), 1, "2 overrun on a quiet CPU: read at once");
	ras_db_commit(db);
	tap_is_int(lost(1), 2, "and counted");
	ras_db_close(db);
	test_rmtree(dir);
	return tap_done();
}
