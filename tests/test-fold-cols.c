/* SPDX-License-Identifier: MIT */
/*
 * A held record's fold columns are read from its copy's values as they are
 * (db/db_fold_row.c ras_db_fold_plan_cols_held), not from the event and
 * decoding held_event builds for the general way (ras_db_held_cols_general,
 * which tests/test-fold-row checks against the SQL). The two must agree on
 * every column and every refusal: here on random copies of every table with
 * a plan, values absent, integers at their edges (RAS_DF_NONE included),
 * text empty, longer than its decoded field or the location, with NULs
 * inside; the general way's scratch decoding filled with junk first, so that
 * a value it read without writing would show. Then on random events packed
 * as the event loop packs them: a copy unpacked in place (as one folded is)
 * must fold as one unpacked with its bytes copied, and as the general way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_hold_pack.h"
#include "db/db_internal.h"
#include "lib/event_table.h"
#include "rng.h"
#include "tap.h"

#define RUNS 2000

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	return rng_next(&rng);
}

static int64_t some_int(void)
{
	static const int64_t edge[] = { 0, 1, 2, -1, -2, 7, 255, INT64_MAX, INT64_MIN, 1000000007 };

	return next() & 1 ? edge[next() % 10] : (int64_t)next() >> (next() % 64);
}

/* Random bytes at *data (up to max of them), NULs now and then; v points at them. */
static void some_text(struct ras_value *v, uint8_t **data, uint32_t max)
{
	static const char pick[] = "ab0\x1f-_ 9Z";
	uint32_t len = (uint32_t)(next() % (max + 1));

	for (uint32_t i = 0; i < len; i++)
		(*data)[i] = next() % 23 ? (uint8_t)pick[next() % (sizeof(pick) - 1)] : 0;
	*v = (struct ras_value){ .present = true, .p = *data, .len = len };
	*data += len;
}

/* A decoded field's value as a copy holds it: absent, an integer, or text (never without bytes). */
static void some_dec(const struct ras_dfield *f, struct ras_value *v, uint8_t **data)
{
	if (next() % 5 == 0) {
		*v = (struct ras_value){ .present = false };
		return;
	}
	if (f->type == RAS_DF_INT)
		*v = (struct ras_value){ .present = true, .i = next() % 8 ? some_int() : RAS_DF_NONE };
	else
		some_text(v, data, (uint32_t)f->size + 4);
}

/* A random copy of table idx packed with plan p, its bytes in data. */
static void some_copy(unsigned idx, const struct ras_db_fold_plan *p, struct held *c, uint8_t *data)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	unsigned k = 0;

	/* The head as a packed copy's is: the columns the general way puts in its event. */
	c->dec = some_int(), c->wall_ns = some_int(), c->boot = some_int();
	c->trace_ts = (uint64_t)some_int(), c->rec_hash = (uint64_t)some_int();
	c->trace_cpu = (int)(next() % 256), c->severity = (int)(next() % 8);
	c->synthetic = next() % 2;
	snprintf(c->source, sizeof(c->source), "%s", next() % 2 ? "live" : "boot");
	c->nvals = type->n_fields + t->nrec + p->ndec + 1;
	for (unsigned i = 0; i < type->n_fields; i++, k++) {
		if (next() % 6 == 0)
			c->values[k] = (struct ras_value){ .present = false };
		else if (type->fields[i].type == RAS_FT_INT)
			c->values[k] = (struct ras_value){ .present = true, .i = some_int() };
		else
			some_text(&c->values[k], &data, 40);
	}
	for (unsigned r = 0; r < t->nrec; r++, k++)
		some_dec(&type->dfields[t->rfield[r]], &c->values[k], &data);
	for (unsigned d = 0; d < p->ndec; d++, k++)
		some_dec(&type->dfields[p->dec[d]], &c->values[k], &data);
	some_text(&c->values[k], &data, RAS_LOCATION_LEN + 8);
}

static bool same(const struct folded_row *a, const struct ras_db_fold_cols *b)
{
	return a->have_addr == b->have_addr && a->addr == b->addr && a->have_detail == b->have_detail &&
	       a->detail == b->detail && a->weight == b->weight && !strcmp(a->dims, b->dims) &&
	       !strcmp(a->ekey, b->ekey);
}

/*
 * A random event of table idx (its raw values in v, bytes in data, its
 * decoding in decoded) as the event loop would pack it.
 */
static void some_event(unsigned idx, struct ras_db_event *ev, struct ras_value *v, uint8_t *data,
		       void *decoded)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	struct ras_decoded_head *head = decoded;

	for (size_t i = 0; i < RAS_DECODED_MAX; i++)
		((uint8_t *)decoded)[i] = (uint8_t)next();
	for (unsigned i = 0; i < type->n_fields; i++) {
		if (next() % 6 == 0)
			v[i] = (struct ras_value){ .present = false };
		else if (type->fields[i].type == RAS_FT_INT)
			v[i] = (struct ras_value){ .present = true, .i = some_int() };
		else
			some_text(&v[i], &data, 40);
	}
	for (size_t d = 0; type->n_dfields && d < *type->n_dfields; d++) {
		const struct ras_dfield *f = &type->dfields[d];
		char *at = (char *)decoded + f->offset;

		if (f->type == RAS_DF_INT) {
			int64_t x = next() % 8 ? some_int() : RAS_DF_NONE;

			memcpy(at, &x, sizeof(x));
		} else {
			at[next() % f->size] = '\0';
		}
	}
	head->location[next() % RAS_LOCATION_LEN] = '\0';
	head->severity = (enum ras_severity)(next() % 4);
	*ev = (struct ras_db_event){ .type_idx = idx, .wall_ns = (int64_t)next(), .source = "live",
				     .values = v, .decoded = decoded };
}

/*
 * Random events of table idx packed with plan p: folded from their copies
 * unpacked in place (ras_db_held_view, as a copy folded is), as from copies
 * unpacked with their bytes copied (ras_db_held_read, as one stored is), and
 * as the general way. Returns how many differ.
 */
static unsigned check_packed(unsigned idx, const struct ras_db_fold_plan *p, struct held *c,
			     struct held *whole, uint8_t *data, void *scratch, void *decoded)
{
	static struct ras_value v[RAS_MAX_FIELDS];
	static uint8_t *buf;
	static size_t cap;
	unsigned bad = 0;

	for (unsigned r = 0; r < RUNS / 4; r++) {
		struct ras_db_event ev;
		struct folded_row a, b;
		struct ras_db_fold_cols g;
		size_t bytes;
		int ra, rb, rg;

		some_event(idx, &ev, v, data, decoded);
		if (ras_db_held_pack(p, &ev, &buf, &cap, 0, &bytes) < 0)
			return RUNS;
		ras_db_held_view(c, 7, buf);
		ras_db_held_read(whole, 7, buf);
		ra = ras_db_fold_plan_cols_held(p, idx, c->values, c->nvals, &a);
		rb = ras_db_fold_plan_cols_held(p, idx, whole->values, whole->nvals, &b);
		rg = ras_db_held_cols_general(p, scratch, whole, idx, &g);
		if (ra != rb || ra != rg || (ra == 0 && (!same(&a, &g) || !same(&b, &g))))
			bad++;
	}
	return bad;
}

/* The first of names that table idx's columns have (as db_fold.c picks its address and detail). */
static const char *first_col(unsigned idx, const char *const *names)
{
	for (; *names; names++)
		if (ras_db_col_resolve(idx, *names).kind != RAS_DB_COL_NONE)
			return *names;
	return NULL;
}

int main(void)
{
	static const char *const addrs[] = { "address", "addr", "pa", "hpa", "dpa", NULL };
	static const char *const details[] = { "syndrome", "synd", "row", "status", NULL };
	struct held *c = malloc(sizeof(*c) + (RAS_MAX_FIELDS + 64) * sizeof(struct ras_value));
	uint8_t *data = malloc(1 << 16);
	struct held *whole = malloc(sizeof(*c) + (RAS_MAX_FIELDS + 64) * sizeof(struct ras_value) + (1 << 16));
	void *scratch = aligned_alloc(16, RAS_DECODED_MAX), *decoded = aligned_alloc(16, RAS_DECODED_MAX);
	unsigned planned = 0;

	if (!c || !data || !scratch || !whole || !decoded)
		return 1;
	for (unsigned idx = 0; idx < ras_n_event_types; idx++) {
		const char *table = ras_event_types[idx].table;
		struct ras_db_fold_plan p;
		unsigned bad = 0, refused = 0, dims = 0, ekeys = 0, addr = 0;
		struct ras_db_fold_cols b;
		struct folded_row a;

		ras_db_fold_plan_make(idx, first_col(idx, addrs), first_col(idx, details), &p);
		if (!p.ok)
			continue;
		planned++;
		for (unsigned r = 0; r < RUNS; r++) {
			int ra, rb;

			some_copy(idx, &p, c, data);
			for (size_t i = 0; i < RAS_DECODED_MAX; i++)
				((uint8_t *)scratch)[i] = (uint8_t)next();
			memset(&a, 0x5a, sizeof(a));
			memset(&b, 0xa5, sizeof(b));
			ra = ras_db_fold_plan_cols_held(&p, idx, c->values, c->nvals, &a);
			rb = ras_db_held_cols_general(&p, scratch, c, idx, &b);
			if (ra != rb || (ra == 0 && !same(&a, &b)))
				bad++;
			refused += ra != 0;
			dims += ra == 0 && a.dims[0];
			ekeys += ra == 0 && a.ekey[0];
			addr += ra == 0 && a.have_addr;
		}
		tap_ok(!bad && refused < RUNS, "%s: %u copies, %u refused, %u with dims, %u with an EDAC key,"
		       " %u with an address, %u differ", table, RUNS, refused, dims, ekeys, addr, bad);
		bad = check_packed(idx, &p, c, whole, data, scratch, decoded);
		tap_ok(!bad, "%s: %u packed events folded from their copies in place, copied out and"
		       " the general way: %u differ", table, RUNS / 4, bad);
		/* A copy packed without the plan's decoded values is left to the general way. */
		some_copy(idx, &p, c, data);
		c->nvals--;
		tap_ok(ras_db_fold_plan_cols_held(&p, idx, c->values, c->nvals, &a) == -ENOTSUP,
		       "%s: a copy of another shape is refused", table);
	}
	tap_ok(planned >= 4, "%u tables have a plan", planned);
	free(c);
	free(whole);
	free(data);
	free(scratch);
	free(decoded);
	return tap_done();
}
