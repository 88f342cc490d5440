/* SPDX-License-Identifier: MIT */
/*
 * The EDAC roll-up: mc_event records counted per hour x boot x controller x
 * layers x error type x source x synthetic, with their error_count summed,
 * kept in the same transaction as the records. The counts behind "edac",
 * "edac --report" and "summary --by dimm" then read a few rows per hour
 * however long the history.
 *
 * What a record counts toward depends on its time three times: whether it
 * is inside the asked window, the EDAC snapshot it maps through (the newest
 * of its boot taken before it) and the segment of the counting windows
 * ("reset") it falls in. All three are constant between those points, so a
 * roll-up row whose records (first_ns to last_ns) lie between the same two
 * points stands for all of them, timed by its first; an hour holding a row
 * that spans a point is read from its raw rows instead.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_rollup.h"
#include "db_edac.h"

/* The key columns, the same expressions for the roll-up and for raw rows. */
#define EDAC_KEY \
	"coalesce(e.boot, 0), coalesce(e.mc_index, -1), coalesce(e.top_layer, -1)," \
	" coalesce(e.middle_layer, -1), coalesce(e.lower_layer, -1)," \
	" coalesce(e.error_type, -1), e.source, e.synthetic"
#define EDAC_ERRORS "sum(coalesce(e.error_count, 1))"

static const char upsert_sql[] =
	"INSERT INTO rollup_edac (hour, boot, mc, top, mid, low, error_type, source, synthetic,"
	" errors, records, first_ns, last_ns)"
	" SELECT " RAS_DB_HOUR_SQL("e.wall_ns") ", " EDAC_KEY ", " EDAC_ERRORS ", count(*),"
	" min(e.wall_ns), max(e.wall_ns) FROM mc_event e WHERE e.id >= ?1"
	" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 ON CONFLICT DO UPDATE SET errors = errors + excluded.errors,"
	" records = records + excluded.records,"
	" first_ns = min(first_ns, excluded.first_ns), last_ns = max(last_ns, excluded.last_ns)";

int ras_db_edac_rollup_rows(struct ras_db *db, int64_t first_id)
{
	sqlite3_stmt *st;
	int r;

	if (!ras_db_table_exists(db, "rollup_edac"))
		return 0;
	if (sqlite3_prepare_v3(db->h, upsert_sql, -1, 0, &st, NULL) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, first_id);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_edac_rollup_rebuild(struct ras_db *db)
{
	if (!ras_db_table_exists(db, "rollup_edac") || !ras_db_table_exists(db, "mc_event"))
		return 0;
	if (ras_db_exec(db, "DELETE FROM rollup_edac") < 0)
		return -EIO;
	return ras_db_edac_rollup_rows(db, 0);
}

/*
 * Raw mc_event rows in rollup_edac's shape (see db_rollup.h): the only place
 * the EDAC counts read records from their rows instead of the roll-up.
 */
int ras_db_edac_raw_rows_sql(char *sql, size_t cap, bool folds)
{
	/* Folded mc_events keep their EDAC key and error count in ekey (db_fold.c). */
	static const char folded[] =
		" UNION ALL SELECT hour, boot, json_extract(ekey, '$[0]'), json_extract(ekey, '$[1]'),"
		" json_extract(ekey, '$[2]'), json_extract(ekey, '$[3]'), json_extract(ekey, '$[4]'),"
		" source, synthetic, n * json_extract(ekey, '$[5]'), n, fn, ln FROM ("
		RAS_DB_FOLDED_IN_RANGES("mc_event") ") WHERE n > 0 AND ekey <> ''";
	int n = snprintf(sql, cap,
			 "SELECT " RAS_DB_HOUR_SQL("e.wall_ns") " AS hour, " EDAC_KEY ", "
			 EDAC_ERRORS " AS errors, count(*) AS records, e.wall_ns AS first_ns,"
			 " e.wall_ns AS last_ns"
			 " FROM ranges g JOIN mc_event e ON e.wall_ns >= g.lo AND e.wall_ns < g.hi"
			 " GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, e.wall_ns%s", folds ? folded : "");

	return n < 0 || (size_t)n >= cap ? -1 : n;
}

/*
 * ?1-?4 the filter (db_query.c's), ?5/?6 the first and last hour the window
 * touches, ?11... the counting-window bounds. The window's ends, the
 * snapshot times and the bounds are the points (see RAS_DB_CUT_SQL).
 */
static char *counts_sql(unsigned n_bounds, bool folds)
{
	size_t cap = 8192 + (size_t)n_bounds * 48, n;
	char *sql = malloc(cap), raw[2048];

	if (!sql || ras_db_edac_raw_rows_sql(raw, sizeof(raw), folds) < 0) {
		free(sql);
		return NULL;
	}
	n = (size_t)snprintf(sql, cap, "WITH points(t) AS (SELECT taken_ns FROM edac_snapshots"
			     " UNION ALL SELECT ?1 WHERE ?1 <> 0 UNION ALL SELECT ?2 WHERE ?2 <> 0");
	for (unsigned i = 0; i < n_bounds; i++)
		n += (size_t)snprintf(sql + n, cap - n, " UNION ALL SELECT ?%u", 11 + i);
	n += (size_t)snprintf(sql + n, cap - n,
		"), r AS (SELECT * FROM rollup_edac WHERE hour >= ?5 AND hour <= ?6),"
		RAS_DB_CUT_SQL ", x AS (SELECT * FROM r WHERE" RAS_DB_UNCUT_SQL " UNION ALL %s)"
		" SELECT " RAS_DB_SNAPSHOT_AT("x.boot", "x.first_ns") ", x.mc, x.top, x.mid, x.low,"
		" x.error_type, 0", raw);
	for (unsigned i = 0; i < n_bounds; i++)
		n += (size_t)snprintf(sql + n, cap - n, " + (x.first_ns >= ?%u)", 11 + i);
	snprintf(sql + n, cap - n, ", sum(x.errors), sum(x.records), max(x.last_ns) FROM x"
		 " WHERE (?3 OR (x.source <> 'synthetic' AND x.synthetic = 0))"
		 " AND (?4 IS NULL OR x.boot = (SELECT id FROM boots WHERE boot_id = ?4))"
		 " GROUP BY 1, 2, 3, 4, 5, 6, 7");
	return sql;
}

static void bind_counts(sqlite3_stmt *st, const struct ras_db_filter *f, const int64_t *bounds,
			unsigned n_bounds)
{
	sqlite3_bind_int64(st, 1, f->since_ns);
	sqlite3_bind_int64(st, 2, f->until_ns);
	sqlite3_bind_int(st, 3, f->include_synthetic);
	if (f->boot_id)
		sqlite3_bind_text(st, 4, f->boot_id, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 4);
	sqlite3_bind_int64(st, 5, ras_db_first_hour(f->since_ns));
	sqlite3_bind_int64(st, 6, ras_db_last_hour(f->until_ns));
	for (unsigned i = 0; i < n_bounds; i++)
		sqlite3_bind_int64(st, (int)(11 + i), bounds[i]);
}

/* The rolled-up half of ras_db_edac_counts(); NULL when the database has no roll-up. */
sqlite3_stmt *ras_db_edac_rollup_counts_stmt(struct ras_db *db, const struct ras_db_filter *f,
					     const int64_t *bounds, unsigned n_bounds)
{
	sqlite3_stmt *st;
	char *sql;
	int rc;

	if (!ras_db_table_exists(db, "rollup_edac"))
		return NULL;
	sql = counts_sql(n_bounds, ras_db_table_exists(db, "folds"));
	if (!sql)
		return NULL;
	rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
	free(sql);
	if (rc != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return NULL;
	}
	bind_counts(st, f, bounds, n_bounds);
	return st;
}
