/* SPDX-License-Identifier: MIT */
/*
 * The batch's folds, a list of entries by key (db_fold_entries.c): what
 * db_fold.c counts a folded record into. Internal to db/.
 */
#ifndef RAS_DB_FOLD_ENTRIES_H
#define RAS_DB_FOLD_ENTRIES_H

#include "db_fold_internal.h"

/*
 * Counts row r (fresh and id set) of table idx into its subject's entry for
 * r's key and hour, taking a new entry when none matches; a batch with more
 * keys than three quarters of the places writes its entries first. hint (NULL:
 * none) is the subject's entry index + 1 its last record was counted into,
 * tried first and set. 0 or -errno.
 */
int ras_db_fold_accumulate(struct ras_db *db, unsigned idx, const char *subject, struct folded_row *r,
			   unsigned *hint);
/* Every entry's buffers, the list, the places and the known rows given back. */
void ras_db_fold_entries_free(struct ras_db_fold *f);

#endif
