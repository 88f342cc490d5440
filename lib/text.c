/* SPDX-License-Identifier: MIT */
/* Which characters of record text could act on a terminal, and their safe form (text.h). */
#include "text.h"

/* Length of the well-formed UTF-8 sequence at s (n > 0 bytes left), 0 if none (RFC 3629). */
static size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	/* 0xc0 and 0xc1 only begin overlong forms; past 0xf4 lies beyond U+10FFFF. */
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	c = s[0] & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
	/* Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not valid. */
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

static bool is_control(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) ||     /* C0, DEL, C1 */
	       c == 0x2028 || c == 0x2029 ||                 /* line and paragraph separators */
	       (c >= 0x202a && c <= 0x202e) ||               /* LRE RLE PDF LRO RLO */
	       (c >= 0x2066 && c <= 0x2069);                 /* LRI RLI FSI PDI */
}

enum ras_text_class ras_text_next(const char *s, size_t n, size_t *len, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;

	*len = utf8_len(u, n, cp);
	if (!*len) {
		*len = 1;
		*cp = u[0];
		return RAS_TEXT_INVALID;
	}
	return is_control(*cp) ? RAS_TEXT_CONTROL : RAS_TEXT_PLAIN;
}

bool ras_text_plain(const char *s, size_t len)
{
	size_t n;
	uint32_t cp;

	for (size_t i = 0; i < len; i += n)
		if (ras_text_next(s + i, len - i, &n, &cp) != RAS_TEXT_PLAIN)
			return false;
	return true;
}

size_t ras_text_safe(char *dst, size_t size, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t k = 0, need = 0, n;
	bool full = false;
	uint32_t cp;

	for (size_t i = 0; i < len; i += n) {
		bool plain = ras_text_next(s + i, len - i, &n, &cp) == RAS_TEXT_PLAIN;
		size_t out = plain ? n : 4 * n;

		need += out;
		/* A character or its escapes go whole or not at all, and nothing after them. */
		full |= k + out >= size;
		if (full)
			continue;
		for (size_t b = 0; b < n; b++) {
			unsigned char c = (unsigned char)s[i + b];

			if (plain) {
				dst[k++] = (char)c;
				continue;
			}
			dst[k++] = '\\';
			dst[k++] = 'x';
			dst[k++] = hex[c >> 4];
			dst[k++] = hex[c & 15];
		}
	}
	if (size)
		dst[k] = '\0';
	return need;
}

void ras_text_write(FILE *f, const char *s, size_t len)
{
	size_t n, run = 0;
	uint32_t cp;

	for (size_t i = 0; i < len; i += n) {
		unsigned char c = (unsigned char)s[i];

		/* Printable ASCII, nearly all of a logged record's line: plain without decoding it. */
		if (c >= 0x20 && c < 0x7f) {
			n = 1;
		} else if (ras_text_next(s + i, len - i, &n, &cp) != RAS_TEXT_PLAIN) {
			if (run)
				fwrite(s + i - run, 1, run, f);
			run = 0;
			for (size_t b = 0; b < n; b++)
				fprintf(f, "\\x%02x", (unsigned char)s[i + b]);
			continue;
		}
		run += n;
	}
	if (run)
		fwrite(s + len - run, 1, run, f);
}
