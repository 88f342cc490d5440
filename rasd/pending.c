/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pending.h"

/* Each entry: its header, then its data, padded to keep the next header aligned. */
static size_t entry_len(uint32_t size)
{
	size_t n = sizeof(struct ras_pending_entry) + size;

	return (n + 15) & ~(size_t)15;
}

int ras_pending_add(struct ras_pending *q, const struct ras_pending_entry *e)
{
	size_t need = entry_len(e->kind == RAS_PENDING_RECORD ? e->size : 0);
	struct ras_pending_entry *dst;

	if (q->len + need > q->cap) {
		size_t cap = q->cap ? q->cap : 64 * 1024;
		uint8_t *nb;

		while (cap < q->len + need)
			cap *= 2;
		nb = realloc(q->buf, cap);
		if (!nb)
			return -ENOMEM;
		q->buf = nb;
		q->cap = cap;
	}
	dst = (struct ras_pending_entry *)(q->buf + q->len);
	*dst = *e;
	dst->data = NULL;
	if (e->kind == RAS_PENDING_RECORD) {
		memcpy(dst + 1, e->data, e->size);
		q->records++;
	} else {
		dst->size = 0;
		q->losses++;
	}
	q->len += need;
	return 0;
}

int ras_pending_each(const struct ras_pending *q,
		     int (*fn)(void *ctx, const struct ras_pending_entry *e), void *ctx)
{
	return ras_pending_each_until(q, q->len, fn, ctx);
}

int ras_pending_each_until(const struct ras_pending *q, size_t bytes,
			   int (*fn)(void *ctx, const struct ras_pending_entry *e), void *ctx)
{
	for (size_t off = 0; off < bytes && off < q->len;) {
		const struct ras_pending_entry *e = (const void *)(q->buf + off);
		struct ras_pending_entry copy = *e;
		int r;

		copy.data = (const uint8_t *)(e + 1);
		r = fn(ctx, &copy);
		if (r)
			return r;
		off += entry_len(e->size);
	}
	return 0;
}

void ras_pending_drop_front(struct ras_pending *q, size_t bytes)
{
	size_t off = 0;

	if (bytes >= q->len) {
		ras_pending_clear(q);
		return;
	}
	while (off < bytes) {
		const struct ras_pending_entry *e = (const void *)(q->buf + off);

		if (e->kind == RAS_PENDING_RECORD)
			q->records--;
		else
			q->losses--;
		off += entry_len(e->size);
	}
	memmove(q->buf, q->buf + off, q->len - off);
	q->len -= off;
}

void ras_pending_clear(struct ras_pending *q)
{
	q->len = 0;
	q->records = q->losses = 0;
	/* A storm's worth is given back; a normal batch's buffer is kept for the next. */
	if (q->cap > 4 * 1024 * 1024) {
		free(q->buf);
		q->buf = NULL;
		q->cap = 0;
	}
}

bool ras_pending_full(const struct ras_pending *q, size_t max_bytes)
{
	return q->len >= max_bytes;
}

void ras_pending_shrink(struct ras_pending *q)
{
	if (q->len)
		return;
	free(q->buf);
	q->buf = NULL;
	q->cap = 0;
}

void ras_pending_free(struct ras_pending *q)
{
	free(q->buf);
	memset(q, 0, sizeof(*q));
}
