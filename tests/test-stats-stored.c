/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: the stored drop counters a check compares the kernel's with are
 * kept in memory (rasd/stats_stored.h), so a check no longer waits for the
 * writer thread (ras_db_cpu_stats_get syncs). Counted, not timed: the
 * database's reads (stats_stored.loads) and the syncs that waited
 * (db->sync_waits). After a rollback the database is back at the last
 * commit made: the next check reads the committed figures and stores the
 * loss once. A recreated instance still counts from zero.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "test_util.h"
#include "stats_fixture.h"
#include "db/db_internal.h"
#include "rasd/pipeline.h"

static struct stats_fixture t;
static struct ras_pipeline p;
static struct ras_decode_ctx dctx;

/* A live record in the open transaction: its row, and the writes after it, go to the writer thread. */
static void record(unsigned i)
{
	struct test_mc_rec r = { .error_count = 1, .address = 0x4000 + 0x40 * (int64_t)i, .label = "DIMM_A0" };

	if (ras_db_begin(t.db) < 0 || test_mc_insert(t.db, &dctx, &r, (struct ras_db_event){
			.wall_ns = 1000000000LL * (i + 1), .trace_ts = i, .source = "live",
			.rec_hash = i + 1 }) < 0)
		tap_diag("record %u not stored", i);
}

static int64_t lost(int cpu)
{
	char sql[160];

	snprintf(sql, sizeof(sql), "SELECT coalesce(sum(count), 0) FROM lost_events "
		 "WHERE cpu = %d AND count >= 0", cpu);
	return test_sql_int(t.dbpath, sql);
}

static int64_t gaps(void)
{
	return test_sql_int(t.dbpath, "SELECT count(*) FROM lost_events WHERE count IS NULL");
}

/* SQL on a connection of its own (a trigger that refuses a row, as a full disk would). */
static void sql(const char *text)
{
	sqlite3 *h;

	if (sqlite3_open(t.dbpath, &h) != SQLITE_OK || sqlite3_exec(h, text, NULL, NULL, NULL) != SQLITE_OK)
		tap_diag("cannot run %s: %s", text, sqlite3_errmsg(h));
	sqlite3_close(h);
}

/* One check of cpu; the figures read from the database and the syncs that waited meanwhile. */
static void check(int cpu, uint64_t *loads, unsigned long *waits)
{
	uint64_t l = p.stats_stored.loads;
	unsigned long w = t.db->sync_waits;

	if (ras_pipeline_check_cpu(&p, cpu, 1000) < 0)
		tap_diag("the check of cpu %d failed", cpu);
	*loads += p.stats_stored.loads - l;
	*waits += t.db->sync_waits - w;
}

/*
 * Each check after the first, a commit behind still out and a record's row
 * handed to the writer thread (a sync would wait for them): no wait.
 */
static void checks_behind_commits(void)
{
	uint64_t loads = 0, ticket;
	unsigned long waits = 0;

	set_stats(t.tr.instance_dir, 0, 0, 3);
	check(0, &loads, &waits);
	tap_is_int((long)loads, 1, "the first check reads the stored figures once");
	for (unsigned i = 1; i <= 20; i++) {
		if (ras_db_commit_behind(t.db, &ticket) < 0)
			tap_diag("commit behind %u refused", i);
		loads = waits = 0;
		record(i);
		set_stats(t.tr.instance_dir, 0, 0, 3 + 2 * i);
		check(0, &loads, &waits);
		if (loads || waits)
			break;
		ras_db_commit_wait(t.db, ticket);
	}
	tap_is_int((long)loads, 0, "20 checks after a commit behind: none reads the database");
	tap_is_int((long)waits, 0, "none waits for the writer thread");
	ras_db_commit(t.db);
	tap_is_int(lost(0), 3 + 40, "every loss stored once");
	tap_is_int(test_sql_int(t.dbpath, "SELECT count(*) FROM mc_event"), 20, "with the records");
}

/*
 * A commit fails after a check wrote cpu 0's figures: rolled back, the next
 * check reads the committed ones and stores the loss once, at the retry.
 */
static void rollback_after_write(void)
{
	uint64_t loads = 0;
	unsigned long waits = 0;

	sql("CREATE TRIGGER refuse BEFORE INSERT ON lost_events WHEN NEW.cpu = 1 "
	    "BEGIN SELECT RAISE(ABORT, 'refused'); END");
	set_stats(t.tr.instance_dir, 0, 0, 50);
	check(0, &loads, &waits);
	set_stats(t.tr.instance_dir, 1, 0, 2);
	check(1, &loads, &waits);
	tap_ok(ras_pipeline_commit(&p) < 0 && p.failing, "the commit refused: rolled back");
	tap_is_int(ras_db_rollbacks(t.db) > 0, 1, "by a rollback");
	tap_is_int(lost(0), 43, "cpu 0's 7 not stored");
	sql("DROP TRIGGER refuse");
	loads = 0;
	tap_is_int(ras_pipeline_retry(&p, NULL), 0, "the retry stores");
	check(0, &loads, &waits);
	check(1, &loads, &waits);
	tap_is_int((long)loads, 2, "the checks after the rollback read the committed figures");
	tap_is_int(ras_pipeline_commit(&p), 0, "committed");
	tap_is_int(lost(0), 50, "cpu 0's 7 stored once");
	tap_is_int(lost(1), 2, "cpu 1's 2 stored once");
	check(0, &loads, &waits);
	ras_pipeline_commit(&p);
	tap_is_int(lost(0), 50, "and never again");
}

/*
 * The same after a commit behind was handed over (made before the refusal):
 * the rollback takes back only what followed it, and the figures kept from
 * before it are read again.
 */
static void rollback_at_commit(void)
{
	uint64_t loads = 0, ticket;
	unsigned long waits = 0;

	sql("CREATE TRIGGER refuse BEFORE INSERT ON lost_events WHEN NEW.cpu = 1 "
	    "BEGIN SELECT RAISE(ABORT, 'refused'); END");
	set_stats(t.tr.instance_dir, 0, 0, 57);
	check(0, &loads, &waits);
	ras_db_commit_behind(t.db, &ticket);
	set_stats(t.tr.instance_dir, 0, 0, 60);
	check(0, &loads, &waits);
	set_stats(t.tr.instance_dir, 1, 0, 6);
	check(1, &loads, &waits);
	tap_ok(ras_pipeline_commit(&p) < 0 && p.failing, "after a commit behind: refused, rolled back");
	tap_is_int(lost(0), 57, "the commit behind made, cpu 0's 3 after it not stored");
	sql("DROP TRIGGER refuse");
	loads = 0;
	tap_is_int(ras_pipeline_retry(&p, NULL), 0, "the retry stores");
	check(0, &loads, &waits);
	check(1, &loads, &waits);
	tap_is_int((long)loads, 2, "the checks after it read the committed figures");
	ras_pipeline_commit(&p);
	tap_is_int(lost(0), 60, "cpu 0's 3 stored once");
	tap_is_int(lost(1), 6, "cpu 1's 4 stored once");
}

/* Another user of the connection rolls the open transaction back (ras_db_rollbacks). */
static void rollback_by_another(void)
{
	uint64_t loads = 0;
	unsigned long waits = 0;

	set_stats(t.tr.instance_dir, 0, 0, 55);
	check(0, &loads, &waits);
	ras_db_rollback(t.db);
	loads = 0;
	check(0, &loads, &waits);
	tap_is_int((long)loads, 1, "a rollback not the pipeline's: the figures read again");
	ras_db_commit(t.db);
	tap_is_int(lost(0), 55, "the 5 stored once");
}

/* The instance removed and made again (another inode): counted from zero, the old one a gap. */
static void recreated(void)
{
	const char *inst = t.tr.instance_dir;
	char made[320], gone[320];
	uint64_t loads = 0;
	unsigned long waits = 0;

	snprintf(made, sizeof(made), "%s.new", inst);
	snprintf(gone, sizeof(gone), "%s.gone", inst);
	set_stats(made, 0, 0, 4);
	if (rename(inst, gone) < 0 || rename(made, inst) < 0)
		tap_diag("cannot swap the instance directories");
	/* The identity is read once a run: a new one's pipeline reads it again. */
	p.stats_ident = 0;
	check(0, &loads, &waits);
	tap_is_int((long)loads, 0, "the kept figures carry the old instance's identity");
	ras_pipeline_commit(&p);
	tap_is_int(lost(0), 60 + 4, "made again: its 4 counted from zero");
	tap_is_int(gaps(), 1, "and what went with the old one is a gap");

	ras_pipeline_free(&p);
	ras_pipeline_init(&p, NULL, t.db, &t.tr, &t.cfg, NULL, "live");
	set_stats(t.tr.instance_dir, 0, 0, 6);
	loads = 0;
	check(0, &loads, &waits);
	tap_is_int((long)loads, 1, "the next run reads the stored figures once");
	ras_pipeline_commit(&p);
	tap_is_int(lost(0), 60 + 6, "and counts the 2 more");
	tap_is_int(gaps(), 1, "without a new gap");
	test_rmtree(gone);
}

int main(void)
{
	if (stats_fixture_open(&t, "stored", "stored") < 0)
		return tap_ok(0, "a directory"), tap_done();
	if (!tap_ok(t.db != NULL && ras_db_write_behind_start(t.db) == 0,
		    "database opened, its writer thread started"))
		return stats_fixture_close(&t), tap_done();
	ras_pipeline_init(&p, NULL, t.db, &t.tr, &t.cfg, NULL, "live");
	checks_behind_commits();
	rollback_after_write();
	rollback_by_another();
	rollback_at_commit();
	recreated();
	ras_pipeline_free(&p);
	stats_fixture_close(&t);
	return tap_done();
}
