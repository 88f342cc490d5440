/* SPDX-License-Identifier: MIT */
/* Storm folding and the raw-record limits (db_fold.c); internal to db/. */
#ifndef RAS_DB_FOLD_H
#define RAS_DB_FOLD_H

#include "db_internal.h"

/*
 * Notes a record stored (or, with may_hold, about to be stored) as row id with
 * decoding dec: it may start or go on folding its subject's storm. Returns 1
 * when the record is held (db_fold_hold.c: the caller inserts nothing), 0
 * when the caller inserts it (or has), or -errno.
 */
int ras_db_fold_note(struct ras_db *db, const struct ras_db_event *ev, int64_t id, int64_t dec,
		     bool may_hold);
/*
 * Folding's state and table idx's statements made ready on the caller's
 * thread (it syncs first, once per table): the event loop then packs the
 * table's records with the held copies' plan. 0 or -errno. Before
 * ras_db_fold_pack, and before room is taken in the writer thread's chunk
 * for it: the sync hands that chunk over.
 */
int ras_db_fold_ready(struct ras_db *db, unsigned idx);
/*
 * A record folding decides on (its table ready), handed to the writer
 * thread (db_fold_job.c, on the event loop's): packed into buf's cap bytes
 * (the writer thread's chunk, handed over in place) with its row id and decoding
 * signature sig, its length in *len; 0 or -errno (a source too long for a
 * copy: -ENAMETOOLONG; cap too small: -ENOSPC). The fold columns are not
 * computed here: the writer thread computes them from the copy if it folds
 * the record.
 */
int ras_db_fold_pack(struct ras_db *db, const struct ras_db_event *ev, int64_t id, uint64_t sig,
		     uint8_t *buf, size_t cap, size_t *len);
/* Adds ev's decoded struct to the record packed in buf (its decoding's values not sent lately): 0, -ENOSPC. */
int ras_db_fold_pack_decoded(struct ras_db *db, const struct ras_db_event *ev, uint8_t *buf,
			     size_t cap, size_t *len);
/* The table, decoding signature and decoded struct (NULL: not carried) of a packed record. */
void ras_db_fold_packed_of(const void *packed, unsigned *idx, uint64_t *sig, const void **decoded);
/* On the writer thread: the packed record, of decoding dec, held, folded or stored. 0 or -errno. */
int ras_db_fold_run(struct ras_db *db, const void *packed, int64_t dec);
/* Inside the transaction, before COMMIT: applies the size and age limits, writes the folds. */
int ras_db_fold_flush(struct ras_db *db);
/* The limits the last record brought (NULL: none yet). */
const struct ras_db_limits *ras_db_fold_limits(const struct ras_db *db);
/* Whether the commit has folding to do: storm folding on, or folds or rows to fold waiting. */
bool ras_db_fold_busy(const struct ras_db *db);
/* After COMMIT: this transaction's rows may be folded from now on. */
void ras_db_fold_committed(struct ras_db *db);
/* The transaction was rolled back: forget what it folded and every storm's held rows. */
void ras_db_fold_discard(struct ras_db *db);
void ras_db_fold_free(struct ras_db *db);
/* Between transactions: frees the batch's slots (allocated again by the next fold). */
void ras_db_fold_trim(struct ras_db *db);
size_t ras_db_fold_slot_bytes(const struct ras_db *db);
/*
 * Rows committed earlier that wait for their subject's to fold together, and
 * their folding, inside the caller's transaction (ras_db_fold_settle, db_txn.c).
 */
bool ras_db_fold_waiting(const struct ras_db *db);
int ras_db_fold_release_waiting(struct ras_db *db);
/* Folds up to a batch of the oldest raw rows of table idx stored before before_ns (committed ones). */
int ras_db_fold_oldest(struct ras_db *db, unsigned idx, int64_t before_ns);
typedef int (*ras_db_fold_oldest_fn)(struct ras_db *db, unsigned idx, int64_t before_ns);
/*
 * Inside the transaction: folds what the age and size limits l say must go
 * (db_fold_limits.c), with fold_oldest (ras_db_fold_oldest).
 */
int ras_db_fold_apply_limits(struct ras_db *db, const struct ras_db_limits *l, int64_t newest_ns,
			     ras_db_fold_oldest_fn fold_oldest);
/* ---- held records (db_fold_hold.c) ---- */
struct ras_db_hold;
/* Whether ev may be held: folding is on and it can never be a duplicate (no identity index). */
bool ras_db_hold_possible(const struct ras_db_event *ev);
/* Holds a copy of ev under the reserved row id: 1 held, 0 its table holds none, or -errno. */
int ras_db_hold_add(struct ras_db_hold *h, const struct ras_db_event *ev, int64_t id, int64_t dec);
/*
 * The event loop's side of a record folding decides on the writer thread
 * (db_fold_job.c): ev's held copy packed at *buf + at (*buf grown as
 * needed), its length in *bytes: its columns and values, and what its fold
 * columns read, not the columns themselves. 0, or -errno (a source too long
 * for a copy: -ENAMETOOLONG).
 */
int ras_db_hold_pack(const struct ras_db_hold *h, const struct ras_db_event *ev, uint8_t **buf,
		     size_t *cap, size_t at, size_t *bytes);
/* The same into buf's cap bytes, never grown (the writer thread's chunk): -ENOSPC when it does not fit. */
int ras_db_hold_pack_in(const struct ras_db_hold *h, const struct ras_db_event *ev, uint8_t *buf,
			size_t cap, size_t at, size_t *bytes);
/* The writer thread's: holds a copy of the packed record as row id, decoding dec: 1, 0 (its table holds none), -errno. */
int ras_db_hold_put_packed(struct ras_db_hold *h, unsigned idx, int64_t id, int64_t dec,
			   const void *packed, size_t bytes);
/*
 * Stores the packed record as row id with decoding dec, not held: gathered
 * with its table's next ones into one INSERT (ras_db_store_rows), stored by
 * the RAS_DB_ROWS_PER_INSERT-th or by ras_db_fold_store_unheld. 0 or -errno.
 */
int ras_db_hold_insert_packed(struct ras_db *db, struct ras_db_hold *h, unsigned idx, int64_t id,
			      int64_t dec, const void *packed, size_t bytes);
/*
 * Stores the records gathered by ras_db_hold_insert_packed (the writer
 * thread's db->unheld_store: before anything reads their tables, as its own
 * gathered rows): SQLITE_OK or SQLite's code. They are dropped either way.
 */
int ras_db_fold_store_unheld(struct ras_db *db);
/* *hp allocated if it is not: 0 or -ENOMEM. */
int ras_db_hold_state(struct ras_db_hold **hp);
/* Inserts every record still held under its reserved id (before COMMIT). */
int ras_db_hold_store(struct ras_db *db, struct ras_db_hold *h);
/* Forgets every held record (a rollback). */
void ras_db_hold_clear(struct ras_db_hold *h);
void ras_db_hold_free(struct ras_db_hold *h);
/* Writes one zigzag varint of a second's difference to the previous one; returns its bytes (<= 10). */
size_t ras_db_fold_put_delta(uint8_t *out, int64_t delta);
/* Adds the next zigzag varint at *p (before end) to *acc and moves past it; false at the end. */
bool ras_db_fold_next_delta(const uint8_t **p, const uint8_t *end, int64_t *acc);
/* The bytes of a times blob that hold seconds: the rest is padding (db_fold_times.c). */
size_t ras_db_fold_times_used(const uint8_t *times, size_t len);
/* The size to store used bytes of seconds in; pads from used to it. */
size_t ras_db_fold_times_pad(uint8_t *times, size_t used, size_t stored_len);
/* The SQL functions the folded-record queries use (every connection, reader or writer). */
int ras_db_fold_register(sqlite3 *h);

#endif
