/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include "spill_rows.h"

#define START_SLOTS 1024

struct row {
	uint64_t key;
	int64_t wall_ns;
	uint32_t n;
	uint32_t kind1;           /* the kind + 1; 0: a free slot */
};

struct ras_spill_rows {
	struct row *slot;
	size_t cap, count, max_rows;
	bool overflowed;
};

/* The key's home slot: its bits mixed, since keys may share their low bits. */
static size_t home(uint64_t key, size_t cap)
{
	uint64_t x = key + 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (size_t)(x ^ (x >> 31)) & (cap - 1);
}

int ras_spill_rows_new(struct ras_spill_rows **out, size_t max_rows)
{
	struct ras_spill_rows *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->max_rows = max_rows < 16 ? 16 : max_rows;
	*out = s;
	return 0;
}

void ras_spill_rows_free(struct ras_spill_rows *s)
{
	if (!s)
		return;
	free(s->slot);
	free(s);
}

/* The slot holding key, or the free slot where it would go. */
static size_t find(const struct row *slot, size_t cap, uint64_t key)
{
	size_t i = home(key, cap);

	while (slot[i].kind1 && slot[i].key != key)
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow(struct ras_spill_rows *s)
{
	size_t cap = s->cap ? s->cap * 2 : START_SLOTS;
	struct row *m = calloc(cap, sizeof(*m));

	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i].kind1)
			m[find(m, cap, s->slot[i].key)] = s->slot[i];
	free(s->slot);
	s->slot = m;
	s->cap = cap;
	return 0;
}

static int overflow(struct ras_spill_rows *s, int r)
{
	ras_spill_rows_clear(s);
	s->overflowed = true;
	return r;
}

int ras_spill_rows_put(struct ras_spill_rows *s, uint64_t key, int kind, int64_t wall_ns,
		       unsigned n)
{
	size_t i;

	if (s->overflowed)
		return -ENOSPC;
	if ((s->count + 1) * 4 > s->cap * 3 && grow(s) < 0)
		return overflow(s, -ENOMEM);
	i = find(s->slot, s->cap, key);
	if (!s->slot[i].kind1) {
		if (s->count >= s->max_rows)
			return overflow(s, -ENOSPC);
		s->count++;
	}
	s->slot[i] = (struct row){ .key = key, .wall_ns = wall_ns, .n = n, .kind1 = (uint32_t)kind + 1 };
	return 0;
}

/* Frees slot hole, moving back the rows after it that probed past it (linear probing). */
static void remove_at(struct ras_spill_rows *s, size_t hole)
{
	size_t mask = s->cap - 1, j = hole;

	s->slot[hole].kind1 = 0;
	s->count--;
	for (;;) {
		size_t h;

		j = (j + 1) & mask;
		if (!s->slot[j].kind1)
			return;
		h = home(s->slot[j].key, s->cap);
		/* Stays when its home lies cyclically in (hole, j]. */
		if (hole < j ? h > hole && h <= j : h > hole || h <= j)
			continue;
		s->slot[hole] = s->slot[j];
		s->slot[j].kind1 = 0;
		hole = j;
	}
}

int ras_spill_rows_take(struct ras_spill_rows *s, uint64_t key, int kind, int64_t *wall_ns,
			unsigned *n)
{
	size_t i;

	if (s->overflowed)
		return -EAGAIN;
	if (!s->count)
		return 0;
	i = find(s->slot, s->cap, key);
	if (s->slot[i].kind1 != (uint32_t)kind + 1)
		return 0;
	*wall_ns = s->slot[i].wall_ns;
	*n = s->slot[i].n;
	remove_at(s, i);
	return 1;
}

void ras_spill_rows_remove(struct ras_spill_rows *s, uint64_t key)
{
	size_t i;

	if (s->overflowed || !s->count)
		return;
	i = find(s->slot, s->cap, key);
	if (s->slot[i].kind1)
		remove_at(s, i);
}

void ras_spill_rows_give_up(struct ras_spill_rows *s)
{
	overflow(s, 0);
}

void ras_spill_rows_clear(struct ras_spill_rows *s)
{
	free(s->slot);
	s->slot = NULL;
	s->cap = s->count = 0;
	s->overflowed = false;
}

bool ras_spill_rows_overflowed(const struct ras_spill_rows *s)
{
	return s->overflowed;
}

size_t ras_spill_rows_count(const struct ras_spill_rows *s)
{
	return s->count;
}

size_t ras_spill_rows_bytes(const struct ras_spill_rows *s)
{
	return s->cap * sizeof(struct row);
}
