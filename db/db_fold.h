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
/* Writes one zigzag varint of a second's difference to the previous one; returns its bytes (<= 10). */
size_t ras_db_fold_put_delta(uint8_t *out, int64_t delta);
/* The SQL functions the folded-record queries use (every connection, reader or writer). */
int ras_db_fold_register(sqlite3 *h);
/*
 * The folded records of one table whose time (to the second) is in
 * [from, to), as a SELECT of (severity, location, n, first_ns, last_ns,
 * boot, source, synthetic, subject, dims), rows with n > 0 only: to be
 * UNION ALLed with the raw rows of a window's partial hours, so that edge
 * counts include what was folded. tbl, from and to name the caller's SQL
 * parameters (e.g. "?5", "?8", "?9"). Returns 0, or -ENOSPC if out is short.
 */
int ras_db_folded_in_window_sql(char *out, size_t len, const char *tbl, const char *from,
				const char *to);

#endif
