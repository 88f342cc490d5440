/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: a group due while the commit behind is still being made does not
 * stop the event loop's reads (rasd/pipeline_commit.c). The writer thread is
 * held inside a commit behind (a commit hook on its connection waits for the
 * test); meanwhile records keep being taken, past a full batch, the grown
 * group due, and nothing waits for the writer or is committed. Let go, the
 * commit is made and the group committed with every record. Held again and
 * then failing, the commit behind takes back everything since the last commit
 * made, and the retry stores it all, each record once.
 *
 * No clock decides: the writer is held and let go by the test. Only a broken
 * build, whose event loop waits for the held commit, meets the watchdog,
 * which lets the writer go after a minute so that the test fails, not hangs.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include "db/db.h"
#include "fake_tree.h"
#include "lib/clock.h"
#include "rasd/pipeline.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define FIRST 300         /* the group committed behind: over GROUP_BEHIND_RECORDS */
#define GROWN 400         /* taken while it is held: past the full batch (FIRST) */

static unsigned long seq;

/* n mc_event records, each its own address, taken as the reader hands them over. */
static int take(struct fake_tree *t, struct ras_pipeline *p, unsigned n)
{
	char addr[48], *assign[] = { "msg=reads on", addr, "error_type=1" };
	uint8_t rec[512];

	for (unsigned i = 0; i < n; i++, seq++) {
		int len;

		snprintf(addr, sizeof(addr), "address=%lu", seq);
		len = fake_record(t, "ras:mc_event", assign, 3, rec, sizeof(rec));
		if (len < 0)
			return -1;
		ras_pipeline_ops.record(p, 0, 1000000 + seq * 1000, rec, (uint32_t)len);
	}
	return 0;
}

static const char *dbpath;

static int64_t rows(void)
{
	return test_sql_int(dbpath, "SELECT count(*) FROM mc_event");
}

/* The loop's turns while a commit behind is out: taken as made once it is. */
static bool turn_until_committed(struct ras_pipeline *p)
{
	while (!ras_pipeline_commit_if_due(p, ras_clock_ns(CLOCK_REALTIME)) && !p->failing)
		usleep(1000);
	return !p->failing;
}

static void turn_until_failing(struct ras_pipeline *p)
{
	while (!p->failing)
		if (!ras_pipeline_commit_if_due(p, ras_clock_ns(CLOCK_REALTIME)))
			usleep(1000);
}

/* A group handed over, its commit held; GROWN more records taken and the group due meanwhile. */
static uint64_t hold_and_grow(struct fake_tree *t, struct ras_pipeline *p, const char *what)
{
	uint64_t ticket;
	bool took, deferred, fired;

	take(t, p, FIRST);
	commit_gate_hold_next();
	tap_is_int(ras_pipeline_commit_group(p), 0, "%s: %d records committed behind", what, FIRST);
	ticket = p->behind.ticket;
	if (!tap_ok(ticket != 0, "%s: a ticket out", what))
		return 0;
	commit_gate_wait_held();
	commit_gate_watchdog_start();
	took = take(t, p, GROWN) == 0;
	deferred = !ras_pipeline_commit_if_due(p, ras_clock_ns(CLOCK_REALTIME)) &&
		   ras_pipeline_commit_group(p) == -EAGAIN;
	fired = commit_gate_watchdog_end();
	tap_ok(took && !fired, "%s: %d more records taken, past a full batch, while the"
	       " writer is held inside its commit", what, GROWN);
	tap_ok(deferred && !fired, "%s: the due group is not committed yet, and nothing"
	       " waited for the writer", what);
	tap_ok(p->behind.ticket == ticket && p->in_txn == GROWN && p->group_first_ns,
	       "%s: the commit behind still out, the group open with %u records", what, p->in_txn);
	tap_is_int((int64_t)p->pending.records, FIRST + GROWN, "%s: all %d held", what, FIRST + GROWN);
	/* The loop waited for the held commit: what follows would only wait again. */
	return fired ? 0 : ticket;
}

static void run(struct fake_tree *t, struct ras_db *db)
{
	static struct ras_pipeline p;
	struct rasd_config cfg;
	struct ras_tracing tr = { .name = "reads-on" };
	uint64_t ticket;

	rasd_config_defaults(&cfg);
	cfg.commit_delay_ms = 0;                /* every group due: no clock decides */
	cfg.batch_max_records = FIRST;
	snprintf(cfg.fold_threshold, sizeof(cfg.fold_threshold), "off");
	snprintf(tr.instance_dir, sizeof(tr.instance_dir), "%s", t->instance);
	ras_pipeline_init(&p, t->fmt, db, &tr, &cfg, NULL, "live");

	ticket = hold_and_grow(t, &p, "made");
	if (!ticket)
		goto out;
	tap_is_int(rows(), 0, "nothing committed meanwhile");
	commit_gate_release(false);
	tap_ok(turn_until_committed(&p) && p.behind.ticket != ticket,
	       "let go: the commit made, the grown group committed at the next turn");
	tap_is_int(ras_pipeline_commit(&p), 0, "the stop's commit waits for it");
	tap_is_int(rows(), FIRST + GROWN, "every record stored (%d)", FIRST + GROWN);
	tap_is_int((int64_t)p.pending.records, 0, "none held any more");

	if (!hold_and_grow(t, &p, "failing"))
		goto out;
	commit_gate_release(true);
	turn_until_failing(&p);
	tap_ok(p.behind.ticket == 0 && p.in_txn == 0, "the held commit failed: everything since the"
	       " last commit made taken back");
	tap_is_int((int64_t)p.pending.records, FIRST + GROWN, "its records and the grown group's held");
	tap_is_int(rows(), FIRST + GROWN, "none of them stored");
	tap_is_int(ras_pipeline_retry(&p, NULL), 0, "the retry commits");
	tap_is_int(rows(), 2 * (FIRST + GROWN), "every record stored (%d)", 2 * (FIRST + GROWN));
	tap_is_int(test_sql_int(dbpath, "SELECT count(DISTINCT address) FROM mc_event"),
		   2 * (FIRST + GROWN), "each once");
	tap_ok(!p.failing && p.pending.records == 0 && p.stored == 2 * (FIRST + GROWN),
	       "not failing, nothing held, %llu counted stored", (unsigned long long)p.stored);
out:
	ras_pipeline_free(&p);
}

int main(void)
{
	static struct fake_tree t;
	char formats[1024], path[600];
	struct ras_db *db;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	if (!tap_ok(fake_tree_create(&t, formats, 1, "rasd", "boot") == 0, "formats"))
		return tap_done();
	snprintf(path, sizeof(path), "%s/reads-on.db", t.root);
	dbpath = path;
	db = open_db(path, true);
	if (tap_ok(db != NULL, "a database with its writer thread")) {
		commit_gate_install(db);
		run(&t, db);
		ras_db_close(db);
	}
	fake_tree_destroy(&t);
	return tap_done();
}
