/* SPDX-License-Identifier: MIT */
/*
 * The threshold buckets written since the last commit known made (issue 39).
 * rasd writes a bucket to the database when its cache is flushed (at each
 * commit, and when the cache is full mid-transaction); with a writer thread
 * the write is a job, and the commit that holds it may still be out. Reading
 * such a bucket back from the database meant waiting for the writer thread
 * to run its whole queue. Instead every bucket written is kept here, in the
 * order written, until the commit that holds it is confirmed: a cache miss
 * finds here what the writer's connection would read, and only a bucket not
 * written since the last confirmed commit is read from the committed rows
 * (db/db_bucket_read.h), which then hold it exactly.
 *
 * Positions count every change in order; a mark is the position a commit
 * ends at. confirmed_to drops what that commit holds; clear drops all (a
 * commit made at once, or a rollback: the database is then what was last
 * confirmed, and the cache holds what the rolled-back transaction changed,
 * as it was). A change the set cannot follow (a prune of the table, memory
 * run out) makes get answer -EAGAIN until its commit is confirmed: the
 * caller then asks the writer's connection, after its sync, as before.
 * Pure memory: no I/O, no clock.
 */
#ifndef RASD_BUCKET_UNCONFIRMED_H
#define RASD_BUCKET_UNCONFIRMED_H

#include <stddef.h>
#include <stdint.h>
#include "db/db_actions.h"

struct rasd_unconfirmed;

int rasd_unconfirmed_new(struct rasd_unconfirmed **out);
void rasd_unconfirmed_free(struct rasd_unconfirmed *u);
/* kind's bucket of key written as b, in the open transaction (kind >= 0). */
void rasd_unconfirmed_put(struct rasd_unconfirmed *u, int kind, const char *key,
			  const struct ras_db_bucket *b);
/* The table changed in a way not followed here (a prune): get cannot tell until it commits. */
void rasd_unconfirmed_unknown(struct rasd_unconfirmed *u);
/*
 * 1 and *out: the bucket last written, not yet confirmed; 0: not written
 * since the last confirmed commit (the committed row holds it); -EAGAIN:
 * cannot tell (ask the writer's connection).
 */
int rasd_unconfirmed_get(const struct rasd_unconfirmed *u, int kind, const char *key,
			 struct ras_db_bucket *out);
/* Where the open transaction ends now (for a commit handed to the writer thread). */
uint64_t rasd_unconfirmed_mark(const struct rasd_unconfirmed *u);
/* The commit that ended at mark was made: what it wrote is in the committed rows. */
void rasd_unconfirmed_confirmed_to(struct rasd_unconfirmed *u, uint64_t mark);
/* Everything committed, or rolled back: nothing is kept. */
void rasd_unconfirmed_clear(struct rasd_unconfirmed *u);
/* Buckets kept (writes, a subject written twice counted twice). */
size_t rasd_unconfirmed_count(const struct rasd_unconfirmed *u);

#endif
