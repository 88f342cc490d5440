/* SPDX-License-Identifier: MIT */
/* The one conversion of a clock to integer nanoseconds. */
#ifndef RAS_CLOCK_H
#define RAS_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

static inline int64_t ras_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Formats UTC nanoseconds as 2026-11-22T10:00:00.123456Z. */
void ras_format_time(int64_t wall_ns, char *out, size_t len);

#endif
