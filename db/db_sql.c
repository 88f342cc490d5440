/* SPDX-License-Identifier: MIT */
/*
 * The low-level statement helpers every db/ file may call: run a statement,
 * read one integer, ask whether a table exists, write a multi-row INSERT's
 * parameters. They call only the writer (ras_db_sync, so a read sees every
 * write before it) and SQLite, never a stage or the schema:
 * tests/test-db-calls.sh keeps db/'s calls one way.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "db_internal.h"

int ras_db_exec(struct ras_db *db, const char *sql)
{
	char *msg = NULL;

	if (ras_db_sync(db) < 0)
		return -1;
	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", msg ? msg : sqlite3_errmsg(db->h));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int ras_db_int(struct ras_db *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *st;
	int r, found = -ENOENT;

	if (ras_db_sync(db) < 0)
		return -EIO;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	r = sqlite3_step(st);
	if (r == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
		*out = sqlite3_column_int64(st, 0);
		found = 0;
	}
	sqlite3_finalize(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? found : -EIO;
}

bool ras_db_table_exists(struct ras_db *db, const char *table)
{
	sqlite3_stmt *st;
	bool found = false;

	/*
	 * The writer thread adds to the list too (folding's flush), while the
	 * event loop's thread reads it: an entry is written before the count
	 * that shows it, and never changes after. Only one thread adds at a time
	 * (the event loop's after ras_db_sync, below).
	 */
	unsigned seen = __atomic_load_n(&db->n_tables_seen, __ATOMIC_ACQUIRE);

	for (unsigned i = 0; i < seen; i++)
		if (!strcmp(db->tables_seen[i], table))
			return true;
	/* A deferred write's failure is the commit's to tell: the schema can be read all the same. */
	ras_db_sync(db);
	if (sqlite3_prepare_v2(db->h, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
			       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	seen = __atomic_load_n(&db->n_tables_seen, __ATOMIC_ACQUIRE);
	if (found && seen < RAS_DB_TABLES_SEEN && strlen(table) < sizeof(db->tables_seen[0])) {
		strcpy(db->tables_seen[seen], table);
		__atomic_store_n(&db->n_tables_seen, seen + 1, __ATOMIC_RELEASE);
	}
	return found;
}

size_t ras_db_sql_values(char *sql, size_t cap, size_t n, unsigned rows, unsigned marks)
{
	for (unsigned k = 0; k < rows && n < cap; k++) {
		n += (size_t)snprintf(sql + n, cap - n, "%s(?", k ? "," : "");
		for (unsigned i = 1; i < marks && n < cap; i++)
			n += (size_t)snprintf(sql + n, cap - n, ",?");
		n += (size_t)snprintf(sql + n, cap - n, ")");
	}
	return n;
}
