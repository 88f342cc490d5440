/* SPDX-License-Identifier: MIT */
/*
 * What the tests of the writer thread and of held records failing at commit
 * share (test-write-behind, test-fold-hold-fail, test-once-spill-behind,
 * test-bucket-unconfirmed): a database opened for writing, with or without
 * the writer thread, the writer thread held inside a job, and two databases
 * compared table by table.
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
/*
 * Holds db's writer thread inside a job until writer_hold_release(): returns
 * once the job runs (0), -1 when it cannot be handed over. A wait for the
 * writer thread (ras_db_sync) never returns while it is held; the job gives
 * up after 60 s only so that such a failing test ends.
 */
int writer_hold_start(struct ras_db *db);
/* Lets it go: false when the job had given up (something waited for it). */
bool writer_hold_release(void);
/* Rows of table in database a and not in b, and the other way; -1 when they cannot be read. */
int64_t differing(const char *a, const char *b, const char *table);

#endif
