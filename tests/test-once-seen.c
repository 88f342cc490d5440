/* SPDX-License-Identifier: MIT */
/*
 * The set of subjects seen once (rasd/once_seen.h): what is added can be
 * taken once, with its time; a rollback undoes a transaction's adds and
 * takes; the set stops at its bound, drops only what has leaked out, and
 * grows; entries whose hashes collide survive each other's removal.
 */
#include <errno.h>
#include <stdint.h>
#include "rasd/once_seen.h"
#include "tap.h"

#define SEC 1000000000LL

/* Hashes sharing their low 20 bits: one long probe run in any table this test makes. */
static uint64_t colliding(unsigned i)
{
	return ((uint64_t)(i + 1) << 20) | 0x5a5a5;
}

static void test_take_once(void)
{
	struct ras_once_seen *o;
	int64_t t = 0;
	unsigned tn = 0;
	int bad = 0;

	ras_once_seen_new(&o, 1000);
	for (unsigned i = 0; i < 500; i++)
		bad += ras_once_seen_add(o, i % 5, colliding(i), (int64_t)i * SEC, 1, 0) != 0;
	tap_is_int(bad, 0, "500 subjects with colliding hashes held");
	tap_is_int(ras_once_seen_count(o), 500, "the set counts 500");
	tap_is_int(ras_once_seen_add(o, 2, colliding(2), 7, 1, 0), 0, "adding one held already changes nothing");
	tap_is_int(ras_once_seen_count(o), 500, "still 500");
	tap_is_int(ras_once_seen_take(o, 3, colliding(2), &t, &tn), 0, "a hash under another tag is another subject");
	/* Every other one taken, from the middle of the probe runs: the rest must stay reachable. */
	for (unsigned i = 0; i < 500; i += 2)
		bad += ras_once_seen_take(o, i % 5, colliding(i), &t, &tn) != 1 || t != (int64_t)i * SEC;
	tap_is_int(bad, 0, "every other subject taken once, with its error's time");
	for (unsigned i = 0; i < 500; i++)
		bad += ras_once_seen_take(o, i % 5, colliding(i), &t, &tn) != (int)(i % 2);
	tap_is_int(bad, 0, "the others are still there, each taken once; the taken ones are gone");
	tap_is_int(ras_once_seen_count(o), 0, "the set is empty");
	ras_once_seen_free(o);
}

static void test_rollback(void)
{
	struct ras_once_seen *o;
	int64_t t = 0;
	unsigned tn = 0;

	ras_once_seen_new(&o, 1000);
	ras_once_seen_add(o, 0, 11, 1 * SEC, 1, 0);
	ras_once_seen_add(o, 0, 12, 2 * SEC, 1, 0);
	ras_once_seen_committed(o);
	/* A transaction: a new one held, one taken (its second error), one held and taken again. */
	ras_once_seen_add(o, 0, 13, 3 * SEC, 1, 0);
	ras_once_seen_take(o, 0, 11, &t, &tn);
	ras_once_seen_add(o, 0, 14, 4 * SEC, 1, 0);
	ras_once_seen_take(o, 0, 14, &t, &tn);
	ras_once_seen_rolled_back(o);
	tap_is_int(ras_once_seen_count(o), 2, "after a rollback the set holds what was committed");
	tap_ok(ras_once_seen_take(o, 0, 11, &t, &tn) == 1 && t == 1 * SEC,
	       "the subject taken in the rolled-back transaction is back, with its time");
	tap_is_int(ras_once_seen_take(o, 0, 13, &t, &tn), 0, "the one added in it is gone");
	tap_is_int(ras_once_seen_take(o, 0, 14, &t, &tn), 0, "so is the one added and taken in it");
	ras_once_seen_committed(o);
	ras_once_seen_rolled_back(o);
	tap_is_int(ras_once_seen_count(o), 1, "a rollback after a commit undoes nothing of it");
	ras_once_seen_free(o);
}

static void test_bound(void)
{
	struct ras_once_seen *o;
	unsigned held = 0;
	int64_t t = 0;
	unsigned tn = 0;
	int r = 0;

	/* 3000 entries: 4096 slots, three quarters of them usable. */
	ras_once_seen_new(&o, 3000);
	ras_once_seen_set_leak(o, 1, 60 * SEC);
	for (unsigned i = 0; i < 10000 && (r = ras_once_seen_add(o, 1, colliding(i), 100 * SEC, 1, 100 * SEC)) == 0; i++)
		held++;
	tap_is_int(r, -ENOSPC, "a set full of errors still leaking refuses more");
	tap_is_int(held, 3072, "at its bound: 3072 held");
	tap_is_int(ras_once_seen_add(o, 1, 1, 130 * SEC, 1, 130 * SEC), -ENOSPC,
		   "30 s later nothing has leaked out at one error a minute: still full");
	tap_is_int(ras_once_seen_count(o), 3072, "a refused add changes nothing");
	tap_is_int(ras_once_seen_add(o, 1, 1, 160 * SEC, 1, 160 * SEC), 0,
		   "a minute after the errors they have leaked out: room again");
	tap_is_int(ras_once_seen_count(o), 1, "the leaked ones were dropped");
	tap_ok(ras_once_seen_take(o, 1, 1, &t, &tn) == 1 && t == 160 * SEC, "the new one is held");
	/* A tag that never leaks (0): its entries stay, whatever the time. */
	for (unsigned i = 0; i < 10; i++)
		ras_once_seen_add(o, 2, colliding(i), 0, 1, 0);
	for (unsigned i = 10; i < 10000 && ras_once_seen_add(o, 1, colliding(i), 200 * SEC, 1, 200 * SEC) == 0; i++)
		;
	ras_once_seen_add(o, 1, 2, 1000 * SEC, 1, 1000 * SEC);
	tap_is_int(ras_once_seen_take(o, 2, colliding(3), &t, &tn), 1, "an entry of a tag that never leaks outlives a purge");
	ras_once_seen_free(o);
}

static void test_growth(void)
{
	struct ras_once_seen *o;
	int64_t t = 0;
	unsigned tn = 0;
	int bad = 0;

	ras_once_seen_new(&o, 1u << 18);
	for (uint64_t i = 0; i < 200000; i++)
		bad += ras_once_seen_add(o, 0, i * 0x9e3779b97f4a7c15ULL, (int64_t)i, 1, 0) != 0;
	tap_is_int(bad, 0, "200,000 held: the set grew from its first 1024 slots");
	for (uint64_t i = 0; i < 200000; i++)
		bad += ras_once_seen_take(o, 0, i * 0x9e3779b97f4a7c15ULL, &t, &tn) != 1 || t != (int64_t)i;
	tap_is_int(bad, 0, "each found again with its time after the growth");
	ras_once_seen_clear(o);
	tap_is_int(ras_once_seen_count(o), 0, "cleared");
	tap_is_int(ras_once_seen_add(o, 0, 5, 5, 1, 0), 0, "and usable after");
	ras_once_seen_free(o);
}

/* A record of n errors: held with them, and leaked out only n leak times after it. */
static void test_errors(void)
{
	struct ras_once_seen *o;
	int64_t t = 0;
	unsigned tn = 0;

	/* 4 entries: 1024 slots, so the leak-out purge runs only when full. */
	ras_once_seen_new(&o, 4);
	ras_once_seen_set_leak(o, 1, 60 * SEC);
	tap_is_int(ras_once_seen_add(o, 1, 7, 100 * SEC, 0, 100 * SEC), -EINVAL, "no errors: not held");
	tap_ok(ras_once_seen_add(o, 1, 7, 100 * SEC, 3, 100 * SEC) == 0 &&
	       ras_once_seen_take(o, 1, 7, &t, &tn) == 1 && t == 100 * SEC && tn == 3,
	       "held with its time and its 3 errors");
	ras_once_seen_add(o, 1, 7, 100 * SEC, 3, 100 * SEC);
	ras_once_seen_add(o, 1, 8, 100 * SEC, 1, 100 * SEC);
	for (unsigned i = 0; i < 766; i++)
		ras_once_seen_add(o, 1, colliding(i), 400 * SEC, 1, 400 * SEC);
	/* Full at 768: the next add purges what leaked out by 220 s. */
	ras_once_seen_add(o, 1, 9, 220 * SEC, 1, 220 * SEC);
	tap_ok(ras_once_seen_take(o, 1, 7, &t, &tn) == 1 && tn == 3,
	       "two minutes on, 3 errors at one a minute have not leaked out");
	tap_is_int(ras_once_seen_take(o, 1, 8, &t, &tn), 0, "one error has");
	ras_once_seen_add(o, 1, 7, 100 * SEC, 3, 100 * SEC);
	ras_once_seen_add(o, 1, 10, 280 * SEC, 1, 280 * SEC);
	tap_is_int(ras_once_seen_take(o, 1, 7, &t, &tn), 0, "three minutes on, the 3 have");
	tap_ok(ras_once_seen_add(o, 1, 11, 300 * SEC, RAS_ONCE_SEEN_MAX_N, 300 * SEC) == 0 &&
	       ras_once_seen_take(o, 1, 11, &t, &tn) == 1 && tn == RAS_ONCE_SEEN_MAX_N,
	       "held with %d errors, the most an entry keeps", RAS_ONCE_SEEN_MAX_N);
	tap_is_int(ras_once_seen_add(o, 1, 11, 300 * SEC, RAS_ONCE_SEEN_MAX_N + 1, 300 * SEC), -ENOSPC,
		   "one more is refused (the caller spills it)");
	tap_is_int(ras_once_seen_take(o, 1, 11, &t, &tn), 0, "and not held");
	ras_once_seen_free(o);
}

/* After a storm: what leaked out is dropped and the memory given back; an open transaction waits. */
static void test_trim(void)
{
	struct ras_once_seen *o;
	int64_t t = 0;
	unsigned tn = 0;
	int bad = 0;

	ras_once_seen_new(&o, 100000);
	ras_once_seen_set_leak(o, 2, 3600 * SEC);
	for (unsigned i = 0; i < 3000; i++)
		ras_once_seen_add(o, 2, 1000 + i, (int64_t)i * SEC, 1, (int64_t)i * SEC);
	tap_is_int(ras_once_seen_bytes(o), 4096 * 16, "3,000 subjects in 4,096 slots of 16 bytes");
	tap_is_int(ras_once_seen_trim(o, 9000 * SEC), 0, "a trim with the transaction open");
	tap_is_int(ras_once_seen_count(o), 3000, "changes nothing");
	ras_once_seen_committed(o);
	ras_once_seen_trim(o, 5699 * SEC);
	tap_ok(ras_once_seen_count(o) == 900 && ras_once_seen_bytes(o) == 2048 * 16,
	       "at 5,699 s, 900 left: under a quarter of 4,096 slots, shrunk to 2,048 (%zu bytes)",
	       ras_once_seen_bytes(o));
	ras_once_seen_trim(o, 6590 * SEC);
	tap_is_int(ras_once_seen_count(o), 9, "at 6,590 s, at one error an hour, the last 9 have not leaked out");
	tap_is_int(ras_once_seen_bytes(o), 1024 * 16, "the slots shrink to the first size");
	for (unsigned i = 2991; i < 3000; i++)
		bad += ras_once_seen_take(o, 2, 1000 + i, &t, &tn) != 1 || t != (int64_t)i * SEC;
	tap_is_int(bad, 0, "each of them is still held, with its time");
	ras_once_seen_committed(o);
	ras_once_seen_add(o, 2, 7, 3000 * SEC, 2, 3000 * SEC);
	ras_once_seen_committed(o);
	ras_once_seen_trim(o, 10000 * SEC);
	tap_is_int(ras_once_seen_count(o), 1, "2 errors at 3,000 s outlast 10,000 s at one an hour");
	ras_once_seen_trim(o, 10200 * SEC);
	tap_ok(ras_once_seen_count(o) == 0 && ras_once_seen_bytes(o) == 0, "leaked out: the slots are freed");
	tap_ok(ras_once_seen_add(o, 2, 8, 10300 * SEC, 1, 10300 * SEC) == 0 &&
	       ras_once_seen_take(o, 2, 8, &t, &tn) == 1 && t == 10300 * SEC, "and the set is used again");
	ras_once_seen_free(o);
}

int main(void)
{
	test_take_once();
	test_errors();
	test_rollback();
	test_bound();
	test_growth();
	test_trim();
	return tap_done();
}
