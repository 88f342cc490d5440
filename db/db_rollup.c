/* SPDX-License-Identifier: MIT */
/*
 * Hourly roll-ups: records counted per table x hour x boot x source x
 * synthetic x severity x location, kept in the same transaction as the
 * records themselves, so that summaries and status answer from a few
 * thousand rows however long the history. Counts are gathered in memory
 * while a batch is inserted and written once per key when it commits; so
 * are the totals, the EDAC roll-up (db_edac_rollup.c) and the metrics'
 * subjects (db_metrics.c): a record is counted in all four here; the EDAC
 * and subject counts are stages of db_txn.c's table of their own (written at
 * commit, given back at rollback, freed at close), after this one. Reading the batch's rows back with GROUP BY
 * cost more than inserting them (callgrind, make bench's stream).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/grow.h"
#include "lib/str.h"
#include "db_internal.h"
#include "db_rollup.h"

#define HOUR_NS RAS_DB_HOUR_NS

struct rollup_entry {
	bool used;
	uint8_t table_rank;              /* of its table's name among the tables' (entry_cmp) */
	unsigned type_idx;
	int synthetic;
	int64_t hour, boot, count, first_ns, last_ns;
	uint64_t hash;
	/* Zero after the text (made from a zeroed entry): equal texts are equal fields. */
	char source[16];
	char severity[16];
	/*
	 * The summary location (struct ras_sumloc), in the set's text: most are
	 * a few tens of bytes, and a slot of RAS_SUMLOC_LEN made the two sets'
	 * slots 11.5 MB (352 bytes a slot, 112 now). loc points to it while the
	 * set is written (flush_slots: nothing is added then).
	 */
	uint32_t loc_off;
	const char *loc;
};

/* A table's records per source, synthetic and severity (rollup_totals), for one batch. */
struct totals_entry {
	unsigned type_idx;
	int synthetic;
	int64_t count, last_ns;
	/* The texts the entry was made from: the same address is the same text, found without strcmp. */
	const char *source_at, *severity_at;
	char source[64];
	char severity[16];
};

#define TOTALS_SLOTS 64

/* A batch's hourly counts are written this many keys at a time, in one upsert. */
#define UPSERT_ROWS 64

/*
 * The slots of recent records, by what makes a record's key: its type, hour,
 * boot, source, synthetic flag, severity and decoding (the summary location
 * is its decoding's). A storm's records repeat a few thousand of those: most
 * are counted without building their location or hashing it. An entry is
 * good for the slots' generation it was made in (a flush empties them).
 */
#define RECENT_KEYS 4096

struct recent_key {
	uint64_t sig;
	int64_t hour, boot;
	const char *source;               /* compared as a pointer: another is only a miss */
	int synthetic, severity;
	unsigned type_idx, slot, gen;
};

/* A text's own hash, kept for the last address asked (a record's source and severity name never change). */
struct text_hash {
	const char *at;
	uint64_t h;
};

struct ras_db_rollup {
	struct rollup_entry *e;          /* RAS_DB_ROLLUP_SLOTS, allocated by the first record; freed when idle */
	unsigned *in_use;                /* the used slots' indices, in the order taken (allocated with e) */
	unsigned used;
	unsigned taken;                  /* slots taken since the last trim */
	sqlite3_stmt *upsert, *upsert_rows;   /* one key, UPSERT_ROWS keys */
	struct recent_key *recent;       /* RECENT_KEYS, allocated with e */
	char *text;                      /* the used slots' locations, each with its 0; emptied with them */
	size_t text_len, text_cap;
	unsigned gen;                    /* the slots' generation: bumped when they are emptied */
	/* A handful of keys per batch: a short list, searched in order. */
	struct totals_entry totals[TOTALS_SLOTS];
	unsigned n_totals;
	sqlite3_stmt *totals_upsert;
	uint8_t table_rank[RAS_MAX_EVENT_TYPES];   /* each type's table name's place among them */
	struct text_hash source_hash, severity_hash;   /* key_hash's, of the last source and severity */
};

/* The upsert of rows keys at once (their parameters 10 a key, in order). */
static int prepare_upsert(struct ras_db *db, unsigned rows, sqlite3_stmt **st)
{
	char sql[4096];
	size_t n;

	n = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO rollup_hourly (tbl, hour, boot, source,"
			     " synthetic, severity, location, records, first_ns, last_ns) VALUES ");
	for (unsigned k = 0; k < rows && n < sizeof(sql); k++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, "%s(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				      k ? ", " : "");
	if (n < sizeof(sql))
		snprintf(sql + n, sizeof(sql) - n, " ON CONFLICT DO UPDATE SET records = records +"
			 " excluded.records, first_ns = " RAS_DB_MIN_SQL("first_ns", "excluded.first_ns") ","
			 " last_ns = " RAS_DB_MAX_SQL("last_ns", "excluded.last_ns"));
	/* Prepared once, here: the writer thread may be using the connection. */
	if (ras_db_sync(db) < 0 ||
	    sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK)
		return -EIO;
	return 0;
}

/*
 * A string mixed in eight bytes at a time (its length first): the slots'
 * hash only places keys (they are written sorted, entry_cmp), so it need
 * not be FNV's byte at a time, which was a third of a new key's cost.
 */
static uint64_t hash_str(uint64_t h, const char *s)
{
	size_t len = strlen(s), i = 0;
	uint64_t w;

	h = (h ^ len) * 0x100000001b3ULL;
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	if (i < len) {
		w = 0;
		memcpy(&w, s + i, len - i);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	return h;
}

/* The text's hash, from c when it is the last one asked (by its address). */
static uint64_t text_hash(struct text_hash *c, const char *s)
{
	if (s != c->at) {
		c->h = hash_str(0x84222325cbf29ce4ULL, s);
		c->at = s;
	}
	return c->h;
}

static uint64_t key_hash(struct ras_db_rollup *ru, unsigned idx, int64_t hour, int64_t boot,
			 const char *source, int synthetic, const char *sev, const char *loc)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ idx;

	h = (h ^ (uint64_t)hour) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)boot) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)synthetic) * 0x100000001b3ULL;
	h = (h ^ text_hash(&ru->source_hash, source)) * 0x9e3779b97f4a7c15ULL;
	h = (h ^ text_hash(&ru->severity_hash, sev)) * 0x9e3779b97f4a7c15ULL;
	return hash_str(h ^ (h >> 29), loc);
}

static bool same_key(const struct ras_db_rollup *ru, const struct rollup_entry *e, unsigned idx,
		     int64_t hour, int64_t boot, const char *source, int synthetic, const char *sev,
		     const char *loc)
{
	return e->type_idx == idx && e->hour == hour && e->boot == boot &&
	       e->synthetic == synthetic && !strcmp(e->source, source) &&
	       !strcmp(e->severity, sev) && !strcmp(ru->text + e->loc_off, loc);
}

/* The upsert's 10 parameters of one key. */
static void entry_values(const struct rollup_entry *e, struct ras_db_col_val *v)
{
	v[0] = ras_db_val_text(ras_event_types[e->type_idx].table);
	v[1] = ras_db_val_int(e->hour);
	v[2] = ras_db_val_int(e->boot);
	v[3] = ras_db_val_text(e->source);
	v[4] = ras_db_val_int(e->synthetic);
	v[5] = ras_db_val_text(e->severity);
	v[6] = ras_db_val_text(e->loc);
	v[7] = ras_db_val_int(e->count);
	v[8] = ras_db_val_int(e->first_ns);
	v[9] = ras_db_val_int(e->last_ns);
}

/* Each type's table name's place among the tables' names, as the key orders them. */
static void rank_tables(struct ras_db_rollup *ru)
{
	for (unsigned i = 0; i < ras_n_event_types && i < RAS_MAX_EVENT_TYPES; i++)
		for (unsigned j = 0; j < ras_n_event_types; j++)
			ru->table_rank[i] += strcmp(ras_event_types[j].table, ras_event_types[i].table) < 0;
}

/*
 * In the table's key order (tbl, hour, boot, source, synthetic, severity,
 * location), called some n log n times a flush: the table by its rank, and
 * the source and severity, nearly always the same within a batch, found
 * equal by comparing their zero-padded fields whole (inlined) before strcmp.
 */
static int entry_cmp(const void *pa, const void *pb)
{
	const struct rollup_entry *a = *(const struct rollup_entry *const *)pa;
	const struct rollup_entry *b = *(const struct rollup_entry *const *)pb;
	int c;

	if (a->table_rank != b->table_rank)
		return a->table_rank < b->table_rank ? -1 : 1;
	if (a->hour != b->hour)
		return a->hour < b->hour ? -1 : 1;
	if (a->boot != b->boot)
		return a->boot < b->boot ? -1 : 1;
	if (memcmp(a->source, b->source, sizeof(a->source)) && (c = strcmp(a->source, b->source)))
		return c;
	if (a->synthetic != b->synthetic)
		return a->synthetic < b->synthetic ? -1 : 1;
	if (memcmp(a->severity, b->severity, sizeof(a->severity)) && (c = strcmp(a->severity, b->severity)))
		return c;
	return strcmp(a->loc, b->loc);
}

/* Writes n keys: UPSERT_ROWS at a time in one statement, the rest one by one. */
static int flush_entries(struct ras_db *db, struct ras_db_rollup *ru, struct rollup_entry **e, size_t n)
{
	struct ras_db_col_val v[UPSERT_ROWS * 10];
	size_t i = 0;

	if (n >= UPSERT_ROWS && !ru->upsert_rows && prepare_upsert(db, UPSERT_ROWS, &ru->upsert_rows) < 0)
		return -EIO;
	for (; i + UPSERT_ROWS <= n; i += UPSERT_ROWS) {
		for (unsigned k = 0; k < UPSERT_ROWS; k++)
			entry_values(e[i + k], v + 10 * k);
		if (ras_db_run(db, ru->upsert_rows, v, UPSERT_ROWS * 10) < 0)
			return -EIO;
	}
	for (; i < n; i++) {
		entry_values(e[i], v);
		if (ras_db_run(db, ru->upsert, v, 10) < 0)
			return -EIO;
	}
	return 0;
}

static const char totals_upsert_sql[] =
	"INSERT INTO rollup_totals (tbl, source, synthetic, severity, records, last_ns)"
	" VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET"
	" records = records + excluded.records, last_ns = max(last_ns, excluded.last_ns)";

/*
 * Each table's totals per source, synthetic and severity (status, metrics):
 * the batch's counts, gathered in memory, one upsert per key. The keys are
 * the hourly roll-up's, less the hour and location, as the rows store them.
 */
static int flush_totals(struct ras_db *db, struct ras_db_rollup *ru)
{
	int r = 0;

	if (!ru->n_totals)
		return 0;
	if (!ras_db_table_exists(db, "rollup_totals")) {
		ru->n_totals = 0;
		return 0;
	}
	/* Prepared once, here: the writer thread may be using the connection. */
	if (!ru->totals_upsert &&
	    (ras_db_sync(db) < 0 || sqlite3_prepare_v3(db->h, totals_upsert_sql, -1, SQLITE_PREPARE_PERSISTENT,
						       &ru->totals_upsert, NULL) != SQLITE_OK))
		return -EIO;
	for (unsigned i = 0; i < ru->n_totals && r == 0; i++) {
		const struct totals_entry *t = &ru->totals[i];
		struct ras_db_col_val v[6] = {
			ras_db_val_text(ras_event_types[t->type_idx].table), ras_db_val_text(t->source),
			ras_db_val_int(t->synthetic), ras_db_val_text(t->severity),
			ras_db_val_int(t->count), ras_db_val_int(t->last_ns),
		};

		r = ras_db_run(db, ru->totals_upsert, v, 6);
	}
	if (r < 0)
		return -EIO;
	ru->n_totals = 0;
	return 0;
}

static int totals_add(struct ras_db *db, unsigned idx, const char *source, int synthetic,
		      const char *sev, int64_t wall_ns)
{
	struct ras_db_rollup *ru = db->rollup;
	struct totals_entry *t;

	for (unsigned i = 0; i < ru->n_totals; i++) {
		t = &ru->totals[i];
		if (t->type_idx != idx || t->synthetic != synthetic ||
		    (t->source_at != source && strcmp(t->source, source)) ||
		    (t->severity_at != sev && strcmp(t->severity, sev)))
			continue;
		t->count++;
		if (wall_ns > t->last_ns)
			t->last_ns = wall_ns;
		return 0;
	}
	if (ru->n_totals == TOTALS_SLOTS && flush_totals(db, ru) < 0)
		return -EIO;
	t = &ru->totals[ru->n_totals++];
	*t = (struct totals_entry){ .type_idx = idx, .synthetic = synthetic, .count = 1,
				    .last_ns = wall_ns, .source_at = source, .severity_at = sev };
	snprintf(t->source, sizeof(t->source), "%s", source);
	snprintf(t->severity, sizeof(t->severity), "%s", sev);
	return 0;
}

/* Each table's totals recounted in SQL from its rows from first_id on (a rebuild). */
static int totals_rows(struct ras_db *db, unsigned idx, int64_t first_id)
{
	const char *table = ras_event_types[idx].table;
	char sql[640];
	sqlite3_stmt *st;
	int r;

	if (!ras_db_table_exists(db, "rollup_totals"))
		return 0;
	snprintf(sql, sizeof(sql),
		 "INSERT INTO rollup_totals (tbl, source, synthetic, severity, records, last_ns)"
		 " SELECT ?2, source, synthetic, coalesce(severity, ''), count(*), max(wall_ns)"
		 " FROM %s WHERE id >= ?1 GROUP BY 2, 3, 4 ON CONFLICT DO UPDATE SET"
		 " records = records + excluded.records, last_ns = max(last_ns, excluded.last_ns)",
		 table);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, first_id);
	sqlite3_bind_text(st, 2, table, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? 0 : -EIO;
}

static int totals_rebuild(struct ras_db *db, unsigned idx)
{
	sqlite3_stmt *st;
	int r;

	if (!ras_db_table_exists(db, "rollup_totals"))
		return 0;
	if (sqlite3_prepare_v2(db->h, "DELETE FROM rollup_totals WHERE tbl = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, ras_event_types[idx].table, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? totals_rows(db, idx, 0) : -EIO;
}

/* Writes the in-memory hourly counts. */
/*
 * The used slots emptied, by their list: a storm's 16,384 slots (1.8 MiB) are
 * not walked at each commit for the few a trickle's batch took.
 */
static void empty_slots(struct ras_db_rollup *ru)
{
	for (unsigned i = 0; ru->e && i < ru->used; i++)
		ru->e[ru->in_use[i]].used = false;
	ru->used = 0;
	ru->text_len = 0;
	ru->gen++;
}

static int flush_slots(struct ras_db *db, struct ras_db_rollup *ru)
{
	struct rollup_entry **order;
	size_t n = 0;
	int r;

	if (!ru->used)
		return 0;
	if (!ru->upsert && prepare_upsert(db, 1, &ru->upsert) < 0)
		return -EIO;
	/*
	 * In the table's key order, UPSERT_ROWS a statement: each finds its
	 * keys in the pages the one before walked, and is one statement's run.
	 */
	if (!(order = malloc(ru->used * sizeof(*order))))
		return -ENOMEM;
	for (unsigned i = 0; i < ru->used; i++) {
		order[n] = &ru->e[ru->in_use[i]];
		order[n]->loc = ru->text + order[n]->loc_off;
		n++;
	}
	qsort(order, n, sizeof(*order), entry_cmp);
	r = flush_entries(db, ru, order, n);
	free(order);
	if (r < 0)
		return r;
	empty_slots(ru);
	return 0;
}

/* The totals and the hourly counts of one set; the EDAC and subject counts are stages of their own (db_txn.c). */
static int flush_set(struct ras_db *db, struct ras_db_rollup *ru)
{
	if (!ru)
		return 0;
	if (flush_totals(db, ru) < 0)
		return -EIO;
	return flush_slots(db, ru);
}

int ras_db_rollup_flush(struct ras_db *db)
{
	return flush_set(db, db->rollup);
}

int ras_db_rollup_flush_out(struct ras_db *db)
{
	return flush_set(db, db->rollup_out);
}

void ras_db_rollup_hand(struct ras_db *db)
{
	struct ras_db_rollup *ru = db->rollup_out;

	db->rollup_out = db->rollup;
	db->rollup = ru;
}

static void discard_set(struct ras_db_rollup *ru)
{
	if (!ru)
		return;
	empty_slots(ru);
	ru->n_totals = 0;
}

/* Both sets: a rollback comes after ras_db_sync, the set handed over is this thread's again. */
void ras_db_rollup_discard(struct ras_db *db)
{
	discard_set(db->rollup);
	discard_set(db->rollup_out);
}

static void count_in(struct rollup_entry *e, int64_t wall_ns)
{
	e->count++;
	if (wall_ns < e->first_ns)
		e->first_ns = wall_ns;
	if (wall_ns > e->last_ns)
		e->last_ns = wall_ns;
}

static struct recent_key *recent_of(struct ras_db_rollup *ru, const struct ras_db_event *ev, uint64_t sig,
				    int64_t hour, int64_t boot)
{
	uint64_t h = (sig ^ (uint64_t)hour * 0x9e3779b97f4a7c15ULL ^ (uint64_t)boot) * 0xff51afd7ed558ccdULL;

	return ru->recent ? &ru->recent[(h ^ ev->type_idx) % RECENT_KEYS] : NULL;
}

static bool recent_is(const struct recent_key *k, const struct ras_db_rollup *ru,
		      const struct ras_db_event *ev, uint64_t sig, int64_t hour, int64_t boot)
{
	const struct ras_decoded_head *h = ev->decoded;

	return k->gen == ru->gen && k->sig == sig && k->hour == hour && k->boot == boot &&
	       k->type_idx == ev->type_idx && k->source == ev->source &&
	       k->synthetic == (ev->synthetic ? 1 : 0) && k->severity == (int)h->severity;
}

/* The slot of the record's key, taken if free (room for its location made first: text_room). */
static unsigned slot_of(struct ras_db_rollup *ru, const struct ras_db_event *ev, int64_t hour,
			int64_t boot)
{
	const struct ras_decoded_head *h = ev->decoded;
	const char *sev = ras_severity_name(h->severity);
	int synthetic = ev->synthetic ? 1 : 0;
	char key[RAS_SUMLOC_LEN];
	const char *loc = ras_summary_location(&ras_event_types[ev->type_idx], h, key, sizeof(key));
	uint64_t hash = key_hash(ru, ev->type_idx, hour, boot, ev->source, synthetic, sev, loc);
	unsigned slot;

	for (slot = hash % RAS_DB_ROLLUP_SLOTS;; slot = (slot + 1) % RAS_DB_ROLLUP_SLOTS) {
		struct rollup_entry *e = &ru->e[slot];

		if (!e->used) {
			*e = (struct rollup_entry){ .used = true, .type_idx = ev->type_idx,
						    .table_rank = ru->table_rank[ev->type_idx],
						    .synthetic = synthetic, .hour = hour, .boot = boot,
						    .first_ns = ev->wall_ns, .last_ns = ev->wall_ns,
						    .hash = hash };
			ras_str_copy(e->source, sizeof(e->source), ev->source);
			ras_str_copy(e->severity, sizeof(e->severity), sev);
			e->loc_off = (uint32_t)ru->text_len;
			ras_str_copy(ru->text + ru->text_len, RAS_SUMLOC_LEN, loc);
			ru->text_len += strlen(ru->text + ru->text_len) + 1;
			ru->in_use[ru->used++] = slot;
			ru->taken++;
			return slot;
		}
		if (e->hash == hash && same_key(ru, e, ev->type_idx, hour, boot, ev->source, synthetic, sev, loc))
			return slot;
	}
}

void ras_db_rollup_prefetch(struct ras_db *db, const struct ras_db_event *ev, int64_t boot, uint64_t sig)
{
	struct ras_db_rollup *ru = db->rollup;

	if (ru && ru->recent)
		__builtin_prefetch(recent_of(ru, ev, sig, ras_db_hour_of(ev->wall_ns), boot));
}

/* Room in the set's text for one more location (at most RAS_SUMLOC_LEN bytes with its 0). */
static int text_room(struct ras_db_rollup *ru)
{
	return ras_grow_room(&ru->text, &ru->text_cap, ru->text_len, RAS_SUMLOC_LEN, 64 * 1024, NULL);
}

int ras_db_rollup_add(struct ras_db *db, const struct ras_db_event *ev, int64_t boot, uint64_t sig)
{
	const struct ras_decoded_head *h = ev->decoded;
	int64_t hour = ras_db_hour_of(ev->wall_ns);
	struct ras_db_rollup *ru = db->rollup;
	struct recent_key *k;
	unsigned slot;

	if (!ru) {
		if (!(ru = db->rollup = calloc(1, sizeof(*db->rollup))))
			return -ENOMEM;
		rank_tables(ru);
	}
	if (!ru->e && !(ru->e = calloc(RAS_DB_ROLLUP_SLOTS, sizeof(*ru->e))))
		return -ENOMEM;
	if (!ru->in_use && !(ru->in_use = malloc(RAS_DB_ROLLUP_SLOTS * sizeof(*ru->in_use))))
		return -ENOMEM;
	/* Without it every record's key is made: slower, the same. */
	if (!ru->recent)
		ru->recent = calloc(RECENT_KEYS, sizeof(*ru->recent));
	/*
	 * A batch with more keys than slots writes its hourly counts and goes on
	 * (upserts add up); so do the other roll-ups' own tables.
	 */
	if (ru->used >= RAS_DB_ROLLUP_SLOTS * 3 / 4 && flush_slots(db, ru) < 0)
		return -EIO;
	if (totals_add(db, ev->type_idx, ev->source, ev->synthetic ? 1 : 0, ras_severity_name(h->severity),
		       ev->wall_ns) < 0 ||
	    ras_db_edac_acc_add(db, ev, boot, hour) < 0 || ras_db_metrics_acc_add(db, ev) < 0)
		return -EIO;
	k = recent_of(ru, ev, sig, hour, boot);
	if (k && recent_is(k, ru, ev, sig, hour, boot) && ru->e[k->slot].used) {
		count_in(&ru->e[k->slot], ev->wall_ns);
		return 0;
	}
	if (text_room(ru) < 0)
		return -ENOMEM;
	slot = slot_of(ru, ev, hour, boot);
	count_in(&ru->e[slot], ev->wall_ns);
	if (k)
		*k = (struct recent_key){ .sig = sig, .hour = hour, .boot = boot, .source = ev->source,
					  .synthetic = ev->synthetic ? 1 : 0, .severity = (int)h->severity,
					  .type_idx = ev->type_idx, .slot = slot, .gen = ru->gen };
	return 0;
}

/*
 * The batch's hourly slots (1.8 MiB once a storm touched them all), when none
 * is in use and few were taken since the last trim: a storm's batches keep
 * them, a trickle's take a page or two again.
 */
static void trim_set(struct ras_db_rollup *ru)
{
	if (!ru || ru->used)
		return;
	if (ru->taken < RAS_DB_ROLLUP_SLOTS / 16) {
		free(ru->e);
		ru->e = NULL;
		free(ru->in_use);
		ru->in_use = NULL;
		free(ru->recent);
		ru->recent = NULL;
		free(ru->text);
		ru->text = NULL;
		ru->text_cap = 0;
	}
	ru->taken = 0;
}

void ras_db_rollup_trim(struct ras_db *db)
{
	trim_set(db->rollup);
	trim_set(db->rollup_out);
}

static size_t set_bytes(const struct ras_db_rollup *ru)
{
	return ru && ru->e ? RAS_DB_ROLLUP_SLOTS * (sizeof(*ru->e) + sizeof(*ru->in_use)) + ru->text_cap : 0;
}

size_t ras_db_rollup_slot_bytes(const struct ras_db *db)
{
	return set_bytes(db->rollup) + set_bytes(db->rollup_out);
}

static void free_set(struct ras_db_rollup *ru)
{
	if (!ru)
		return;
	free(ru->e);
	free(ru->in_use);
	free(ru->recent);
	free(ru->text);
	sqlite3_finalize(ru->upsert);
	sqlite3_finalize(ru->upsert_rows);
	sqlite3_finalize(ru->totals_upsert);
	free(ru);
}

void ras_db_rollup_free(struct ras_db *db)
{
	free_set(db->rollup);
	free_set(db->rollup_out);
	db->rollup = db->rollup_out = NULL;
}

/* Appends a string literal (quotes doubled); returns the new length. */
static size_t put_literal(char *out, size_t cap, size_t n, const char *s)
{
	n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "'");
	for (; *s; s++)
		n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, *s == '\'' ? "''" : "%c", *s);
	return n + (size_t)snprintf(out + n, n < cap ? cap - n : 0, "'");
}

/* A stored decoded column of table idx holding dfield name, or NULL. */
static const char *dcol_of(unsigned idx, const char *name)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);

	for (unsigned k = 0; k < t->ndcols; k++)
		if (t->dfield[k] >= 0 && !strcmp(type->dfields[t->dfield[k]].name, name))
			return t->dcols[k].name;
	return NULL;
}

/*
 * The summary location (struct ras_sumloc, ras_summary_location()) of the
 * rows aliased `a`, in SQL: the stored location cut, then the known parts.
 * The decoded columns are a's own, or with via_dec those of the decoding
 * a.dec names (folds rows). Returns the length, or -1 if cap is short.
 */
int ras_db_sumloc_sql(char *out, size_t cap, unsigned idx, const char *a, bool via_dec)
{
	const struct ras_sumloc *k = ras_event_types[idx].sumloc;
	char loc[64];
	size_t n = 0;

	snprintf(loc, sizeof(loc), "coalesce(%s.location, '')", a);
	if (!k) {
		n = (size_t)snprintf(out, cap, "%s", loc);
		return n < cap ? (int)n : -1;
	}
	n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "(CASE WHEN instr(%s, ", loc);
	n = put_literal(out, cap, n, k->cut ? k->cut : "");
	n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, ") > 0 AND %s THEN substr(%s, 1, instr(%s, ",
			      k->cut ? "1" : "0", loc, loc);
	n = put_literal(out, cap, n, k->cut ? k->cut : "");
	n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, ") - 1) ELSE %s END", loc);
	for (unsigned i = 0; i < RAS_SUMLOC_PARTS && k->parts[i].dfield; i++) {
		const char *col = dcol_of(idx, k->parts[i].dfield);

		n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, " || coalesce(");
		n = put_literal(out, cap, n, k->parts[i].before);
		if (!col)
			n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, " || NULL, '')");
		else if (via_dec)
			n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, " || (SELECT nullif(d.\"%s\", '')"
					      " FROM %s_dec d WHERE d.id = %s.dec), '')", col,
					      ras_event_types[idx].table, a);
		else
			n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, " || nullif(%s.\"%s\", ''), '')",
					      a, col);
	}
	n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, ")");
	return n < cap ? (int)n : -1;
}

/* Recounts one table's hourly roll-ups from its rows and its folded records. */
static int hourly_rebuild(struct ras_db *db, unsigned idx)
{
	const char *table = ras_event_types[idx].table;
	char sql[4096], loc[1024], floc[1024], folded[1536] = "";
	sqlite3_stmt *st;
	int r;

	if (!ras_db_table_exists(db, table) || !ras_db_table_exists(db, "rollup_hourly"))
		return 0;
	if (ras_db_sumloc_sql(loc, sizeof(loc), idx, "e", false) < 0 ||
	    ras_db_sumloc_sql(floc, sizeof(floc), idx, "f", true) < 0)
		return -EIO;
	if (ras_db_table_exists(db, "folds"))
		snprintf(folded, sizeof(folded), " UNION ALL SELECT hour, boot, source, synthetic, severity,"
			 " %s, records, first_ns, last_ns FROM folds f WHERE tbl = ?1", floc);
	snprintf(sql, sizeof(sql),
		 "DELETE FROM rollup_hourly WHERE tbl = ?1;"
		 "INSERT INTO rollup_hourly (tbl, hour, boot, source, synthetic, severity, location,"
		 " records, first_ns, last_ns)"
		 " SELECT ?1, h, b, source, synthetic, s, l, sum(n), min(f), max(t) FROM ("
		 " SELECT (wall_ns - ((wall_ns %% %lld) + %lld) %% %lld) / %lld AS h, coalesce(boot, 0) AS b,"
		 " source, synthetic, coalesce(severity, '') AS s, %s AS l, 1 AS n,"
		 " wall_ns AS f, wall_ns AS t FROM %s_decoded e%s"
		 ") GROUP BY 2, 3, 4, 5, 6, 7",
		 HOUR_NS, HOUR_NS, HOUR_NS, HOUR_NS, loc, table, folded);
	/* Two statements: prepare and run each in turn, with ?1 bound in both. */
	for (const char *p = sql; p && *p;) {
		const char *tail;

		if (sqlite3_prepare_v2(db->h, p, -1, &st, &tail) != SQLITE_OK)
			return -EIO;
		if (!st)
			break;
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		r = sqlite3_step(st);
		sqlite3_finalize(st);
		if (r != SQLITE_DONE)
			return -EIO;
		p = tail;
	}
	return 0;
}

/*
 * Schema 12: the hourly roll-ups of the types with a summary location were
 * keyed by the full location (a page, a DPA); counted again by the new key.
 */
int ras_db_rollup_rekey_sumloc(struct ras_db *db)
{
	for (unsigned i = 0; i < ras_n_event_types; i++)
		if (ras_event_types[i].sumloc && hourly_rebuild(db, i) < 0)
			return -EIO;
	return 0;
}

/* Recounts every roll-up of one table from its rows (after a migration or a purge). */
int ras_db_rollup_rebuild(struct ras_db *db, unsigned idx)
{
	const struct ras_event_type *mc = ras_event_type_find("mc_event");

	if (!ras_db_table_exists(db, ras_event_types[idx].table))
		return 0;
	if (hourly_rebuild(db, idx) < 0 || ras_db_metrics_rollup_rebuild(db, idx) < 0 ||
	    totals_rebuild(db, idx) < 0)
		return -EIO;
	if (mc && idx == (unsigned)(mc - ras_event_types))
		return ras_db_edac_rollup_rebuild(db);
	return 0;
}

/*
 * Raw rows of an event table in rollup_hourly's shape (see db_rollup.h):
 * the only place summaries count records from rows instead of roll-ups.
 */
int ras_db_rollup_raw_rows_sql(char *sql, size_t cap, unsigned idx, bool folds)
{
	const char *table = ras_event_types[idx].table;
	char folded[2560] = "", loc[1024], floc[1024];
	int n;

	if (ras_db_sumloc_sql(loc, sizeof(loc), idx, "e", false) < 0 ||
	    ras_db_sumloc_sql(floc, sizeof(floc), idx, "x", true) < 0)
		return -1;
	/* Folded records: each folds row's seconds that fall in a range (db_fold.c). */
	if (folds)
		snprintf(folded, sizeof(folded),
			 " UNION ALL SELECT hour, boot, source, synthetic, severity, %s, n, fn, ln"
			 " FROM (" RAS_DB_FOLDED_IN_RANGES("%s") ") x WHERE n > 0", floc, table);
	n = snprintf(sql, cap,
			 "SELECT " RAS_DB_HOUR_SQL("e.wall_ns") " AS hour, coalesce(e.boot, 0) AS boot,"
			 " e.source AS source, e.synthetic AS synthetic,"
			 " coalesce(e.severity, '') AS severity, %s AS location,"
			 " count(*) AS records, e.wall_ns AS first_ns, e.wall_ns AS last_ns"
			 " FROM ranges g JOIN %s_decoded e ON e.wall_ns >= g.lo AND e.wall_ns < g.hi"
			 " GROUP BY 2, 3, 4, 5, 6, e.wall_ns%s", loc, table, folded);

	return n < 0 || (size_t)n >= cap ? -1 : n;
}

int ras_db_rollup_rebuild_all(struct ras_db *db)
{
	for (unsigned i = 0; i < ras_n_event_types; i++)
		if (ras_db_rollup_rebuild(db, i) < 0)
			return -EIO;
	return 0;
}
