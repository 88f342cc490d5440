/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
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

/*
 * Linear probing over the slots [base, cap): a probe past the end goes on at
 * base, a home under base starts at base. base is 0 but in a table being
 * emptied into a larger one, where the slots under base are emptied already.
 */
struct table {
	struct item *slots;
	size_t cap, count, base;
	/*
	 * A bit for each page of slots written since the table was allocated
	 * (own_page), and the page numbers: the bits follow the slots in their
	 * allocation.
	 */
	uint64_t *written;
	uintptr_t page0;
	unsigned shift;
};

/* Slots of the old table moved to the new one by each add while growing. */
#define GROW_STEP_SLOTS 16
/* The old table's emptied memory given back 256 KiB at a time, so that freeing it costs little. */
#define RELEASE_SLOTS 16384

struct ras_once_seen {
	struct table t;           /* where entries go */
	/*
	 * While growing: the smaller table, emptied into t a few slots an add.
	 * Moving a storm's 786,000 entries at once stopped the event loop 78 ms
	 * (issue 39), longer than a CPU's buffer lasts at 100,000 records/s.
	 */
	struct table old;
	size_t old_released;      /* its slots under this were given back to the kernel */
	size_t max_cap;
	int64_t leak_ns[RAS_ONCE_SEEN_TAGS];
	int64_t next_leak_ns;     /* no entry leaks out before this; INT64_MAX: none will */
	int64_t grown_leak_ns;    /* the same for the entries put in t since it grew */
	struct change *log;
	size_t n_log, cap_log;
	/*
	 * Where the last take that missed would put its key in t: a first record is
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

static size_t count_of(const struct ras_once_seen *o)
{
	return o->t.count + o->old.count;
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
	free(o->t.slots);
	free(o->old.slots);
	free(o->log);
	free(o);
}

void ras_once_seen_set_leak(struct ras_once_seen *o, unsigned tag, int64_t leak_ns)
{
	if (tag < RAS_ONCE_SEEN_TAGS)
		o->leak_ns[tag] = leak_ns;
	/* Not known any more which entry leaks first: the next look tells. */
	o->next_leak_ns = INT64_MIN;
	o->grown_leak_ns = INT64_MIN;
}

/*
 * A page of slots is written before it is first read. Read first, a fresh
 * page of a calloc'd table maps the kernel's shared zero page, and the first
 * store then replaces it, a second fault that flushes the TLB of every CPU
 * running one of rasd's threads: with the writer thread busy on the other
 * core, an IPI (a VM exit under a hypervisor). In the 2-core VM that was
 * 14.5 us a page against 1.3 us written first, and 7 % of rasd's CPU on
 * make bench's 1M-record storm (perf: do_wp_page under ras_once_seen_add).
 * The write never changes a slot (below); the table is the event loop's alone.
 */
static inline __attribute__((always_inline)) void own_page(struct table *t, size_t i)
{
	size_t p = (size_t)(((uintptr_t)&t->slots[i] >> t->shift) - t->page0);

	if (__builtin_expect(t->written[p / 64] >> (p % 64) & 1, 1))
		return;
	t->written[p / 64] |= 1ULL << (p % 64);
	/*
	 * A bit flipped and flipped back: two atomic writes, each faulting as a
	 * write, that leave the slot as it was. An OR of 0 would be one, but a
	 * compiler may read it as a load (clang does, and drops it).
	 */
	__atomic_fetch_xor(&t->slots[i].k, 1, __ATOMIC_RELAXED);
	__atomic_fetch_xor(&t->slots[i].k, 1, __ATOMIC_RELAXED);
}

/* An empty table of cap slots (a power of two), with its pages' bits. */
static int table_alloc(struct table *t, size_t cap)
{
	static unsigned shift;
	size_t pages, words;
	struct item *m;

	if (!shift)
		shift = (unsigned)__builtin_ctzl((unsigned long)sysconf(_SC_PAGESIZE));
	/* The pages the slots span, one more for a start inside a page. */
	pages = cap * sizeof(struct item) / ((size_t)1 << shift) + 2;
	words = (pages + 63) / 64;
	m = calloc(1, cap * sizeof(*m) + words * sizeof(uint64_t));
	if (!m)
		return -ENOMEM;
	*t = (struct table){ .slots = m, .cap = cap, .written = (uint64_t *)(void *)(m + cap),
			     .page0 = (uintptr_t)m >> shift, .shift = shift };
	return 0;
}

static size_t home_of(const struct table *t, uint64_t k)
{
	size_t i = (size_t)k & (t->cap - 1);

	return i < t->base ? t->base : i;
}

static size_t next_of(const struct table *t, size_t i)
{
	return ++i == t->cap ? t->base : i;
}

/* The slot holding key k (whatever its errors), or the free slot where it would go. */
static size_t find(const struct table *t, uint64_t k)
{
	size_t i = home_of(t, k);

	k &= KEY_MASK;
	while (t->slots[i].k && (t->slots[i].k & KEY_MASK) != k)
		i = next_of(t, i);
	return i;
}

/*
 * The same in the table entries go to, whose base is 0: the add's and the
 * take's probe, its home's page written before it is read (a probe runs on
 * into the next page for about 3 % of keys: that page is left to be some
 * other key's home).
 */
static inline __attribute__((always_inline)) size_t find_live(struct table *t, uint64_t k)
{
	size_t mask = t->cap - 1, i = (size_t)k & mask;

	k &= KEY_MASK;
	own_page(t, i);
	while (t->slots[i].k && (t->slots[i].k & KEY_MASK) != k)
		i = (i + 1) & mask;
	return i;
}

/*
 * The table holding key k and its slot there; NULL and t's free slot for k
 * when neither does. Inlined: a call was a fifth of a take (callgrind).
 */
static inline __attribute__((always_inline)) struct table *
lookup(struct ras_once_seen *o, uint64_t k, size_t *i)
{
	size_t j;

	*i = find_live(&o->t, k);
	if (o->t.slots[*i].k)
		return &o->t;
	if (o->old.count && o->old.slots[j = find(&o->old, k)].k) {
		*i = j;
		return &o->old;
	}
	return NULL;
}

/*
 * Gives back the pages of the old table's slots emptied since the last time:
 * munmap of a 16 MiB table, touched, took 1.3 ms. Only whole pages inside
 * the allocation; the slots under base are never read again.
 */
static void release_emptied(struct ras_once_seen *o)
{
	size_t page = (size_t)1 << o->old.shift;
	uintptr_t from, to;

	if (o->old.base - o->old_released < RELEASE_SLOTS)
		return;
	from = (uintptr_t)(o->old.slots + o->old_released);
	to = (uintptr_t)(o->old.slots + o->old.base);
	from = (from + page - 1) / page * page;
	to = to / page * page;
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
	o->old_released = o->old.base;
}

/*
 * Empties up to budget slots of the old table into t, and frees it when
 * empty. The old table always keeps a free slot, where its probes stop: with
 * one left, what lies after it (a run up to the table's end) goes at once.
 */
static void grow_step(struct ras_once_seen *o, size_t budget)
{
	struct table *old = &o->old;
	/*
	 * In locals: a store to a slot could be a store to them, as far as the
	 * compiler knows (size_t and uint64_t are one type). What put_moved does
	 * for each entry, the new table's count and times written back once.
	 */
	size_t base = old->base, count = old->count, cap = old->cap, moved = 0;
	struct item *from = old->slots, *to = o->t.slots;
	size_t mask = o->t.cap - 1;
	int64_t grown = o->grown_leak_ns;

	while (count && (budget || cap - base - count <= 1)) {
		struct item *it = &from[base++];
		int64_t at;
		size_t i;

		if (budget)
			budget--;
		if (!it->k)
			continue;
		/* Already counted in next_leak_ns, not yet in grown_leak_ns. */
		at = leaks_at(o, it);
		own_page(&o->t, i = (size_t)it->k & mask);
		while (to[i].k && (to[i].k & KEY_MASK) != (it->k & KEY_MASK))
			i = (i + 1) & mask;
		to[i] = *it;
		moved++;
		if (at < grown)
			grown = at;
		it->k = 0;
		count--;
	}
	o->t.count += moved;
	o->grown_leak_ns = grown;
	if (moved)
		o->miss_ok = false;
	old->base = base;
	old->count = count;
	if (old->slots && count)
		release_emptied(o);
	if (old->slots && !count) {
		free(old->slots);
		*old = (struct table){ 0 };
		/* Every entry now was put in t since it grew. */
		o->next_leak_ns = o->grown_leak_ns;
	}
}

/* Into a table of cap slots, without the entries leaked out by now_ns. */
static int rehash(struct ras_once_seen *o, size_t cap, int64_t now_ns)
{
	struct table old, fresh;

	if (table_alloc(&fresh, cap) < 0)
		return -ENOMEM;
	grow_step(o, SIZE_MAX);
	old = o->t;
	o->t = fresh;
	o->miss_ok = false;
	o->next_leak_ns = INT64_MAX;
	for (size_t i = 0; i < old.cap; i++) {
		int64_t at;

		if (!old.slots[i].k || (at = leaks_at(o, &old.slots[i])) <= now_ns)
			continue;
		o->t.slots[find_live(&o->t, old.slots[i].k)] = old.slots[i];
		o->t.count++;
		if (at < o->next_leak_ns)
			o->next_leak_ns = at;
	}
	free(old.slots);
	return 0;
}

/*
 * Twice the slots: the entries move a few slots an add (grow_step). Nothing
 * has leaked out by now: make_room purged first when something could have.
 */
static int grow(struct ras_once_seen *o)
{
	struct table fresh;

	if (table_alloc(&fresh, o->t.cap * 2) < 0)
		return -ENOMEM;
	o->old = o->t;
	o->old_released = 0;
	o->t = fresh;
	o->grown_leak_ns = INT64_MAX;
	o->miss_ok = false;
	return 0;
}

/* Room for one more: drop what leaked out, else grow; -ENOSPC at the bound. */
static int make_room(struct ras_once_seen *o, int64_t now_ns)
{
	if (!o->t.slots)
		return rehash(o, START_CAP, now_ns);
	if ((count_of(o) + 1) <= o->t.cap / 4 * 3)
		return 0;
	/* Still growing from the last time (adds keep well ahead of that): finished first. */
	grow_step(o, SIZE_MAX);
	if (now_ns >= o->next_leak_ns) {
		int r = rehash(o, o->t.cap, now_ns);

		if (r < 0)
			return r;
		/* Purged enough to be worth it: under half full. */
		if (o->t.count < o->t.cap / 2)
			return 0;
	}
	if (o->t.cap >= o->max_cap)
		return (o->t.count + 1) <= o->t.cap / 4 * 3 ? 0 : -ENOSPC;
	return grow(o);
}

static __attribute__((noinline)) int log_grow(struct ras_once_seen *o)
{
	size_t cap = o->cap_log ? o->cap_log * 2 : 64;
	struct change *m = realloc(o->log, cap * sizeof(*m));

	if (!m)
		return -ENOMEM;
	o->log = m;
	o->cap_log = cap;
	return 0;
}

/* Inlined: every take that hits and every add that holds logs its change (a call was 28 M of 1M records). */
static inline __attribute__((always_inline)) int log_change(struct ras_once_seen *o,
							    const struct item *it, bool added)
{
	if (o->n_log == o->cap_log && log_grow(o) < 0)
		return -ENOMEM;
	o->log[o->n_log++] = (struct change){ *it, added };
	return 0;
}

/* Linear probing without tombstones: later entries of the run move back. */
static void remove_at(struct ras_once_seen *o, struct table *t, size_t i)
{
	size_t j = i;

	for (;;) {
		size_t home;

		j = next_of(t, j);
		if (!t->slots[j].k)
			break;
		home = home_of(t, t->slots[j].k);
		/* Stays when its home lies cyclically in (i, j]. */
		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		t->slots[i] = t->slots[j];
		i = j;
	}
	t->slots[i].k = 0;
	t->count--;
	o->miss_ok = false;
}

/* Into t's free slot i, where lookup put it. */
static void insert_at(struct ras_once_seen *o, size_t i, const struct item *it)
{
	int64_t at;

	o->t.slots[i] = *it;
	o->t.count++;
	o->miss_ok = false;
	at = leaks_at(o, it);
	if (at < o->next_leak_ns)
		o->next_leak_ns = at;
	if (at < o->grown_leak_ns)
		o->grown_leak_ns = at;
}

void ras_once_seen_prefetch(const struct ras_once_seen *o, unsigned tag, uint64_t hash)
{
	uint64_t k = key_of(tag, hash);

	if (!o || !o->t.slots)
		return;
	__builtin_prefetch(&o->t.slots[home_of(&o->t, k)]);
	if (o->old.count)
		__builtin_prefetch(&o->old.slots[home_of(&o->old, k)]);
}

int ras_once_seen_take(struct ras_once_seen *o, unsigned tag, uint64_t hash, int64_t *wall_ns,
		       unsigned *n)
{
	uint64_t k = key_of(tag, hash);
	struct table *t;
	size_t i;

	if (!count_of(o))
		return 0;
	if (!(t = lookup(o, k, &i))) {
		o->miss_k = k;
		o->miss_i = i;
		o->miss_ok = true;
		return 0;
	}
	if (log_change(o, &t->slots[i], false) < 0)
		return 0;
	*wall_ns = t->slots[i].wall_ns;
	*n = n_of(t->slots[i].k);
	remove_at(o, t, i);
	return 1;
}

int ras_once_seen_add(struct ras_once_seen *o, unsigned tag, uint64_t hash, int64_t wall_ns,
		      unsigned n, int64_t now_ns)
{
	struct item it = { key_of(tag, hash) | ((uint64_t)n << N_SHIFT), wall_ns };
	bool held;
	size_t i;
	int r;

	if (!n)
		return -EINVAL;
	if (n > RAS_ONCE_SEEN_MAX_N)
		return -ENOSPC;
	if ((r = make_room(o, now_ns)) < 0)
		return r;
	/* Taken and missed just before (make_room moved nothing): its slot is known. */
	if (o->miss_ok && o->miss_k == key_of(tag, hash)) {
		i = o->miss_i;
		held = false;
	} else {
		held = lookup(o, it.k, &i) != NULL;
	}
	if (!held) {
		if (log_change(o, &it, true) < 0)
			return -ENOMEM;
		insert_at(o, i, &it);
	}
	if (o->old.slots)
		grow_step(o, GROW_STEP_SLOTS);
	return 0;
}

int ras_once_seen_trim(struct ras_once_seen *o, int64_t now_ns)
{
	size_t cap = START_CAP;
	int r;

	if (!o->t.slots || o->n_log)
		return 0;
	if (now_ns >= o->next_leak_ns && (r = rehash(o, o->t.cap, now_ns)) < 0)
		return r;
	if (!count_of(o)) {
		ras_once_seen_clear(o);
		return 0;
	}
	/* Under a quarter full: shrunk to at most half full, so it takes many adds to grow again. */
	if (o->t.cap <= START_CAP || count_of(o) >= o->t.cap / 4)
		return 0;
	while (cap / 2 < count_of(o))
		cap *= 2;
	return rehash(o, cap, now_ns);
}

size_t ras_once_seen_count(const struct ras_once_seen *o)
{
	return count_of(o);
}

/* While growing, both tables'. */
size_t ras_once_seen_bytes(const struct ras_once_seen *o)
{
	return o->t.slots ? (o->t.cap + o->old.cap) * sizeof(struct item) : 0;
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
	for (size_t n = o->n_log; n-- > 0 && o->t.slots;) {
		const struct change *c = &o->log[n];
		struct table *t;
		size_t i;

		t = lookup(o, c->it.k, &i);
		/* Added: gone already when it leaked out in a purge. */
		if (c->added) {
			if (t)
				remove_at(o, t, i);
			continue;
		}
		/* Taken: its slot was freed by the take, so there is room. */
		if (!t && count_of(o) + 1 < o->t.cap)
			insert_at(o, i, &c->it);
	}
	o->n_log = 0;
}

void ras_once_seen_clear(struct ras_once_seen *o)
{
	free(o->t.slots);
	free(o->old.slots);
	o->t = (struct table){ 0 };
	o->old = (struct table){ 0 };
	o->miss_ok = false;
	o->n_log = 0;
	o->next_leak_ns = INT64_MAX;
}
