/* SPDX-License-Identifier: MIT */
/*
 * A held record's fold columns in C (db_fold_hold.c). They were computed by
 * a one-row statement per record over the values its INSERT would bind,
 * 12 % of rasd's instructions in a varied storm (callgrind, make bench's
 * stream); the columns read the same values here (db_columns.c
 * ras_db_col_value) and give what the statement gives, which test-fold-row
 * checks against that SQL for every event type of the stream. A value the C
 * cannot render as SQLite would is left to the statement.
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

/* An integer column as the list reads it: have is false for anything but an integer. */
static void int_col(const struct ras_db_col_ref *c, const struct ras_db_event *ev, bool *have,
		    uint64_t *v)
{
	struct ras_db_col_val x = ras_db_col_value(c, ev);

	*have = x.type == SQLITE_INTEGER;
	*v = *have ? (uint64_t)x.i : 0;
}

/* json_array(coalesce(col, default), ...) over integers; -ENOTSUP for a value json would quote. */
static int ekey_of(const struct ras_db_fold_plan *p, const struct ras_db_event *ev, char *out,
		   size_t len)
{
	char buf[6 * 21 + 8];
	size_t n = 0;

	for (int k = 0; k < 6; k++) {
		struct ras_db_col_val v = ras_db_col_value(&p->ek[k], ev);

		if (v.type != SQLITE_INTEGER && v.type != SQLITE_NULL)
			return -ENOTSUP;
		buf[n++] = k ? ',' : '[';
		n += ras_str_int(buf + n, (long long)(v.type == SQLITE_NULL ? ekey_default[k] : v.i));
	}
	buf[n++] = ']';
	buf[n] = '\0';
	ras_str_copy(out, len, buf);
	return 0;
}

int ras_db_fold_plan_cols(const struct ras_db_fold_plan *p, const struct ras_db_event *ev,
			  struct ras_db_fold_cols *out)
{
	if (!p->ok)
		return -ENOTSUP;
	int_col(&p->addr, ev, &out->have_addr, &out->addr);
	int_col(&p->detail, ev, &out->have_detail, &out->detail);
	out->weight = 1;
	out->dims[0] = '\0';
	if (p->subjects)
		ras_db_metrics_subject_text(&p->subj, ev, out->dims, sizeof(out->dims), &out->weight);
	out->ekey[0] = '\0';
	return p->ekey ? ekey_of(p, ev, out->ekey, sizeof(out->ekey)) : 0;
}
