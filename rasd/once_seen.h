/* SPDX-License-Identifier: MIT */
/*
 * Subjects seen once: a threshold subject with a single record and no stored
 * bucket is kept here as its key's hash, the record's time and the errors it
 * reported, instead of a bucket row. Most subjects of a varied storm (a new page, a new row per
 * record) are never seen again, and one bucket row per record was most of
 * rasd's cost per record. A second error makes the subject a full bucket,
 * replaying the first. The set is bounded; an entry whose errors have leaked
 * out of its bucket (n times its kind's period / count later) may be dropped, since
 * it can no longer bring a threshold closer. When the set is full of
 * errors still leaking, adding fails and the caller spills the subject to
 * the database's temporary table (db_actions.h ras_db_once_spill_add).
 *
 * Changes of a transaction are logged and undone by a rollback, so records
 * given again after it count once. Pure memory: no database, no clock.
 */
#ifndef RASD_ONCE_SEEN_H
#define RASD_ONCE_SEEN_H

#include <stddef.h>
#include <stdint.h>

#define RAS_ONCE_SEEN_TAGS 8      /* the caller's kinds: each with its own leak time */
#define RAS_ONCE_SEEN_MAX_N 63    /* the most errors an entry holds */

struct ras_once_seen;

/* A set for at most max_entries (rounded to a power of two); it starts small. */
int ras_once_seen_new(struct ras_once_seen **out, size_t max_entries);
void ras_once_seen_free(struct ras_once_seen *o);
/* How long after its error an entry of this tag has leaked out (0: never). */
void ras_once_seen_set_leak(struct ras_once_seen *o, unsigned tag, int64_t leak_ns);
/* 1, the record's time and its errors when (tag, hash) is held (it is taken out), else 0. */
int ras_once_seen_take(struct ras_once_seen *o, unsigned tag, uint64_t hash, int64_t *wall_ns,
		       unsigned *n);
/* Brings (tag, hash)'s first slot into the cache, for a take or an add soon after. */
void ras_once_seen_prefetch(const struct ras_once_seen *o, unsigned tag, uint64_t hash);
/*
 * Holds (tag, hash) with its record's time and n errors (at least 1). now_ns,
 * the newest time seen, decides what has leaked out when room is needed. 0;
 * -ENOSPC when full of errors still leaking, or n is over RAS_ONCE_SEEN_MAX_N;
 * -ENOMEM. A failed add changes nothing. Hashes are told apart by their low
 * 55 bits.
 */
int ras_once_seen_add(struct ras_once_seen *o, unsigned tag, uint64_t hash, int64_t wall_ns,
		      unsigned n, int64_t now_ns);
/*
 * Between transactions: drops what has leaked out by now_ns and gives back
 * the memory of a set grown for a storm (freed when empty; shrunk to at
 * most half full when under a quarter). Scans the whole set: rate-limit it.
 * 0 or -ENOMEM (the set unchanged).
 */
int ras_once_seen_trim(struct ras_once_seen *o, int64_t now_ns);
size_t ras_once_seen_count(const struct ras_once_seen *o);
/* The memory its slots take; RAS_ONCE_SEEN_FIRST_BYTES until it first grows. */
#define RAS_ONCE_SEEN_FIRST_BYTES (1024 * 16)
size_t ras_once_seen_bytes(const struct ras_once_seen *o);
/* The open transaction's changes are kept (committed) or undone (rolled back). */
void ras_once_seen_committed(struct ras_once_seen *o);
/* The changes so far (a commit handed over), and: those are committed, the later ones stay open. */
size_t ras_once_seen_mark(const struct ras_once_seen *o);
void ras_once_seen_committed_to(struct ras_once_seen *o, size_t mark);
void ras_once_seen_rolled_back(struct ras_once_seen *o);
/* Forgets everything (the buckets are being rebuilt from the records). */
void ras_once_seen_clear(struct ras_once_seen *o);

#endif
