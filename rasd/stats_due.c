/* SPDX-License-Identifier: MIT */
/* When the kernel's drop counters are read: rasd/stats_due.h. */
#include "stats_due.h"

bool rasd_stats_due_now(const struct rasd_stats_due *s)
{
	if (!s->checked_ns || s->missed || !s->group_open)
		return true;
	/* A clock gone back (it cannot, monotonic) is taken as due rather than never. */
	return s->now_ns - s->checked_ns >= RASD_STATS_EVERY_NS || s->now_ns < s->checked_ns;
}
