/* SPDX-License-Identifier: MIT */
/*
 * Subjects seen once past the memory for them (rasd/actions.c hold_once):
 * with the once-seen set shrunk to a few hundred, a storm over fresh pages
 * spills the rest into the writer's temporary table instead of a bucket row
 * each. A second error on a spilled page replays the first (2 of 2), a
 * rollback undoes a transaction's spills and takes, a spilled error that has
 * leaked out is pruned (a record of n errors n leak times after it), and a
 * rebuild forgets the spill. With the temporary storage full, the spill gives
 * way to bucket rows and nothing is lost. A first record of several errors
 * that cannot cross alone is held with them.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "db/db_actions.h"
#include "db/db_internal.h"
#include "lib/config.h"
#include "rasd/actions_internal.h"
#include "spill_fixture.h"
#include "tap.h"
#include "test_util.h"

#define SEC 1000000000LL
#define MS 1000000LL
#define PAGES 3000
#define HELD 300
#define FULL_PAGES 30000

static char dbpath[600];

/* Counts each page's error at t0 + i ms (none leaks out meanwhile), in one transaction committed. */
static int count_pages(struct ras_actions *a, struct ras_db *db, unsigned from, unsigned to,
		       int64_t t0)
{
	int bad = 0;

	if (ras_db_begin(db) < 0)
		return -1;
	for (unsigned i = from; i < to; i++) {
		struct ras_subject s = page(i);

		bad += actions_count_errors(a, &s, t0 + (int64_t)i * MS, COUNT_LIVE) != NULL;
	}
	if (ras_actions_flush(a) < 0 || ras_db_commit(db) < 0)
		return -1;
	ras_actions_committed(a);
	return bad;
}

/* The page's bucket as "level total", or "none". */
static void bucket_of(unsigned i, char *out, size_t len)
{
	char sql[200];
	int64_t level, total;

	snprintf(sql, sizeof(sql), "SELECT level FROM buckets WHERE kind = 'page' AND subject = '%s'",
		 page(i).key);
	level = test_sql_int(dbpath, sql);
	snprintf(sql, sizeof(sql), "SELECT total FROM buckets WHERE kind = 'page' AND subject = '%s'",
		 page(i).key);
	total = test_sql_int(dbpath, sql);
	if (level < 0)
		snprintf(out, len, "none");
	else
		snprintf(out, len, "%lld %lld", (long long)level, (long long)total);
}

static void test_spill(struct ras_actions *a, struct ras_db *db, int64_t t0)
{
	struct ras_subject s = page(PAGES - 1);
	char buf[64];

	tap_is_int(count_pages(a, db, 0, PAGES, t0), 0, "3,000 fresh pages, one error each: none crosses");
	tap_ok(ras_once_seen_count(a->once) < 1024, "memory holds under 1,024 of them (%zu)",
	       ras_once_seen_count(a->once));
	tap_is_int(spill_held(a), PAGES,
		   "the rest are spilled: memory and spill hold every page once");
	tap_is_int(test_sql_int(dbpath, "SELECT count(*) FROM buckets"), 0, "no bucket row for a page seen once");
	/* The last page is surely spilled: memory was full long before it. */
	ras_db_begin(db);
	actions_count_errors(a, &s, t0 + (PAGES + 1) * MS, COUNT_LIVE);
	tap_is_int(spilled(a), PAGES - (int)ras_once_seen_count(a->once) - 1,
		   "a second error takes the page out of the spill");
	/* Rolled back: the take is undone with the transaction. */
	ras_db_rollback(db);
	ras_actions_rolled_back(a);
	tap_is_int(spill_held(a), PAGES,
		   "a rollback puts the spilled page back");
	ras_db_begin(db);
	actions_count_errors(a, &s, t0 + (PAGES + 1) * MS, COUNT_LIVE);
	ras_actions_flush(a);
	ras_db_commit(db);
	ras_actions_committed(a);
	bucket_of(PAGES - 1, buf, sizeof(buf));
	tap_is_str(buf, "2 2", "the error given again counts once, with the spilled first: 2 of 2");
	tap_is_int(spilled(a), PAGES - (int)ras_once_seen_count(a->once) - 1, "and is no longer spilled");
	/* The same through a rollback for a page held in memory (the first one). */
	s = page(0);
	ras_db_begin(db);
	actions_count_errors(a, &s, t0 + (PAGES + 2) * MS, COUNT_LIVE);
	ras_db_rollback(db);
	ras_actions_rolled_back(a);
	ras_db_begin(db);
	actions_count_errors(a, &s, t0 + (PAGES + 2) * MS, COUNT_LIVE);
	ras_actions_flush(a);
	ras_db_commit(db);
	ras_actions_committed(a);
	bucket_of(0, buf, sizeof(buf));
	tap_is_str(buf, "2 2", "a page held in memory, its second error rolled back and given again: 2 of 2");
}

/* At 50/24h one error leaks out in 28.8 minutes: a page fed an hour later prunes the spill. */
static void test_prune(struct ras_actions *a, struct ras_db *db, int64_t t0)
{
	int before = spilled(a);

	ras_db_begin(db);
	ras_db_once_spill_add(a->dba, RAS_SUBJ_PAGE, 12345, t0, 1);
	ras_db_rollback(db);
	ras_actions_rolled_back(a);
	tap_is_int(spilled(a), before, "a spill made in a rolled-back transaction is gone");
	/* A record of 3 errors: 86.4 minutes to leak out. */
	ras_db_begin(db);
	ras_db_once_spill_add(a->dba, RAS_SUBJ_PAGE, 777, t0, 3);
	ras_db_commit(db);
	ras_actions_committed(a);
	a->prune_next_ns = 0;
	tap_is_int(count_pages(a, db, PAGES + 10, PAGES + 11, t0 + 3600 * SEC), 0,
		   "one more page an hour after the storm");
	tap_is_int(spilled(a), 1, "every spilled error has leaked out by then, pruned, but a record of 3");
	a->prune_next_ns = 0;
	tap_is_int(count_pages(a, db, PAGES + 11, PAGES + 12, t0 + 5185 * SEC), 0,
		   "one more page 86.4 minutes after it");
	tap_is_int(spilled(a), 0, "its 3 errors have leaked out too");
}

/* Counts n errors of subject s at t in a transaction of its own; whether they crossed. */
static bool count_subject(struct ras_actions *a, struct ras_db *db, struct ras_subject s,
			  int64_t n, int64_t t)
{
	struct entry *e;

	s.n = n;
	ras_db_begin(db);
	e = actions_count_errors(a, &s, t, COUNT_LIVE);
	ras_actions_flush(a);
	ras_db_commit(db);
	ras_actions_committed(a);
	return e != NULL;
}

static bool count_one(struct ras_actions *a, struct ras_db *db, unsigned i, int64_t n, int64_t t)
{
	return count_subject(a, db, page(i), n, t);
}

static bool count_dimm(struct ras_actions *a, struct ras_db *db, int64_t n, int64_t t)
{
	struct ras_subject s = { .kind = RAS_SUBJ_DIMM, .cpu = -1, .key = "mc0 0:1:-1" };

	return count_subject(a, db, s, n, t);
}

/*
 * More errors than the once-seen memory holds per entry (63): a DIMM's 70
 * against 100/24h go to the spill with their count, and are replayed whole.
 */
static void test_errors_past_memory(struct ras_actions *a, struct ras_db *db, int64_t t)
{
	const char *total = "SELECT total FROM buckets WHERE kind = 'dimm' AND subject = 'mc0 0:1:-1'";
	int before = spilled(a);

	tap_is_int(ras_once_seen_add(a->once, RAS_SUBJ_DIMM, 77, t, RAS_ONCE_SEEN_MAX_N + 1, t),
		   -ENOSPC, "the once-seen memory refuses 64 errors in one entry");
	tap_ok(!count_dimm(a, db, 70, t), "a DIMM's first record of 70 errors against 100/24h does not cross");
	tap_is_int(test_sql_int(dbpath, total), -1, "it is held without a bucket row");
	tap_is_int(spilled(a), before + 1, "in the spill, past what memory holds per entry");
	tap_ok(count_dimm(a, db, 40, t + SEC), "40 more a second later cross");
	tap_is_int(test_sql_int(dbpath, total), 110, "its bucket holds both records' 110 errors");
}

/* A first record of several errors (an mc_event's error_count) that cannot cross alone is held with them. */
static void test_errors(struct ras_actions *a, struct ras_db *db, int64_t t)
{
	char buf[64];

	tap_ok(!count_one(a, db, 100 * PAGES, 30, t), "a first record of 30 errors against 50/24h does not cross");
	bucket_of(100 * PAGES, buf, sizeof(buf));
	tap_is_str(buf, "none", "it is held without a bucket row");
	tap_ok(count_one(a, db, 100 * PAGES, 25, t + SEC), "25 more a second later cross");
	bucket_of(100 * PAGES, buf, sizeof(buf));
	tap_is_str(buf, "55 55", "its bucket holds both records' errors: 55 of 55");
	tap_ok(count_one(a, db, 100 * PAGES + 1, 50, t + 2 * SEC), "a first record of 50 errors crosses at once");
	bucket_of(100 * PAGES + 1, buf, sizeof(buf));
	tap_is_str(buf, "50 50", "with a bucket row");
}

static void test_rebuild_forgets(struct ras_actions *a, struct ras_db *db, int64_t t0)
{
	tap_is_int(count_pages(a, db, 2 * PAGES, 3 * PAGES, t0 + 3601 * SEC), 0, "another 3,000 fresh pages");
	tap_ok(spilled(a) > 0, "spilled again (%d)", spilled(a));
	tap_ok(ras_actions_rebuild(a, db) >= 0, "a rebuild from the stored records (none here)");
	tap_is_int(spilled(a), 0, "forgets the spill, as it forgets the memory");
}

/* Counts FULL_PAGES fresh pages in the open transaction; how many crossed. */
static int count_full_pages(struct ras_actions *a, int64_t t0)
{
	int crossed = 0;

	for (unsigned i = 0; i < FULL_PAGES; i++) {
		struct ras_subject s = page(4 * PAGES + i);

		crossed += actions_count_errors(a, &s, t0 + (int64_t)i * MS, COUNT_LIVE) != NULL;
	}
	return crossed;
}

/*
 * The temporary storage full (temp.max_page_count: SQLite's own "database or
 * disk is full"), as rasd's pipeline meets it: SQLite rolls the whole
 * transaction back, so the flush fails and the batch is rolled back and given
 * again; the spill is given up by then, the pages get bucket rows, and every
 * page is counted once.
 */
static void test_spill_full(struct ras_actions *a, struct ras_db *db, int64_t t0)
{
	char sql[80];
	int64_t pages = 0;
	int r, held;

	ras_db_int(db, "PRAGMA temp.page_count", &pages);
	snprintf(sql, sizeof(sql), "PRAGMA temp.max_page_count = %lld", (long long)pages);
	ras_db_exec(db, sql);
	ras_db_begin(db);
	tap_is_int(count_full_pages(a, t0), 0, "30,000 more fresh pages, the temporary storage kept at its size");
	r = ras_actions_flush(a);
	tap_ok(r < 0, "SQLite rolled the transaction back in the spill: the flush fails (%d)", r);
	ras_db_rollback(db);
	ras_actions_rolled_back(a);
	ras_db_begin(db);
	tap_is_int(count_full_pages(a, t0), 0, "the batch given again");
	tap_is_int(ras_actions_flush(a), 0, "the flush succeeds without the spill");
	tap_is_int(ras_db_commit(db), 0, "and the batch commits");
	ras_actions_committed(a);
	held = spill_held(a);
	tap_is_int(held + (int)test_sql_int(dbpath, "SELECT count(*) FROM buckets WHERE total = 1"),
		   FULL_PAGES, "memory and spill hold %d, the rest have bucket rows: each page counted once",
		   held);
}

/*
 * Idle after a storm (ras_actions_trim): subjects seen once are forgotten only
 * once their errors leaked out in the records' time line, the newest record's
 * time plus the time since the last commit; then the memory goes back.
 */
static void test_trim(struct ras_actions *a, struct ras_db *db, int64_t t0)
{
	tap_is_int(count_pages(a, db, 200 * PAGES, 200 * PAGES + 10, t0), 0, "10 fresh pages, committed");
	a->trim_next_ns = 0;
	ras_actions_trim(a);
	tap_ok(ras_once_seen_count(a->once) >= 10, "idle at once: each is still held (%zu held)",
	       ras_once_seen_count(a->once));
	a->committed_mono_ns -= 1740 * SEC;   /* 29 minutes idle: one error leaks in 28.8 */
	a->trim_next_ns = 0;
	ras_actions_trim(a);
	tap_ok(ras_once_seen_count(a->once) >= 10, "29 minutes on, still held: a minute's margin");
	a->committed_mono_ns -= 60 * SEC;
	a->trim_next_ns = 0;
	ras_actions_trim(a);
	tap_ok(ras_once_seen_count(a->once) == 0 && ras_once_seen_bytes(a->once) == 0,
	       "30 minutes on, leaked out: forgotten, and the memory given back");
}

int main(void)
{
	struct rasd_config cfg;
	struct ras_actions *a = NULL;
	struct ras_db *db = NULL;
	char dir[512], err[256];
	int64_t t0 = (int64_t)1000000000 * SEC;

	if (test_tmpdir(dir, sizeof(dir)) < 0) {
		tap_ok(0, "a temporary directory");
		return tap_done();
	}
	snprintf(dbpath, sizeof(dbpath), "%s/spill.db", dir);
	rasd_config_defaults(&cfg);
	snprintf(cfg.page_ce_action, sizeof(cfg.page_ce_action), "account");
	if (!tap_ok(ras_db_open_writer(&db, dbpath, "boot-spill", err, sizeof(err)) == 0 &&
		    ras_actions_open(&a, &cfg, db, NULL) == 0, "database and actions open (%s)", err))
		return tap_done();
	/* A few hundred held in memory instead of half a million. */
	ras_once_seen_free(a->once);
	if (!tap_ok(ras_once_seen_new(&a->once, HELD) == 0, "a once-seen set for %d", HELD))
		return tap_done();
	for (int k = 0; k < RAS_SUBJ_KINDS; k++)
		ras_once_seen_set_leak(a->once, (unsigned)k, actions_once_leak_ns(&a->th[k]));
	test_spill(a, db, t0);
	test_prune(a, db, t0);
	test_rebuild_forgets(a, db, t0);
	test_errors_past_memory(a, db, t0 + 7100 * SEC);
	test_spill_full(a, db, t0 + 7200 * SEC);
	test_errors(a, db, t0 + 9000 * SEC);
	test_trim(a, db, t0 + 20000 * SEC);
	ras_actions_close(a);
	ras_db_close(db);
	test_rmtree(dir);
	return tap_done();
}
