/* SPDX-License-Identifier: MIT */
/* The threshold buckets written since the last commit known made (bucket_unconfirmed.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "bucket_unconfirmed.h"

/* Past this many writes kept, the memory goes back once all are confirmed (a storm's). */
#define KEEP_WRITES 4096

struct written {
	uint64_t pos, hash;
	int kind;
	struct ras_db_bucket b;
	char key[128];
};

struct rasd_unconfirmed {
	struct written *w;        /* in the order written, from the confirmed position on */
	size_t n, cap;
	uint32_t *slot;           /* each key's last write: its index in w plus one; 0 free */
	size_t nslots;            /* a power of two, over twice n (0: none yet) */
	uint64_t next;            /* the position of the next change */
	uint64_t confirmed;       /* the changes before it are committed */
	uint64_t unknown_at;      /* a change not followed, at this position */
	bool unknown;
};

int rasd_unconfirmed_new(struct rasd_unconfirmed **out)
{
	return (*out = calloc(1, sizeof(**out))) ? 0 : -ENOMEM;
}

void rasd_unconfirmed_free(struct rasd_unconfirmed *u)
{
	if (!u)
		return;
	free(u->w);
	free(u->slot);
	free(u);
}

static uint64_t hash_of(int kind, const char *key)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)(unsigned)kind;

	for (const char *p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return h;
}

/* The slot of kind/key, or the free one where it would go. nslots must be non-zero. */
static uint32_t *slot_of(const struct rasd_unconfirmed *u, uint64_t h, int kind, const char *key)
{
	size_t mask = u->nslots - 1, i = (size_t)h & mask;

	for (;; i = (i + 1) & mask) {
		const struct written *w;

		if (!u->slot[i])
			return &u->slot[i];
		w = &u->w[u->slot[i] - 1];
		if (w->hash == h && w->kind == kind && !strcmp(w->key, key))
			return &u->slot[i];
	}
}

/* Every write indexed again, oldest first: the last write of a key wins. */
static void reindex(struct rasd_unconfirmed *u)
{
	if (!u->nslots)
		return;
	memset(u->slot, 0, u->nslots * sizeof(*u->slot));
	for (size_t i = 0; i < u->n; i++)
		*slot_of(u, u->w[i].hash, u->w[i].kind, u->w[i].key) = (uint32_t)i + 1;
}

/* Room for one more write, its index kept under half full. */
static int room(struct rasd_unconfirmed *u)
{
	if (u->n == u->cap) {
		size_t cap = u->cap ? u->cap * 2 : 256;
		struct written *w = cap < UINT32_MAX / 2 ? realloc(u->w, cap * sizeof(*w)) : NULL;

		if (!w)
			return -ENOMEM;
		u->w = w;
		u->cap = cap;
	}
	if ((u->n + 1) * 2 > u->nslots) {
		size_t nslots = u->nslots ? u->nslots * 2 : 512;
		uint32_t *slot = malloc(nslots * sizeof(*slot));

		if (!slot)
			return -ENOMEM;
		free(u->slot);
		u->slot = slot;
		u->nslots = nslots;
		reindex(u);
	}
	return 0;
}

void rasd_unconfirmed_unknown(struct rasd_unconfirmed *u)
{
	u->unknown = true;
	u->unknown_at = u->next++;
}

void rasd_unconfirmed_put(struct rasd_unconfirmed *u, int kind, const char *key,
			  const struct ras_db_bucket *b)
{
	struct written *w;
	size_t len = strnlen(key, sizeof(w->key) - 1);

	/*
	 * Not kept, not known: get cannot tell until this transaction is
	 * confirmed. So for a key longer than a slot's: kept cut, a read of the
	 * whole key would miss it and take the older committed bucket.
	 */
	if (key[len] != '\0' || room(u) < 0) {
		rasd_unconfirmed_unknown(u);
		return;
	}
	w = &u->w[u->n];
	w->pos = u->next++;
	w->kind = kind;
	memcpy(w->key, key, len);
	w->key[len] = '\0';
	w->hash = hash_of(kind, w->key);
	w->b = *b;
	*slot_of(u, w->hash, kind, w->key) = (uint32_t)++u->n;
}

int rasd_unconfirmed_get(const struct rasd_unconfirmed *u, int kind, const char *key,
			 struct ras_db_bucket *out)
{
	uint32_t *s;

	if (u->unknown && u->unknown_at >= u->confirmed)
		return -EAGAIN;
	if (!u->n)
		return 0;
	s = slot_of(u, hash_of(kind, key), kind, key);
	if (!*s)
		return 0;
	*out = u->w[*s - 1].b;
	return 1;
}

uint64_t rasd_unconfirmed_mark(const struct rasd_unconfirmed *u)
{
	return u->next;
}

/* All confirmed: a storm's memory goes back. */
static void emptied(struct rasd_unconfirmed *u)
{
	u->n = 0;
	if (u->cap > KEEP_WRITES) {
		free(u->w);
		free(u->slot);
		u->w = NULL;
		u->slot = NULL;
		u->cap = u->nslots = 0;
		return;
	}
	if (u->nslots)
		memset(u->slot, 0, u->nslots * sizeof(*u->slot));
}

void rasd_unconfirmed_confirmed_to(struct rasd_unconfirmed *u, uint64_t mark)
{
	size_t k = 0;

	if (mark <= u->confirmed)
		return;
	u->confirmed = mark;
	while (k < u->n && u->w[k].pos < mark)
		k++;
	if (k == u->n) {
		emptied(u);
		return;
	}
	if (!k)
		return;
	memmove(u->w, u->w + k, (u->n - k) * sizeof(*u->w));
	u->n -= k;
	reindex(u);
}

void rasd_unconfirmed_clear(struct rasd_unconfirmed *u)
{
	u->confirmed = u->next;
	u->unknown = false;
	emptied(u);
}

size_t rasd_unconfirmed_count(const struct rasd_unconfirmed *u)
{
	return u->n;
}
