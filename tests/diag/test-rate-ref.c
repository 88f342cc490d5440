/* SPDX-License-Identifier: MIT */
/*
 * The verdict rules' leaky buckets (diag_rules_observe) against the
 * 128-bit-only arithmetic they had before issue 39, on random rules and
 * observations: counts and periods from 1 to huge, gaps from none to years,
 * so that both the 64-bit and the 128-bit paths are taken.
 */
#include <string.h>
#include "diag/rules.h"
#include "tests/rng.h"
#include "tests/tap.h"

static uint64_t seed = 0x2545f4914f6cdd1dULL;

static uint64_t rnd64(void)
{
	return rng_next_star(&seed);
}

/* Mostly small, sometimes anything: the edges matter. */
static int64_t pick(int64_t small)
{
	switch (rnd64() % 4) {
	case 0: return (int64_t)(rnd64() >> (1 + rnd64() % 63)) + 1;
	default: return (int64_t)(rnd64() % (uint64_t)small) + 1;
	}
}

static bool ref_rate_add(struct diag_rate *b, const struct diag_rule_conf *t, int64_t now, int64_t n)
{
	if (!b->last_ns || now > b->last_ns) {
		__int128 leaked = b->last_ns ? (__int128)(now - b->last_ns) * t->count / t->period_ns : 0;

		if (!b->last_ns || leaked >= b->level) {
			b->level = 0;
			b->last_ns = now;
		} else {
			b->level -= (int64_t)leaked;
			b->last_ns += (int64_t)(leaked * t->period_ns / t->count);
		}
	}
	if (n > 0 && b->level <= INT64_MAX - n)
		b->level += n;
	return b->level >= (int64_t)t->count;
}

static int64_t ref_counted(enum diag_counts what, const struct diag_obs *o)
{
	int64_t n = o->n > 0 ? o->n : 1;

	switch (what) {
	case DIAG_C_CORRECTED: return o->sev == RAS_SEV_CORRECTED ? n : 0;
	case DIAG_C_MEDIUM: return (o->flags & DIAG_OBS_MEDIUM) ? n : 0;
	case DIAG_C_RECORDS: return 1;
	default: return 0;
	}
}

static void ref_observe(const struct diag_rules *r, struct diag_part *p, const struct diag_obs *o)
{
	for (const uint8_t *rate = r->rates[p->kind]; *rate; rate++) {
		const struct diag_rule_info *in = diag_rule_info(*rate);
		const struct diag_rule_conf *c = &r->r[*rate];
		int64_t n;

		if (!in->count || !(in->kinds & (1u << p->kind)) || in->slot < 0 ||
		    in->slot >= DIAG_RATES || c->verdict == DIAG_OFF || !c->count || c->period_ns <= 0)
			continue;
		if (!(n = ref_counted(in->counts, o)))
			continue;
		if (ref_rate_add(&p->rate[in->slot], c, o->wall_ns, n) && !(p->fired & (1u << *rate))) {
			p->fired |= 1u << *rate;
			p->fired_ns[in->slot] = o->wall_ns;
		}
	}
}

int main(void)
{
	unsigned bad = 0, runs = 4000;

	for (unsigned run = 0; run < runs; run++) {
		struct diag_rules rules;
		struct diag_part fast, slow;
		int64_t now = (int64_t)(rnd64() % (1ULL << 62)) + 1;

		diag_rules_defaults(&rules);
		for (int i = 1; i < DIAG_R_N; i++) {
			if (!rules.r[i].count)
				continue;
			rules.r[i].count = (uint32_t)pick(rnd64() % 2 ? 200 : UINT32_MAX);
			rules.r[i].period_ns = pick(rnd64() % 2 ? 1000000 : INT64_MAX);
		}
		diag_part_init(&fast, (enum diag_kind)(rnd64() % DIAG_K_N));
		slow = fast;
		for (unsigned k = 0; k < 300; k++) {
			struct diag_obs o = {
				.n = (int64_t)(rnd64() % 5) - 1,
				.sev = rnd64() % 3 ? RAS_SEV_CORRECTED : RAS_SEV_UNCORRECTED,
				.flags = rnd64() % 2 ? DIAG_OBS_MEDIUM : 0,
			};
			int64_t gap = rnd64() % 8 ? pick(rnd64() % 2 ? 5000 : 1000000000) : 0;

			if (rnd64() % 50 == 0)
				o.n = pick(INT64_MAX);
			if (now <= INT64_MAX - gap)
				now += gap;
			o.wall_ns = rnd64() % 20 ? now : now - pick(1000);
			diag_rules_observe(&rules, &fast, &o);
			ref_observe(&rules, &slow, &o);
			if (memcmp(fast.rate, slow.rate, sizeof(fast.rate)) || fast.fired != slow.fired ||
			    memcmp(fast.fired_ns, slow.fired_ns, sizeof(fast.fired_ns))) {
				bad++;
				break;
			}
		}
	}
	tap_ok(bad == 0, "%u of %u random runs differ from the 128-bit buckets", bad, runs);
	return tap_done();
}
