/* SPDX-License-Identifier: MIT */
/*
 * Decoded values that differ per record (a machine check's corrected count)
 * are stored in the event row, so that a storm's records share one decoding
 * row; every record still reads back its own value, through ras_db_errors
 * and the <table>_decoded view. A database of schema 13, where each machine
 * check had a decoding row of its own holding the count, is upgraded: the
 * counts move to the event rows and read back the same. A part's rows
 * (ras_db_errors with locations), read from the table with each decoding
 * looked up once, read as the view gives them.
 */
#include <sqlite3.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "db/db_query.h"
#include "lib/decode.h"
#include "tap.h"
#include "test_util.h"

#define SEC 1000000000LL
#define N 400

static char dir[256], path[600];
static const struct ras_dfield *count_field;

/* The count the record's STATUS[52:38] holds: varied, as a storm's are. */
static int64_t count_of(unsigned i)
{
	return (int64_t)((i * 37u + 5) % 0x7fffu);
}

/* A corrected memory read error (MCACOD 0x0090) in a Skylake-SP bank, on a given CPU. */
static void insert_mce_at(struct ras_db *db, unsigned i, const struct ras_db_limits *limits,
			  unsigned cpu, unsigned bank)
{
	const struct ras_event_type *t = ras_event_type_find("mce_record");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	struct ras_db_event ev = {
		.type_idx = (unsigned)(t - ras_event_types), .wall_ns = 1800000000 * SEC + i * SEC,
		.trace_ts = 1000 + i, .source = "live", .rec_hash = 1000 + i, .values = v,
		.decoded = decoded, .limits = limits,
	};
	/* VAL, EN, MISCV, ADDRV; the count; a memory read on channel 0. */
	uint64_t status = 0x9c00000000000000ULL | (uint64_t)count_of(i) << 38 | 0x0090;

	test_set_field(t, v, "status", (int64_t)status, NULL);
	/* One page, many lines of it: a page storm, the subject folding counts. */
	test_set_field(t, v, "addr", 0x3f000000 + 0x40 * (int64_t)(i % 64), NULL);
	test_set_field(t, v, "misc", 0x86, NULL);
	/* SER_P, TES_P, CMCI_P, 20 banks: CMCI makes STATUS[52:38] the count. */
	test_set_field(t, v, "mcgcap", 1 << 24 | 1 << 11 | 1 << 10 | 20, NULL);
	test_set_field(t, v, "bank", bank, NULL);
	test_set_field(t, v, "cpuvendor", 0, NULL);
	test_set_field(t, v, "cpuid", 0x50654, NULL);
	test_set_field(t, v, "cpu", cpu, NULL);
	test_set_field(t, v, "socketid", 0, NULL);
	ras_decode_values(t, v, NULL, decoded);
	ras_db_begin(db);
	ras_db_insert_event(db, &ev);
}

/* ... in IMC bank 13, on one of 4 CPUs. */
static void insert_mce(struct ras_db *db, unsigned i, const struct ras_db_limits *limits)
{
	insert_mce_at(db, i, limits, i % 4, 13);
}

struct readback {
	unsigned rows, right;
};

static int check_row(void *ctx, const struct ras_db_row *row)
{
	struct readback *rb = ctx;
	int64_t status = row->values[0].i;
	const struct ras_event_type *t = &ras_event_types[row->type_idx];

	for (unsigned k = 0; k < t->n_fields; k++)
		if (!strcmp(t->fields[k].name, "status"))
			status = row->values[k].i;
	rb->rows++;
	rb->right += ras_dfield_int(row->decoded, count_field) == (int64_t)(((uint64_t)status >> 38) & 0x7fff);
	return 0;
}

/* Every stored machine check, read as ras-fdr-ctl reads them: how many carry their own count. */
static void check_readback(const char *when)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	struct readback rb = { 0 };
	struct ras_db *db = NULL;
	char err[512];

	if (ras_db_open_reader(&db, path, err, sizeof(err)) < 0) {
		tap_ok(0, "%s: open for reading: %s", when, err);
		return;
	}
	f.type_idx = (int)(ras_event_type_find("mce_record") - ras_event_types);
	ras_db_errors(db, &f, check_row, &rb);
	ras_db_close(db);
	tap_ok(rb.rows == N && rb.right == N, "%s: %u records read back, %u with their own corrected count",
	       when, rb.rows, rb.right);
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM mce_record_decoded"
			       " WHERE corrected_count = ((status >> 38) & 32767)"), N,
		   "%s: the view gives each record its count", when);
}

/* What schema 13 stored: a decoding row per machine check, holding its count. */
static void make_schema_13(void)
{
	static const char cols_sql[] =
		"SELECT group_concat('\"' || name || '\"', ', '), group_concat('d.\"' || name || '\"', ', ')"
		" FROM pragma_table_info('mce_record_dec') WHERE name NOT IN ('id', 'sig')";
	char sql[8192];
	sqlite3_stmt *st;
	sqlite3 *h;
	int r;

	sqlite3_open(path, &h);
	sqlite3_prepare_v2(h, cols_sql, -1, &st, NULL);
	sqlite3_step(st);
	/* Each record's own copy of its shared decoding, with its count. */
	snprintf(sql, sizeof(sql),
		 "ALTER TABLE mce_record_dec ADD COLUMN corrected_count INTEGER;"
		 "CREATE TABLE expected AS SELECT id, corrected_count FROM mce_record;"
		 "INSERT INTO mce_record_dec (sig, %s, corrected_count)"
		 " SELECT 1000000 + e.id, %s, e.corrected_count FROM mce_record e"
		 " JOIN mce_record_dec d ON d.id = e.dec;"
		 "UPDATE mce_record SET dec = (SELECT id FROM mce_record_dec"
		 " WHERE sig = 1000000 + mce_record.id), corrected_count = NULL;"
		 "DELETE FROM mce_record_dec WHERE sig < 1000000 OR sig > 1000000 + %d;"
		 "PRAGMA user_version = 13;",
		 (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1), N);
	sqlite3_finalize(st);
	r = sqlite3_exec(h, sql, NULL, NULL, NULL);
	tap_is_int(r, SQLITE_OK, "made schema 13: %d decoding rows, the counts in them only", N);
	if (r != SQLITE_OK)
		tap_diag("%s", sqlite3_errmsg(h));
	sqlite3_close(h);
}

/*
 * With storm folding, most records past fold_keep are held in memory and
 * folded, the rest inserted at commit from the held copy: each kept row must
 * still carry its own count.
 */
static void check_held(void)
{
	struct ras_db_limits limits = { .fold_threshold = 20, .fold_period_ns = 3600 * SEC,
					.fold_keep = 5, .page_size = 4096 };
	char folded[700], err[512];
	struct ras_db *db = NULL;
	int64_t kept, in_folds;

	snprintf(folded, sizeof(folded), "%s/folded.db", dir);
	if (ras_db_open_writer(&db, folded, "test-boot", err, sizeof(err)) < 0) {
		tap_ok(0, "open %s: %s", folded, err);
		return;
	}
	for (unsigned i = 0; i < N; i++) {
		insert_mce(db, i, &limits);
		if (i % 50 == 49)
			ras_db_commit(db);
	}
	ras_db_commit(db);
	ras_db_close(db);
	kept = test_sql_int(folded, "SELECT count(*) FROM mce_record");
	in_folds = test_sql_int(folded, "SELECT sum(records) FROM folds WHERE tbl = 'mce_record'");
	tap_ok(kept + in_folds == N && kept < N / 2, "folding kept %lld machine checks raw and folded %lld",
	       (long long)kept, (long long)in_folds);
	tap_is_int(test_sql_int(folded, "SELECT count(*) FROM mce_record"
				" WHERE corrected_count = ((status >> 38) & 32767)"), kept,
		   "every kept one, inserted from its held copy or not, carries its own count");
}

/*
 * A storm over many CPUs and banks: 20,480 distinct decodings, each met three
 * times in a scrambled order, five times as many as the cache of recent
 * decodings has slots (db_insert.c), so slots are taken over again and again.
 * Every record must still name its own decoding, stored once.
 */
static void check_many_decodings(void)
{
	enum { CPUS = 512, BANKS = 40, DISTINCT = CPUS * BANKS, ROUNDS = 3 };
	char many[700], err[512];
	struct ras_db *db = NULL;

	snprintf(many, sizeof(many), "%s/many.db", dir);
	if (ras_db_open_writer(&db, many, "test-boot", err, sizeof(err)) < 0) {
		tap_ok(0, "open %s: %s", many, err);
		return;
	}
	for (unsigned i = 0; i < DISTINCT * ROUNDS; i++) {
		/* 7919 is prime to DISTINCT: each round visits every decoding once, scrambled. */
		unsigned k = (i * 7919u) % DISTINCT;

		insert_mce_at(db, i, NULL, k % CPUS, 5 + (k / CPUS) % BANKS);
		if (i % 5000 == 4999)
			ras_db_commit(db);
	}
	ras_db_commit(db);
	ras_db_close(db);
	tap_is_int(test_sql_int(many, "SELECT count(*) FROM mce_record_dec"), DISTINCT,
		   "%d machine checks over %d CPUs and %d banks: one decoding row each of %d",
		   DISTINCT * ROUNDS, CPUS, BANKS, DISTINCT);
	tap_is_int(test_sql_int(many, "SELECT count(*) FROM mce_record e JOIN mce_record_dec d ON d.id = e.dec"
				" WHERE d.location || ',' GLOB '*CPU ' || e.cpu || ', bank ' || e.bank || '[ ,]*'"),
		   DISTINCT * ROUNDS, "every record names its own CPU and bank's decoding");
}

/*
 * A part's rows (ras_db_errors with locations, report --part) are read from
 * the table, each decoding looked up once and kept (db_row_read.c): every
 * row must read as the view gives it to the walk without locations. Rows
 * of many decodings in turn (more than it keeps), and rows without a
 * decoding or whose decoding is gone (location "").
 */
struct ref_row {
	bool seen;
	int64_t wall;
	uint64_t hash;                 /* of the raw values, decoded struct, boot and location */
};
struct by_key {
	struct ref_row *ref;
	int64_t nref, last_wall, last_id;
	const char *const *locs;
	unsigned nlocs, rows, wrong, wanted;
	bool located;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const uint8_t *)p)[i]) * 0x100000001b3ULL;
	return h;
}

static uint64_t row_hash(const struct ras_db_row *row)
{
	const struct ras_event_type *t = &ras_event_types[row->type_idx];
	uint64_t h = fnv(0xcbf29ce484222325ULL, row->decoded, RAS_DECODED_MAX);

	for (unsigned k = 0; k < t->n_fields; k++) {
		const struct ras_value *v = &row->values[k];

		h = fnv(h, &v->present, sizeof(v->present));
		h = v->p ? fnv(h, v->p, v->len) : fnv(h, &v->i, sizeof(v->i));
	}
	h = fnv(h, row->boot_id ? row->boot_id : "(null)", strlen(row->boot_id ? row->boot_id : "(null)"));
	return fnv(h, row->location, strlen(row->location) + 1);
}

static bool wanted(const struct by_key *bk, const char *loc)
{
	for (unsigned i = 0; i < bk->nlocs; i++)
		if (!strcmp(bk->locs[i], loc))
			return true;
	return false;
}

static int by_key_row(void *ctx, const struct ras_db_row *row)
{
	struct by_key *bk = ctx;
	struct ref_row *r = row->id > 0 && row->id < bk->nref ? &bk->ref[row->id] : NULL;

	bk->rows++;
	if (!bk->located) {
		if (r)
			*r = (struct ref_row){ true, row->wall_ns, row_hash(row) };
		bk->wanted += wanted(bk, row->location);
		return 0;
	}
	/* Its reference row, in the walk's order (newest first), of a wanted location. */
	bk->wrong += !r || !r->seen || r->wall != row->wall_ns || r->hash != row_hash(row) ||
		     !wanted(bk, row->location) || row->wall_ns > bk->last_wall ||
		     (row->wall_ns == bk->last_wall && row->id >= bk->last_id);
	bk->last_wall = row->wall_ns;
	bk->last_id = row->id;
	return 0;
}

static void check_by_key(const char *file, const char *const *locs, unsigned nlocs, const char *what)
{
	struct ras_db_filter f = { .include_synthetic = true };
	struct by_key bk = { .locs = locs, .nlocs = nlocs, .last_wall = INT64_MAX };
	struct ras_db *db = NULL;
	char err[512];

	bk.nref = test_sql_int(file, "SELECT max(id) + 1 FROM mce_record");
	bk.ref = calloc((size_t)bk.nref, sizeof(*bk.ref));
	if (!bk.ref || ras_db_open_reader(&db, file, err, sizeof(err)) < 0) {
		tap_ok(0, "%s: open for reading: %s", what, err);
		free(bk.ref);
		return;
	}
	f.type_idx = (int)(ras_event_type_find("mce_record") - ras_event_types);
	ras_db_errors(db, &f, by_key_row, &bk);
	unsigned want = bk.wanted;

	bk.located = true;
	bk.rows = 0;
	f.locations = locs;
	f.nlocations = nlocs;
	ras_db_errors(db, &f, by_key_row, &bk);
	ras_db_close(db);
	tap_ok(want > 0 && bk.rows == want && !bk.wrong,
	       "%s: %u rows of %u locations, %u of them unlike the view's", what, bk.rows, nlocs,
	       bk.wrong);
	free(bk.ref);
}

/* Rows without a decoding (dec NULL) and whose decoding is gone: location "". */
static void drop_decodings(const char *file)
{
	sqlite3 *h;

	if (sqlite3_open(file, &h) == SQLITE_OK)
		sqlite3_exec(h, "UPDATE mce_record SET dec = NULL WHERE id % 97 = 1;"
			     " UPDATE mce_record SET dec = 99999999 WHERE id % 89 = 2", NULL, NULL, NULL);
	sqlite3_close(h);
}

/* Up to n stored locations of file's machine-check decodings, the first ones, then "". */
static unsigned some_locations(const char *file, char (*out)[128], const char **locs, unsigned n)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	unsigned k = 0;

	if (sqlite3_open(file, &h) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, "SELECT location FROM mce_record_dec ORDER BY id LIMIT ?", -1, &st,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_int(st, 1, (int)n);
		while (k < n && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
			snprintf(out[k], sizeof(out[k]), "%s", (const char *)sqlite3_column_text(st, 0));
			locs[k] = out[k];
			k++;
		}
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	locs[k] = "";
	return k + 1;
}

static void check_located(void)
{
	char many[700], out[40][128];
	const char *locs[41];
	unsigned n;

	n = some_locations(path, out, locs, 40);
	check_by_key(path, locs, n - 1, "the stored machine checks, read by location");
	snprintf(many, sizeof(many), "%s/many.db", dir);
	n = some_locations(many, out, locs, 40);
	check_by_key(many, locs, n - 1, "40 of 20480 decodings in turn (more than are kept), read by location");
	drop_decodings(many);
	check_by_key(many, locs, n, "and with rows whose decoding is none or gone");
}

int main(void)
{
	const struct ras_event_type *t = ras_event_type_find("mce_record");
	struct ras_db *db = NULL;
	char err[512];

	for (size_t i = 0; i < *t->n_dfields; i++)
		if (!strcmp(t->dfields[i].name, "corrected_count"))
			count_field = &t->dfields[i];
	if (!tap_ok(count_field && count_field->per_record, "corrected_count is a per-record value"))
		return tap_done();
	test_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/ras.db", dir);
	if (ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) < 0) {
		tap_ok(0, "open: %s", err);
		return tap_done();
	}
	for (unsigned i = 0; i < N; i++)
		insert_mce(db, i, NULL);
	tap_is_int(ras_db_commit(db), 0, "%d machine checks stored", N);
	ras_db_close(db);
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM mce_record_dec"), 4,
		   "400 machine checks on 4 CPUs share 4 decoding rows");
	check_readback("stored");
	make_schema_13();
	if (ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) < 0)
		tap_ok(0, "upgrade: %s", err);
	ras_db_close(db);
	tap_is_int(test_sql_int(path, "PRAGMA user_version"), RAS_DB_SCHEMA_VERSION, "upgraded");
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM mce_record e JOIN expected x ON x.id = e.id"
			       " WHERE e.corrected_count = x.corrected_count"), N,
		   "the upgrade moved every count into its event row");
	check_readback("upgraded");
	check_held();
	check_many_decodings();
	check_located();
	if (!getenv("RAS_TEST_KEEP"))
		test_rmtree(dir);
	return tap_done();
}
