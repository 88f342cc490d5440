/* SPDX-License-Identifier: MIT */
/*
 * The decoders' hot routines against the ones they replaced (frozen below,
 * as they were at integ 7e6fe69), on random input: kernel text of every
 * length with NULs, controls, DEL and high bytes anywhere, cut by either
 * bound. Both must leave every byte of the destination the same.
 * A fixed seed: the same inputs at every run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/other_util.h"
#include "tests/tap.h"

#define ROUNDS 200000

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned below(unsigned n)
{
	return (unsigned)(next() % n);
}

/* ---- frozen: decoders/other_util.c ou_copy at 7e6fe69 ---- */
static inline int ref_word_has_unsafe(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
	uint64_t below = (w - 0x20 * ones) & ~w & high;
	uint64_t above = ((w + ones) | w) & high;

	return (below | above) != 0;
}

static void ref_ou_copy(char *dst, size_t len, const char *src, size_t src_len)
{
	size_t n = 0, i = 0;

	if (!dst || len == 0)
		return;
	if (src)
		n = strnlen(src, src_len < len - 1 ? src_len : len - 1);
	memcpy(dst, src ? src : "", n);
	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, dst + i, 8);
		if (!ref_word_has_unsafe(w))
			continue;
		for (size_t j = i; j < i + 8; j++) {
			unsigned char c = (unsigned char)dst[j];

			dst[j] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
		}
	}
	if (i < n && n >= 8) {
		uint64_t w;

		memcpy(&w, dst + n - 8, 8);
		if (!ref_word_has_unsafe(w))
			i = n;
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)dst[i];

		dst[i] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	dst[n] = '\0';
}
/* ---- end of frozen code ---- */

/* A byte of kernel text: mostly printable, now and then one of each kind that is not. */
static char text_byte(unsigned odd)
{
	unsigned r = below(1000);

	if (r < odd)
		return (char)(below(4) == 0 ? 0 : below(3) == 0 ? 0x7f : below(2) ? below(0x20) : 0x80 + below(0x80));
	return (char)(0x20 + below(0x5f));
}

static void fill_text(char *s, size_t n)
{
	/* Some texts all printable, some with a bad byte in a few hundred, some full of them. */
	unsigned odd = below(3) == 0 ? 0 : below(2) ? 5 : 300;

	for (size_t i = 0; i < n; i++)
		s[i] = text_byte(odd);
	/* Most end with their NUL, as a tracepoint's __string does. */
	if (n && below(4))
		s[below((unsigned)n)] = '\0';
}

static void test_ou_copy(void)
{
	static char src[1300], a[1100], b[1100];
	int differ = 0, len_wrong = 0;

	for (int round = 0; round < ROUNDS; round++) {
		size_t src_len = below(4) ? below(80) : below(1200);
		size_t len = below(3) ? 1 + below(64) : 1 + below(sizeof(a));
		unsigned at = below(16);
		/* The text alone in a block of its size: a sanitizer sees any read past it. */
		char *own = malloc(src_len ? src_len : 1);
		const char *from = below(50) ? own : NULL;
		size_t got;
		char pad = (char)below(256);

		fill_text(src + at, src_len);
		memcpy(own, src + at, src_len);
		memset(a, pad, sizeof(a));
		memset(b, pad, sizeof(b));
		ref_ou_copy(a, len, from, src_len);
		got = ou_copy(b, len, from, src_len);
		if (memcmp(a, b, sizeof(a)) && differ++ < 3)
			tap_diag("ou_copy differs: len %zu, src_len %zu, at %u", len, src_len, at);
		if (got != strlen(b) && len_wrong++ < 3)
			tap_diag("ou_copy returned %zu for \"%s\"", got, b);
		free(own);
	}
	tap_is_int(differ, 0, "ou_copy writes what the two-pass copy wrote (%d texts)", ROUNDS);
	tap_is_int(len_wrong, 0, "ou_copy returns the length it wrote");
	tap_is_int((long long)ou_copy(a, 0, "x", 1), 0, "ou_copy into no room writes nothing");
}

int main(void)
{
	test_ou_copy();
	return tap_done();
}
