/* SPDX-License-Identifier: MIT */
/*
 * A threshold subject's hash (rasd/actions*.c): the buckets cache's slot,
 * the subjects seen once (once_seen.h), the filter of stored buckets and the
 * spill all take it. In memory only (the filter is rebuilt at open, the
 * spill is a temporary table), so it may change between versions. Eight
 * bytes a step, not one: at a varied storm's rate hashing a byte at a time
 * was a third of the counting's own instructions (issue 39).
 */
#ifndef RASD_ACTIONS_HASH_H
#define RASD_ACTIONS_HASH_H

#include <stdint.h>
#include <string.h>
#include "lib/subject.h"

static inline uint64_t actions_subject_hash(enum ras_subject_kind kind, const char *key)
{
	size_t len = strlen(key);
	uint64_t h = (0x9e3779b97f4a7c15ULL * ((uint64_t)kind + 1)) ^ len, w = 0;

	for (; len >= 8; len -= 8, key += 8) {
		memcpy(&w, key, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	for (unsigned shift = 0; len > 0; len--, shift += 8)
		w |= (uint64_t)(unsigned char)*key++ << shift;
	/* The last bytes, then every bit of the key into the low ones (the slots) and the high (the filter). */
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

#endif
