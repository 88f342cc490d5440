/* SPDX-License-Identifier: MIT */
/*
 * The writer thread (db/db_writer.c). The same varied records stored with
 * and without it give the same rows, ids, decodings and roll-ups. A read on
 * the same handle sees the inserts handed over before it. A deferred insert
 * that fails (a trigger refuses it; the file may not grow: SQLite's full disk,
 * after which SQLite rolls the whole transaction back) fails the commit, and
 * commits nothing, not even the records after it, row by row (126 were, before
 * the writer thread dropped its jobs after a failure); the batch given again
 * is stored once; so is one refused in the middle of a 16-row INSERT, of its
 * rows or of its new decodings (the writer thread held at a gate while they
 * are handed over), the same as a database that never failed. Commits
 * behind (ras_db_commit_behind) follow one another without waiting; one
 * that fails takes the batch after it along, one made before a failure
 * stays made. Closing with records handed over and no
 * commit keeps none.
 * With storm folding on, the same again: the records, folding's decision
 * and its flush go to the writer thread, committed behind, and give the same
 * raw rows, folds and roll-ups as folding on the event loop's thread; and
 * with commits made by ras_db_commit (rasd's small groups), every stage's
 * flush runs on the writer thread, none on the caller's; with every batch
 * committed behind the roll-ups' flush does too.
 * A statement run beside the writer thread without syncing aborts.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "db/db.h"
#include "db/db_internal.h"
#include "db/db_query.h"
#include "lib/decode.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define SEC 1000000000LL
#define VARIED 20000

static char dir[256];
/* The limits the stream's records bring (NULL: none, no folding). */
static const struct ras_db_limits *limits;

/*
 * Record i of a varied stream: EDAC and machine-check errors over many DIMMs,
 * CPUs and banks (a machine check when i % 3 != 0; record poison_cpu names
 * CPU 999, which a test trigger refuses).
 */
static int store(struct ras_db *db, unsigned i, unsigned poison_cpu)
{
	bool edac = i % 3 == 0;
	const struct ras_event_type *t = ras_event_type_find(edac ? "mc_event" : "mce_record");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	struct ras_db_event ev = {
		.type_idx = (unsigned)(t - ras_event_types), .wall_ns = 1800000000 * SEC + (int64_t)i * 1000,
		.trace_ts = 1000 + i, .trace_cpu = (int)(i % 2), .source = "live", .rec_hash = 7919u * i,
		.values = v, .decoded = decoded, .limits = limits,
	};
	char label[64], detail[96];
	uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ULL;

	if (edac) {
		snprintf(label, sizeof(label), "CPU_SrcID#%u_MC#%u_Chan#%u_DIMM#%u",
			 (unsigned)(x >> 60) % 2, (unsigned)(x >> 56) % 2, (unsigned)(x >> 50) % 6,
			 (unsigned)(x >> 40) % 2);
		snprintf(detail, sizeof(detail), "rank:%u bg:%u ba:%u row:0x%x col:0x%x",
			 (unsigned)(x >> 8) % 4, (unsigned)(x >> 12) % 4, (unsigned)(x >> 16) % 4,
			 (unsigned)(x >> 20) % 0x20000, (unsigned)(x >> 40) % 0x400 << 3);
		test_set_field(t, v, "error_type", 0, NULL);
		test_set_field(t, v, "msg", 0, "memory read error");
		test_set_field(t, v, "label", 0, label);
		test_set_field(t, v, "error_count", 1 + (int64_t)(x >> 33) % 3, NULL);
		test_set_field(t, v, "mc_index", (int64_t)(x >> 56) % 4, NULL);
		test_set_field(t, v, "top_layer", (int64_t)(x >> 50) % 6, NULL);
		test_set_field(t, v, "middle_layer", (int64_t)(x >> 40) % 2, NULL);
		test_set_field(t, v, "lower_layer", -1, NULL);
		test_set_field(t, v, "address", (int64_t)(x & 0x3fffffffc0ULL), NULL);
		test_set_field(t, v, "grain_bits", 6, NULL);
		test_set_field(t, v, "syndrome", (int64_t)(x >> 32), NULL);
		test_set_field(t, v, "driver_detail", 0, detail);
	} else {
		unsigned cpu = i == poison_cpu ? 999 : (unsigned)(x >> 58);

		/* VAL, EN, MISCV, ADDRV; a corrected count; a memory read on channel 0-3. */
		test_set_field(t, v, "status", (int64_t)(0x9c00000000000090ULL | ((x >> 20) % 0x7fff) << 38 |
							  (x >> 10) % 4), NULL);
		test_set_field(t, v, "addr", (int64_t)(x & 0x3fffffffc0ULL), NULL);
		test_set_field(t, v, "misc", 0x86, NULL);
		test_set_field(t, v, "mcgcap", 1 << 24 | 1 << 11 | 1 << 10 | 20, NULL);
		test_set_field(t, v, "bank", 5 + (int64_t)(x >> 44) % 16, NULL);
		test_set_field(t, v, "cpuvendor", 0, NULL);
		test_set_field(t, v, "cpuid", 0x50654, NULL);
		test_set_field(t, v, "cpu", cpu, NULL);
		test_set_field(t, v, "socketid", cpu / 32, NULL);
	}
	ras_decode_values(t, v, NULL, decoded);
	if (ras_db_begin(db) < 0)
		return -1;
	return ras_db_insert_event(db, &ev);
}

/* Rows in both event tables the stream fills, read by another connection. */
static int64_t rows_in(const char *path)
{
	return test_sql_int(path, "SELECT count(*) FROM mce_record") +
	       test_sql_int(path, "SELECT count(*) FROM mc_event");
}

/* mce_record rows stored more than once. */
static int64_t records_twice(const char *path)
{
	return test_sql_int(path, "SELECT count(*) FROM (SELECT 1 FROM mce_record GROUP BY rec_hash"
			    " HAVING count(*) > 1)");
}

static void check_same_rows(void)
{
	static const char *const tables[] = {
		"mc_event", "mc_event_dec", "mce_record", "mce_record_dec", "rollup_hourly", "rollup_totals",
		"rollup_edac", "rollup_subjects",
	};
	char path[2][600];
	int failed = 0;

	for (int behind = 0; behind < 2; behind++) {
		struct ras_db *db;

		snprintf(path[behind], sizeof(path[behind]), "%s/%s.db", dir, behind ? "behind" : "inline");
		if (!(db = open_db(path[behind], behind)))
			return;
		for (unsigned i = 0; i < VARIED; i++) {
			failed += store(db, i, ~0u) != 1;
			if (i % 5000 == 4999)
				failed += ras_db_commit(db) < 0;
		}
		failed += ras_db_commit(db) < 0;
		ras_db_close(db);
	}
	tap_is_int(failed, 0, "%d varied records stored with the writer thread and without", VARIED);
	tap_is_int(test_sql_int(path[1], "SELECT count(*) FROM mce_record_dec"),
		   test_sql_int(path[0], "SELECT count(*) FROM mce_record_dec"),
		   "as many machine-check decodings (%lld)",
		   (long long)test_sql_int(path[0], "SELECT count(*) FROM mce_record_dec"));
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		tap_is_int(differing(path[0], path[1], tables[i]), 0, "%s: the same rows, ids included",
			   tables[i]);
}

static int count_row(void *ctx, const struct ras_db_row *row)
{
	(void)row;
	(*(int *)ctx)++;
	return 0;
}

/* A read on the handle that handed the inserts over sees them, before the commit. */
static void check_read_sees_deferred(void)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	char path[600];
	struct ras_db *db;
	int rows = 0, failed = 0;

	snprintf(path, sizeof(path), "%s/read.db", dir);
	if (!(db = open_db(path, true)))
		return;
	for (unsigned i = 0; i < 3000; i++)
		failed += store(db, i, ~0u) != 1;
	if (ras_db_errors(db, &f, count_row, &rows) < 0)
		failed++;
	tap_ok(!failed && rows == 3000, "3000 records handed to the writer thread: a read on the same"
	       " handle sees %d", rows);
	tap_is_int(ras_db_commit(db), 0, "committed");
	ras_db_close(db);
	tap_is_int(rows_in(path), 3000, "and another reader sees them");
}

/*
 * Record 500 of 1000 is refused by a trigger on the writer thread. The
 * insert calls succeed (handed over); the commit fails with the trigger's
 * words, and nothing is committed. The batch given again without it: 999.
 */
static void check_refused_insert(void)
{
	char path[600];
	struct ras_db *db;
	sqlite3 *h;
	int failed = 0, r;

	snprintf(path, sizeof(path), "%s/refused.db", dir);
	if (!(db = open_db(path, false)))
		return;
	ras_db_close(db);
	sqlite3_open(path, &h);
	sqlite3_exec(h, "CREATE TRIGGER poison BEFORE INSERT ON mce_record WHEN NEW.cpu = 999"
		     " BEGIN SELECT RAISE(ABORT, 'poisoned record'); END", NULL, NULL, NULL);
	sqlite3_close(h);
	if (!(db = open_db(path, true)))
		return;
	for (unsigned i = 0; i < 1000; i++)
		failed += store(db, i, 500) != 1;
	tap_is_int(failed, 0, "1000 inserts handed over, the refused one among them");
	r = ras_db_commit(db);
	tap_is_int(r, -EIO, "the commit fails: %s", ras_db_errmsg(db));
	tap_ok(strstr(ras_db_errmsg(db), "poisoned record") != NULL, "with the refusal's words");
	tap_is_int(ras_db_last_errno(db), -EIO, "ras_db_last_errno says -EIO");
	ras_db_rollback(db);
	tap_is_int(rows_in(path), 0,
		   "nothing committed, none of the records after the refused one either");
	failed = 0;
	for (unsigned i = 0; i < 1000; i++)
		if (i != 500)
			failed += store(db, i, ~0u) != 1;
	tap_ok(!failed && ras_db_commit(db) == 0, "the batch given again without it commits");
	ras_db_close(db);
	tap_is_int(rows_in(path), 999, "999 records, each once");
	tap_is_int(records_twice(path), 0, "no record twice");
}

/*
 * The file may not grow (max_page_count; SQLite's full disk): an insert on the
 * writer thread fails with SQLITE_FULL and SQLite rolls the transaction back,
 * freeing its pages. The jobs after it must not run, or each would commit on
 * its own into the room the rollback made.
 */
static void check_full_rolls_back(void)
{
	char path[600], sql[128];
	struct ras_db *db;
	int failed = 0;
	int64_t pages;

	snprintf(path, sizeof(path), "%s/full.db", dir);
	if (!(db = open_db(path, true)))
		return;
	pages = test_sql_int(path, "PRAGMA page_count");
	snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %lld", (long long)pages + 40);
	tap_is_int(ras_db_sync(db), 0, "synced before touching the connection");
	sqlite3_exec(db->h, sql, NULL, NULL, NULL);
	/* The log grows in memory until the cache spills; a commit writes it: 40 pages are soon filled. */
	for (unsigned i = 0; i < 4000; i++)
		failed += store(db, i, ~0u) != 1;
	tap_is_int(failed, 0, "4000 inserts handed over");
	tap_is_int(ras_db_commit(db), -ENOSPC, "the commit says the disk is full: %s", ras_db_errmsg(db));
	ras_db_rollback(db);
	tap_is_int(rows_in(path), 0, "nothing committed, row by row or at all");
	sqlite3_exec(db->h, "PRAGMA max_page_count = 1073741823", NULL, NULL, NULL);
	failed = 0;
	for (unsigned i = 0; i < 4000; i++)
		failed += store(db, i, ~0u) != 1;
	tap_ok(!failed && ras_db_commit(db) == 0, "room again: the batch given again commits");
	ras_db_close(db);
	tap_is_int(rows_in(path), 4000, "4000 records, each once");
}

/* Rows changed by commits made here (ras_db_commit), on the caller's thread and on the writer thread. */
static pthread_t caller;
static unsigned long changed_here, changed_there;
static bool committing;

static void note_change(void *ctx, int op, const char *db, const char *table, sqlite3_int64 id)
{
	(void)ctx, (void)op, (void)db, (void)table, (void)id;
	if (!__atomic_load_n(&committing, __ATOMIC_ACQUIRE))
		return;
	if (pthread_equal(pthread_self(), caller))
		__atomic_add_fetch(&changed_here, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&changed_there, 1, __ATOMIC_RELAXED);
}

/* A commit made here (a small group, a trickle, the stop, a settle), its row changes noted by thread. */
static int commit_noted(struct ras_db *db, bool settle)
{
	int r;

	__atomic_store_n(&committing, true, __ATOMIC_RELEASE);
	r = settle ? ras_db_fold_settle(db) : ras_db_commit(db);
	__atomic_store_n(&committing, false, __ATOMIC_RELEASE);
	return r;
}

/*
 * Folding on, every batch committed by ras_db_commit (as rasd's small groups,
 * trickles and stop are): with a writer thread every stage's flush (folding's
 * held records stored, rows folded, folds rows written; the roll-ups'
 * upserts) and the COMMIT run on it, none on the caller's thread, and the
 * database is the one made without a writer thread.
 */
static void check_rollups_behind(const char *inline_path);

static void check_flush_on_writer(void)
{
	static const struct ras_db_limits fold = { .fold_threshold = 20, .fold_period_ns = 3600 * SEC,
						   .fold_keep = 5, .page_size = 4096 };
	static const char *const tables[] = {
		"mc_event", "mce_record", "folds", "rollup_hourly", "rollup_totals", "rollup_edac",
		"rollup_subjects",
	};
	char path[2][600];
	int failed = 0;

	limits = &fold;
	caller = pthread_self();
	for (int behind = 0; behind < 2; behind++) {
		struct ras_db *db;

		snprintf(path[behind], sizeof(path[behind]), "%s/%s-here.db", dir, behind ? "behind" : "inline");
		if (!(db = open_db(path[behind], behind)))
			return;
		if (behind)
			sqlite3_update_hook(db->h, note_change, NULL);
		for (unsigned i = 0; i < VARIED / 4; i++) {
			failed += store(db, i, ~0u) != 1;
			if (i % 300 == 299)
				failed += commit_noted(db, false) < 0;
		}
		failed += commit_noted(db, false) < 0 || commit_noted(db, true) < 0;
		ras_db_close(db);
	}
	limits = NULL;
	tap_is_int(failed, 0, "%d varied records folded, committed by ras_db_commit, with the writer"
		   " thread and without", VARIED / 4);
	tap_ok(changed_here == 0 && changed_there > 0, "the commits' flushes ran on the writer thread:"
	       " %lu rows changed there, %lu on the caller's thread", changed_there, changed_here);
	tap_ok(test_sql_int(path[1], "SELECT sum(records) FROM folds") > VARIED / 8,
	       "the storm folded (%lld records in folds)",
	       (long long)test_sql_int(path[1], "SELECT sum(records) FROM folds"));
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		tap_is_int(differing(path[0], path[1], tables[i]), 0,
			   "committed here, %s: the same rows, ids included", tables[i]);
	check_rollups_behind(path[0]);
}

/*
 * Most roll-up tables are WITHOUT ROWID, which the update hook does not see
 * (the hourly one is a rowid table since schema 26, seen by both ways):
 * which thread writes them is told by which thread prepares their upserts
 * (the authorizer runs on the preparing thread), each statement prepared by
 * the flush that first needs it.
 */
static unsigned long rollup_prepared_here, rollup_prepared_there;

static int note_rollup_prepare(void *ctx, int action, const char *a, const char *b, const char *c,
			       const char *d)
{
	(void)ctx, (void)b, (void)c, (void)d;
	if ((action != SQLITE_INSERT && action != SQLITE_UPDATE) || !a ||
	    (strncmp(a, "rollup_", 7) && strcmp(a, "metrics_subjects")))
		return SQLITE_OK;
	if (pthread_equal(pthread_self(), caller))
		__atomic_add_fetch(&rollup_prepared_here, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&rollup_prepared_there, 1, __ATOMIC_RELAXED);
	return SQLITE_OK;
}

/*
 * The same records and folding, every batch committed behind (rasd's full
 * batches): the roll-ups' counts go to the writer thread with each commit,
 * which writes them there while the caller counts the next batch into a
 * second set; the caller's thread builds no roll-up write and changes no
 * row, and the database is the one committed here without a writer thread.
 */
static void check_rollups_behind(const char *inline_path)
{
	static const struct ras_db_limits fold = { .fold_threshold = 20, .fold_period_ns = 3600 * SEC,
						   .fold_keep = 5, .page_size = 4096 };
	static const char *const tables[] = {
		"rollup_hourly", "rollup_totals", "rollup_edac", "rollup_subjects", "metrics_subjects",
		"mc_event", "folds",
	};
	char path[600];
	struct ras_db *db;
	uint64_t ticket = 0;
	int failed = 0;

	snprintf(path, sizeof(path), "%s/behind-rollups.db", dir);
	limits = &fold;
	caller = pthread_self();
	changed_here = changed_there = 0;
	if (!(db = open_db(path, true)))
		return;
	sqlite3_update_hook(db->h, note_change, NULL);
	sqlite3_set_authorizer(db->h, note_rollup_prepare, NULL);
	__atomic_store_n(&committing, true, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < VARIED / 4; i++) {
		failed += store(db, i, ~0u) != 1;
		/* As rasd: the one behind is made before the next goes (here every other time). */
		if (i % 300 == 299)
			failed += (i % 600 == 599 && ras_db_commit_wait(db, ticket) < 0) ||
				  ras_db_commit_behind(db, &ticket) < 0;
	}
	failed += ras_db_commit_behind(db, &ticket) < 0 || ras_db_commit_wait(db, ticket) < 0 ||
		  ras_db_fold_settle(db) < 0;
	__atomic_store_n(&committing, false, __ATOMIC_RELEASE);
	sqlite3_set_authorizer(db->h, NULL, NULL);
	ras_db_close(db);
	limits = NULL;
	tap_is_int(failed, 0, "%d varied records folded, committed behind every 300", VARIED / 4);
	tap_ok(rollup_prepared_here == 0 && rollup_prepared_there > 0, "the roll-ups' upserts were"
	       " built on the writer thread: %lu there, %lu on the caller's", rollup_prepared_there,
	       rollup_prepared_here);
	tap_ok(changed_here == 0 && changed_there > 0, "no row changed on the caller's thread"
	       " (%lu on the writer's)", changed_there);
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		tap_is_int(differing(inline_path, path, tables[i]), 0,
			   "committed behind, %s: the same rows as committed here", tables[i]);
}

/* Records first..first+n-1 (poison: the one a trigger refuses), then a commit behind: its ticket. */
/* Folding on: records stored and folded inline, and on the writer thread with commits behind. */
static void check_same_folds(void)
{
	static const struct ras_db_limits fold = { .fold_threshold = 20, .fold_period_ns = 3600 * SEC,
						   .fold_keep = 5, .page_size = 4096 };
	static const char *const tables[] = {
		"mc_event", "mce_record", "folds", "rollup_hourly", "rollup_totals", "rollup_edac",
		"rollup_subjects",
	};
	char path[2][600];
	int failed = 0, deferred = 0;

	limits = &fold;
	for (int behind = 0; behind < 2; behind++) {
		struct ras_db *db;
		uint64_t ticket = 0;

		snprintf(path[behind], sizeof(path[behind]), "%s/%s-folds.db", dir, behind ? "behind" : "inline");
		if (!(db = open_db(path[behind], behind)))
			return;
		for (unsigned i = 0; i < VARIED; i++) {
			failed += store(db, i, ~0u) != 1;
			/* Handed over, not stored on this thread (folding on kept it here before). */
			deferred += behind && ras_db_deferring(db);
			if (i % 2500 == 2499)
				failed += (behind ? ras_db_commit_behind(db, &ticket) : ras_db_commit(db)) < 0;
		}
		failed += ras_db_commit(db) < 0 || ras_db_commit_wait(db, ticket) < 0;
		ras_db_close(db);
	}
	limits = NULL;
	tap_is_int(failed, 0, "%d varied records folded with the writer thread and without", VARIED);
	tap_is_int(deferred, VARIED, "every record handed to the writer thread (%d)",
		   deferred);
	tap_ok(test_sql_int(path[0], "SELECT sum(records) FROM folds") > VARIED / 2,
	       "the storm folded (%lld records in folds)",
	       (long long)test_sql_int(path[0], "SELECT sum(records) FROM folds"));
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		tap_is_int(differing(path[0], path[1], tables[i]), 0, "folding on, %s: the same rows, ids included",
			   tables[i]);
}

static uint64_t batch_behind(struct ras_db *db, unsigned first, unsigned n, unsigned poison, int *failed)
{
	uint64_t ticket = 0;

	for (unsigned i = first; i < first + n; i++)
		*failed += store(db, i, poison) != 1;
	*failed += ras_db_commit_behind(db, &ticket) < 0;
	return ticket;
}

/*
 * Commits behind (ras_db_commit_behind): the next transaction begins at once
 * and follows on the writer thread. A commit behind that fails, or whose
 * transaction held a refused insert, takes what follows it with it; one made
 * before a failure stays made.
 */
static void check_commit_behind(void)
{
	char path[600];
	struct ras_db *db;
	uint64_t t1, t2, t3, t4;
	int failed = 0;
	sqlite3 *h;

	snprintf(path, sizeof(path), "%s/commit-behind.db", dir);
	if (!(db = open_db(path, false)))
		return;
	ras_db_close(db);
	sqlite3_open(path, &h);
	sqlite3_exec(h, "CREATE TRIGGER poison BEFORE INSERT ON mce_record WHEN NEW.cpu = 999"
		     " BEGIN SELECT RAISE(ABORT, 'poisoned record'); END", NULL, NULL, NULL);
	sqlite3_close(h);
	if (!(db = open_db(path, true)))
		return;
	t1 = batch_behind(db, 0, 3000, ~0u, &failed);
	t2 = batch_behind(db, 3000, 3000, ~0u, &failed);
	tap_ok(!failed && t1 && t2 > t1, "two batches committed behind, without waiting (tickets %llu, %llu)",
	       (unsigned long long)t1, (unsigned long long)t2);
	tap_ok(ras_db_commit_wait(db, t2) == 0 && ras_db_commit_poll(db, t1) == 1, "both made");
	tap_is_int(rows_in(path), 6000, "another reader sees their 6000 records");
	t3 = batch_behind(db, 6000, 1000, 6500, &failed);
	t4 = batch_behind(db, 7000, 1000, ~0u, &failed);
	tap_ok(!failed && t3 && t4, "a batch with a refused record, and one after it, handed over");
	tap_ok(ras_db_commit_wait(db, t4) < 0 && ras_db_commit_poll(db, t3) < 0,
	       "neither is made: %s", ras_db_errmsg(db));
	ras_db_rollback(db);
	tap_is_int(rows_in(path), 6000, "nothing of either is kept");
	t3 = batch_behind(db, 6000, 1000, ~0u, &failed);
	t4 = batch_behind(db, 7000, 1000, 7501, &failed);
	tap_ok(ras_db_commit_wait(db, t4) < 0 && ras_db_commit_poll(db, t3) == 1,
	       "a batch made, then one refused: the first stays made");
	ras_db_rollback(db);
	tap_is_int(rows_in(path), 7000, "its 1000 records kept, none of the refused batch");
	failed = 0;
	for (unsigned i = 7000; i < 8000; i++)
		failed += i != 7501 && store(db, i, ~0u) != 1;
	tap_ok(!failed && ras_db_commit(db) == 0, "the refused batch given again without it");
	ras_db_close(db);
	tap_is_int(rows_in(path), 7999, "7999 records, each once");
	tap_is_int(records_twice(path), 0, "no record twice");
}

/*
 * The writer's log is written in pieces (db/db_vfs.c). A transaction far
 * larger than the page cache spills pages to the log and reads them back
 * before it commits: they must read back as written, and another connection
 * must see every committed row.
 */
static void check_log_spills(void)
{
	char path[600], sql[64];
	struct ras_db *db;
	int failed = 0;

	snprintf(path, sizeof(path), "%s/spills.db", dir);
	if (!(db = open_db(path, true)))
		return;
	tap_is_int(ras_db_sync(db), 0, "synced before touching the connection");
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = 50");
	sqlite3_exec(db->h, sql, NULL, NULL, NULL);
	for (unsigned i = 0; i < 6000; i++)
		failed += store(db, i, ~0u) != 1;
	tap_ok(!failed && ras_db_commit(db) == 0, "6000 records in one transaction, a cache of 50 pages");
	ras_db_close(db);
	tap_is_int(rows_in(path), 6000, "another connection sees all 6000");
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'"),
		   1, "integrity_check: ok");
	tap_is_int(test_sql_int(path, "SELECT count(DISTINCT rec_hash) FROM mce_record") +
		   test_sql_int(path, "SELECT count(DISTINCT rec_hash) FROM mc_event"), 6000,
		   "each record once");
}

static void check_close_uncommitted(void)
{
	char path[600];
	struct ras_db *db;

	snprintf(path, sizeof(path), "%s/closed.db", dir);
	if (!(db = open_db(path, true)))
		return;
	for (unsigned i = 0; i < 2000; i++)
		store(db, i, ~0u);
	ras_db_close(db);
	tap_is_int(rows_in(path), 0,
		   "closed with records handed over and no commit: none kept");
}

/*
 * A statement of several rows refused part-way. The writer thread is held
 * in a job (the gate) while 48 machine checks are handed over behind it, so
 * that they are gathered as one run: three 16-row INSERTs, the poisoned
 * record the 8th of the second, or (its decoding refused) in an INSERT of
 * the new decodings of the second 16. The commit fails, the rollback keeps
 * nothing, and the batch given again is stored once: the same rows and
 * decodings, ids included, as a database that never failed.
 */
static bool gate_open, gate_entered;

static int gate(struct ras_db *db, const void *arg)
{
	(void)db, (void)arg;
	__atomic_store_n(&gate_entered, true, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&gate_open, __ATOMIC_ACQUIRE))
		usleep(1000);
	return SQLITE_OK;
}

/* The n-th machine check of the stream (records i % 3 != 0 are machine checks). */
static unsigned nth_mce(unsigned n)
{
	return n + n / 2 + 1;
}

/* Stores machine checks 0..48 (poison: the one refused), the first 48 behind a gate; commits. */
static int store_gated(struct ras_db *db, unsigned poison)
{
	static char pad[20000];
	int failed = store(db, nth_mce(0), poison) != 1;

	__atomic_store_n(&gate_open, false, __ATOMIC_RELEASE);
	__atomic_store_n(&gate_entered, false, __ATOMIC_RELEASE);
	/* Past a chunk's 256 KiB: the chunk with the gate is handed over. */
	for (int i = 0; i < 16; i++)
		failed += ras_db_defer_call(db, gate, pad, sizeof(pad)) < 0;
	while (!__atomic_load_n(&gate_entered, __ATOMIC_ACQUIRE))
		usleep(1000);
	for (unsigned n = 1; n <= 48; n++)
		failed += store(db, nth_mce(n), poison) != 1;
	__atomic_store_n(&gate_open, true, __ATOMIC_RELEASE);
	return failed ? -1 : ras_db_commit(db);
}

static void check_refused_mid_statement(const char *table, const char *trigger)
{
	char path[2][600], sql[256];
	unsigned poison = nth_mce(24);
	struct ras_db *db;
	sqlite3 *h;

	snprintf(path[0], sizeof(path[0]), "%s/mid-%s-ref.db", dir, table);
	snprintf(path[1], sizeof(path[1]), "%s/mid-%s.db", dir, table);
	if (!(db = open_db(path[0], true)))
		return;
	tap_is_int(store_gated(db, ~0u), 0, "%s: 49 records, 48 gathered behind a gate, committed", table);
	ras_db_close(db);
	if (!(db = open_db(path[1], false)))
		return;
	ras_db_close(db);
	sqlite3_open(path[1], &h);
	snprintf(sql, sizeof(sql), "CREATE TRIGGER poison BEFORE INSERT ON %s WHEN %s"
		 " BEGIN SELECT RAISE(ABORT, 'poisoned record'); END", table, trigger);
	sqlite3_exec(h, sql, NULL, NULL, NULL);
	sqlite3_close(h);
	if (!(db = open_db(path[1], true)))
		return;
	watch_inserts(db, table);
	tap_is_int(store_gated(db, poison), -EIO, "%s: one refused mid-statement, the commit fails: %s",
		   table, ras_db_errmsg(db));
	tap_is_int(watched_rows(), 16, "%s: the INSERT refused had 16 rows", table);
	ras_db_rollback(db);
	tap_is_int(rows_in(path[1]), 0, "%s: nothing kept", table);
	tap_is_int(store_gated(db, ~0u), 0, "%s: the batch given again commits", table);
	ras_db_close(db);
	tap_is_int(rows_in(path[1]), 49, "%s: 49 records", table);
	tap_is_int(records_twice(path[1]), 0, "%s: none twice", table);
	tap_is_int(differing(path[0], path[1], "mce_record"), 0, "%s: the rows of the reference, ids included",
		   table);
	tap_is_int(differing(path[0], path[1], "mce_record_dec"), 0, "%s: its decodings, ids included", table);
}

/* Longer than the child lives: it ends (abort, or _exit) while the writer still sleeps. */
static int sleeper(struct ras_db *db, const void *arg)
{
	(void)db, (void)arg;
	sleep(60);
	return SQLITE_OK;
}

/*
 * The tripwire: a statement beside the writer thread, without ras_db_sync,
 * aborts the process. Jobs that sleep keep the writer thread busy when the
 * statement runs, however late it runs (16 jobs of 300 ms gave a loaded
 * machine about 4 s to reach it before the jobs were done and it was allowed).
 */
static void check_tripwire(void)
{
	static char big[20000];
	char path[600];
	struct ras_db *db;
	int status = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/tripwire.db", dir);
	pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr) || !(db = open_db(path, true)) || ras_db_begin(db) < 0)
			_exit(2);
		/* Past a chunk's 256 KiB: the first chunk is handed over. */
		for (int i = 0; i < 16; i++)
			if (ras_db_defer_call(db, sleeper, big, sizeof(big)) < 0)
				_exit(2);
		sqlite3_exec(db->h, "SELECT 1", NULL, NULL, NULL);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	       "a statement run beside the writer thread without ras_db_sync aborts (status %d)", status);
}

int main(void)
{
	test_tmpdir(dir, sizeof(dir));
	check_same_rows();
	check_same_folds();
	check_flush_on_writer();
	check_read_sees_deferred();
	check_refused_insert();
	check_refused_mid_statement("mce_record", "NEW.cpu = 999");
	check_refused_mid_statement("mce_record_dec", "NEW.location LIKE '%CPU 999,%'");
	check_full_rolls_back();
	check_commit_behind();
	check_log_spills();
	check_close_uncommitted();
	check_tripwire();
	if (!getenv("RAS_TEST_KEEP"))
		test_rmtree(dir);
	return tap_done();
}
