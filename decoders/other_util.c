/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "other_util.h"

void ou_appendf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t used;

	if (!buf || len == 0)
		return;
	used = strnlen(buf, len);
	if (used >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

void ou_put(struct ou_buf *b, const char *s)
{
	if (!b->len || b->at + 1 >= b->len)
		return;
	ou_put_n(b, s, strnlen(s, b->len - 1 - b->at));
}

/* "00".."99": numbers are written two digits at a time. */
static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static inline char *decimal_digits(char *end, unsigned long long u)
{
	char *d = end;

	while (u >= 100) {
		unsigned r = (unsigned)(u % 100);

		u /= 100;
		d -= 2;
		d[0] = two_digits[2 * r];
		d[1] = two_digits[2 * r + 1];
	}
	if (u >= 10) {
		d -= 2;
		d[0] = two_digits[2 * u];
		d[1] = two_digits[2 * u + 1];
	} else {
		*--d = (char)('0' + u);
	}
	return d;
}

char *ou_decimal_digits(char *end, unsigned long long u)
{
	return decimal_digits(end, u);
}

static inline char *hex_digits(char *end, unsigned long long v, unsigned width)
{
	char *d = end;

	if (width > 32)
		width = 32;
	do
		*--d = "0123456789abcdef"[v & 0xf];
	while (v >>= 4);
	while ((unsigned)(end - d) < width)
		*--d = '0';
	return d;
}

char *ou_hex_digits(char *end, unsigned long long v, unsigned width)
{
	return hex_digits(end, v, width);
}

/* The longest number written: "-9223372036854775808", or "0x" and 16 hex digits, or 32 padded. */
#define OU_NUMBER_MAX 34

/*
 * Where a number of at most OU_NUMBER_MAX bytes goes straight into the
 * buffer: at its end when it surely fits (nearly always), else NULL and
 * the caller writes it aside and copies what fits, truncating.
 */
static inline char *room_for_number(const struct ou_buf *b, size_t most)
{
	if (!b->len || b->at + 1 >= b->len || b->len - 1 - b->at < most)
		return NULL;
	return b->p + b->at;
}

/* How many decimal digits u has: one, and one more for each power of ten it reaches. */
static inline unsigned decimal_len(unsigned long long u)
{
	unsigned n = 1;

	for (; u >= 10000; u /= 10000)
		n += 4;
	if (u >= 100)
		n += u >= 1000 ? 3 : 2;
	else if (u >= 10)
		n += 1;
	return n;
}

/* The sign (when neg) and the digits of u at *d, ending the string; the buffer's new end. */
static inline void put_decimal_at(struct ou_buf *b, char *d, bool neg, unsigned long long u)
{
	unsigned n;

	if (neg)
		*d++ = '-';
	if (u < 10) {
		d[0] = (char)('0' + u);
		d[1] = '\0';
		n = 1;
	} else {
		n = decimal_len(u);
		decimal_digits(d + n, u);
		d[n] = '\0';
	}
	b->at = (size_t)(d + n - b->p);
}

/*
 * A number that may not fit, written aside and copied as far as it fits.
 * Apart, so that the usual case (in place) has no array on its stack.
 */
static __attribute__((noinline)) void put_decimal_cut(struct ou_buf *b, bool neg,
						      unsigned long long u)
{
	char digits[24], *end = digits + sizeof(digits), *d = decimal_digits(end, u);

	if (neg)
		*--d = '-';
	ou_put_n(b, d, (size_t)(end - d));
}

void ou_put_int(struct ou_buf *b, long long v)
{
	/* Negated as unsigned so LLONG_MIN works too. */
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	char *d = room_for_number(b, 20);

	if (d)
		put_decimal_at(b, d, v < 0, u);
	else
		put_decimal_cut(b, v < 0, u);
}

void ou_put_uint(struct ou_buf *b, unsigned long long v)
{
	char *d = room_for_number(b, 20);

	if (d)
		put_decimal_at(b, d, false, v);
	else
		put_decimal_cut(b, false, v);
}

/* How many hex digits v has, at least width (at most 32). */
static inline unsigned hex_len(unsigned long long v, unsigned width)
{
	unsigned n = (unsigned)(64 - __builtin_clzll(v | 1) + 3) / 4;

	if (width > 32)
		width = 32;
	return n > width ? n : width;
}

/* As put_decimal_cut, for put_hex. */
static __attribute__((noinline)) void put_hex_cut(struct ou_buf *b, const char *prefix,
						  size_t prefix_len, unsigned long long v,
						  unsigned width)
{
	char digits[40], *end = digits + sizeof(digits), *d = hex_digits(end, v, width) - prefix_len;

	memcpy(d, prefix, prefix_len);
	ou_put_n(b, d, (size_t)(end - d));
}

/* prefix ("0x" or "") and the hex digits of v, in place when they surely fit. */
static inline void put_hex(struct ou_buf *b, const char *prefix, size_t prefix_len,
			   unsigned long long v, unsigned width)
{
	char *d = room_for_number(b, OU_NUMBER_MAX);
	unsigned n;

	if (!d) {
		put_hex_cut(b, prefix, prefix_len, v, width);
		return;
	}
	n = hex_len(v, width);
	memcpy(d, prefix, prefix_len);
	d += prefix_len;
	hex_digits(d + n, v, width);
	d[n] = '\0';
	b->at = (size_t)(d + n - b->p);
}

void ou_put_hex(struct ou_buf *b, unsigned long long v)
{
	put_hex(b, "0x", 2, v, 0);
}

void ou_put_hex_pad(struct ou_buf *b, unsigned long long v, unsigned width)
{
	put_hex(b, "", 0, v, width);
}

void ou_append(char *buf, size_t len, const char *s)
{
	struct ou_buf b;

	if (!buf || len == 0)
		return;
	b = (struct ou_buf){ .p = buf, .len = len, .at = strnlen(buf, len) };
	if (b.at < len)
		ou_put(&b, s);
}

/*
 * The top bit of each byte of w that is a control byte (< 0x20, NUL
 * included) or not ASCII (>= 0x7f). The first byte (lowest) so marked is
 * always such a byte; a later mark may be a borrow or a carry of an
 * earlier one, so the caller checks the byte itself.
 */
static inline uint64_t word_unsafe(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
	/* A byte below 0x20 borrows into its own top bit, where its own top bit was clear. */
	uint64_t below = (w - 0x20 * ones) & ~w & high;
	/* Adding 1 sets the top bit of 0x7f; bytes at 0x80 or above have it already. */
	uint64_t above = ((w + ones) | w) & high;

	return below | above;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* A bit for each of the 16 bytes at p that is a control byte or not ASCII (exact). */
static inline unsigned unsafe16(const char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	/* Signed: bytes at 0x80 and above are below 0x20 too. */
	__m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));

	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

static inline char safe_byte(unsigned char c)
{
	return (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
}

/*
 * Copies the printable bytes from src[i] on to dst[i] on, up to the first
 * that is not (or lim), a block at a time: 16 bytes (SSE2) or 8; the last
 * few read as the block ending at lim, their earlier bytes masked off.
 * Returns where it stopped: lim, or a byte to look at (the 8-byte test may
 * stop at a printable one, marked by a borrow from a byte masked off).
 */
static inline size_t copy_clean(char *dst, const char *src, size_t i, size_t lim)
{
	uint64_t w, b;
	size_t k;

#if defined(__SSE2__)
	for (; lim - i >= 16; i += 16) {
		unsigned m = unsafe16(src + i);

		if (m) {
			k = (size_t)__builtin_ctz(m);
			ou_copy_short(dst + i, src + i, k);
			return i + k;
		}
		memcpy(dst + i, src + i, 16);
	}
	if (i < lim && lim >= 16) {
		unsigned m = unsafe16(src + lim - 16) >> (16 - (lim - i));

		k = m ? (size_t)__builtin_ctz(m) : lim - i;
		ou_copy_short(dst + i, src + i, k);
		return i + k;
	}
#endif
	for (; lim - i >= 8; i += 8) {
		memcpy(&w, src + i, 8);
		if ((b = word_unsafe(w))) {
			k = (size_t)__builtin_ctzll(b) / 8;
			ou_copy_short(dst + i, src + i, k);
			return i + k;
		}
		memcpy(dst + i, &w, 8);
	}
	if (i < lim && lim >= 8) {
		memcpy(&w, src + lim - 8, 8);
		b = word_unsafe(w) >> (8 * (8 - (lim - i)));
		k = b ? (size_t)__builtin_ctzll(b) / 8 : lim - i;
		ou_copy_short(dst + i, src + i, k);
		return i + k;
	}
	for (; i < lim && safe_byte((unsigned char)src[i]) == src[i]; i++)
		dst[i] = src[i];
	return i;
}

/*
 * One pass: the printable runs copied a block at a time, a NUL ending the
 * text, any other unsafe byte written as '?' (what strnlen, memcpy and a
 * second pass over the copy wrote before, in about half the instructions).
 */
size_t ou_copy(char *dst, size_t len, const char *src, size_t src_len)
{
	size_t lim, i = 0;

	if (!dst || len == 0)
		return 0;
	lim = src ? (src_len < len - 1 ? src_len : len - 1) : 0;
	while (i < lim) {
		i = copy_clean(dst, src, i, lim);
		if (i == lim || !src[i])
			break;
		dst[i] = safe_byte((unsigned char)src[i]);
		i++;
	}
	dst[i] = '\0';
	return i;
}

void ou_hex(char *dst, size_t len, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i, o = 0;

	if (!dst || len == 0)
		return;
	for (i = 0; p && i < n && o + 2 < len; i++) {
		dst[o++] = digits[p[i] >> 4];
		dst[o++] = digits[p[i] & 15];
	}
	dst[o] = '\0';
}

void ou_guid_format(char *dst, size_t len, const uint8_t g[16])
{
	if (!dst || len == 0)
		return;
	snprintf(dst, len,
		 "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 (unsigned)ou_le32(g), (unsigned)ou_le16(g + 4),
		 (unsigned)ou_le16(g + 6), g[8], g[9], g[10], g[11], g[12],
		 g[13], g[14], g[15]);
}

void ou_bit_names(char *dst, size_t len, uint64_t bits,
		  const char *const *names, size_t n, const char *sep)
{
	int first = 1;

	if (!dst || len == 0)
		return;
	dst[0] = '\0';
	/* The set bits only, lowest first. */
	for (uint64_t rest = bits; rest; rest &= rest - 1) {
		unsigned b = (unsigned)__builtin_ctzll(rest);

		if (!first)
			ou_append(dst, len, sep);
		first = 0;
		if (b < n && names[b])
			ou_append(dst, len, names[b]);
		else
			ou_appendf(dst, len, "bit %u", b);
	}
}

const char *ou_find(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	if (!hay || n > len)
		return NULL;
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

const char *ou_lookup(const struct ou_name *tab, size_t n, int64_t value)
{
	for (size_t i = 0; i < n; i++)
		if (tab[i].value == value)
			return tab[i].name;
	return NULL;
}

size_t ou_member_len(const char *s, size_t size)
{
#if defined(__SSE2__)
	if (size % 16 == 0) {
		for (size_t i = 0; i < size; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
			unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));

			if (m)
				return i + (size_t)__builtin_ctz(m);
		}
		return size;
	}
#endif
	return strnlen(s, size);
}

void ou_bytes_zero(void *p, size_t n)
{
	memset(p, 0, n);
}

void ou_bytes_copy(void *d, const void *s, size_t n)
{
	memcpy(d, s, n);
}

void ou_reset(void *out, size_t size, const struct ras_dfield *fields, size_t n)
{
	memset(out, 0, size);
	for (size_t i = 0; i < n; i++) {
		if (fields[i].type != RAS_DF_INT)
			continue;
		*(int64_t *)((char *)out + fields[i].offset) = RAS_DF_NONE;
	}
}
