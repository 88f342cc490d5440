/* SPDX-License-Identifier: MIT */
/*
 * The counts behind the metrics. Each event table is read from the row after
 * the last one counted (ids only grow), so rasd, which keeps its struct
 * between batches, reads only the new rows after each commit; ras-fdr-ctl
 * starts from zero and reads everything once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/str.h"
#include "db_internal.h"
#include "db_metrics.h"
#include "db_query.h"
#include "db_rollup.h"

/* Excludes injected records from the subject series and the last error time. */
#define REAL_RECORD "source <> 'synthetic' AND synthetic = 0"

/*
 * Where each subject dimension comes from: the view of one event table, the
 * expressions giving the subject (SQL over that view's columns, compile-time
 * constants) and the errors a record stands for.
 */
static const struct subject_source {
	enum ras_metrics_dim dim;
	const char *table, *key, *key2, *weight;
	/*
	 * The same in C, for a batch counted as it is inserted (rollup_subjects):
	 * key the first of key_cols neither NULL nor '' (else the text "unknown",
	 * or -1 for a number), key2 coalesce(key2_col, -1) or '' without one,
	 * weight max(coalesce(weight_col, 1), 1) or 1 without one.
	 */
	const char *key_cols[3], *key2_col, *weight_col;
} subject_sources[] = {
	/* The label the decoder settled on (the configured one where the kernel had none). */
	{ RAS_MDIM_DIMM, "mc_event",
	  "coalesce(nullif(dec_label, ''), nullif(label, ''), nullif(location, ''), 'unknown')", "''",
	  RAS_DB_EDAC_ERRORS_SQL("error_count"),
	  { "dec_label", "label", "location" }, NULL, "error_count" },
	{ RAS_MDIM_CPU, "mce_record", "coalesce(cpu, -1)", "coalesce(socketid, -1)", "1",
	  { "cpu" }, "socketid", NULL },
	{ RAS_MDIM_PCIE, "aer_event", "coalesce(nullif(dev_name, ''), 'unknown')", "''", "1",
	  { "dev_name" }, NULL, NULL },
};

void ras_db_metrics_subject_sql(const char *table, char *dims, size_t len, const char **weight)
{
	for (size_t i = 0; i < sizeof(subject_sources) / sizeof(subject_sources[0]); i++) {
		if (strcmp(subject_sources[i].table, table))
			continue;
		snprintf(dims, len, "(%s) || char(31) || (%s)", subject_sources[i].key,
			 subject_sources[i].key2);
		*weight = subject_sources[i].weight;
		return;
	}
	snprintf(dims, len, "''");
	*weight = "1";
}

static int type_index(const char *table)
{
	const struct ras_event_type *t = ras_event_type_find(table);

	return t ? (int)(t - ras_event_types) : -1;
}

static const struct subject_source *subject_source_of(unsigned idx)
{
	for (size_t i = 0; i < sizeof(subject_sources) / sizeof(subject_sources[0]); i++)
		if (type_index(subject_sources[i].table) == (int)idx)
			return &subject_sources[i];
	return NULL;
}

/*
 * The subject series' roll-up (rollup_subjects): each subject's errors per
 * severity over every stored record, added per batch by the same
 * expressions collect_subjects() reads rows with.
 */
int ras_db_metrics_rollup_rows(struct ras_db *db, unsigned idx, int64_t first_id)
{
	const struct subject_source *src = subject_source_of(idx);
	char sql[1024];
	sqlite3_stmt *st;
	int r;

	if (!src || !ras_db_table_exists(db, "rollup_subjects"))
		return 0;
	snprintf(sql, sizeof(sql),
		 "INSERT INTO rollup_subjects (tbl, key, key2, severity, weight)"
		 " SELECT ?2, %s, %s, coalesce(severity, ''), sum(%s) FROM %s_decoded"
		 " WHERE id >= ?1 AND " REAL_RECORD " GROUP BY 2, 3, 4"
		 " ON CONFLICT DO UPDATE SET weight = weight + excluded.weight",
		 src->key, src->key2, src->weight, src->table);
	/* An older database may lack a column: that dimension then stays empty, as in a scan. */
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, first_id);
	sqlite3_bind_text(st, 2, src->table, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_metrics_rollup_rebuild(struct ras_db *db, unsigned idx)
{
	const struct subject_source *src = subject_source_of(idx);
	sqlite3_stmt *st;
	int r;

	if (!src || !ras_db_table_exists(db, "rollup_subjects"))
		return 0;
	if (sqlite3_prepare_v2(db->h, "DELETE FROM rollup_subjects WHERE tbl = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, src->table, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? ras_db_metrics_rollup_rows(db, idx, 0) : -EIO;
}

#define SUBJ_ACC_SLOTS 1024
#define SUBJ_KEY_MAX 192

struct subj_entry {
	bool used;
	unsigned src;
	const char *severity;         /* ras_severity_name's, a constant */
	struct ras_db_col_val key, key2;     /* key.p points into keybuf */
	int64_t weight;
	uint64_t hash;
	char keybuf[SUBJ_KEY_MAX];
};

/* A batch's rollup_subjects counts, gathered as the records are inserted. */
struct ras_db_metrics_acc {
	struct subj_entry e[SUBJ_ACC_SLOTS];
	unsigned used;
	bool resolved;
	struct ras_db_subject_cols cols[3];     /* per subject_sources row */
	sqlite3_stmt *upsert;
};

static const char subj_upsert_sql[] =
	"INSERT INTO rollup_subjects (tbl, key, key2, severity, weight) VALUES (?, ?, ?, ?, ?)"
	" ON CONFLICT DO UPDATE SET weight = weight + excluded.weight";

static int subj_write(struct ras_db *db, struct ras_db_metrics_acc *acc, const struct subj_entry *e)
{
	const char *table = subject_sources[e->src].table;
	struct ras_db_col_val v[5] = {
		{ .type = SQLITE_TEXT, .p = table, .len = strlen(table) }, e->key, e->key2,
		{ .type = SQLITE_TEXT, .p = e->severity, .len = strlen(e->severity) },
		{ .type = SQLITE_INTEGER, .i = e->weight },
	};

	/* Prepared once, here: the writer thread may be using the connection. */
	if (!acc->upsert && (ras_db_sync(db) < 0 ||
			     sqlite3_prepare_v3(db->h, subj_upsert_sql, -1, SQLITE_PREPARE_PERSISTENT,
						&acc->upsert, NULL) != SQLITE_OK))
		return -EIO;
	return ras_db_run(db, acc->upsert, v, 5);
}

int ras_db_metrics_acc_flush(struct ras_db *db, struct ras_db_metrics_acc *acc)
{
	if (!acc || !acc->used)
		return 0;
	if (!ras_db_table_exists(db, "rollup_subjects")) {
		ras_db_metrics_acc_discard(acc);
		return 0;
	}
	for (unsigned i = 0; i < SUBJ_ACC_SLOTS; i++) {
		if (!acc->e[i].used)
			continue;
		if (subj_write(db, acc, &acc->e[i]) < 0)
			return -EIO;
		acc->e[i].used = false;
	}
	acc->used = 0;
	return 0;
}

void ras_db_metrics_acc_discard(struct ras_db_metrics_acc *acc)
{
	if (!acc)
		return;
	for (unsigned i = 0; i < SUBJ_ACC_SLOTS; i++)
		acc->e[i].used = false;
	acc->used = 0;
}

void ras_db_metrics_acc_free(struct ras_db_metrics_acc *acc)
{
	if (!acc)
		return;
	sqlite3_finalize(acc->upsert);
	free(acc);
}

static void cols_resolve(unsigned s, int idx, struct ras_db_subject_cols *c)
{
	const struct subject_source *src = &subject_sources[s];
	struct ras_db_col_ref none = { RAS_DB_COL_NONE, 0 };

	c->src = s;
	for (int k = 0; k < 3; k++)
		c->key[k] = idx < 0 ? none : ras_db_col_resolve((unsigned)idx, src->key_cols[k]);
	c->key2 = idx < 0 ? none : ras_db_col_resolve((unsigned)idx, src->key2_col);
	c->weight = idx < 0 ? none : ras_db_col_resolve((unsigned)idx, src->weight_col);
}

static void acc_resolve(struct ras_db_metrics_acc *acc)
{
	for (unsigned s = 0; s < sizeof(subject_sources) / sizeof(subject_sources[0]); s++)
		cols_resolve(s, type_index(subject_sources[s].table), &acc->cols[s]);
	acc->resolved = true;
}

bool ras_db_metrics_subject_cols(unsigned idx, struct ras_db_subject_cols *c)
{
	for (unsigned s = 0; s < sizeof(subject_sources) / sizeof(subject_sources[0]); s++)
		if (type_index(subject_sources[s].table) == (int)idx) {
			cols_resolve(s, (int)idx, c);
			return true;
		}
	return false;
}

static uint64_t val_hash(uint64_t h, const struct ras_db_col_val *v)
{
	h = (h ^ (uint64_t)v->type) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)v->i) * 0x100000001b3ULL;
	for (size_t i = 0; i < v->len; i++)
		h = (h ^ (unsigned char)v->p[i]) * 0x100000001b3ULL;
	return h;
}

static bool val_same(const struct ras_db_col_val *a, const struct ras_db_col_val *b)
{
	return a->type == b->type && a->i == b->i && a->len == b->len &&
	       (!a->len || !memcmp(a->p, b->p, a->len));
}

/* The record's key, key2 and weight by its subject_sources row (the SQL's, in C). */
static void subject_vals(const struct ras_db_subject_cols *c, const struct ras_db_event *ev,
			 struct ras_db_col_val *key, struct ras_db_col_val *key2, int64_t *weight)
{
	const struct subject_source *src = &subject_sources[c->src];
	struct ras_db_col_val w;

	*key = (struct ras_db_col_val){ .type = SQLITE_NULL };
	for (int k = 0; k < 3 && src->key_cols[k] && key->type == SQLITE_NULL; k++) {
		*key = ras_db_col_value(&c->key[k], ev);
		if (key->type == SQLITE_TEXT && !key->len)
			key->type = SQLITE_NULL;      /* nullif(x, '') */
	}
	if (key->type == SQLITE_NULL)
		*key = src->dim == RAS_MDIM_CPU ? (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = -1 }
			: (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = "unknown", .len = 7 };
	*key2 = (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = "", .len = 0 };
	if (src->key2_col) {
		*key2 = ras_db_col_value(&c->key2, ev);
		if (key2->type == SQLITE_NULL)
			*key2 = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = -1 };
	}
	*weight = 1;
	if (src->weight_col) {
		w = ras_db_col_value(&c->weight, ev);
		if (w.type == SQLITE_INTEGER && w.i > 1)
			*weight = w.i;
	}
}

static void subject_of(const struct ras_db_metrics_acc *acc, unsigned s,
		       const struct ras_db_event *ev, struct subj_entry *k)
{
	subject_vals(&acc->cols[s], ev, &k->key, &k->key2, &k->weight);
}

/* v as SQLite's || sees it: an integer in decimal, text or a blob's bytes. */
static size_t put_text(char *out, size_t cap, size_t n, const struct ras_db_col_val *v)
{
	char num[24];
	const char *p = v->p;
	size_t len = v->len;

	if (v->type == SQLITE_INTEGER) {
		len = ras_str_int(num, (long long)v->i);
		p = num;
	} else if (v->type == SQLITE_NULL) {
		len = 0;
	}
	if (n + len >= cap)
		len = n < cap - 1 ? cap - 1 - n : 0;
	memcpy(out + n, p, len);
	return n + len;
}

void ras_db_metrics_subject_text(const struct ras_db_subject_cols *c, const struct ras_db_event *ev,
				 char *dims, size_t len, int64_t *weight)
{
	struct ras_db_col_val key, key2, sep = { .type = SQLITE_TEXT, .p = "\x1f", .len = 1 };
	size_t n;

	subject_vals(c, ev, &key, &key2, weight);
	n = put_text(dims, len, 0, &key);
	n = put_text(dims, len, n, &sep);
	n = put_text(dims, len, n, &key2);
	dims[n] = '\0';
	/* Read back as C text, the SQL's value ends at a NUL. */
	dims[strnlen(dims, n)] = '\0';
}

static struct subj_entry *acc_slot(struct ras_db_metrics_acc *acc, const struct subj_entry *k)
{
	for (unsigned n = 0, i = (unsigned)(k->hash % SUBJ_ACC_SLOTS); n < SUBJ_ACC_SLOTS;
	     n++, i = (i + 1) % SUBJ_ACC_SLOTS) {
		struct subj_entry *e = &acc->e[i];

		if (!e->used || (e->hash == k->hash && e->src == k->src && e->severity == k->severity &&
				 val_same(&e->key, &k->key) && val_same(&e->key2, &k->key2)))
			return e;
	}
	return NULL;
}

int ras_db_metrics_acc_add(struct ras_db *db, struct ras_db_metrics_acc **accp,
			   const struct ras_db_event *ev)
{
	struct ras_db_metrics_acc *acc = *accp;
	struct subj_entry k = { .used = true };
	struct subj_entry *e;
	unsigned s;

	for (s = 0; s < sizeof(subject_sources) / sizeof(subject_sources[0]); s++)
		if (!strcmp(subject_sources[s].table, ras_event_types[ev->type_idx].table))
			break;
	/* REAL_RECORD: injected records are not in the subject series. */
	if (s == sizeof(subject_sources) / sizeof(subject_sources[0]) || ev->synthetic ||
	    !strcmp(ev->source, "synthetic"))
		return 0;
	if (!acc && !(acc = *accp = calloc(1, sizeof(*acc))))
		return -ENOMEM;
	if (!acc->resolved)
		acc_resolve(acc);
	/* A column the view lacks fails the SQL, which then counts nothing: the same here. */
	if (acc->cols[s].key[0].kind == RAS_DB_COL_NONE)
		return 0;
	k.src = s;
	k.severity = ras_severity_name(((const struct ras_decoded_head *)ev->decoded)->severity);
	subject_of(acc, s, ev, &k);
	/* Too long to keep (or a key2 that would need a copy): written at once; upserts add up. */
	if (k.key.len > SUBJ_KEY_MAX || k.key2.len)
		return ras_db_table_exists(db, "rollup_subjects") ? subj_write(db, acc, &k) : 0;
	k.hash = val_hash(val_hash(0xcbf29ce484222325ULL ^ s ^ (uintptr_t)k.severity, &k.key), &k.key2);
	if (acc->used >= SUBJ_ACC_SLOTS * 3 / 4 && ras_db_metrics_acc_flush(db, acc) < 0)
		return -EIO;
	e = acc_slot(acc, &k);
	if (!e)
		return -EIO;
	if (!e->used) {
		*e = k;
		if (k.key.len)
			memcpy(e->keybuf, k.key.p, k.key.len);
		e->key.p = e->keybuf;
		e->weight = 0;
		acc->used++;
	}
	e->weight += k.weight;
	return 0;
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

static int collect_records(struct ras_db *db, struct ras_metrics *m, unsigned idx,
			   int64_t lo, int64_t hi)
{
	char sql[512];
	sqlite3_stmt *st;

	if (from_rollups(db, lo))
		snprintf(sql, sizeof(sql),
			 "SELECT nullif(severity, ''), source, synthetic, records,"
			 " CASE WHEN " REAL_RECORD " THEN last_ns END"
			 " FROM rollup_totals WHERE tbl = ?3");
	else
		snprintf(sql, sizeof(sql),
			 "SELECT severity, source, synthetic, count(*),"
			 " max(CASE WHEN " REAL_RECORD " THEN wall_ns END)"
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
		if (sqlite3_column_type(st, 4) != SQLITE_NULL &&
		    sqlite3_column_int64(st, 4) > m->last_error_ns)
			m->last_error_ns = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	return 0;
}

static int collect_subjects(struct ras_db *db, struct ras_metrics *m,
			    const struct subject_source *src, int64_t lo, int64_t hi)
{
	char sql[1024];
	sqlite3_stmt *st;
	int r = 0;

	if (from_rollups(db, lo))
		snprintf(sql, sizeof(sql), "SELECT key, key2, nullif(severity, ''), weight"
			 " FROM rollup_subjects WHERE tbl = ?3");
	else
		snprintf(sql, sizeof(sql),
			 "SELECT %s, %s, severity, sum(%s) FROM %s_decoded"
			 " WHERE id > ?1 AND id <= ?2 AND " REAL_RECORD " GROUP BY 1, 2, 3",
			 src->key, src->key2, src->weight, src->table);
	/* An older database may lack a column: that dimension then stays empty. */
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (from_rollups(db, lo))
		sqlite3_bind_text(st, 3, src->table, -1, SQLITE_STATIC);
	else {
		sqlite3_bind_int64(st, 1, lo);
		sqlite3_bind_int64(st, 2, hi);
	}
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
		enum ras_severity sev = RAS_SEV_UNKNOWN;
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *key2 = (const char *)sqlite3_column_text(st, 1);
		const char *name = (const char *)sqlite3_column_text(st, 2);

		if (name)
			ras_severity_parse(name, &sev);
		r = ras_metrics_add_subject(m, src->dim, key ? key : "", key2 ? key2 : "", sev,
					    sqlite3_column_int64(st, 3));
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
			       " max(CASE WHEN " REAL_RECORD " THEN last_ns END) FROM folds"
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
		if (sqlite3_column_type(st, 5) != SQLITE_NULL && sqlite3_column_int64(st, 5) > m->last_error_ns)
			m->last_error_ns = sqlite3_column_int64(st, 5);
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

/* One folds group (dims, severity, fresh, errors): added, or for fresh ones its growth. */
static int fold_subject(struct ras_metrics *m, enum ras_metrics_dim dim, sqlite3_stmt *st,
			bool counted)
{
	enum ras_severity sev = RAS_SEV_UNKNOWN;
	const char *dims = (const char *)sqlite3_column_text(st, 0);
	const char *name = (const char *)sqlite3_column_text(st, 1);
	const char *sep = dims ? strchr(dims, '\x1f') : NULL;
	const char *key2 = sep ? sep + 1 : "";
	int64_t n = sqlite3_column_int64(st, 3);
	char key[256];

	if (name)
		ras_severity_parse(name, &sev);
	snprintf(key, sizeof(key), "%.*s", sep ? (int)(sep - dims) : 0, sep ? dims : "");
	if (sqlite3_column_int(st, 2)) {
		int64_t before = ras_metrics_subject_count(m->fresh_subjects, dim, key, key2, sev);

		if (ras_metrics_add_subject(m->fresh_subjects, dim, key, key2, sev, n - before) < 0)
			return -ENOMEM;
		n -= before;
	}
	return counted ? 0 : ras_metrics_add_subject(m, dim, key, key2, sev, n);
}

static int fold_subjects(struct ras_db *db, struct ras_metrics *m, unsigned idx, bool first,
			 bool counted, enum ras_metrics_dim dim)
{
	sqlite3_stmt *st;
	int r = 0;

	if (!m->fresh_subjects && !(m->fresh_subjects = calloc(1, sizeof(*m->fresh_subjects))))
		return -ENOMEM;
	if (sqlite3_prepare_v2(db->h, "SELECT dims, severity, fresh, sum(errors) FROM folds"
			       " WHERE tbl = ?1 AND (?2 OR fresh = 1) AND " REAL_RECORD
			       " GROUP BY 1, 2, 3", -1, &st, NULL) != SQLITE_OK)
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
	int r;

	if (!ras_db_table_exists(db, "folds"))
		return 0;
	r = fold_records(db, m, idx, first, counted);
	for (size_t i = 0; r == 0 && i < sizeof(subject_sources) / sizeof(subject_sources[0]); i++)
		if (type_index(subject_sources[i].table) == (int)idx)
			r = fold_subjects(db, m, idx, first, counted, subject_sources[i].dim);
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
	if (r == 0 && subject_source_of(idx))
		r = collect_subjects(db, m, subject_source_of(idx), lo, hi);
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
		r = ras_db_lost_totals(db, &all, &m->lost_records, &m->lost_gaps);
	m->malformed = ras_db_counter(db, "malformed_records");
	m->synthetic_refused = ras_db_counter(db, "synthetic_refused");
	collect_actions(db, m);
	if (own_txn)
		ras_db_exec(db, "COMMIT");
	return r;
}
