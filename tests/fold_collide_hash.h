/* SPDX-License-Identifier: MIT */
/*
 * db/db_fold_hash.h as tests/test-fold-collide builds db/db_fold_entries.c:
 * every key's hash is the one ras_db_fold_test_hash() (the test's) gives, so
 * keys collide in the batch's places and the known rows. The test's build
 * takes this header first (-include, tests/fold.mk) under db/db_fold_hash.h's
 * guard, which then adds nothing; rasd's build never sees it. Were the
 * guards to differ, ras_db_fold_key_hash would be defined twice (no build);
 * were this header not taken, the test finds no key hashed here and fails.
 */
#ifndef RAS_DB_FOLD_HASH_H
#define RAS_DB_FOLD_HASH_H

#include <stdint.h>
#include "db/db_fold_internal.h"

uint64_t ras_db_fold_test_hash(void);

static inline uint64_t ras_db_fold_key_hash(unsigned idx, int64_t hour, const char *subject,
					    const struct folded_row *r)
{
	return ras_db_fold_test_hash();
}

#endif
