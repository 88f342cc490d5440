/* SPDX-License-Identifier: MIT */
/*
 * New keys' folds rows failing part-way (db/db_fold_write.c news_flush): the
 * folds rows of keys a commit's batch writes first are inserted
 * RAS_DB_ROWS_PER_INSERT at a time, in one statement each. A stream of 40
 * DIMMs' mc_event records, each DIMM storming in every batch (six records an
 * hour over a threshold of three), one batch an hour, each DIMM's error count
 * its own, so that each batch's commit inserts one new folds row a DIMM: 16,
 * 16 and 8 to an INSERT.
 * It is stored twice: once as it is, once with a trigger that refuses batch
 * 1's 20th new folds row (the 4th of its second 16-row INSERT; which row that
 * is, the database that did not fail says: its rows of the hour, by id). The
 * commit fails as a storage failure (-EIO, with the trigger's words), nothing
 * of batch 1 is kept (no raw row, no folds row, no growth row), the database
 * is whole, and batch 1 given again once the trigger is dropped (from another
 * connection, the writer kept open) commits: the database is then the one
 * that never failed, key by key and row by row. Inline and with the writer
 * thread (folding's flush a job before the COMMIT).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "db/db.h"
#include "db/db_internal.h"
#include "fold_fail_fixture.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define DIMMS 40
#define PER_DIMM 6
#define BATCH (DIMMS * PER_DIMM)
#define BATCHES 4
/* Batch 1's new folds row refused: the 4th of its second INSERT of RAS_DB_ROWS_PER_INSERT rows. */
#define POISON_NTH 20

/* An hour's start, and a minute and a bit: fixed, so nothing depends on the clock. */
#define T0 ((472223LL * 3600 + 60) * SEC + 123457)

static char dir[256];
static const struct ras_db_limits limits = {
	.fold_threshold = 3, .fold_period_ns = HOUR, .fold_keep = 1, .page_size = 4096,
};

/* Record j of batch b (i = b * BATCH + j): DIMM i % DIMMS, in hour b, one a second. */
static int insert(struct ras_db *db, const void *ctx, unsigned b, unsigned j)
{
	unsigned i = b * BATCH + j;

	(void)ctx;
	return insert_dimm_record(db, i % DIMMS, i, T0 + (int64_t)b * HOUR + (int64_t)j * SEC, &limits);
}

static const struct batches stream = { .insert = insert, .n = BATCHES, .size = BATCH };

/* What a database holds that batch 1's failure must leave as it was. */
struct counts {
	int64_t raw, folds, growth, seq;
};

static struct counts counts_of(const char *path)
{
	return (struct counts){
		.raw = test_sql_int(path, "SELECT count(*) FROM mc_event"),
		.folds = test_sql_int(path, "SELECT count(*) FROM folds"),
		.growth = test_sql_int(path, "SELECT count(*) FROM fold_growth"),
		.seq = test_sql_int(path, "SELECT coalesce(max(seq), 0) FROM fold_growth"),
	};
}

/* The subject of the nth folds row of hour in path, by id (the order its INSERTs gave them): 0 or -1. */
static int nth_subject(const char *path, int64_t hour, int nth, char *out, size_t len)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "SELECT subject FROM folds WHERE hour = %lld ORDER BY id LIMIT 1 OFFSET %d",
		 (long long)hour, nth - 1);
	sql_text(path, sql, out, len);
	return *out ? 0 : -1;
}

/* Batch 1's commit refused on its POISON_NTH-th new folds row (subject as ref names it), then stored. */
static int store_refused(const char *path, const char *ref, bool behind)
{
	char sql[512], how[600];
	struct ras_db *db = open_db(path, behind);
	struct counts before, after;
	struct trace_seen seen;
	int64_t hour = (T0 + HOUR) / HOUR;
	char subject[128] = "";
	int r;

	snprintf(how, sizeof(how), "%s (%s)", path, behind ? "writer thread" : "inline");
	if (!db)
		return -1;
	tap_is_int(store_batch(db, &stream, 0), 0, "%s: batch 0 committed", how);
	/* The row refused: batch 1's POISON_NTH-th new folds row where nothing failed (ids in INSERT order). */
	tap_ok(nth_subject(ref, hour, POISON_NTH, subject, sizeof(subject)) == 0,
	       "%s: batch 1's new folds row %d is %s's", how, POISON_NTH, subject);
	snprintf(sql, sizeof(sql), "BEFORE INSERT ON folds WHEN NEW.hour = %lld AND NEW.subject = '%s'",
		 (long long)hour, subject);
	tap_is_int(poison_make(path, sql, "poisoned folds row"), 0, "%s: the trigger made", how);
	before = counts_of(path);
	trace_start(db, "INSERT INTO folds (");
	r = store_batch(db, &stream, 1);
	seen = traced();
	trace_stop(db);
	tap_ok(r == -EIO && strstr(ras_db_errmsg(db), "poisoned folds row"),
	       "%s: batch 1's commit fails as a storage failure on the new folds row refused (%d): %s", how, r,
	       ras_db_errmsg(db));
	tap_ok(seen.inserts == 2 && seen.last_rows == RAS_DB_ROWS_PER_INSERT,
	       "%s: refused in the second folds INSERT, of %u rows (%u INSERTs, the last of %u rows)", how,
	       RAS_DB_ROWS_PER_INSERT, seen.inserts, seen.last_rows);
	tap_is_int(seen.tried, POISON_NTH,
		   "%s: the refused row the %dth tried (%u of the first INSERT, %d of the second)", how,
		   POISON_NTH, RAS_DB_ROWS_PER_INSERT, POISON_NTH - (int)RAS_DB_ROWS_PER_INSERT);
	ras_db_rollback(db);
	after = counts_of(path);
	tap_ok(after.raw == before.raw && after.folds == before.folds && after.growth == before.growth &&
	       after.seq == before.seq,
	       "%s: nothing of batch 1 kept: %lld raw, %lld folds, %lld growth rows (%lld, %lld, %lld before)",
	       how, (long long)after.raw, (long long)after.folds, (long long)after.growth,
	       (long long)before.raw, (long long)before.folds, (long long)before.growth);
	snprintf(sql, sizeof(sql), "SELECT (SELECT count(*) FROM mc_event WHERE trace_ts >= %d) +"
		 " (SELECT count(*) FROM folds WHERE hour >= %lld)", BATCH, (long long)hour);
	tap_is_int(test_sql_int(path, sql), 0, "%s: no raw row and no folds row of batch 1", how);
	tap_is_int(integrity_ok(path), 1, "%s: integrity_check ok", how);
	/* Dropped from another connection: the writer goes on without a restart. */
	tap_is_int(poison_drop(path), 0, "%s: the trigger dropped", how);
	r = store_from(db, &stream, 1);
	ras_db_close(db);
	return r;
}

/*
 * (DIMM, error count, hour) keys whose records or errors, raw plus folded,
 * differ between the failed database and the reference (attached as p).
 */
static int64_t differing_keys(const char *failed, const char *ref)
{
	static const char sql[] =
		"WITH f(db, mc, l, c, h, n, e) AS ("
		"  SELECT 'm', mc_index, top_layer, error_count, wall_ns / 3600000000000, count(*),"
		"         sum(error_count) FROM main.mc_event GROUP BY 2, 3, 4, 5 UNION ALL"
		"  SELECT 'm', json_extract(ekey, '$[0]'), json_extract(ekey, '$[1]'), json_extract(ekey, '$[5]'),"
		"         hour, sum(records), sum(errors) FROM main.folds GROUP BY 2, 3, 4, 5 UNION ALL"
		"  SELECT 'p', mc_index, top_layer, error_count, wall_ns / 3600000000000, count(*),"
		"         sum(error_count) FROM p.mc_event GROUP BY 2, 3, 4, 5 UNION ALL"
		"  SELECT 'p', json_extract(ekey, '$[0]'), json_extract(ekey, '$[1]'), json_extract(ekey, '$[5]'),"
		"         hour, sum(records), sum(errors) FROM p.folds GROUP BY 2, 3, 4, 5),"
		" a AS (SELECT mc, l, c, h, sum(n), sum(e) FROM f WHERE db = 'm' GROUP BY 1, 2, 3, 4),"
		" b AS (SELECT mc, l, c, h, sum(n), sum(e) FROM f WHERE db = 'p' GROUP BY 1, 2, 3, 4)"
		" SELECT (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b))"
		"      + (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a))";

	return test_sql_int_with(failed, ref, sql);
}

static void compare(const char *failed, const char *ref, const char *how)
{
	static const char *const tables[] = {
		"mc_event", "mc_event_dec", "folds", "fold_growth", "rollup_hourly", "rollup_totals",
		"rollup_edac", "rollup_subjects",
	};

	tap_is_int(raw_plus_folded(failed), BATCH * BATCHES,
		   "%s: raw rows and folded records add up to every record", how);
	tap_is_int(differing_keys(failed, ref), 0,
		   "%s: every key's records and errors, raw plus folded, as without the failure", how);
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		tap_is_int(differing(failed, ref, tables[t]), 0, "%s: %s the same as without the failure",
			   how, tables[t]);
}

static void check(bool behind)
{
	char ref[512], failed[512], sql[256];
	const char *how = behind ? "writer thread" : "inline";

	snprintf(ref, sizeof(ref), "%s/ref-%d.db", dir, behind);
	snprintf(failed, sizeof(failed), "%s/failed-%d.db", dir, behind);
	tap_is_int(store_db(ref, behind, &stream), 0, "%s: %d batches stored", ref, BATCHES);
	for (unsigned b = 0; b < BATCHES; b++) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM folds WHERE hour = %lld",
			 (long long)((T0 + b * HOUR) / HOUR));
		tap_is_int(test_sql_int(ref, sql), DIMMS, "%s: batch %u inserted a new folds row a DIMM", ref, b);
	}
	tap_is_int(store_refused(failed, ref, behind), 0, "%s: batch 1 given again, and the rest, stored", failed);
	compare(failed, ref, how);
}

int main(void)
{
	char a[512], b[512];

	test_tmpdir(dir, sizeof(dir));
	check(false);
	check(true);
	snprintf(a, sizeof(a), "%s/ref-0.db", dir);
	snprintf(b, sizeof(b), "%s/ref-1.db", dir);
	compare(b, a, "the writer thread against inline");
	test_rmtree(dir);
	return tap_done();
}
