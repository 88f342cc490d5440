/* SPDX-License-Identifier: MIT */
/*
 * Threshold buckets read back without waiting for the writer thread (issue
 * 39; rasd/bucket_unconfirmed.h, rasd/actions_bucket.c). The set of buckets
 * written since the last confirmed commit on its own: the last write of a
 * subject wins, a confirmed commit drops only what it holds, a change it
 * cannot follow makes it say so. Then in rasd's actions with a writer thread
 * held inside a job (a wait for it, ras_db_sync, would never return while it
 * is held): a bucket evicted from the cache and read back while the commit
 * holding it is still out comes from memory; a bucket committed and
 * confirmed comes from the committed rows; neither waits (no sync, none of
 * rasd's reads on the writer's connection). A prune of committed rows in
 * the open transaction, which the set cannot follow, sends a miss to the
 * writer's connection until that commit is confirmed. And a stream counted in
 * batches committed behind, one batch rolled back while evicted buckets are
 * pending and given again, ends with the same buckets and crossings as the
 * stream counted without a writer thread.
 */
#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "db/db.h"
#include "db/db_actions.h"
#include "db/db_bucket_read.h"
#include "db/db_internal.h"
#include "db/db_writer_internal.h"
#include "lib/config.h"
#include "rasd/actions_internal.h"
#include "rasd/bucket_unconfirmed.h"
#include "spill_fixture.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define SEC 1000000000LL
#define MS 1000000LL
/* Subjects the cache holds before it is flushed and emptied (rasd/actions.c's lookup). */
#define FILL (CACHE_SLOTS * 3 / 4)

static char dir[512];
static const int64_t t0 = (int64_t)1000000000 * SEC;

static struct ras_db_bucket bk(int64_t level, int64_t last_ns, int64_t total)
{
	return (struct ras_db_bucket){ level, last_ns, total };
}

static void test_set(void)
{
	struct rasd_unconfirmed *u = NULL;
	struct ras_db_bucket b = { 0 }, x = bk(1, 10, 1);
	uint64_t m;
	char key[32];
	int found = 0;

	if (!tap_ok(rasd_unconfirmed_new(&u) == 0, "a set"))
		return;
	rasd_unconfirmed_put(u, 0, "a", &x);
	x = bk(7, 70, 7);
	rasd_unconfirmed_put(u, 0, "b", &x);
	x = bk(2, 20, 2);
	rasd_unconfirmed_put(u, 0, "a", &x);
	tap_ok(rasd_unconfirmed_get(u, 0, "a", &b) == 1 && b.level == 2 && b.total == 2,
	       "a subject written twice: its last write");
	tap_is_int(rasd_unconfirmed_get(u, 1, "a", &b), 0, "the same key of another kind: not written");
	m = rasd_unconfirmed_mark(u);
	x = bk(3, 30, 3);
	rasd_unconfirmed_put(u, 0, "c", &x);
	rasd_unconfirmed_confirmed_to(u, m);
	tap_is_int(rasd_unconfirmed_get(u, 0, "a", &b), 0, "its commit confirmed: read from the committed rows");
	tap_ok(rasd_unconfirmed_get(u, 0, "c", &b) == 1 && b.total == 3, "a write after the mark is kept");
	rasd_unconfirmed_unknown(u);
	tap_is_int(rasd_unconfirmed_get(u, 0, "zz", &b), -EAGAIN, "a change not followed: cannot tell");
	m = rasd_unconfirmed_mark(u);
	x = bk(4, 40, 4);
	rasd_unconfirmed_put(u, 0, "d", &x);
	rasd_unconfirmed_confirmed_to(u, m);
	tap_is_int(rasd_unconfirmed_get(u, 0, "zz", &b), 0, "its commit confirmed: it can again");
	tap_is_int((int)rasd_unconfirmed_count(u), 1, "one write kept");
	for (int i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "0x%x", i);
		x = bk(i, i, i);
		rasd_unconfirmed_put(u, 2, key, &x);
	}
	for (int i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "0x%x", i);
		found += rasd_unconfirmed_get(u, 2, key, &b) == 1 && b.total == i;
	}
	tap_is_int(found, 20000, "20,000 subjects written, each found");
	rasd_unconfirmed_clear(u);
	tap_ok(rasd_unconfirmed_count(u) == 0 && rasd_unconfirmed_get(u, 0, "d", &b) == 0,
	       "cleared (a commit made at once, or a rollback): nothing kept");
	{
		char long_key[200];

		memset(long_key, 'k', sizeof(long_key) - 1);
		long_key[sizeof(long_key) - 1] = '\0';
		x = bk(5, 50, 5);
		rasd_unconfirmed_put(u, 0, long_key, &x);
		tap_is_int(rasd_unconfirmed_get(u, 0, long_key, &b), -EAGAIN,
			   "a key longer than a slot: not kept cut, cannot tell");
		rasd_unconfirmed_clear(u);
	}
	rasd_unconfirmed_free(u);
}

/* ---- rasd's actions on a database, committed as the pipeline does ---- */

/* Pages at 5/24h, accounted; with behind, a writer thread. */
static int open_all(const char *name, struct rasd_config *cfg, bool behind, struct ras_db **db,
		    struct ras_actions **a)
{
	return spill_open_actions(dir, name, "boot-unconfirmed", "5/24h", behind, cfg, db, a);
}

/* Page i's error at ms; the bucket when it crossed (emptied, as rasd does). */
static struct entry *count(struct ras_actions *a, unsigned i, int64_t ms)
{
	return spill_count(a, i, t0 + ms * MS);
}

/* Pages from..from+FILL, two errors each, and one more page: the cache is flushed and emptied. */
static void fill_cache(struct ras_actions *a, unsigned from, int64_t ms)
{
	for (unsigned i = from; i <= from + FILL; i++) {
		count(a, i, ms);
		count(a, i, ms + 1);
	}
}

static bool cached(struct ras_actions *a, unsigned i)
{
	struct ras_subject s = page(i);
	struct entry *e = actions_slot_for(a, s.kind, s.key);

	return e && e->used;
}

/* Page 5 counted again while the writer thread is held (hold_start before): no wait, no sync read. */
static struct entry *count_held(struct ras_actions *a, struct ras_db *db, int64_t ms, const char *what)
{
	unsigned long waits = db->sync_waits, syncs = a->bucket_syncs;
	struct entry *e;

	tap_ok(!cached(a, 5), "%s: page 5 is not in the cache", what);
	count(a, 5, ms);
	e = actions_slot_for(a, RAS_SUBJ_PAGE, page(5).key);
	tap_ok(writer_hold_release(), "%s: page 5 counted while the writer thread was held", what);
	tap_is_int((long)(db->sync_waits - waits), 0, "%s: no wait for the writer thread", what);
	tap_is_int((long)(a->bucket_syncs - syncs), 0, "%s: no read on the writer's connection", what);
	return e && e->used ? e : NULL;
}

/* Evicted while its commit is out: from memory. */
static void evicted_unconfirmed(struct ras_actions *a, struct ras_db *db, struct spill_behind *b)
{
	unsigned long reads;
	struct entry *e;

	count(a, 5, 0);
	count(a, 5, 1);
	fill_cache(a, 100, 10);
	/* The flush that evicted page 5 and the commit go behind the held job: none of it runs. */
	if (!tap_ok(writer_hold_start(db) == 0, "the writer thread is held inside a job"))
		return;
	tap_ok(spill_commit_behind(a, db, b) == 0 && b->ticket, "the batch's commit is handed over, not made");
	tap_ok(spill_begin(db) == 0, "the next transaction");
	reads = ras_db_bucket_reader_reads(a->reader);
	e = count_held(a, db, 20000, "evicted, its commit out");
	tap_ok(e && e->b.level == 3 && e->total == 3, "its bucket from memory: 3 errors (%lld, %lld)",
	       e ? (long long)e->b.level : -1, e ? (long long)e->total : -1);
	tap_is_int((long)(ras_db_bucket_reader_reads(a->reader) - reads), 0, "no read of the committed rows");
	tap_ok(spill_settle(a, db, b) == 0, "the commit behind is made and confirmed");
	tap_ok(spill_commit_behind(a, db, b) == 0 && spill_settle(a, db, b) == 0, "the next one is made too");
	tap_is_int((int)rasd_unconfirmed_count(a->written), 0, "nothing kept once confirmed");
}

static void test_no_wait(void)
{
	struct rasd_config cfg;
	struct ras_actions *a = NULL;
	struct ras_db *db = NULL;
	struct spill_behind b = { 0 };
	unsigned long reads;
	struct entry *e;

	if (!tap_ok(open_all("held.db", &cfg, true, &db, &a) == 0 && spill_begin(db) == 0,
		    "a database with a writer thread"))
		return;
	evicted_unconfirmed(a, db, &b);
	/* Page 5 is clean now: the next eviction writes nothing of it. */
	tap_ok(spill_begin(db) == 0, "a third transaction");
	fill_cache(a, 10000, 30000);
	reads = ras_db_bucket_reader_reads(a->reader);
	if (!tap_ok(writer_hold_start(db) == 0, "the writer thread is held again"))
		return;
	e = count_held(a, db, 40000, "committed and confirmed");
	tap_ok(e && e->b.level == 4 && e->total == 4, "its bucket from the committed rows: 4 errors");
	tap_is_int((long)(ras_db_bucket_reader_reads(a->reader) - reads), 1, "one read of the committed rows");
	tap_ok(spill_commit_behind(a, db, &b) == 0 && spill_settle(a, db, &b) == 0, "committed");
	tap_is_int(test_sql_int(sqlite3_db_filename(db->h, "main"),
				"SELECT total FROM buckets WHERE kind = 'page' AND subject = '0x100005000'"), 4,
		   "stored: 4 errors");
	spill_close_actions(db, a);
}

/*
 * A prune in the open transaction removes committed rows the set never saw:
 * until that commit is confirmed a miss asks the writer's connection (after
 * its sync), which no longer holds the pruned row; once confirmed, no sync.
 */
static void test_pruned(void)
{
	struct rasd_config cfg;
	struct ras_actions *a = NULL;
	struct ras_db *db = NULL;
	struct spill_behind b = { 0 };
	char path[700], sql[300];
	unsigned long syncs, reads;
	struct ras_db_bucket got;

	snprintf(path, sizeof(path), "%s/pruned.db", dir);
	if (!tap_ok(open_all("pruned.db", &cfg, false, &db, &a) == 0, "a database"))
		return;
	/* Page 7: one error, ten hours before the stream: leaked out at 5/24h. */
	snprintf(sql, sizeof(sql), "INSERT INTO buckets (kind, subject, level, last_ns, total)"
		 " VALUES ('page', '0x100007000', 1, %lld, 1)", (long long)(t0 - 10 * 3600 * SEC));
	tap_ok(ras_db_exec(db, sql) == 0, "a committed bucket of one error, leaked out");
	spill_close_actions(db, a);
	if (!tap_ok(open_all("pruned.db", &cfg, true, &db, &a) == 0 && spill_begin(db) == 0,
		    "opened again with a writer thread"))
		return;
	fill_cache(a, 100, 0);
	syncs = a->bucket_syncs;
	tap_is_int(rasd_unconfirmed_get(a->written, RAS_SUBJ_PAGE, "0x100007000", &got), -EAGAIN,
		   "the eviction's flush pruned rows: the set cannot tell");
	count(a, 7, 10000);
	tap_is_int((long)(a->bucket_syncs - syncs), 1, "page 7 read on the writer's connection");
	tap_ok(spill_commit_behind(a, db, &b) == 0 && spill_settle(a, db, &b) == 0, "committed and confirmed");
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM buckets WHERE subject = '0x100007000'"), 0,
		   "page 7's old row pruned, its new error held as seen once: no row");
	tap_ok(spill_begin(db) == 0, "the next transaction");
	fill_cache(a, 10000, 20000);
	syncs = a->bucket_syncs;
	reads = ras_db_bucket_reader_reads(a->reader);
	count(a, 100, 30000);
	tap_is_int((long)(a->bucket_syncs - syncs), 0, "after the confirm, no read on the writer's connection");
	tap_is_int((long)(ras_db_bucket_reader_reads(a->reader) - reads), 1,
		   "an evicted page read from the committed rows");
	tap_ok(spill_commit_behind(a, db, &b) == 0 && spill_settle(a, db, &b) == 0, "committed");
	spill_close_actions(db, a);
}

/* ---- a batch rolled back while evicted buckets are pending ---- */

#define PAGES 8000
#define BATCH 1000
/* The first eviction of the stream's buckets is in this batch (pass 1, after 3,072 pages). */
#define FAIL_BATCH 11

/* Six passes over the pages, page i again in pass p when p + 1 divides i: page 0 crosses. */
static unsigned stream[PAGES * 3], stream_len;

static void make_stream(void)
{
	stream_len = 0;
	for (unsigned p = 0; p < 6; p++)
		for (unsigned i = 0; i < PAGES; i++)
			if (i % (p + 1) == 0)
				stream[stream_len++] = i;
}

/* Buckets kept unconfirmed when the batch was rolled back. */
static size_t pending;

static void noted(struct spill_run *r, unsigned k, bool after)
{
	(void)k;
	if (!after)
		pending = rasd_unconfirmed_count(r->a->written);
}

static void test_rollback(void)
{
	struct rasd_config cfg[2];
	struct spill_run ref = { .t0 = t0, .batch = BATCH },
		r = { .t0 = t0, .batch = BATCH, .fails = 1u << FAIL_BATCH, .noted = noted };
	char path[700];
	unsigned long reads;

	make_stream();
	if (!tap_ok(open_all("ref.db", &cfg[0], false, &ref.db, &ref.a) == 0 &&
		    spill_run_stream(&ref, stream, stream_len) == 0,
		    "the stream (%u records), no writer thread, no failure", stream_len))
		return;
	spill_close_actions(ref.db, ref.a);
	if (!tap_ok(open_all("retry.db", &cfg[1], true, &r.db, &r.a) == 0 &&
		    spill_run_stream(&r, stream, stream_len) == 0,
		    "the same stream with a writer thread, committed behind, batch %d rolled back and given again",
		    FAIL_BATCH))
		return;
	tap_ok(pending > 0, "rolled back while %zu evicted buckets were unconfirmed", pending);
	tap_is_int((long)r.a->bucket_syncs, 0, "no bucket read waited for the writer thread");
	reads = ras_db_bucket_reader_reads(r.a->reader);
	tap_ok(reads > 0, "buckets read from the committed rows (%lu)", reads);
	spill_close_actions(r.db, r.a);
	tap_ok(ref.crossed > 0, "pages cross (%d)", ref.crossed);
	tap_is_int(r.crossed, ref.crossed, "the same crossings");
	tap_is_int((int)buckets_differ(dir, "ref.db", "retry.db"), 0, "the same bucket rows, levels, times and totals");
	snprintf(path, sizeof(path), "%s/ref.db", dir);
	tap_ok(test_sql_int(path, "SELECT count(*) FROM buckets") > FILL,
	       "(bucket rows: %lld)", (long long)test_sql_int(path, "SELECT count(*) FROM buckets"));
}

int main(void)
{
	if (test_tmpdir(dir, sizeof(dir)) < 0) {
		tap_ok(0, "a temporary directory");
		return tap_done();
	}
	test_set();
	test_no_wait();
	test_pruned();
	test_rollback();
	test_rmtree(dir);
	return tap_done();
}
