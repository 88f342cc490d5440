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
 * The folded columns are computed when the record is folded, in C from the
 * values its INSERT binds and the few of its decoding they read, kept in its
 * copy (db_fold_row.c), as a stored row's are by SQL (db_fold.c table_sql).
 * A table or value the C does not render is folded by SQLite from the same
 * expressions, over a one-row subquery shaped like the table's
 * <table>_decoded view: either way a held record folds exactly as its row
 * would have. A record held but stored at commit has them computed only if
 * its row is folded later, from the copy kept when it was stored.
 *
 * A copy is packed first (ras_db_hold_pack: what the event loop hands the
 * writer thread, a few bytes per value) and held or kept packed: unpacked
 * (a struct ras_value of 32 bytes a value) only by the thread that folds or
 * stores it, into buffers reused (to fold it, its values' bytes are read
 * where they are packed, not copied). Unpacked, make bench's copies took 728
 * bytes on average, packed 302 (200,000 records: 19.8 MB at the peak).
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
#include "db_hold_pack.h"

/*
 * The bytes of stored copies kept, all tables together: a storm's last
 * fold_keep per subject and those waiting (FOLD_DEFER). The bench's stream
 * (some 430 subjects) with live-sized batches needed 17 MiB at its peak
 * when copies were kept unpacked; with 16, 98 % of its folds of stored rows
 * were from copies, with 8, 47 %. Packed, the same copies take about 7 MiB.
 */
#define KEPT_MAX_BYTES (16u << 20)

/*
 * Blocks of copies folded kept for the next copies: a malloc and a free per
 * held record were about 160 instructions of each one folded on make
 * bench's 1M-record stream (glibc's per-thread cache holds 7 blocks of a
 * size). Copies' blocks are their bytes rounded up to COPY_ROUND, kept by
 * that size up to SPARE_CLASSES * COPY_ROUND bytes, SPARE_PER_CLASS of each
 * (at most 68 KiB): a storm's copies are held and folded in turn, so a few
 * of each size go round.
 */
#define COPY_ROUND 64
#define SPARE_CLASSES 16
#define SPARE_PER_CLASS 8

/* A record's copy as packed (ras_db_held_pack), with its decoding's id. */
struct held_copy {
	int64_t dec;
	size_t bytes;               /* of this struct, the packed bytes included */
	uint8_t packed[];
};

struct held_slot {
	int64_t id;
	struct held_copy *rec;      /* NULL once folded */
};

/* A record stored, not held: unpacked into its place's buffer, reused. */
struct unheld_slot {
	int64_t id;
	struct held *rec;
};

struct held_table {
	struct held_slot *slot;     /* by reserved id, growing */
	size_t n, cap, first;       /* first: no record before it is still held */
	/*
	 * The copies of records stored at a commit, by id (ras_db_hold_take_stored):
	 * most of a storm's fall out of the last fold_keep a few commits later and
	 * are folded from these, not read back through the view. At most
	 * KEPT_MAX_BYTES of all tables', a table's oldest dropped first; none
	 * after a rollback or at idle.
	 */
	struct held_slot *kept;
	size_t nkept, cap_kept, first_kept;
	sqlite3_stmt *eval;
	struct ras_db_fold_plan plan;
	/* A decoded struct holding only the values a copy keeps, as bound (tables that have them). */
	void *scratch;
	bool tried;
	/*
	 * Records the writer thread stores, not held (ras_db_hold_insert_packed):
	 * gathered RAS_DB_ROWS_PER_INSERT to an INSERT, their copies' buffers reused.
	 */
	struct unheld_slot unheld[RAS_DB_ROWS_PER_INSERT];
	size_t unheld_cap[RAS_DB_ROWS_PER_INSERT];
	unsigned nunheld;
};

struct ras_db_hold {
	struct held_table t[RAS_MAX_EVENT_TYPES];
	/* The holding thread's: a record packed by ras_db_hold_add; room for an INSERT's values. */
	uint8_t *pack;
	size_t pack_cap;
	struct ras_db_col_val *vals;
	size_t kept_bytes;          /* the tables' kept copies */
	/* Copies folded, their blocks kept for the next ones held (copy_new), by block size. */
	struct held_copy *spare[SPARE_CLASSES][SPARE_PER_CLASS];
	unsigned nspare[SPARE_CLASSES];
	/* Copies unpacked to be folded or stored (an INSERT's at most), reused. */
	struct held *unpacked[RAS_DB_ROWS_PER_INSERT];
	size_t unpacked_cap[RAS_DB_ROWS_PER_INSERT];
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

int ras_db_hold_pack(const struct ras_db_hold *h, const struct ras_db_event *ev, uint8_t **buf,
		     size_t *cap, size_t at, size_t *bytes)
{
	static const struct ras_db_fold_plan none;
	const struct held_table *ht = h ? &h->t[ev->type_idx] : NULL;

	/* The plan is made once, with the table's statements, before its first record is packed. */
	return ras_db_held_pack(ht ? &ht->plan : &none, ev, buf, cap, at, bytes);
}

int ras_db_hold_pack_in(const struct ras_db_hold *h, const struct ras_db_event *ev, uint8_t *buf,
			size_t cap, size_t at, size_t *bytes)
{
	static const struct ras_db_fold_plan none;
	const struct held_table *ht = h ? &h->t[ev->type_idx] : NULL;

	return ras_db_held_pack_in(ht ? &ht->plan : &none, ev, buf, cap, at, bytes);
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

/* The size class of a copy of bytes (its struct included): its block is (class + 1) * COPY_ROUND. */
static size_t copy_class(size_t bytes)
{
	return (bytes + COPY_ROUND - 1) / COPY_ROUND - 1;
}

/* A block for a copy of bytes (its struct included): a spare one of its size, or a new one. */
static struct held_copy *copy_new(struct ras_db_hold *h, size_t bytes)
{
	size_t k = copy_class(bytes);

	if (k < SPARE_CLASSES && h->nspare[k])
		return h->spare[k][--h->nspare[k]];
	return malloc((k + 1) * COPY_ROUND);
}

/* Copy c's block kept for the next copy of its size, or freed. */
static void copy_done(struct ras_db_hold *h, struct held_copy *c)
{
	size_t k = copy_class(c->bytes);

	if (k < SPARE_CLASSES && h->nspare[k] < SPARE_PER_CLASS)
		h->spare[k][h->nspare[k]++] = c;
	else
		free(c);
}

static void spare_free(struct ras_db_hold *h)
{
	for (unsigned k = 0; k < SPARE_CLASSES; k++)
		while (h->nspare[k])
			free(h->spare[k][--h->nspare[k]]);
}

/*
 * Copy c unpacked into the k-th reused buffer, its values' bytes copied (to be
 * stored) or read in c (view: to be folded before c goes); NULL without room.
 */
static struct held *unpack_copy(struct ras_db_hold *h, unsigned k, const struct held_copy *c, bool view)
{
	size_t need = ras_db_held_bytes(c->packed);

	if (need > h->unpacked_cap[k]) {
		struct held *grown = realloc(h->unpacked[k], need + 1024);

		if (!grown)
			return NULL;
		h->unpacked[k] = grown;
		h->unpacked_cap[k] = need + 1024;
	}
	if (view)
		ras_db_held_view(h->unpacked[k], c->dec, c->packed);
	else
		ras_db_held_read(h->unpacked[k], c->dec, c->packed);
	return h->unpacked[k];
}

int ras_db_hold_add(struct ras_db_hold *h, const struct ras_db_event *ev, int64_t id, int64_t dec)
{
	struct held_table *ht = h ? &h->t[ev->type_idx] : NULL;
	size_t bytes;
	int r;

	if (!ht || !ht->eval)
		return 0;
	/* Packed as the event loop packs one for the writer thread, then held the same way. */
	r = ras_db_hold_pack(h, ev, &h->pack, &h->pack_cap, 0, &bytes);
	/* A source too long for the copy (none is) stays unheld rather than cut. */
	if (r == -ENAMETOOLONG)
		return 0;
	return r < 0 ? r : ras_db_hold_put_packed(h, ev->type_idx, id, dec, h->pack, bytes);
}

/* Writes value v into the scratch decoding d as decoded field f holds it. */
static void scratch_put(void *d, const struct ras_dfield *f, const struct ras_value *v)
{
	char *at = (char *)d + f->offset;

	if (f->type == RAS_DF_INT) {
		int64_t i = v->present ? v->i : RAS_DF_NONE;

		memcpy(at, &i, sizeof(i));
	} else {
		size_t n = v->len < f->size ? v->len : f->size - 1;

		if (n)
			memcpy(at, v->p, n);
		at[n] = '\0';
	}
}

/*
 * The event a held record stands for, to bind as the INSERT does and to
 * compute its fold columns: its decoding is a head with the severity and the
 * location, the per-record values and the decoded values the plan reads, all
 * that the INSERT and the columns read (the rest is the <table>_dec row),
 * built in scratch.
 */
static void held_event_in(void *scratch, const struct ras_db_fold_plan *plan, const struct held *c,
			  unsigned idx, struct ras_db_event *ev)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	const struct ras_value *loc = &c->values[c->nvals - 1];
	unsigned first_dec = type->n_fields + t->nrec;
	struct ras_decoded_head *head = scratch;
	size_t n;

	head->severity = c->severity;
	n = loc->len < sizeof(head->location) ? loc->len : sizeof(head->location) - 1;
	if (n)
		memcpy(head->location, loc->p, n);
	head->location[n] = '\0';
	for (unsigned k = 0; k < t->nrec; k++)
		scratch_put(scratch, &type->dfields[t->rfield[k]], &c->values[type->n_fields + k]);
	for (unsigned k = 0; k < plan->ndec && first_dec + k + 1 < c->nvals; k++)
		scratch_put(scratch, &type->dfields[plan->dec[k]], &c->values[first_dec + k]);
	*ev = (struct ras_db_event){ .type_idx = idx, .wall_ns = c->wall_ns, .trace_ts = c->trace_ts,
				     .trace_cpu = c->trace_cpu, .source = c->source,
				     .synthetic = c->synthetic, .boot = c->boot,
				     .rec_hash = c->rec_hash, .values = c->values, .decoded = head };
}

/* The same in the table's scratch decoding; -ENOMEM without room. */
static int held_event(struct held_table *ht, const struct held *c, unsigned idx,
		      struct ras_db_event *ev)
{
	if (!ht->scratch && !(ht->scratch = aligned_alloc(16, RAS_DECODED_MAX)))
		return -ENOMEM;
	held_event_in(ht->scratch, &ht->plan, c, idx, ev);
	return 0;
}

int ras_db_held_cols_general(const struct ras_db_fold_plan *plan, void *scratch, const struct held *c,
			     unsigned idx, struct ras_db_fold_cols *out)
{
	struct ras_db_event ev;

	held_event_in(scratch, plan, c, idx, &ev);
	return ras_db_fold_plan_cols(plan, &ev, out);
}

/* The slot of a record still held under id, or NULL (ids grow along the array). */
static struct held_slot *held_find(struct held_table *ht, int64_t id)
{
	size_t lo = ht->first, hi = ht->n;

	/*
	 * Ids differ by at least their distance along the array: id is at most
	 * id - first id places past the first and at least last id - id before
	 * the last. A storm's ids are nearly dense, so that leaves a few slots
	 * to search, not log2 of a batch's (a binary search over all of them was
	 * about 150 instructions a folded record).
	 */
	if (lo < hi) {
		if (id < ht->slot[lo].id || id > ht->slot[hi - 1].id)
			return NULL;
		if ((uint64_t)(id - ht->slot[lo].id) < hi - lo - 1)
			hi = lo + (size_t)(id - ht->slot[lo].id) + 1;
		if ((uint64_t)(ht->slot[ht->n - 1].id - id) < ht->n - 1 - lo)
			lo = ht->n - 1 - (size_t)(ht->slot[ht->n - 1].id - id);
	}
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

/*
 * A held record's row but for its fold columns, as the list's statement would
 * read it back (text cut alike), its location the decoding's (held_event: cut
 * to it). Every field is set: the columns' fields are written apart.
 */
static void held_row(const struct ras_db *db, const struct held *c, struct folded_row *r)
{
	const struct ras_value *loc = &c->values[c->nvals - 1];
	size_t n = loc->len < RAS_LOCATION_LEN ? loc->len : RAS_LOCATION_LEN - 1;

	n = n < sizeof(r->location) ? n : sizeof(r->location) - 1;
	n = n ? strnlen(loc->p, n) : 0;
	if (n)
		memcpy(r->location, loc->p, n);
	r->location[n] = '\0';
	r->wall_ns = c->wall_ns;
	r->boot = c->boot ? c->boot : db->boot;
	ras_str_copy(r->source, sizeof(r->source), c->source);
	r->synthetic = c->synthetic;
	ras_str_copy(r->severity, sizeof(r->severity), ras_severity_name(c->severity));
	r->dec = c->dec;
	r->id = r->key_dec = 0;
	r->fresh = 0;
}

/* The same with the fold columns fc computed the general way. */
static void computed_row(const struct ras_db *db, const struct held *c, const struct ras_db_fold_cols *fc,
			 struct folded_row *r)
{
	memset(r, 0, sizeof(*r));
	held_row(db, c, r);
	r->have_addr = fc->have_addr;
	r->addr = fc->addr;
	r->have_detail = fc->have_detail;
	r->detail = fc->detail;
	r->weight = fc->weight;
	ras_str_copy(r->dims, sizeof(r->dims), fc->dims);
	ras_str_copy(r->ekey, sizeof(r->ekey), fc->ekey);
}

/*
 * A held record's fold columns: computed in C from its values (db_fold_row.c),
 * else by the statement over the values its INSERT would bind.
 */
static int folded_of(struct ras_db *db, struct held_table *ht, const struct held *c, unsigned idx,
		     struct folded_row *r)
{
	struct ras_db_fold_cols fc;
	struct ras_db_event ev;
	int step;

	/* Read from the copy's values as they are, no event built (db_fold_row.c), into r. */
	if (ras_db_fold_plan_cols_held(&ht->plan, idx, c->values, c->nvals, r) == 0) {
		held_row(db, c, r);
		return 0;
	}
	if (held_event(ht, c, idx, &ev) < 0)
		return -ENOMEM;
	if (ras_db_fold_plan_cols(&ht->plan, &ev, &fc) == 0) {
		computed_row(db, c, &fc, r);
		return 0;
	}
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
	struct held_copy *c;
	struct held *u;
	int err = 0;

	if (!slot)
		return 0;
	c = slot->rec;
	slot->rec = NULL;
	while (ht->first < ht->n && !ht->slot[ht->first].rec)
		ht->first++;
	u = unpack_copy(h, 0, c, true);
	err = u ? folded_of(db, ht, u, idx, r) : -ENOMEM;
	copy_done(h, c);
	return err < 0 ? err : 1;
}

/* ---- copies of the records stored at a commit ---- */

static void kept_drop(struct ras_db_hold *h, struct held_table *ht, size_t k)
{
	h->kept_bytes -= ht->kept[k].rec->bytes;
	free(ht->kept[k].rec);
	ht->kept[k].rec = NULL;
}

static void kept_forget(struct ras_db_hold *h, struct held_table *ht)
{
	for (size_t k = ht->first_kept; k < ht->nkept; k++)
		if (ht->kept[k].rec)
			kept_drop(h, ht, k);
	ht->nkept = ht->first_kept = 0;
}

/*
 * The copies kept moved to the front, those folded since left out (the
 * order kept): the slots stay bounded by the copies, and so by their bytes.
 * Returns how many there are.
 */
static size_t kept_squeeze(struct held_table *ht)
{
	size_t n = 0;

	for (size_t k = ht->first_kept; k < ht->nkept; k++)
		if (ht->kept[k].rec)
			ht->kept[n++] = ht->kept[k];
	ht->first_kept = 0;
	ht->nkept = n;
	return n;
}

/* Keeps slot's copy, stored under its id (freed when it cannot be kept: a cache only). */
static void kept_push(struct ras_db_hold *h, struct held_table *ht, const struct held_slot *slot)
{
	size_t bytes = slot->rec->bytes;

	/* Ids grow from commit to commit; one that does not (a rollback's ids again) starts afresh. */
	if (ht->nkept > ht->first_kept && ht->kept[ht->nkept - 1].id >= slot->id)
		kept_forget(h, ht);
	while (h->kept_bytes + bytes > KEPT_MAX_BYTES && ht->first_kept < ht->nkept) {
		if (ht->kept[ht->first_kept].rec)
			kept_drop(h, ht, ht->first_kept);
		ht->first_kept++;
	}
	if (ht->first_kept == ht->nkept)
		ht->first_kept = ht->nkept = 0;
	if (h->kept_bytes + bytes > KEPT_MAX_BYTES) {
		free(slot->rec);
		return;
	}
	if (ht->nkept == ht->cap_kept && (!ht->cap_kept || kept_squeeze(ht) > ht->cap_kept / 2)) {
		size_t cap = ht->cap_kept ? 2 * ht->cap_kept : 256;
		struct held_slot *grown = realloc(ht->kept, cap * sizeof(*grown));

		if (!grown) {
			free(slot->rec);
			return;
		}
		ht->kept = grown;
		ht->cap_kept = cap;
	}
	ht->kept[ht->nkept++] = *slot;
	h->kept_bytes += bytes;
}

int ras_db_hold_take_stored(struct ras_db *db, struct ras_db_hold *h, unsigned idx, int64_t id,
			    struct folded_row *r)
{
	struct held_table *ht = h ? &h->t[idx] : NULL;
	size_t lo, hi;

	if (!ht)
		return 0;
	for (lo = ht->first_kept, hi = ht->nkept; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		struct held_copy *c = ht->kept[mid].rec;
		struct held *u;
		int err;

		if (ht->kept[mid].id < id) {
			lo = mid + 1;
			continue;
		}
		if (ht->kept[mid].id > id) {
			hi = mid;
			continue;
		}
		if (!c)
			return 0;
		ht->kept[mid].rec = NULL;
		h->kept_bytes -= c->bytes;
		while (ht->first_kept < ht->nkept && !ht->kept[ht->first_kept].rec)
			ht->first_kept++;
		u = unpack_copy(h, 0, c, true);
		err = u ? folded_of(db, ht, u, idx, r) : -ENOMEM;
		copy_done(h, c);
		return err < 0 ? err : 1;
	}
	return 0;
}

void ras_db_hold_forget(struct ras_db_hold *h)
{
	if (h)
		spare_free(h);
	for (unsigned i = 0; h && i < RAS_MAX_EVENT_TYPES; i++)
		kept_forget(h, &h->t[i]);
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
 * Stores the n (at most RAS_DB_ROWS_PER_INSERT) records of slots s as rows
 * under their ids, as the writer thread stores rows (ras_db_store_rows: one
 * INSERT for them all, in runs). -EIO when a row is not stored (its reserved
 * id was taken, or SQLite failed): the transaction goes with them.
 */
static int store_held(struct ras_db *db, struct ras_db_hold *h, unsigned idx, const int64_t *id,
		      struct held *const *c, unsigned n)
{
	struct ras_db_row_job rows[RAS_DB_ROWS_PER_INSERT];

	if (!h->vals && !(h->vals = malloc(RAS_DB_ROWS_PER_INSERT * RAS_DB_MAX_COLS * sizeof(*h->vals))))
		return -ENOMEM;
	for (unsigned k = 0; k < n; k++) {
		rows[k] = (struct ras_db_row_job){ .id = id[k], .row = &h->vals[k * RAS_DB_MAX_COLS] };
		if (held_row_values(db, &h->t[idx], c[k], idx, rows[k].row) < 0)
			return -ENOMEM;
	}
	return ras_db_store_rows(db, idx, n, rows) == SQLITE_OK ? 0 : -EIO;
}

/* The held copies of slots s stored, unpacked one buffer each (store_held). */
static int store_slots(struct ras_db *db, struct ras_db_hold *h, unsigned idx, struct held_slot *const *s,
		       unsigned n)
{
	struct held *c[RAS_DB_ROWS_PER_INSERT];
	int64_t id[RAS_DB_ROWS_PER_INSERT];

	for (unsigned k = 0; k < n; k++) {
		if (!(c[k] = unpack_copy(h, k, s[k]->rec, false)))
			return -ENOMEM;
		id[k] = s[k]->id;
	}
	return store_held(db, h, idx, id, c, n);
}

/*
 * Stores the records ht still holds, in order, RAS_DB_ROWS_PER_INSERT at a
 * time, their copies kept; on failure they stay held until the rollback.
 * More to an INSERT does not pay: a table holds some 7 records at a commit
 * on make bench's stream, and 64-row INSERTs measured a little dearer.
 */
static int store_table(struct ras_db *db, struct ras_db_hold *h, unsigned idx)
{
	struct held_table *ht = &h->t[idx];
	struct held_slot *s[RAS_DB_ROWS_PER_INSERT];
	unsigned n = 0;
	int r;

	for (size_t k = ht->first; k <= ht->n; k++) {
		if (k < ht->n && ht->slot[k].rec)
			s[n++] = &ht->slot[k];
		if (!n || (n < RAS_DB_ROWS_PER_INSERT && k < ht->n))
			continue;
		if ((r = store_slots(db, h, idx, s, n)) < 0)
			return r;
		for (unsigned j = 0; j < n; j++) {
			kept_push(h, ht, s[j]);
			s[j]->rec = NULL;
		}
		n = 0;
	}
	return 0;
}

int ras_db_hold_store(struct ras_db *db, struct ras_db_hold *h)
{
	int r = 0;

	for (unsigned i = 0; h && i < RAS_MAX_EVENT_TYPES && r == 0; i++) {
		struct held_table *ht = &h->t[i];

		if (ht->first < ht->n && (r = store_table(db, h, i)) < 0)
			break;
		ht->n = ht->first = 0;
	}
	return r;
}

/* Stores table idx's records gathered not held, in order; dropped either way (a failure is the transaction's). */
static int store_unheld(struct ras_db *db, struct ras_db_hold *h, unsigned idx)
{
	struct held_table *ht = &h->t[idx];
	struct held *c[RAS_DB_ROWS_PER_INSERT];
	int64_t id[RAS_DB_ROWS_PER_INSERT];
	unsigned n = ht->nunheld;

	for (unsigned k = 0; k < n; k++) {
		c[k] = ht->unheld[k].rec;
		id[k] = ht->unheld[k].id;
	}
	ht->nunheld = 0;
	return n ? store_held(db, h, idx, id, c, n) : 0;
}

int ras_db_fold_store_unheld(struct ras_db *db)
{
	struct ras_db_hold *h = db->fold ? db->fold->hold : NULL;
	int r = 0;

	for (unsigned i = 0; h && i < RAS_MAX_EVENT_TYPES; i++)
		if (h->t[i].nunheld && r == 0)
			r = store_unheld(db, h, i);
		else
			h->t[i].nunheld = 0;
	if (r == 0)
		return SQLITE_OK;
	r = sqlite3_errcode(db->h);
	return r != SQLITE_OK && r != SQLITE_DONE && r != SQLITE_ROW ? r : SQLITE_ERROR;
}

int ras_db_hold_put_packed(struct ras_db_hold *h, unsigned idx, int64_t id, int64_t dec,
			   const void *packed, size_t bytes)
{
	struct held_table *ht = h ? &h->t[idx] : NULL;
	struct held_copy *c;

	if (!ht || !ht->eval)
		return 0;
	if (room_for_one(ht) < 0)
		return -ENOMEM;
	if (!(c = copy_new(h, sizeof(*c) + bytes)))
		return -ENOMEM;
	c->dec = dec;
	c->bytes = sizeof(*c) + bytes;
	memcpy(c->packed, packed, bytes);
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
	size_t need = ras_db_held_bytes(packed);
	struct held_table *ht = h ? &h->t[idx] : NULL;
	struct unheld_slot *s;

	(void)bytes;
	if (!ht)
		return -ENOMEM;
	/* Unpacked into its place's copy, reused: stored with its table's next ones, not held. */
	s = &ht->unheld[ht->nunheld];
	if (need > ht->unheld_cap[ht->nunheld]) {
		struct held *grown = realloc(s->rec, need + 1024);

		if (!grown)
			return -ENOMEM;
		s->rec = grown;
		ht->unheld_cap[ht->nunheld] = need + 1024;
	}
	ras_db_held_read(s->rec, dec, packed);
	s->id = id;
	return ++ht->nunheld < RAS_DB_ROWS_PER_INSERT ? 0 : store_unheld(db, h, idx);
}

void ras_db_hold_clear(struct ras_db_hold *h)
{
	for (unsigned i = 0; h && i < RAS_MAX_EVENT_TYPES; i++) {
		for (size_t k = h->t[i].first; k < h->t[i].n; k++)
			free(h->t[i].slot[k].rec);
		h->t[i].n = h->t[i].first = h->t[i].nunheld = 0;
		kept_forget(h, &h->t[i]);
	}
}

void ras_db_hold_free(struct ras_db_hold *h)
{
	if (!h)
		return;
	ras_db_hold_clear(h);
	spare_free(h);
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++) {
		free(h->t[i].slot);
		free(h->t[i].kept);
		free(h->t[i].scratch);
		sqlite3_finalize(h->t[i].eval);
		for (unsigned k = 0; k < RAS_DB_ROWS_PER_INSERT; k++)
			free(h->t[i].unheld[k].rec);
	}
	for (unsigned k = 0; k < RAS_DB_ROWS_PER_INSERT; k++)
		free(h->unpacked[k]);
	free(h->pack);
	free(h->vals);
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
