/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: when rasd gives memory back (rasd/give_back.c), on given figures
 * (no clock): never between a storm's groups, once a second of nothing
 * followed it, and what that give-back kept a second later.
 */
#include "tap.h"
#include "rasd/give_back.h"

#define MS (1000000LL)
#define S (1000 * MS)

/* rasd at start: one give-back before READY=1, nothing held, nothing read yet. */
static void at_start(void)
{
	struct rasd_give_back g = { 0 };

	rasd_give_back_done(&g, 5 * S);
	tap_is_int(rasd_give_back_at(&g, -1), -1, "idle from the start, nothing kept: never woken for it");
	tap_is_int(rasd_give_back_timeout_ms(&g, -1, 6 * S), -1, "so the loop's timeout is not shortened");
}

/*
 * A live storm as the loop sees it: a wake every 4 ms tick that reads, a
 * group committed every 65 ms, and wakes that read nothing between them (a
 * tick that found the buffers empty, a trigger's output, the watchdog) up
 * to 100 ms apart. Memory held by a storm-sized batch the whole time.
 */
static void storm(void)
{
	struct rasd_give_back g = { 0 };
	int64_t t, end = 30 * S, held;
	unsigned quiet_wakes = 0, given = 0;

	rasd_give_back_done(&g, 1 * MS);
	for (t = 2 * MS; t < end; t += 4 * MS) {
		/* Every 25th tick and the two after it read nothing: a gap of 12 ms. */
		bool reads = (t / (4 * MS)) % 25 > 2;

		held = g.given_ns + RASD_GIVE_BACK_IDLE_NS;
		if (reads) {
			rasd_give_back_busy(&g, t);
			continue;
		}
		quiet_wakes++;
		if (rasd_give_back_due(&g, held, t))
			given++;
	}
	tap_ok(quiet_wakes > 500, "the storm had %u wakes that read nothing", quiet_wakes);
	tap_is_int(given, 0, "no give-back between a storm's groups, though memory was held all along");
	/* Slower: a record every 900 ms is still a storm's trickle of groups. */
	for (t = end; t < end + 60 * S; t += 900 * MS) {
		held = g.given_ns + RASD_GIVE_BACK_IDLE_NS;
		given += rasd_give_back_due(&g, held, t + 899 * MS);
		rasd_give_back_busy(&g, t + 899 * MS);
	}
	tap_is_int(given, 0, "nor between groups 900 ms apart");
}

/* After the storm: a second of nothing, then a give-back; what it kept goes a second later. */
static void after_storm(void)
{
	struct rasd_give_back g = { 0 };
	int64_t last = 40 * S;

	rasd_give_back_done(&g, 1 * S);
	rasd_give_back_busy(&g, last);
	tap_is_int(rasd_give_back_at(&g, g.given_ns + RASD_GIVE_BACK_IDLE_NS), last + S,
		   "due a second after the last busy wake, not at the held memory's time");
	tap_ok(!rasd_give_back_due(&g, -1, last + S - 1), "not a nanosecond before");
	tap_ok(rasd_give_back_due(&g, -1, last + S), "due after a second of nothing");
	tap_is_int(rasd_give_back_timeout_ms(&g, -1, last + 1), 1000, "the loop wakes for it (ms, rounded up)");
	tap_is_int(rasd_give_back_timeout_ms(&g, -1, last + 2 * S), 0, "late: now");
	rasd_give_back_done(&g, last + S);
	tap_is_int(rasd_give_back_at(&g, -1), -1, "given back, nothing kept: no more wake-ups");
	tap_is_int(rasd_give_back_at(&g, g.given_ns + RASD_GIVE_BACK_IDLE_NS), last + 2 * S,
		   "a storm-sized batch's slots kept at that give-back: the next a second later");
	rasd_give_back_done(&g, last + 2 * S);
	tap_is_int(rasd_give_back_at(&g, -1), -1, "freed then: idle for good");
	rasd_give_back_busy(&g, last + 3 * S);
	tap_is_int(rasd_give_back_at(&g, -1), last + 4 * S, "a lone record later: again a second after it");
}

int main(void)
{
	at_start();
	storm();
	after_storm();
	tap_done();
	return 0;
}
