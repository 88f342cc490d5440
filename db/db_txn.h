/* SPDX-License-Identifier: MIT */
/*
 * The transaction and the write path's stages (db_txn.c). ras_db_begin,
 * ras_db_commit, ras_db_commit_behind, ras_db_rollback, ras_db_fold_settle,
 * ras_db_slot_bytes and ras_db_release_memory are db.h's; this is what
 * opening and closing (db.c) need besides.
 */
#ifndef RAS_DB_TXN_H
#define RAS_DB_TXN_H

#include "db_internal.h"

/* Every stage's memory, at close (the transaction rolled back first). */
void ras_db_stages_free(struct ras_db *db);

#endif
