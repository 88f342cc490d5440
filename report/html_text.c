/* SPDX-License-Identifier: MIT */
/*
 * Stored text as HTML, by lib/text.h's one rule of what is data and what
 * could act: a plain character is written as it is, the five that HTML
 * reads as markup as entities; a control character (lib/text.c's list:
 * C0, DEL, C1, the line separators, the bidirectional overrides) and a byte
 * that is not UTF-8 as a numeric reference a reader sees: C0 as its visible
 * picture (U+2400 + c, tab and newline kept), every other one by its code
 * point (an invalid byte by its value), so nothing can reorder or hide what
 * follows it on the page.
 */
#include <string.h>
#include "lib/text.h"
#include "report.h"

/*
 * The text gathered and written in pieces of 16 KiB: a --part's records are
 * 190 MB of HTML with an entity every few bytes (a JSON line's quotes), one
 * stdio call each took a fifth of the report. SLACK: a step writes at most
 * that much past OUT_ROOM (a block of 16 bytes of quotes, 96 bytes, and the
 * 16 stored whole after its last), so it is checked once a step.
 */
#define OUT_ROOM 16384
#define OUT_SLACK 256

struct out {
	FILE *f;
	size_t n;
	char b[OUT_ROOM + OUT_SLACK];
};

static inline void make_room(struct out *o)
{
	if (o->n >= OUT_ROOM) {
		fwrite(o->b, 1, o->n, o->f);
		o->n = 0;
	}
}

/* "&#x2400;": a numeric reference in lowercase hex (at most 10 bytes). */
static void put_ref(struct out *o, uint32_t cp)
{
	char tmp[16], *e = tmp + sizeof(tmp), *p = e;

	*--p = ';';
	do {
		*--p = "0123456789abcdef"[cp & 0xf];
		cp >>= 4;
	} while (cp);
	*--p = 'x';
	*--p = '#';
	*--p = '&';
	memcpy(o->b + o->n, p, (size_t)(e - p));
	o->n += (size_t)(e - p);
}

/* The five characters HTML reads as markup, by byte: their entities, padded to 8 bytes. */
static const struct {
	char text[8];
	size_t len;
} entities[128] = {
	['&'] = { "&amp;", 5 }, ['<'] = { "&lt;", 4 }, ['>'] = { "&gt;", 4 },
	['"'] = { "&quot;", 6 }, ['\''] = { "&#39;", 5 },
};

/* One of the five characters HTML reads as markup, as its entity; false for any other byte. */
static inline bool put_entity(struct out *o, char c)
{
	unsigned char u = (unsigned char)c;

	if (u >= 128 || !entities[u].len)
		return false;
	/* Eight bytes stored whatever the length: OUT_SLACK has room past the end. */
	memcpy(o->b + o->n, entities[u].text, 8);
	o->n += entities[u].len;
	return true;
}

/* Printable ASCII that HTML reads as text, by byte. */
static bool text_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '&' && c != '<' && c != '>' && c != '"' && c != '\'';
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* A bit for each of the 16 bytes at p that is not text_byte. */
static inline unsigned markup16(const char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	/* Signed: the bytes of UTF-8 (0x80 and above) are below 0x20 too. */
	__m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));

	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('&')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
	return (unsigned)_mm_movemask_epi8(m);
}
#else
static inline unsigned markup16(const char *p)
{
	unsigned m = 0;

	for (unsigned k = 0; k < 16; k++)
		if (!text_byte((unsigned char)p[k]))
			m |= 1u << k;
	return m;
}
#endif

/* The character at s (n > 0 bytes left) that is not text_byte; returns its length. */
static size_t put_other(struct out *o, const char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	switch (ras_text_next(s, n, &len, &cp)) {
	case RAS_TEXT_PLAIN:
		if (len != 1 || !put_entity(o, *s)) {
			memcpy(o->b + o->n, s, len);
			o->n += len;
		}
		break;
	case RAS_TEXT_CONTROL:
		if (cp == '\t' || cp == '\n')
			o->b[o->n++] = *s;
		else
			put_ref(o, cp < 0x20 ? 0x2400 + cp : cp == 0x7f ? 0x2421 : cp);
		break;
	default:
		put_ref(o, cp);
	}
	return len;
}

/*
 * Sixteen bytes at a time: the block is stored whole after what is written,
 * an entity written over its markup character and the rest of the block
 * stored again after it; any other character (a control, UTF-8) ends the
 * block. Returns where it stopped.
 */
static size_t blocks(struct out *o, const char *s, size_t len)
{
	size_t i = 0;
	char blk[32] = { 0 };   /* a block and 16 bytes to store after its last */

	while (len - i >= 16) {
		unsigned m = markup16(s + i), done = 0, k;

		make_room(o);
		memcpy(blk, s + i, 16);
		for (; m; m &= m - 1) {
			k = (unsigned)__builtin_ctz(m);
			memcpy(o->b + o->n, blk + done, 16);
			o->n += k - done;
			if (!put_entity(o, blk[k])) {
				i += k;
				i += put_other(o, s + i, len - i);
				goto next;
			}
			done = k + 1;
		}
		memcpy(o->b + o->n, blk + done, 16);
		o->n += 16 - done;
		i += 16;
next:;
	}
	return i;
}

void rpt_html_text(FILE *f, const char *s, size_t len)
{
	struct out o;   /* not zeroed: a --part writes 100,000 records through it */
	size_t i;

	o.f = f;
	o.n = 0;
	/* The text ends at its first NUL, if any: found once, not at every character. */
	len = s ? strnlen(s, len) : 0;
	i = blocks(&o, s, len);
	while (i < len) {
		make_room(&o);
		if (text_byte((unsigned char)s[i]))
			o.b[o.n++] = s[i++];
		else
			i += put_other(&o, s + i, len - i);
	}
	if (o.n)
		fwrite(o.b, 1, o.n, f);
}
