/* SPDX-License-Identifier: MIT */
/*
 * A threshold bucket read back or written (issue 39). With a writer thread,
 * reading a bucket on the writer's connection waits for the thread to run
 * its whole queue (ras_db_sync): under a varied storm nearly every record's
 * page missed the cache, and those waits were the event loop's gaps that
 * overflowed the kernel's buffer. Now a bucket written since the last commit
 * known made is found in memory (bucket_unconfirmed.h), and an older one in
 * the committed rows, through a read-only connection of its own
 * (db/db_bucket_read.h): the same bucket the writer's connection would read,
 * with no wait. Without a writer thread (rasd --rebuild-buckets, the resume
 * at start) nothing waits anyway, and the writer's connection is read.
 */
#include <errno.h>
#include "actions_internal.h"
#include "bucket_unconfirmed.h"
#include "db/db_actions.h"
#include "db/db_bucket_read.h"

int actions_buckets_open(struct ras_actions *a, struct ras_db *db)
{
	actions_buckets_close(a);
	if (!a->written && rasd_unconfirmed_new(&a->written) < 0)
		return -ENOMEM;
	rasd_unconfirmed_clear(a->written);
	/* No reader (a database in memory, or none opened): every read asks the writer's connection. */
	if (db)
		ras_db_bucket_reader_open(db, &a->reader);
	return 0;
}

void actions_buckets_close(struct ras_actions *a)
{
	ras_db_bucket_reader_close(a->reader);
	a->reader = NULL;
	if (a->written)
		rasd_unconfirmed_clear(a->written);
}

void actions_buckets_free(struct ras_actions *a)
{
	actions_buckets_close(a);
	rasd_unconfirmed_free(a->written);
	a->written = NULL;
}

int actions_bucket_get(struct ras_actions *a, int kind, const char *kind_name, const char *key,
		       struct ras_db_bucket *out)
{
	int r;

	if (!a->dba)
		return -ENODEV;
	if (a->written && a->reader && ras_db_writes_behind(ras_db_actions_db(a->dba))) {
		r = rasd_unconfirmed_get(a->written, kind, key, out);
		if (r == 0)
			r = ras_db_bucket_get_committed(a->reader, kind_name, key, out);
		if (r >= 0)
			return r;
	}
	/* Cannot tell (a prune not yet committed, memory, a busy read): after the writer, as before. */
	a->bucket_syncs++;
	return ras_db_bucket_get(a->dba, kind_name, key, out);
}

int actions_bucket_put(struct ras_actions *a, int kind, const char *kind_name, const char *key,
		       const struct ras_db_bucket *b, const char *label)
{
	int r = ras_db_bucket_put(a->dba, kind_name, key, b, label);

	/* What was handed to the database; a write that fails there fails its transaction. */
	if (r == 0 && a->written)
		rasd_unconfirmed_put(a->written, kind, key, b);
	return r;
}

void actions_buckets_changed(struct ras_actions *a)
{
	if (a->written)
		rasd_unconfirmed_unknown(a->written);
}

uint64_t actions_buckets_mark(const struct ras_actions *a)
{
	return a->written ? rasd_unconfirmed_mark(a->written) : 0;
}

void actions_buckets_confirmed_to(struct ras_actions *a, uint64_t mark)
{
	if (a->written)
		rasd_unconfirmed_confirmed_to(a->written, mark);
}

void actions_buckets_settled(struct ras_actions *a)
{
	if (a->written)
		rasd_unconfirmed_clear(a->written);
}
