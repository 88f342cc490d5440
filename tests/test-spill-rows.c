/* SPDX-License-Identifier: MIT */
/*
 * The spill's rows in memory (lib/spill_rows.c), against a plain array of
 * the same rows: random puts (a key's row replaced whatever its kind, as the
 * table's INSERT OR REPLACE on k), takes (key and kind must match) and
 * removals, over keys that share their low bits, so that probing and the
 * removal's moves are exercised. Then its bound: past it, it cannot tell
 * until cleared.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "lib/spill_rows.h"
#include "rng.h"
#include "tap.h"

#define KEYS 5000
#define STEPS 200000

struct ref {
	bool held;
	int kind;
	int64_t wall_ns;
	unsigned n;
};

static struct ref ref[KEYS];

static uint64_t key(unsigned i)
{
	/* Keys 2^32 apart: the same low bits, told apart only by the mix. */
	return ((uint64_t)i << 32) | 7;
}

/* One random step on both; false when they answer differently. */
static bool step(struct ras_spill_rows *s, uint64_t *x)
{
	unsigned i = (unsigned)(rng_next(x) % KEYS), op = (unsigned)(rng_next(x) % 3);
	int kind = (int)(rng_next(x) % 3), r, want;
	int64_t w = 0;
	unsigned n = 0;

	if (op == 0) {
		ref[i] = (struct ref){ true, kind, (int64_t)rng_next(x), (unsigned)rng_next(x) };
		return ras_spill_rows_put(s, key(i), kind, ref[i].wall_ns, ref[i].n) == 0;
	}
	if (op == 1) {
		want = ref[i].held && ref[i].kind == kind;
		r = ras_spill_rows_take(s, key(i), kind, &w, &n);
		if (want)
			ref[i].held = false;
		return r == want && (!want || (w == ref[i].wall_ns && n == ref[i].n));
	}
	ref[i].held = false;
	ras_spill_rows_remove(s, key(i));
	return true;
}

static void test_same_as_reference(void)
{
	struct ras_spill_rows *s = NULL;
	uint64_t x = 88172645463325252ULL;
	size_t held = 0;
	unsigned bad = 0;

	if (!tap_ok(ras_spill_rows_new(&s, KEYS) == 0, "a copy"))
		return;
	tap_is_int(ras_spill_rows_take(s, key(1), 0, &(int64_t){ 0 }, &(unsigned){ 0 }), 0,
		   "empty: not held");
	for (unsigned i = 0; i < STEPS; i++)
		bad += !step(s, &x);
	tap_is_int((int)bad, 0, "%d random puts, takes and removals: the same answers as a plain array", STEPS);
	for (unsigned i = 0; i < KEYS; i++)
		held += ref[i].held;
	tap_is_int((int)ras_spill_rows_count(s), (int)held, "the same rows held (%zu)", held);
	bad = 0;
	for (unsigned i = 0; i < KEYS; i++) {
		int64_t w;
		unsigned n;
		int r = ras_spill_rows_take(s, key(i), ref[i].kind, &w, &n);

		bad += r != (int)ref[i].held || (r == 1 && (w != ref[i].wall_ns || n != ref[i].n));
	}
	tap_is_int((int)bad, 0, "each taken back with its time and count");
	tap_is_int((int)ras_spill_rows_count(s), 0, "then empty");
	tap_ok(!ras_spill_rows_overflowed(s), "never past its bound");
	ras_spill_rows_free(s);
}

static void test_bound(void)
{
	struct ras_spill_rows *s = NULL;
	int64_t w;
	unsigned n;

	if (!tap_ok(ras_spill_rows_new(&s, 16) == 0, "a copy of 16 rows"))
		return;
	for (unsigned i = 0; i < 16; i++)
		ras_spill_rows_put(s, key(i), 1, i, 1);
	tap_is_int(ras_spill_rows_put(s, key(3), 2, 33, 2), 0, "a key held, replaced at the bound");
	tap_is_int(ras_spill_rows_take(s, key(3), 1, &w, &n), 0, "its old kind is gone");
	tap_is_int(ras_spill_rows_put(s, key(3), 1, 3, 1), 0, "put back");
	tap_is_int(ras_spill_rows_put(s, key(16), 1, 16, 1), -ENOSPC, "the 17th: past the bound");
	tap_ok(ras_spill_rows_overflowed(s), "overflowed");
	tap_is_int(ras_spill_rows_take(s, key(1), 1, &w, &n), -EAGAIN, "it cannot tell");
	tap_is_int(ras_spill_rows_take(s, key(99), 1, &w, &n), -EAGAIN, "not even of a key never put");
	ras_spill_rows_clear(s);
	tap_is_int(ras_spill_rows_take(s, key(1), 1, &w, &n), 0, "cleared: exact again, empty");
	tap_is_int((int)ras_spill_rows_bytes(s), 0, "and its memory given back");
	ras_spill_rows_free(s);
}

int main(void)
{
	test_same_as_reference();
	test_bound();
	return tap_done();
}
