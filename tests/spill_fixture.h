/* SPDX-License-Identifier: MIT */
/*
 * What the tests of subjects seen once spilled past memory share
 * (test-once-spill, test-once-spill-behind, test-once-spill-unconfirmed,
 * test-bucket-unconfirmed): fresh pages as subjects, how many the spill
 * holds, a stream of pages counted in batches committed behind, and two runs
 * compared.
 */
#ifndef RAS_SPILL_FIXTURE_H
#define RAS_SPILL_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/config.h"
#include "rasd/actions_internal.h"
#include "tap.h"

/* Page i's subject: one corrected error at 0x100000000 + i pages, as rasd keys it. */
struct ras_subject page(unsigned i);
/* Subjects in the actions' spill (the writer's temporary table), or -1. */
int spilled(struct ras_actions *a);
/* Subjects held seen once: in memory and in the spill. */
int spill_held(struct ras_actions *a);
/* Page i's error at ns; the bucket when it crossed (emptied, as rasd does), else NULL. */
struct entry *spill_count(struct ras_actions *a, unsigned i, int64_t ns);
/*
 * dir/name opened as rasd's writer (boot id boot) with actions on pages at
 * threshold (accounted), its writer thread started when behind; -1 on failure.
 */
int spill_open_actions(const char *dir, const char *name, const char *boot, const char *threshold,
		       bool behind, struct rasd_config *cfg, struct ras_db **db, struct ras_actions **a);
void spill_close_actions(struct ras_db *db, struct ras_actions *a);
/* spill_open_actions with a once-seen set for held subjects (0: rasd's own size). */
int spill_open_held(const char *dir, const char *name, const char *boot, const char *threshold,
		    size_t held, bool behind, struct rasd_config *cfg, struct ras_db **db,
		    struct ras_actions **a);
/* A transaction as rasd's pipeline opens one: its records' writes go to the writer thread. */
int spill_begin(struct ras_db *db);
/* The commit out, as rasd/pipeline_commit.c keeps it until it is known made. */
struct spill_behind {
	uint64_t ticket;
	struct ras_actions_mark mark;
};
/* A batch's commit, behind when the writer thread takes it (else made at once). */
int spill_commit_behind(struct ras_actions *a, struct ras_db *db, struct spill_behind *b);
/* The commit behind made (confirmed) or failed (-1). */
int spill_settle(struct ras_actions *a, struct ras_db *db, struct spill_behind *b);
/*
 * A stream of pages counted in batches as rasd's pipeline counts them: each
 * batch in its transaction, the commit behind before it settled, then its own
 * commit handed over behind. A batch in fails is first counted to 70 % and
 * rolled back as rasd/pipeline.c's failure does (the commit behind settled,
 * then the open transaction rolled back), then given again; noted, when set,
 * is called just before that rollback (after: false) and just after (true).
 */
struct spill_run {
	struct ras_actions *a;
	struct ras_db *db;
	struct spill_behind b;
	int64_t t0;              /* record i of the stream counted at t0 + i ms */
	unsigned batch;          /* records a batch */
	uint32_t fails;          /* bit k: batch k rolled back once */
	void (*noted)(struct spill_run *r, unsigned k, bool after);
	int crossed;             /* crossings of the batches committed */
};
/* The stream's page numbers through r, the last commit settled: 0, or -1 when a step failed. */
int spill_run_stream(struct spill_run *r, const unsigned *stream, unsigned len);
/* What a run left: its crossings, the pages held seen once, its database (a name in dir). */
struct spill_outcome {
	int crossed, held;
	const char *db;
};
/* Bucket rows of dir/x not in dir/y and the other way (every column but the label), or -1. */
int64_t buckets_differ(const char *dir, const char *x, const char *y);

/*
 * Three checks: run has ref's crossings ("the same crossings", with " (what)"
 * when what), the same pages held seen once, and the same bucket rows. Inline
 * here, not in spill_fixture.c: tap.h numbers the checks of each file apart,
 * so they must be made in the test's own.
 */
static inline void spill_same_as(const char *dir, const struct spill_outcome *ref,
				 const struct spill_outcome *run, const char *what)
{
	if (what)
		tap_is_int(run->crossed, ref->crossed, "the same crossings (%s)", what);
	else
		tap_is_int(run->crossed, ref->crossed, "the same crossings");
	tap_is_int(run->held, ref->held, "the same pages held seen once");
	tap_is_int((int)buckets_differ(dir, ref->db, run->db), 0,
		   "the same bucket rows, levels, times and totals");
}

#endif
