/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include "key_set.h"

#define START_SLOTS 1024

struct ras_key_set {
	uint32_t *slot;           /* fingerprints; 0: free */
	size_t cap, count, max_keys;
	bool overflowed;
};

/* The key's fingerprint, never 0; its low bits are its home slot. */
static uint32_t fingerprint(uint64_t key)
{
	uint64_t x = key + 0x9e3779b97f4a7c15ULL;
	uint32_t fp;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	fp = (uint32_t)((x ^ (x >> 31)) >> 32);
	return fp ? fp : 1;
}

int ras_key_set_new(struct ras_key_set **out, size_t max_keys)
{
	struct ras_key_set *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->max_keys = max_keys < 16 ? 16 : max_keys;
	*out = s;
	return 0;
}

void ras_key_set_free(struct ras_key_set *s)
{
	if (!s)
		return;
	free(s->slot);
	free(s);
}

static void put(uint32_t *slot, size_t cap, uint32_t fp)
{
	size_t i = fp & (cap - 1);

	while (slot[i])
		i = (i + 1) & (cap - 1);
	slot[i] = fp;
}

static int grow(struct ras_key_set *s)
{
	size_t cap = s->cap ? s->cap * 2 : START_SLOTS;
	uint32_t *m = calloc(cap, sizeof(*m));

	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i])
			put(m, cap, s->slot[i]);
	free(s->slot);
	s->slot = m;
	s->cap = cap;
	return 0;
}

/* It answers "maybe" from now on: its slots are of no use, their memory goes back. */
static int overflow(struct ras_key_set *s, int r)
{
	ras_key_set_clear(s);
	s->overflowed = true;
	return r;
}

int ras_key_set_add(struct ras_key_set *s, uint64_t key)
{
	if (s->overflowed)
		return -ENOSPC;
	if (s->count >= s->max_keys)
		return overflow(s, -ENOSPC);
	if (s->count + 1 > s->cap / 4 * 3 && grow(s) < 0)
		return overflow(s, -ENOMEM);
	put(s->slot, s->cap, fingerprint(key));
	s->count++;
	return 0;
}

/* The slot holding fp, or the free slot that ends its run. */
static size_t find(const struct ras_key_set *s, uint32_t fp)
{
	size_t mask = s->cap - 1, i = fp & mask;

	while (s->slot[i] && s->slot[i] != fp)
		i = (i + 1) & mask;
	return i;
}

bool ras_key_set_maybe(const struct ras_key_set *s, uint64_t key)
{
	if (s->overflowed)
		return true;
	return s->count && s->slot[find(s, fingerprint(key))];
}

/* Linear probing without tombstones: later fingerprints of the run move back. */
void ras_key_set_remove(struct ras_key_set *s, uint64_t key)
{
	size_t mask, i, j;

	if (s->overflowed || !s->count || !s->slot[i = find(s, fingerprint(key))])
		return;
	mask = s->cap - 1;
	for (j = i;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!s->slot[j])
			break;
		home = s->slot[j] & mask;
		/* Stays when its home lies cyclically in (i, j]. */
		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		s->slot[i] = s->slot[j];
		i = j;
	}
	s->slot[i] = 0;
	s->count--;
}

void ras_key_set_clear(struct ras_key_set *s)
{
	free(s->slot);
	s->slot = NULL;
	s->cap = s->count = 0;
	s->overflowed = false;
}

void ras_key_set_give_up(struct ras_key_set *s)
{
	overflow(s, 0);
}

bool ras_key_set_overflowed(const struct ras_key_set *s)
{
	return s->overflowed;
}

size_t ras_key_set_count(const struct ras_key_set *s)
{
	return s->count;
}

size_t ras_key_set_bytes(const struct ras_key_set *s)
{
	return s->cap * sizeof(*s->slot);
}
