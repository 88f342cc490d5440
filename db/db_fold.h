/* SPDX-License-Identifier: MIT */
/* Storm folding and the raw-record limits (db_fold.c); internal to db/. */
#ifndef RAS_DB_FOLD_H
#define RAS_DB_FOLD_H

#include "db_internal.h"

/* Notes a record just stored as row id: it may start or go on folding its subject's storm. */
int ras_db_fold_note(struct ras_db *db, const struct ras_db_event *ev, int64_t id);
/* Inside the transaction, before COMMIT: applies the size and age limits, writes the folds. */
int ras_db_fold_flush(struct ras_db *db);
/* After COMMIT: this transaction's rows may be folded from now on. */
void ras_db_fold_committed(struct ras_db *db);
/* The transaction was rolled back: forget what it folded and every storm's held rows. */
void ras_db_fold_discard(struct ras_db *db);
void ras_db_fold_free(struct ras_db *db);
/* Folds up to a batch of the oldest raw rows of table idx stored before before_ns (committed ones). */
int ras_db_fold_oldest(struct ras_db *db, unsigned idx, int64_t before_ns);
/* Inside the transaction: folds what the age and size limits l say must go (db_fold_limits.c). */
int ras_db_fold_apply_limits(struct ras_db *db, const struct ras_db_limits *l, int64_t newest_ns);
/* Writes one zigzag varint of a second's difference to the previous one; returns its bytes (<= 10). */
size_t ras_db_fold_put_delta(uint8_t *out, int64_t delta);
/* The SQL functions the folded-record queries use (every connection, reader or writer). */
int ras_db_fold_register(sqlite3 *h);

#endif
