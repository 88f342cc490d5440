/* SPDX-License-Identifier: MIT */
/*
 * What the tests of subjects seen once spilled past memory share
 * (test-once-spill, test-once-spill-behind, test-bucket-unconfirmed): fresh
 * pages as subjects, how many the spill holds, and two databases' buckets
 * compared.
 */
#ifndef RAS_SPILL_FIXTURE_H
#define RAS_SPILL_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/config.h"
#include "rasd/actions_internal.h"

/* Page i's subject: one corrected error at 0x100000000 + i pages, as rasd keys it. */
struct ras_subject page(unsigned i);
/* Subjects in the actions' spill (the writer's temporary table), or -1. */
int spilled(struct ras_actions *a);
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
/* Bucket rows of dir/x not in dir/y and the other way (every column but the label), or -1. */
int64_t buckets_differ(const char *dir, const char *x, const char *y);

#endif
