/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "once_seen.h"

#define START_CAP 1024            /* RAS_ONCE_SEEN_FIRST_BYTES / sizeof(struct item) */

/*
 * 16 bytes, not 24 with a separate count: the set is most of a storm's
 * memory, and at 16 it holds twice the subjects in 8 MiB more (make bench's
 * 1M varied records: nothing spilled to the database instead of 184,000).
 * k: the tag in the top 3 bits, then the errors (1 to RAS_ONCE_SEEN_MAX_N),
 * then the hash's low 55 bits (the key); never 0, which marks a free slot.
 */
struct item {
	uint64_t k;
	int64_t wall_ns;
};

_Static_assert(START_CAP * sizeof(struct item) == RAS_ONCE_SEEN_FIRST_BYTES, "first size");

#define N_SHIFT 55
#define KEY_MASK (~(0x3fULL << N_SHIFT))

/* One change of the open transaction: undone newest first by a rollback. */
struct change {
	struct item it;
	bool added;
};

struct ras_once_seen {
	struct item *slots;
	size_t cap, max_cap, count;
	int64_t leak_ns[RAS_ONCE_SEEN_TAGS];
	int64_t next_leak_ns;     /* no entry leaks out before this; INT64_MAX: none will */
	struct change *log;
	size_t n_log, cap_log;
	/*
	 * Where the last take that missed would put its key: a first record is
	 * taken (missed) then held, and the hold goes there without probing
	 * again. Any change to the slots forgets it.
	 */
	uint64_t miss_k;
	size_t miss_i;
	bool miss_ok;
};

/* The key part: tag and hash, the errors' bits clear. */
static uint64_t key_of(unsigned tag, uint64_t hash)
{
	return (hash & ((1ULL << N_SHIFT) - 1)) | ((uint64_t)(tag & 7) << 61);
}

static unsigned n_of(uint64_t k)
{
	return (unsigned)(k >> N_SHIFT) & RAS_ONCE_SEEN_MAX_N;
}

static unsigned tag_of(uint64_t k)
{
	return (unsigned)(k >> 61);
}

/* When the entry's errors have leaked out (n leak times); INT64_MAX when its tag never leaks. */
static int64_t leaks_at(const struct ras_once_seen *o, const struct item *it)
{
	int64_t leak = o->leak_ns[tag_of(it->k)], span, at;

	/* Overflow checked without a division: one per hold was the add's slowest instruction. */
	if (leak <= 0 || __builtin_mul_overflow(leak, (int64_t)n_of(it->k), &span) ||
	    __builtin_add_overflow(it->wall_ns, span, &at))
		return INT64_MAX;
	return at;
}

int ras_once_seen_new(struct ras_once_seen **out, size_t max_entries)
{
	struct ras_once_seen *o = calloc(1, sizeof(*o));
	size_t max_cap = START_CAP;

	if (!o)
		return -ENOMEM;
	/* Kept at most three quarters full. */
	while (max_cap / 4 * 3 < max_entries && max_cap < ((size_t)1 << 40))
		max_cap *= 2;
	o->max_cap = max_cap;
	o->next_leak_ns = INT64_MAX;
	*out = o;
	return 0;
}

void ras_once_seen_free(struct ras_once_seen *o)
{
	if (!o)
		return;
	free(o->slots);
	free(o->log);
	free(o);
}

void ras_once_seen_set_leak(struct ras_once_seen *o, unsigned tag, int64_t leak_ns)
{
	if (tag < RAS_ONCE_SEEN_TAGS)
		o->leak_ns[tag] = leak_ns;
	/* Not known any more which entry leaks first: the next look tells. */
	o->next_leak_ns = INT64_MIN;
}

/* The slot holding key k (whatever its errors), or the free slot where it would go. */
static size_t find(const struct ras_once_seen *o, uint64_t k)
{
	size_t mask = o->cap - 1, i = (size_t)k & mask;

	k &= KEY_MASK;
	while (o->slots[i].k && (o->slots[i].k & KEY_MASK) != k)
		i = (i + 1) & mask;
	return i;
}

/* Into a table of cap slots, without the entries leaked out by now_ns. */
static int rehash(struct ras_once_seen *o, size_t cap, int64_t now_ns)
{
	struct item *old = o->slots;
	size_t old_cap = o->cap;
	struct item *m = calloc(cap, sizeof(*m));

	if (!m)
		return -ENOMEM;
	o->slots = m;
	o->cap = cap;
	o->count = 0;
	o->miss_ok = false;
	o->next_leak_ns = INT64_MAX;
	for (size_t i = 0; i < old_cap; i++) {
		int64_t at;

		if (!old[i].k || (at = leaks_at(o, &old[i])) <= now_ns)
			continue;
		o->slots[find(o, old[i].k)] = old[i];
		o->count++;
		if (at < o->next_leak_ns)
			o->next_leak_ns = at;
	}
	free(old);
	return 0;
}

/* Room for one more: drop what leaked out, else grow; -ENOSPC at the bound. */
static int make_room(struct ras_once_seen *o, int64_t now_ns)
{
	if (!o->slots)
		return rehash(o, START_CAP, now_ns);
	if ((o->count + 1) <= o->cap / 4 * 3)
		return 0;
	if (now_ns >= o->next_leak_ns) {
		int r = rehash(o, o->cap, now_ns);

		if (r < 0)
			return r;
		/* Purged enough to be worth it: under half full. */
		if (o->count < o->cap / 2)
			return 0;
	}
	if (o->cap >= o->max_cap)
		return (o->count + 1) <= o->cap / 4 * 3 ? 0 : -ENOSPC;
	return rehash(o, o->cap * 2, now_ns);
}

static int log_change(struct ras_once_seen *o, const struct item *it, bool added)
{
	if (o->n_log == o->cap_log) {
		size_t cap = o->cap_log ? o->cap_log * 2 : 64;
		struct change *m = realloc(o->log, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		o->log = m;
		o->cap_log = cap;
	}
	o->log[o->n_log++] = (struct change){ *it, added };
	return 0;
}

/* Linear probing without tombstones: later entries of the run move back. */
static void remove_at(struct ras_once_seen *o, size_t i)
{
	size_t mask = o->cap - 1, j = i;

	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!o->slots[j].k)
			break;
		home = (size_t)o->slots[j].k & mask;
		/* Stays when its home lies cyclically in (i, j]. */
		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		o->slots[i] = o->slots[j];
		i = j;
	}
	o->slots[i].k = 0;
	o->count--;
	o->miss_ok = false;
}

/* Into the free slot i, where find put it. */
static void insert_at(struct ras_once_seen *o, size_t i, const struct item *it)
{
	int64_t at;

	o->slots[i] = *it;
	o->count++;
	o->miss_ok = false;
	at = leaks_at(o, it);
	if (at < o->next_leak_ns)
		o->next_leak_ns = at;
}

static void insert(struct ras_once_seen *o, const struct item *it)
{
	size_t i = find(o, it->k);

	if (!o->slots[i].k)
		insert_at(o, i, it);
}

void ras_once_seen_prefetch(const struct ras_once_seen *o, unsigned tag, uint64_t hash)
{
	if (o && o->slots)
		__builtin_prefetch(&o->slots[(size_t)key_of(tag, hash) & (o->cap - 1)]);
}

int ras_once_seen_take(struct ras_once_seen *o, unsigned tag, uint64_t hash, int64_t *wall_ns,
		       unsigned *n)
{
	uint64_t k = key_of(tag, hash);
	size_t i;

	if (!o->count)
		return 0;
	i = find(o, k);
	if (!o->slots[i].k) {
		o->miss_k = k;
		o->miss_i = i;
		o->miss_ok = true;
		return 0;
	}
	if (log_change(o, &o->slots[i], false) < 0)
		return 0;
	*wall_ns = o->slots[i].wall_ns;
	*n = n_of(o->slots[i].k);
	remove_at(o, i);
	return 1;
}

int ras_once_seen_add(struct ras_once_seen *o, unsigned tag, uint64_t hash, int64_t wall_ns,
		      unsigned n, int64_t now_ns)
{
	struct item it = { key_of(tag, hash) | ((uint64_t)n << N_SHIFT), wall_ns };
	size_t i;
	int r;

	if (!n)
		return -EINVAL;
	if (n > RAS_ONCE_SEEN_MAX_N)
		return -ENOSPC;
	if ((r = make_room(o, now_ns)) < 0)
		return r;
	/* Taken and missed just before (make_room moved nothing): its slot is known. */
	i = o->miss_ok && o->miss_k == key_of(tag, hash) ? o->miss_i : find(o, it.k);
	if (o->slots[i].k)
		return 0;
	if (log_change(o, &it, true) < 0)
		return -ENOMEM;
	insert_at(o, i, &it);
	return 0;
}

int ras_once_seen_trim(struct ras_once_seen *o, int64_t now_ns)
{
	size_t cap = START_CAP;
	int r;

	if (!o->slots || o->n_log)
		return 0;
	if (now_ns >= o->next_leak_ns && (r = rehash(o, o->cap, now_ns)) < 0)
		return r;
	if (!o->count) {
		ras_once_seen_clear(o);
		return 0;
	}
	/* Under a quarter full: shrunk to at most half full, so it takes many adds to grow again. */
	if (o->cap <= START_CAP || o->count >= o->cap / 4)
		return 0;
	while (cap / 2 < o->count)
		cap *= 2;
	return rehash(o, cap, now_ns);
}

size_t ras_once_seen_count(const struct ras_once_seen *o)
{
	return o->count;
}

size_t ras_once_seen_bytes(const struct ras_once_seen *o)
{
	return o->slots ? o->cap * sizeof(struct item) : 0;
}

void ras_once_seen_committed(struct ras_once_seen *o)
{
	o->n_log = 0;
}

size_t ras_once_seen_mark(const struct ras_once_seen *o)
{
	return o ? o->n_log : 0;
}

void ras_once_seen_committed_to(struct ras_once_seen *o, size_t mark)
{
	if (!o || !mark || mark > o->n_log)
		return;
	memmove(o->log, o->log + mark, (o->n_log - mark) * sizeof(*o->log));
	o->n_log -= mark;
}

void ras_once_seen_rolled_back(struct ras_once_seen *o)
{
	for (size_t n = o->n_log; n-- > 0;) {
		const struct change *c = &o->log[n];
		size_t i;

		if (c->added) {
			/* Gone already when it leaked out in a purge. */
			if (o->slots && o->slots[i = find(o, c->it.k)].k)
				remove_at(o, i);
			continue;
		}
		/* Taken: its slot was freed by the take, so there is room. */
		if (o->slots && o->count + 1 < o->cap)
			insert(o, &c->it);
	}
	o->n_log = 0;
}

void ras_once_seen_clear(struct ras_once_seen *o)
{
	free(o->slots);
	o->slots = NULL;
	o->cap = 0;
	o->count = 0;
	o->miss_ok = false;
	o->n_log = 0;
	o->next_leak_ns = INT64_MAX;
}
