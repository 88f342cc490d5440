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
#include <sqlite3.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "db/db.h"
#include "lib/decode.h"
#include "lib/event_fields.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define SEC 1000000000LL
#define HOUR (3600 * SEC)
#define BATCH 60
#define BATCHES 12
/* Record 95 (its trace_ts): batch 1's 36th, all 60 held at its commit, 16 to an INSERT. */
#define POISON 95
/* Record 5: the 6th of batch 0's first fold_keep per DIMM, stored not held. */
#define POISON_UNHELD 5

static char dir[256];
static int64_t T0;
static struct ras_decode_ctx dctx;
static const struct ras_db_limits limits = {
	.fold_threshold = 100, .fold_period_ns = HOUR, .fold_keep = 3, .page_size = 4096,
};

/* Record i: DIMM_A(i % 4), one a second, its own address. */
static int insert(struct ras_db *db, unsigned i)
{
	const struct ras_event_type *type = ras_event_type_find("mc_event");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	unsigned layer = i % 4;
	char label[32];
	int64_t ints[][2] = {
		{ MC_F_ERROR_TYPE, 0 }, { MC_F_ERROR_COUNT, 1 + i % 3 }, { MC_F_MC_INDEX, 0 },
		{ MC_F_TOP_LAYER, layer }, { MC_F_MIDDLE_LAYER, 0 }, { MC_F_LOWER_LAYER, -1 },
		{ MC_F_ADDRESS, 0x4000 + 0x40 * (int64_t)i }, { MC_F_GRAIN_BITS, 6 },
		{ MC_F_SYNDROME, i % 5 },
	};
	struct ras_db_event ev = {
		.type_idx = (unsigned)(type - ras_event_types), .wall_ns = T0 + (int64_t)i * SEC,
		.trace_ts = i, .source = "live", .rec_hash = i, .values = v, .decoded = decoded,
		.limits = &limits,
	};

	snprintf(label, sizeof(label), "DIMM_A%u", layer);
	for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
		v[ints[k][0]] = (struct ras_value){ .present = true, .i = ints[k][1] };
	v[MC_F_MSG] = (struct ras_value){ .present = true, .p = "memory read error", .len = 17 };
	v[MC_F_LABEL] = (struct ras_value){ .present = true, .p = label, .len = (uint32_t)strlen(label) };
	v[MC_F_DRIVER_DETAIL] = (struct ras_value){ .present = true, .p = "", .len = 0 };
	ras_decode_values(type, v, &dctx, decoded);
	return ras_db_insert_event(db, &ev);
}

static int exec_in(const char *path, const char *sql)
{
	sqlite3 *h;
	int r = sqlite3_open(path, &h) == SQLITE_OK ? sqlite3_exec(h, sql, NULL, NULL, NULL) : SQLITE_ERROR;

	sqlite3_close(h);
	return r == SQLITE_OK ? 0 : -1;
}

static int store_batch(struct ras_db *db, unsigned b)
{
	int r = ras_db_begin(db);

	for (unsigned i = b * BATCH; i < (b + 1) * BATCH && r >= 0; i++)
		r = insert(db, i) == 1 ? 0 : -1;
	return r < 0 ? r : ras_db_commit(db);
}

/* The stream stored in path; batch 1's commit refused once when poisoned. */
static int store(const char *path, bool behind, bool poisoned)
{
	struct ras_db *db = open_db(path, behind);
	char sql[256];
	int64_t before;
	int r;

	if (!db)
		return -1;
	if (!poisoned)
		goto rest;
	ras_db_close(db);
	snprintf(sql, sizeof(sql), "CREATE TRIGGER poison BEFORE INSERT ON mc_event WHEN NEW.trace_ts = %d"
		 " BEGIN SELECT RAISE(ABORT, 'poisoned record'); END", POISON);
	exec_in(path, sql);
	if (!(db = open_db(path, behind)))
		return -1;
	tap_is_int(store_batch(db, 0), 0, "%s: batch 0 committed", path);
	before = test_sql_int(path, "SELECT count(*) FROM mc_event");
	r = store_batch(db, 1);
	tap_ok(r < 0 && strstr(ras_db_errmsg(db), "poisoned record"),
	       "%s: batch 1's commit fails on the held record refused: %s", path, ras_db_errmsg(db));
	ras_db_rollback(db);
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM mc_event"), before,
		   "%s: nothing of batch 1 kept (%lld rows of batch 0)", path, (long long)before);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM mc_event WHERE trace_ts >= %d", BATCH);
	tap_is_int(test_sql_int(path, sql), 0, "%s: none of batch 1's held records either", path);
	/* Dropped from another connection: the writer goes on without a restart (which starts folding's counts again). */
	tap_is_int(exec_in(path, "DROP TRIGGER poison"), 0, "%s: the trigger dropped", path);
rest:
	r = 0;
	for (unsigned b = poisoned ? 1 : 0; b < BATCHES && r == 0; b++)
		r = store_batch(db, b);
	ras_db_close(db);
	return r;
}

/* The stream stored in path, batch 0's commit refused once on record POISON_UNHELD (not held). */
static int store_unheld_refused(const char *path, bool behind)
{
	struct ras_db *db = open_db(path, behind);
	char sql[256];
	int r;

	if (!db)
		return -1;
	ras_db_close(db);
	snprintf(sql, sizeof(sql), "CREATE TRIGGER poison BEFORE INSERT ON mc_event WHEN NEW.trace_ts = %d"
		 " BEGIN SELECT RAISE(ABORT, 'poisoned record'); END", POISON_UNHELD);
	exec_in(path, sql);
	if (!(db = open_db(path, behind)))
		return -1;
	watch_inserts(db, "mc_event");
	r = store_batch(db, 0);
	tap_ok(r < 0 && strstr(ras_db_errmsg(db), "poisoned record"),
	       "%s: batch 0's commit fails on a record not held refused: %s", path, ras_db_errmsg(db));
	tap_is_int(watched_rows(), behind ? 8 : 1,
		   "%s: refused in an INSERT of %u rows", path, behind ? 8 : 1);
	ras_db_rollback(db);
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM mc_event"), 0, "%s: nothing of batch 0 kept", path);
	tap_is_int(exec_in(path, "DROP TRIGGER poison"), 0, "%s: the trigger dropped", path);
	r = 0;
	for (unsigned b = 0; b < BATCHES && r == 0; b++)
		r = store_batch(db, b);
	ras_db_close(db);
	return r;
}

/* The first column of sql's first row over database a with b attached as o, or -1. */
static int64_t sql_both(const char *a, const char *b, const char *sql)
{
	char att[600];
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t n = -1;

	snprintf(att, sizeof(att), "ATTACH '%s' AS o", b);
	if (sqlite3_open(a, &h) == SQLITE_OK && sqlite3_exec(h, att, NULL, NULL, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return n;
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

	tap_is_int(sql_both(failed, ref, "SELECT (SELECT count(*) FROM main.mc_event) + (SELECT"
			    " sum(records) FROM main.folds)"), BATCH * BATCHES,
		   "%s: raw rows and folded records add up to every record", how);
	tap_is_int(sql_both(failed, ref, "SELECT (SELECT sum(error_count) FROM main.mc_event) + (SELECT"
			    " sum(errors) FROM main.folds) - (SELECT sum(error_count) FROM o.mc_event) -"
			    " (SELECT sum(errors) FROM o.folds)"), 0,
		   "%s: and to every error", how);
	tap_is_int(sql_both(failed, ref, "SELECT count(*) FROM (SELECT * FROM main.mc_event WHERE id IN"
			    " (SELECT id FROM o.mc_event) EXCEPT SELECT * FROM o.mc_event)"), 0,
		   "%s: a raw row of both is the same row, id included", how);
	tap_is_int(sql_both(failed, ref, "SELECT count(*) FROM (SELECT trace_ts FROM main.mc_event GROUP BY"
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
	tap_is_int(store(ref, behind, false), 0, "%s: %d batches stored", ref, BATCHES);
	tap_is_int(store(failed, behind, true), 0, "%s: batch 1 given again, and the rest, stored", failed);
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
	T0 = (((int64_t)time(NULL) + 86400) / 3600 * 3600 + 60) * SEC + 123457;
	test_tmpdir(dir, sizeof(dir));
	ras_decode_ctx_init(&dctx);
	check(false);
	check(true);
	test_rmtree(dir);
	return tap_done();
}
