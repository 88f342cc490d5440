/* SPDX-License-Identifier: MIT */
/*
 * Bounded string copies for the per-record path: snprintf("%s") parses its
 * format on every call, which callgrind showed at a few per cent of rasd's
 * instructions in a storm.
 */
#ifndef RAS_STR_H
#define RAS_STR_H

#include <stddef.h>
#include <string.h>

/* Copies src into dst of size bytes (> 0), cut to fit and terminated, as snprintf("%s") would. */
static inline size_t ras_str_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
	return n;
}

/* a, one space, then b into dst, cut to fit, as snprintf("%s %s") would. */
static inline size_t ras_str_join(char *dst, size_t size, const char *a, const char *b)
{
	size_t n = ras_str_copy(dst, size, a);

	if (n + 1 < size) {
		dst[n++] = ' ';
		n += ras_str_copy(dst + n, size - n, b);
	}
	return n;
}

/* v in decimal at out (room for 21 bytes), as "%lld" prints it; returns its length, not terminated. */
static inline size_t ras_str_int(char *out, long long v)
{
	char tmp[24];
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	size_t n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		out[len++] = '-';
	while (n)
		out[len++] = tmp[--n];
	return len;
}

#endif
