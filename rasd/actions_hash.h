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

static inline uint64_t actions_hash_word(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/*
 * A key's hash from a seed; the diagnosis's parts (health.c) take it too,
 * with a seed of their own.
 */
static inline uint64_t actions_key_hash(uint64_t seed, const char *key)
{
	size_t len = strlen(key);
	uint64_t h = seed ^ len, w;
	const char *end = key + len;

	for (; end - key > 8; key += 8) {
		h = (h ^ actions_hash_word(key)) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	/* The last bytes: a word ending at the end (it may overlap the one before), or less. */
	if (len >= 8) {
		w = actions_hash_word(end - 8);
	} else if (len >= 4) {
		uint32_t lo, hi;

		memcpy(&lo, key, 4);
		memcpy(&hi, end - 4, 4);
		w = (uint64_t)hi << 32 | lo;
	} else {
		w = len ? (uint64_t)(unsigned char)key[0] << 16 | (uint64_t)(unsigned char)key[len / 2] << 8 |
			  (unsigned char)end[-1] : 0;
	}
	/* Then every bit of the key into the low ones (the slots) and the high (the filter). */
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static inline uint64_t actions_subject_hash(enum ras_subject_kind kind, const char *key)
{
	return actions_key_hash(0x9e3779b97f4a7c15ULL * ((uint64_t)kind + 1), key);
}

#endif
