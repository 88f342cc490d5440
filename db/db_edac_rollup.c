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
#include "decoders/edac.h"
#include "lib/event_fields.h"
#include "lib/str.h"

/* The key columns, the same expressions for the roll-up and for raw rows. */
#define EDAC_KEY \
	"coalesce(e.boot, 0), coalesce(e.mc_index, -1), coalesce(e.top_layer, -1)," \
	" coalesce(e.middle_layer, -1), coalesce(e.lower_layer, -1)," \
	" coalesce(e.error_type, -1), e.source, e.synthetic"
#define EDAC_ERRORS "sum(" RAS_DB_EDAC_ERRORS_SQL("e.error_count") ")"

static const char upsert_sql[] =
	"INSERT INTO rollup_edac (hour, boot, mc, top, mid, low, error_type, source, synthetic,"
	" errors, records, first_ns, last_ns)"
	" SELECT " RAS_DB_HOUR_SQL("e.wall_ns") ", " EDAC_KEY ", " EDAC_ERRORS ", count(*),"
	" min(e.wall_ns), max(e.wall_ns) FROM mc_event e WHERE e.id >= ?1"
	" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 ON CONFLICT DO UPDATE SET errors = errors + excluded.errors,"
	" records = records + excluded.records,"
	" first_ns = min(first_ns, excluded.first_ns), last_ns = max(last_ns, excluded.last_ns)";

/*
 * A batch's mc_event records by roll-up key, counted as they are inserted
 * and written with one upsert per key at the commit: the key is the raw
 * values as the row stores them, a missing one -1 (EDAC_KEY's coalesce).
 */
struct edac_entry {
	bool used;
	int synthetic;
	int64_t hour, boot, key[5];   /* mc, top, mid, low, error type */
	int64_t errors, records, first_ns, last_ns;
	uint64_t hash;
	char source[64];
};

#define EDAC_ACC_SLOTS 1024

struct ras_db_edac_acc {
	struct edac_entry e[EDAC_ACC_SLOTS];
	unsigned used;
	sqlite3_stmt *upsert;
	/* The last record's source and its field: a record's source never changes (db.h). */
	const char *source_at;
	char source[64];
};

static const char acc_upsert_sql[] =
	"INSERT INTO rollup_edac (hour, boot, mc, top, mid, low, error_type, source, synthetic,"
	" errors, records, first_ns, last_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	" ON CONFLICT DO UPDATE SET errors = errors + excluded.errors,"
	" records = records + excluded.records,"
	" first_ns = min(first_ns, excluded.first_ns), last_ns = max(last_ns, excluded.last_ns)";

static int acc_write(struct ras_db *db, sqlite3_stmt *st, const struct edac_entry *e)
{
	struct ras_db_col_val v[13];

	for (int k = 0; k < 13; k++)
		v[k] = (struct ras_db_col_val){ .type = SQLITE_INTEGER };
	v[0].i = e->hour;
	v[1].i = e->boot;
	for (int k = 0; k < 5; k++)
		v[2 + k].i = e->key[k];
	v[7] = (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = e->source, .len = strlen(e->source) };
	v[8].i = e->synthetic;
	v[9].i = e->errors;
	v[10].i = e->records;
	v[11].i = e->first_ns;
	v[12].i = e->last_ns;
	return ras_db_run(db, st, v, 13);
}

static void acc_discard(struct ras_db_edac_acc *acc)
{
	if (!acc)
		return;
	for (unsigned i = 0; i < EDAC_ACC_SLOTS; i++)
		acc->e[i].used = false;
	acc->used = 0;
}

/* One set's counts (the open batch's, or those a commit behind handed to the writer thread). */
static int acc_flush(struct ras_db *db, struct ras_db_edac_acc *acc)
{
	if (!acc || !acc->used)
		return 0;
	if (!ras_db_table_exists(db, "rollup_edac")) {
		acc_discard(acc);
		return 0;
	}
	/* Prepared once, here: the writer thread may be using the connection. */
	if (!acc->upsert && (ras_db_sync(db) < 0 ||
			     sqlite3_prepare_v3(db->h, acc_upsert_sql, -1, SQLITE_PREPARE_PERSISTENT,
						&acc->upsert, NULL) != SQLITE_OK)) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	for (unsigned i = 0; i < EDAC_ACC_SLOTS; i++) {
		if (!acc->e[i].used)
			continue;
		if (acc_write(db, acc->upsert, &acc->e[i]) < 0)
			return -EIO;
		acc->e[i].used = false;
	}
	acc->used = 0;
	return 0;
}

int ras_db_edac_acc_flush(struct ras_db *db)
{
	return acc_flush(db, db->edac_acc);
}

int ras_db_edac_acc_flush_out(struct ras_db *db)
{
	return acc_flush(db, db->edac_acc_out);
}

void ras_db_edac_acc_hand(struct ras_db *db)
{
	struct ras_db_edac_acc *acc = db->edac_acc_out;

	db->edac_acc_out = db->edac_acc;
	db->edac_acc = acc;
}

/* Both sets: a rollback comes after ras_db_sync, the set handed over is this thread's again. */
void ras_db_edac_acc_discard(struct ras_db *db)
{
	acc_discard(db->edac_acc);
	acc_discard(db->edac_acc_out);
}

static void acc_free(struct ras_db_edac_acc *acc)
{
	if (!acc)
		return;
	sqlite3_finalize(acc->upsert);
	free(acc);
}

void ras_db_edac_acc_free(struct ras_db *db)
{
	acc_free(db->edac_acc);
	acc_free(db->edac_acc_out);
	db->edac_acc = db->edac_acc_out = NULL;
}

static int64_t raw_or(const struct ras_value *v, int64_t none)
{
	return v->present ? v->i : none;
}

/*
 * The key's hash; the source (zero-padded, 64 bytes) by its first 16 bytes,
 * eight at a time: sources are short, and a longer one is told apart by
 * acc_same. Where a key lands changes nothing stored (rollup_edac is keyed
 * by its columns, the upserts add up in any order).
 */
static uint64_t acc_hash(const struct edac_entry *k)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)k->synthetic, w[2];

	h = (h ^ (uint64_t)k->hour) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)k->boot) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)k->key[0]) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)k->key[1]) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)k->key[2]) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)k->key[3]) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)k->key[4]) * 0x100000001b3ULL;
	memcpy(w, k->source, sizeof(w));
	h = (h ^ w[0]) * 0x100000001b3ULL;
	h = (h ^ w[1]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static bool acc_same(const struct edac_entry *a, const struct edac_entry *b)
{
	return a->hash == b->hash && a->hour == b->hour && a->boot == b->boot &&
	       a->synthetic == b->synthetic && !memcmp(a->key, b->key, sizeof(a->key)) &&
	       ras_db_same_field16(a->source, b->source);
}

/* Whether type idx's table is mc_event, found once a type (by whichever thread: each finds the same). */
static bool is_mc_event(unsigned idx)
{
	static uint8_t known[RAS_MAX_EVENT_TYPES];    /* 0 not yet, 1 no, 2 yes */
	uint8_t k;

	if (idx >= RAS_MAX_EVENT_TYPES)
		return !strcmp(ras_event_types[idx].table, "mc_event");
	k = __atomic_load_n(&known[idx], __ATOMIC_RELAXED);
	if (!k) {
		k = strcmp(ras_event_types[idx].table, "mc_event") ? 1 : 2;
		__atomic_store_n(&known[idx], k, __ATOMIC_RELAXED);
	}
	return k == 2;
}

/* An mc_event record counted in the open batch's set (not inlined: the other records skip its frame). */
static __attribute__((noinline)) int mc_add(struct ras_db *db, const struct ras_db_event *ev, int64_t boot,
					     int64_t hour)
{
	const struct ras_value *v = ev->values;
	struct ras_db_edac_acc *acc = db->edac_acc;
	struct edac_entry k;
	unsigned slot;

	if (!acc && !(acc = db->edac_acc = calloc(1, sizeof(*acc))))
		return -ENOMEM;
	if (acc->used >= EDAC_ACC_SLOTS * 3 / 4 && acc_flush(db, acc) < 0)
		return -EIO;
	/* The source as ras_str_copy would copy it into the zeroed field, kept by its address. */
	if (ev->source != acc->source_at) {
		memset(acc->source, 0, sizeof(acc->source));
		ras_str_copy(acc->source, sizeof(acc->source), ev->source);
		acc->source_at = ev->source;
	}
	memcpy(k.source, acc->source, sizeof(k.source));
	k.used = true;
	k.synthetic = ev->synthetic ? 1 : 0;
	k.hour = hour;
	k.boot = boot;
	k.key[0] = raw_or(&v[MC_F_MC_INDEX], -1);
	k.key[1] = raw_or(&v[MC_F_TOP_LAYER], -1);
	k.key[2] = raw_or(&v[MC_F_MIDDLE_LAYER], -1);
	k.key[3] = raw_or(&v[MC_F_LOWER_LAYER], -1);
	k.key[4] = raw_or(&v[MC_F_ERROR_TYPE], -1);
	k.errors = k.records = 0;
	k.first_ns = k.last_ns = ev->wall_ns;
	k.hash = acc_hash(&k);
	for (slot = k.hash % EDAC_ACC_SLOTS;; slot = (slot + 1) % EDAC_ACC_SLOTS) {
		struct edac_entry *e = &acc->e[slot];

		if (!e->used) {
			*e = k;
			acc->used++;
		} else if (!acc_same(e, &k)) {
			continue;
		}
		e->errors += edac_errors_of(raw_or(&v[MC_F_ERROR_COUNT], 1));
		e->records++;
		if (ev->wall_ns < e->first_ns)
			e->first_ns = ev->wall_ns;
		if (ev->wall_ns > e->last_ns)
			e->last_ns = ev->wall_ns;
		return 0;
	}
}

int ras_db_edac_acc_add(struct ras_db *db, const struct ras_db_event *ev, int64_t boot, int64_t hour)
{
	return is_mc_event(ev->type_idx) ? mc_add(db, ev, boot, hour) : 0;
}

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
 * Schema step 17: an mc_event of error_count 0 counts one error
 * (decoders/edac.h edac_errors_of), and the roll-up rows made before counted
 * it 0. Adds one to its row per such record, stored or folded (a folds row
 * keeps the count in its EDAC key, ekey).
 */
int ras_db_edac_rollup_count_zero(struct ras_db *db)
{
	static const char sql[] =
		"UPDATE rollup_edac AS r SET errors = r.errors + z.n FROM ("
		" SELECT hour, boot, mc, top, mid, low, et, source, synthetic, sum(n) AS n FROM ("
		"  SELECT " RAS_DB_HOUR_SQL("e.wall_ns") " AS hour, coalesce(e.boot, 0) AS boot,"
		"  coalesce(e.mc_index, -1) AS mc, coalesce(e.top_layer, -1) AS top,"
		"  coalesce(e.middle_layer, -1) AS mid, coalesce(e.lower_layer, -1) AS low,"
		"  coalesce(e.error_type, -1) AS et, e.source AS source, e.synthetic AS synthetic, 1 AS n"
		"  FROM mc_event e WHERE e.error_count = 0"
		"  UNION ALL SELECT hour, boot, json_extract(ekey, '$[0]'), json_extract(ekey, '$[1]'),"
		"  json_extract(ekey, '$[2]'), json_extract(ekey, '$[3]'), json_extract(ekey, '$[4]'),"
		"  source, synthetic, records FROM folds"
		"  WHERE tbl = 'mc_event' AND ekey <> '' AND json_extract(ekey, '$[5]') = 0)"
		" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9) AS z"
		" WHERE r.hour = z.hour AND r.boot = z.boot AND r.mc = z.mc AND r.top = z.top"
		" AND r.mid = z.mid AND r.low = z.low AND r.error_type = z.et AND r.source = z.source"
		" AND r.synthetic = z.synthetic";

	if (!ras_db_table_exists(db, "rollup_edac") || !ras_db_table_exists(db, "mc_event") ||
	    !ras_db_table_exists(db, "folds"))
		return 0;
	return ras_db_exec(db, sql) < 0 ? -EIO : 0;
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
		" source, synthetic, n * max(json_extract(ekey, '$[5]'), 1), n, fn, ln FROM ("
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
