/* SPDX-License-Identifier: MIT */
/*
 * The set of subjects seen once grows a few slots an add (rasd/once_seen.c):
 * a fixed-seed random run of adds, takes, rollbacks, commits, trims and leak
 * changes, over a set of at most 49,152 entries grown from 1,024 slots many
 * times, answers step by step as a plain model of the set does (each subject
 * a flag, the set's size and its rules kept as counts). Among the subjects:
 * hashes sharing their low 16 bits (one run of probes in every table) and
 * hashes whose home is a table's last slot (runs that wrap to its start).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rasd/once_seen.h"
#include "rng.h"
#include "tap.h"

#define SUBJECTS 80000
#define GROUP 64                 /* subjects in each colliding group */
#define MAX_ENTRIES 48000        /* 65,536 slots at most */
#define START_CAP 1024
#define STEPS 1350000

/* The model: each subject held or not, and the set's slots as a number. */
struct model {
	bool held[SUBJECTS];
	int64_t wall[SUBJECTS];
	unsigned n[SUBJECTS];
	size_t count, cap, max_cap;
	int64_t leak[RAS_ONCE_SEEN_TAGS];
	int64_t next_leak;       /* nothing leaks out before: spares the model a scan per add when full */
	struct { unsigned s; int64_t wall; unsigned n; bool added; } *log;
	size_t n_log, cap_log;
};

static uint64_t hash_of[SUBJECTS];
static unsigned tag_of[SUBJECTS];
static uint64_t rng = 0x2545f4914f6cdd1dULL;

static unsigned below(unsigned n)
{
	return rng_below(&rng, n);
}

/*
 * Distinct 55-bit hashes, the subject's number (or half of it) in the top 17
 * bits: groups ending in 0xffff (a table's last slot), 0x0000 and 0x5a5a, then
 * random ones. Two neighbours of a group share their hash under two tags: two subjects.
 */
static void make_subjects(void)
{
	static const uint64_t low[3] = { 0xffff, 0x0000, 0x5a5a };

	for (unsigned s = 0; s < SUBJECTS; s++) {
		if (s < 3 * GROUP) {
			hash_of[s] = (uint64_t)(s / 2) << 38 | low[s / GROUP];
			tag_of[s] = s % 2;
		} else {
			hash_of[s] = (uint64_t)s << 38 | (rng_next(&rng) & ((1ULL << 38) - 1));
			tag_of[s] = below(RAS_ONCE_SEEN_TAGS);
		}
	}
}

static int64_t model_leaks_at(const struct model *m, unsigned s)
{
	int64_t leak = m->leak[tag_of[s]], span, at;

	if (leak <= 0 || __builtin_mul_overflow(leak, (int64_t)m->n[s], &span) ||
	    __builtin_add_overflow(m->wall[s], span, &at))
		return INT64_MAX;
	return at;
}

static void model_drop_leaked(struct model *m, int64_t now)
{
	if (now < m->next_leak)
		return;
	m->next_leak = INT64_MAX;
	for (unsigned s = 0; s < SUBJECTS; s++) {
		int64_t at = m->held[s] ? model_leaks_at(m, s) : INT64_MAX;

		if (at <= now) {
			m->held[s] = false;
			m->count--;
		} else if (at < m->next_leak) {
			m->next_leak = at;
		}
	}
}

static void model_hold(struct model *m, unsigned s, int64_t wall, unsigned n)
{
	int64_t at;

	m->held[s] = true;
	m->wall[s] = wall;
	m->n[s] = n;
	m->count++;
	if ((at = model_leaks_at(m, s)) < m->next_leak)
		m->next_leak = at;
}

static void model_log(struct model *m, unsigned s, bool added)
{
	if (m->n_log == m->cap_log) {
		m->cap_log = m->cap_log ? m->cap_log * 2 : 1024;
		m->log = realloc(m->log, m->cap_log * sizeof(*m->log));
		if (!m->log)
			abort();
	}
	m->log[m->n_log].s = s;
	m->log[m->n_log].wall = m->wall[s];
	m->log[m->n_log].n = m->n[s];
	m->log[m->n_log++].added = added;
}

static int model_make_room(struct model *m, int64_t now)
{
	if (!m->cap) {
		m->cap = START_CAP;
		return 0;
	}
	if (m->count + 1 <= m->cap / 4 * 3)
		return 0;
	model_drop_leaked(m, now);
	if (m->count < m->cap / 2)
		return 0;
	if (m->cap >= m->max_cap)
		return m->count + 1 <= m->cap / 4 * 3 ? 0 : -ENOSPC;
	m->cap *= 2;
	return 0;
}

static int model_add(struct model *m, unsigned s, int64_t wall, unsigned n, int64_t now)
{
	int r;

	if (!n)
		return -EINVAL;
	if (n > RAS_ONCE_SEEN_MAX_N)
		return -ENOSPC;
	if ((r = model_make_room(m, now)) < 0)
		return r;
	if (m->held[s])
		return 0;
	model_hold(m, s, wall, n);
	model_log(m, s, true);
	return 0;
}

static int model_take(struct model *m, unsigned s, int64_t *wall, unsigned *n)
{
	if (!m->held[s])
		return 0;
	*wall = m->wall[s];
	*n = m->n[s];
	model_log(m, s, false);
	m->held[s] = false;
	m->count--;
	return 1;
}

static void model_rolled_back(struct model *m)
{
	for (size_t i = m->n_log; i-- > 0 && m->cap;) {
		unsigned s = m->log[i].s;

		if (m->log[i].added) {
			if (m->held[s]) {
				m->held[s] = false;
				m->count--;
			}
		} else if (!m->held[s] && m->count + 1 < m->cap) {
			model_hold(m, s, m->log[i].wall, m->log[i].n);
		}
	}
	m->n_log = 0;
}

static void model_trim(struct model *m, int64_t now)
{
	size_t cap = START_CAP;

	if (!m->cap || m->n_log)
		return;
	model_drop_leaked(m, now);
	if (!m->count) {
		m->cap = 0;
		return;
	}
	if (m->cap <= START_CAP || m->count >= m->cap / 4)
		return;
	while (cap / 2 < m->count)
		cap *= 2;
	m->cap = cap;
}

/* A subject: one of the colliding groups now and then, else any. */
static unsigned pick(void)
{
	return below(8) ? below(SUBJECTS) : below(3 * GROUP);
}

struct run {
	struct ras_once_seen *o;
	struct model *m;
	int64_t now;
	unsigned bad, growing_steps, growths, trims_shrunk;
	bool was_growing;
};

/* One step of the run; its answers and the set's count, mark and size checked against the model. */
static void step(struct run *r, bool filling)
{
	unsigned what = below(1000), s = pick(), n = 1 + below(4), gn = 0, wn = 0;
	int64_t wall = r->now - (int64_t)below(1000000), gt = 0, wt = 0;
	size_t bytes;

	r->now += below(1000);
	if (what < (filling ? 850u : 5u)) {
		if (!below(500))
			n = below(2) ? 0 : RAS_ONCE_SEEN_MAX_N + below(2);
		r->bad += ras_once_seen_add(r->o, tag_of[s], hash_of[s], wall, n, r->now) !=
			  model_add(r->m, s, wall, n, r->now);
	} else if (what < 960) {
		r->bad += ras_once_seen_take(r->o, tag_of[s], hash_of[s], &gt, &gn) !=
			  model_take(r->m, s, &wt, &wn) || gt != wt || gn != wn;
	} else if (what < 980) {
		ras_once_seen_committed(r->o);
		r->m->n_log = 0;
	} else if (what < 984) {
		ras_once_seen_rolled_back(r->o);
		model_rolled_back(r->m);
	} else if (what < 990) {
		size_t mark = ras_once_seen_mark(r->o) / 2;

		ras_once_seen_committed_to(r->o, mark);
		r->m->n_log -= mark;
		memmove(r->m->log, r->m->log + mark, r->m->n_log * sizeof(*r->m->log));
	} else if (what < 998) {
		size_t cap = r->m->cap;

		/* Between transactions, as rasd trims. */
		if (below(2)) {
			ras_once_seen_committed(r->o);
			r->m->n_log = 0;
		}
		ras_once_seen_trim(r->o, r->now - 20000000);
		model_trim(r->m, r->now - 20000000);
		r->trims_shrunk += r->m->cap < cap;
	} else {
		/* Tag 2's leak switched on and off: every entry's leak time changes. */
		r->m->leak[2] = r->m->leak[2] ? 0 : 40000000;
		r->m->next_leak = INT64_MIN;
		ras_once_seen_set_leak(r->o, 2, r->m->leak[2]);
	}
	bytes = ras_once_seen_bytes(r->o);
	r->bad += ras_once_seen_count(r->o) != r->m->count || ras_once_seen_mark(r->o) != r->m->n_log;
	r->bad += bytes != r->m->cap * 16 && bytes != r->m->cap * 24;
	r->growing_steps += bytes == r->m->cap * 24;
	r->growths += bytes == r->m->cap * 24 && !r->was_growing;
	r->was_growing = bytes == r->m->cap * 24;
}

/* Every subject taken and compared, then the takes rolled back (with the open transaction's changes). */
static unsigned check_all(struct run *r)
{
	unsigned bad = 0;

	for (unsigned s = 0; s < SUBJECTS; s++) {
		int64_t gt = 0, wt = 0;
		unsigned gn = 0, wn = 0;

		bad += ras_once_seen_take(r->o, tag_of[s], hash_of[s], &gt, &gn) !=
		       model_take(r->m, s, &wt, &wn) || gt != wt || gn != wn;
	}
	bad += ras_once_seen_count(r->o) != r->m->count;
	ras_once_seen_rolled_back(r->o);
	model_rolled_back(r->m);
	bad += ras_once_seen_count(r->o) != r->m->count;
	return bad;
}

/*
 * What a growth moved still leaks out when the set is next full: the entries
 * moved, and those moved before their tag's leak time was set.
 */
static void test_leaks_across_growth(void)
{
	struct ras_once_seen *o;
	unsigned i;
	int r;

	/* 3,000 entries: 4,096 slots at most, full at 3,072. */
	ras_once_seen_new(&o, 3000);
	ras_once_seen_set_leak(o, 1, 1000);
	for (i = 0; i < 800; i++)
		ras_once_seen_add(o, 1, i * 0x9e3779b97f4a7c15ULL, 0, 1, 0);
	/* Then subjects that never leak: two growths, each moving the 800. */
	for (; ras_once_seen_count(o) < 3072; i++)
		ras_once_seen_add(o, 0, i * 0x9e3779b97f4a7c15ULL, 0, 1, 0);
	r = ras_once_seen_add(o, 0, 1, 2000, 1, 2000);
	tap_ok(r == 0 && ras_once_seen_count(o) == 3072 - 800 + 1,
	       "full: the 800 that leaked out by then are dropped, though moved by two growths (%zu held)",
	       ras_once_seen_count(o));
	ras_once_seen_free(o);

	ras_once_seen_new(&o, 3000);
	/* Hashes 0 to 9: the first slots of each table, the first moved by a growth. */
	for (i = 0; i < 10; i++)
		ras_once_seen_add(o, 2, i, 0, 1, 0);
	for (i = 0; ras_once_seen_count(o) < 1536 + 2; i++)
		ras_once_seen_add(o, 3, 16 + i, 0, 1, 0);
	/* Growing to 4,096 slots, those 10 moved already: now their tag leaks out. */
	ras_once_seen_set_leak(o, 2, 1000);
	for (; ras_once_seen_count(o) < 3072; i++)
		ras_once_seen_add(o, 3, 16 + i, 0, 1, 0);
	r = ras_once_seen_add(o, 3, 1u << 20, 2000, 1, 2000);
	tap_ok(r == 0 && ras_once_seen_count(o) == 3072 - 10 + 1,
	       "full: the 10 moved before their tag leaked are dropped (%zu held)", ras_once_seen_count(o));
	ras_once_seen_free(o);
}

int main(void)
{
	static struct model model;
	struct run r = { .m = &model, .now = 1000000000000LL };
	unsigned checked_bad = 0, checks = 0, full = 0;
	bool cleared_growing = false;

	test_leaks_across_growth();
	make_subjects();
	ras_once_seen_new(&r.o, MAX_ENTRIES);
	model.max_cap = 65536;
	model.next_leak = INT64_MAX;
	/* Tag 1 leaks out 30 ms an error (about 60,000 steps), tag 2 now and then, the rest never. */
	model.leak[1] = 30000000;
	ras_once_seen_set_leak(r.o, 1, model.leak[1]);
	for (unsigned i = 0; i < STEPS; i++) {
		/* Filled for 175,000 steps, drained for 250,000: it grows, fills, shrinks and grows again. */
		step(&r, i % 450000 < 175000);
		full += model.count + 1 > model.max_cap / 4 * 3;
		if (i % 40000 == 39999) {
			checked_bad += check_all(&r);
			checks++;
		}
		/* Once, growing: the buckets rebuilt, everything forgotten. */
		if (i >= 920000 && r.was_growing && !cleared_growing) {
			cleared_growing = true;
			ras_once_seen_clear(r.o);
			model.cap = model.count = model.n_log = 0;
			memset(model.held, 0, sizeof(model.held));
		}
	}
	tap_is_int(r.bad, 0, "%d steps: each answer, count, mark and size as the model's", STEPS);
	tap_is_int(checked_bad, 0, "every subject found or not as the model says, %u times", checks);
	tap_ok(r.growths >= 12 && r.growing_steps > 5000,
	       "the set grew %u times; %u steps were taken while it grew", r.growths, r.growing_steps);
	tap_ok(cleared_growing, "cleared while growing");
	tap_ok(full > 1000 && r.trims_shrunk >= 2, "it was full for %u steps and shrunk %u times",
	       full, r.trims_shrunk);
	ras_once_seen_free(r.o);
	free(model.log);
	return tap_done();
}
