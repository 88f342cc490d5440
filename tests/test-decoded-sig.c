/* SPDX-License-Identifier: MIT */
/*
 * A decoding's signature is the key of its stored row (<table>_dec): its
 * value must never change. db/db_sig.h finds a text's length in the words it
 * hashes instead of a strlen pass first; here it is held against a frozen
 * copy of the first form (decoded_sig as db/db_insert.c had it) on random
 * sig plans over random structs: texts of length 0, 7, 8, 9, random, their
 * array's size less one, and filling their array (running on into the next
 * member), arrays of every size from 1 to 40 and the location's; junk after
 * each NUL. Then on every event table's own plan over random decodings.
 * And the cache of the decodings handed to the writer thread (ras_db_sig_sent)
 * against its first search, on homes crowded past their ways.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_internal.h"
#include "db/db_sig.h"
#include "lib/event_table.h"
#include "rng.h"
#include "tap.h"

#define RUNS 20000
#define BUF 8192

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	return rng_next(&rng);
}

/* Frozen: decoded_sig as it was first stored (db/db_insert.c, integ c7d8690). */
static uint64_t old_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xff51afd7ed558ccdULL;
	return h ^ (h >> 32);
}

static uint64_t old_decoded_sig(const struct ras_db_table *t, const void *decoded)
{
	uint64_t h = 0x84222325cbf29ce4ULL;

	for (unsigned i = 0; i < t->ndcols; i++) {
		const struct ras_db_sig_col *c = &t->sig[i];
		const char *s = (const char *)decoded + c->offset, *end = s + c->size;
		uint64_t w;
		size_t n;

		if (c->is_int) {
			int64_t v;

			memcpy(&v, s, sizeof(v));
			h = old_mix(h, (uint64_t)v);
			continue;
		}
		n = strlen(s);
		h = old_mix(h, n);
		for (; n >= 8; n -= 8, s += 8) {
			memcpy(&w, s, 8);
			h = old_mix(h, w);
		}
		if (!n)
			continue;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (end - s >= 8) {
			memcpy(&w, s, 8);
			h = old_mix(h, w & (~0ULL >> (64 - 8 * n)));
			continue;
		}
#endif
		w = 0;
		memcpy(&w, s, n);
		h = old_mix(h, w);
	}
	return h;
}

/* Frozen: decoding_sent's search as it was (db/db_insert.c, integ c7d8690). */
static bool old_sig_sent(uint64_t *sent, uint64_t sig)
{
	size_t home = (size_t)(sig % RAS_DB_DEC_CACHE), slot = home;

	if (!sig)
		return false;
	for (size_t w = RAS_DB_DEC_WAYS; w-- > 0;) {
		size_t i = (home + w) % RAS_DB_DEC_CACHE;

		if (sent[i] == sig)
			return true;
		if (!sent[i])
			slot = i;
	}
	sent[slot] = sig;
	return false;
}

/* A text's length in an array of size bytes: the edges more often than not. */
static size_t some_len(size_t size)
{
	static const size_t edge[] = { 0, 7, 8, 9, 15, 16, 17 };
	size_t e = edge[next() % 7];

	switch (next() % 4) {
	case 0:
		return e < size ? e : 0;
	case 1:
		return size - 1;
	case 2:
		return next() % 8 ? next() % size : size;   /* size: no NUL in its array */
	default:
		return next() % size;
	}
}

/* A text of len non-NUL bytes at s (array of size), NUL, then junk (NULs too) to its end. */
static void some_text(char *s, size_t size, size_t len)
{
	for (size_t i = 0; i < size; i++)
		s[i] = (char)(i < len ? 1 + next() % 255 : i == len ? 0 : next() % 3 ? (int)(next() & 0xff) : 0);
}

/* A random plan over buf: members laid one after another, some misaligned, the last NUL-ended. */
static void some_plan(struct ras_db_table *t, char *buf)
{
	size_t at = next() % 8;

	memset(t, 0, sizeof(*t));
	t->ndcols = 1 + (unsigned)(next() % 12);
	for (unsigned i = 0; i < t->ndcols; i++) {
		bool is_int = next() % 3 == 0;
		size_t size = is_int ? 8 : next() % 6 == 0 ? RAS_LOCATION_LEN : 1 + next() % 40;

		t->sig[i] = (struct ras_db_sig_col){ (uint32_t)at, (uint32_t)size, is_int };
		if (is_int)
			for (size_t k = 0; k < 8; k++)
				buf[at + k] = (char)next();
		else
			some_text(buf + at, size, some_len(size));
		at += size + (next() % 4 == 0 ? next() % 9 : 0);
	}
	buf[at] = 0;   /* a text filling its array runs on: never past the buffer */
}

int main(void)
{
	static char buf[BUF];
	static uint64_t a[RAS_DB_DEC_CACHE], b[RAS_DB_DEC_CACHE];
	struct ras_db_table t;
	unsigned bad = 0, bad_tables = 0, differ = 0;

	for (unsigned run = 0; run < RUNS; run++) {
		memset(buf, 0, sizeof(buf));
		some_plan(&t, buf);
		if (ras_db_decoded_sig(&t, buf) != old_decoded_sig(&t, buf))
			bad++;
	}
	tap_ok(bad == 0, "random plans: the signature as before (%u of %u differ)", bad, RUNS);

	for (unsigned idx = 0; idx < ras_n_event_types; idx++) {
		const struct ras_db_table *tt = ras_db_table_of(idx);

		for (unsigned run = 0; run < 500; run++) {
			for (size_t i = 0; i < BUF; i++)
				buf[i] = (char)(next() % 4 ? 0 : next());
			for (unsigned i = 0; i < tt->ndcols; i++)
				if (!tt->sig[i].is_int)
					some_text(buf + tt->sig[i].offset, tt->sig[i].size,
						  next() % 4 ? some_len(tt->sig[i].size) % tt->sig[i].size
							     : tt->sig[i].size - 1);
			if (ras_db_decoded_sig(tt, buf) != old_decoded_sig(tt, buf))
				bad_tables++;
		}
	}
	tap_ok(bad_tables == 0, "every table's plan: the signature as before (%u differ)", bad_tables);

	/* The decodings sent lately: the same answers, the same slots, homes crowded on purpose. */
	for (unsigned round = 0; round < 50; round++) {
		unsigned homes = 1 + (unsigned)(next() % 8), span = 1 + (unsigned)(next() % 12);

		if (round % 10 == 0) {
			memset(a, 0, sizeof(a));   /* a rollback */
			memset(b, 0, sizeof(b));
		}
		for (unsigned k = 0; k < 4000; k++) {
			/* A few homes near the end (wrapping), each a few signatures. */
			uint64_t sig = (RAS_DB_DEC_CACHE - 4 + next() % homes) % RAS_DB_DEC_CACHE +
				       (uint64_t)RAS_DB_DEC_CACHE * (next() % span);

			if (next() % 50 == 0)
				sig = next() % 3 ? next() : 0;
			if (ras_db_sig_sent(a, sig) != old_sig_sent(b, sig))
				differ++;
		}
		if (memcmp(a, b, sizeof(a)))
			differ++;
	}
	tap_ok(differ == 0, "the decodings sent: as before (%u differ)", differ);
	return tap_done();
}
