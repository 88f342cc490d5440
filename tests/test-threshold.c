/* SPDX-License-Identifier: MIT */
/* Leaky-bucket thresholds: parsing "count/period" and the leak, to the nanosecond. */
#include <stdint.h>
#include <stdio.h>
#include "lib/threshold.h"
#include "rng.h"
#include "tap.h"

#define S 1000000000LL
#define H (3600 * S)

static void test_parse(void)
{
	static const struct { const char *text; int ok; unsigned count; long long sec; } cases[] = {
		{ "10/24h", 1, 10, 86400 }, { "3/1h", 1, 3, 3600 }, { "10 / 24h", 1, 10, 86400 },
		{ "2 / 1min", 1, 2, 60 }, { "5/30m", 1, 5, 1800 }, { "1/7d", 1, 1, 604800 },
		{ "4/90", 1, 4, 90 }, { "1/2w", 1, 1, 1209600 }, { "off", 1, 0, 0 }, { "0", 1, 0, 0 },
		{ "10", 0, 0, 0 }, { "/24h", 0, 0, 0 }, { "10/", 0, 0, 0 }, { "10/0h", 0, 0, 0 },
		{ "0/1h", 0, 0, 0 }, { "10/24y", 0, 0, 0 }, { "-1/1h", 0, 0, 0 }, { "x/1h", 0, 0, 0 },
		{ "10/24h junk", 0, 0, 0 }, { "10/99999999999999w", 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ras_threshold t = { 99, 99 };
		int r = ras_threshold_parse(cases[i].text, &t);

		if (!cases[i].ok) {
			tap_ok(r < 0, "'%s' is refused", cases[i].text);
			continue;
		}
		tap_ok(r == 0 && t.count == cases[i].count && t.period_ns == cases[i].sec * S,
		       "'%s' is %u per %llds", cases[i].text, cases[i].count, cases[i].sec);
	}
}

static void test_format(void)
{
	struct ras_threshold t;
	char buf[32];

	ras_threshold_parse("10/24h", &t);
	ras_threshold_format(&t, buf, sizeof(buf));
	tap_is_str(buf, "10/1d", "24h is written as 1d");
	ras_threshold_parse("3/90m", &t);
	ras_threshold_format(&t, buf, sizeof(buf));
	tap_is_str(buf, "3/90m", "90m stays in minutes");
	ras_threshold_parse("off", &t);
	ras_threshold_format(&t, buf, sizeof(buf));
	tap_is_str(buf, "off", "off");
}

static void test_leak(void)
{
	struct ras_threshold t = { 3, 3 * H };   /* leaks one error per hour */
	struct ras_bucket b = { 0, 0 };
	int64_t t0 = 1000 * H;

	tap_ok(!ras_bucket_add(&b, &t, t0, 1), "1st error: below 3/3h");
	tap_ok(!ras_bucket_add(&b, &t, t0 + 1, 1), "2nd error: below");
	tap_ok(ras_bucket_add(&b, &t, t0 + 2, 1), "3rd error within an hour: crossed");
	b.level = 0;
	/* One error per hour never crosses: each leaks before the next. */
	b = (struct ras_bucket){ 0, 0 };
	int crossed = 0;
	for (int i = 0; i < 48; i++)
		crossed += ras_bucket_add(&b, &t, t0 + i * H, 1);
	tap_is_int(crossed, 0, "a steady 1/h trickle never crosses 3/3h");
	tap_is_int(b.level, 1, "and holds one error");
	/* Half an hour leaks nothing yet (one error per hour); the remainder carries over. */
	b = (struct ras_bucket){ 2, t0 };
	ras_bucket_leak(&b, &t, t0 + H / 2);
	tap_is_int(b.level, 2, "30 minutes leak nothing at 1/h");
	tap_is_int(b.last_ns, t0, "and the half hour is kept");
	ras_bucket_leak(&b, &t, t0 + H / 2 + H / 2);
	tap_is_int(b.level, 1, "the next 30 minutes complete one hour: one leaks");
	tap_is_int(b.last_ns, t0 + H, "leak applied up to exactly one hour");
	ras_bucket_leak(&b, &t, t0 + 10 * H);
	tap_is_int(b.level, 0, "a long quiet empties the bucket");
	tap_is_int(b.last_ns, t0 + 10 * H, "an empty bucket keeps no credit");
	/* A record older than the last leak (out of order) leaks nothing. */
	b = (struct ras_bucket){ 2, t0 };
	tap_ok(ras_bucket_add(&b, &t, t0 - H, 1) && b.level == 3 && b.last_ns == t0,
	       "an older record adds without leaking");
	/* error_count=5 is five errors. */
	b = (struct ras_bucket){ 0, 0 };
	tap_ok(ras_bucket_add(&b, &t, t0, 5) && b.level == 5, "5 errors at once cross 3/3h");
	/* Off never crosses. */
	struct ras_threshold off = { 0, 0 };
	b = (struct ras_bucket){ 0, 0 };
	tap_ok(!ras_bucket_add(&b, &off, t0, 1000), "off never crosses");
	/* 10/24h: 2.4 hours per leaked error. */
	struct ras_threshold day = { 10, 24 * H };
	b = (struct ras_bucket){ 10, t0 };
	ras_bucket_leak(&b, &day, t0 + 5 * H);
	tap_is_int(b.level, 8, "10/24h: 5 hours leak 2 errors");
	tap_is_int(b.last_ns, t0 + 2 * (24 * H / 10), "and use up 4.8 hours");
}

/* The leak as it was computed before its 64-bit fast path: every step in __int128. */
static void leak_ref(struct ras_bucket *b, const struct ras_threshold *t, int64_t now_ns)
{
	__int128 leaked;

	if (!b->last_ns || !t->count || t->period_ns <= 0) {
		b->last_ns = now_ns;
		return;
	}
	if (now_ns <= b->last_ns)
		return;
	leaked = (__int128)(now_ns - b->last_ns) * t->count / t->period_ns;
	if (leaked >= b->level) {
		b->level = 0;
		b->last_ns = now_ns;
		return;
	}
	b->level -= (int64_t)leaked;
	b->last_ns += (int64_t)(leaked * t->period_ns / t->count);
}

/* A value of up to `bits` random bits, so small and huge ones both come. */
static int64_t some(uint64_t *x, unsigned max_bits)
{
	unsigned bits = (unsigned)(rng_next_star(x) % (max_bits + 1));

	return bits ? (int64_t)(rng_next_star(x) >> (64 - bits)) : 0;
}

/*
 * ras_bucket_leak divides in 64 bits when it can and in 128 when a product
 * overflows: on random buckets, thresholds and times (spans up to 2^62 ns,
 * counts up to 10^9, levels near INT64_MAX) it leaves what the 128-bit
 * computation left.
 */
static void test_leak_fast_path(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int differ = 0, slow = 0;

	for (int i = 0; i < 200000; i++) {
		struct ras_threshold t = { (uint32_t)(some(&x, 30) % 1000000000) + 1, some(&x, 62) + 1 };
		int64_t last = some(&x, 62) + 1, now = last + some(&x, 62);
		struct ras_bucket b = { some(&x, 63), last }, r = b;
		__int128 p = (__int128)(now - last) * t.count;

		slow += p > INT64_MAX;
		ras_bucket_leak(&b, &t, now);
		leak_ref(&r, &t, now);
		differ += b.level != r.level || b.last_ns != r.last_ns;
	}
	tap_is_int(differ, 0, "200,000 random leaks: the 64-bit path leaves what __int128 left");
	tap_ok(slow > 1000, "and the 128-bit path was taken too (%d times)", slow);
}

int main(void)
{
	test_parse();
	test_format();
	test_leak();
	test_leak_fast_path();
	return tap_done();
}
