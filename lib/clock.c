/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include "clock.h"

void ras_format_time(int64_t wall_ns, char *out, size_t len)
{
	time_t sec = (time_t)(wall_ns / 1000000000);
	long usec = (long)((wall_ns % 1000000000) / 1000);
	struct tm tm;

	if (usec < 0) {
		usec += 1000000;
		sec--;
	}
	gmtime_r(&sec, &tm);
	snprintf(out, len, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, usec);
}
