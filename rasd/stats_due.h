/* SPDX-License-Identifier: MIT */
/*
 * When rasd reads the kernel's per-CPU drop counters (issue 39). They were
 * read after every read of the buffers: under a live storm rasd wakes for
 * about two records, and each wake opened, read and closed every CPU's
 * `stats` file. The promise stays: every loss the kernel counts is stored,
 * in the commit that follows it at the latest, with a time close to its own.
 *
 * The rule: a read of a live instance marks the counters unchecked, and they
 * are read
 *  - before every commit while unchecked (rasd/pipeline_commit.c): a commit
 *    never holds a record read after a loss the kernel had already counted
 *    without that loss;
 *  - at once after a read when this run never read them, when the read met
 *    a lost page (the kernel's own sign of drops, so the `stats` row follows
 *    it at once), when no group is open after it (no commit is coming to
 *    carry the check), or when the last check is RASD_STATS_EVERY_NS old.
 * So a `stats` loss's time span ends at most RASD_STATS_EVERY_NS, or one
 * commit_delay_ms, after the read that could first have seen it.
 * Pure: rasd/pipeline.c gives it the figures, tests/test-stats-due its own.
 */
#ifndef RASD_STATS_DUE_H
#define RASD_STATS_DUE_H

#include <stdbool.h>
#include <stdint.h>

#define RASD_STATS_EVERY_NS (100 * 1000000LL)

struct rasd_stats_due {
	int64_t now_ns;        /* CLOCK_MONOTONIC */
	int64_t checked_ns;    /* the last check (CLOCK_MONOTONIC), 0: none this run */
	bool missed;           /* a lost page met since the last check */
	bool group_open;       /* records wait for a commit after this read */
};

/* Whether the counters are read right after this read (else before the next commit). */
bool rasd_stats_due_now(const struct rasd_stats_due *s);

#endif
