/* SPDX-License-Identifier: MIT */
/*
 * Issue 39's rules for the live path, on given figures (no clock, no kernel):
 * when reading goes by the tick with the watermark raised and when it goes
 * back to every record (rasd/reader_burst.c), and how a group grows and is
 * committed under a storm (rasd/pipeline_commit.c).
 */
#include "tap.h"
#include "lib/config.h"
#include "rasd/pipeline.h"
#include "rasd/reader_burst.h"

#define MS (1000000LL)

static void burst_begins(void)
{
	tap_is_int(rasd_burst_rule(false, 1, INT64_MAX), RASD_BURST_NEXT_WINDOW,
		   "a lone record after a quiet time starts a window, nothing more");
	tap_is_int(rasd_burst_rule(false, RASD_BURST_START - 1, 2 * MS), RASD_BURST_STAY,
		   "fewer than RASD_BURST_START in the tick so far: still woken at every record");
	tap_is_int(rasd_burst_rule(false, RASD_BURST_START, 2 * MS), RASD_BURST_BEGIN,
		   "RASD_BURST_START records within a tick: a storm, read by the tick");
	tap_is_int(rasd_burst_rule(false, RASD_BURST_START, RASD_BURST_TICK_NS), RASD_BURST_BEGIN,
		   "exactly one tick long still counts");
	tap_is_int(rasd_burst_rule(false, RASD_BURST_START * 4, RASD_BURST_TICK_NS + 1),
		   RASD_BURST_NEXT_WINDOW, "the same spread over more than a tick is a trickle: a new window");
	tap_is_int(rasd_burst_rule(false, 0, 0), RASD_BURST_STAY, "nothing read: nothing changes");
}

static void burst_ends(void)
{
	tap_is_int(rasd_burst_rule(true, 0, RASD_BURST_TICK_NS - 1), RASD_BURST_STAY,
		   "on: a read woken by the watermark before the tick ends decides nothing");
	tap_is_int(rasd_burst_rule(true, RASD_BURST_STOP, RASD_BURST_TICK_NS), RASD_BURST_NEXT_WINDOW,
		   "on: RASD_BURST_STOP in a tick keeps reading by the tick");
	tap_is_int(rasd_burst_rule(true, RASD_BURST_STOP - 1, RASD_BURST_TICK_NS), RASD_BURST_END,
		   "on: fewer in a tick: watermark 0, woken at every record again");
	tap_is_int(rasd_burst_rule(true, 0, 10 * RASD_BURST_TICK_NS), RASD_BURST_END,
		   "on: a late tick that read nothing ends it too");
	tap_ok(RASD_BURST_STOP < RASD_BURST_START, "ending takes a lower rate than beginning");
	tap_ok(RASD_BURST_PERCENT > 0 && RASD_BURST_PERCENT <= 50,
	       "the watermark leaves at least half the buffer for the wake-up");
}

/* Per tick: 2,000/s is 8 records, 4,000/s 16, 1,000/s 4, 250/s 1. */
static void burst_hysteresis(void)
{
	tap_is_int(rasd_burst_rule(false, 8, RASD_BURST_TICK_NS), RASD_BURST_BEGIN,
		   "2,000/s is read by the tick");
	tap_is_int(rasd_burst_rule(true, 16, RASD_BURST_TICK_NS), RASD_BURST_NEXT_WINDOW,
		   "and 4,000/s stays so");
	tap_is_int(rasd_burst_rule(false, 4, RASD_BURST_TICK_NS), RASD_BURST_NEXT_WINDOW,
		   "1,000/s does not begin reading by the tick");
	tap_is_int(rasd_burst_rule(true, 4, RASD_BURST_TICK_NS), RASD_BURST_NEXT_WINDOW,
		   "but does not end it either: no flapping in the gap");
	tap_is_int(rasd_burst_rule(true, 1, RASD_BURST_TICK_NS), RASD_BURST_END,
		   "a record a tick (250/s): woken at every record again");
	tap_ok(RASD_BURST_START >= 3 * RASD_BURST_STOP, "a gap of three between entering and leaving");
	/*
	 * The fill at a tick for the rates the tick now reads below the old
	 * entry (64 a tick): 64 records of 256 bytes on one CPU, against the
	 * default 256 KiB a CPU, stays far under the watermark that wakes rasd.
	 */
	tap_ok(64 * 256 * 100 * 4 <= RASD_BURST_PERCENT * 256 * 1024,
	       "the tick's fill below the old entry: at most a quarter of the watermark's");
}

static void burst_tick(void)
{
	struct rasd_burst b = { 0 };
	int64_t now = 1000 * 1000 * MS;

	tap_is_int(rasd_burst_timeout_ms(&b, now), -1, "off: no tick, idle costs nothing");
	tap_ok(!rasd_burst_tick_due(&b, now), "off: no read without the kernel's wake-up");
	b.on = true;
	b.window_ns = now - 1 * MS;
	tap_is_int(rasd_burst_timeout_ms(&b, now), (int)(RASD_BURST_TICK_NS / MS) - 1,
		   "on: the tick's rest");
	tap_ok(!rasd_burst_tick_due(&b, now), "on: not due before the tick");
	tap_ok(rasd_burst_tick_due(&b, now + RASD_BURST_TICK_NS), "on: due at the tick");
	b.window_ns = now + 1000 * MS;
	tap_is_int(rasd_burst_timeout_ms(&b, now), (int)(RASD_BURST_TICK_NS / MS),
		   "a clock that went back never waits more than a tick");
}

static void group_grows(void)
{
	struct rasd_config cfg = { .commit_delay_ms = 65, .batch_max_records = 50000 };
	struct ras_pipeline p = { .cfg = &cfg };
	int64_t now = 1000 * 1000 * MS;

	p.group_first_ns = now - 10 * MS;
	p.in_txn = 5000;
	tap_ok(!ras_pipeline_commit_due(&p, now),
	       "a storm's group of 5000, 10 ms old, waits for commit_delay_ms");
	tap_is_int(ras_pipeline_commit_timeout_ms(&p, now), 55, "for the 55 ms it has left");
	tap_ok(ras_pipeline_commit_due(&p, now + 55 * MS), "and is due at 65 ms");
	tap_ok(ras_pipeline_commit_goes_behind(&p), "then committed behind, on the writer thread");
	p.in_txn = 1;
	tap_ok(!ras_pipeline_commit_goes_behind(&p), "a lone record's group is committed at once");
	p.in_txn = 255;
	tap_ok(!ras_pipeline_commit_goes_behind(&p), "so is a trickle's");
}

int main(void)
{
	burst_begins();
	burst_ends();
	burst_hysteresis();
	burst_tick();
	group_grows();
	tap_done();
	return 0;
}
