/* SPDX-License-Identifier: MIT */
/*
 * What the tests of the writer thread and of held records failing at commit
 * share (test-write-behind, test-fold-hold-fail): a database opened for
 * writing, with or without the writer thread, and two databases compared
 * table by table.
 */
#ifndef RAS_WRITER_FIXTURE_H
#define RAS_WRITER_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include "db/db.h"

/* path opened as rasd's writer ("test-boot"), its writer thread started when behind; NULL on failure. */
struct ras_db *open_db(const char *path, bool behind);
/*
 * In place of the writer thread's tripwire: each INSERT into table (kept,
 * not copied) noted as it starts; watched_rows() the VALUES tuples of the last.
 */
void watch_inserts(struct ras_db *db, const char *table);
unsigned watched_rows(void);
/* Rows of table in database a and not in b, and the other way; -1 when they cannot be read. */
int64_t differing(const char *a, const char *b, const char *table);

#endif
