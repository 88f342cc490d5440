/* SPDX-License-Identifier: MIT */
/*
 * The counts behind the metrics. Each event table is read from the row after
 * the last one counted (ids only grow), so rasd, which keeps its struct
 * between batches, reads only the new rows after each commit; ras-fdr-ctl
 * starts from zero and reads everything once.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/str.h"
#include "db_internal.h"
#include "db_metrics.h"
#include "db_query.h"
#include "db_rollup.h"

/* Injected records: their series carry source="synthetic", as the records' do. */
#define SYNTHETIC "(source = 'synthetic' OR synthetic <> 0)"

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
	bool numeric;       /* key and key2 are numbers (a folds row's dims hold them as text) */
} subject_sources[] = {
	/* The label the decoder settled on (the configured one where the kernel had none). */
	{ RAS_MDIM_DIMM, "mc_event",
	  "coalesce(nullif(dec_label, ''), nullif(label, ''), nullif(location, ''), 'unknown')", "''",
	  RAS_DB_EDAC_ERRORS_SQL("error_count"),
	  { "dec_label", "label", "location" }, NULL, "error_count", false },
	{ RAS_MDIM_CPU, "mce_record", "coalesce(cpu, -1)", "coalesce(socketid, -1)", "1",
	  { "cpu" }, "socketid", NULL, true },
	{ RAS_MDIM_PCIE, "aer_event", "coalesce(nullif(dev_name, ''), 'unknown')", "''", "1",
	  { "dev_name" }, NULL, NULL, false },
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
 * The subject series' roll-up (rollup_subjects, schema 19): each subject's
 * errors per severity and source over every stored record, added per batch
 * by the same expressions collect_subjects() reads rows with. A subject's
 * first row also gives it its place in metrics_subjects (a trigger): the
 * order subjects appeared in, which decides for good which ones have
 * corrected-error series of their own (lib/metrics.c).
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
		 "INSERT INTO rollup_subjects (tbl, key, key2, severity, source, synthetic, weight)"
		 " SELECT ?2, %s, %s, coalesce(severity, ''), coalesce(source, ''),"
		 " coalesce(synthetic, 0) <> 0, sum(%s) FROM %s_decoded"
		 " WHERE id >= ?1 GROUP BY 2, 3, 4, 5, 6"
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

/* The folded records' errors by subject (folds.dims: key, char(31), key2), as the rows' are. */
static int rollup_folds(struct ras_db *db, const struct subject_source *src)
{
	char sql[1024], key[160], key2[160];
	sqlite3_stmt *st;
	int r;

	if (!ras_db_table_exists(db, "folds"))
		return 0;
	snprintf(key, sizeof(key), "substr(dims, 1, instr(dims, char(31)) - 1)");
	snprintf(key2, sizeof(key2), "substr(dims, instr(dims, char(31)) + 1)");
	snprintf(sql, sizeof(sql),
		 "INSERT INTO rollup_subjects (tbl, key, key2, severity, source, synthetic, weight)"
		 " SELECT ?1, %s%s%s, %s%s%s, severity, source, synthetic <> 0, sum(errors) FROM folds"
		 " WHERE tbl = ?1 AND instr(dims, char(31)) > 0 GROUP BY 2, 3, 4, 5, 6"
		 " ON CONFLICT DO UPDATE SET weight = weight + excluded.weight",
		 src->numeric ? "CAST(" : "", key, src->numeric ? " AS INTEGER)" : "",
		 src->numeric ? "CAST(" : "", key2, src->numeric ? " AS INTEGER)" : "");
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, src->table, -1, SQLITE_STATIC);
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
	if (r != SQLITE_DONE || ras_db_metrics_rollup_rows(db, idx, 0) < 0)
		return -EIO;
	return rollup_folds(db, src);
}

int ras_db_metrics_rollup_rebuild_all(struct ras_db *db)
{
	for (size_t i = 0; i < sizeof(subject_sources) / sizeof(subject_sources[0]); i++) {
		int idx = type_index(subject_sources[i].table);

		if (idx >= 0 && ras_db_table_exists(db, subject_sources[i].table) &&
		    ras_db_metrics_rollup_rebuild(db, (unsigned)idx) < 0)
			return -EIO;
	}
	return 0;
}

#define SUBJ_ACC_SLOTS 1024
#define SUBJ_KEY_MAX 192

struct subj_entry {
	bool used;
	unsigned src;
	const char *severity;         /* ras_severity_name's, a constant */
	char source[16];              /* the record's source (a pipeline's name, "imported") */
	int synthetic;
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
	/* The last record's source and its field (source_field): a record's source is a constant string. */
	const char *source_at;
	char source[16];
	sqlite3_stmt *upsert;
};

static const char subj_upsert_sql[] =
	"INSERT INTO rollup_subjects (tbl, key, key2, severity, source, synthetic, weight)"
	" VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET weight = weight + excluded.weight";

static int subj_write(struct ras_db *db, struct ras_db_metrics_acc *acc, const struct subj_entry *e)
{
	const char *table = subject_sources[e->src].table;
	struct ras_db_col_val v[7] = {
		{ .type = SQLITE_TEXT, .p = table, .len = strlen(table) }, e->key, e->key2,
		{ .type = SQLITE_TEXT, .p = e->severity, .len = strlen(e->severity) },
		{ .type = SQLITE_TEXT, .p = e->source, .len = strlen(e->source) },
		{ .type = SQLITE_INTEGER, .i = e->synthetic },
		{ .type = SQLITE_INTEGER, .i = e->weight },
	};

	/* Prepared once, here: the writer thread may be using the connection. */
	if (!acc->upsert && (ras_db_sync(db) < 0 ||
			     sqlite3_prepare_v3(db->h, subj_upsert_sql, -1, SQLITE_PREPARE_PERSISTENT,
						&acc->upsert, NULL) != SQLITE_OK))
		return -EIO;
	return ras_db_run(db, acc->upsert, v, 7);
}

static void acc_discard(struct ras_db_metrics_acc *acc)
{
	if (!acc)
		return;
	for (unsigned i = 0; i < SUBJ_ACC_SLOTS; i++)
		acc->e[i].used = false;
	acc->used = 0;
}

/* One set's counts (the open batch's, or those a commit behind handed to the writer thread). */
static int acc_flush(struct ras_db *db, struct ras_db_metrics_acc *acc)
{
	if (!acc || !acc->used)
		return 0;
	if (!ras_db_table_exists(db, "rollup_subjects")) {
		acc_discard(acc);
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

int ras_db_metrics_acc_flush(struct ras_db *db)
{
	return acc_flush(db, db->subjects_acc);
}

int ras_db_metrics_acc_flush_out(struct ras_db *db)
{
	return acc_flush(db, db->subjects_acc_out);
}

void ras_db_metrics_acc_hand(struct ras_db *db)
{
	struct ras_db_metrics_acc *acc = db->subjects_acc_out;

	db->subjects_acc_out = db->subjects_acc;
	db->subjects_acc = acc;
}

/* Both sets: a rollback comes after ras_db_sync, the set handed over is this thread's again. */
void ras_db_metrics_acc_discard(struct ras_db *db)
{
	acc_discard(db->subjects_acc);
	acc_discard(db->subjects_acc_out);
}

static void acc_free(struct ras_db_metrics_acc *acc)
{
	if (!acc)
		return;
	sqlite3_finalize(acc->upsert);
	free(acc);
}

void ras_db_metrics_acc_free(struct ras_db *db)
{
	acc_free(db->subjects_acc);
	acc_free(db->subjects_acc_out);
	db->subjects_acc = db->subjects_acc_out = NULL;
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

/*
 * The value's hash: FNV-1a, of its bytes eight a round (ras_db_fnv_bytes).
 * It must stay this hash: it places the slots, whose order is the order of
 * first flush (see ras_db_metrics_acc_add).
 */
static uint64_t val_hash(uint64_t h, const struct ras_db_col_val *v)
{
	h = (h ^ (uint64_t)v->type) * RAS_DB_FNV_PRIME;
	h = (h ^ (uint64_t)v->i) * RAS_DB_FNV_PRIME;
	/* No bytes (an integer, the usual empty key2) leave h as it is: no call. */
	return v->len ? ras_db_fnv_bytes(h, v->p, v->len) : h;
}

static inline bool val_same(const struct ras_db_col_val *a, const struct ras_db_col_val *b)
{
	return a->len == b->len && a->type == b->type && a->i == b->i &&
	       (!a->len || !memcmp(a->p, b->p, a->len));
}

/*
 * The record's key, key2 and weight by its subject_sources row (the SQL's, in
 * C), each value read by get from ctx: an event, or a held copy's values
 * (db_fold_row.c), one logic for both.
 */
static inline void subject_vals_get(const struct ras_db_subject_cols *c, ras_db_col_get *get,
				    const void *ctx, struct ras_db_col_val *key,
				    struct ras_db_col_val *key2, int64_t *weight)
{
	const struct subject_source *src = &subject_sources[c->src];
	struct ras_db_col_val w;

	*key = (struct ras_db_col_val){ .type = SQLITE_NULL };
	for (int k = 0; k < 3 && src->key_cols[k] && key->type == SQLITE_NULL; k++) {
		*key = get(&c->key[k], ctx);
		if (key->type == SQLITE_TEXT && !key->len)
			key->type = SQLITE_NULL;      /* nullif(x, '') */
	}
	if (key->type == SQLITE_NULL)
		*key = src->dim == RAS_MDIM_CPU ? (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = -1 }
			: (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = "unknown", .len = 7 };
	*key2 = (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = "", .len = 0 };
	if (src->key2_col) {
		*key2 = get(&c->key2, ctx);
		if (key2->type == SQLITE_NULL)
			*key2 = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = -1 };
	}
	*weight = 1;
	if (src->weight_col) {
		w = get(&c->weight, ctx);
		if (w.type == SQLITE_INTEGER && w.i > 1)
			*weight = w.i;
	}
}

/*
 * ras_db_col_value, a raw column read here (inlined: most of the subjects'
 * columns are raw; a call each cost about 46 instructions).
 */
static inline struct ras_db_col_val event_value(const struct ras_db_col_ref *c, const void *ctx)
{
	const struct ras_db_event *ev = ctx;

	if (c->kind == RAS_DB_COL_RAW)
		return ras_db_raw_value(&ras_event_types[ev->type_idx].fields[c->i], &ev->values[c->i]);
	return ras_db_col_value(c, ev);
}

static void subject_vals(const struct ras_db_subject_cols *c, const struct ras_db_event *ev,
			 struct ras_db_col_val *key, struct ras_db_col_val *key2, int64_t *weight)
{
	subject_vals_get(c, event_value, ev, key, key2, weight);
}

static void subject_of(const struct ras_db_metrics_acc *acc, unsigned s,
		       const struct ras_db_event *ev, struct subj_entry *k)
{
	subject_vals(&acc->cols[s], ev, &k->key, &k->key2, &k->weight);
}

/* v as SQLite's || sees it: an integer in decimal, text or a blob's bytes. */
static inline size_t put_text(char *out, size_t cap, size_t n, const struct ras_db_col_val *v)
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

void ras_db_metrics_subject_text_get(const struct ras_db_subject_cols *c, ras_db_col_get *get,
				     const void *ctx, char *dims, size_t len, int64_t *weight)
{
	struct ras_db_col_val key, key2;
	size_t n;

	subject_vals_get(c, get, ctx, &key, &key2, weight);
	n = put_text(dims, len, 0, &key);
	if (n + 1 < len)
		dims[n++] = '\x1f';
	n = put_text(dims, len, n, &key2);
	dims[n] = '\0';
	/* Read back as C text, the SQL's value ends at a NUL. */
	dims[strnlen(dims, n)] = '\0';
}

void ras_db_metrics_subject_text(const struct ras_db_subject_cols *c, const struct ras_db_event *ev,
				 char *dims, size_t len, int64_t *weight)
{
	ras_db_metrics_subject_text_get(c, event_value, ev, dims, len, weight);
}

static struct subj_entry *acc_slot(struct ras_db_metrics_acc *acc, const struct subj_entry *k)
{
	for (unsigned n = 0, i = (unsigned)(k->hash % SUBJ_ACC_SLOTS); n < SUBJ_ACC_SLOTS;
	     n++, i = (i + 1) % SUBJ_ACC_SLOTS) {
		struct subj_entry *e = &acc->e[i];

		if (!e->used || (e->hash == k->hash && e->src == k->src && e->severity == k->severity &&
				 e->synthetic == k->synthetic &&
				 !memcmp(e->source, k->source, sizeof(e->source)) &&
				 val_same(&e->key, &k->key) && val_same(&e->key2, &k->key2)))
			return e;
	}
	return NULL;
}

/* Each event type's subject_sources row plus one (0: none), found once, not at every record. */
static uint8_t source_of_type[RAS_MAX_EVENT_TYPES];
static pthread_once_t source_of_type_once = PTHREAD_ONCE_INIT;
/* Set (release) once the table is made: a record reads it without pthread_once's call. */
static bool source_of_type_ready;

static void find_sources_of_types(void)
{
	for (unsigned idx = 0; idx < ras_n_event_types && idx < RAS_MAX_EVENT_TYPES; idx++)
		for (unsigned s = 0; s < sizeof(subject_sources) / sizeof(subject_sources[0]); s++)
			if (!strcmp(subject_sources[s].table, ras_event_types[idx].table)) {
				source_of_type[idx] = (uint8_t)(s + 1);
				break;
			}
	__atomic_store_n(&source_of_type_ready, true, __ATOMIC_RELEASE);
}

/* The record's source as a zero-padded field: cut at 15 bytes as snprintf would. */
static inline void source_field(char out[16], const char *source)
{
	memset(out, 0, 16);
	for (unsigned i = 0; source && i < 15 && source[i]; i++)
		out[i] = source[i];
}

int ras_db_metrics_acc_add(struct ras_db *db, const struct ras_db_event *ev)
{
	struct ras_db_metrics_acc *acc = db->subjects_acc;
	struct subj_entry k;          /* its keybuf is filled only in a slot */
	struct subj_entry *e;
	unsigned s, sev;

	if (!__atomic_load_n(&source_of_type_ready, __ATOMIC_ACQUIRE))
		pthread_once(&source_of_type_once, find_sources_of_types);
	if (ev->type_idx >= RAS_MAX_EVENT_TYPES || !source_of_type[ev->type_idx])
		return 0;
	s = source_of_type[ev->type_idx] - 1u;
	if (!acc && !(acc = db->subjects_acc = calloc(1, sizeof(*acc))))
		return -ENOMEM;
	if (!acc->resolved)
		acc_resolve(acc);
	/* A column the view lacks fails the SQL, which then counts nothing: the same here. */
	if (acc->cols[s].key[0].kind == RAS_DB_COL_NONE)
		return 0;
	k.used = true;
	k.src = s;
	sev = ((const struct ras_decoded_head *)ev->decoded)->severity;
	k.severity = ras_severity_name(sev);
	if (ev->source != acc->source_at) {
		source_field(acc->source, ev->source);
		acc->source_at = ev->source;
	}
	memcpy(k.source, acc->source, sizeof(k.source));
	k.synthetic = ev->synthetic;
	k.hash = 0;
	subject_of(acc, s, ev, &k);
	/* Too long to keep (or a key2 that would need a copy): written at once; upserts add up. */
	if (k.key.len > SUBJ_KEY_MAX || k.key2.len)
		return ras_db_table_exists(db, "rollup_subjects") ? subj_write(db, acc, &k) : 0;
	/*
	 * The severity's number, not its name's address: the slots' order is the
	 * order of first flush, which decides for good which subjects get a series
	 * of their own, and an address would change it with every build.
	 */
	k.hash = val_hash(val_hash(0xcbf29ce484222325ULL ^ s ^ ((uint64_t)sev << 8) ^
				   ((uint64_t)k.synthetic << 40) ^ ((uint64_t)(unsigned char)k.source[0] << 48),
				   &k.key), &k.key2);
	if (acc->used >= SUBJ_ACC_SLOTS * 3 / 4 && acc_flush(db, acc) < 0)
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

bool ras_db_metrics_subject_exprs(unsigned idx, enum ras_metrics_dim *dim, const char **table,
				  const char **key, const char **key2, const char **weight)
{
	const struct subject_source *src = subject_source_of(idx);

	if (!src)
		return false;
	*dim = src->dim;
	*table = src->table;
	*key = src->key;
	*key2 = src->key2;
	*weight = src->weight;
	return true;
}
