/* SPDX-License-Identifier: MIT */
/*
 * A spilled subject taken back without waiting for the writer thread (issue
 * 39; db/db_once_spill.c). With the once-seen set shrunk to a few hundred, a
 * storm over fresh pages spills thousands; then, with the writer thread held
 * inside a job (a wait for it, ras_db_sync, would never return while it is
 * held), a page whose spill was committed and confirmed and a page spilled in
 * the open transaction each come back with their first error: no sync. And a
 * stream committed behind, with a batch of fresh pages (spill adds) and a
 * batch of returning ones (spill takes) each rolled back while unconfirmed
 * and given again, ends with the same crossings, buckets and pages held as
 * the stream counted without a writer thread and with a set big enough.
 */
#include <stdio.h>
#include "db/db.h"
#include "db/db_actions.h"
#include "db/db_internal.h"
#include "lib/config.h"
#include "rasd/actions_internal.h"
#include "spill_fixture.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define SEC 1000000000LL
#define MS 1000000LL
#define HELD 300
#define STORM 5000
#define BATCH 1000

static char dir[512];
static const int64_t t0 = (int64_t)1795000000 * SEC;

/* Pages at 3/24h, accounted; a once-seen set for held subjects (0: rasd's); with behind, a writer thread. */
static int open_all(const char *name, struct rasd_config *cfg, size_t held, bool behind,
		    struct ras_db **db, struct ras_actions **a)
{
	return spill_open_held(dir, name, "boot-spill-unconfirmed", "3/24h", held, behind, cfg, db, a);
}

/* Page i's error at ms; the bucket when it crossed (emptied, as rasd does). */
static struct entry *count(struct ras_actions *a, unsigned i, int64_t ms)
{
	return spill_count(a, i, t0 + ms * MS);
}

/* Page i counted again while the writer thread is held: its bucket, which must hold 2 errors. */
static void count_held(struct ras_actions *a, struct ras_db *db, unsigned i, const char *what)
{
	unsigned long waits = db->sync_waits;
	struct entry *e;

	if (!tap_ok(writer_hold_start(db) == 0, "%s: the writer thread is held inside a job", what))
		return;
	count(a, i, 100000);
	e = actions_slot_for(a, RAS_SUBJ_PAGE, page(i).key);
	tap_ok(writer_hold_release(), "%s: page %u counted while it was held", what, i);
	tap_is_int((long)(db->sync_waits - waits), 0, "%s: no wait for the writer thread", what);
	tap_ok(e && e->used && e->total == 2 && e->b.level == 2,
	       "%s: its spilled first error replayed: 2 errors (%lld)", what, e && e->used ? (long long)e->total : -1);
	/* The holding job ended before the next hold begins (writer_fixture.h holds one at a time). */
	ras_db_sync(db);
}

static void test_no_wait(void)
{
	struct rasd_config cfg;
	struct ras_actions *a = NULL;
	struct ras_db *db = NULL;
	struct spill_behind b = { 0 };
	int before;

	if (!tap_ok(open_all("held.db", &cfg, HELD, true, &db, &a) == 0 && spill_begin(db) == 0,
		    "a database with a writer thread, a once-seen set for %d", HELD))
		return;
	for (unsigned i = 0; i < STORM; i++)
		count(a, i, i);
	tap_ok(spill_commit_behind(a, db, &b) == 0 && b.ticket && spill_settle(a, db, &b) == 0,
	       "the storm's commit is made behind and confirmed");
	tap_ok(spill_begin(db) == 0, "the next transaction");
	for (unsigned i = STORM; i < 2 * STORM; i++)
		count(a, i, i);
	before = spilled(a);
	tap_ok(before > STORM, "spilled: %d pages, committed and not", before);
	/* The last pages of each storm: memory was full long before them. */
	count_held(a, db, STORM - 1, "spilled and confirmed");
	count_held(a, db, 2 * STORM - 1, "spilled in the open transaction");
	tap_ok(spill_commit_behind(a, db, &b) == 0 && spill_settle(a, db, &b) == 0, "committed");
	tap_is_int(spilled(a), before - 2, "both taken out of the spill's table");
	spill_close_actions(db, a);
}

/* ---- batches rolled back while their spill adds or takes are unconfirmed ---- */

/* Pass 0: STORM fresh pages; pass 1 every third again, pass 2 every ninth (3/24h: crosses). */
static unsigned stream[STORM * 2], stream_len;

static void make_stream(void)
{
	stream_len = 0;
	for (unsigned pass = 0; pass < 3; pass++)
		for (unsigned i = 0; i < STORM; i++)
			if (!(pass == 1 && i % 3) && !(pass == 2 && i % 9))
				stream[stream_len++] = i;
}

/* Batch 3 spills fresh pages; batch 5 takes spilled ones back. */
#define FAILS ((1u << 3) | (1u << 5))

/* Spilled pages the two rollbacks put back or took away, and the count before the one under way. */
static int undone[2], spilled_before;

static void noted(struct spill_run *r, unsigned k, bool after)
{
	if (!after)
		spilled_before = spilled(r->a);
	else
		undone[k == 5] = spilled(r->a) - spilled_before;
}

static void test_rollback(void)
{
	struct rasd_config cfg[2];
	struct spill_run ref = { .t0 = t0, .batch = BATCH },
		r = { .t0 = t0, .batch = BATCH, .fails = FAILS, .noted = noted };
	struct spill_outcome ref_out = { .db = "ref.db" }, r_out = { .db = "retry.db" };

	make_stream();
	if (!tap_ok(open_all("ref.db", &cfg[0], 0, false, &ref.db, &ref.a) == 0 &&
		    spill_run_stream(&ref, stream, stream_len) == 0,
		    "the stream (%u records), rasd's set, no writer thread, no failure", stream_len))
		return;
	ref_out.held = spill_held(ref.a);
	tap_is_int(spilled(ref.a), 0, "nothing spilled");
	spill_close_actions(ref.db, ref.a);
	if (!tap_ok(open_all("retry.db", &cfg[1], HELD, true, &r.db, &r.a) == 0 &&
		    spill_run_stream(&r, stream, stream_len) == 0,
		    "the same stream with a set for %d and a writer thread, committed behind,"
		    " batches 3 and 5 rolled back and given again", HELD))
		return;
	r_out.held = spill_held(r.a);
	tap_ok(undone[0] < 0, "batch 3's rollback took %d spilled pages away", -undone[0]);
	tap_ok(undone[1] > 0, "batch 5's rollback put %d spilled pages back", undone[1]);
	tap_ok(spilled(r.a) > 0, "spilled (%d still)", spilled(r.a));
	spill_close_actions(r.db, r.a);
	ref_out.crossed = ref.crossed;
	r_out.crossed = r.crossed;
	tap_ok(ref.crossed > 0, "pages cross (%d)", ref.crossed);
	spill_same_as(dir, &ref_out, &r_out, NULL);
}

int main(void)
{
	if (test_tmpdir(dir, sizeof(dir)) < 0) {
		tap_ok(0, "a temporary directory");
		return tap_done();
	}
	test_no_wait();
	test_rollback();
	test_rmtree(dir);
	return tap_done();
}
