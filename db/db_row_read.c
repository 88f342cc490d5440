/* SPDX-License-Identifier: MIT */
/*
 * One event table's row read back (db_internal.h): its common and raw
 * columns, and its stored decoding rebuilt as the decoder's output struct.
 * No decoder runs: the row reads the same on any machine. A leaf of db/'s
 * read side: it calls only db.c and db_columns.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_query.h"

/* Appends ", <alias>.\"name\"" when the view has that column (older databases may not). */
static int add_column(struct ras_db *db, const char *view, const char *name, char *sql,
		      size_t cap, size_t *n, int *col)
{
	char probe[256];
	sqlite3_stmt *st;

	/* Qualified: SQLite reads an unknown "name" alone as a string, not an error. */
	snprintf(probe, sizeof(probe), "SELECT e.\"%s\" FROM %s e LIMIT 0", name, view);
	if (sqlite3_prepare_v2(db->h, probe, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_finalize(st);
	*n += (size_t)snprintf(sql + *n, *n < cap ? cap - *n : 0, ", e.\"%s\"", name);
	return (*col)++;
}

static int keys_open(struct ras_db *db, unsigned idx, struct ras_db_row_cols *rc);

/*
 * Appends at sql[n] the SELECT of table idx's row: the common columns (the
 * row's id 7th), then the raw and decoded columns its view really has (the
 * rest read as NULL); rc says where each is. The caller adds
 * " FROM <table>_decoded e ...", or with rc->by_key " FROM <table> e ...":
 * then column 3 is the boot's number, the decoding's columns are left out
 * and its number read instead (rc->dec_key). Returns the new length, or -1
 * if cap is short or (by_key) out of memory.
 */
int ras_db_row_select(struct ras_db *db, unsigned idx, struct ras_db_row_cols *rc, char *sql,
		      size_t cap, size_t n)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	char view[96];
	int col = 8;

	snprintf(view, sizeof(view), rc->by_key ? "%s" : "%s_decoded", type->table);
	n += (size_t)snprintf(sql + n, n < cap ? cap - n : 0, "SELECT e.wall_ns, e.trace_ts, e.trace_cpu,"
			      " %s, e.source, e.severity, e.synthetic, e.id",
			      rc->by_key ? "e.boot" : "(SELECT boot_id FROM boots WHERE id = e.boot)");
	for (unsigned i = 0; i < type->n_fields; i++)
		rc->raw[i] = add_column(db, view, ras_db_column_name(idx, t->first_raw + i), sql,
					cap, &n, &col);
	for (size_t i = 0; i < *type->n_dfields && i < RAS_DB_MAX_COLS; i++)
		rc->dec[i] = -1;
	rc->location = -1;
	for (unsigned k = 0; k < t->ndcols && !rc->by_key; k++) {
		int c = add_column(db, view, t->dcols[k].name, sql, cap, &n, &col);

		if (t->dfield[k] < 0)
			rc->location = c;
		else
			rc->dec[t->dfield[k]] = c;
	}
	for (unsigned k = 0; k < t->nrec; k++)
		rc->dec[t->rfield[k]] = add_column(db, view, t->cols[t->first_rec + k].name, sql,
						   cap, &n, &col);
	if (rc->by_key) {
		rc->dec_key = add_column(db, view, t->cols[t->dec_col].name, sql, cap, &n, &col);
		if (keys_open(db, idx, rc) < 0)
			return -1;
	}
	return n < cap ? (int)n : -1;
}

sqlite3_stmt *ras_db_row_stmt(struct ras_db *db, unsigned idx, struct ras_db_row_cols *rc)
{
	char sql[16384];
	int n = ras_db_row_select(db, idx, rc, sql, sizeof(sql), 0);
	sqlite3_stmt *st;

	if (n < 0 || snprintf(sql + n, sizeof(sql) - (size_t)n, " FROM %s_decoded e WHERE e.id = ?",
			      ras_event_types[idx].table) >= (int)(sizeof(sql) - (size_t)n) ||
	    sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	return st;
}

/*
 * One column of st's row. Read through its sqlite3_value: one call that
 * takes the connection's mutex instead of two or three (a part's report
 * reads some 16 columns of each of 100,000 rows). The value is used at once,
 * by the one thread that steps st, as sqlite3_column_value allows.
 */
static void read_value(sqlite3_stmt *st, int col, struct ras_value *v)
{
	sqlite3_value *x = col >= 0 ? sqlite3_column_value(st, col) : NULL;
	int t = x ? sqlite3_value_type(x) : SQLITE_NULL;

	memset(v, 0, sizeof(*v));
	if (t == SQLITE_NULL)
		return;
	v->present = true;
	if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
		v->i = sqlite3_value_int64(x);
		return;
	}
	v->p = t == SQLITE_BLOB ? sqlite3_value_blob(x) : (const void *)sqlite3_value_text(x);
	v->len = (uint32_t)sqlite3_value_bytes(x);
}

/*
 * snprintf(m, size, "%.*s", v->len, v->p) without the formatter (a dozen
 * members of each row): up to the first NUL or len bytes, cut to fit.
 */
static void copy_text(char *m, size_t size, const struct ras_value *v)
{
	size_t n = strnlen(v->p, v->len);

	if (n >= size)
		n = size - 1;
	memcpy(m, v->p, n);
	m[n] = 0;
}

/* Sets one decoded member from a value; absent is RAS_DF_NONE or "". */
static void set_member(void *out, const struct ras_dfield *f, const struct ras_value *v)
{
	char *m = (char *)out + f->offset;

	if (f->type == RAS_DF_INT) {
		*(int64_t *)m = v->present && !v->p ? v->i : RAS_DF_NONE;
		return;
	}
	m[0] = 0;
	if (v->present && v->p && f->size)
		copy_text(m, f->size, v);
}

/*
 * rc->by_key's lookups (report --part: a part's 100,000 rows share a handful
 * of decodings and boots). A decoding is kept as the decoded struct it
 * makes, every member a row of it does not set itself read back or absent;
 * a row copies it and adds its own.
 */
#define KEPT_DECODINGS 8
struct ras_db_row_keys {
	sqlite3_stmt *boot_st, *dec_st;
	int dec_col[RAS_DB_MAX_COLS];   /* dec_st's column of each decoded field, or -1 */
	int loc_col;
	bool boot_known, boot_null;
	int64_t boot;
	char *boot_id;
	unsigned next;                  /* the kept decoding replaced next */
	struct {
		bool used, null;
		int64_t id;
		unsigned char decoded[RAS_DECODED_MAX] __attribute__((aligned(16)));
	} dec[KEPT_DECODINGS];
};

/* "SELECT e.id, <the decoding's columns> FROM <table>_dec e WHERE e.id = ?", those it has. */
static int keys_dec_stmt(struct ras_db *db, unsigned idx, struct ras_db_row_keys *k)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	char sql[16384], table[96];
	size_t n = (size_t)snprintf(sql, sizeof(sql), "SELECT e.id");
	int col = 1;

	snprintf(table, sizeof(table), "%s_dec", type->table);
	for (size_t i = 0; i < RAS_DB_MAX_COLS; i++)
		k->dec_col[i] = -1;
	k->loc_col = -1;
	for (unsigned c = 0; c < t->ndcols; c++) {
		int at = add_column(db, table, t->dcols[c].name, sql, sizeof(sql), &n, &col);

		if (t->dfield[c] < 0)
			k->loc_col = at;
		else
			k->dec_col[t->dfield[c]] = at;
	}
	if (n >= sizeof(sql) || snprintf(sql + n, sizeof(sql) - n, " FROM %s e WHERE e.id = ?",
					 table) >= (int)(sizeof(sql) - n))
		return -1;
	return sqlite3_prepare_v2(db->h, sql, -1, &k->dec_st, NULL) == SQLITE_OK ? 0 : -1;
}

static int keys_open(struct ras_db *db, unsigned idx, struct ras_db_row_cols *rc)
{
	struct ras_db_row_keys *k = rc->keys ? rc->keys : calloc(1, sizeof(*k));

	rc->keys = k;
	if (!k || k->dec_st)
		return k ? 0 : -1;
	if (sqlite3_prepare_v2(db->h, "SELECT boot_id FROM boots WHERE id = ?", -1, &k->boot_st,
			       NULL) != SQLITE_OK)
		return -1;
	return keys_dec_stmt(db, idx, k);
}

void ras_db_row_cols_release(struct ras_db_row_cols *rc)
{
	if (!rc->keys)
		return;
	sqlite3_finalize(rc->keys->boot_st);
	sqlite3_finalize(rc->keys->dec_st);
	free(rc->keys->boot_id);
	free(rc->keys);
	rc->keys = NULL;
}

/* The boot id of the row's boot number (column 3), NULL as the subquery reads it; -EIO. */
static int keys_boot(struct ras_db_row_keys *k, sqlite3_stmt *row, const char **out)
{
	sqlite3_value *v = sqlite3_column_value(row, 3);
	bool null = sqlite3_value_type(v) == SQLITE_NULL;
	int64_t boot = sqlite3_value_int64(v);
	int step;

	if (!k->boot_known || k->boot_null != null || k->boot != boot) {
		free(k->boot_id);
		k->boot_id = NULL;
		k->boot_known = false;
		sqlite3_bind_int64(k->boot_st, 1, boot);
		step = null ? SQLITE_DONE : sqlite3_step(k->boot_st);
		if (step == SQLITE_ROW && sqlite3_column_text(k->boot_st, 0) &&
		    !(k->boot_id = strdup((const char *)sqlite3_column_text(k->boot_st, 0))))
			step = SQLITE_NOMEM;
		sqlite3_reset(k->boot_st);
		if (step != SQLITE_ROW && step != SQLITE_DONE)
			return step == SQLITE_NOMEM ? -ENOMEM : -EIO;
		k->boot_known = true;
		k->boot_null = null;
		k->boot = boot;
	}
	*out = k->boot_id;
	return 0;
}

/* Builds kept decoding d from the decoding dec_st stands on (or none: every member absent). */
static void keys_fill(unsigned idx, struct ras_db_row_keys *k, unsigned d, bool found)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	struct ras_decoded_head *h = (void *)k->dec[d].decoded;
	struct ras_value v;

	memset(h, 0, RAS_DECODED_MAX);
	read_value(k->dec_st, found ? k->loc_col : -1, &v);
	if (v.present && v.p)
		copy_text(h->location, sizeof(h->location), &v);
	for (size_t i = 0; i < *type->n_dfields && i < RAS_DB_MAX_COLS; i++) {
		read_value(k->dec_st, found ? k->dec_col[i] : -1, &v);
		set_member(h, &type->dfields[i], &v);
	}
}

/* The kept decoding of the row's dec number (rc->dec_key), looked up if new; NULL: -EIO. */
static const void *keys_decoding(unsigned idx, const struct ras_db_row_cols *rc, sqlite3_stmt *row)
{
	struct ras_db_row_keys *k = rc->keys;
	sqlite3_value *v = rc->dec_key >= 0 ? sqlite3_column_value(row, rc->dec_key) : NULL;
	bool null = !v || sqlite3_value_type(v) == SQLITE_NULL;
	int64_t id = null ? 0 : sqlite3_value_int64(v);
	unsigned d;
	int step;

	for (d = 0; d < KEPT_DECODINGS; d++)
		if (k->dec[d].used && k->dec[d].null == null && k->dec[d].id == id)
			return k->dec[d].decoded;
	d = k->next++ % KEPT_DECODINGS;
	k->dec[d].used = false;
	sqlite3_bind_int64(k->dec_st, 1, id);
	step = null ? SQLITE_DONE : sqlite3_step(k->dec_st);
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		sqlite3_reset(k->dec_st);
		return NULL;
	}
	/* A row whose decoding is gone reads as one without: the view's LEFT JOIN. */
	keys_fill(idx, k, d, step == SQLITE_ROW);
	sqlite3_reset(k->dec_st);
	k->dec[d].used = true;
	k->dec[d].null = null;
	k->dec[d].id = id;
	return k->dec[d].decoded;
}

/*
 * Rebuilds the decoder's output struct from what was stored: severity,
 * location and every decoded field, those that restate a raw field from its
 * column. No decoder runs: the row reads the same on any machine.
 * With rc->by_key the decoding's part is copied from its kept decoding.
 * 0, or -EIO.
 */
static int load_decoded(sqlite3_stmt *st, unsigned idx, const struct ras_db_row_cols *rc,
			const struct ras_db_row *row, void *out)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	const void *kept = rc->by_key ? keys_decoding(idx, rc, st) : NULL;
	struct ras_decoded_head *h = out;
	enum ras_severity sev = RAS_SEV_UNKNOWN;
	struct ras_value v;

	if (rc->by_key && !kept)
		return -EIO;
	if (kept)
		memcpy(out, kept, RAS_DECODED_MAX);
	else
		memset(out, 0, RAS_DECODED_MAX);
	if (row->severity)
		ras_severity_parse(row->severity, &sev);
	h->severity = sev;
	read_value(st, rc->location, &v);
	if (v.present && v.p)
		copy_text(h->location, sizeof(h->location), &v);
	for (size_t i = 0; i < *type->n_dfields && i < RAS_DB_MAX_COLS; i++) {
		const struct ras_dfield *f = &type->dfields[i];
		int raw = t->restated[i];

		if (rc->dec[i] >= 0)
			read_value(st, rc->dec[i], &v);
		else if (raw >= 0)
			v = row->values[raw];
		else if (kept)
			continue;   /* the decoding's own, or absent: as kept */
		else
			memset(&v, 0, sizeof(v));
		set_member(out, f, &v);
	}
	return 0;
}

int ras_db_row_read(sqlite3_stmt *st, unsigned idx, const struct ras_db_row_cols *rc,
		    void *decoded, ras_db_row_fn fn, void *ctx)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	struct ras_db_row row = { .type_idx = idx, .id = sqlite3_column_int64(st, 7), .decoded = decoded };
	int r = 0;

	row.wall_ns = sqlite3_column_int64(st, 0);
	row.trace_ts = sqlite3_column_int64(st, 1);
	row.trace_cpu = sqlite3_column_int(st, 2);
	if (rc->by_key)
		r = keys_boot(rc->keys, st, &row.boot_id);
	else
		row.boot_id = (const char *)sqlite3_column_text(st, 3);
	row.source = (const char *)sqlite3_column_text(st, 4);
	row.severity = (const char *)sqlite3_column_text(st, 5);
	row.synthetic = sqlite3_column_int(st, 6) != 0 ||
			(row.source && !strcmp(row.source, "synthetic"));
	for (unsigned i = 0; i < type->n_fields; i++)
		read_value(st, rc->raw[i], &row.values[i]);
	if (r == 0)
		r = load_decoded(st, idx, rc, &row, decoded);
	if (r < 0)
		return r;
	row.location = ((const struct ras_decoded_head *)decoded)->location;
	return fn(ctx, &row);
}

int ras_db_deliver_row(sqlite3_stmt *st, unsigned idx, int64_t id, const struct ras_db_row_cols *rc,
		       void *decoded, ras_db_row_fn fn, void *ctx)
{
	int r;

	sqlite3_bind_int64(st, 1, id);
	int step = sqlite3_step(st);

	if (step != SQLITE_ROW) {
		sqlite3_reset(st);
		/* Gone since the ordering query: skip it. A damaged page: say so. */
		return step == SQLITE_DONE ? 0 : -EIO;
	}
	r = ras_db_row_read(st, idx, rc, decoded, fn, ctx);
	sqlite3_reset(st);
	return r;
}

/*
 * A folded period's decoded fields: its first record's stored decoding (the
 * dec row the folds row keeps), for views that group by them (summary --by
 * vendor). The per-record fields and those restating a raw field stay unknown.
 */
void ras_db_dec_read(struct ras_db *db, unsigned idx, int64_t dec, void *out)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	char sql[16384];
	size_t n = (size_t)snprintf(sql, sizeof(sql), "SELECT id");
	sqlite3_stmt *st;
	struct ras_value v;
	int col = 1;

	for (size_t i = 0; i < *type->n_dfields; i++)
		if (type->dfields[i].type == RAS_DF_INT)
			*(int64_t *)((char *)out + type->dfields[i].offset) = RAS_DF_NONE;
	for (unsigned k = 0; k < t->ndcols && n < sizeof(sql); k++)
		if (t->dfield[k] >= 0)
			n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", \"%s\"", t->dcols[k].name);
	if (n < sizeof(sql))
		snprintf(sql + n, sizeof(sql) - n, " FROM %s_dec WHERE id = ?", type->table);
	/* An older database's table may lack columns: the period keeps its head only. */
	if (n >= sizeof(sql) || sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, dec);
	if (sqlite3_step(st) == SQLITE_ROW)
		for (unsigned k = 0; k < t->ndcols; k++)
			if (t->dfield[k] >= 0) {
				read_value(st, col++, &v);
				set_member(out, &type->dfields[t->dfield[k]], &v);
			}
	sqlite3_finalize(st);
}
