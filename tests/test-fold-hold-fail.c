/* SPDX-License-Identifier: MIT */
/*
 * Held records stored at commit fail part-way (db/db_fold_hold.c): the
 * records still held at a commit are inserted RAS_DB_ROWS_PER_INSERT at a
 * time, in one statement each. A stream of four DIMMs' mc_event records, 60
 * a batch (their first fold_keep of the hour stored at once, the rest held
 * until the threshold: every record of batch 1 is held at its commit), is
 * stored twice: once as it is, once with a trigger that refuses one record
 * of batch 1, the 4th of the third 16-row INSERT of its commit (two
 * statements have inserted their 32 rows by then, the third 3). The commit
 * fails with the trigger's words, nothing of batch 1 is kept, and batch 1
 * given again once the trigger is dropped (from another connection, the
 * writer kept open) commits: every record is then counted once, raw or
 * folded, and the roll-ups are those stored without the failure. The same
 * with the writer thread, where folding's flush is a job before the COMMIT.
 *
 * Then a record not held refused: batch 0's 12 first fold_keep records are
 * stored, not held; the writer thread gathers them into INSERTs of 8 and 4
 * rows (db_fold_hold.c, ras_db_hold_insert_packed), inline each goes alone.
 * The 6th is refused mid-statement: the commit fails, nothing of batch 0 is
 * kept, and the batch given again is the database that never failed.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "db/db.h"
#include "fold_fail_fixture.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define BATCH 60
#define BATCHES 12
/* Record 95 (its trace_ts): batch 1's 36th, all 60 held at its commit, 16 to an INSERT. */
#define POISON 95
/* Record 5: the 6th of batch 0's first fold_keep per DIMM, stored not held. */
#define POISON_UNHELD 5

static char dir[256];
/* A fixed start on the hour, as the sibling tests': no record crosses an hour. */
#define T0 ((472223LL * 3600 + 60) * SEC + 123457)
static const struct ras_db_limits limits = {
	.fold_threshold = 100, .fold_period_ns = HOUR, .fold_keep = 3, .page_size = 4096,
};

/* Record j of batch b, i = b * BATCH + j: DIMM_A(i % 4), one a second, its own address. */
static int insert(struct ras_db *db, const void *ctx, unsigned b, unsigned j)
{
	unsigned i = b * BATCH + j;
	char label[32];
	struct test_mc_rec r = {
		.error_count = 1 + i % 3, .top_layer = i % 4, .syndrome = i % 5, .label = label,
	};

	(void)ctx;
	snprintf(label, sizeof(label), "DIMM_A%u", i % 4);
	return insert_record(db, r, i, T0 + (int64_t)i * SEC, &limits);
}

static const struct batches stream = { .insert = insert, .n = BATCHES, .size = BATCH };

/* path's writer opened again once the schema is made and a trigger refuses record poison. */
static struct ras_db *open_poisoned(const char *path, bool behind, unsigned poison)
{
	struct ras_db *db = open_db(path, behind);
	char when[128];

	if (!db)
		return NULL;
	ras_db_close(db);
	snprintf(when, sizeof(when), "BEFORE INSERT ON mc_event WHEN NEW.trace_ts = %u", poison);
	poison_make(path, when, "poisoned record");
	return open_db(path, behind);
}

/* The stream stored in path, batch 1's commit refused once on held record POISON. */
static int store_refused(const char *path, bool behind)
{
	struct ras_db *db = open_poisoned(path, behind, POISON);
	char sql[256];
	int64_t before;
	int r;

	if (!db)
		return -1;
	tap_is_int(store_batch(db, &stream, 0), 0, "%s: batch 0 committed", path);
	before = test_sql_int(path, "SELECT count(*) FROM mc_event");
	r = store_batch(db, &stream, 1);
	tap_ok(r < 0 && strstr(ras_db_errmsg(db), "poisoned record"),
	       "%s: batch 1's commit fails on the held record refused: %s", path, ras_db_errmsg(db));
	ras_db_rollback(db);
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM mc_event"), before,
		   "%s: nothing of batch 1 kept (%lld rows of batch 0)", path, (long long)before);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM mc_event WHERE trace_ts >= %d", BATCH);
	tap_is_int(test_sql_int(path, sql), 0, "%s: none of batch 1's held records either", path);
	/* Dropped from another connection: the writer goes on without a restart (which starts folding's counts again). */
	tap_is_int(poison_drop(path), 0, "%s: the trigger dropped", path);
	r = store_from(db, &stream, 1);
	ras_db_close(db);
	return r;
}

/* The stream stored in path, batch 0's commit refused once on record POISON_UNHELD (not held). */
static int store_unheld_refused(const char *path, bool behind)
{
	struct ras_db *db = open_poisoned(path, behind, POISON_UNHELD);
	int r;

	if (!db)
		return -1;
	watch_inserts(db, "mc_event");
	r = store_batch(db, &stream, 0);
	tap_ok(r < 0 && strstr(ras_db_errmsg(db), "poisoned record"),
	       "%s: batch 0's commit fails on a record not held refused: %s", path, ras_db_errmsg(db));
	tap_is_int(watched_rows(), behind ? 8 : 1,
		   "%s: refused in an INSERT of %u rows", path, behind ? 8 : 1);
	ras_db_rollback(db);
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM mc_event"), 0, "%s: nothing of batch 0 kept", path);
	tap_is_int(poison_drop(path), 0, "%s: the trigger dropped", path);
	r = store_from(db, &stream, 0);
	ras_db_close(db);
	return r;
}

/*
 * The failed database against the reference. A rollback gives folding's
 * counts of the transaction back as a restart does (as before held rows were
 * stored 16 to an INSERT): the subjects keep their first fold_keep raw again,
 * so the storm may fold a batch later. Every record is still counted once,
 * every error, and the roll-ups and decodings are the same.
 */
static void compare(const char *failed, const char *ref, const char *how)
{
	static const char *const tables[] = {
		"mc_event_dec", "rollup_hourly", "rollup_totals", "rollup_edac", "rollup_subjects",
	};

	tap_is_int(raw_plus_folded(failed), BATCH * BATCHES,
		   "%s: raw rows and folded records add up to every record", how);
	tap_is_int(test_sql_int_with(failed, ref, "SELECT (SELECT sum(error_count) FROM main.mc_event) + (SELECT"
				     " sum(errors) FROM main.folds) - (SELECT sum(error_count) FROM p.mc_event) -"
				     " (SELECT sum(errors) FROM p.folds)"), 0,
		   "%s: and to every error", how);
	tap_is_int(test_sql_int_with(failed, ref, "SELECT count(*) FROM (SELECT * FROM main.mc_event WHERE id IN"
				     " (SELECT id FROM p.mc_event) EXCEPT SELECT * FROM p.mc_event)"), 0,
		   "%s: a raw row of both is the same row, id included", how);
	tap_is_int(test_sql_int(failed, "SELECT count(*) FROM (SELECT trace_ts FROM mc_event GROUP BY"
				" trace_ts HAVING count(*) > 1)"), 0, "%s: no record twice", how);
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		tap_is_int(differing(failed, ref, tables[t]), 0, "%s: %s the same as without the failure",
			   how, tables[t]);
}

static void check(bool behind)
{
	char ref[512], failed[512];

	snprintf(ref, sizeof(ref), "%s/ref-%d.db", dir, behind);
	snprintf(failed, sizeof(failed), "%s/failed-%d.db", dir, behind);
	tap_is_int(store_db(ref, behind, &stream), 0, "%s: %d batches stored", ref, BATCHES);
	tap_is_int(store_refused(failed, behind), 0, "%s: batch 1 given again, and the rest, stored", failed);
	tap_ok(test_sql_int(ref, "SELECT sum(records) FROM folds") > 0 &&
	       test_sql_int(failed, "SELECT sum(records) FROM folds") > 0,
	       "the storm folded: %lld raw rows and %lld folded without the failure, %lld and %lld with it",
	       (long long)test_sql_int(ref, "SELECT count(*) FROM mc_event"),
	       (long long)test_sql_int(ref, "SELECT sum(records) FROM folds"),
	       (long long)test_sql_int(failed, "SELECT count(*) FROM mc_event"),
	       (long long)test_sql_int(failed, "SELECT sum(records) FROM folds"));
	compare(failed, ref, behind ? "writer thread" : "inline");
	snprintf(failed, sizeof(failed), "%s/unheld-%d.db", dir, behind);
	tap_is_int(store_unheld_refused(failed, behind), 0, "%s: batch 0 given again, and the rest, stored", failed);
	compare(failed, ref, behind ? "writer thread, a record not held refused" : "inline, a record not held refused");
}

int main(void)
{
	test_tmpdir(dir, sizeof(dir));
	check(false);
	check(true);
	test_rmtree(dir);
	return tap_done();
}
