/* SPDX-License-Identifier: MIT */
/*
 * Rows narrowed to summary locations in SQL (ras_db_filter's locations,
 * report --part): the decodings of a table whose summary location
 * (ras_db_sumloc_sql) is one of a list are found in its small _dec table,
 * and only their rows are read, by the <table>_by_dec index. Internal to
 * db/; it calls db_rollup.c only.
 */
#ifndef RAS_DB_LOCATIONS_H
#define RAS_DB_LOCATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include "db_internal.h"

/* The first parameter number the list is bound at (the filter's own are ?1 to ?11). */
#define RAS_DB_LOCATIONS_PARAM 20

/*
 * "WITH want(loc) AS (VALUES (?20), ...) " for n locations, the table the
 * conditions below read. Returns the length, or -1 if cap is short.
 */
int ras_db_locations_with(char *out, size_t cap, unsigned n);
/*
 * " AND (...)": table idx's rows (aliased alias) whose summary location is
 * in want, its rows without a decoding too when has_empty (their location
 * is ""). Returns the length, or -1 if cap is short.
 */
int ras_db_locations_rows(char *out, size_t cap, unsigned idx, bool has_empty, const char *alias);
/*
 * " AND ... IN want": table idx's folded periods (folds rows aliased alias)
 * whose summary location is in want, by ras_db_sumloc_sql over the period's
 * location and decoding, as the roll-ups count them.
 */
int ras_db_locations_folds(char *out, size_t cap, unsigned idx, const char *alias);
/* Binds the n locations from ?20 on. */
void ras_db_locations_bind(sqlite3_stmt *st, const char *const *locs, unsigned n);

#endif
