/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the non-MCE decoders (AER, EDAC, CPER, ARM, CXL,
 * memory failure, devlink, block). Pure functions: no I/O, no allocation.
 * Every writer truncates instead of overflowing and always NUL-terminates.
 */
#ifndef RAS_OTHER_UTIL_H
#define RAS_OTHER_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "dfield.h"

struct ou_name {
	int64_t value;
	const char *name;
};

/* Appends s to the NUL-terminated string in buf, as ou_appendf(buf, len, "%s", s) would, without printf. */
void ou_append(char *buf, size_t len, const char *s);
/* Appends printf-style text to the NUL-terminated string in buf. */
void ou_appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Appending without printf, for strings built at every record (locations):
 * ou_put appends s, ou_put_int a decimal number, both truncating exactly as
 * ou_appendf would. b->at is where the string ends; start with ou_start.
 */
struct ou_buf {
	char *p;
	size_t len, at;
};
/* Inline: every location and text built at every record starts with one. */
static inline struct ou_buf ou_start(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	return (struct ou_buf){ .p = buf, .len = len, .at = 0 };
}
void ou_put(struct ou_buf *b, const char *s);
/*
 * n bytes from s to d, the few bytes of a key, a word or a number copied in
 * place without a call: two overlapping words read and write only the n
 * bytes, and cost no loop. s may be NULL when n is 0. Always inlined, so
 * that gcc lays out its caller (ou_put_n) knowing there is no call in it.
 * Also ctl/json_line.c's writer.
 */
static inline __attribute__((always_inline)) void ou_copy_short(char *d, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		memcpy(d, s, n);
	}
}
/*
 * The first n bytes of s (no NUL among them). Inline: locations and subject
 * keys are built of dozens of them at every record.
 */
static inline void ou_put_n(struct ou_buf *b, const char *s, size_t n)
{
	if (!b->len || b->at + 1 >= b->len)
		return;
	if (n > b->len - 1 - b->at)
		n = b->len - 1 - b->at;
	ou_copy_short(b->p + b->at, s, n);
	b->at += n;
	b->p[b->at] = '\0';
}
/* A string literal, its length known. */
#define ou_put_lit(b, lit) ou_put_n((b), (lit), sizeof(lit) - 1)
/*
 * The digits alone, written backwards ending at end (room for 20 decimal,
 * or 32 hex digits); each returns where they start. For writers of their
 * own buffers (ctl/json_line.c); the ou_put_* below use them.
 */
char *ou_decimal_digits(char *end, unsigned long long u);
/* Lower-case hex, at least width (at most 32) digits. */
char *ou_hex_digits(char *end, unsigned long long v, unsigned width);
/* As "%lld" and "%llu" write them. */
void ou_put_int(struct ou_buf *b, long long v);
void ou_put_uint(struct ou_buf *b, unsigned long long v);
/*
 * ou_put_int for the small numbers a location is made of (a CPU, a bank, a
 * channel, a layer): one or two digits written in place, without a call;
 * any other number, or one that may not fit, by ou_put_int.
 */
static inline void ou_put_small(struct ou_buf *b, long long v)
{
	char *d;

	if ((unsigned long long)v >= 100 || b->at + 3 > b->len) {
		ou_put_int(b, v);
		return;
	}
	d = b->p + b->at;
	if (v < 10) {
		d[0] = (char)('0' + v);
		d[1] = '\0';
		b->at += 1;
	} else {
		d[0] = (char)('0' + v / 10);
		d[1] = (char)('0' + v % 10);
		d[2] = '\0';
		b->at += 2;
	}
}
/*
 * strnlen(s, size) of a char array member (all size bytes readable):
 * sixteen bytes at a time (SSE2) where size is a multiple of 16.
 */
size_t ou_member_len(const char *s, size_t size);
/* ou_put of a NUL-terminated char array member, its length found by ou_member_len. */
#define ou_put_member(b, m) ou_put_n((b), (m), ou_member_len((m), sizeof(m)))
/* "0x" and lower-case hex digits, as "0x%llx" writes them. */
void ou_put_hex(struct ou_buf *b, unsigned long long v);
/* Lower-case hex digits, at least width (at most 32) of them, as "%0<width>llx" writes them. */
void ou_put_hex_pad(struct ou_buf *b, unsigned long long v, unsigned width);
/*
 * Copies at most src_len bytes of src (stopping at a NUL) into dst, replacing
 * control and non-ASCII bytes with '?' so kernel-supplied text is log-safe.
 * src may be NULL. Returns the length copied (where the NUL went).
 */
size_t ou_copy(char *dst, size_t len, const char *src, size_t src_len);
/* Lower-case hex of n bytes, no separators; truncated to fit. */
void ou_hex(char *dst, size_t len, const uint8_t *p, size_t n);
/* "%pUl" style: GUID stored little-endian as in UEFI / Linux guid_t. */
void ou_guid_format(char *dst, size_t len, const uint8_t guid[16]);
/*
 * Names each set bit of bits, joined by sep; a bit without a name (NULL or
 * beyond n) is written as "bit N" so nothing is silently dropped.
 */
void ou_bit_names(char *dst, size_t len, uint64_t bits,
		  const char *const *names, size_t n, const char *sep);
/* First occurrence of needle in hay[0..len), or NULL; hay need not be NUL-terminated. */
const char *ou_find(const char *hay, size_t len, const char *needle);
/* Name for value in tab, or NULL. */
const char *ou_lookup(const struct ou_name *tab, size_t n, int64_t value);
/*
 * memset(p, 0, n) and memcpy(d, s, n) by libc's vector routines, for a
 * decoded struct cleared or set from a template at every record: gcc
 * inlines one of a constant size as rep stosq / rep movsq, a store per 8
 * bytes (callgrind counts each), twice libc's instructions for a struct of
 * a kilobyte or two.
 */
void ou_bytes_zero(void *p, size_t n);
void ou_bytes_copy(void *d, const void *s, size_t n);
/*
 * Clears an output struct: all bytes zero, then every RAS_DF_INT member
 * listed in fields set to RAS_DF_NONE.
 */
void ou_reset(void *out, size_t size, const struct ras_dfield *fields, size_t n);

static inline uint16_t ou_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t ou_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t ou_le64(const uint8_t *p)
{
	return (uint64_t)ou_le32(p) | (uint64_t)ou_le32(p + 4) << 32;
}

#define OU_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
