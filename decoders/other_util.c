/* SPDX-License-Identifier: MIT */
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

struct ou_buf ou_start(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	return (struct ou_buf){ .p = buf, .len = len, .at = 0 };
}

void ou_put(struct ou_buf *b, const char *s)
{
	if (!b->len || b->at + 1 >= b->len)
		return;
	ou_put_n(b, s, strnlen(s, b->len - 1 - b->at));
}

void ou_put_int(struct ou_buf *b, long long v)
{
	char digits[24], *end = digits + sizeof(digits), *d = end;
	/* Negated as unsigned so LLONG_MIN works too. */
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do
		*--d = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--d = '-';
	ou_put_n(b, d, (size_t)(end - d));
}

void ou_put_hex(struct ou_buf *b, unsigned long long v)
{
	char digits[24], *end = digits + sizeof(digits), *d = end;

	do
		*--d = "0123456789abcdef"[v & 0xf];
	while (v >>= 4);
	*--d = 'x';
	*--d = '0';
	ou_put_n(b, d, (size_t)(end - d));
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

void ou_copy(char *dst, size_t len, const char *src, size_t src_len)
{
	size_t n = 0;

	if (!dst || len == 0)
		return;
	/* The bytes up to a NUL copied whole, then the unsafe ones replaced: a loop the compiler vectorizes. */
	if (src)
		n = strnlen(src, src_len < len - 1 ? src_len : len - 1);
	memcpy(dst, src ? src : "", n);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)dst[i];

		dst[i] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	dst[n] = '\0';
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
	for (unsigned b = 0; b < 64; b++) {
		if (!(bits & (UINT64_C(1) << b)))
			continue;
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

void ou_reset(void *out, size_t size, const struct ras_dfield *fields, size_t n)
{
	memset(out, 0, size);
	for (size_t i = 0; i < n; i++) {
		if (fields[i].type != RAS_DF_INT)
			continue;
		*(int64_t *)((char *)out + fields[i].offset) = RAS_DF_NONE;
	}
}
