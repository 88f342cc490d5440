/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pending.h"
#include "lib/grow.h"

/*
 * An entry as held: 40 bytes, not the 88 of a struct ras_pending_entry (most
 * of which only a loss uses), then the record's bytes or a loss's own
 * fields, padded to 8. A storm's records are most of what a batch holds
 * (make bench's varied ones 148 bytes on average: about 244 held before, 192 now).
 */
struct held_entry {
	uint32_t size;               /* bytes after this header, before padding */
	int32_t cpu;
	uint16_t type_idx;
	uint8_t kind;
	uint8_t synthetic;
	const char *source;
	uint64_t ts;
	int64_t wall_ns;
};

/* What a loss holds after its header. */
struct held_loss {
	long long count;
	int64_t from_ns, to_ns;
	const char *origin;
};

_Static_assert(sizeof(struct held_entry) == 40, "a held entry's header");

/* Each entry: its header, then its data, padded to keep the next header aligned. */
static size_t entry_len(uint32_t size)
{
	size_t n = sizeof(struct held_entry) + size;

	return (n + 7) & ~(size_t)7;
}

/* Room for need more bytes at the run's end; -ENOMEM leaves it as it was. */
static int run_room(struct ras_pending_run *r, size_t need)
{
	return ras_grow_room(&r->buf, &r->cap, r->len, need, 64 * 1024, NULL);
}

int ras_pending_add(struct ras_pending *q, const struct ras_pending_entry *e)
{
	struct ras_pending_run *r = &q->run;
	bool record = e->kind == RAS_PENDING_RECORD;
	uint32_t size = record ? e->size : (uint32_t)sizeof(struct held_loss);
	size_t need = entry_len(size);
	struct held_entry *h;

	if (run_room(r, need) < 0)
		return -ENOMEM;
	/* Entries start 8-aligned: the buffer is malloc's, every entry's length a multiple of 8. */
	h = (struct held_entry *)(void *)(r->buf + r->len);
	*h = (struct held_entry){
		.size = size, .cpu = e->cpu, .type_idx = (uint16_t)e->type_idx, .kind = (uint8_t)e->kind,
		.synthetic = e->synthetic, .source = e->source, .ts = e->ts, .wall_ns = e->wall_ns,
	};
	if (record) {
		memcpy(h + 1, e->data, e->size);
		r->records++;
		q->records++;
	} else {
		struct held_loss l = { .count = e->count, .from_ns = e->from_ns, .to_ns = e->to_ns,
				       .origin = e->origin };

		memcpy(h + 1, &l, sizeof(l));
		r->losses++;
		q->losses++;
	}
	r->len += need;
	q->len += need;
	return 0;
}

int ras_pending_each(const struct ras_pending *q,
		     int (*fn)(void *ctx, const struct ras_pending_entry *e), void *ctx)
{
	return ras_pending_each_until(q, q->len, fn, ctx);
}

/* The entry held at p, as the callers see it: its data points into the run. */
static size_t entry_at(const uint8_t *p, struct ras_pending_entry *e)
{
	struct held_entry h;

	memcpy(&h, p, sizeof(h));
	*e = (struct ras_pending_entry){
		.kind = (enum ras_pending_kind)h.kind, .type_idx = h.type_idx, .cpu = h.cpu,
		.synthetic = h.synthetic, .source = h.source, .ts = h.ts, .wall_ns = h.wall_ns,
	};
	if (e->kind == RAS_PENDING_RECORD) {
		e->size = h.size;
		e->data = p + sizeof(h);
	} else {
		struct held_loss l;

		memcpy(&l, p + sizeof(h), sizeof(l));
		e->count = l.count;
		e->from_ns = l.from_ns;
		e->to_ns = l.to_ns;
		e->origin = l.origin;
	}
	return entry_len(h.size);
}

/* fn for the run's entries while *left bytes are left to visit. */
static int run_each(const struct ras_pending_run *r, size_t *left,
		    int (*fn)(void *ctx, const struct ras_pending_entry *e), void *ctx)
{
	for (size_t off = 0; *left && off < r->len;) {
		struct ras_pending_entry e;
		size_t n = entry_at(r->buf + off, &e);
		int rc = fn(ctx, &e);

		if (rc)
			return rc;
		off += n;
		*left = *left > n ? *left - n : 0;
	}
	return 0;
}

int ras_pending_each_until(const struct ras_pending *q, size_t bytes,
			   int (*fn)(void *ctx, const struct ras_pending_entry *e), void *ctx)
{
	int rc = run_each(&q->sealed, &bytes, fn, ctx);

	return rc ? rc : run_each(&q->run, &bytes, fn, ctx);
}

/*
 * One run again, the sealed entries first (a drop other than of exactly the
 * sealed ones, or a second seal before the first was dropped: a failed
 * commit behind). Without the memory to join them they stay apart.
 */
static int unseal(struct ras_pending *q)
{
	struct ras_pending_run *s = &q->sealed, *r = &q->run, spare;

	if (!s->len)
		return 0;
	if (run_room(s, r->len) < 0)
		return -ENOMEM;
	memcpy(s->buf + s->len, r->buf, r->len);
	s->len += r->len;
	s->records += r->records;
	s->losses += r->losses;
	spare = *r;
	*r = *s;
	*s = (struct ras_pending_run){ .buf = spare.buf, .cap = spare.cap };
	return 0;
}

void ras_pending_seal(struct ras_pending *q)
{
	struct ras_pending_run spare;

	if (unseal(q) < 0)
		return;
	spare = q->sealed;
	q->sealed = q->run;
	q->run = (struct ras_pending_run){ .buf = spare.buf, .cap = spare.cap };
}

/* Drops the first bytes of one run: counts what they held, moves the rest to the front. */
static size_t run_drop_front(struct ras_pending_run *r, size_t bytes, uint64_t *records,
			   uint64_t *losses)
{
	size_t off = 0;

	while (off < bytes && off < r->len) {
		struct held_entry h;

		memcpy(&h, r->buf + off, sizeof(h));
		if (h.kind == RAS_PENDING_RECORD)
			(*records)++;
		else
			(*losses)++;
		off += entry_len(h.size);
	}
	memmove(r->buf, r->buf + off, r->len - off);
	r->len -= off;
	r->records -= *records;
	r->losses -= *losses;
	return off;
}

/* A run's buffer past this is a storm's. */
#define STORM_RUN_BYTES ((size_t)4 << 20)

/* A storm's worth is given back; a normal batch's buffer is kept for the next. */
static void run_clear(struct ras_pending_run *r)
{
	if (r->cap > STORM_RUN_BYTES) {
		free(r->buf);
		r->buf = NULL;
		r->cap = 0;
	}
	*r = (struct ras_pending_run){ .buf = r->buf, .cap = r->cap };
}

void ras_pending_drop_front(struct ras_pending *q, size_t bytes)
{
	struct ras_pending_run *s = &q->sealed;
	uint64_t records = 0, losses = 0;

	if (bytes >= q->len) {
		ras_pending_clear(q);
		return;
	}
	if (s->len && bytes == s->len) {
		q->len -= s->len;
		q->records -= s->records;
		q->losses -= s->losses;
		/*
		 * Its buffer becomes the next run's (ras_pending_seal) only if small,
		 * or while the storm goes on. Kept after a storm, a storm's two runs
		 * each stay as large as a whole batch, 76 MB with batch_max_records
		 * 200000. But while the run holds a storm's worth too, the sealed
		 * run is dropped as the next batch is sealed (rasd --once: the run
		 * full each time), so both are held at once anyway, and a fresh run
		 * grown to a batch's size again took fresh pages: about 40,000 of
		 * the 107,000 minor faults of make bench's 1M-record storm.
		 */
		if (q->run.len > STORM_RUN_BYTES)
			*s = (struct ras_pending_run){ .buf = s->buf, .cap = s->cap };
		else
			run_clear(s);
		return;
	}
	if (s->len && unseal(q) < 0) {
		/* Apart: the sealed run's entries come first. */
		size_t dropped = run_drop_front(s, bytes < s->len ? bytes : s->len, &records, &losses);

		q->len -= dropped;
		q->records -= records;
		q->losses -= losses;
		bytes -= dropped;
		records = losses = 0;
	}
	q->len -= run_drop_front(&q->run, bytes, &records, &losses);
	q->records -= records;
	q->losses -= losses;
}

void ras_pending_clear(struct ras_pending *q)
{
	run_clear(&q->run);
	run_clear(&q->sealed);
	q->len = 0;
	q->records = q->losses = 0;
}

bool ras_pending_full(const struct ras_pending *q, size_t max_bytes)
{
	return q->len >= max_bytes;
}

static void run_free(struct ras_pending_run *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

void ras_pending_shrink(struct ras_pending *q)
{
	if (q->len)
		return;
	run_free(&q->run);
	run_free(&q->sealed);
}

void ras_pending_free(struct ras_pending *q)
{
	run_free(&q->run);
	run_free(&q->sealed);
	memset(q, 0, sizeof(*q));
}
