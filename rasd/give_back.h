/* SPDX-License-Identifier: MIT */
/*
 * When rasd gives memory back (the page cache, a storm's batch slots, the
 * pending list, freed heap with malloc_trim): after a real idle, once
 * RASD_GIVE_BACK_IDLE_NS went by with nothing read, nothing committed, no
 * group open and no commit behind. Never between a storm's groups: memory
 * given back there was taken again by the next group at once (page faults,
 * madvise, munmap and brk were 8-10 % of the event loop under a live storm,
 * issue 39). Memory a give-back kept (a storm-sized batch's slots are kept
 * at the first idle and freed at the next, db/db_rollup.c) goes at the time
 * its owner says (held_ns). The rule is pure: rasd/daemon.c gives it the
 * monotonic clock, tests/test-give-back its figures.
 */
#ifndef RASD_GIVE_BACK_H
#define RASD_GIVE_BACK_H

#include <stdbool.h>
#include <stdint.h>

/* A real idle, and the wait before memory a give-back kept can go. */
#define RASD_GIVE_BACK_IDLE_NS 1000000000LL

struct rasd_give_back {
	int64_t busy_ns;    /* the last wake that read, committed or had a group open */
	int64_t given_ns;   /* the last give-back; 0: none yet */
};

/* A wake that read records, committed, or found a group open or a commit behind. */
void rasd_give_back_busy(struct rasd_give_back *g, int64_t now_ns);
/* Memory was given back now. */
void rasd_give_back_done(struct rasd_give_back *g, int64_t now_ns);
/*
 * When the next give-back is due, or -1 for none: RASD_GIVE_BACK_IDLE_NS
 * after the last busy wake when there was one since the last give-back;
 * otherwise held_ns, when what the last give-back kept can go (-1: it kept
 * nothing).
 */
int64_t rasd_give_back_at(const struct rasd_give_back *g, int64_t held_ns);
/* Whether it is due at now_ns (a wake that was not busy). */
bool rasd_give_back_due(const struct rasd_give_back *g, int64_t held_ns, int64_t now_ns);
/* Milliseconds until it is due (0: now), -1 for none: the loop's timeout. */
int rasd_give_back_timeout_ms(const struct rasd_give_back *g, int64_t held_ns, int64_t now_ns);

#endif
