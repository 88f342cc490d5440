/* SPDX-License-Identifier: MIT */
/*
 * The folds writer's other statements failing part-way (db/db_fold_write.c):
 * the growth rows' INSERTs (grow_flush, RAS_DB_ROWS_PER_INSERT to a
 * statement) and a known row's UPDATE by id (write_known: upd_whole with the
 * row's times kept in memory, upd_known appending them in SQL past
 * FOLD_KNOWN_TIMES_ROW). A stream of 40 DIMMs' mc_event records, six a DIMM
 * a batch over a threshold of three, each DIMM's error count its own, is
 * stored twice: once as it is, once with a trigger that refuses one row of
 * one batch's commit, part-way through it:
 *
 * - growth, new rows: a batch an hour (each commit inserts 40 new folds rows
 *   and 40 growth rows), batch 1's 20th growth row refused, the 4th of its
 *   second 16-row INSERT;
 * - growth, known rows: every batch in one hour (batch 1 on, each DIMM's row
 *   is known and updated by upd_whole), batch 2's 20th growth row refused;
 * - upd_whole: one hour, batch 2's UPDATE of the 20th DIMM's row refused (19
 *   known rows updated before it in the commit);
 * - upd_known: the same, that DIMM given 17,000 more records in batches 0 and
 *   1 (32 a second, a byte of times each), so its row is past
 *   FOLD_KNOWN_TIMES_ROW and its batch 2 UPDATE appends in SQL.
 * - ids given back: one hour, batch 1 (DIMMs 40 to 79, all new) refused at
 *   its 20th growth row, after 32 of its new folds rows were inserted and
 *   remembered as known rows; it is not given again: batch 2, DIMMs 80 to
 *   119 at the same seconds, takes the ids the rollback gave back, each row
 *   with the records, last second and times length batch 1's row of that id
 *   had, so that batch 3, DIMMs 40 to 79 again, would update DIMM 80's row
 *   by id if the known rows outlived the rollback (ras_db_fold_discard
 *   forgets them; the test fails without that).
 *
 * The commit fails as a storage failure (-EIO, with the trigger's words),
 * nothing of the batch is kept (raw, folds and growth rows as a copy made
 * before it, the growth export reads ending at the same seq), the database
 * is whole, and the batch given again once the trigger is dropped (from
 * another connection, the writer kept open), then the next one (the known
 * rows remembered again, written by id without a read), leave the database
 * that never failed, table by table, the refused key's folds row included
 * (for ids given back: batches 0, 2 and 3 stored without the failure).
 * Inline and with the writer thread.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "db/db.h"
#include "db/db_export.h"
#include "db/db_internal.h"
#include "fold_fail_fixture.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define DIMMS 40
#define PER_DIMM 6
#define BATCH (DIMMS * PER_DIMM)
#define BATCHES 4
/* The batch's 20th row refused: the 4th of its second growth INSERT, or the 20th DIMM's UPDATE. */
#define POISON_NTH 20
/* The DIMM whose row is written 20th (ids, and a batch's entries, in DIMM order). */
#define POISON_DIMM (POISON_NTH - 1)
/* upd_known's DIMM's more records in batches 0 and 1: 34,000 bytes of times, past 32 KiB. */
#define BIG 17000
/* Record j of batch b: its trace_ts and rec_hash. */
#define REC(b, j) ((unsigned)(b) * 100000u + (unsigned)(j))
/* One hour's batches, each its span (the BIG records at 32 a second end by 240 + 532 s). */
#define SPAN (800 * SEC)

/* An hour's start, and a minute and a bit: fixed, so nothing depends on the clock. */
#define T0 ((472223LL * 3600 + 60) * SEC + 123457)

enum refused { GROWTH, UPDATE };

struct plan {
	const char *name;
	enum refused what;
	bool one_hour;          /* every batch in T0's hour (known rows); else a batch an hour */
	unsigned big;           /* POISON_DIMM's more records in batches 0 and 1 */
	unsigned fail;          /* the batch refused */
	const char *stmt;       /* what the refused statement's SQL holds */
	/*
	 * The batch refused not given again: batch 2, other keys (DIMMs 80 to
	 * 119) at its seconds, takes the folds ids its rollback gave back, and
	 * batch 3 brings its keys (DIMMs 40 to 79) again.
	 */
	bool instead;
	unsigned watch;         /* the DIMM whose folds rows are compared by id at the end */
};

static const struct plan plans[] = {
	{ "growth of new rows", GROWTH, false, 0, 1, "INSERT INTO fold_growth", false, POISON_DIMM },
	{ "growth of known rows", GROWTH, true, 0, 2, "INSERT INTO fold_growth", false, POISON_DIMM },
	{ "upd_whole", UPDATE, true, 0, 2, "times = ?19, last_s = ?20 WHERE id = ?30", false, POISON_DIMM },
	{ "upd_known", UPDATE, true, BIG, 2, "substr(times, 1, ?31)", false, POISON_DIMM },
	{ "ids given back", GROWTH, true, 0, 1, "INSERT INTO fold_growth", true, DIMMS },
};

static char dir[256];
static const struct ras_db_limits limits = {
	.fold_threshold = 3, .fold_period_ns = HOUR, .fold_keep = 1, .page_size = 4096,
};

static unsigned batch_len(const void *ctx, unsigned b)
{
	const struct plan *p = ctx;

	return BATCH + (b < 2 ? p->big : 0);
}

static int64_t batch_start(const struct plan *p, unsigned b)
{
	unsigned slot = p->instead && b == 2 ? 1 : b;

	return T0 + (int64_t)slot * (p->one_hour ? SPAN : HOUR);
}

/* The batches stored: the refused one not given again in an instead plan. */
static bool stored(const struct plan *p, unsigned b)
{
	return !p->instead || b != p->fail;
}

static bool left_out(const void *ctx, unsigned b)
{
	return !stored(ctx, b);
}

/* Batch b's first DIMM: 0, or an instead plan's 40 (the refused batch's keys) and 80. */
static unsigned first_dimm(const struct plan *p, unsigned b)
{
	if (!p->instead || b == 0)
		return 0;
	return b == 2 ? 2 * DIMMS : DIMMS;
}

/* Record j of batch b: its DIMMs in turn a second apart, then POISON_DIMM's more, 32 a second. */
static int insert(struct ras_db *db, const void *ctx, unsigned b, unsigned j)
{
	const struct plan *p = ctx;
	unsigned dimm = j < BATCH ? first_dimm(p, b) + j % DIMMS : POISON_DIMM;
	int64_t at = j < BATCH ? (int64_t)j * SEC : BATCH * SEC + (int64_t)(j - BATCH) * SEC / 32;

	return insert_dimm_record(db, dimm, REC(b, j), batch_start(p, b) + at, &limits);
}

static struct batches stream_of(const struct plan *p)
{
	return (struct batches){
		.insert = insert, .n = BATCHES, .len = batch_len, .left_out = left_out, .ctx = p,
	};
}

/*
 * When the trigger refuses the plan's row, from what the reference (the
 * database that did not fail) holds: the fail batch's POISON_NTH-th growth
 * row by seq (its first_ns, a DIMM's first record of the batch), or the
 * POISON_NTH-th folds row of batch 0's hour by id.
 */
static int poison_when(const struct plan *p, const char *ref, char *out, size_t len)
{
	char sql[512], v[128];
	int64_t hour = batch_start(p, p->fail) / HOUR;

	if (p->what == GROWTH) {
		snprintf(sql, sizeof(sql), "SELECT first_ns FROM fold_growth WHERE first_ns BETWEEN %lld AND %lld"
			 " ORDER BY seq LIMIT 1 OFFSET %d", (long long)batch_start(p, p->fail),
			 (long long)(batch_start(p, p->fail) + SPAN - 1), POISON_NTH - 1);
		sql_text(ref, sql, v, sizeof(v));
		snprintf(out, len, "BEFORE INSERT ON fold_growth WHEN NEW.first_ns = %s", v);
	} else {
		snprintf(sql, sizeof(sql), "SELECT subject FROM folds WHERE hour = %lld ORDER BY id LIMIT 1"
			 " OFFSET %d", (long long)hour, POISON_NTH - 1);
		sql_text(ref, sql, v, sizeof(v));
		snprintf(out, len, "BEFORE UPDATE ON folds WHEN OLD.hour = %lld AND OLD.subject = '%s'",
			 (long long)hour, v);
	}
	return *v ? 0 : -1;
}

static int last_growth(void *ctx, const struct ras_db_fold_growth *g)
{
	*(int64_t *)ctx = g->seq;
	return 0;
}

/* The last growth seq export reads in path (a reader's connection): -1 when it cannot. */
static int64_t export_seq(const char *path)
{
	int64_t delivered[RAS_MAX_EVENT_TYPES] = { 0 }, seq = 0;
	struct ras_db *rd = NULL;
	char err[256];

	if (ras_db_open_reader(&rd, path, err, sizeof(err)) < 0)
		return -1;
	if (ras_db_fold_growth_after(rd, 0, delivered, last_growth, &seq) < 0)
		seq = -1;
	ras_db_close(rd);
	return seq;
}

/* Asserts what the refused commit left: the tables as the copy made before it, the export, integrity. */
static void check_unchanged(const char *path, const char *copy, int64_t seq, const char *how)
{
	static const char *const tables[] = {
		"mc_event", "mc_event_dec", "folds", "fold_growth", "rollup_hourly", "rollup_totals",
	};

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		tap_is_int(differing(path, copy, tables[t]), 0, "%s: %s as before the refused commit", how,
			   tables[t]);
	tap_is_int(export_seq(path), seq, "%s: the growth export ends at seq %lld as before", how,
		   (long long)seq);
	tap_is_int(integrity_ok(path), 1, "%s: integrity_check ok", how);
}

/* What the trace saw of the refused commit: the statement, and that it was part-way. */
static void check_refused(const struct plan *p, const struct trace_seen *seen, const char *how)
{
	tap_ok(strstr(seen->refused, p->stmt) != NULL, "%s: the statement refused is the plan's: %.60s", how,
	       seen->refused);
	tap_is_int(seen->tried, POISON_NTH, "%s: the refused row the %dth tried", how, POISON_NTH);
	if (p->what == GROWTH)
		tap_ok(seen->inserts == 2 && seen->last_rows == RAS_DB_ROWS_PER_INSERT,
		       "%s: refused in the second growth INSERT, of %u rows (%u INSERTs, the last of %u rows)",
		       how, RAS_DB_ROWS_PER_INSERT, seen->inserts, seen->last_rows);
	else
		tap_ok(seen->inserts == 1 && seen->whole + seen->known == POISON_NTH &&
		       (p->big ? seen->known == 1 : seen->known == 0),
		       "%s: %d known rows updated by id before it, a growth INSERT of 16 (%u, %u whole, %u"
		       " appended)", how, POISON_NTH - 1, seen->inserts, seen->whole, seen->known);
}

/* The plan's batches with its refusal: the fail batch refused, given again (unless instead), the rest stored. */
static int store_refused(const struct plan *p, const char *path, const char *ref, bool behind)
{
	char sql[512], how[600], copy[600];
	const struct batches s = stream_of(p);
	struct ras_db *db = open_db(path, behind);
	struct trace_seen seen;
	int64_t seq;
	int r = 0;

	snprintf(how, sizeof(how), "%s, %s (%s)", p->name, path, behind ? "writer thread" : "inline");
	snprintf(copy, sizeof(copy), "%s.before", path);
	if (!db)
		return -1;
	for (unsigned b = 0; b < p->fail && r == 0; b++)
		r = store_batch(db, &s, b);
	tap_is_int(r, 0, "%s: batches before %u committed", how, p->fail);
	tap_is_int(poison_when(p, ref, sql, sizeof(sql)), 0, "%s: the row refused found", how);
	tap_is_int(poison_make(path, sql, "poisoned folds write"), 0, "%s: the trigger made", how);
	snprintf(sql, sizeof(sql), "VACUUM INTO '%s'", copy);
	tap_is_int(exec_sql(path, sql), 0, "%s: a copy made before batch %u", how, p->fail);
	seq = export_seq(path);
	trace_start(db, "INSERT INTO fold_growth (");
	r = store_batch(db, &s, p->fail);
	seen = traced();
	trace_stop(db);
	tap_ok(r == -EIO && strstr(ras_db_errmsg(db), "poisoned folds write"),
	       "%s: batch %u's commit fails as a storage failure (%d): %s", how, p->fail, r,
	       ras_db_errmsg(db));
	check_refused(p, &seen, how);
	ras_db_rollback(db);
	check_unchanged(path, copy, seq, how);
	test_remove_db(copy);
	/* Dropped from another connection: the writer goes on without a restart. */
	tap_is_int(poison_drop(path), 0, "%s: the trigger dropped", how);
	r = 0;
	if (!p->instead) {
		r = store_batch(db, &s, p->fail);
		tap_is_int(r, 0, "%s: batch %u given again committed", how, p->fail);
	}
	/* The next batch: the known rows remembered from the retry, written by id. */
	trace_start(db, "INSERT INTO fold_growth (");
	if (r == 0)
		r = store_from(db, &s, p->fail + 1);
	seen = traced();
	trace_stop(db);
	if (p->one_hour && !p->instead)
		tap_ok(seen.whole + seen.known >= DIMMS && (!p->big || seen.known > 0),
		       "%s: the batches after it update the known rows by id (%u whole, %u appended)", how,
		       seen.whole, seen.known);
	ras_db_close(db);
	return r;
}

static int64_t all_records(const struct plan *p)
{
	int64_t n = 0;

	for (unsigned b = 0; b < BATCHES; b++)
		n += stored(p, b) ? batch_len(p, b) : 0;
	return n;
}

static void compare(const struct plan *p, const char *failed, const char *ref, const char *how)
{
	static const char *const tables[] = {
		"mc_event", "mc_event_dec", "folds", "fold_growth", "rollup_hourly", "rollup_totals",
		"rollup_edac", "rollup_subjects",
	};
	char sql[512];

	tap_is_int(raw_plus_folded(failed), all_records(p), "%s: raw rows and folded records add up to every record",
		   how);
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		tap_is_int(differing(failed, ref, tables[t]), 0, "%s: %s the same as without the failure",
			   how, tables[t]);
	/* The refused DIMM's row, written by id after the retry: its records, errors and times. */
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM main.folds f JOIN p.folds g USING (id) WHERE"
		 " json_extract(f.ekey, '$[0]') = %u AND json_extract(f.ekey, '$[1]') = %u AND"
		 " f.records = g.records AND f.errors = g.errors AND f.times = g.times AND"
		 " f.last_s = g.last_s AND f.hour = g.hour",
		 p->watch / 8, p->watch % 8);
	tap_is_int(test_sql_int_with(failed, ref, sql), p->one_hour ? 1 : BATCHES,
		   "%s: DIMM_%u_%u's folds rows as without the failure", how, p->watch / 8, p->watch % 8);
}

static void check(const struct plan *p, unsigned n, bool behind)
{
	char ref[512], failed[512], how[256];
	const struct batches s = stream_of(p);

	snprintf(how, sizeof(how), "%s (%s)", p->name, behind ? "writer thread" : "inline");
	snprintf(ref, sizeof(ref), "%s/ref-%u-%d.db", dir, n, behind);
	snprintf(failed, sizeof(failed), "%s/failed-%u-%d.db", dir, n, behind);
	tap_is_int(store_db(ref, behind, &s), 0, "%s: %d batches stored", ref, BATCHES);
	/* The premise: batch 2's first key takes the id the refused batch's first new row had. */
	if (p->instead)
		tap_is_int(test_sql_int(ref, "SELECT id FROM folds WHERE json_extract(ekey, '$[0]') = 10 AND"
					" json_extract(ekey, '$[1]') = 0"), DIMMS + 1,
			   "%s: DIMM_10_0's folds row has id %d, as DIMM_5_0's had in batch 1", ref, DIMMS + 1);
	tap_is_int(store_refused(p, failed, ref, behind), 0, "%s: batch %u %s, and the rest, stored",
		   failed, p->fail, p->instead ? "not given again" : "given again");
	compare(p, failed, ref, how);
}

int main(void)
{
	char a[512], b[512], how[256];

	test_tmpdir(dir, sizeof(dir));
	for (unsigned n = 0; n < sizeof(plans) / sizeof(plans[0]); n++) {
		check(&plans[n], n, false);
		check(&plans[n], n, true);
		snprintf(a, sizeof(a), "%s/ref-%u-0.db", dir, n);
		snprintf(b, sizeof(b), "%s/ref-%u-1.db", dir, n);
		snprintf(how, sizeof(how), "%s: the writer thread against inline", plans[n].name);
		compare(&plans[n], b, a, how);
	}
	test_rmtree(dir);
	return tap_done();
}
