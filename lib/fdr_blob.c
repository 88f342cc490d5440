/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "fdr_blob.h"

#define SECTION_HEADER 16  /* kind, aux, len, reserved: four little-endian u32 */

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Sections start 8-aligned so sub-buffers can be walked in place. */
static size_t padded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

void fdr_blob_init(struct fdr_blob *b)
{
	memset(b, 0, sizeof(*b));
	b->data = malloc(4096);
	if (!b->data) {
		b->err = -ENOMEM;
		return;
	}
	b->cap = 4096;
	memcpy(b->data, FDR_BLOB_MAGIC, FDR_BLOB_MAGIC_LEN);
	b->len = FDR_BLOB_MAGIC_LEN;
}

void fdr_blob_free(struct fdr_blob *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static int grow(struct fdr_blob *b, size_t extra)
{
	size_t need, cap;
	uint8_t *p;

	if (b->err)
		return b->err;
	if (extra > FDR_BLOB_MAX_RAW || b->len + extra > FDR_BLOB_MAX_RAW) {
		b->err = -E2BIG;
		return b->err;
	}
	need = b->len + extra;
	if (need <= b->cap)
		return 0;
	for (cap = b->cap; cap < need; cap *= 2)
		;
	p = realloc(b->data, cap);
	if (!p) {
		b->err = -ENOMEM;
		return b->err;
	}
	b->data = p;
	b->cap = cap;
	return 0;
}

void fdr_blob_begin(struct fdr_blob *b, uint32_t kind, uint32_t aux)
{
	if (b->open_section && !b->err)
		b->err = -EINVAL;
	if (grow(b, SECTION_HEADER) < 0)
		return;
	put_le32(b->data + b->len, kind);
	put_le32(b->data + b->len + 4, aux);
	put_le32(b->data + b->len + 8, 0);
	put_le32(b->data + b->len + 12, 0);
	b->open_section = b->len;
	b->len += SECTION_HEADER;
}

uint8_t *fdr_blob_reserve(struct fdr_blob *b, size_t n)
{
	if (!b->open_section || grow(b, n) < 0)
		return NULL;
	return b->data + b->len;
}

void fdr_blob_commit(struct fdr_blob *b, size_t n)
{
	if (!b->err && b->len + n <= b->cap)
		b->len += n;
}

void fdr_blob_end(struct fdr_blob *b, int drop_empty)
{
	size_t start = b->open_section, body;

	if (b->err || !start)
		return;
	body = b->len - start - SECTION_HEADER;
	b->open_section = 0;
	if (body > UINT32_MAX) {
		b->err = -E2BIG;
		return;
	}
	if (!body && drop_empty) {
		b->len = start;
		return;
	}
	put_le32(b->data + start + 8, (uint32_t)body);
	if (grow(b, padded(body) - body) < 0)
		return;
	memset(b->data + b->len, 0, padded(body) - body);
	b->len += padded(body) - body;
}

void fdr_blob_add(struct fdr_blob *b, uint32_t kind, uint32_t aux, const void *data, size_t len)
{
	uint8_t *p;

	fdr_blob_begin(b, kind, aux);
	p = fdr_blob_reserve(b, len);
	if (!p)
		return;
	memcpy(p, data, len);
	fdr_blob_commit(b, len);
	fdr_blob_end(b, 0);
}

int fdr_blob_compress(const struct fdr_blob *b, uint8_t **out, size_t *outlen)
{
	uLongf zlen;
	uint8_t *z;

	if (b->err)
		return b->err;
	if (b->open_section)
		return -EINVAL;
	zlen = compressBound((uLong)b->len);
	z = malloc(zlen);
	if (!z)
		return -ENOMEM;
	if (compress2(z, &zlen, b->data, (uLong)b->len, 6) != Z_OK) {
		free(z);
		return -EIO;
	}
	*out = z;
	*outlen = zlen;
	return 0;
}

int fdr_blob_decompress(const void *z, size_t zlen, size_t raw_size, uint8_t **out)
{
	uLongf got = (uLongf)raw_size;
	uint8_t *raw;

	if (raw_size < FDR_BLOB_MAGIC_LEN || raw_size > FDR_BLOB_MAX_RAW || !z || !zlen)
		return -EINVAL;
	raw = malloc(raw_size);
	if (!raw)
		return -ENOMEM;
	if (uncompress(raw, &got, z, (uLong)zlen) != Z_OK || got != raw_size) {
		free(raw);
		return -EINVAL;
	}
	*out = raw;
	return 0;
}

int fdr_blob_check(const uint8_t *buf, size_t len)
{
	if (len < FDR_BLOB_MAGIC_LEN || memcmp(buf, FDR_BLOB_MAGIC, FDR_BLOB_MAGIC_LEN))
		return -EINVAL;
	return 0;
}

int fdr_blob_next(const uint8_t *buf, size_t len, size_t *pos, struct fdr_section *s)
{
	size_t p = *pos;

	if (p == len)
		return 0;
	if (p > len || len - p < SECTION_HEADER)
		return -EINVAL;
	s->kind = get_le32(buf + p);
	s->aux = get_le32(buf + p + 4);
	s->len = get_le32(buf + p + 8);
	if (len - p - SECTION_HEADER < s->len)
		return -EINVAL;
	s->data = buf + p + SECTION_HEADER;
	p += SECTION_HEADER + s->len;
	/* The padding may be missing only after the last section. */
	*pos = padded(p) <= len ? padded(p) : len;
	return 1;
}

int fdr_meta_get(const struct fdr_section *meta, const char *key, char *out, size_t outlen)
{
	const char *p = (const char *)meta->data, *end = p + meta->len;
	size_t klen = strlen(key);

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t line = eol ? (size_t)(eol - p) : (size_t)(end - p);

		if (line > klen && !memcmp(p, key, klen) && p[klen] == '=') {
			size_t vlen = line - klen - 1;

			if (vlen >= outlen)
				return -E2BIG;
			memcpy(out, p + klen + 1, vlen);
			out[vlen] = 0;
			return 0;
		}
		p += line + 1;
	}
	return -ENOENT;
}
