/* SPDX-License-Identifier: MIT */
/*
 * Schema creation and forward migrations. Structural steps are numbered by
 * PRAGMA user_version; the event tables are then brought up to the event
 * table's column set (new columns are added, nothing is dropped), which is
 * how a newer ras-fdr extends an older database in place.
 */
#include <stdio.h>
#include <string.h>
#include "db_internal.h"

/* Version 1: the first release's bookkeeping tables. */
static const char schema_v1[] =
	"CREATE TABLE IF NOT EXISTS boots ("
	" id INTEGER PRIMARY KEY, boot_id TEXT NOT NULL UNIQUE, first_seen_ns INTEGER);"
	"CREATE TABLE IF NOT EXISTS lost_events ("
	" id INTEGER PRIMARY KEY, boot INTEGER, instance TEXT, cpu INTEGER,"
	" count INTEGER, from_ns INTEGER, to_ns INTEGER, origin TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);";

/* Version 2: per-CPU loss counters remembered across daemon restarts. */
static const char schema_v2[] =
	"CREATE TABLE IF NOT EXISTS cpu_stats ("
	" boot INTEGER, instance TEXT, cpu INTEGER, overrun INTEGER, dropped INTEGER,"
	" PRIMARY KEY (boot, instance, cpu));"
	"CREATE INDEX IF NOT EXISTS lost_events_time ON lost_events (to_ns);";

/* Version 3: EDAC topology snapshots and counting windows (db_edac.c).
 * Version 4: flight-recorder snapshots (db_snapshot.c). */
static const char *const migrations[RAS_DB_SCHEMA_VERSION] = {
	schema_v1, schema_v2, ras_db_schema_edac, ras_db_schema_snapshot,
};

int ras_db_exec(struct ras_db *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", msg ? msg : sqlite3_errmsg(db->h));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

bool ras_db_table_exists(struct ras_db *db, const char *table)
{
	sqlite3_stmt *st;
	bool found = false;

	if (sqlite3_prepare_v2(db->h, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
			       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static bool column_exists(struct ras_db *db, const char *table, const char *col)
{
	char sql[256];
	sqlite3_stmt *st;
	bool found = false;

	snprintf(sql, sizeof(sql), "SELECT name FROM pragma_table_info('%s')", table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return false;
	while (!found && sqlite3_step(st) == SQLITE_ROW)
		found = !strcmp((const char *)sqlite3_column_text(st, 0), col);
	sqlite3_finalize(st);
	return found;
}

/* Table and column names below come from the compiled-in event table only. */
static int sync_event_table(struct ras_db *db, unsigned idx)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	char sql[1024];

	snprintf(sql, sizeof(sql), "CREATE TABLE IF NOT EXISTS %s (id INTEGER PRIMARY KEY)",
		 type->table);
	if (ras_db_exec(db, sql) < 0)
		return -1;
	for (unsigned i = 0; i < t->ncols; i++) {
		if (column_exists(db, type->table, t->cols[i].name))
			continue;
		/* Quoted: decoded names such as "transaction" are SQL keywords. */
		snprintf(sql, sizeof(sql), "ALTER TABLE %s ADD COLUMN \"%s\" %s%s", type->table,
			 t->cols[i].name, t->cols[i].decl,
			 strstr(t->cols[i].decl, "NOT NULL") ? " DEFAULT 0" : "");
		if (ras_db_exec(db, sql) < 0)
			return -1;
	}
	/* trace_ts leads the identity index: it grows, so inserts append. */
	snprintf(sql, sizeof(sql),
		 "CREATE INDEX IF NOT EXISTS %s_time ON %s (wall_ns);"
		 "CREATE UNIQUE INDEX IF NOT EXISTS %s_identity ON %s"
		 " (trace_ts, trace_cpu, boot, rec_hash);",
		 type->table, type->table, type->table, type->table);
	return ras_db_exec(db, sql);
}

static int user_version(struct ras_db *db)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

int ras_db_migrate(struct ras_db *db)
{
	char sql[64];
	int v = user_version(db);

	if (v < 0)
		return -1;
	if (v > RAS_DB_SCHEMA_VERSION) {
		snprintf(db->err, sizeof(db->err),
			 "database schema version %d is newer than this ras-fdr (%d)",
			 v, RAS_DB_SCHEMA_VERSION);
		return -1;
	}
	if (ras_db_exec(db, "BEGIN IMMEDIATE") < 0)
		return -1;
	for (int step = v; step < RAS_DB_SCHEMA_VERSION; step++)
		if (ras_db_exec(db, migrations[step]) < 0)
			goto fail;
	for (unsigned i = 0; i < ras_n_event_types; i++)
		if (sync_event_table(db, i) < 0)
			goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", RAS_DB_SCHEMA_VERSION);
	if (ras_db_exec(db, sql) < 0)
		goto fail;
	return ras_db_exec(db, "COMMIT");
fail:
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}
