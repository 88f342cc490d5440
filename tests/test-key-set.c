/* SPDX-License-Identifier: MIT */
/*
 * The spilled keys' index (lib/key_set.c): a key added is always "maybe",
 * removed as often as added it is gone, keys never added are almost never
 * "maybe", and past its bound the set says "maybe" for every key until it
 * is cleared.
 */
#include <errno.h>
#include <stdint.h>
#include "lib/key_set.h"
#include "tap.h"

#define KEYS 100000

static uint64_t key(unsigned i)
{
	return 1469598103934665603ULL ^ ((uint64_t)i * 1099511628211ULL);
}

int main(void)
{
	struct ras_key_set *s = NULL;
	unsigned missing = 0, false_hits = 0;

	if (!tap_ok(ras_key_set_new(&s, 2 * KEYS) == 0, "a set"))
		return tap_done();
	tap_ok(!ras_key_set_maybe(s, key(1)), "empty: surely not");
	for (unsigned i = 0; i < KEYS; i++)
		ras_key_set_add(s, key(i));
	for (unsigned i = 0; i < KEYS; i++)
		missing += !ras_key_set_maybe(s, key(i));
	tap_is_int((int)missing, 0, "every one of %d keys added is there", KEYS);
	for (unsigned i = KEYS; i < 2 * KEYS; i++)
		false_hits += ras_key_set_maybe(s, key(i));
	tap_ok(false_hits < 10, "of %d keys never added, %u said maybe", KEYS, false_hits);
	/* 4-byte slots, grown by doubling at three quarters full: at least 3/8 full. */
	tap_ok(ras_key_set_bytes(s) <= (size_t)KEYS * 32 / 3, "%zu bytes for %d keys",
	       ras_key_set_bytes(s), KEYS);
	for (unsigned i = 0; i < KEYS; i += 2)
		ras_key_set_remove(s, key(i));
	missing = 0;
	for (unsigned i = 1; i < KEYS; i += 2)
		missing += !ras_key_set_maybe(s, key(i));
	tap_is_int((int)missing, 0, "half removed: the other half still there");
	tap_is_int((int)ras_key_set_count(s), KEYS / 2, "and counted");
	ras_key_set_add(s, key(1));
	ras_key_set_remove(s, key(1));
	tap_ok(ras_key_set_maybe(s, key(1)), "a key added twice and removed once is still there");
	ras_key_set_remove(s, key(1));
	tap_ok(!ras_key_set_maybe(s, key(1)), "removed twice, gone");
	ras_key_set_remove(s, key(1));
	tap_is_int((int)ras_key_set_count(s), KEYS / 2 - 1, "removing a key not there changes nothing");
	ras_key_set_free(s);

	if (!tap_ok(ras_key_set_new(&s, 100) == 0, "a set bounded to 100 keys"))
		return tap_done();
	for (unsigned i = 0; i < 100; i++)
		ras_key_set_add(s, key(i));
	tap_ok(!ras_key_set_overflowed(s) && !ras_key_set_maybe(s, key(1000)), "100 keys fit");
	tap_is_int(ras_key_set_add(s, key(100)), -ENOSPC, "the 101st does not");
	tap_ok(ras_key_set_overflowed(s) && ras_key_set_maybe(s, key(1000)) &&
	       ras_key_set_maybe(s, key(100)), "overflowed: every key is maybe, never a wrong no");
	tap_is_int((int)ras_key_set_bytes(s), 0, "its slots given back");
	ras_key_set_remove(s, key(5));
	tap_ok(ras_key_set_maybe(s, key(5)), "a removal changes nothing while overflowed");
	ras_key_set_clear(s);
	tap_ok(!ras_key_set_overflowed(s) && !ras_key_set_maybe(s, key(5)), "cleared: exact again");
	ras_key_set_add(s, key(5));
	ras_key_set_give_up(s);
	tap_ok(ras_key_set_overflowed(s) && ras_key_set_maybe(s, key(6)), "given up: maybe for every key");
	ras_key_set_free(s);
	return tap_done();
}
