/* SPDX-License-Identifier: MIT */
/* Rows narrowed to summary locations in SQL (db_locations.h). */
#include <stdio.h>
#include "db_locations.h"
#include "db_rollup.h"

int ras_db_locations_with(char *out, size_t cap, unsigned n)
{
	size_t len = (size_t)snprintf(out, cap, "WITH want(loc) AS (VALUES ");

	for (unsigned i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(out + len, cap - len, "%s(?%u)", i ? ", " : "",
					RAS_DB_LOCATIONS_PARAM + i);
	if (len < cap)
		len += (size_t)snprintf(out + len, cap - len, ") ");
	return n && len < cap ? (int)len : -1;
}

int ras_db_locations_rows(char *out, size_t cap, unsigned idx, bool has_empty, const char *alias)
{
	const char *table = ras_event_types[idx].table;
	char loc[1024];
	size_t len;

	/* The decoding's own columns: the location a row shows is its decoding's. */
	if (ras_db_sumloc_sql(loc, sizeof(loc), idx, "d", false) < 0)
		return -1;
	len = (size_t)snprintf(out, cap, " AND (dec IN (SELECT d.id FROM %s_dec d WHERE %s IN want)",
			       table, loc);
	/* A row without a decoding (or whose decoding is gone) reads as location "". */
	if (has_empty && len < cap)
		len += (size_t)snprintf(out + len, cap - len, " OR dec IS NULL OR NOT EXISTS"
					" (SELECT 1 FROM %s_dec x WHERE x.id = %s.dec)", table, alias);
	if (len < cap)
		len += (size_t)snprintf(out + len, cap - len, ")");
	return len < cap ? (int)len : -1;
}

int ras_db_locations_folds(char *out, size_t cap, unsigned idx, const char *alias)
{
	char loc[2048];
	size_t len;

	/*
	 * The summary location of the period, as the roll-ups count it (its
	 * stored location cut, the parts from its decoding): a memory failure's
	 * period is stored at its first page, its part names none.
	 */
	if (ras_db_sumloc_sql(loc, sizeof(loc), idx, alias, true) < 0)
		return -1;
	len = (size_t)snprintf(out, cap, " AND %s IN want", loc);
	return len < cap ? (int)len : -1;
}

void ras_db_locations_bind(sqlite3_stmt *st, const char *const *locs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sqlite3_bind_text(st, (int)(RAS_DB_LOCATIONS_PARAM + i), locs[i], -1, SQLITE_STATIC);
}
