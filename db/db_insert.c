/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_fold.h"
#include "db_rollup.h"
#include "db_sig.h"

/*
 * Looked up before it is inserted: in a varied storm most decodings the
 * cache misses are already stored, and an INSERT OR IGNORE would bind every
 * decoded column only to be ignored.
 */
static int64_t find_decoded(struct ras_db *db, unsigned idx, uint64_t sig)
{
	sqlite3_stmt *st = db->dec_find[idx];
	int64_t id = 0;
	int r;

	sqlite3_bind_int64(st, 1, (int64_t)sig);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (r != SQLITE_DONE)
		id = -1;
	sqlite3_reset(st);
	return id;
}

/* The values of the decoding's <table>_dec row, in its columns' order (t->ndcols). */
static void decoded_values(unsigned idx, const void *decoded, struct ras_db_col_val *out)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_db_table *t = ras_db_table_of(idx);
	const char *loc = ((const struct ras_decoded_head *)decoded)->location;

	for (unsigned i = 0; i < t->ndcols; i++) {
		if (t->dfield[i] >= 0)
			out[i] = ras_db_decoded_value(&type->dfields[t->dfield[i]], decoded);
		else if (*loc)
			out[i] = (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = loc, .len = strlen(loc) };
		else
			out[i] = (struct ras_db_col_val){ .type = SQLITE_NULL };
	}
}

static int64_t store_decoded(struct ras_db *db, unsigned idx, uint64_t sig,
			     const struct ras_db_col_val *vals)
{
	const struct ras_db_table *t = ras_db_table_of(idx);
	sqlite3_stmt *st = db->dec_insert[idx];
	struct ras_db_bound *b = ras_db_bound_of(&db->dec_bound[idx], st);

	sqlite3_bind_int64(st, 1, (int64_t)sig);
	for (unsigned i = 0; i < t->ndcols; i++)
		ras_db_bind_kept(b, st, (int)i + 2, &vals[i]);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	if (sqlite3_changes(db->h) > 0)
		return sqlite3_last_insert_rowid(db->h);
	return find_decoded(db, idx, sig);
}

/*
 * sig's slot among the DEC_WAYS after its home: its own, else a free one,
 * else the home (replaced). A varied machine-check storm has some 20,000
 * distinct decodings: one slot per home lost half of them to collisions.
 */
static struct ras_db_dec_slot *dec_slot(struct ras_db_dec_slot *cache, uint64_t sig)
{
	size_t home = (size_t)(sig % RAS_DB_DEC_CACHE), free_slot = RAS_DB_DEC_CACHE;

	for (size_t w = 0; w < RAS_DB_DEC_WAYS; w++) {
		size_t i = (home + w) % RAS_DB_DEC_CACHE;

		if (cache[i].id > 0 && cache[i].sig == sig)
			return &cache[i];
		if (cache[i].id <= 0 && free_slot == RAS_DB_DEC_CACHE)
			free_slot = i;
	}
	return &cache[free_slot < RAS_DB_DEC_CACHE ? free_slot : home];
}

/* The cache's slot for table idx's signature sig, or NULL without memory for the cache. */
static struct ras_db_dec_slot *cache_slot(struct ras_db *db, unsigned idx, uint64_t sig)
{
	if (!db->dec_cache[idx])
		db->dec_cache[idx] = calloc(RAS_DB_DEC_CACHE, sizeof(*db->dec_cache[idx]));
	return db->dec_cache[idx] ? dec_slot(db->dec_cache[idx], sig) : NULL;
}

/*
 * The row of <table>_dec for the decoding of signature sig, stored from vals
 * (t->ndcols values) if it is not there; recent ones are remembered. Without
 * vals a decoding not stored is an error (-1): the caller had stored it.
 */
static int64_t resolve_decoded(struct ras_db *db, unsigned idx, uint64_t sig,
			       const struct ras_db_col_val *vals)
{
	struct ras_db_dec_slot *slot = cache_slot(db, idx, sig);
	int64_t id;

	if (slot && slot->id > 0 && slot->sig == sig)
		return slot->id;
	/* With its values (sent the first time: most likely new) stored at once, else looked up. */
	id = vals ? store_decoded(db, idx, sig, vals) : find_decoded(db, idx, sig);
	if (id <= 0)
		return -1;
	if (slot) {
		slot->sig = sig;
		slot->id = id;
	}
	return id;
}

/* The row of <table>_dec for this decoding of signature sig, stored if need be (the caller's thread). */
static int64_t decoded_id(struct ras_db *db, unsigned idx, uint64_t sig, const void *decoded)
{
	struct ras_db_col_val vals[RAS_DB_MAX_COLS];
	int64_t id = resolve_decoded(db, idx, sig, NULL);

	if (id > 0)
		return id;
	decoded_values(idx, decoded, vals);
	return resolve_decoded(db, idx, sig, vals);
}

/*
 * Whether the decoding of signature sig was handed to the writer thread
 * lately (remembered if not), so that its values need not go again.
 */
static bool decoding_sent(struct ras_db *db, unsigned idx, uint64_t sig)
{
	uint64_t *sent = db->dec_sent[idx];

	if (!sent && !(sent = db->dec_sent[idx] = calloc(RAS_DB_DEC_CACHE, sizeof(*sent))))
		return false;
	return ras_db_sig_sent(sent, sig);
}

/* The INSERT of rows decodings of table idx at once, parameters row after row (sig, then t->ndcols). */
static int prepare_decodings(struct ras_db *db, unsigned idx, unsigned rows, sqlite3_stmt **st)
{
	const struct ras_db_table *t = ras_db_table_of(idx);
	size_t cap = 4096 + (size_t)rows * (2 * t->ndcols + 8) + 32 * t->ndcols, n;
	char *sql = malloc(cap);
	int r;

	if (!sql)
		return SQLITE_NOMEM;
	n = (size_t)snprintf(sql, cap, "INSERT OR IGNORE INTO %s_dec (sig", ras_event_types[idx].table);
	for (unsigned i = 0; i < t->ndcols && n < cap; i++)
		n += (size_t)snprintf(sql + n, cap - n, ",\"%s\"", t->dcols[i].name);
	n += (size_t)snprintf(sql + n, cap - n, ") VALUES ");
	n = ras_db_sql_values(sql, cap, n, rows, t->ndcols + 1);
	r = n < cap ? sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) : SQLITE_TOOBIG;
	free(sql);
	return r;
}

/* SQLite's code for a decoding that could not be found or stored. */
static int dec_error(struct ras_db *db)
{
	int r = sqlite3_errcode(db->h);

	return r != SQLITE_OK && r != SQLITE_DONE && r != SQLITE_ROW ? r : SQLITE_NOTFOUND;
}

/* A decoding a gathered batch brings that the cache does not know: stored with the batch's others. */
struct dec_new {
	uint64_t sig;
	const struct ras_db_col_val *vals;
	int64_t id;
};

/* The INSERT of run k's decodings of table idx, prepared at its first use; NULL without it. */
static sqlite3_stmt *dec_run_stmt(struct ras_db *db, unsigned idx, unsigned k)
{
	sqlite3_stmt **st = &db->dec_inserts[idx][k];

	if (!*st && prepare_decodings(db, idx, ras_db_run_rows(k), st) != SQLITE_OK)
		return NULL;
	ras_db_bound_of(&db->dec_runs_bound[idx][k], *st);
	return *st;
}

/*
 * Stores the decodings d of run k in one INSERT, in their order. A
 * multi-row INSERT gives the rows it inserts consecutive ids (max(id) + 1
 * each, as one by one), so when all m are inserted the k-th is the last id
 * less m - 1 - k; when some were already stored (ignored), each is looked up.
 */
static int store_dec_run(struct ras_db *db, unsigned idx, unsigned k, struct dec_new *d)
{
	const struct ras_db_table *t = ras_db_table_of(idx);
	sqlite3_stmt *st = db->dec_inserts[idx][k];
	struct ras_db_bound *b = db->dec_runs_bound[idx][k];
	unsigned m = ras_db_run_rows(k);
	int64_t last;
	bool all;
	int r;

	for (unsigned j = 0; j < m; j++) {
		int base = (int)(j * (t->ndcols + 1));
		struct ras_db_col_val sig = { .type = SQLITE_INTEGER, .i = (int64_t)d[j].sig };

		ras_db_bind_kept(b, st, base + 1, &sig);
		for (unsigned i = 0; i < t->ndcols; i++)
			ras_db_bind_kept(b, st, base + (int)i + 2, &d[j].vals[i]);
	}
	r = sqlite3_step(st);
	sqlite3_reset(st);
	if (r != SQLITE_DONE)
		return r;
	last = sqlite3_last_insert_rowid(db->h);
	all = sqlite3_changes(db->h) == (int)m;
	for (unsigned j = 0; j < m; j++)
		if ((d[j].id = all ? last - (int64_t)(m - 1 - j) : find_decoded(db, idx, d[j].sig)) <= 0)
			return dec_error(db);
	return SQLITE_OK;
}

/* The m new decodings d stored in order: a run to an INSERT, a last one alone. */
static int store_dec_new(struct ras_db *db, unsigned idx, struct dec_new *d, unsigned m)
{
	unsigned done = 0;
	int r = SQLITE_OK;

	while (done < m && r == SQLITE_OK) {
		unsigned k = ras_db_run_of(m - done);

		/* A run's INSERT not prepared (no memory): one by one. */
		if (k < RAS_DB_RUNS && !dec_run_stmt(db, idx, k))
			k = RAS_DB_RUNS;
		if (k < RAS_DB_RUNS)
			r = store_dec_run(db, idx, k, d + done);
		else if ((d[done].id = store_decoded(db, idx, d[done].sig, d[done].vals)) <= 0)
			r = dec_error(db);
		done += ras_db_run_rows(k);
	}
	return r;
}

static void set_dec(unsigned idx, const struct ras_db_row_job *j, int64_t id)
{
	j->row[ras_db_table_of(idx)->dec_col] = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = id };
}

/* The decoding row j names in the cache: its id, or 0. */
static int64_t cached_decoding(struct ras_db *db, unsigned idx, const struct ras_db_row_job *j)
{
	struct ras_db_dec_slot *slot = cache_slot(db, idx, j->sig);

	return slot && slot->id > 0 && slot->sig == j->sig ? slot->id : 0;
}

/*
 * The decodings of n deferred rows found or stored, each named in its row's
 * dec column: the ones sent with their values (the first time: most likely
 * new) and not in the cache stored together, without a lookup before, in the
 * rows' order (so with the ids one by one gave them), one brought twice
 * stored once; one sent before and not in the cache looked up. SQLITE_OK or
 * SQLite's code.
 */
static int resolve_rows(struct ras_db *db, unsigned idx, unsigned n, const struct ras_db_row_job *rows)
{
	struct dec_new fresh[RAS_DB_ROWS_PER_INSERT];
	int of[RAS_DB_ROWS_PER_INSERT];
	unsigned m = 0;
	int r;

	for (unsigned k = 0; k < n; k++) {
		int64_t id = cached_decoding(db, idx, &rows[k]);

		of[k] = -1;
		for (unsigned f = 0; f < m && !id && of[k] < 0; f++)
			if (fresh[f].sig == rows[k].sig)
				of[k] = (int)f;
		if (id || of[k] >= 0) {
			if (id)
				set_dec(idx, &rows[k], id);
			continue;
		}
		if (!rows[k].dec) {
			if ((id = resolve_decoded(db, idx, rows[k].sig, NULL)) < 0)
				return dec_error(db);
			set_dec(idx, &rows[k], id);
			continue;
		}
		fresh[m] = (struct dec_new){ .sig = rows[k].sig, .vals = rows[k].dec };
		of[k] = (int)m++;
	}
	if ((r = store_dec_new(db, idx, fresh, m)) != SQLITE_OK)
		return r;
	for (unsigned f = 0; f < m; f++) {
		struct ras_db_dec_slot *slot = cache_slot(db, idx, fresh[f].sig);

		if (slot)
			*slot = (struct ras_db_dec_slot){ .sig = fresh[f].sig, .id = fresh[f].id };
	}
	for (unsigned k = 0; k < n; k++)
		if (of[k] >= 0)
			set_dec(idx, &rows[k], fresh[of[k]].id);
	return SQLITE_OK;
}

int ras_db_rows_store(struct ras_db *db, unsigned idx, unsigned n, const struct ras_db_row_job *rows)
{
	int r = n <= RAS_DB_ROWS_PER_INSERT ? resolve_rows(db, idx, n, rows) : SQLITE_MISUSE;

	return r == SQLITE_OK ? ras_db_store_rows(db, idx, n, rows) : r;
}

/*
 * The row id the next record of table idx takes in the open transaction, or
 * 0 outside one (SQLite picks). Read once per transaction: the writer alone
 * inserts while it is open.
 */
static int64_t next_row_id(struct ras_db *db, unsigned idx)
{
	char sql[512];

	if (!db->in_txn)
		return 0;
	if (db->next_id[idx])
		return db->next_id[idx];
	if (ras_db_sync(db) < 0)
		return -1;
	/* Past the id floor too: ids a purge or a limit took away are never handed out again. */
	if (ras_db_table_exists(db, "meta"))
		snprintf(sql, sizeof(sql), "SELECT max(coalesce((SELECT max(id) FROM %s), 0),"
			 " coalesce((SELECT value FROM meta WHERE key = 'id_floor:%s'), 0)) + 1",
			 ras_event_types[idx].table, ras_event_types[idx].table);
	else
		snprintf(sql, sizeof(sql), "SELECT coalesce(max(id), 0) + 1 FROM %s",
			 ras_event_types[idx].table);
	if (ras_db_int(db, sql, &db->next_id[idx]) < 0)
		return -1;
	return db->next_id[idx] > 0 ? db->next_id[idx] : -1;
}

/* Stores ev, or holds it for folding (db_fold_hold.c); 1 stored, 0 a duplicate, -EIO. */
static int store_or_hold(struct ras_db *db, const struct ras_db_event *ev, int64_t dec, int64_t *id)
{
	bool may_hold = *id && ras_db_hold_possible(ev);
	int r = may_hold ? ras_db_fold_note(db, ev, *id, dec, true) : 0;

	if (r != 0)
		return r < 0 ? -EIO : 1;
	r = ras_db_insert_row(db, ev, dec, id);
	/* Only the identity index may refuse a record: a reserved id already taken is an error. */
	if (r == 0 && !ras_db_may_be_duplicate(ev))
		return -EIO;
	if (r <= 0)
		return r;
	/* Noted after the insert: a duplicate ignored must not count toward a storm. */
	if (!may_hold && ras_db_fold_note(db, ev, *id, dec, false) < 0)
		return -EIO;
	return 1;
}

/*
 * Whether ev's row goes to the writer thread (db_writer.c): a live record in
 * an open transaction. A record the identity index may refuse is stored at
 * once, since the caller counts it as stored or not. With storm folding on,
 * the writer thread also makes folding's decision (db_fold_job.c).
 */
static bool deferrable(struct ras_db *db, const struct ras_db_event *ev)
{
	db->wb_engaged = db->wb && !ras_db_may_be_duplicate(ev);
	return db->wb_engaged && ras_db_deferring(db);
}

/* What the note of a record folding does not decide on needs (defer_event), for the writer thread. */
struct note_job {
	unsigned idx;
	int64_t id, wall_ns;
	struct ras_db_limits limits;   /* no fold_threshold: the note reads nothing else */
};

static int note_job(struct ras_db *db, const void *arg)
{
	struct note_job j;
	struct ras_db_event ev;

	memcpy(&j, arg, sizeof(j));
	ev = (struct ras_db_event){ .type_idx = j.idx, .wall_ns = j.wall_ns, .limits = &j.limits };
	return ras_db_fold_note(db, &ev, j.id, 0, false) < 0 ? SQLITE_NOMEM : SQLITE_OK;
}

/*
 * Folding off: the note only keeps the transaction's first id and newest
 * time, on this thread unless folding's state is the writer thread's now.
 */
static int note_unfolded(struct ras_db *db, const struct ras_db_event *ev, int64_t id)
{
	struct note_job j;

	if (!ev->limits || !db->fold_out)
		return ras_db_fold_note(db, ev, id, 0, false);
	j = (struct note_job){ .idx = ev->type_idx, .id = id, .wall_ns = ev->wall_ns, .limits = *ev->limits };
	return ras_db_defer_call(db, note_job, &j, sizeof(j));
}

/*
 * ev's row handed to the writer thread under its reserved id, with its
 * decoding's signature, and the decoding's values unless sent lately: the
 * writer thread finds the decoding's row, or stores it.
 */
static int defer_event(struct ras_db *db, const struct ras_db_event *ev, int64_t id, uint64_t sig)
{
	const struct ras_db_table *t = ras_db_table_of(ev->type_idx);
	struct ras_db_col_val row[RAS_DB_MAX_COLS], dec[RAS_DB_MAX_COLS];
	bool sent = decoding_sent(db, ev->type_idx, sig);

	ras_db_row_values(db, ev, 0, row);
	if (!sent)
		decoded_values(ev->type_idx, ev->decoded, dec);
	if (ras_db_defer_row(db, ev->type_idx, id, sig, row, t->ncols, dec, sent ? 0 : t->ndcols) < 0)
		return -EIO;
	return note_unfolded(db, ev, id) < 0 ? -EIO : 1;
}

/*
 * A record folding decides on, on the writer thread: its decoding's row
 * (its values read here from the decoded struct the job carries, when it
 * does), then held, folded or stored.
 */
static int fold_job(struct ras_db *db, const void *arg, const struct ras_db_col_val *vals, unsigned n)
{
	struct ras_db_col_val dec_vals[RAS_DB_MAX_COLS];
	const void *decoded;
	unsigned idx;
	uint64_t sig;
	int64_t dec;
	int r;

	(void)vals;
	(void)n;
	ras_db_fold_packed_of(arg, &idx, &sig, &decoded);
	if (decoded)
		decoded_values(idx, decoded, dec_vals);
	dec = resolve_decoded(db, idx, sig, decoded ? dec_vals : NULL);
	if (dec > 0 && ras_db_fold_run(db, arg, dec) == 0)
		return SQLITE_OK;
	r = sqlite3_errcode(db->h);
	return r != SQLITE_OK && r != SQLITE_DONE && r != SQLITE_ROW ? r : SQLITE_ERROR;
}

/*
 * ev (storm folding on) handed to the writer thread as folding's job: its
 * copy, and its decoded struct unless its decoding was sent lately (the
 * writer thread reads the decoding's values from it), packed in place in the
 * writer thread's chunk (once more in a fresh chunk when it did not fit the
 * one being filled). A source too long for the copy (none is) goes the way
 * of a record stored here: 0.
 */
static int defer_folded(struct ras_db *db, const struct ras_db_event *ev, int64_t id, uint64_t sig)
{
	int sent = -1;

	/* Before room is taken: making it ready syncs, which hands the chunk being filled over. */
	if (ras_db_fold_ready(db, ev->type_idx) < 0)
		return -EIO;
	for (int fresh = 0; fresh < 2; fresh++) {
		size_t room, len;
		uint8_t *p = ras_db_defer_vals_room(db, fresh, &room);
		int r = p ? ras_db_fold_pack(db, ev, id, sig, p, room, &len) : -ENOMEM;

		if (r == -ENAMETOOLONG) {
			/* Stored here: the next record's writes too (ras_db_deferring). */
			db->wb_engaged = false;
			return 0;
		}
		/* Asked once: asking marks the decoding sent. */
		if (r == 0 && sent < 0)
			sent = decoding_sent(db, ev->type_idx, sig);
		if (r == 0 && !sent)
			r = ras_db_fold_pack_decoded(db, ev, p, room, &len);
		if (r == -ENOSPC)
			continue;
		if (r < 0)
			return -EIO;
		/* Its table's rows handed over before it are stored first: it may name their decoding. */
		ras_db_defer_vals_put(db, ev->type_idx, fold_job, len);
		db->fold_out = true;
		return 1;
	}
	return -EIO;
}

/* Stores ev here (its decoding's row looked up or stored first): 1 stored, 0 a duplicate, -EIO. */
static int store_here(struct ras_db *db, const struct ras_db_event *ev, uint64_t sig, int64_t *id)
{
	int64_t dec;

	if (ras_db_sync(db) < 0)
		return -EIO;
	dec = decoded_id(db, ev->type_idx, sig, ev->decoded);
	*id = next_row_id(db, ev->type_idx);
	return dec < 0 || *id < 0 ? -EIO : store_or_hold(db, ev, dec, id);
}

int ras_db_insert_event(struct ras_db *db, const struct ras_db_event *ev)
{
	uint64_t sig = ras_db_decoded_sig(ras_db_table_of(ev->type_idx), ev->decoded);
	bool folded = ev->limits && ev->limits->fold_threshold;
	int64_t id;
	int r = 0;

	/*
	 * Where the signature's slots lie is known now; they are read after the
	 * record is packed: asked for first, a varied storm's cache misses
	 * (about one a table a record) overlap the packing.
	 */
	if (db->dec_sent[ev->type_idx])
		__builtin_prefetch(&db->dec_sent[ev->type_idx][sig % RAS_DB_DEC_CACHE]);
	ras_db_rollup_prefetch(db, ev, ev->boot ? ev->boot : db->boot, sig);

	if (ev->limits) {
		db->limits = *ev->limits;
		db->have_limits = true;
	}
	if (deferrable(db, ev)) {
		id = next_row_id(db, ev->type_idx);
		r = id < 0 ? -EIO : folded ? defer_folded(db, ev, id, sig) : defer_event(db, ev, id, sig);
	}
	if (r == 0)
		r = store_here(db, ev, sig, &id);
	if (r <= 0)
		return r;
	if (db->in_txn)
		db->next_id[ev->type_idx] = id + 1;
	if (ras_db_rollup_add(db, ev, ev->boot ? ev->boot : db->boot, sig) < 0)
		return -EIO;
	/* The record's id for the caller (ras_db_last_row_id). */
	db->last_event_id = id;
	return 1;
}

int ras_db_insert_lost(struct ras_db *db, const struct ras_db_lost *lost)
{
	struct ras_db_col_val v[7] = {
		ras_db_val_int(db->boot), ras_db_val_text(lost->instance), ras_db_val_int(lost->cpu),
		lost->count < 0 ? (struct ras_db_col_val){ .type = SQLITE_NULL } :
				  ras_db_val_int(lost->count),
		ras_db_val_int(lost->from_ns), ras_db_val_int(lost->to_ns),
		ras_db_val_text(lost->origin),
	};

	return ras_db_run(db, db->stmt[STMT_LOST], v, 7) < 0 ? -EIO : 0;
}

int ras_db_cpu_stats_get(struct ras_db *db, const char *instance, int cpu,
			 struct ras_db_cpu_stats *out)
{
	sqlite3_stmt *st = db->stmt[STMT_STATS_GET];
	int r;

	if (ras_db_sync(db) < 0)
		return -EIO;
	memset(out, 0, sizeof(*out));
	sqlite3_bind_int64(st, 1, db->boot);
	sqlite3_bind_text(st, 2, instance, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, cpu);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		out->overrun = (uint64_t)sqlite3_column_int64(st, 0);
		out->dropped = (uint64_t)sqlite3_column_int64(st, 1);
		out->ident = (uint64_t)sqlite3_column_int64(st, 2);
	}
	sqlite3_reset(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_cpu_stats_set(struct ras_db *db, const char *instance, int cpu,
			 const struct ras_db_cpu_stats *in)
{
	struct ras_db_col_val v[6] = {
		ras_db_val_int(db->boot), ras_db_val_text(instance), ras_db_val_int(cpu),
		ras_db_val_int((int64_t)in->overrun),
		ras_db_val_int((int64_t)in->dropped),
		ras_db_val_int((int64_t)in->ident),
	};

	return ras_db_run(db, db->stmt[STMT_STATS_SET], v, 6) < 0 ? -EIO : 0;
}

int ras_db_read_mark_get(struct ras_db *db, const char *instance, int cpu, uint64_t *read)
{
	sqlite3_stmt *st = db->stmt[STMT_MARK_GET];
	int r;

	if (ras_db_sync(db) < 0)
		return -EIO;
	*read = 0;
	sqlite3_bind_int64(st, 1, db->boot);
	sqlite3_bind_text(st, 2, instance, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, cpu);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW)
		*read = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return r == SQLITE_ROW ? 1 : r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_read_mark_set(struct ras_db *db, const char *instance, int cpu, uint64_t read)
{
	struct ras_db_col_val v[4] = {
		ras_db_val_int(db->boot), ras_db_val_text(instance), ras_db_val_int(cpu),
		ras_db_val_int((int64_t)read),
	};

	return ras_db_run(db, db->stmt[STMT_MARK_SET], v, 4) < 0 ? -EIO : 0;
}

int ras_db_counter_add(struct ras_db *db, const char *name, int64_t delta)
{
	struct ras_db_col_val v[2] = { ras_db_val_text(name), ras_db_val_int(delta) };

	return ras_db_run(db, db->stmt[STMT_COUNTER_ADD], v, 2) < 0 ? -EIO : 0;
}
