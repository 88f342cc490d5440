/* SPDX-License-Identifier: MIT */
/*
 * Column layout of the event tables, computed once from the event table:
 * common columns, then one per tracepoint field (its own name), then one per
 * decoded field. A name that clashes with an earlier column is prefixed
 * (raw_ for tracepoint fields, dec_ for decoded ones).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"

const char *const ras_db_common_columns[RAS_DB_N_COMMON] = {
	"wall_ns", "trace_ts", "trace_cpu", "boot", "source", "rec_hash",
	"severity", "synthetic",
};

static const char *const common_decl[RAS_DB_N_COMMON] = {
	"INTEGER NOT NULL", "INTEGER", "INTEGER", "INTEGER", "TEXT NOT NULL",
	"INTEGER", "TEXT", "INTEGER NOT NULL",
};

static struct ras_db_table tables[RAS_MAX_EVENT_TYPES];
static bool tables_ready;

static bool name_taken(const struct ras_db_table *t, const char *name)
{
	for (unsigned i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i].name, name))
			return true;
	return false;
}

static int add_col(struct ras_db_table *t, const char *name, const char *prefix,
		   const char *decl)
{
	char buf[128];

	if (t->ncols >= RAS_DB_MAX_COLS)
		return -1;
	snprintf(buf, sizeof(buf), "%s", name);
	if (name_taken(t, buf))
		snprintf(buf, sizeof(buf), "%s%s", prefix, name);
	t->cols[t->ncols].name = strdup(buf);
	t->cols[t->ncols].decl = decl;
	t->ncols++;
	return 0;
}

static const char *field_decl(enum ras_ftype type)
{
	switch (type) {
	case RAS_FT_INT: return "INTEGER";
	case RAS_FT_TEXT: return "TEXT";
	default: return "BLOB";
	}
}

/*
 * A decoded field that restates a tracepoint field (bank, cpu, raw_status...)
 * is not stored twice: it is read back from the raw column. Only a value of
 * the same kind restates: a decoded string made from a raw number or blob
 * (a name, a GUID in words) is a decoding, and is stored.
 * Returns the raw field's index, or -1.
 */
int ras_db_restated_raw(const struct ras_event_type *type, const struct ras_dfield *d)
{
	for (unsigned i = 0; i < type->n_fields; i++) {
		const struct ras_field *raw = &type->fields[i];
		bool same_kind = d->type == RAS_DF_INT ? raw->type == RAS_FT_INT
						       : raw->type == RAS_FT_TEXT;

		if (!same_kind || (type->keep_decoded && !strcmp(type->keep_decoded, d->name)))
			continue;
		if (!strcmp(d->name, raw->name) ||
		    (!strncmp(d->name, "raw_", 4) && !strcmp(d->name + 4, raw->name)))
			return (int)i;
	}
	return -1;
}

static void add_dcol(struct ras_db_table *t, const struct ras_event_type *type, size_t i)
{
	const struct ras_dfield *f = &type->dfields[i];
	char buf[128];

	if (t->ndcols >= RAS_DB_MAX_COLS)
		return;
	/* Names of the event table's columns stay unique in the joined view. */
	snprintf(buf, sizeof(buf), "%s%s",
		 name_taken(t, f->name) || !strcmp(f->name, "sig") ? "dec_" : "", f->name);
	t->dcols[t->ndcols].name = strdup(buf);
	t->dcols[t->ndcols].decl = f->type == RAS_DF_INT ? "INTEGER" : "TEXT";
	t->dfield[t->ndcols++] = (short)i;
}

static void build_table(unsigned idx)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	struct ras_db_table *t = &tables[idx];

	for (unsigned i = 0; i < RAS_DB_N_COMMON; i++)
		add_col(t, ras_db_common_columns[i], "", common_decl[i]);
	t->first_raw = t->ncols;
	for (unsigned i = 0; i < type->n_fields; i++)
		add_col(t, type->fields[i].name, "raw_", field_decl(type->fields[i].type));
	t->dec_col = t->ncols;
	add_col(t, "dec", "raw_", "INTEGER");
	t->first_rec = t->ncols;
	/* The location in words is part of the decoding: stored once per distinct one. */
	t->dcols[0].name = "location";
	t->dcols[0].decl = "TEXT";
	t->dfield[0] = -1;
	t->ndcols = 1;
	for (size_t i = 0; i < *type->n_dfields; i++) {
		const struct ras_dfield *f = &type->dfields[i];
		int raw = ras_db_restated_raw(type, f);

		/* Found once per type here: a row read back asks it of every field. */
		if (i < RAS_DB_MAX_COLS)
			t->restated[i] = (short)raw;
		if (raw >= 0)
			continue;
		if (!f->per_record) {
			add_dcol(t, type, i);
			continue;
		}
		/* Before any decoded column is named: "dec_" only where a raw column has the name. */
		if (add_col(t, f->name, "dec_", f->type == RAS_DF_INT ? "INTEGER" : "TEXT") == 0)
			t->rfield[t->nrec++] = (short)i;
	}
	for (unsigned d = 0; d < t->ndcols; d++) {
		const struct ras_dfield *f = t->dfield[d] < 0 ? NULL : &type->dfields[t->dfield[d]];

		t->sig[d] = f ? (struct ras_db_sig_col){ (uint32_t)f->offset, (uint32_t)f->size,
							 f->type == RAS_DF_INT } :
			       (struct ras_db_sig_col){ offsetof(struct ras_decoded_head, location),
							RAS_LOCATION_LEN, false };
	}
}

const struct ras_db_table *ras_db_table_of(unsigned type_idx)
{
	if (!tables_ready) {
		for (unsigned i = 0; i < ras_n_event_types; i++)
			build_table(i);
		tables_ready = true;
	}
	return &tables[type_idx];
}

const char *ras_db_column_name(unsigned type_idx, unsigned col)
{
	const struct ras_db_table *t = ras_db_table_of(type_idx);

	return col < t->ncols ? t->cols[col].name : NULL;
}

unsigned ras_db_column_count(unsigned type_idx)
{
	return ras_db_table_of(type_idx)->ncols;
}

struct ras_db_col_ref ras_db_col_resolve(unsigned idx, const char *name)
{
	const struct ras_db_table *t = ras_db_table_of(idx);
	unsigned n_raw = ras_event_types[idx].n_fields;

	if (!name)
		return (struct ras_db_col_ref){ RAS_DB_COL_NONE, 0 };
	for (unsigned c = 0; c < n_raw; c++)
		if (!strcmp(t->cols[t->first_raw + c].name, name))
			return (struct ras_db_col_ref){ RAS_DB_COL_RAW, (int)c };
	for (unsigned r = 0; r < t->nrec; r++)
		if (!strcmp(t->cols[t->first_rec + r].name, name))
			return (struct ras_db_col_ref){ RAS_DB_COL_REC, t->rfield[r] };
	for (unsigned d = 0; d < t->ndcols; d++)
		if (!strcmp(t->dcols[d].name, name))
			return (struct ras_db_col_ref){ t->dfield[d] < 0 ? RAS_DB_COL_LOC : RAS_DB_COL_DEC,
							t->dfield[d] };
	return (struct ras_db_col_ref){ RAS_DB_COL_NONE, 0 };
}

struct ras_db_col_val ras_db_decoded_value(const struct ras_dfield *f, const void *decoded)
{
	struct ras_db_col_val v = { .type = SQLITE_NULL };
	const char *s;

	if (f->type == RAS_DF_INT) {
		int64_t x = ras_dfield_int(decoded, f);

		return x == RAS_DF_NONE ? v : (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = x };
	}
	s = ras_dfield_str(decoded, f);
	return *s ? (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = s, .len = strlen(s) } : v;
}

void ras_db_bind_value(sqlite3_stmt *st, int col, const struct ras_db_col_val *v)
{
	if (v->type == SQLITE_INTEGER)
		sqlite3_bind_int64(st, col, v->i);
	else if (v->type == SQLITE_TEXT)
		sqlite3_bind_text(st, col, v->p, (int)v->len, SQLITE_STATIC);
	else if (v->type == SQLITE_BLOB)
		sqlite3_bind_blob(st, col, v->p, (int)v->len, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

struct ras_db_col_val ras_db_col_value(const struct ras_db_col_ref *c, const struct ras_db_event *ev)
{
	const struct ras_event_type *type = &ras_event_types[ev->type_idx];
	const char *s;

	switch (c->kind) {
	case RAS_DB_COL_RAW:
		return ras_db_raw_value(&type->fields[c->i], &ev->values[c->i]);
	case RAS_DB_COL_REC:
	case RAS_DB_COL_DEC:
		return ras_db_decoded_value(&type->dfields[c->i], ev->decoded);
	case RAS_DB_COL_LOC:
		/* Stored in <table>_dec as the decoding's location, NULL when empty (db_insert.c). */
		s = ((const struct ras_decoded_head *)ev->decoded)->location;
		if (*s)
			return (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = s, .len = strlen(s) };
		return (struct ras_db_col_val){ .type = SQLITE_NULL };
	default:
		return (struct ras_db_col_val){ .type = SQLITE_NULL };
	}
}
