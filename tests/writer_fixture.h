/* SPDX-License-Identifier: MIT */
/*
 * What the tests of the writer thread and of held records failing at commit
 * share (test-write-behind, test-fold-hold-fail, test-fold-news-fail,
 * test-fold-pack-again, test-once-spill-behind, test-bucket-unconfirmed,
 * test-commit-fd, test-behind-reads-on): a database
 * opened for writing, with or without the writer thread, the writer thread
 * held inside a job or inside a commit, and two databases compared table by
 * table.
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
/*
 * The commit gate: commit_gate_install() puts a commit hook on db's
 * connection; after commit_gate_hold_next() the next COMMIT waits inside it
 * (on the writer thread) until commit_gate_release(), which makes it fail
 * when fail. commit_gate_wait_held() returns once it waits. No deadline:
 * a test that could hang there runs a commit gate watchdog.
 */
void commit_gate_install(struct ras_db *db);
void commit_gate_hold_next(void);
void commit_gate_wait_held(void);
void commit_gate_release(bool fail);
/*
 * The watchdog: lets a held commit go if commit_gate_watchdog_end() is not
 * called within a minute of commit_gate_watchdog_start(), so that a broken
 * build's test fails, not hangs. _end: true when it had to (it fired).
 */
void commit_gate_watchdog_start(void);
bool commit_gate_watchdog_end(void);
/* Rows of table in database a and not in b, and the other way; -1 when they cannot be read. */
int64_t differing(const char *a, const char *b, const char *table);

#endif
