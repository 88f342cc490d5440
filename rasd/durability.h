/* SPDX-License-Identifier: MIT */
/*
 * How long records wait to be durable: a histogram of (commit time − the
 * record's arrival in the kernel buffer), one sample per committed record.
 * Log-linear buckets: 16 per power of two of microseconds, so a quantile is
 * read back at most 1/16 (6 %) above the true value, never below.
 */
#ifndef RASD_DURABILITY_H
#define RASD_DURABILITY_H

#include <stdint.h>

#define RASD_DURABILITY_BUCKETS (16 + 44 * 16)

struct rasd_durability {
	uint64_t count;
	int64_t max_us;
	uint64_t bucket[RASD_DURABILITY_BUCKETS];
};

/* One committed record: latency_ns from its arrival (negative, a clock step: counted as 0). */
void rasd_durability_add(struct rasd_durability *h, int64_t latency_ns);
/* The q-quantile (0 < q <= 1) in microseconds, an upper bound of its bucket; 0 when empty. */
int64_t rasd_durability_quantile_us(const struct rasd_durability *h, double q);

/* Logs "what: N unit, p50 ..., p99 ..., max ..." (nothing when empty). */
void rasd_durability_log(const struct rasd_durability *h, const char *what, const char *unit);

#endif
