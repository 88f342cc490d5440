/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: the event loop's timeout (rasd/loop_wait.c), on given figures (no
 * clock): what only a quiet loop does never makes a busy one spin, and a
 * quiet one still wakes for it.
 */
#include "tap.h"
#include "rasd/loop_wait.h"

/* Nothing due but the instance's check, 10 s away. */
static struct rasd_loop_waits idle(void)
{
	return (struct rasd_loop_waits){ .check = 10000, .group = -1, .burst = -1, .sel = -1,
		.retry = -1, .give_back = -1, .trim = -1, .health = -1, .quiet = true };
}

static void sooner(void)
{
	tap_is_int(rasd_loop_sooner(-1, -1), -1, "none and none: none");
	tap_is_int(rasd_loop_sooner(-1, 5), 5, "none and 5: 5");
	tap_is_int(rasd_loop_sooner(5, -1), 5, "5 and none: 5");
	tap_is_int(rasd_loop_sooner(5, 0), 0, "5 and now: now");
}

static void busy(void)
{
	struct rasd_loop_waits w = idle();

	tap_is_int(rasd_loop_timeout_ms(&w), 10000, "idle: the instance's check");
	/* A storm's group open, and everything that waits for a quiet loop due. */
	w.quiet = false;
	w.group = 40;
	w.give_back = w.trim = w.health = 0;
	tap_is_int(rasd_loop_timeout_ms(&w), 40, "a group open: its commit, not the give-back's, the trim's or the diagnosis's now");
	w.group = 1;
	tap_is_int(rasd_loop_timeout_ms(&w), 1, "a commit behind: its poll");
	w.burst = 0;
	tap_is_int(rasd_loop_timeout_ms(&w), 0, "the storm's tick is due: now (it reads)");
	w.burst = 3;
	w.sel = 0;
	tap_is_int(rasd_loop_timeout_ms(&w), 0, "the BMC's answer expires: now (met at every turn)");
}

static void quiet(void)
{
	struct rasd_loop_waits w = idle();

	w.give_back = 1000;
	tap_is_int(rasd_loop_timeout_ms(&w), 1000, "quiet: woken for the give-back");
	w.trim = 0;
	tap_is_int(rasd_loop_timeout_ms(&w), 0, "quiet: the trim now");
	w.trim = -1;
	w.health = 300;
	tap_is_int(rasd_loop_timeout_ms(&w), 300, "quiet: the diagnosis's commit");
	w.failing = true;
	w.health = 0;
	w.retry = 2000;
	tap_is_int(rasd_loop_timeout_ms(&w), 1000, "failing: no commit of the diagnosis's own, the give-back still");
	w.give_back = -1;
	tap_is_int(rasd_loop_timeout_ms(&w), 2000, "failing: the next try");
	w = idle();
	w.check = -1;
	tap_is_int(rasd_loop_timeout_ms(&w), -1, "nothing due: sleep until woken");
}

/*
 * Two seconds of a storm as the loop sees it: a group open at every turn,
 * committed at 65 ms, the next one opened at once; the give-back and the trim
 * due all along. Each turn sleeps the timeout: a 0 that nothing meets would
 * turn until the cap without time passing.
 */
static void storm(void)
{
	struct rasd_loop_waits w = idle();
	long turns = 0, t = 0, due = 65;

	w.quiet = false;
	w.give_back = w.trim = w.health = 0;
	while (t < 2000 && turns < 1000000) {
		int wait;

		w.group = due > t ? (int)(due - t) : 0;
		wait = rasd_loop_timeout_ms(&w);
		turns++;
		if (wait == 0 && due <= t)
			due = t + 65;   /* the group is committed, the next opens */
		t += wait;
	}
	tap_ok(t >= 2000, "two seconds went by (%ld ms)", t);
	tap_ok(turns <= 2 * 2000 / 65 + 2, "in %ld turns: about two per group, no spin", turns);
}

int main(void)
{
	sooner();
	busy();
	quiet();
	storm();
	tap_done();
	return 0;
}
