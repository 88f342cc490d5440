/* SPDX-License-Identifier: MIT */
/*
 * The committed threshold buckets, read without the writer (issue 39). While
 * a writer thread takes the writes, a read on the writer's connection first
 * waits until the thread has run every job (ras_db_sync): at a storm's cache
 * miss that was the event loop's longest stall. This reader is a second,
 * read-only connection on the same WAL database: it sees exactly the rows
 * committed, never the open transaction's, and never waits for the writer.
 * The caller keeps what it wrote since its last confirmed commit itself
 * (rasd/bucket_unconfirmed.h) and asks here only for what is older.
 */
#ifndef RAS_DB_BUCKET_READ_H
#define RAS_DB_BUCKET_READ_H

#include <stdbool.h>
#include "db.h"
#include "db_actions.h"

struct ras_db_bucket_reader;

/* Whether a writer thread takes db's writes (ras_db_write_behind_start). */
bool ras_db_writes_behind(const struct ras_db *db);
/*
 * Opens the reader on db's file (just after the writer, as the checkpointer
 * does): 0, -ENOTSUP for a database with no file (in memory), or -EIO.
 */
int ras_db_bucket_reader_open(struct ras_db *db, struct ras_db_bucket_reader **out);
void ras_db_bucket_reader_close(struct ras_db_bucket_reader *r);
/*
 * The subject's bucket as last committed: 1 and *out, 0 when there is none,
 * or -EIO (busy, unreadable: the caller asks the writer's connection).
 * Each read is a transaction of its own, ended before it returns, so it
 * never keeps a checkpoint from copying the log.
 */
int ras_db_bucket_get_committed(struct ras_db_bucket_reader *r, const char *kind,
				const char *subject, struct ras_db_bucket *out);
/* Reads made, for tests and profiles. */
unsigned long ras_db_bucket_reader_reads(const struct ras_db_bucket_reader *r);

#endif
