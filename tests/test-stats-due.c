/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: when the kernel's drop counters are read after a read of the
 * buffers (rasd/stats_due.c), on given figures (no clock). What is not read
 * here is read before the next commit (tests/test-live.sh, the fleet's losses).
 */
#include "tap.h"
#include "rasd/stats_due.h"

#define MS 1000000LL

/* A storm: a group open, checked 1 ms ago, no lost page. */
static struct rasd_stats_due storm(void)
{
	return (struct rasd_stats_due){ .now_ns = 5000 * MS, .checked_ns = 4999 * MS,
		.group_open = true };
}

int main(void)
{
	struct rasd_stats_due s = storm();

	tap_ok(!rasd_stats_due_now(&s), "a storm's wake, checked 1 ms ago: left to the commit");
	s.checked_ns = s.now_ns - RASD_STATS_EVERY_NS + 1;
	tap_ok(!rasd_stats_due_now(&s), "just under the bound: left to the commit");
	s.checked_ns = s.now_ns - RASD_STATS_EVERY_NS;
	tap_ok(rasd_stats_due_now(&s), "the bound reached: read now");
	s = storm();
	s.checked_ns = 0;
	tap_ok(rasd_stats_due_now(&s), "never read this run: read now");
	s = storm();
	s.missed = true;
	tap_ok(rasd_stats_due_now(&s), "a lost page met: read now");
	s = storm();
	s.group_open = false;
	tap_ok(rasd_stats_due_now(&s), "no group open, no commit coming: read now");
	s = storm();
	s.checked_ns = s.now_ns + MS;
	tap_ok(rasd_stats_due_now(&s), "a check in the future: read now, never never");
	s = storm();
	s.now_ns = 1;
	s.checked_ns = 1;
	tap_ok(!rasd_stats_due_now(&s), "checked this very moment: left to the commit");
	return tap_done();
}
