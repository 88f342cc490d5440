/* SPDX-License-Identifier: MIT */
/*
 * make bench-live's search over rates (live_search.c): short probes double
 * the rate until one loses a record, then long steps find the highest rate
 * that keeps every record over a whole long step, bisecting between it and
 * the lowest rate that lost one. Only a long step's pass is an answer.
 */
#ifndef RAS_BENCH_LIVE_SEARCH_H
#define RAS_BENCH_LIVE_SEARCH_H

#include <stdbool.h>

struct live_search {
	/* Settings. */
	long start, max, floor;   /* first probe; highest and lowest rate tried */
	double probe_s, long_s;   /* a probe's and a long step's length */
	int bisect;               /* long steps between the first long pass and the answer, at most */
	/* What was found. */
	long probe_pass, probe_fail;   /* highest probe kept all, lowest lost some (0: none) */
	long pass, fail;               /* the same for long steps: pass is the answer */
	bool writer_limited;           /* a passing step's writers could not give its rate */
	int probes, longs, bisected;
	bool probing, done;
};

/* A search from these settings (start rounded to 1000/s, at least floor). */
void live_search_init(struct live_search *s, long start, long max, double probe_s, double long_s,
		      int bisect);
/* The next step to run: true with its rate and length, false when the search is over. */
bool live_search_next(struct live_search *s, long *rate, double *seconds);
/* What the step live_search_next gave measured: ok (no record lost), its writers short of its rate. */
void live_search_result(struct live_search *s, long rate, bool ok, bool writer_limited);

#endif
