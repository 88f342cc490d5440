/* SPDX-License-Identifier: MIT */
/*
 * Schema creation and forward migrations. Structural steps are numbered by
 * PRAGMA user_version; the event tables are then brought up to the event
 * table's column set (new columns are added, nothing is dropped), which is
 * how a newer ras-fdr extends an older database in place.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_rollup.h"
#include "db_upgrades.h"

/* The table's column names, read once: one query per table, not per column. */
static char *column_list(struct ras_db *db, const char *table)
{
	char sql[256];
	sqlite3_stmt *st;
	size_t cap = 4096, n = 1;
	char *list = malloc(cap);

	if (!list)
		return NULL;
	strcpy(list, ",");
	snprintf(sql, sizeof(sql), "SELECT name FROM pragma_table_info('%s')", table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return list;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		size_t len = strlen(name);

		if (n + len + 2 > cap) {
			char *nl = realloc(list, cap = (cap + len) * 2);

			if (!nl)
				break;
			list = nl;
		}
		memcpy(list + n, name, len);
		n += len;
		list[n++] = ',';
		list[n] = 0;
	}
	sqlite3_finalize(st);
	return list;
}

static bool in_list(const char *list, const char *name)
{
	char key[160];

	snprintf(key, sizeof(key), ",%s,", name);
	return list && strstr(list, key) != NULL;
}

static int create_whole(struct ras_db *db, const char *table, const char *create,
			const struct ras_db_col *cols, unsigned n)
{
	size_t cap = 32768, len;
	char *sql = malloc(cap);
	int r;

	if (!sql)
		return -1;
	len = (size_t)snprintf(sql, cap, "CREATE TABLE %s (%s", table, create);
	for (unsigned i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(sql + len, cap - len, ", \"%s\" %s", cols[i].name, cols[i].decl);
	if (len < cap)
		snprintf(sql + len, cap - len, ")");
	r = ras_db_exec(db, sql);
	free(sql);
	return r;
}

/* Creates a table if missing and adds every column it lacks; nothing is dropped. */
static int sync_columns(struct ras_db *db, const char *table, const char *create,
			const struct ras_db_col *cols, unsigned n)
{
	char sql[1024], *have;

	/* A new table is made whole: each ALTER makes SQLite parse the schema again. */
	if (create && !ras_db_table_exists(db, table) && create_whole(db, table, create, cols, n) < 0)
		return -1;
	have = column_list(db, table);
	for (unsigned i = 0; i < n; i++) {
		if (in_list(have, cols[i].name))
			continue;
		/* Quoted: decoded names such as "transaction" are SQL keywords. */
		snprintf(sql, sizeof(sql), "ALTER TABLE %s ADD COLUMN \"%s\" %s%s", table,
			 cols[i].name, cols[i].decl,
			 strstr(cols[i].decl, "NOT NULL") && !strstr(cols[i].decl, "DEFAULT") ?
			 " DEFAULT 0" : "");
		if (ras_db_exec(db, sql) < 0) {
			free(have);
			return -1;
		}
	}
	free(have);
	return 0;
}

/* <table>_decoded: every record with its decoding, for people who query with SQL. */
static int create_view(struct ras_db *db, const char *table, const struct ras_db_table *t)
{
	size_t cap = 16384, n;
	char *sql = malloc(cap);
	int r;

	if (!sql)
		return -1;
	n = (size_t)snprintf(sql, cap, "DROP VIEW IF EXISTS %s_decoded; CREATE VIEW %s_decoded AS"
			     " SELECT e.*", table, table);
	for (unsigned i = 0; i < t->ndcols && n < cap; i++)
		n += (size_t)snprintf(sql + n, cap - n, ", d.\"%s\"", t->dcols[i].name);
	if (n < cap)
		snprintf(sql + n, cap - n, " FROM %s e LEFT JOIN %s_dec d ON d.id = e.dec", table, table);
	r = ras_db_exec(db, sql);
	free(sql);
	return r;
}

/* Table and column names below come from the compiled-in event table only. */
static int sync_event_table(struct ras_db *db, unsigned idx)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	char sql[1024], dec[128], sources[64];

	snprintf(dec, sizeof(dec), "%s_dec", type->table);
	if (sync_columns(db, type->table, "id INTEGER PRIMARY KEY", t->cols, t->ncols) < 0 ||
	    sync_columns(db, dec, "id INTEGER PRIMARY KEY, sig INTEGER NOT NULL UNIQUE",
			 t->dcols, t->ndcols) < 0 ||
	    create_view(db, type->table, t) < 0)
		return -1;
	/*
	 * The identity index keeps a record read twice from being stored twice.
	 * Only records from buffers rasd did not consume itself (boot,
	 * previous-boot) can come again, so it is partial: live records, the
	 * storm case, do not pay for it. trace_ts leads: it grows, inserts append.
	 */
	ras_db_identity_sources_sql(sources, sizeof(sources));
	/* _by_dec (step 22): a part's rows by their decodings (db_locations.c). */
	snprintf(sql, sizeof(sql),
		 "CREATE INDEX IF NOT EXISTS %s_time ON %s (wall_ns);"
		 "CREATE INDEX IF NOT EXISTS %s_by_dec ON %s (dec);"
		 "DROP INDEX IF EXISTS %s_identity;"
		 "CREATE UNIQUE INDEX IF NOT EXISTS %s_identity_kept ON %s"
		 " (trace_ts, trace_cpu, boot, rec_hash) WHERE source IN %s;",
		 type->table, type->table, type->table, type->table, type->table, type->table,
		 type->table, sources);
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

/* The columns an upgrade step adds (db_upgrades.h), those a table lacks. */
static int add_step_columns(struct ras_db *db, int version)
{
	for (size_t i = 0; i < RAS_DB_N_UPGRADE_COLUMNS; i++) {
		const struct ras_db_upgrade_columns *u = &ras_db_upgrade_columns[i];
		unsigned n = 0;

		if (u->version != version)
			continue;
		while (u->cols[n].name)
			n++;
		if (sync_columns(db, u->table, NULL, u->cols, n) < 0)
			return -1;
	}
	return 0;
}

/*
 * Copies each per-record decoded value from the row's decoding into its new
 * event-table column, where the decoding has it (a value some older build
 * did not decode stays NULL). Rows without a decoding (before step 5) keep
 * what they have.
 */
static int move_per_record(struct ras_db *db)
{
	for (unsigned idx = 0; idx < ras_n_event_types; idx++) {
		const struct ras_db_table *t = ras_db_table_of(idx);
		const char *table = ras_event_types[idx].table;

		for (unsigned k = 0; k < t->nrec; k++) {
			const char *col = t->cols[t->first_rec + k].name;
			char sql[512];
			sqlite3_stmt *st;

			/* Qualified: SQLite reads an unknown "name" alone as a string. */
			snprintf(sql, sizeof(sql), "SELECT d.\"%s\" FROM %s_dec d LIMIT 0", col, table);
			if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
				continue;
			sqlite3_finalize(st);
			snprintf(sql, sizeof(sql),
				 "UPDATE %s SET \"%s\" = (SELECT d.\"%s\" FROM %s_dec d WHERE d.id = %s.dec)"
				 " WHERE dec IS NOT NULL", table, col, col, table, table);
			if (ras_db_exec(db, sql) < 0)
				return -1;
		}
	}
	return 0;
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
	for (size_t i = 0; i < RAS_DB_N_UPGRADES; i++) {
		if (ras_db_upgrades[i].version <= v)
			continue;
		if (add_step_columns(db, ras_db_upgrades[i].version) < 0 ||
		    (ras_db_upgrades[i].sql && ras_db_exec(db, ras_db_upgrades[i].sql) < 0))
			goto fail;
	}
	for (unsigned i = 0; i < ras_n_event_types; i++)
		if (sync_event_table(db, i) < 0)
			goto fail;
	/* Step 14: per-record values of rows decoded since step 5 leave their decodings. */
	if (v >= 5 && v < 14 && move_per_record(db) < 0)
		goto fail;
	/* Step 17: before the roll-ups are counted from them, if they are. */
	if (v >= 5 && v < 17 && ras_db_migrate_cache_levels(db) < 0)
		goto fail;
	if (v >= 10 && v < 17 && ras_db_edac_rollup_count_zero(db) < 0)
		goto fail;
	/* Rows stored before the roll-ups existed are counted once, here. */
	if (v < 10 && ras_db_rollup_rebuild_all(db) < 0)
		goto fail;
	if (v >= 10 && v < 12 && ras_db_rollup_rekey_sumloc(db) < 0)
		goto fail;
	/* Step 19: the subjects' roll-up by source, from the rows and the folds. */
	if (v >= 10 && v < 19 && ras_db_metrics_rollup_rebuild_all(db) < 0)
		goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", RAS_DB_SCHEMA_VERSION);
	if (ras_db_exec(db, sql) < 0)
		goto fail;
	return ras_db_exec(db, "COMMIT");
fail:
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}
