/* SPDX-License-Identifier: MIT */
/*
 * A folds id is never handed out again (schema step 25): a database of
 * schema 24 is migrated with its folds rows and ids kept as they were, its
 * key and index as before; a deleted row's id, the highest one, is not given
 * to the next new row, nor after the step runs again (user_version set back).
 * And the writer, which updates a folds row it wrote from what it remembers
 * of it (db/db_fold_write.c write_known): a row it knows purged by another
 * connection (ras-fdr-ctl reset --purge), then a new key stored with the same
 * counts and seconds, the known key's next records go to a row of their own,
 * not into the new key's row.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_edac.h"
#include "db/db_fold.h"
#include "db/db_internal.h"
#include "lib/decode.h"
#include "tap.h"
#include "test_util.h"

#define SEC 1000000000LL
#define T0 (472223LL * 3600 * SEC)     /* an hour's start */
#define STORM 12                       /* records a batch of one DIMM: 10 folded */

static char dir[256], path[512], before[512];
static struct ras_decode_ctx dctx;
static struct ras_db_limits limits = {
	.fold_threshold = 3, .fold_period_ns = 3600 * SEC, .fold_keep = 1, .page_size = 4096,
};
static unsigned serial;

/* Schema step 11's folds, as a database of schema 24 has it (ids may be handed out again). */
static const char v24_folds[] =
	"CREATE TABLE folds_v24 (id INTEGER PRIMARY KEY, tbl TEXT NOT NULL,"
	" subject TEXT NOT NULL, hour INTEGER NOT NULL, boot INTEGER NOT NULL,"
	" source TEXT NOT NULL, synthetic INTEGER NOT NULL, severity TEXT NOT NULL,"
	" location TEXT NOT NULL, dec INTEGER NOT NULL, dims TEXT NOT NULL, fresh INTEGER NOT NULL,"
	" records INTEGER NOT NULL, errors INTEGER NOT NULL, first_ns INTEGER NOT NULL,"
	" last_ns INTEGER NOT NULL, addr_lo INTEGER, addr_hi INTEGER, detail_name TEXT,"
	" details BLOB, details_more INTEGER NOT NULL DEFAULT 0, times BLOB NOT NULL,"
	" last_s INTEGER NOT NULL, ekey TEXT NOT NULL DEFAULT '',"
	" UNIQUE (tbl, hour, subject, boot, source, synthetic, severity, location, dec, dims, fresh,"
	" ekey));"
	"INSERT INTO folds_v24 SELECT * FROM folds;"
	"DROP TABLE folds;"
	"ALTER TABLE folds_v24 RENAME TO folds;"
	"CREATE INDEX folds_last ON folds (last_ns);"
	"DELETE FROM sqlite_sequence WHERE name = 'folds';"
	"PRAGMA user_version = 24;";

static void exec_sql(const char *file, const char *sql)
{
	sqlite3 *h;
	char *err = NULL;

	sqlite3_open(file, &h);
	if (sqlite3_exec(h, sql, NULL, NULL, &err) != SQLITE_OK)
		tap_diag("%s: %s", sql, err);
	sqlite3_free(err);
	sqlite3_close(h);
}

/* A batch of STORM records of DIMM s at seconds from+0..STORM-1 of the hour, into db, committed. */
static int storm(struct ras_db *db, unsigned s, int64_t from)
{
	char label[64];

	snprintf(label, sizeof(label), "DIMM_0_%u", s);
	ras_db_begin(db);
	for (int i = 0; i < STORM; i++, serial++) {
		struct test_mc_rec rec = { .error_count = 1, .top_layer = (int64_t)s,
					   .address = 0x10000000 + 0x40 * (int64_t)serial,
					   .syndrome = 0, .label = label };

		test_mc_insert(db, &dctx, &rec, (struct ras_db_event){
			.wall_ns = T0 + (from + i) * SEC, .trace_ts = serial, .source = "live",
			.rec_hash = serial, .limits = &limits });
	}
	return ras_db_commit(db);
}

static int64_t scalar(const char *sql)
{
	return test_sql_int(path, sql);
}

/* The highest folds id deleted, as a purge takes a row (its growth with it); the id. */
static int64_t delete_newest(void)
{
	int64_t id = scalar("SELECT max(id) FROM folds");

	exec_sql(path, "DELETE FROM fold_growth WHERE fold = (SELECT max(id) FROM folds);"
		       "DELETE FROM folds WHERE id = (SELECT max(id) FROM folds)");
	return id;
}

/* A writer on the database (migrating it), written a storm of a new DIMM; its folds row's id. */
static int64_t new_key_id(unsigned s)
{
	enum ras_db_state state = RAS_DB_MISSING;
	struct ras_db *db;
	char err[256], sql[128];

	if (ras_db_open_writer_state(&db, path, "test-boot", &state, err, sizeof(err)) < 0) {
		tap_diag("%s", err);
		return -1;
	}
	tap_is_int((int)state, RAS_DB_GOOD, "the database checks as good");
	tap_is_int(storm(db, s, 0), 0, "a new DIMM's storm stored");
	ras_db_close(db);
	snprintf(sql, sizeof(sql), "SELECT id FROM folds WHERE subject = 'dimm mc0 %u:0:-1'", s);
	return scalar(sql);
}

static void migrated(void)
{
	struct ras_db *db = test_db_open(dir, "ids.db");
	char sql[1200];
	int64_t gone, id;

	for (unsigned s = 0; s < 4; s++)
		storm(db, s, 10 * s);
	ras_db_close(db);
	/* Ids with gaps, the growth naming them: the migration keeps each. */
	exec_sql(path, "UPDATE folds SET id = id * 10; UPDATE fold_growth SET fold = fold * 10");
	exec_sql(path, v24_folds);
	tap_is_int(scalar("SELECT count(*) FROM sqlite_master WHERE name = 'folds'"
			  " AND sql LIKE '%AUTOINCREMENT%'"), 0, "schema 24's folds made");
	/* The rows as schema 24 holds them copied aside. */
	snprintf(sql, sizeof(sql), "ATTACH '%s' AS b; CREATE TABLE b.folds AS SELECT * FROM main.folds",
		 before);
	exec_sql(path, sql);
	id = new_key_id(7);
	tap_is_int(scalar("PRAGMA user_version"), RAS_DB_SCHEMA_VERSION, "migrated to the current schema");
	tap_ok(id > 40, "a new row takes an id after the highest stored (%lld)", (long long)id);
	tap_is_int(scalar("SELECT count(*) FROM sqlite_master WHERE name = 'folds'"
			  " AND sql LIKE '%AUTOINCREMENT%'"), 1, "folds ids autoincrement");
	tap_is_int(scalar("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'folds'"
			  " AND (name = 'folds_last' OR name LIKE 'sqlite_autoindex_folds_%')"), 2,
		   "its UNIQUE key and folds_last index kept");
	tap_is_int(test_sql_int_with(path, before, "SELECT count(*) FROM p.folds"), 4,
		   "the copy holds the rows left");
	tap_is_int(test_sql_int_with(path, before,
				     "SELECT count(*) FROM (SELECT * FROM main.folds EXCEPT SELECT * FROM p.folds)"),
		   1, "the migrated rows are the rows of schema 24, ids and all (and the new one)");
	tap_is_int(test_sql_int_with(path, before,
				     "SELECT count(*) FROM (SELECT * FROM p.folds EXCEPT SELECT * FROM main.folds)"),
		   0, "none missing or changed");
	tap_is_int(scalar("SELECT count(*) FROM fold_growth WHERE fold NOT IN (SELECT id FROM folds)"), 0,
		   "every growth row names its folds row");
	/* The newest row purged: its id is not the next new row's (schema 24 gave it again). */
	gone = delete_newest();
	id = new_key_id(8);
	tap_ok(id > gone, "a deleted row's id (%lld) is not handed out again: the new row's is %lld",
	       (long long)gone, (long long)id);
	/* The step again on a table that has AUTOINCREMENT: the ids used before still are. */
	gone = delete_newest();
	exec_sql(path, "PRAGMA user_version = 24");
	id = new_key_id(9);
	tap_ok(id > gone, "run again, the step keeps the ids used: deleted %lld, new %lld", (long long)gone,
	       (long long)id);
	tap_is_int(scalar("SELECT count(*) FROM sqlite_master WHERE name LIKE 'folds_%' AND type = 'table'"),
		   0, "no table left beside folds");
}

/* DIMM s's records, raw plus folded, in the database at path. */
static int64_t dimm_records(unsigned s)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "SELECT (SELECT count(*) FROM mc_event WHERE top_layer = %u)"
		 " + (SELECT coalesce(sum(records), 0) FROM folds WHERE subject = 'dimm mc0 %u:0:-1')", s, s);
	return scalar(sql);
}

/*
 * A folds row the writer knows purged by another connection, then a new
 * key's row with the same records, last second and times length: the known
 * key's next batch would have updated that row, had its id been given again.
 */
static void purged_known(void)
{
	struct ras_db *db = test_db_open(dir, "ids.db"), *other;
	int64_t deleted = 0, known;
	char err[256];

	tap_is_int(storm(db, 0, 0), 0, "DIMM 0's storm folded");
	known = scalar("SELECT max(id) FROM folds");
	tap_is_int(ras_db_edac_open_rw(&other, path, err, sizeof(err)), 0, "another connection: %s", err);
	tap_is_int(ras_db_edac_reset(other, "", -1, NULL, 0, T0 + 3600 * SEC, true, &deleted), 0,
		   "which purges every record of the hour");
	ras_db_close(other);
	tap_is_int(scalar("SELECT count(*) FROM folds"), 0, "the known row is gone (%lld records)",
		   (long long)deleted);
	tap_is_int(storm(db, 1, 0), 0, "DIMM 1's storm folded: the same records and seconds");
	tap_ok(scalar("SELECT id FROM folds") > known, "its row takes a new id (%lld, the purged %lld)",
	       (long long)scalar("SELECT id FROM folds"), (long long)known);
	tap_is_int(storm(db, 0, 0), 0, "DIMM 0's storm again");
	ras_db_close(db);
	tap_is_int(dimm_records(1), STORM, "DIMM 1 holds its own records only");
	tap_is_int(dimm_records(0), STORM, "DIMM 0's records since the purge are all there");
	tap_is_int(scalar("SELECT count(*) FROM folds"), 2, "each DIMM has its folds row");
}

int main(void)
{
	test_tmpdir(dir, sizeof(dir));
	ras_decode_ctx_init(&dctx);
	snprintf(path, sizeof(path), "%s/ids.db", dir);
	snprintf(before, sizeof(before), "%s/before.db", dir);
	migrated();
	test_remove_db(path);
	purged_known();
	if (!getenv("TEST_KEEP"))
		test_rmtree(dir);
	return tap_done();
}
