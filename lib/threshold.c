/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "threshold.h"

#define NS 1000000000LL

static const struct { const char *unit; int64_t seconds; } units[] = {
	{ "w", 604800 }, { "d", 86400 }, { "h", 3600 }, { "min", 60 }, { "m", 60 }, { "s", 1 },
	{ "", 1 },
};

static int parse_period(const char *s, int64_t *ns)
{
	char *end;
	unsigned long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v == 0)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t len = strlen(units[i].unit);
		const char *rest = end + len;

		if (strncmp(end, units[i].unit, len))
			continue;
		while (isspace((unsigned char)*rest))
			rest++;
		if (*rest)
			continue;
		/* A year of seconds is far below the limit; refuse what would overflow. */
		if (v > (unsigned long long)(INT64_MAX / NS / units[i].seconds))
			return -EINVAL;
		*ns = (int64_t)v * units[i].seconds * NS;
		return 0;
	}
	return -EINVAL;
}

int ras_threshold_parse(const char *s, struct ras_threshold *out)
{
	const char *slash = strchr(s, '/');
	char *end;
	unsigned long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!strcasecmp(s, "off") || !strcmp(s, "0")) {
		out->count = 0;
		out->period_ns = 0;
		return 0;
	}
	if (!slash || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || end != slash || v == 0 || v > 1000000000UL)
		return -EINVAL;
	if (parse_period(slash + 1, &out->period_ns) < 0)
		return -EINVAL;
	out->count = (uint32_t)v;
	return 0;
}

void ras_threshold_format(const struct ras_threshold *t, char *out, size_t len)
{
	int64_t sec = t->period_ns / NS;

	if (!t->count) {
		snprintf(out, len, "off");
		return;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]) - 1; i++) {
		if (sec % units[i].seconds == 0 && strcmp(units[i].unit, "min")) {
			snprintf(out, len, "%u/%lld%s", t->count, (long long)(sec / units[i].seconds),
				 units[i].unit);
			return;
		}
	}
}

/*
 * The leak in __int128, as it always was computed; leak() below takes it
 * only when a product overflows 64 bits.
 */
static void leak_wide(struct ras_bucket *b, const struct ras_threshold *t, int64_t now_ns)
{
	__int128 leaked = (__int128)(now_ns - b->last_ns) * t->count / t->period_ns;

	if (leaked >= b->level) {
		b->level = 0;
		b->last_ns = now_ns;
		return;
	}
	b->level -= (int64_t)leaked;
	/* Only the time the whole leaked errors took is used up; the rest carries over. */
	b->last_ns += (int64_t)(leaked * t->period_ns / t->count);
}

/*
 * In 64 bits while the products fit (nearly always): a 128-bit division was
 * a library call, two per error counted. C's division truncates alike in
 * both widths, so without an overflow the quotients are the same.
 */
static inline void leak(struct ras_bucket *b, const struct ras_threshold *t, int64_t now_ns)
{
	int64_t p, leaked;

	if (!b->last_ns || !t->count || t->period_ns <= 0) {
		b->last_ns = now_ns;
		return;
	}
	if (now_ns <= b->last_ns)
		return;
	if (__builtin_mul_overflow(now_ns - b->last_ns, (int64_t)t->count, &p)) {
		leak_wide(b, t, now_ns);
		return;
	}
	leaked = p / t->period_ns;
	if (leaked >= b->level) {
		b->level = 0;
		b->last_ns = now_ns;
		return;
	}
	b->level -= leaked;
	if (__builtin_mul_overflow(leaked, t->period_ns, &p))
		b->last_ns += (int64_t)((__int128)leaked * t->period_ns / t->count);
	else
		b->last_ns += p / (int64_t)t->count;
}

void ras_bucket_leak(struct ras_bucket *b, const struct ras_threshold *t, int64_t now_ns)
{
	leak(b, t, now_ns);
}

bool ras_bucket_add(struct ras_bucket *b, const struct ras_threshold *t, int64_t now_ns, int64_t n)
{
	leak(b, t, now_ns);
	if (n > 0 && b->level <= INT64_MAX - n)
		b->level += n;
	return t->count && b->level >= (int64_t)t->count;
}
