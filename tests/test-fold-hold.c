/* SPDX-License-Identifier: MIT */
/*
 * Held records (db/db_fold_hold.c): a storm's record past its subject's first
 * fold_keep is held in memory under a reserved row id and never inserted when
 * it folds in its own batch. One stream of mc_event records (a DIMM storm,
 * quieter DIMMs, records from the boot buffer that can be duplicates) is
 * stored with folding and without, in batches, one batch rolled back and
 * stored again. Every raw row of the folded database is the unfolded
 * database's row of the same id (ids keep arrival order), raw rows and folds
 * add up to every record and every error, the hourly roll-ups are the same,
 * the storm's last fold_keep records are raw, and a duplicate from the boot
 * buffer is still refused.
 *
 * The storm's last records of a batch become rows at its commit and fold in
 * a later one. A third store deletes such a row from another connection
 * before it folds: it is counted nowhere, not folded as well.
 *
 * A folds row is merged into without being read back when this connection
 * wrote it last (db_fold_write.c). Two more stores change the storm's folds
 * row from another connection between batches, adding to its counts or
 * deleting it: the later batches add to what the row then says.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "db/db.h"
#include "lib/decode.h"
#include "tap.h"
#include "test_util.h"

#define SEC 1000000000LL
#define HOUR (3600 * SEC)
#define RECORDS 3000
#define BATCH 97
#define KEEP 3

static char dir[256];
/* A fixed start, 600 s into an hour: the 3000 records, a second apart, stay in that hour. */
#define T0 ((472223LL * 3600 + 600) * SEC + 123457)
static struct ras_decode_ctx dctx;
static struct ras_db_limits limits = {
	.fold_threshold = 20, .fold_period_ns = HOUR, .fold_keep = KEEP, .page_size = 4096,
};

/* Record i: mostly DIMM_A0's storm, every 9th another DIMM, the first and every 50th from the boot buffer. */
static int insert(struct ras_db *db, unsigned i, bool fold)
{
	unsigned layer = i % 9 == 4 ? 1 + i % 4 : 0;
	char label[32];
	struct test_mc_rec r = {
		.error_count = 1 + i % 3, .top_layer = layer, .address = 0x4000 + 0x40 * (int64_t)i,
		.syndrome = i % 5, .label = label,
	};

	snprintf(label, sizeof(label), "DIMM_A%u", layer);
	return test_mc_insert(db, &dctx, &r, (struct ras_db_event){
		.wall_ns = T0 + (int64_t)i * SEC, .trace_ts = i,
		.source = i % 50 == 25 || !i ? "boot" : "live", .rec_hash = i,
		.limits = fold ? &limits : NULL });
}

/* Deletes the newest raw row of the storm from another connection; its error count, or -1. */
static int64_t delete_newest(const char *path)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t errors = -1;

	if (sqlite3_open(path, &h) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, "DELETE FROM mc_event WHERE id = (SELECT max(id) FROM mc_event WHERE"
			       " label = 'DIMM_A0') RETURNING error_count", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			errors = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return errors;
}

/* Runs sql (its RETURNING a number a row) on another connection: the sum returned, or -1. */
static int64_t exec_changes(const char *path, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t sum = -1;

	if (sqlite3_open(path, &h) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		for (sum = 0; sqlite3_step(st) == SQLITE_ROW;)
			sum += sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return sum;
}

#define STORM_ROW "(SELECT id FROM folds WHERE tbl = 'mc_event' ORDER BY records DESC LIMIT 1)"

/* Adds 1000 records and errors to the storm's folds row from another connection; records added. */
static int64_t add_behind(const char *path)
{
	return exec_changes(path, "UPDATE folds SET records = records + 1000, errors = errors + 1000"
			    " WHERE id = " STORM_ROW " RETURNING 1000");
}

/* Deletes the storm's folds row from another connection; minus the records it held. */
static int64_t purge_behind(const char *path)
{
	return -exec_changes(path, "DELETE FROM folds WHERE id = " STORM_ROW " RETURNING records");
}

static int64_t deleted_errors = -1, changed_behind;

/*
 * The stream in batches; batch 7 is rolled back once and stored again. Once
 * batch after is committed, behind (if any) changes the database from
 * another connection: what it returns is kept in changed_behind.
 */
static int store_changing(const char *name, bool fold, int after, int64_t (*behind)(const char *))
{
	char path[512], err[512];
	struct ras_db *db = NULL;
	int refused = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) < 0) {
		tap_diag("open %s: %s", path, err);
		return -1;
	}
	for (unsigned first = 0, batch = 0; first < RECORDS; first += BATCH, batch++) {
		ras_db_begin(db);
		for (unsigned i = first; i < first + BATCH && i < RECORDS; i++)
			insert(db, i, fold);
		if (batch == 7) {
			ras_db_rollback(db);
			ras_db_begin(db);
			for (unsigned i = first; i < first + BATCH && i < RECORDS; i++)
				insert(db, i, fold);
		}
		ras_db_commit(db);
		if ((int)batch == after && behind)
			changed_behind = behind(path);
	}
	/* The boot buffer read again: its first record (one of the storm's first, kept raw) is stored. */
	ras_db_begin(db);
	refused = insert(db, 0, fold) == 0;
	ras_db_commit(db);
	ras_db_close(db);
	return refused;
}

static int64_t delete_row_behind(const char *path)
{
	deleted_errors = delete_newest(path);
	return deleted_errors;
}

static int store(const char *name, bool fold)
{
	return store_changing(name, fold, -1, NULL);
}

static int64_t scalar_in(const char *name, const char *sql)
{
	char a[512], b[512];
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t v = -1;

	snprintf(a, sizeof(a), "%s/%s", dir, name);
	snprintf(b, sizeof(b), "ATTACH '%s/plain.db' AS p", dir);
	if (sqlite3_open(a, &h) == SQLITE_OK && sqlite3_exec(h, b, NULL, NULL, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	} else {
		tap_diag("%s: %s", sql, sqlite3_errmsg(h));
	}
	sqlite3_close(h);
	return v;
}

static int64_t scalar(const char *sql)
{
	return scalar_in("folded.db", sql);
}

int main(void)
{
	int64_t raw, folded;
	int r;

	test_tmpdir(dir, sizeof(dir));
	ras_decode_ctx_init(&dctx);
	tap_ok(store("plain.db", false) == 1 && store("folded.db", true) == 1,
	       "both streams stored; the boot buffer's record read again is refused in both");
	raw = scalar("SELECT count(*) FROM mc_event");
	folded = scalar("SELECT sum(records) FROM folds WHERE tbl = 'mc_event'");
	tap_ok(raw > 0 && folded > RECORDS / 2, "the storm folded: %lld raw rows, %lld folded records",
	       (long long)raw, (long long)folded);
	tap_is_int(raw + folded, scalar("SELECT count(*) FROM p.mc_event"),
		   "raw rows and folded records add up to every record");
	tap_is_int(scalar("SELECT count(*) FROM (SELECT * FROM main.mc_event EXCEPT SELECT * FROM p.mc_event)"),
		   0, "every raw row is the unfolded database's row of the same id");
	tap_is_int(scalar("SELECT (SELECT sum(error_count) FROM main.mc_event) + (SELECT sum(errors) FROM folds"
			  " WHERE tbl = 'mc_event') - (SELECT sum(error_count) FROM p.mc_event)"),
		   0, "raw rows and folds add up to every error");
	tap_is_int(scalar("SELECT count(*) FROM (SELECT * FROM (SELECT * FROM main.rollup_hourly EXCEPT"
			  " SELECT * FROM p.rollup_hourly) UNION ALL SELECT * FROM (SELECT * FROM"
			  " p.rollup_hourly EXCEPT SELECT * FROM main.rollup_hourly))"),
		   0, "the hourly roll-ups are the same");
	tap_is_int(scalar("SELECT count(*) FROM main.mc_event e JOIN (SELECT id FROM p.mc_event"
			  " WHERE label = 'DIMM_A0' ORDER BY id DESC LIMIT 3) USING (id)"),
		   KEEP, "the storm's last fold_keep records are raw rows");
	tap_is_int(scalar("SELECT count(*) FROM p.mc_event WHERE id NOT IN (SELECT id FROM main.mc_event)"),
		   folded, "no raw row but the folded ones is missing");
	tap_ok(store_changing("deleted.db", true, 12, delete_row_behind) == 1 && deleted_errors > 0,
	       "stored again, a storm row committed in batch 12 deleted before it folds");
	tap_is_int(scalar_in("deleted.db", "SELECT (SELECT count(*) FROM main.mc_event) + (SELECT"
			     " sum(records) FROM folds WHERE tbl = 'mc_event') - (SELECT count(*) FROM"
			     " p.mc_event)"),
		   -1, "the deleted row is counted neither raw nor folded");
	tap_is_int(scalar_in("deleted.db", "SELECT (SELECT sum(error_count) FROM main.mc_event) + (SELECT"
			     " sum(errors) FROM folds WHERE tbl = 'mc_event') - (SELECT sum(error_count)"
			     " FROM p.mc_event)"),
		   -deleted_errors, "nor are its errors");
	tap_ok(store_changing("added.db", true, 12, add_behind) == 1 && changed_behind == 1000,
	       "stored again, 1000 records added to the storm's folds row after batch 12");
	tap_is_int(scalar_in("added.db", "SELECT (SELECT count(*) FROM main.mc_event) + (SELECT"
			     " sum(records) FROM folds WHERE tbl = 'mc_event') - (SELECT count(*) FROM"
			     " p.mc_event)"),
		   1000, "the later batches add to the row as changed");
	tap_is_int(scalar_in("added.db", "SELECT (SELECT sum(error_count) FROM main.mc_event) + (SELECT"
			     " sum(errors) FROM folds WHERE tbl = 'mc_event') - (SELECT sum(error_count)"
			     " FROM p.mc_event)"),
		   1000, "and to its errors");
	r = store_changing("purged.db", true, 12, purge_behind);
	tap_ok(r == 1 && changed_behind < -100,
	       "stored again, the storm's folds row (%lld records) deleted after batch 12",
	       (long long)-changed_behind);
	tap_is_int(scalar_in("purged.db", "SELECT (SELECT count(*) FROM main.mc_event) + (SELECT"
			     " sum(records) FROM folds WHERE tbl = 'mc_event') - (SELECT count(*) FROM"
			     " p.mc_event)"),
		   changed_behind, "the later batches' folds are a new row: only the deleted records are missing");
	test_rmtree(dir);
	return tap_done();
}
