/* SPDX-License-Identifier: MIT */
/*
 * The batch's folds (split from db_fold.c, unchanged): each folded record is
 * counted into the entry of its key (table, hour, subject, boot, source,
 * severity, location, decoding as the summary needs it, dims), a list in the
 * order taken named by FOLD_SLOTS hash places (the key's hash inline from
 * db_fold_hash.h); db_fold_write.c merges the
 * entries into their folds rows at commit. Called by db_fold.c only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/str.h"
#include "db_rollup.h"

#include "db_fold_internal.h"
#include "db_fold_entries.h"
#include "db_fold_hash.h"

static bool same_entry(const struct fold_entry *e, unsigned idx, int64_t hour, const char *subject,
		       const struct folded_row *r)
{
	const struct folded_row *k = &e->key;

	return e->idx == idx && e->hour == hour && k->boot == r->boot && k->key_dec == r->key_dec &&
	       k->synthetic == r->synthetic && k->fresh == r->fresh && !strcmp(e->subject, subject) &&
	       !strcmp(k->source, r->source) && !strcmp(k->severity, r->severity) &&
	       !strcmp(k->location, r->location) && !strcmp(k->dims, r->dims) &&
	       !strcmp(k->ekey, r->ekey);
}

/*
 * A committed row's id and errors, beside its second: export tells the rows
 * it delivered from the others (fold_growth.ids).
 */
static int entry_add_id(struct ras_db_fold *f, struct fold_entry *e, const struct folded_row *r)
{
	if (e->key.fresh)
		return 0;
	if (e->nsecs >= e->cap_ids) {
		size_t cap = e->cap_ids ? e->cap_ids * 2 : 8;
		int64_t *ids;

		while (cap <= e->nsecs)
			cap *= 2;
		if (!(ids = realloc(e->ids, 2 * cap * sizeof(*ids))))
			return -ENOMEM;
		f->buf_bytes += 2 * (cap - e->cap_ids) * sizeof(*ids);
		e->ids = ids;
		e->cap_ids = cap;
		ras_db_fold_count_bytes(f);
	}
	e->ids[2 * e->nsecs] = r->id;
	e->ids[2 * e->nsecs + 1] = r->weight;
	return 0;
}

static int entry_add(struct ras_db_fold *f, struct fold_entry *e, const struct folded_row *r)
{
	if (entry_add_id(f, e, r) < 0)
		return -ENOMEM;
	if (e->nsecs == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 8;
		int64_t *s = realloc(e->secs, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		f->buf_bytes += (cap - e->cap) * sizeof(*s);
		e->secs = s;
		e->cap = cap;
		ras_db_fold_count_bytes(f);
	}
	e->secs[e->nsecs++] = fold_floor_div(r->wall_ns, SEC_NS);
	e->first_ns = !e->records || r->wall_ns < e->first_ns ? r->wall_ns : e->first_ns;
	e->records++;
	e->errors += r->weight;
	e->last_ns = r->wall_ns > e->last_ns ? r->wall_ns : e->last_ns;
	if (r->have_addr) {
		e->addr_lo = !e->have_addr || r->addr < e->addr_lo ? r->addr : e->addr_lo;
		e->addr_hi = !e->have_addr || r->addr > e->addr_hi ? r->addr : e->addr_hi;
		e->have_addr = true;
	}
	if (r->have_detail)
		ras_db_fold_add_detail(e->details, &e->ndetails, &e->details_more, r->detail);
	return 0;
}

/*
 * What a folds row is keyed by besides subject, hour and source: where, only
 * as finely as the summary counts it, so a storm folds into one row an hour
 * however its records vary. A location ending in an address (a CXL DPA) is
 * cut there; the decoding is a key only when the summary location takes
 * parts from it (a memory failure's page type and result). Otherwise every
 * machine check, whose decoding differs with its count and address, would
 * be a folds row of its own; the row keeps its first record's decoding.
 */
static void fold_key(unsigned idx, struct folded_row *r)
{
	const struct ras_sumloc *k = ras_event_types[idx].sumloc;
	char *cut;

	r->key_dec = k && k->parts[0].dfield ? r->dec : 0;
	if (k && k->cut && !k->parts[0].dfield && (cut = strstr(r->location, k->cut)))
		*cut = 0;
}

/* Room for one more entry in the batch's list (at most FOLD_SLOTS * 3 / 4 + 1): 0 or -ENOMEM. */
static int entries_room(struct ras_db_fold *f)
{
	struct fold_entry *e;
	unsigned cap;

	if (!f->at) {
		uint16_t *at = calloc(FOLD_SLOTS, sizeof(*at));

		if (!at)
			return -ENOMEM;
		f->at = at;
		ras_db_fold_count_bytes(f);
	}
	if (f->used == f->cap) {
		cap = f->cap ? 2 * f->cap : 16;
		if (!(e = realloc(f->e, cap * sizeof(*e))))
			return -ENOMEM;
		f->e = e;
		f->cap = cap;
		ras_db_fold_count_bytes(f);
	}
	return 0;
}

/* Takes the next entry of the list for r's key at hash place; an entry written before keeps its buffers. */
static struct fold_entry *entry_take(struct ras_db_fold *f, unsigned place, unsigned idx, uint64_t hash,
				     int64_t hour, const char *subject, const struct folded_row *r)
{
	struct fold_entry *e = &f->e[f->used];
	int64_t *secs = NULL, *ids = NULL;
	size_t cap = 0, cap_ids = 0;

	if (f->used < f->made) {
		secs = e->secs, ids = e->ids;
		cap = e->cap, cap_ids = e->cap_ids;
	} else {
		f->made++;
	}
	*e = (struct fold_entry){ .place = place, .idx = idx, .hash = hash, .hour = hour, .key = *r,
				  .secs = secs, .cap = cap, .ids = ids, .cap_ids = cap_ids };
	ras_str_copy(e->subject, sizeof(e->subject), subject);
	f->at[place] = (uint16_t)++f->used;
	f->taken++;
	return e;
}

int ras_db_fold_accumulate(struct ras_db *db, unsigned idx, const char *subject, struct folded_row *r,
			   unsigned *hint)
{
	struct ras_db_fold *f = db->fold;
	int64_t hour = ras_db_hour_of(r->wall_ns);
	uint64_t hash;

	fold_key(idx, r);
	/* A batch with more keys than slots writes what it has and goes on. */
	if (f->used >= FOLD_SLOTS * 3 / 4 && ras_db_fold_write_entries(db) < 0)
		return -EIO;
	if (entries_room(f) < 0)
		return -ENOMEM;
	/*
	 * The entry the subject's last record went to, if its key is this one's:
	 * not hashed (57 % of the folded records of make bench's stream). A key
	 * has one entry in a batch, so it is the one the places would name.
	 */
	if (hint && *hint && *hint <= f->used && same_entry(&f->e[*hint - 1], idx, hour, subject, r))
		return entry_add(f, &f->e[*hint - 1], r);
	hash = ras_db_fold_key_hash(idx, hour, subject, r);
	for (unsigned place = hash % FOLD_SLOTS;; place = (place + 1) % FOLD_SLOTS) {
		struct fold_entry *e;

		if (!f->at[place])
			e = entry_take(f, place, idx, hash, hour, subject, r);
		else if ((e = &f->e[f->at[place] - 1])->hash != hash || !same_entry(e, idx, hour, subject, r))
			continue;
		if (hint)
			*hint = (unsigned)(e - f->e) + 1;
		return entry_add(f, e, r);
	}
}

/* Every entry's buffers, the list, the places and the known rows given back. */
void ras_db_fold_entries_free(struct ras_db_fold *f)
{
	for (unsigned i = 0; i < f->made; i++) {
		free(f->e[i].secs);
		free(f->e[i].ids);
	}
	free(f->e);
	free(f->at);
	free(f->grow_ids);
	f->e = NULL;
	f->at = NULL;
	f->grow_ids = NULL;
	f->used = f->cap = f->made = f->ngrows = 0;
	f->grow_ids_len = f->grow_ids_cap = 0;
	f->buf_bytes = 0;
	/* The new rows' INSERTs of more than one row (db_fold_write.c): prepared again when next wanted. */
	for (unsigned k = 0; k < RAS_DB_RUNS; k++) {
		sqlite3_finalize(f->ins_run[k]);
		f->ins_run[k] = NULL;
	}
	sqlite3_finalize(f->max_hour);
	f->max_hour = NULL;
	ras_db_fold_known_free(f);
}
