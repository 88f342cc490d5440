/* SPDX-License-Identifier: MIT */
/*
 * Leaky-bucket thresholds written "count/period" ("10/24h", "3 / 1h"), as
 * mcelog writes them. A bucket fills by one per error and leaks `count`
 * errors per `period`, evenly (one every period/count); it is crossed when
 * it holds `count` errors or more. The caller empties it after acting, so a
 * steady trickle below the rate never crosses and a burst always does.
 * Pure arithmetic on integers: no clock, no I/O.
 */
#ifndef RAS_THRESHOLD_H
#define RAS_THRESHOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ras_threshold {
	uint32_t count;         /* 0: off */
	int64_t period_ns;
};

struct ras_bucket {
	int64_t level;          /* errors held now */
	int64_t last_ns;        /* time up to which the leak has been applied; 0: never fed */
};

/*
 * Parses "COUNT/PERIOD" (spaces allowed around '/'), PERIOD a number with
 * one of the units s, m, min, h, d, w (none: seconds), or "off" / "0".
 * Returns 0 or -EINVAL.
 */
int ras_threshold_parse(const char *s, struct ras_threshold *out);
/* "10/24h" in the largest unit that divides the period exactly, or "off". */
void ras_threshold_format(const struct ras_threshold *t, char *out, size_t len);
/* Applies the leak up to now_ns (a time before last_ns leaks nothing). */
void ras_bucket_leak(struct ras_bucket *b, const struct ras_threshold *t, int64_t now_ns);
/* Leaks up to now_ns, adds n errors; true when the bucket now holds count or more. */
bool ras_bucket_add(struct ras_bucket *b, const struct ras_threshold *t, int64_t now_ns, int64_t n);

#endif
