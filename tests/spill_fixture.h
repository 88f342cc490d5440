/* SPDX-License-Identifier: MIT */
/*
 * What the tests of subjects seen once spilled past memory share
 * (test-once-spill, test-once-spill-behind): fresh pages as subjects, and
 * how many the spill holds.
 */
#ifndef RAS_SPILL_FIXTURE_H
#define RAS_SPILL_FIXTURE_H

#include "rasd/actions_internal.h"

/* Page i's subject: one corrected error at 0x100000000 + i pages, as rasd keys it. */
struct ras_subject page(unsigned i);
/* Subjects in the actions' spill (the writer's temporary table), or -1. */
int spilled(struct ras_actions *a);

#endif
