/* SPDX-License-Identifier: MIT */
/*
 * A folds row this connection wrote is merged into from what its last write
 * left, not read back (db/db_fold_write.c known_of): with more keys than the
 * 16,384 places that once named them, a batch of keys written before reads
 * none of them; a rollback forgets them all, so the batch given again reads
 * each key it touches once; past FOLD_KNOWN_MAX keys they are forgotten and
 * read again. Through all of it every key's records and errors, raw plus
 * folded, equal an unfolded database's, key by key and hour by hour.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_fold.h"
#include "db/db_internal.h"
#include "lib/decode.h"
#include "tap.h"
#include "test_util.h"

#define SEC 1000000000LL
#define SUBJECTS 1000                  /* DIMMs storming at once (folding follows 1,024) */
#define COUNTS 3                       /* error counts a DIMM reports: a key each */
#define HOURS_A 8                      /* 24,000 keys (a DIMM's first records raw): more than 16,384 */
#define HOURS_B 13                     /* 39,000: more than FOLD_KNOWN_MAX (32,768) */
#define T0 (472223LL * 3600 * SEC)     /* an hour's start */

static char dir[256];
static struct ras_decode_ctx dctx;
/* A day's period: a DIMM's storm goes on across the hours a round goes through. */
static struct ras_db_limits limits = {
	.fold_threshold = 3, .fold_period_ns = 24 * 3600 * SEC, .fold_keep = 1, .page_size = 4096,
};

/* What the folded database's folds statements did: rows read back, and inserted. */
static unsigned reads, inserts;

static int note_stmt(unsigned type, void *ctx, void *p, void *x)
{
	const char *sql = sqlite3_sql(p);

	(void)type, (void)ctx, (void)x;
	if (!sql)
		return 0;
	if (!strncmp(sql, "SELECT id, records, errors, first_ns", 36) && strstr(sql, "FROM folds WHERE"))
		reads++;
	else if (!strncmp(sql, "INSERT INTO folds (", 19))
		/* Its rows: a "(" each, after the columns' (new keys' rows go up to 16 a statement). */
		for (const char *c = strchr(sql, '(') + 1; (c = strchr(c, '(')); c++)
			inserts++;
	return 0;
}

/* Round r's record of DIMM s, count c, hour h, into db (folded when fold). */
static void insert(struct ras_db *db, unsigned r, unsigned s, unsigned c, unsigned h, bool fold)
{
	char label[64];
	unsigned i = ((r * HOURS_B + h) * SUBJECTS + s) * COUNTS + c;
	struct test_mc_rec rec = {
		.error_count = 1 + c, .mc_index = s / 8, .top_layer = s % 8,
		.address = 0x10000000 + 0x40 * (int64_t)i, .syndrome = i % 5, .label = label,
	};

	snprintf(label, sizeof(label), "DIMM_%u_%u", s / 8, s % 8);
	ras_db_begin(db);
	test_mc_insert(db, &dctx, &rec, (struct ras_db_event){
		.wall_ns = T0 + h * 3600 * SEC + r * 10 * SEC + (int64_t)s * 100000 + c * 1000,
		.trace_ts = i, .source = "live", .rec_hash = i, .limits = fold ? &limits : NULL });
}

/* Round r over hours [from, to) of every DIMM and count into both (the folded one only when rolled back). */
static int round_of(struct ras_db *folded, struct ras_db *plain, unsigned r, unsigned from, unsigned to,
		    bool rollback)
{
	int failed = 0;

	for (unsigned h = from; h < to; h++)
		for (unsigned s = 0; s < SUBJECTS; s++)
			for (unsigned c = 0; c < COUNTS; c++) {
				insert(folded, r, s, c, h, true);
				if (!rollback)
					insert(plain, r, s, c, h, false);
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

/* (DIMM, count, hour) rows of records and errors, raw plus folded, differing from the unfolded database's. */
static int64_t differing_keys(void)
{
	static const char sql[] =
		"WITH f(mc, l, c, h, n, e) AS ("
		"  SELECT mc_index, top_layer, error_count, wall_ns / 3600000000000, count(*),"
		"         sum(error_count) FROM main.mc_event GROUP BY 1, 2, 3, 4 UNION ALL"
		"  SELECT json_extract(ekey, '$[0]'), json_extract(ekey, '$[1]'),"
		"         json_extract(ekey, '$[5]'), hour, sum(records), sum(errors) FROM main.folds"
		"  WHERE tbl = 'mc_event' GROUP BY 1, 2, 3, 4),"
		" a(mc, l, c, h, n, e) AS (SELECT mc, l, c, h, sum(n), sum(e) FROM f GROUP BY 1, 2, 3, 4),"
		" b(mc, l, c, h, n, e) AS (SELECT mc_index, top_layer, error_count, wall_ns / 3600000000000,"
		"  count(*), sum(error_count) FROM p.mc_event GROUP BY 1, 2, 3, 4)"
		" SELECT (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b))"
		"      + (SELECT count(*) FROM (SELECT * FROM b EXCEPT SELECT * FROM a))";
	char path[512], plain[512];

	snprintf(path, sizeof(path), "%s/folded.db", dir);
	snprintf(plain, sizeof(plain), "%s/plain.db", dir);
	return test_sql_int_with(path, plain, sql);
}

/* The folds rows round r wrote to: the fold_growth rows after seq, by folds row. */
static int64_t touched_after(int64_t seq)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "SELECT count(DISTINCT fold) FROM fold_growth WHERE seq > %lld",
		 (long long)seq);
	return scalar(sql);
}

/* The keys of HOURS_A: written, written again (none read), rolled back, given again (each read once). */
static int keys_kept(struct ras_db *folded, struct ras_db *plain)
{
	int failed = round_of(folded, plain, 0, 0, HOURS_A, false);
	int64_t keys = scalar("SELECT count(*) FROM folds"), seq;

	tap_ok(keys > 16384, "the first round wrote %lld folds rows: more than 16,384 places", (long long)keys);
	reads = inserts = 0;
	failed += round_of(folded, plain, 1, 0, HOURS_A, false);
	tap_ok(reads == inserts && scalar("SELECT count(*) FROM folds") == keys + inserts,
	       "the same keys again: %u rows read, each a key new to the folds table (%u)", reads, inserts);
	seq = scalar("SELECT max(seq) FROM fold_growth");
	round_of(folded, plain, 2, 0, HOURS_A, true);
	reads = inserts = 0;
	failed += round_of(folded, plain, 2, 0, HOURS_A, false);
	tap_ok(reads == touched_after(seq) && reads > 16384,
	       "after a rollback the batch given again reads each key it writes once (%u, %lld)", reads,
	       (long long)touched_after(seq));
	return failed;
}

int main(void)
{
	struct ras_db *folded, *plain;
	int failed;

	test_tmpdir(dir, sizeof(dir));
	ras_decode_ctx_init(&dctx);
	folded = test_db_open(dir, "folded.db");
	plain = test_db_open(dir, "plain.db");
	if (!tap_ok(folded && plain, "databases opened"))
		return tap_done();
	sqlite3_trace_v2(folded->h, SQLITE_TRACE_STMT, note_stmt, NULL);
	failed = keys_kept(folded, plain);
	tap_is_int(differing_keys(), 0, "each key's records and errors equal the unfolded database's");
	/* Hours of new keys, past FOLD_KNOWN_MAX, then the first ones again: forgotten, read again. */
	failed += round_of(folded, plain, 3, HOURS_A, HOURS_B, false);
	reads = inserts = 0;
	failed += round_of(folded, plain, 4, 0, HOURS_A, false);
	tap_ok(scalar("SELECT count(*) FROM folds") > 32768 && reads > inserts,
	       "past 32,768 keys (%lld) the ones forgotten are read again (%u rows read, %u new keys)",
	       (long long)scalar("SELECT count(*) FROM folds"), reads, inserts);
	tap_is_int(failed, 0, "every batch committed");
	tap_is_int(differing_keys(), 0, "each key's records and errors still equal the unfolded database's");
	ras_db_close(folded);
	ras_db_close(plain);
	if (!getenv("TEST_KEEP"))
		test_rmtree(dir);
	return tap_done();
}
