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
#include <sqlite3.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>
#include "db/db.h"
#include "db/db_internal.h"
#include "lib/decode.h"
#include "lib/event_fields.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define SEC 1000000000LL
#define HOUR (3600 * SEC)
#define DIMMS 40
#define PER_DIMM 6
#define BATCH (DIMMS * PER_DIMM)
#define BATCHES 4
/* Batch 1's new folds row refused: the 4th of its second INSERT of RAS_DB_ROWS_PER_INSERT rows. */
#define POISON_NTH 20

/* An hour's start, and a minute and a bit: fixed, so nothing depends on the clock. */
#define T0 ((472223LL * 3600 + 60) * SEC + 123457)

static char dir[256];
static struct ras_decode_ctx dctx;
static const struct ras_db_limits limits = {
	.fold_threshold = 3, .fold_period_ns = HOUR, .fold_keep = 1, .page_size = 4096,
};

/* Record i: batch i / BATCH, DIMM_<mc>_<layer> (i % DIMMS), in hour i / BATCH. */
static int insert(struct ras_db *db, unsigned i)
{
	const struct ras_event_type *type = ras_event_type_find("mc_event");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	unsigned dimm = i % DIMMS, b = i / BATCH;
	char label[32];
	int64_t ints[][2] = {
		{ MC_F_ERROR_TYPE, 0 }, { MC_F_ERROR_COUNT, 1 + dimm % 3 }, { MC_F_MC_INDEX, dimm / 8 },
		{ MC_F_TOP_LAYER, dimm % 8 }, { MC_F_MIDDLE_LAYER, 0 }, { MC_F_LOWER_LAYER, -1 },
		{ MC_F_ADDRESS, 0x4000 + 0x40 * (int64_t)i }, { MC_F_GRAIN_BITS, 6 },
		{ MC_F_SYNDROME, dimm % 5 },
	};
	struct ras_db_event ev = {
		.type_idx = (unsigned)(type - ras_event_types),
		.wall_ns = T0 + (int64_t)b * HOUR + (int64_t)(i % BATCH) * SEC,
		.trace_ts = i, .source = "live", .rec_hash = i, .values = v, .decoded = decoded,
		.limits = &limits,
	};

	snprintf(label, sizeof(label), "DIMM_%u_%u", dimm / 8, dimm % 8);
	for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
		v[ints[k][0]] = (struct ras_value){ .present = true, .i = ints[k][1] };
	v[MC_F_MSG] = (struct ras_value){ .present = true, .p = "memory read error", .len = 17 };
	v[MC_F_LABEL] = (struct ras_value){ .present = true, .p = label, .len = (uint32_t)strlen(label) };
	v[MC_F_DRIVER_DETAIL] = (struct ras_value){ .present = true, .p = "", .len = 0 };
	ras_decode_values(type, v, &dctx, decoded);
	return ras_db_insert_event(db, &ev);
}

/*
 * The folds INSERTs started on the writer's connection: how many, the VALUES
 * tuples of the last, and the rows they tried (the poison trigger run: a
 * trigger's program start is traced too, as "-- TRIGGER poison").
 */
static unsigned folds_inserts, folds_last_rows, folds_tried;

static int note_stmt(unsigned type, void *ctx, void *p, void *x)
{
	const char *sql = sqlite3_sql(p);
	unsigned rows = 0;

	(void)type, (void)ctx;
	if (!sql || strncmp(sql, "INSERT INTO folds (", 19))
		return 0;
	/* The trigger's program starting (x "-- TRIGGER poison"): a row tried, not a statement. */
	if (!strncmp(x, "-- TRIGGER poison", 17)) {
		__atomic_add_fetch(&folds_tried, 1, __ATOMIC_RELAXED);
		return 0;
	}
	if (!strncmp(x, "--", 2))
		return 0;
	/* A "(" a row after the columns' own. */
	for (const char *c = strchr(sql, '(') + 1; (c = strchr(c, '(')); c++)
		rows++;
	__atomic_store_n(&folds_last_rows, rows, __ATOMIC_RELAXED);
	__atomic_add_fetch(&folds_inserts, 1, __ATOMIC_RELAXED);
	return 0;
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
	sqlite3 *h;
	sqlite3_stmt *st;
	int r = -1;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, "SELECT subject FROM folds WHERE hour = ?1 ORDER BY id LIMIT 1 OFFSET ?2",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, hour);
		sqlite3_bind_int(st, 2, nth - 1);
		if (sqlite3_step(st) == SQLITE_ROW) {
			snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
			r = 0;
		}
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return r;
}

/* Batch 1's commit refused on its POISON_NTH-th new folds row (subject as ref names it), then stored. */
static int store_refused(const char *path, const char *ref, bool behind)
{
	char sql[512], how[600];
	struct ras_db *db = open_db(path, behind);
	struct counts before, after;
	int64_t hour = (T0 + HOUR) / HOUR;
	char subject[128] = "";
	int r;

	snprintf(how, sizeof(how), "%s (%s)", path, behind ? "writer thread" : "inline");
	if (!db)
		return -1;
	tap_is_int(store_batch(db, 0), 0, "%s: batch 0 committed", how);
	/* The row refused: batch 1's POISON_NTH-th new folds row where nothing failed (ids in INSERT order). */
	tap_ok(nth_subject(ref, hour, POISON_NTH, subject, sizeof(subject)) == 0,
	       "%s: batch 1's new folds row %d is %s's", how, POISON_NTH, subject);
	snprintf(sql, sizeof(sql), "CREATE TRIGGER poison BEFORE INSERT ON folds WHEN NEW.hour = %lld AND"
		 " NEW.subject = '%s' BEGIN SELECT RAISE(ABORT, 'poisoned folds row'); END",
		 (long long)hour, subject);
	tap_is_int(exec_in(path, sql), 0, "%s: the trigger made", how);
	before = counts_of(path);
	folds_inserts = folds_tried = 0;
	sqlite3_trace_v2(db->h, SQLITE_TRACE_STMT, note_stmt, NULL);
	r = store_batch(db, 1);
	tap_ok(r == -EIO && strstr(ras_db_errmsg(db), "poisoned folds row"),
	       "%s: batch 1's commit fails as a storage failure on the new folds row refused (%d): %s", how, r,
	       ras_db_errmsg(db));
	tap_ok(__atomic_load_n(&folds_inserts, __ATOMIC_RELAXED) == 2 &&
	       __atomic_load_n(&folds_last_rows, __ATOMIC_RELAXED) == RAS_DB_ROWS_PER_INSERT,
	       "%s: refused in the second folds INSERT, of %u rows (%u INSERTs, the last of %u rows)", how,
	       RAS_DB_ROWS_PER_INSERT, __atomic_load_n(&folds_inserts, __ATOMIC_RELAXED),
	       __atomic_load_n(&folds_last_rows, __ATOMIC_RELAXED));
	tap_is_int(__atomic_load_n(&folds_tried, __ATOMIC_RELAXED), POISON_NTH,
		   "%s: the refused row the %dth tried (%u of the first INSERT, %d of the second)", how,
		   POISON_NTH, RAS_DB_ROWS_PER_INSERT, POISON_NTH - (int)RAS_DB_ROWS_PER_INSERT);
	sqlite3_trace_v2(db->h, 0, NULL, NULL);
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
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'"),
		   1, "%s: integrity_check ok", how);
	/* Dropped from another connection: the writer goes on without a restart. */
	tap_is_int(exec_in(path, "DROP TRIGGER poison"), 0, "%s: the trigger dropped", how);
	r = 0;
	for (unsigned b = 1; b < BATCHES && r == 0; b++)
		r = store_batch(db, b);
	ras_db_close(db);
	return r;
}

static int store(const char *path, bool behind)
{
	struct ras_db *db = open_db(path, behind);
	int r = 0;

	if (!db)
		return -1;
	for (unsigned b = 0; b < BATCHES && r == 0; b++)
		r = store_batch(db, b);
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

	tap_is_int(test_sql_int_with(failed, ref, "SELECT (SELECT count(*) FROM main.mc_event) +"
				     " (SELECT sum(records) FROM main.folds)"), BATCH * BATCHES,
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
	tap_is_int(store(ref, behind), 0, "%s: %d batches stored", ref, BATCHES);
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
	ras_decode_ctx_init(&dctx);
	check(false);
	check(true);
	snprintf(a, sizeof(a), "%s/ref-0.db", dir);
	snprintf(b, sizeof(b), "%s/ref-1.db", dir);
	compare(b, a, "the writer thread against inline");
	test_rmtree(dir);
	return tap_done();
}
