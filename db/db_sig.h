/* SPDX-License-Identifier: MIT */
/*
 * A decoding's signature (decoded_sig, db/db_insert.c): the key of its row in
 * <table>_dec, so stored; its value must never change, only what it costs.
 * And the signatures whose decodings were handed to the writer thread.
 * Here so that tests/test-decoded-sig can hold it against a frozen copy of
 * the first form. Internal to db/.
 */
#ifndef RAS_DB_SIG_H
#define RAS_DB_SIG_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "db_internal.h"

static inline uint64_t ras_db_sig_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xff51afd7ed558ccdULL;
	return h ^ (h >> 32);
}

/*
 * A text of n bytes at *s into h: its length, then its whole words. *s and *n
 * are left at the last bytes (fewer than eight), which each caller mixes as
 * its array allows. The one loop of both ways a text is read, so that they
 * cannot come to differ. Always inlined: inlined late (gcc 12 -O2), it moved
 * ras_db_insert_event's registers, five more instructions a record; inlined
 * early, rasd's code is what it was with the loop written out twice.
 */
static inline __attribute__((always_inline)) uint64_t
ras_db_sig_words(uint64_t h, const char **s, size_t *n)
{
	uint64_t w;

	h = ras_db_sig_mix(h, *n);
	for (; *n >= 8; *n -= 8, *s += 8) {
		memcpy(&w, *s, 8);
		h = ras_db_sig_mix(h, w);
	}
	return h;
}

/*
 * The last n bytes (1 to 7) at s as one word, read whole and masked: only
 * where the array holds eight bytes there. Little-endian, where it is the
 * same word as copying the n bytes alone.
 */
static inline uint64_t ras_db_sig_last_masked(uint64_t h, const char *s, size_t n)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return ras_db_sig_mix(h, w & (~0ULL >> (64 - 8 * n)));
}

/*
 * A text member [s, end) into h the general way: its length (strlen: a text
 * that fills its array runs on into the next member, as it always did), its
 * whole words, then its last bytes as one word: read as a word masked when
 * the array holds eight bytes there, which is the same word as copying them.
 */
static inline uint64_t ras_db_sig_text_general(uint64_t h, const char *s, const char *end)
{
	size_t n = strlen(s);
	uint64_t w;

	h = ras_db_sig_words(h, &s, &n);
	if (!n)
		return h;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - s >= 8)
		return ras_db_sig_last_masked(h, s, n);
#else
	(void)end;
#endif
	w = 0;
	memcpy(&w, s, n);
	return ras_db_sig_mix(h, w);
}

/*
 * Where the first NUL of the array [s, end) is, looked for sixteen bytes at a
 * time (SSE2, every x86-64 has it), then eight, over the bytes the array
 * holds whole; SIZE_MAX when not there (none, or only in its last bytes).
 * Instead of a strlen call: short texts are most, and its call costs more
 * than one block here.
 */
static inline size_t ras_db_sig_nul(const char *s, const char *end)
{
	const char *p = s;
#ifdef __SSE2__
	const __m128i zero = _mm_setzero_si128();

	for (; end - p >= 16; p += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), zero));

		if (m)
			return (size_t)(p - s) + (unsigned)__builtin_ctz(m);
	}
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; end - p >= 8; p += 8) {
		uint64_t w, z;

		memcpy(&w, p, 8);
		/* The lowest byte flagged is the first NUL (a borrow only flags bytes above one). */
		z = (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
		if (z)
			return (size_t)(p - s) + ((unsigned)__builtin_ctzll(z) >> 3);
	}
#endif
	return SIZE_MAX;
}

/*
 * The same words as the general way, the length found by ras_db_sig_nul: the
 * NUL is then within a whole word of the array, so the last bytes are read
 * as one word masked, as the general way reads them there.
 */
static inline uint64_t ras_db_sig_text(uint64_t h, const char *s, const char *end)
{
	size_t n = ras_db_sig_nul(s, end);

	if (n == SIZE_MAX)
		return ras_db_sig_text_general(h, s, end);
	h = ras_db_sig_words(h, &s, &n);
	if (!n)
		return h;
	return ras_db_sig_last_masked(h, s, n);
}

/*
 * Identity of a decoding: a hash over every stored decoded value, eight bytes
 * at a time. Read by the table's sig plan (each column's member, found once
 * in db/db_columns.c): an integer as its word, a text as its length and words.
 */
static inline uint64_t ras_db_decoded_sig(const struct ras_db_table *t, const void *decoded)
{
	uint64_t h = 0x84222325cbf29ce4ULL;

	for (unsigned i = 0; i < t->ndcols; i++) {
		const struct ras_db_sig_col *c = &t->sig[i];
		const char *s = (const char *)decoded + c->offset;

		if (c->is_int) {
			int64_t v;

			memcpy(&v, s, sizeof(v));
			h = ras_db_sig_mix(h, (uint64_t)v);
			continue;
		}
		h = ras_db_sig_text(h, s, s + c->size);
	}
	return h;
}

/*
 * Whether signature sig is in sent (RAS_DB_DEC_CACHE slots, RAS_DB_DEC_WAYS
 * ways from its home), put there if not (db_insert.c: the decodings handed
 * to the writer thread lately). Nothing is remembered of signature 0, which
 * marks a free slot. A signature goes to the first free of its ways (all
 * taken: its home), and a slot is only ever freed with all of them (a
 * rollback): the ways before one that holds a signature are taken, so the
 * search stops at the first free one, and a storm's repeated decoding is
 * found at its home at once (the ways were searched from the last, all four
 * every time: the same answers, tests/test-decoded-sig).
 */
static inline bool ras_db_sig_sent(uint64_t *sent, uint64_t sig)
{
	size_t home = (size_t)(sig % RAS_DB_DEC_CACHE);

	if (!sig)
		return false;
	for (size_t w = 0; w < RAS_DB_DEC_WAYS; w++) {
		size_t i = (home + w) % RAS_DB_DEC_CACHE;

		if (sent[i] == sig)
			return true;
		if (!sent[i]) {
			sent[i] = sig;
			return false;
		}
	}
	sent[home] = sig;
	return false;
}

#endif
