/* SPDX-License-Identifier: MIT */
/*
 * The counts behind the metrics, read. Each event table is read from the row
 * after the last one counted (ids only grow), so rasd, which keeps its struct
 * between batches, reads only the new rows after each commit; ras-fdr-ctl
 * starts from zero and reads the roll-ups once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_metrics.h"
#include "db_query.h"

/* The SQL of a table's metrics subject (db_metrics.c subject_sources). */
struct subject_source {
	enum ras_metrics_dim dim;
	const char *table, *key, *key2, *weight;
};

static bool subject_source_of(unsigned idx, struct subject_source *src)
{
	return ras_db_metrics_subject_exprs(idx, &src->dim, &src->table, &src->key, &src->key2,
					    &src->weight);
}

/*
 * Everything stored so far (lo 0) is read from the roll-ups, kept in the same
 * transactions as the rows: a first read costs the same on any history.
 * Rows after lo (rasd between batches) are read from the table.
 */
static bool from_rollups(struct ras_db *db, int64_t lo)
{
	return lo < 0 && ras_db_table_exists(db, "rollup_totals") &&
	       ras_db_table_exists(db, "rollup_subjects");
}

static void note_last(struct ras_metrics *m, enum ras_metrics_source src, sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) != SQLITE_NULL && sqlite3_column_int64(st, col) > m->last_ns[src])
		m->last_ns[src] = sqlite3_column_int64(st, col);
}

static int collect_records(struct ras_db *db, struct ras_metrics *m, unsigned idx,
			   int64_t lo, int64_t hi)
{
	char sql[512];
	sqlite3_stmt *st;

	if (from_rollups(db, lo))
		snprintf(sql, sizeof(sql), "SELECT nullif(severity, ''), source, synthetic, records,"
			 " last_ns FROM rollup_totals WHERE tbl = ?3");
	else
		snprintf(sql, sizeof(sql),
			 "SELECT severity, source, synthetic, count(*), max(wall_ns)"
			 " FROM %s WHERE id > ?1 AND id <= ?2 GROUP BY severity, source, synthetic",
			 ras_event_types[idx].table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	if (from_rollups(db, lo))
		sqlite3_bind_text(st, 3, ras_event_types[idx].table, -1, SQLITE_STATIC);
	else {
		sqlite3_bind_int64(st, 1, lo);
		sqlite3_bind_int64(st, 2, hi);
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		enum ras_severity sev = RAS_SEV_UNKNOWN;
		const char *name = (const char *)sqlite3_column_text(st, 0);
		enum ras_metrics_source src =
			ras_metrics_source_of((const char *)sqlite3_column_text(st, 1),
					      sqlite3_column_int(st, 2) != 0);

		if (name)
			ras_severity_parse(name, &sev);
		m->records[idx][sev][src] += sqlite3_column_int64(st, 3);
		note_last(m, src, st, 4);
	}
	sqlite3_finalize(st);
	return 0;
}

static int add_subjects(struct ras_metrics *m, enum ras_metrics_dim dim, sqlite3_stmt *st)
{
	int r = 0;

	while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
		enum ras_severity sev = RAS_SEV_UNKNOWN;
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *key2 = (const char *)sqlite3_column_text(st, 1);
		const char *name = (const char *)sqlite3_column_text(st, 2);
		enum ras_metrics_source src =
			ras_metrics_source_of((const char *)sqlite3_column_text(st, 3),
					      sqlite3_column_int(st, 4) != 0);

		if (name)
			ras_severity_parse(name, &sev);
		r = ras_metrics_add_subject(m, dim, key ? key : "", key2 ? key2 : "", sev, src,
					    sqlite3_column_int64(st, 5));
	}
	return r;
}

static int collect_subjects(struct ras_db *db, struct ras_metrics *m,
			    const struct subject_source *src, int64_t lo, int64_t hi)
{
	char sql[1024];
	sqlite3_stmt *st;
	int r;

	if (from_rollups(db, lo))
		snprintf(sql, sizeof(sql), "SELECT key, key2, nullif(severity, ''), source, synthetic,"
			 " weight FROM rollup_subjects WHERE tbl = ?3");
	else
		snprintf(sql, sizeof(sql),
			 "SELECT %s, %s, severity, source, synthetic, sum(%s) FROM %s_decoded"
			 " WHERE id > ?1 AND id <= ?2 GROUP BY 1, 2, 3, 4, 5",
			 src->key, src->key2, src->weight, src->table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		/* Before schema 19 the roll-up held recorded records alone, without their source. */
		if (!from_rollups(db, lo) ||
		    sqlite3_prepare_v2(db->h, "SELECT key, key2, nullif(severity, ''), 'live', 0, weight"
				       " FROM rollup_subjects WHERE tbl = ?3", -1, &st, NULL) != SQLITE_OK)
			return 0;  /* an older database may lack a column: that dimension stays empty */
	}
	if (from_rollups(db, lo))
		sqlite3_bind_text(st, 3, src->table, -1, SQLITE_STATIC);
	else {
		sqlite3_bind_int64(st, 1, lo);
		sqlite3_bind_int64(st, 2, hi);
	}
	r = add_subjects(m, src->dim, st);
	sqlite3_finalize(st);
	return r;
}

/*
 * Each subject's place in the order subjects appeared (metrics_subjects,
 * schema 19), which decides which ones have series of their own. Only the
 * rows added since the last read.
 */
static int collect_ranks(struct ras_db *db, struct ras_metrics *m)
{
	sqlite3_stmt *st;
	int r = 0;

	if (!ras_db_table_exists(db, "metrics_subjects") ||
	    sqlite3_prepare_v2(db->h, "SELECT id, tbl, key, key2 FROM metrics_subjects WHERE id > ?1"
			       " ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, m->rank_seen);
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const struct ras_event_type *t = ras_event_type_find((const char *)sqlite3_column_text(st, 1));
		const char *key = (const char *)sqlite3_column_text(st, 2);
		const char *key2 = (const char *)sqlite3_column_text(st, 3);
		struct subject_source src;

		m->rank_seen = sqlite3_column_int64(st, 0);
		if (t && subject_source_of((unsigned)(t - ras_event_types), &src))
			r = ras_metrics_rank_subject(m, src.dim, key ? key : "", key2 ? key2 : "",
						     m->rank_seen);
	}
	sqlite3_finalize(st);
	return r;
}

/* Severity and metrics source of a folds row's first columns (severity, source, synthetic). */
static void fold_class(sqlite3_stmt *st, enum ras_severity *sev, enum ras_metrics_source *src)
{
	const char *name = (const char *)sqlite3_column_text(st, 0);

	*sev = RAS_SEV_UNKNOWN;
	if (name)
		ras_severity_parse(name, sev);
	*src = ras_metrics_source_of((const char *)sqlite3_column_text(st, 1),
				     sqlite3_column_int(st, 2) != 0);
}

/* counted: the roll-ups already hold these records; only the fresh folds' totals are noted. */
static int fold_records(struct ras_db *db, struct ras_metrics *m, unsigned idx, bool first,
			bool counted)
{
	int64_t fresh[RAS_SEV_COUNT][RAS_MSRC_COUNT_] = { { 0 } };
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->h, "SELECT severity, source, synthetic, fresh, sum(records),"
			       " max(last_ns) FROM folds"
			       " WHERE tbl = ?1 AND (?2 OR fresh = 1) GROUP BY 1, 2, 3, 4", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, ras_event_types[idx].table, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, first);
	while (sqlite3_step(st) == SQLITE_ROW) {
		enum ras_severity sev;
		enum ras_metrics_source src;

		fold_class(st, &sev, &src);
		if (sqlite3_column_int(st, 3))
			fresh[sev][src] += sqlite3_column_int64(st, 4);
		else if (!counted)
			m->records[idx][sev][src] += sqlite3_column_int64(st, 4);
		note_last(m, src, st, 5);
	}
	sqlite3_finalize(st);
	for (unsigned s = 0; s < RAS_SEV_COUNT; s++)
		for (unsigned c = 0; c < RAS_MSRC_COUNT_; c++) {
			if (!counted)
				m->records[idx][s][c] += fresh[s][c] - m->fresh_records[idx][s][c];
			m->fresh_records[idx][s][c] = fresh[s][c];
		}
	return 0;
}

/* One folds group (dims, severity, source, synthetic, fresh, errors): added, or for fresh ones its growth. */
static int fold_subject(struct ras_metrics *m, enum ras_metrics_dim dim, sqlite3_stmt *st,
			bool counted)
{
	enum ras_severity sev = RAS_SEV_UNKNOWN;
	const char *dims = (const char *)sqlite3_column_text(st, 0);
	const char *name = (const char *)sqlite3_column_text(st, 1);
	enum ras_metrics_source src = ras_metrics_source_of((const char *)sqlite3_column_text(st, 2),
							    sqlite3_column_int(st, 3) != 0);
	const char *sep = dims ? strchr(dims, '\x1f') : NULL;
	const char *key2 = sep ? sep + 1 : "";
	int64_t n = sqlite3_column_int64(st, 5);
	char key[256];

	if (name)
		ras_severity_parse(name, &sev);
	snprintf(key, sizeof(key), "%.*s", sep ? (int)(sep - dims) : 0, sep ? dims : "");
	if (sqlite3_column_int(st, 4)) {
		int64_t before = ras_metrics_subject_count(m->fresh_subjects, dim, key, key2, sev, src);

		if (ras_metrics_add_subject(m->fresh_subjects, dim, key, key2, sev, src, n - before) < 0)
			return -ENOMEM;
		n -= before;
	}
	return counted ? 0 : ras_metrics_add_subject(m, dim, key, key2, sev, src, n);
}

static int fold_subjects(struct ras_db *db, struct ras_metrics *m, unsigned idx, bool first,
			 bool counted, enum ras_metrics_dim dim)
{
	sqlite3_stmt *st;
	int r = 0;

	if (!m->fresh_subjects && !(m->fresh_subjects = calloc(1, sizeof(*m->fresh_subjects))))
		return -ENOMEM;
	if (sqlite3_prepare_v2(db->h, "SELECT dims, severity, source, synthetic, fresh, sum(errors)"
			       " FROM folds WHERE tbl = ?1 AND (?2 OR fresh = 1) GROUP BY 1, 2, 3, 4, 5",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, ras_event_types[idx].table, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, first);
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW)
		r = fold_subject(m, dim, st, counted);
	sqlite3_finalize(st);
	return r;
}

/*
 * What folding took out of the table: every fold at the first collect; then
 * only the growth of the fresh folds, the rows folded before a collect saw
 * them (the others were counted as raw rows, db_fold.c).
 */
static int collect_folds(struct ras_db *db, struct ras_metrics *m, unsigned idx, bool counted)
{
	bool first = !m->folds_counted[idx];
	struct subject_source src;
	int r;

	if (!ras_db_table_exists(db, "folds"))
		return 0;
	r = fold_records(db, m, idx, first, counted);
	if (r == 0 && subject_source_of(idx, &src))
		r = fold_subjects(db, m, idx, first, counted, src.dim);
	if (r == 0)
		m->folds_counted[idx] = true;
	return r;
}

static int64_t max_id(struct ras_db *db, const char *table)
{
	char sql[256];
	int64_t id = 0;

	snprintf(sql, sizeof(sql), "SELECT coalesce(max(id), 0) FROM %s", table);
	ras_db_int(db, sql, &id);
	return id;
}

static int collect_table(struct ras_db *db, struct ras_metrics *m, unsigned idx)
{
	const char *table = ras_event_types[idx].table;
	int64_t lo = m->seen_id[idx], hi;
	struct subject_source src;
	bool via_rollups;
	int r;

	if (!ras_db_table_exists(db, table))
		return 0;
	/* The first collect reads the roll-ups (lo -1 says so), which hold every record. */
	via_rollups = !m->rolled_up[idx] && from_rollups(db, -1);
	if (via_rollups)
		lo = -1;
	if (collect_folds(db, m, idx, via_rollups) < 0)
		return -EIO;
	hi = max_id(db, table);
	if (!via_rollups && hi <= lo)
		return 0;
	r = collect_records(db, m, idx, lo, hi);
	if (r == 0 && subject_source_of(idx, &src))
		r = collect_subjects(db, m, &src, lo, hi);
	if (r == 0) {
		m->seen_id[idx] = hi;
		m->rolled_up[idx] = true;
	}
	return r;
}

/*
 * The actions table (issue 11) may not exist yet; its columns are probed, not
 * assumed. Decisions come from their roll-up (schema step 13, a row per action
 * and result), so the answer does not grow with the table; an older database
 * not yet upgraded by rasd is counted from its rows, a row a decision.
 */
static void collect_actions(struct ras_db *db, struct ras_metrics *m)
{
	static const char *const queries[] = {
		"SELECT action, result, decisions FROM rollup_actions WHERE nrows > 0 ORDER BY 1, 2",
		"SELECT action, result, count(*) FROM actions GROUP BY 1, 2 ORDER BY 1, 2",
		"SELECT '', '', count(*) FROM actions",
	};
	sqlite3_stmt *st = NULL;

	m->n_actions = 0;
	m->have_actions = ras_db_table_exists(db, "actions");
	if (!m->have_actions)
		return;
	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]) && !st; i++)
		if (sqlite3_prepare_v2(db->h, queries[i], -1, &st, NULL) != SQLITE_OK)
			st = NULL;
	while (st && sqlite3_step(st) == SQLITE_ROW && m->n_actions < RAS_METRICS_MAX_ACTIONS) {
		struct ras_metrics_action *a = &m->actions[m->n_actions++];
		const char *action = (const char *)sqlite3_column_text(st, 0);
		const char *result = (const char *)sqlite3_column_text(st, 1);

		snprintf(a->action, sizeof(a->action), "%s", action ? action : "");
		snprintf(a->result, sizeof(a->result), "%s", result ? result : "");
		a->count = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
}

/* Every origin of lost_events, by the one definition (db_query.h ras_db_losses). */
static int collect_losses(struct ras_db *db, struct ras_metrics *m, const struct ras_db_filter *all)
{
	struct ras_db_losses l;
	int r = ras_db_losses(db, all, 0, &l);

	m->n_losses = 0;
	for (unsigned i = 0; r == 0 && i < l.n && i < RAS_METRICS_MAX_ORIGINS; i++) {
		struct ras_metrics_loss *o = &m->losses[m->n_losses++];

		snprintf(o->origin, sizeof(o->origin), "%s", l.o[i].origin);
		o->records = l.o[i].records;
		o->gaps = l.o[i].gaps;
	}
	return r;
}

int ras_db_metrics_collect(struct ras_db *db, struct ras_metrics *m)
{
	struct ras_db_filter all = { .type_idx = -1, .include_synthetic = true };
	bool own_txn;
	int r = 0;

	if (ras_db_sync(db) < 0)
		return -EIO;
	own_txn = !db->in_txn && sqlite3_get_autocommit(db->h);
	/* One read transaction: every count describes the same database state. */
	if (own_txn && ras_db_exec(db, "BEGIN") < 0)
		return -EIO;
	for (unsigned i = 0; i < ras_n_event_types && i < RAS_METRICS_TYPES && r == 0; i++)
		r = collect_table(db, m, i);
	if (r == 0)
		r = collect_ranks(db, m);
	if (r == 0)
		r = collect_losses(db, m, &all);
	m->malformed = ras_db_counter(db, "malformed_records");
	m->synthetic_refused = ras_db_counter(db, "synthetic_refused");
	collect_actions(db, m);
	if (own_txn)
		ras_db_exec(db, "COMMIT");
	return r;
}
