/* SPDX-License-Identifier: MIT */
/*
 * A held record's fold columns in C (db_fold_hold.c). They were computed by
 * a one-row statement per record over the values its INSERT would bind,
 * 12 % of rasd's instructions in a varied storm (callgrind, make bench's
 * stream); the columns read the same values here (db_columns.c
 * ras_db_col_value) and give what the statement gives, which test-fold-row
 * checks against that SQL for every event type of the stream. A value the C
 * cannot render as SQLite would is left to the statement.
 *
 * A held copy's columns are read from its values as they are
 * (ras_db_fold_plan_cols_held), not from an event and a decoding built for
 * them (held_event, 189 instructions a record on make bench's 1M-record
 * stream), and written into its folded row, not copied there; the same
 * logic reads either (plan_cols over a getter), and tests/test-fold-cols
 * compares the two ways on random copies.
 */
#include <errno.h>
#include <string.h>
#include "lib/str.h"
#include "db_fold_internal.h"

/* mc_event's EDAC key (db_fold.c table_sql): json_array of these, NULL as the default. */
static const char *const ekey_cols[6] = {
	"mc_index", "top_layer", "middle_layer", "lower_layer", "error_type", "error_count",
};
static const int64_t ekey_default[6] = { -1, -1, -1, -1, -1, 1 };

/* A named column resolved; false when the list names one C cannot find. */
static bool resolve(unsigned idx, const char *name, struct ras_db_col_ref *c)
{
	*c = name ? ras_db_col_resolve(idx, name) : (struct ras_db_col_ref){ RAS_DB_COL_NONE, 0 };
	return !name || c->kind != RAS_DB_COL_NONE;
}

/* Notes the decoded field c reads when its value is the decoding's (not in the row), once. */
static void note_dec(struct ras_db_fold_plan *p, const struct ras_db_col_ref *c)
{
	if (c->kind != RAS_DB_COL_DEC)
		return;
	for (unsigned k = 0; k < p->ndec; k++)
		if (p->dec[k] == c->i)
			return;
	p->dec[p->ndec++] = (short)c->i;
}

void ras_db_fold_plan_make(unsigned idx, const char *addr, const char *detail,
			   struct ras_db_fold_plan *p)
{
	const struct ras_db_col_ref *refs[] = {
		&p->addr, &p->detail, &p->subj.key[0], &p->subj.key[1], &p->subj.key[2],
		&p->subj.key2, &p->subj.weight, &p->ek[0], &p->ek[1], &p->ek[2], &p->ek[3],
		&p->ek[4], &p->ek[5],
	};

	_Static_assert(sizeof(refs) / sizeof(refs[0]) <= RAS_DB_FOLD_PLAN_DEC, "room for every column read");
	memset(p, 0, sizeof(*p));
	p->ok = resolve(idx, addr, &p->addr) && resolve(idx, detail, &p->detail);
	p->subjects = ras_db_metrics_subject_cols(idx, &p->subj);
	if (p->subjects && p->subj.key[0].kind == RAS_DB_COL_NONE)
		p->ok = false;
	p->ekey = !strcmp(ras_event_types[idx].table, "mc_event");
	for (int k = 0; p->ekey && k < 6; k++)
		p->ok &= resolve(idx, ekey_cols[k], &p->ek[k]);
	/* Unused references are RAS_DB_COL_NONE (memset, or resolved to none). */
	for (size_t k = 0; p->ok && k < sizeof(refs) / sizeof(refs[0]); k++)
		note_dec(p, refs[k]);
}

static struct ras_db_col_val event_value(const struct ras_db_col_ref *c, const void *ev)
{
	return ras_db_col_value(c, ev);
}

/* An integer column as the list reads it: have is false for anything but an integer. */
static inline __attribute__((always_inline)) void int_col(const struct ras_db_col_ref *c,
							  ras_db_col_get *get, const void *ctx,
							  bool *have, uint64_t *v)
{
	struct ras_db_col_val x = get(c, ctx);

	*have = x.type == SQLITE_INTEGER;
	*v = *have ? (uint64_t)x.i : 0;
}

/* v in decimal at out, as ras_str_int writes it: the EDAC key's usual 0 to 9 and -1 without dividing. */
static inline size_t key_int(char *out, long long v)
{
	if (v >= 0 && v < 10) {
		out[0] = (char)('0' + v);
		return 1;
	}
	if (v == -1) {
		out[0] = '-';
		out[1] = '1';
		return 2;
	}
	return ras_str_int(out, v);
}

/* json_array(coalesce(col, default), ...) over integers; -ENOTSUP for a value json would quote. */
static inline int ekey_of(const struct ras_db_fold_plan *p, ras_db_col_get *get, const void *ctx,
			  char *out, size_t len)
{
	char buf[6 * 21 + 8];
	size_t n = 0;

	for (int k = 0; k < 6; k++) {
		struct ras_db_col_val v = get(&p->ek[k], ctx);

		if (v.type != SQLITE_INTEGER && v.type != SQLITE_NULL)
			return -ENOTSUP;
		buf[n++] = k ? ',' : '[';
		n += key_int(buf + n, (long long)(v.type == SQLITE_NULL ? ekey_default[k] : v.i));
	}
	buf[n++] = ']';
	/* Cut to fit as a copy of the text would be (it holds no NUL). */
	n = n < len ? n : len - 1;
	memcpy(out, buf, n);
	out[n] = '\0';
	return 0;
}

/* Where the columns go: a struct ras_db_fold_cols, or a folded row's own fields. */
struct cols_at {
	bool *have_addr, *have_detail;
	uint64_t *addr, *detail;
	int64_t *weight;
	char *dims, *ekey;
	size_t dims_len, ekey_len;
};

/*
 * The columns, each value read by get from ctx: one logic for an event and a
 * held copy. Always inline, so that a held copy's get (held_value) is inlined
 * too: a call each was about 11 a folded record (ekey 6, address, detail).
 */
static inline __attribute__((always_inline)) int plan_cols(const struct ras_db_fold_plan *p,
							    ras_db_col_get *get, const void *ctx,
							    const struct cols_at *o)
{
	if (!p->ok)
		return -ENOTSUP;
	int_col(&p->addr, get, ctx, o->have_addr, o->addr);
	int_col(&p->detail, get, ctx, o->have_detail, o->detail);
	*o->weight = 1;
	o->dims[0] = '\0';
	if (p->subjects)
		ras_db_metrics_subject_text_get(&p->subj, get, ctx, o->dims, o->dims_len, o->weight);
	o->ekey[0] = '\0';
	return p->ekey ? ekey_of(p, get, ctx, o->ekey, o->ekey_len) : 0;
}

int ras_db_fold_plan_cols(const struct ras_db_fold_plan *p, const struct ras_db_event *ev,
			  struct ras_db_fold_cols *out)
{
	const struct cols_at o = { &out->have_addr, &out->have_detail, &out->addr, &out->detail,
				   &out->weight, out->dims, out->ekey, sizeof(out->dims), sizeof(out->ekey) };

	return plan_cols(p, event_value, ev, &o);
}

/* A held copy's values, as ras_db_fold_plan_cols_held reads them. */
struct held_vals {
	const struct ras_db_fold_plan *p;
	const struct ras_event_type *type;
	const struct ras_db_table *t;
	const struct ras_value *v;
	unsigned nvals;
};

/*
 * A decoded field's value v as the decoding held_event (db_fold_hold.c) builds
 * would give it (ras_db_decoded_value): an integer absent is RAS_DF_NONE, text
 * cut to the field and at a NUL, NULL when none or empty.
 */
static struct ras_db_col_val held_dec(const struct ras_dfield *f, const struct ras_value *v)
{
	struct ras_db_col_val none = { .type = SQLITE_NULL };
	size_t n;

	if (f->type == RAS_DF_INT) {
		int64_t x = v->present ? v->i : RAS_DF_NONE;

		return x == RAS_DF_NONE ? none : (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = x };
	}
	n = v->len < f->size ? v->len : f->size - 1;
	n = n ? strnlen(v->p, n) : 0;
	return n ? (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = v->p, .len = n } : none;
}

/* Column c of a held copy, as ras_db_col_value reads it from the event held_event builds. */
static inline __attribute__((always_inline)) struct ras_db_col_val
held_value(const struct ras_db_col_ref *c, const void *ctx)
{
	const struct held_vals *h = ctx;
	const struct ras_value *loc;
	unsigned first = h->type->n_fields;
	size_t n;

	switch (c->kind) {
	case RAS_DB_COL_RAW:
		return ras_db_raw_value(&h->type->fields[c->i], &h->v[c->i]);
	case RAS_DB_COL_REC:
		for (unsigned k = 0; k < h->t->nrec; k++)
			if (h->t->rfield[k] == c->i)
				return held_dec(&h->type->dfields[c->i], &h->v[first + k]);
		break;
	case RAS_DB_COL_DEC:
		for (unsigned k = 0; k < h->p->ndec; k++)
			if (h->p->dec[k] == c->i)
				return held_dec(&h->type->dfields[c->i], &h->v[first + h->t->nrec + k]);
		break;
	case RAS_DB_COL_LOC:
		loc = &h->v[h->nvals - 1];
		n = loc->len < RAS_LOCATION_LEN ? loc->len : RAS_LOCATION_LEN - 1;
		n = n ? strnlen(loc->p, n) : 0;
		if (n)
			return (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = loc->p, .len = n };
		break;
	default:
		break;
	}
	return (struct ras_db_col_val){ .type = SQLITE_NULL };
}

int ras_db_fold_plan_cols_held(const struct ras_db_fold_plan *p, unsigned idx, const struct ras_value *v,
			       unsigned nvals, struct folded_row *r)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	const struct held_vals h = { .p = p, .type = type, .t = t, .v = v, .nvals = nvals };
	const struct cols_at o = { &r->have_addr, &r->have_detail, &r->addr, &r->detail, &r->weight,
				   r->dims, r->ekey, sizeof(r->dims), sizeof(r->ekey) };

	/* A copy packed without this plan's decoded values (none is) goes the general way. */
	if (nvals != type->n_fields + t->nrec + p->ndec + 1)
		return -ENOTSUP;
	return plan_cols(p, held_value, &h, &o);
}
