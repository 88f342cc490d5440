/* SPDX-License-Identifier: MIT */
/*
 * A batch's folds are written from the list of entries it took
 * (db/db_fold_entries.c): an entry the list missed would never reach its folds row,
 * one listed twice would count twice. Thousands of DIMMs storm at once, in
 * batches of many sizes (one with more keys than three quarters of the
 * places, written in the middle of the batch and taken again), a batch
 * rolled back and given again, the slots given back between batches and a
 * restart in the middle; every DIMM's records and errors, raw plus folded,
 * equal an unfolded database's, key by key. Then a storm of one DIMM holds
 * a few entries' memory, not the whole table's, and an idle gives it back.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_fold.h"
#include "db/db_fold_internal.h"   /* FOLD_SLOTS */
#include "lib/decode.h"
#include "tap.h"
#include "test_util.h"

#define SEC 1000000000LL
#define SUBJECTS 1000                  /* DIMMs storming at once (folding follows 1,024) */
/* Rounds of a record of each DIMM: 18 every 10 minutes (four clock hours), then 18 a second apart. */
#define SPREAD 18
#define ROUNDS (2 * SPREAD)
#define RECORDS (SUBJECTS * ROUNDS)
#define T0 (1700000000LL * SEC + 1234567)

static char dir[256];
static struct ras_decode_ctx dctx;
static struct ras_db_limits limits = {
	.fold_threshold = 3, .fold_period_ns = 3600 * SEC, .fold_keep = 1, .page_size = 4096,
};

/*
 * The time of a round: the first batch's keys are of two hours (more than
 * the places' three quarters, with four counts); the later batches fold
 * into the same keys (one count, one hour) batch after batch, as a storm's
 * commits do.
 */
static int64_t round_ns(unsigned round)
{
	return round < SPREAD ? round * 600 * SEC : SPREAD * 600 * SEC + (round - SPREAD) * SEC;
}

/* Record i: DIMM i % SUBJECTS, its count (a key of its own) changing with the first rounds. */
static void insert(struct ras_db *db, unsigned i, bool fold)
{
	unsigned s = i % SUBJECTS, round = i / SUBJECTS;
	char label[64];
	struct test_mc_rec r = {
		.error_count = round < SPREAD ? 1 + round % 6 : 1, .mc_index = s / 8,
		.top_layer = s % 8, .address = 0x10000000 + 0x40 * (int64_t)i, .syndrome = i % 5,
		.label = label,
	};

	snprintf(label, sizeof(label), "DIMM_%u_%u", s / 8, s % 8);
	ras_db_begin(db);
	test_mc_insert(db, &dctx, &r, (struct ras_db_event){
		.wall_ns = T0 + round_ns(round) + (int64_t)s * 100000, .trace_ts = i,
		.source = "live", .rec_hash = i, .limits = fold ? &limits : NULL });
}

/* Records [from, to) into both; the folded one's batch rolled back first and given again when asked. */
static int batch(struct ras_db **folded, struct ras_db *plain, unsigned from, unsigned to, bool rollback)
{
	int r;

	for (unsigned i = from; rollback && i < to; i++)
		insert(*folded, i, true);
	if (rollback)
		ras_db_rollback(*folded);
	for (unsigned i = from; i < to; i++) {
		insert(*folded, i, true);
		insert(plain, i, false);
	}
	r = ras_db_commit(*folded);
	return ras_db_commit(plain) < 0 ? -1 : r;
}

/* Stores the stream in batches of these sizes, over and over; returns the failed commits. */
static int store(struct ras_db **folded, struct ras_db *plain, size_t *kept)
{
	/*
	 * The first: three hours of every DIMM, 18,000 keys (DIMM, hour, count),
	 * more than three quarters of FOLD_SLOTS: written in the batch's middle
	 * and taken again.
	 */
	static const unsigned sizes[] = { SPREAD * SUBJECTS, 256, 7, 3000, 1, 700, 256, 40, 900, 2000 };
	unsigned from = 0, n = 0;
	int failed = 0;

	while (from < RECORDS) {
		unsigned to = from + sizes[n % (sizeof(sizes) / sizeof(sizes[0]))];

		to = to > RECORDS ? RECORDS : to;
		failed += batch(folded, plain, from, to, n % 5 == 3) < 0;
		if (n == 0)
			*kept = ras_db_fold_slot_bytes(*folded);
		if (n % 3 == 1 || n == 0)
			ras_db_release_memory(*folded);   /* an idle between batches */
		if (n == 6) {                        /* a restart: the storms go on from the folds rows */
			failed += ras_db_fold_settle(*folded) < 0;
			ras_db_close(*folded);
			*folded = test_db_open(dir, "folded.db");
		}
		from = to;
		n++;
	}
	failed += ras_db_fold_settle(*folded) < 0;
	return failed;
}

/* Rows of one database's (DIMM, count) records and errors, raw and folded, not in the other's. */
static int64_t differing_keys(void)
{
	static const char sql[] =
		"WITH f(mc, l, c, n, e) AS ("
		"  SELECT mc_index, top_layer, error_count, count(*), sum(error_count) FROM main.mc_event"
		"  GROUP BY 1, 2, 3 UNION ALL"
		"  SELECT json_extract(ekey, '$[0]'), json_extract(ekey, '$[1]'),"
		"         json_extract(ekey, '$[5]'), sum(records), sum(errors) FROM main.folds"
		"  WHERE tbl = 'mc_event' GROUP BY 1, 2, 3),"
		" a(mc, l, c, n, e) AS (SELECT mc, l, c, sum(n), sum(e) FROM f GROUP BY 1, 2, 3),"
		" b(mc, l, c, n, e) AS (SELECT mc_index, top_layer, error_count, count(*), sum(error_count)"
		"  FROM p.mc_event GROUP BY 1, 2, 3)"
		" SELECT (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b))"
		"      + (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a))";
	char path[512], plain[512];

	snprintf(path, sizeof(path), "%s/folded.db", dir);
	snprintf(plain, sizeof(plain), "%s/plain.db", dir);
	return test_sql_int_with(path, plain, sql);
}

static int64_t scalar(const char *name, const char *sql)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return test_sql_int(path, sql);
}

/* One DIMM's storm after two idles: a few entries' memory, given back at the next idle. */
static void one_storm(struct ras_db *folded)
{
	size_t bytes;

	ras_db_release_memory(folded);
	ras_db_release_memory(folded);
	for (unsigned k = 0; k < 256; k++)
		insert(folded, (ROUNDS + 100 + k) * SUBJECTS, true);
	ras_db_commit(folded);
	bytes = ras_db_fold_slot_bytes(folded);
	tap_ok(bytes > 0 && bytes < 256 * 1024,
	       "a batch of one DIMM's storm holds %zu bytes of fold entries, not a table of them",
	       bytes);
	ras_db_release_memory(folded);
	tap_is_int((int64_t)ras_db_fold_slot_bytes(folded), 0, "the idle after it gives them back");
}

int main(void)
{
	struct ras_db *folded, *plain;
	size_t kept = 0;
	int64_t folds, raw;

	test_tmpdir(dir, sizeof(dir));
	ras_decode_ctx_init(&dctx);
	folded = test_db_open(dir, "folded.db");
	plain = test_db_open(dir, "plain.db");
	if (!tap_ok(folded && plain, "databases opened"))
		return tap_done();
	tap_is_int(store(&folded, plain, &kept), 0, "every batch committed");
	folds = scalar("folded.db", "SELECT sum(records) FROM folds WHERE tbl = 'mc_event'");
	raw = scalar("folded.db", "SELECT count(*) FROM mc_event");
	tap_ok(folds > RECORDS / 2 && folds + raw == RECORDS,
	       "%lld records folded, %lld raw: every record counted once", (long long)folds, (long long)raw);
	tap_ok(scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'mc_event'") > FOLD_SLOTS * 3 / 4,
	       "more keys than three quarters of the %d places: the first batch wrote in its middle",
	       FOLD_SLOTS);
	tap_is_int(differing_keys(), 0, "each DIMM's records and errors by count equal the unfolded database's");
	one_storm(folded);
	ras_db_close(folded);
	ras_db_close(plain);
	if (!getenv("TEST_KEEP"))
		test_rmtree(dir);
	tap_diag("storm-sized batch kept %zu bytes", kept);
	return tap_done();
}
