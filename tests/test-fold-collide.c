/* SPDX-License-Identifier: MIT */
/*
 * Keys whose hashes collide each fold into their own folds row (schema step
 * 25's known rows, db/db_fold_write.c write_entry). A known row is found by
 * its key's 64-bit hash and merged into by id, without the key columns in
 * the UPDATE: only the key's bytes, compared in memory, tell another key of
 * the same hash from it. This test links its own build of db_fold_entries.c
 * (fold_collide_hash.h in db/db_fold_hash.h's place, tests/fold.mk) whose
 * hash of every key is one value: four keys (two DIMMs, two error counts
 * each) collide in the batch's places and in the known rows, in one batch
 * and across commits and a rollback. Each key's
 * records and errors, raw plus folded, equal an unfolded database's; each
 * key has one folds row; the growth export reads adds up to each row, and
 * the summary equals the unfolded database's scan. Then one key's row grows
 * past FOLD_KNOWN_TIMES_ROW bytes of seconds: its times kept in memory are
 * bound whole until then, appended in SQL after, its counts exact throughout.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_export.h"
#include "db/db_fold.h"
#include "db/db_fold_internal.h"
#include "db/db_internal.h"
#include "db/db_query.h"
#include "lib/decode.h"
#include "fold_collide_hash.h"
#include "tap.h"
#include "test_util.h"

#define SEC 1000000000LL
#define T0 (472223LL * 3600 * SEC)     /* an hour's start: every record is in this hour */
#define KEYS 4

/* Every key's hash, whatever its bytes (db_fold_entries.c built with fold_collide_hash.h). */
static unsigned hashed;
uint64_t ras_db_fold_test_hash(void)
{
	hashed++;
	return 0x5eed5eed5eed5eedULL;
}

static char dir[256];
static struct ras_decode_ctx dctx;
static struct ras_db_limits limits = {
	.fold_threshold = 3, .fold_period_ns = 24 * 3600 * SEC, .fold_keep = 1, .page_size = 4096,
};
static unsigned seq;                    /* records given so far: each its own time and hash */

/* The known rows' UPDATEs the folded database ran: the times bound whole, or appended in SQL. */
static unsigned whole, appended;

static int note_stmt(unsigned type, void *ctx, void *p, void *x)
{
	const char *sql = sqlite3_sql(p);

	(void)type, (void)ctx, (void)x;
	if (sql && !strncmp(sql, "UPDATE folds SET", 16)) {
		whole += strstr(sql, "times = ?19,") != NULL;
		appended += strstr(sql, "substr(times") != NULL;
	}
	return 0;
}

/* A record of key k (DIMM k / 2, error count 1 + k % 2) at wall_ns into db (folded when fold). */
static void insert_at(struct ras_db *db, unsigned k, unsigned i, int64_t wall_ns, bool fold)
{
	char label[64];
	struct test_mc_rec rec = {
		.error_count = 1 + k % 2, .mc_index = 0, .top_layer = k / 2,
		.address = 0x10000000 + 0x40 * (int64_t)i, .syndrome = i % 5, .label = label,
	};

	snprintf(label, sizeof(label), "DIMM_0_%u", k / 2);
	ras_db_begin(db);
	test_mc_insert(db, &dctx, &rec, (struct ras_db_event){
		.wall_ns = wall_ns, .trace_ts = i, .source = "live", .rec_hash = i,
		.limits = fold ? &limits : NULL });
}

static void insert(struct ras_db *db, unsigned k, unsigned i, bool fold)
{
	insert_at(db, k, i, T0 + (int64_t)i * SEC / 4, fold);
}

/* n records of each key in mask, interleaved, into both (the folded one only when rolled back). */
static int batch(struct ras_db *folded, struct ras_db *plain, unsigned mask, unsigned n, bool rollback)
{
	int failed = 0;

	for (unsigned r = 0; r < n; r++)
		for (unsigned k = 0; k < KEYS; k++) {
			if (!(mask & 1u << k))
				continue;
			insert(folded, k, seq, true);
			if (!rollback)
				insert(plain, k, seq, false);
			seq++;
		}
	if (rollback) {
		ras_db_rollback(folded);
		return 0;
	}
	failed += ras_db_commit(folded) < 0;
	failed += ras_db_commit(plain) < 0;
	return failed;
}

static int64_t scalar(const char *sql)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/folded.db", dir);
	return test_sql_int(path, sql);
}

/* (DIMM, count) keys whose records and errors, raw plus folded, differ from the unfolded database's. */
static int64_t differing_keys(void)
{
	static const char sql[] =
		"WITH f(l, c, n, e) AS ("
		"  SELECT top_layer, error_count, count(*), sum(error_count) FROM main.mc_event GROUP BY 1, 2"
		"  UNION ALL SELECT json_extract(ekey, '$[1]'), json_extract(ekey, '$[5]'), sum(records),"
		"  sum(errors) FROM main.folds WHERE tbl = 'mc_event' GROUP BY 1, 2),"
		" a(l, c, n, e) AS (SELECT l, c, sum(n), sum(e) FROM f GROUP BY 1, 2),"
		" b(l, c, n, e) AS (SELECT top_layer, error_count, count(*), sum(error_count)"
		"  FROM p.mc_event GROUP BY 1, 2)"
		" SELECT (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b))"
		"      + (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a))"
		"      + (SELECT count(*) != 4 FROM b)";
	char path[512], plain[512];

	snprintf(path, sizeof(path), "%s/folded.db", dir);
	snprintf(plain, sizeof(plain), "%s/plain.db", dir);
	return test_sql_int_with(path, plain, sql);
}

/* The records export reads of each folds row (its growth), by row id. */
struct growth_sums {
	int64_t id[16], records[16], errors[16];
	unsigned n;
};

static int sum_growth(void *ctx, const struct ras_db_fold_growth *g)
{
	struct growth_sums *s = ctx;
	unsigned i = 0;

	while (i < s->n && s->id[i] != g->fold_id)
		i++;
	if (i == s->n) {
		if (s->n == 16)
			return -ENOSPC;
		s->id[s->n++] = g->fold_id;
	}
	s->records[i] += g->records + g->as_rows;
	s->errors[i] += g->errors;
	return 0;
}

/* Each folds row's records and errors as export's growth adds them up: the rows differing. */
static int64_t export_differs(struct ras_db *folded)
{
	int64_t delivered[RAS_MAX_EVENT_TYPES] = { 0 }, bad = 0;
	struct growth_sums s = { 0 };
	char sql[160];

	if (ras_db_fold_growth_after(folded, 0, delivered, sum_growth, &s) < 0)
		return -1;
	for (unsigned i = 0; i < s.n; i++) {
		snprintf(sql, sizeof(sql), "SELECT records = %lld AND errors = %lld FROM folds WHERE id = %lld",
			 (long long)s.records[i], (long long)s.errors[i], (long long)s.id[i]);
		bad += scalar(sql) != 1;
	}
	return bad + (int64_t)s.n - scalar("SELECT count(*) FROM folds");
}

/* The summary's groups, as table|severity|location and count. */
struct groups {
	char key[16][128];
	int64_t count[16];
	unsigned n;
};

static int collect(void *ctx, unsigned idx, const char *sev, const char *loc, int64_t count,
		   int64_t first, int64_t last)
{
	struct groups *g = ctx;

	(void)first, (void)last;
	if (g->n >= 16)
		return -ENOSPC;
	snprintf(g->key[g->n], sizeof(g->key[0]), "%s|%s|%s", ras_event_types[idx].table,
		 sev ? sev : "", loc ? loc : "");
	g->count[g->n++] = count;
	return 0;
}

/* The folded database's summary against a scan of the unfolded one's rows: the same groups and counts. */
static bool same_summary(struct ras_db *folded, struct ras_db *plain)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	struct groups a = { 0 }, b = { 0 };

	if (ras_db_summary(folded, &f, collect, &a) < 0 || ras_db_summary_scan(plain, &f, collect, &b) < 0 ||
	    a.n != b.n || !b.n) {
		tap_diag("%u groups folded, %u unfolded", a.n, b.n);
		return false;
	}
	for (unsigned i = 0; i < b.n; i++) {
		unsigned j = 0;

		while (j < a.n && strcmp(a.key[j], b.key[i]))
			j++;
		if (j == a.n || a.count[j] != b.count[i]) {
			tap_diag("%s: folded %lld, unfolded %lld", b.key[i], j < a.n ? (long long)a.count[j] : -1LL,
				 (long long)b.count[i]);
			return false;
		}
	}
	return true;
}

/*
 * Folds rows whose times do not hold a second for each of their records,
 * from the first record's second to the last's (read on db's connection).
 */
static int64_t times_differ(struct ras_db *db)
{
	sqlite3_stmt *st;
	int64_t n = -1;

	if (sqlite3_prepare_v2(db->h, "WITH r(n, f, l, a, b, c) AS (SELECT records, first_ns / 1000000000,"
			       " last_ns / 1000000000, ras_fold_count(times, 0, 9223372036854775807),"
			       " ras_fold_first(times, 0, 9223372036854775807) / 1000000000,"
			       " ras_fold_last(times, 0, 9223372036854775807) / 1000000000 FROM folds)"
			       " SELECT count(*) FROM r WHERE n != a OR f != b OR l != c", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void check(struct ras_db *folded, struct ras_db *plain, const char *when)
{
	tap_is_int(differing_keys(), 0, "%s: each key's records and errors equal the unfolded database's", when);
	tap_is_int(scalar("SELECT count(*) FROM folds"), KEYS, "%s: a folds row for each of the %d keys", when,
		   KEYS);
	tap_is_int(scalar("SELECT count(*) - count(DISTINCT ekey || '/' || hour) FROM folds"), 0,
		   "%s: no two rows of one key and hour", when);
	tap_is_int(times_differ(folded), 0, "%s: each row's times hold a second a record, first to last", when);
	tap_is_int(export_differs(folded), 0, "%s: export's growth adds up to each folds row", when);
	tap_ok(same_summary(folded, plain), "%s: the summary equals the unfolded database's scan", when);
}

/*
 * Key 0's row past FOLD_KNOWN_TIMES_ROW bytes of seconds (32 records a second,
 * a byte each), 2,000 records a commit in the same hour as the rest.
 */
static int long_row(struct ras_db *folded, struct ras_db *plain)
{
	unsigned n = 2 * FOLD_KNOWN_TIMES_ROW + 8000, w = 0, a = 0;
	bool half = false;
	int failed = 0;

	whole = appended = 0;
	for (unsigned j = 0; j < n; j++) {
		int64_t t = T0 + 600 * SEC + (int64_t)j * SEC / 32;

		insert_at(folded, 0, seq, t, true);
		insert_at(plain, 0, seq, t, false);
		seq++;
		if (j % 2000 == 1999 || j == n - 1) {
			failed += ras_db_commit(folded) < 0;
			failed += ras_db_commit(plain) < 0;
			/* Half the bytes: the row's blob (twice its seconds at most) is kept yet. */
			if (!half && j + 1 >= FOLD_KNOWN_TIMES_ROW / 2) {
				w = whole, a = appended;
				half = true;
			}
		}
	}
	tap_ok(w > 0 && a == 0, "a row's seconds kept are bound whole (%u writes, none appended in SQL)",
	       w);
	tap_ok(appended > 0 && scalar("SELECT max(length(times)) FROM folds") > FOLD_KNOWN_TIMES_ROW,
	       "past %d bytes the row's seconds are appended in SQL (%u writes)", FOLD_KNOWN_TIMES_ROW,
	       appended);
	return failed;
}

int main(void)
{
	struct ras_db *folded, *plain;
	int failed = 0;

	test_tmpdir(dir, sizeof(dir));
	ras_decode_ctx_init(&dctx);
	folded = test_db_open(dir, "folded.db");
	plain = test_db_open(dir, "plain.db");
	if (!tap_ok(folded && plain, "databases opened"))
		return tap_done();
	sqlite3_trace_v2(folded->h, SQLITE_TRACE_STMT, note_stmt, NULL);
	/* The four keys in one batch: one hash place and one known row between them. */
	failed += batch(folded, plain, 0xf, 10, false);
	tap_ok(hashed > 0, "every key hashed to one value (%u records)", hashed);
	check(folded, plain, "one batch");
	/* Across commits: the known row is the last key written's, and each other one is another key's. */
	failed += batch(folded, plain, 0x1, 5, false);
	failed += batch(folded, plain, 0xa, 5, false);
	failed += batch(folded, plain, 0x1, 3, false);
	failed += batch(folded, plain, 0x1, 3, false);
	failed += batch(folded, plain, 0x8, 4, false);
	failed += batch(folded, plain, 0x4, 2, false);
	failed += batch(folded, plain, 0xf, 3, false);
	check(folded, plain, "across commits");
	/* A rollback forgets the known rows; the batch given again and the next ones find their own. */
	batch(folded, plain, 0xf, 2, true);
	failed += batch(folded, plain, 0x5, 4, false);
	failed += batch(folded, plain, 0xf, 4, false);
	failed += batch(folded, plain, 0x2, 1, false);
	check(folded, plain, "after a rollback");
	failed += long_row(folded, plain);
	check(folded, plain, "a long row");
	tap_is_int(failed, 0, "every batch committed");
	ras_db_close(folded);
	ras_db_close(plain);
	if (!getenv("TEST_KEEP"))
		test_rmtree(dir);
	return tap_done();
}
