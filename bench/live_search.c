/* SPDX-License-Identifier: MIT */
/*
 * make bench-live's search over rates. A step at a rate costs its length
 * plus rasd's start and drain, so the search spends long steps only where
 * they decide: short probes (doubling from start) bracket the ceiling, then
 * long steps confirm the highest probe that passed (halving while even that
 * loses records over a long step: a slow drift shows only there) and bisect
 * between the long pass and the lowest failure, to the nearest 1000/s.
 * A probe's pass is never an answer; a failure, short or long, bounds it
 * (a long step at a rate a probe lost at would lose as well).
 */
#include "live_search.h"

#define STEP 1000   /* rates are multiples of 1000/s */

void live_search_init(struct live_search *s, long start, long max, double probe_s, double long_s,
		      int bisect)
{
	*s = (struct live_search){ .start = start, .max = max, .floor = STEP, .probe_s = probe_s,
		.long_s = long_s, .bisect = bisect, .probing = true };
	s->start = s->start / STEP * STEP;
	if (s->start < s->floor)
		s->start = s->floor;
	if (s->max < s->start)
		s->max = s->start;
}

static long round_down(long rate)
{
	return rate / STEP * STEP;
}

/* The lowest rate known to lose records, short or long; 0: none. */
static long upper(const struct live_search *s)
{
	if (s->fail && s->probe_fail)
		return s->fail < s->probe_fail ? s->fail : s->probe_fail;
	return s->fail ? s->fail : s->probe_fail;
}

/* The next probe, or 0 when the probes are done. */
static long next_probe(const struct live_search *s)
{
	if (!s->probes)
		return s->start;
	if (s->probe_fail && !s->probe_pass) {
		/* Even the first lost records: halve down to the floor. */
		long half = round_down(s->probe_fail / 2);

		return half >= s->floor && half < s->probe_fail ? half : 0;
	}
	if (s->probe_fail || s->writer_limited || s->probe_pass >= s->max)
		return 0;
	return s->probe_pass * 2 < s->max ? s->probe_pass * 2 : s->max;
}

/* The next long step, or 0 when the search is over. */
static long next_long(struct live_search *s)
{
	long hi = upper(s), mid;

	if (!s->pass) {
		/* Confirm the highest probe that passed, else half the lowest long failure. */
		long cand = s->fail ? round_down(s->fail / 2) : s->probe_pass;

		return cand >= s->floor && (!hi || cand < hi) ? cand : 0;
	}
	if (s->writer_limited || !hi || s->bisected >= s->bisect)
		return 0;
	mid = round_down((s->pass + hi) / 2);
	return mid > s->pass && mid < hi ? mid : 0;
}

bool live_search_next(struct live_search *s, long *rate, double *seconds)
{
	long r = 0;

	if (s->done)
		return false;
	if (s->probing && (r = next_probe(s)) != 0) {
		*rate = r;
		*seconds = s->probe_s;
		return true;
	}
	s->probing = false;
	if ((r = next_long(s)) == 0) {
		s->done = true;
		return false;
	}
	*rate = r;
	*seconds = s->long_s;
	return true;
}

void live_search_result(struct live_search *s, long rate, bool ok, bool writer_limited)
{
	/* While probing, the step run was a probe (live_search_next ends the probes first). */
	bool probe = s->probing;

	if (probe)
		s->probes++;
	else
		s->longs++;
	if (!probe && s->pass)
		s->bisected++;
	if (ok && writer_limited)
		s->writer_limited = true;
	if (probe && ok && rate > s->probe_pass)
		s->probe_pass = rate;
	else if (probe && !ok && (!s->probe_fail || rate < s->probe_fail))
		s->probe_fail = rate;
	else if (!probe && ok && rate > s->pass)
		s->pass = rate;
	else if (!probe && !ok && (!s->fail || rate < s->fail))
		s->fail = rate;
}
