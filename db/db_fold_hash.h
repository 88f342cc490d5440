/* SPDX-License-Identifier: MIT */
/*
 * A fold key's hash (table, hour, subject and the folded row's key columns),
 * inline: it runs for every folded record whose subject's last entry is not
 * its key's. It names the batch's places (db_fold_entries.c) and the known
 * rows (db_fold_write.c), whose keys are compared in full: any good spread
 * will do. Included by db_fold_entries.c only. tests/test-fold-collide
 * builds db_fold_entries.c with its own header in this one's place
 * (tests/fold_collide_hash.h, taken first under this guard), whose hash of
 * every key is one value.
 * Internal to db/.
 */
#ifndef RAS_DB_FOLD_HASH_H
#define RAS_DB_FOLD_HASH_H

#include <stdint.h>
#include <string.h>
#include "db_fold_internal.h"

/*
 * n bytes of s mixed into h eight at a time, the tail with its length: a key
 * hashed byte by byte (FNV-1a) was 825 M of the writer thread's instructions
 * on make bench's 1M-record stream, about 880 a folded record. Not inlined,
 * as when it was db_fold_entries.c's own: the compiler keeps one copy for
 * its six calls, and rasd's code is the same as before the move. (Inlined,
 * the calls' few instructions a key would go: for a speed round to weigh.)
 * Marked unused: a header's plain static would warn, an error under
 * -Werror, in any includer that did not call it.
 */
static __attribute__((unused)) uint64_t key_mix(uint64_t h, const char *s, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15ULL;
	uint64_t w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	/* The last 1 to 7 bytes as two loads that may overlap (a memcpy of n bytes went byte by byte). */
	if (n >= 4) {
		uint32_t lo, hi;

		memcpy(&lo, s, 4);
		memcpy(&hi, s + n - 4, 4);
		w = lo | (uint64_t)hi << 32;
	} else {
		w = n ? (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8 |
			(uint64_t)(unsigned char)s[n - 1] << 16 : 0;
	}
	h = (h ^ w ^ (uint64_t)n << 56) * k;
	return h ^ h >> 29;
}

static inline uint64_t ras_db_fold_key_hash(unsigned idx, int64_t hour, const char *subject,
					    const struct folded_row *r)
{
	const uint64_t k = 0xff51afd7ed558ccdULL;
	uint64_t h = (0xcbf29ce484222325ULL ^ idx) * k;

	h = (h ^ (uint64_t)hour) * k;
	h = (h ^ (uint64_t)r->boot) * k;
	h = (h ^ (uint64_t)r->key_dec) * k;
	h = (h ^ ((uint64_t)(unsigned)r->synthetic << 32 | (unsigned)r->fresh)) * k;
	h = key_mix(h, subject, strlen(subject));
	h = key_mix(h, r->source, strlen(r->source));
	h = key_mix(h, r->severity, strlen(r->severity));
	h = key_mix(h, r->location, strlen(r->location));
	h = key_mix(h, r->ekey, strlen(r->ekey));
	h = key_mix(h, r->dims, strlen(r->dims));
	/* The places take the low bits: the high ones folded down. */
	h ^= h >> 33;
	h *= k;
	h ^= h >> 33;
	return h;
}

#endif
