/* SPDX-License-Identifier: MIT */
/*
 * A bounded set of 64-bit keys, each kept as a 32-bit fingerprint (4 bytes
 * a slot, at most three quarters full): it answers "surely not there" or
 * "maybe". It indexes a table kept elsewhere (db/db_actions.c's spill of
 * subjects seen once), so that a key never added costs no look-up there.
 *
 * A key added twice takes two slots and a removal frees one, so two keys
 * of the same fingerprint never hide each other: "surely not" is never
 * wrong. Past its bound, or when memory runs out, the set is overflowed:
 * it answers "maybe" for every key until it is cleared. Pure memory.
 */
#ifndef RAS_KEY_SET_H
#define RAS_KEY_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ras_key_set;

/* A set of at most max_keys (at least 16); it starts small and grows. */
int ras_key_set_new(struct ras_key_set **out, size_t max_keys);
void ras_key_set_free(struct ras_key_set *s);
/* 0; -ENOSPC at the bound or -ENOMEM, and the set is overflowed from then on. */
int ras_key_set_add(struct ras_key_set *s, uint64_t key);
/* False only when key was surely not added (or was removed as often as added). */
bool ras_key_set_maybe(const struct ras_key_set *s, uint64_t key);
/* Forgets one addition of key (one slot of its fingerprint); none there: nothing. */
void ras_key_set_remove(struct ras_key_set *s, uint64_t key);
/* Overflowed now (the keys it should hold cannot be told): "maybe" for every key. */
void ras_key_set_give_up(struct ras_key_set *s);
/* Empty, exact again, and its memory given back. */
void ras_key_set_clear(struct ras_key_set *s);
bool ras_key_set_overflowed(const struct ras_key_set *s);
size_t ras_key_set_count(const struct ras_key_set *s);
size_t ras_key_set_bytes(const struct ras_key_set *s);

#endif
