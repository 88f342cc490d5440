/* SPDX-License-Identifier: MIT */
/*
 * Held records: a storm's record past its subject's first fold_keep ones is
 * not inserted at once but held here, a copy of what its row would say, under
 * the row id reserved for it (ras_db_insert_event). If fold_keep newer
 * records of its subject come in the same transaction it is folded from here
 * (no INSERT, no read-back, no DELETE: a storm's records mostly fold in the
 * batch that brought them); the ones still held at commit are inserted then,
 * under their reserved ids, before COMMIT. Either way the transaction commits
 * the same rows and counts as if each record had been inserted and folded.
 *
 * The folded columns are computed when the record is held, in C from the
 * values its INSERT binds (db_fold_row.c), as a stored row's are by SQL
 * (db_fold.c table_sql). A table or value the C does not render is folded by
 * SQLite from the same expressions, over a one-row subquery shaped like the
 * table's <table>_decoded view: either way a held record folds exactly as
 * its row would have.
 *
 * Only records that can never be duplicates are held: those whose source the
 * identity index (db_schema.c) does not cover, so INSERT OR IGNORE could not
 * have ignored them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/str.h"
#include "db_fold_internal.h"

/*
 * One held record: the event's columns, its raw values, then its per-record
 * decoded values (db_internal.h: the event row holds them), their bytes
 * after the struct, then the text of its fold columns when they were
 * computed in C.
 */
struct held {
	int64_t dec, wall_ns, boot;
	uint64_t trace_ts, rec_hash;
	int trace_cpu, severity;
	bool synthetic;
	char source[24];
	/* Computed in C when held (NULL: by the statement when taken): location, dims, ekey. */
	const char *fold_text;
	int64_t weight;
	bool have_addr, have_detail;
	uint64_t addr, detail;
	struct ras_value values[];
};

struct held_slot {
	int64_t id;
	struct held *rec;           /* NULL once folded */
};

struct held_table {
	struct held_slot *slot;     /* by reserved id, growing */
	size_t n, cap, first;       /* first: no record before it is still held */
	sqlite3_stmt *eval;
	struct ras_db_fold_plan plan;
	/* A decoded struct holding only the per-record values, as bound (tables that have them). */
	void *scratch;
	bool tried;
};

struct ras_db_hold {
	struct held_table t[RAS_MAX_EVENT_TYPES];
};

bool ras_db_hold_possible(const struct ras_db_event *ev)
{
	return ev->limits && ev->limits->fold_threshold && !ras_db_may_be_duplicate(ev);
}

static struct ras_db_hold *hold_state(struct ras_db_hold **hp)
{
	if (!*hp)
		*hp = calloc(1, sizeof(**hp));
	return *hp;
}

/* The columns of <table>_decoded, from bound parameters numbered as the INSERT's. */
static int rowsource_sql(unsigned idx, char *sql, size_t cap)
{
	const struct ras_db_table *t = ras_db_table_of(idx);
	const char *table = ras_event_types[idx].table;
	size_t n = (size_t)snprintf(sql, cap, "(SELECT NULL AS id");

	for (unsigned i = 0; i < t->ncols && n < cap; i++)
		n += (size_t)snprintf(sql + n, cap - n, ", ?%u AS \"%s\"", i + 1, t->cols[i].name);
	for (unsigned i = 0; i < t->ndcols && n < cap; i++)
		n += (size_t)snprintf(sql + n, cap - n, ", d.\"%s\"", t->dcols[i].name);
	/* Its decoding's row exists (stored before the record is noted): one lookup by id. */
	if (n < cap)
		n += (size_t)snprintf(sql + n, cap - n, " FROM %s_dec d WHERE d.id = ?%u)", table,
				      t->dec_col + 1);
	return n < cap ? 0 : -ENAMETOOLONG;
}

bool ras_db_hold_prepare(struct ras_db *db, struct ras_db_hold **hp, unsigned idx, const char *list,
			 const char *addr, const char *detail)
{
	struct ras_db_hold *h = hold_state(hp);
	struct held_table *ht = h ? &h->t[idx] : NULL;
	size_t cap = 16384, n;
	char *sql;

	if (!ht || ht->tried)
		return ht && ht->eval;
	ht->tried = true;
	if (!(sql = malloc(cap)))
		return false;
	n = (size_t)snprintf(sql, cap, "SELECT %s FROM ", list);
	/* A table with columns the current build does not know (an older one's) is not held. */
	if (n < cap && rowsource_sql(idx, sql + n, cap - n) == 0 &&
	    sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &ht->eval, NULL) != SQLITE_OK)
		ht->eval = NULL;
	free(sql);
	ras_db_fold_plan_make(idx, addr, detail, &ht->plan);
	return ht->eval != NULL;
}

/* The per-record decoded values of ev as values: integers, or strings with their bytes. */
static void per_record_values(const struct ras_db_event *ev, struct ras_value *out)
{
	const struct ras_event_type *type = &ras_event_types[ev->type_idx];
	const struct ras_db_table *t = ras_db_table_of(ev->type_idx);

	for (unsigned k = 0; k < t->nrec; k++) {
		const struct ras_dfield *f = &type->dfields[t->rfield[k]];

		if (f->type == RAS_DF_INT) {
			int64_t v = ras_dfield_int(ev->decoded, f);

			out[k] = (struct ras_value){ .present = v != RAS_DF_NONE, .i = v };
			continue;
		}
		out[k] = (struct ras_value){ .present = true, .p = ras_dfield_str(ev->decoded, f),
					     .len = (uint32_t)strnlen(ras_dfield_str(ev->decoded, f), f->size - 1) };
	}
}

/*
 * A record's fold columns, computed once when it is held (ras_db_fold_plan_cols)
 * and kept in its copy, their text after the values: location, dims, ekey.
 */
struct fold_text {
	bool computed;              /* false: left to the statement when taken */
	struct ras_db_fold_cols fc;
	const char *loc;
	size_t loc_len, dims_len, ekey_len;
};

static void fold_text_of(const struct ras_db_fold_plan *plan, const struct ras_db_event *ev,
			 struct fold_text *ft)
{
	ft->computed = plan && ras_db_fold_plan_cols(plan, ev, &ft->fc) == 0;
	if (!ft->computed)
		return;
	ft->loc = ((const struct ras_decoded_head *)ev->decoded)->location;
	ft->loc_len = strlen(ft->loc);
	ft->dims_len = strlen(ft->fc.dims);
	ft->ekey_len = strlen(ft->fc.ekey);
}

/* The bytes of the fold columns' text in the copy, NULs included. */
static size_t fold_text_bytes(const struct fold_text *ft)
{
	return ft->computed ? ft->loc_len + ft->dims_len + ft->ekey_len + 3 : 0;
}

static void put_fold_cols(struct held *c, const struct fold_text *ft, char *text)
{
	c->fold_text = text;
	memcpy(text, ft->loc, ft->loc_len + 1);
	text += ft->loc_len + 1;
	memcpy(text, ft->fc.dims, ft->dims_len + 1);
	text += ft->dims_len + 1;
	memcpy(text, ft->fc.ekey, ft->ekey_len + 1);
	c->weight = ft->fc.weight;
	c->have_addr = ft->fc.have_addr;
	c->addr = ft->fc.addr;
	c->have_detail = ft->fc.have_detail;
	c->detail = ft->fc.detail;
}

/* The values a held copy keeps: ev's raw values, then its per-record decoded ones. */
static unsigned held_values(const struct ras_db_event *ev, struct ras_value *all)
{
	const struct ras_event_type *type = &ras_event_types[ev->type_idx];

	memcpy(all, ev->values, type->n_fields * sizeof(*all));
	per_record_values(ev, &all[type->n_fields]);
	return type->n_fields + ras_db_table_of(ev->type_idx)->nrec;
}

/* Whether value i of a copy of table idx has bytes of its own, after the values. */
static bool has_bytes(unsigned idx, unsigned i, const struct ras_value *v)
{
	const struct ras_event_type *type = &ras_event_types[idx];

	return v->present && v->p && (i >= type->n_fields || type->fields[i].type != RAS_FT_INT);
}

/* The bytes of a copy of table idx: the struct, its values, their bytes and the fold columns' text. */
static size_t held_size(unsigned idx, const struct ras_value *all, unsigned n, const struct fold_text *ft)
{
	size_t bytes = sizeof(struct held) + n * sizeof(struct ras_value) + fold_text_bytes(ft);

	for (unsigned i = 0; i < n; i++)
		if (has_bytes(idx, i, &all[i]))
			bytes += all[i].len;
	return bytes;
}

/* Writes ev's copy at c (held_size bytes). */
static void held_fill(struct held *c, const struct ras_db_event *ev, int64_t dec, const struct ras_value *all,
		      unsigned n, const struct fold_text *ft)
{
	uint8_t *data;

	*c = (struct held){ .dec = dec, .wall_ns = ev->wall_ns, .boot = ev->boot,
			    .trace_ts = ev->trace_ts, .rec_hash = ev->rec_hash,
			    .trace_cpu = ev->trace_cpu, .synthetic = ev->synthetic,
			    .severity = ((const struct ras_decoded_head *)ev->decoded)->severity };
	ras_str_copy(c->source, sizeof(c->source), ev->source);
	data = (uint8_t *)&c->values[n];
	for (unsigned i = 0; i < n; i++) {
		c->values[i] = all[i];
		if (!has_bytes(ev->type_idx, i, &all[i]))
			continue;
		memcpy(data, all[i].p, all[i].len);
		c->values[i].p = data;
		data += all[i].len;
	}
	if (ft->computed)
		put_fold_cols(c, ft, (char *)data);
}

static struct held *held_copy(const struct ras_db_fold_plan *plan, const struct ras_db_event *ev,
			      int64_t dec)
{
	struct ras_value all[RAS_MAX_FIELDS + RAS_DB_MAX_COLS];
	struct fold_text ft;
	unsigned n = held_values(ev, all);
	struct held *c;

	fold_text_of(plan, ev, &ft);
	if ((c = malloc(held_size(ev->type_idx, all, n, &ft))))
		held_fill(c, ev, dec, all, n, &ft);
	return c;
}

/* A free slot at the end of ht's list, grown by doubling. */
static int room_for_one(struct held_table *ht)
{
	size_t cap;
	struct held_slot *grown;

	if (ht->n < ht->cap)
		return 0;
	cap = ht->cap ? 2 * ht->cap : 256;
	if (!(grown = realloc(ht->slot, cap * sizeof(*grown))))
		return -ENOMEM;
	ht->slot = grown;
	ht->cap = cap;
	return 0;
}

int ras_db_hold_add(struct ras_db_hold *h, const struct ras_db_event *ev, int64_t id, int64_t dec)
{
	struct held_table *ht = h ? &h->t[ev->type_idx] : NULL;
	struct held *c;

	/* A source too long for the copy (none is) stays unheld rather than cut. */
	if (!ht || !ht->eval || strlen(ev->source) >= sizeof(((struct held *)0)->source))
		return 0;
	if (room_for_one(ht) < 0)
		return -ENOMEM;
	if (!(c = held_copy(&ht->plan, ev, dec)))
		return -ENOMEM;
	ht->slot[ht->n++] = (struct held_slot){ .id = id, .rec = c };
	return 1;
}

/*
 * The event a held record stands for, to bind as the INSERT does: its
 * decoding is a head with the severity and the per-record values, all that
 * the INSERT reads (the rest is the <table>_dec row). -ENOMEM without room.
 */
static int held_event(struct held_table *ht, const struct held *c, unsigned idx,
		      struct ras_db_event *ev)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	struct ras_decoded_head *head;

	if (!ht->scratch && !(ht->scratch = aligned_alloc(16, RAS_DECODED_MAX)))
		return -ENOMEM;
	head = ht->scratch;
	memset(head, 0, sizeof(*head));
	head->severity = c->severity;
	for (unsigned k = 0; k < t->nrec; k++) {
		const struct ras_dfield *f = &type->dfields[t->rfield[k]];
		const struct ras_value *v = &c->values[type->n_fields + k];
		char *at = (char *)ht->scratch + f->offset;

		if (f->type == RAS_DF_INT) {
			int64_t i = v->present ? v->i : RAS_DF_NONE;

			memcpy(at, &i, sizeof(i));
		} else {
			size_t n = v->len < f->size ? v->len : f->size - 1;

			memcpy(at, v->p, n);
			at[n] = '\0';
		}
	}
	*ev = (struct ras_db_event){ .type_idx = idx, .wall_ns = c->wall_ns, .trace_ts = c->trace_ts,
				     .trace_cpu = c->trace_cpu, .source = c->source,
				     .synthetic = c->synthetic, .boot = c->boot,
				     .rec_hash = c->rec_hash, .values = c->values, .decoded = head };
	return 0;
}

/* The slot of a record still held under id, or NULL (ids grow along the array). */
static struct held_slot *held_find(struct held_table *ht, int64_t id)
{
	size_t lo = ht->first, hi = ht->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ht->slot[mid].id == id)
			return ht->slot[mid].rec ? &ht->slot[mid] : NULL;
		if (ht->slot[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A held record's fold columns as the list's statement would read them back (text cut alike). */
static void computed_row(const struct ras_db *db, const struct held *c, struct folded_row *r)
{
	const char *dims = c->fold_text + strlen(c->fold_text) + 1;

	memset(r, 0, sizeof(*r));
	r->wall_ns = c->wall_ns;
	r->boot = c->boot ? c->boot : db->boot;
	ras_str_copy(r->source, sizeof(r->source), c->source);
	r->synthetic = c->synthetic;
	ras_str_copy(r->severity, sizeof(r->severity), ras_severity_name(c->severity));
	ras_str_copy(r->location, sizeof(r->location), c->fold_text);
	r->dec = c->dec;
	r->have_addr = c->have_addr;
	r->addr = c->addr;
	r->have_detail = c->have_detail;
	r->detail = c->detail;
	r->weight = c->weight;
	ras_str_copy(r->dims, sizeof(r->dims), dims);
	ras_str_copy(r->ekey, sizeof(r->ekey), dims + strlen(dims) + 1);
}

/* The same by the statement over the values its INSERT would bind. */
static int evaluated_row(struct ras_db *db, struct held_table *ht, const struct held *c,
			 unsigned idx, struct folded_row *r)
{
	struct ras_db_event ev;
	int step;

	if (held_event(ht, c, idx, &ev) < 0)
		return -ENOMEM;
	ras_db_bind_row(db, ht->eval, &ev, c->dec);
	step = sqlite3_step(ht->eval);
	if (step == SQLITE_ROW)
		ras_db_fold_read_row(ht->eval, r);
	sqlite3_reset(ht->eval);
	return step == SQLITE_ROW ? 0 : -EIO;
}

int ras_db_hold_take(struct ras_db *db, struct ras_db_hold *h, unsigned idx, int64_t id,
		     struct folded_row *r)
{
	struct held_table *ht = h ? &h->t[idx] : NULL;
	struct held_slot *slot = ht ? held_find(ht, id) : NULL;
	struct held *c;
	int err = 0;

	if (!slot)
		return 0;
	c = slot->rec;
	slot->rec = NULL;
	while (ht->first < ht->n && !ht->slot[ht->first].rec)
		ht->first++;
	if (c->fold_text)
		computed_row(db, c, r);
	else
		err = evaluated_row(db, ht, c, idx, r);
	free(c);
	return err < 0 ? err : 1;
}

/*
 * The values held record c's row binds, as ras_db_row_values gives them,
 * at v: its per-record text made to point into c, not into the scratch
 * decoding held_event builds, so that rows made one after another may be
 * bound together. -ENOMEM without room for the scratch.
 */
static int held_row_values(struct ras_db *db, struct held_table *ht, const struct held *c, unsigned idx,
			   struct ras_db_col_val *v)
{
	const struct ras_db_table *t = ras_db_table_of(idx);
	unsigned first = ras_event_types[idx].n_fields;
	struct ras_db_event ev;

	if (held_event(ht, c, idx, &ev) < 0)
		return -ENOMEM;
	ras_db_row_values(db, &ev, c->dec, v);
	for (unsigned k = 0; k < t->nrec; k++)
		if (v[t->first_rec + k].type == SQLITE_TEXT)
			v[t->first_rec + k].p = c->values[first + k].p;
	return 0;
}

/*
 * Stores the n records of ht gathered in rows (their slots in which):
 * RAS_DB_ROWS_PER_INSERT in one INSERT, as the writer thread stores rows
 * (ras_db_store_rows), fewer one by one; then frees them. -EIO when a row is
 * not stored (its reserved id was taken, or SQLite failed): they stay held
 * until the rollback, as the transaction goes with them.
 */
static int store_gathered(struct ras_db *db, struct held_table *ht, unsigned idx, const size_t *which,
			  unsigned n, const struct ras_db_row_job *rows)
{
	if (ras_db_store_rows(db, idx, n, rows) != SQLITE_OK)
		return -EIO;
	for (unsigned k = 0; k < n; k++) {
		free(ht->slot[which[k]].rec);
		ht->slot[which[k]].rec = NULL;
	}
	return 0;
}

/* Stores the records ht still holds, in order, RAS_DB_ROWS_PER_INSERT at a time (vals: room for their values). */
static int store_table(struct ras_db *db, struct held_table *ht, unsigned idx, struct ras_db_col_val *vals)
{
	struct ras_db_row_job rows[RAS_DB_ROWS_PER_INSERT];
	size_t which[RAS_DB_ROWS_PER_INSERT];
	unsigned n = 0;

	for (size_t k = ht->first; k < ht->n; k++) {
		if (!ht->slot[k].rec)
			continue;
		rows[n] = (struct ras_db_row_job){ .id = ht->slot[k].id, .row = &vals[n * RAS_DB_MAX_COLS] };
		if (held_row_values(db, ht, ht->slot[k].rec, idx, rows[n].row) < 0)
			return -ENOMEM;
		which[n++] = k;
		if (n == RAS_DB_ROWS_PER_INSERT) {
			if (store_gathered(db, ht, idx, which, n, rows) < 0)
				return -EIO;
			n = 0;
		}
	}
	return n ? store_gathered(db, ht, idx, which, n, rows) : 0;
}

int ras_db_hold_store(struct ras_db *db, struct ras_db_hold *h)
{
	struct ras_db_col_val *vals = NULL;
	int r = 0;

	for (unsigned i = 0; h && i < RAS_MAX_EVENT_TYPES && r == 0; i++) {
		struct held_table *ht = &h->t[i];

		if (ht->first < ht->n && !vals &&
		    !(vals = malloc(RAS_DB_ROWS_PER_INSERT * RAS_DB_MAX_COLS * sizeof(*vals))))
			return -ENOMEM;
		if (ht->first < ht->n && (r = store_table(db, ht, i, vals)) < 0)
			break;
		ht->n = ht->first = 0;
	}
	free(vals);
	return r;
}

int ras_db_hold_pack(const struct ras_db_hold *h, const struct ras_db_event *ev, uint8_t **buf,
		     size_t *cap, size_t at, size_t *bytes)
{
	const struct held_table *ht = h ? &h->t[ev->type_idx] : NULL;
	struct ras_value all[RAS_MAX_FIELDS + RAS_DB_MAX_COLS];
	struct fold_text ft;
	unsigned n;
	size_t need;

	if (strlen(ev->source) >= sizeof(((struct held *)0)->source))
		return -ENAMETOOLONG;
	n = held_values(ev, all);
	fold_text_of(ht && ht->eval ? &ht->plan : NULL, ev, &ft);
	*bytes = held_size(ev->type_idx, all, n, &ft);
	need = at + *bytes;
	if (need > *cap) {
		uint8_t *grown = realloc(*buf, need + 4096);

		if (!grown)
			return -ENOMEM;
		*buf = grown;
		*cap = need + 4096;
	}
	/* At an offset of 8: the struct is aligned as malloc's would be, for the writer thread's copy. */
	held_fill((struct held *)(void *)(*buf + at), ev, 0, all, n, &ft);
	return 0;
}

/*
 * The writer thread's own copy of a packed one, its pointers made to point
 * into it: the values' bytes follow them in order, then the fold columns' text.
 */
static struct held *held_unpack(unsigned idx, int64_t dec, const void *packed, size_t bytes)
{
	unsigned n = ras_event_types[idx].n_fields + ras_db_table_of(idx)->nrec;
	struct held *c = malloc(bytes);
	uint8_t *data;

	if (!c)
		return NULL;
	memcpy(c, packed, bytes);
	c->dec = dec;
	data = (uint8_t *)&c->values[n];
	for (unsigned i = 0; i < n; i++) {
		if (!has_bytes(idx, i, &c->values[i]))
			continue;
		c->values[i].p = data;
		data += c->values[i].len;
	}
	if (c->fold_text)
		c->fold_text = (const char *)data;
	return c;
}

int ras_db_hold_put_packed(struct ras_db_hold *h, unsigned idx, int64_t id, int64_t dec,
			   const void *packed, size_t bytes)
{
	struct held_table *ht = h ? &h->t[idx] : NULL;
	struct held *c;

	if (!ht || !ht->eval)
		return 0;
	if (room_for_one(ht) < 0)
		return -ENOMEM;
	if (!(c = held_unpack(idx, dec, packed, bytes)))
		return -ENOMEM;
	ht->slot[ht->n++] = (struct held_slot){ .id = id, .rec = c };
	return 1;
}

int ras_db_hold_state(struct ras_db_hold **hp)
{
	return hold_state(hp) ? 0 : -ENOMEM;
}

int ras_db_hold_insert_packed(struct ras_db *db, struct ras_db_hold *h, unsigned idx, int64_t id,
			      int64_t dec, const void *packed, size_t bytes)
{
	struct held *c = held_unpack(idx, dec, packed, bytes);
	struct ras_db_event ev;
	int r = -ENOMEM;

	if (h && c && held_event(&h->t[idx], c, idx, &ev) == 0)
		/* Its id was reserved for it: anything but a new row is an error. */
		r = ras_db_insert_row(db, &ev, dec, &id) == 1 ? 0 : -EIO;
	free(c);
	return r;
}

void ras_db_hold_clear(struct ras_db_hold *h)
{
	for (unsigned i = 0; h && i < RAS_MAX_EVENT_TYPES; i++) {
		for (size_t k = h->t[i].first; k < h->t[i].n; k++)
			free(h->t[i].slot[k].rec);
		h->t[i].n = h->t[i].first = 0;
	}
}

void ras_db_hold_free(struct ras_db_hold *h)
{
	if (!h)
		return;
	ras_db_hold_clear(h);
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++) {
		free(h->t[i].slot);
		free(h->t[i].scratch);
		sqlite3_finalize(h->t[i].eval);
	}
	free(h);
}

/* The column's text, cut to fit out (as "%s" would be, without printf's cost per row). */
static void text_col(sqlite3_stmt *st, int col, char *out, size_t len)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	size_t n = s ? strnlen(s, len - 1) : 0;

	if (n)
		memcpy(out, s, n);
	out[n] = 0;
}

void ras_db_fold_read_row(sqlite3_stmt *st, struct folded_row *r)
{
	memset(r, 0, sizeof(*r));
	r->wall_ns = sqlite3_column_int64(st, 0);
	r->boot = sqlite3_column_int64(st, 1);
	text_col(st, 2, r->source, sizeof(r->source));
	r->synthetic = sqlite3_column_int(st, 3);
	text_col(st, 4, r->severity, sizeof(r->severity));
	text_col(st, 5, r->location, sizeof(r->location));
	r->dec = sqlite3_column_int64(st, 6);
	r->have_addr = sqlite3_column_type(st, 7) == SQLITE_INTEGER;
	r->addr = (uint64_t)sqlite3_column_int64(st, 7);
	r->have_detail = sqlite3_column_type(st, 8) == SQLITE_INTEGER;
	r->detail = (uint64_t)sqlite3_column_int64(st, 8);
	r->weight = sqlite3_column_int64(st, 9);
	text_col(st, 10, r->dims, sizeof(r->dims));
	text_col(st, 11, r->ekey, sizeof(r->ekey));
}
