/* SPDX-License-Identifier: MIT */
/*
 * Database layer: a version-1 database from an older ras-fdr is migrated in
 * place with its rows kept; batches insert and read back; duplicates are
 * ignored; a reader works while the writer holds a transaction; a reader of a
 * database missing tables does not crash.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "db/db_query.h"
#include "lib/event_fields.h"
#include "lib/decode.h"
#include "tap.h"
#include "test_util.h"

static char dir[256], path[512];

static int64_t scalar(const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t v = -999;

	sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	else
		tap_diag("%s: %s", sql, sqlite3_errmsg(h));
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

/* The layout of a version-1 database: bookkeeping tables, mc_event without decoded columns. */
static void make_old_database(void)
{
	sqlite3 *h;
	const char *sql =
		"CREATE TABLE boots (id INTEGER PRIMARY KEY, boot_id TEXT NOT NULL UNIQUE, first_seen_ns INTEGER);"
		"CREATE TABLE lost_events (id INTEGER PRIMARY KEY, boot INTEGER, instance TEXT, cpu INTEGER,"
		" count INTEGER, from_ns INTEGER, to_ns INTEGER, origin TEXT NOT NULL);"
		"CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
		"CREATE TABLE mc_event (id INTEGER PRIMARY KEY, wall_ns INTEGER NOT NULL, trace_ts INTEGER,"
		" trace_cpu INTEGER, boot INTEGER, source TEXT NOT NULL, error_type INTEGER, msg TEXT);"
		"INSERT INTO boots VALUES (1, 'old-boot', 5);"
		"INSERT INTO mc_event (wall_ns, trace_ts, trace_cpu, boot, source, error_type, msg)"
		" VALUES (1700000000000000000, 42, 0, 1, 'live', 0, 'kept from the old schema');"
		"PRAGMA user_version = 1;";

	sqlite3_open(path, &h);
	tap_is_int(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK, "old-schema database made");
	sqlite3_close(h);
}

static void fill_event(struct ras_value *v, struct ras_db_event *ev, void *decoded, uint64_t ts)
{
	static const char msg[] = "batch record";

	memset(v, 0, sizeof(struct ras_value) * RAS_MAX_FIELDS);
	v[MC_F_ERROR_TYPE] = (struct ras_value){ .present = true, .i = 0 };
	v[MC_F_MSG] = (struct ras_value){ .present = true, .p = msg, .len = sizeof(msg) - 1 };
	v[MC_F_TOP_LAYER] = (struct ras_value){ .present = true, .i = -1 };
	ras_decode_values(ras_event_type_find("mc_event"), v, NULL, decoded);
	*ev = (struct ras_db_event){ .type_idx = 1, .wall_ns = 1800000000000000000 + (int64_t)ts,
				     .trace_ts = ts, .trace_cpu = 1, .source = "boot",
				     .rec_hash = ts * 31, .values = v, .decoded = decoded };
}

static void test_migrate_and_insert(void)
{
	static uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS];
	struct ras_db_event ev;
	struct ras_db *db;
	char err[256];
	int stored = 0;

	make_old_database();
	tap_is_int(ras_db_open_writer(&db, path, "new-boot", err, sizeof(err)), 0, "writer opens old db: %s", err);
	tap_is_int(scalar("PRAGMA user_version"), RAS_DB_SCHEMA_VERSION, "migrated to the current version");
	tap_is_int(scalar("SELECT count(*) FROM mc_event WHERE msg = 'kept from the old schema'"), 1,
		   "old row kept");
	tap_is_int(scalar("SELECT count(*) FROM pragma_table_info('mc_event') WHERE name = 'syndrome'"), 1,
		   "missing columns added");
	tap_ok(ras_db_begin(db) == 0, "begin");
	for (uint64_t ts = 1; ts <= 1000; ts++) {
		fill_event(v, &ev, decoded, ts);
		stored += ras_db_insert_event(db, &ev);
	}
	tap_is_int(stored, 1000, "1000 rows inserted in one transaction");
	fill_event(v, &ev, decoded, 7);
	tap_is_int(ras_db_insert_event(db, &ev), 0, "an identical record from a boot buffer is ignored");
	ev.source = "live";
	tap_is_int(ras_db_insert_event(db, &ev), 1, "a live record is never checked: reads consume");
	tap_is_int(ras_db_commit(db), 0, "commit");
	tap_is_int(scalar("SELECT count(*) FROM mc_event WHERE boot = (SELECT id FROM boots WHERE boot_id = 'new-boot')"),
		   1001, "rows carry the new boot");
	tap_is_int(scalar("SELECT count(*) FROM mc_event WHERE top_layer = -1 AND msg = 'batch record'"), 1001,
		   "fields stored");
	tap_is_int(scalar("SELECT count(*) FROM mc_event_dec"), 1, "identical decodings stored once");
	ras_db_close(db);
}

static int count_row(void *ctx, const struct ras_db_row *row)
{
	(*(int *)ctx)++;
	return row->values[MC_F_MSG].present ? 0 : -1;
}

static void test_reader_during_write(void)
{
	struct ras_db *w, *r;
	struct ras_db_filter f = { .type_idx = -1, .limit = 10, .include_synthetic = true };
	static uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS];
	struct ras_db_event ev;
	char err[256];
	int rows = 0;

	ras_db_open_writer(&w, path, "new-boot", err, sizeof(err));
	ras_db_begin(w);
	fill_event(v, &ev, decoded, 5000);
	ras_db_insert_event(w, &ev);
	tap_is_int(ras_db_open_reader(&r, path, err, sizeof(err)), 0, "reader opens while a write is open");
	tap_is_int(ras_db_errors(r, &f, count_row, &rows), 10, "reader sees committed rows, newest first");
	tap_is_int(rows, 10, "limit honoured");
	tap_is_int(ras_db_commit(w), 0, "writer commits while a reader is open");
	ras_db_close(r);
	ras_db_close(w);
}

static void test_missing_tables(void)
{
	char empty[600];
	sqlite3 *h;
	struct ras_db *r;
	struct ras_db_filter f = { .type_idx = -1 };
	int64_t lost, gaps;
	int rows = 0;
	char err[256];

	snprintf(empty, sizeof(empty), "%s/empty.db", dir);
	sqlite3_open(empty, &h);
	sqlite3_exec(h, "CREATE TABLE unrelated (x)", NULL, NULL, NULL);
	sqlite3_close(h);
	/* Another application's database is never read as an empty ras-fdr one (issue 10). */
	tap_is_int(ras_db_open_reader(&r, empty, err, sizeof(err)), -EPROTO, "reader refuses a foreign db");
	tap_ok(strstr(err, "not a ras-fdr database") != NULL, "and says why: %s", err);
	/* A ras-fdr database of an older version, missing newer tables, is read. */
	sqlite3_open(empty, &h);
	sqlite3_exec(h, "DROP TABLE unrelated; CREATE TABLE boots (id INTEGER PRIMARY KEY, boot_id TEXT);"
		     "PRAGMA user_version = 1", NULL, NULL, NULL);
	sqlite3_close(h);
	tap_is_int(ras_db_open_reader(&r, empty, err, sizeof(err)), 0, "reader opens an old db: %s", err);
	tap_is_int(ras_db_errors(r, &f, count_row, &rows), 0, "no event tables: no rows, no crash");
	tap_is_int(ras_db_lost_totals(r, &f, &lost, &gaps), 0, "no lost_events table: zero");
	ras_db_close(r);
	tap_ok(ras_db_open_writer(&r, "/proc/ras-fdr-nope/x.db", "b", err, sizeof(err)) < 0 &&
	       strstr(err, "not writable"), "unwritable directory refused at open: %s", err);
}

int main(void)
{
	test_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/ras.db", dir);
	test_migrate_and_insert();
	test_reader_during_write();
	test_missing_tables();
	test_rmtree(dir);
	return tap_done();
}
