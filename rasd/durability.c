/* SPDX-License-Identifier: MIT */
#include "durability.h"
#include "log.h"

static unsigned bucket_of(uint64_t us)
{
	unsigned e;

	if (us < 16)
		return (unsigned)us;
	e = 63u - (unsigned)__builtin_clzll(us);  /* 4 or more */
	if (e >= 4 + 44)
		return RASD_DURABILITY_BUCKETS - 1;
	return 16 + (e - 4) * 16 + (unsigned)((us >> (e - 4)) & 15);
}

/* The largest value a bucket holds. */
static uint64_t upper_of(unsigned b)
{
	unsigned e, sub;

	if (b < 16)
		return b;
	e = (b - 16) / 16 + 4;
	sub = (b - 16) % 16;
	return ((16ull + sub + 1) << (e - 4)) - 1;
}

void rasd_durability_add(struct rasd_durability *h, int64_t latency_ns)
{
	uint64_t us = latency_ns > 0 ? (uint64_t)latency_ns / 1000 : 0;

	h->bucket[bucket_of(us)]++;
	h->count++;
	if ((int64_t)us > h->max_us)
		h->max_us = (int64_t)us;
}

int64_t rasd_durability_quantile_us(const struct rasd_durability *h, double q)
{
	uint64_t want, seen = 0;

	if (!h->count)
		return 0;
	want = (uint64_t)(q * (double)h->count + 0.999999);
	if (want < 1)
		want = 1;
	for (unsigned b = 0; b < RASD_DURABILITY_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= want) {
			int64_t up = (int64_t)upper_of(b);

			return up < h->max_us ? up : h->max_us;
		}
	}
	return h->max_us;
}

void rasd_durability_log(const struct rasd_durability *h, const char *what, const char *unit)
{
	if (h->count)
		ras_log(LOG_INFO, "%s: %llu %s, p50 %.1f ms, p99 %.1f ms, max %.1f ms", what,
			(unsigned long long)h->count, unit, rasd_durability_quantile_us(h, 0.5) / 1000.0,
			rasd_durability_quantile_us(h, 0.99) / 1000.0, h->max_us / 1000.0);
}
