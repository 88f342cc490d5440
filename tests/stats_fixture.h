/* SPDX-License-Identifier: MIT */
/*
 * What the tests of the kernel's per-CPU drop counters share
 * (test-stats-commit, test-stats-quiet, test-stats-recreated): a temporary
 * directory with a database, a tracing instance in it for the pipeline, the
 * configuration's defaults, and the instance's per_cpu/cpuN/stats files
 * written as tracefs words them.
 */
#ifndef RAS_STATS_FIXTURE_H
#define RAS_STATS_FIXTURE_H

#include "db/db.h"
#include "lib/config.h"
#include "lib/tracing.h"

struct stats_fixture {
	char dir[256], dbpath[300];
	struct ras_db *db;         /* dir/ras.db; NULL when it cannot be opened */
	struct ras_tracing tr;     /* instance_dir dir, or dir/sub; per_cpu made in it */
	struct rasd_config cfg;    /* rasd_config_defaults */
};

/* Sets t up, the instance named name; -1 (nothing made) without a directory. */
int stats_fixture_open(struct stats_fixture *t, const char *sub, const char *name);
/* Closes the database and removes the directory. */
void stats_fixture_close(struct stats_fixture *t);
/* inst/per_cpu/cpuN/stats with these counters, its directories made as needed. */
void set_stats(const char *inst, int cpu, unsigned overrun, unsigned dropped);

#endif
