/* SPDX-License-Identifier: MIT */
/*
 * Buckets from the stored records: at start, the subjects seen once that
 * only memory held; with rasd --rebuild-buckets, every bucket.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "actions_internal.h"
#include "log.h"
#include "db/db_actions.h"
#include "db/db_query.h"
#include "lib/decode.h"
#include "lib/tracing.h"

/* The subjects a stored record names, decoded again into a caller's buffer. */
static int row_subjects(const struct ras_actions *a, const struct ras_db_row *row, uint8_t *decoded,
			struct ras_subject subj[RAS_SUBJECTS_MAX])
{
	const struct ras_event_type *type = &ras_event_types[row->type_idx];

	ras_decode_values(type, row->values, NULL, decoded);
	return ras_subjects_of(type, row->values, decoded, a->page_size, a->counted, subj);
}

/*
 * Decodes a stored record and counts its subjects that have no stored bucket.
 * Past one leak time (old_only), not one it would hold as seen once whose
 * errors have leaked out by now: that span is read for the records of
 * several errors, and their other subjects' one error is long gone.
 */
struct resume {
	struct ras_actions *a;
	int64_t now_ns;
	bool old_only;
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
};

static bool leaked_out(const struct resume *rs, const struct ras_subject *s, int64_t wall_ns)
{
	const struct ras_threshold *t = &rs->a->th[s->kind];

	return rs->old_only && t->count >= 2 && s->n >= 1 && s->n < (int64_t)t->count &&
	       wall_ns <= rs->now_ns - s->n * actions_once_leak_ns(t);
}

static int resume_one(void *ctx, const struct ras_db_row *row)
{
	struct resume *rs = ctx;
	struct ras_subject subj[RAS_SUBJECTS_MAX];
	int n = row_subjects(rs->a, row, rs->decoded, subj);

	for (int i = 0; i < n; i++) {
		struct entry *e;

		if (leaked_out(rs, &subj[i], row->wall_ns))
			continue;
		e = actions_count_errors(rs->a, &subj[i], row->wall_ns, COUNT_RESUME);

		if (e)
			e->b.level = 0;
	}
	return 0;
}

/*
 * Subjects seen once live only in memory: at start they are found again in
 * the stored records of the longest time one error stays in a bucket, and,
 * before that, in the records of several errors back to the longest time
 * such a record's errors stay, count - 1 of them (the newest ONCE_SEEN_MAX
 * records of each span). Reading every record of that day cost 3.4 s at
 * start after a storm of 1M. A record folded into a storm count is not
 * there; its page or row starts again from nothing.
 */
void actions_hold_recent_once(struct ras_actions *a, struct ras_db *db)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true,
				   .limit = ONCE_SEEN_MAX };
	int64_t one = 0, several = 0;
	struct resume *rs;

	for (int k = 0; k < RAS_SUBJ_KINDS; k++) {
		int64_t leak = actions_once_leak_ns(&a->th[k]);

		if (a->th[k].count < 2)
			continue;
		one = leak > one ? leak : one;
		/* At most period_ns plus count - 1 rounding nanoseconds: no overflow. */
		if ((int64_t)(a->th[k].count - 1) * leak > several)
			several = (int64_t)(a->th[k].count - 1) * leak;
	}
	if (!one || !(rs = calloc(1, sizeof(*rs))))
		return;
	rs->a = a;
	rs->now_ns = actions_realtime_ns();
	f.since_ns = rs->now_ns - one;
	if (ras_db_errors(db, &f, resume_one, rs) < 0)
		ras_log(LOG_WARNING, "cannot read the recent records: subjects seen once start anew");
	/* Older, newest first still: only records of several errors can be held that long. */
	f.until_ns = f.since_ns;
	f.since_ns = rs->now_ns - several;
	f.several_errors = true;
	rs->old_only = true;
	if (several > one && ras_db_errors(db, &f, resume_one, rs) < 0)
		ras_log(LOG_WARNING, "cannot read the recent records: subjects seen once start anew");
	free(rs);
	/* What was found is committed already: a rollback keeps it. */
	ras_actions_committed(a);
}

/* One error of the rebuild window, kept compact until sorted by time. */
struct replayed {
	int64_t wall_ns, n;
	uint64_t seq;
	bool rate; /* the record's corrected errors for the ce-rate bucket, not a subject's */
	struct ras_subject s;
};

struct rebuild {
	struct ras_actions *a;
	struct replayed *items;
	size_t len, cap, rate_items;
	uint64_t seq;
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
};

static struct replayed *next_item(struct rebuild *rb)
{
	if (rb->len == rb->cap) {
		size_t cap = rb->cap ? rb->cap * 2 : 1024;
		struct replayed *m = realloc(rb->items, cap * sizeof(*m));

		if (!m)
			return NULL;
		rb->items = m;
		rb->cap = cap;
	}
	return &rb->items[rb->len++];
}

static int collect(void *ctx, const struct ras_db_row *row)
{
	struct rebuild *rb = ctx;
	struct ras_subject subj[RAS_SUBJECTS_MAX];
	int n = row_subjects(rb->a, row, rb->decoded, subj);
	int64_t ce = actions_stats_rate_errors(rb->a, &ras_event_types[row->type_idx], rb->decoded);
	struct replayed *it;

	rb->seq++;
	if (ce > 0) {
		if (!(it = next_item(rb)))
			return -ENOMEM;
		*it = (struct replayed){ .wall_ns = row->wall_ns, .n = ce, .seq = rb->seq, .rate = true };
		rb->rate_items++;
	}
	for (int i = 0; i < n; i++) {
		if (!rb->a->th[subj[i].kind].count)
			continue;
		if (!(it = next_item(rb)))
			return -ENOMEM;
		*it = (struct replayed){ row->wall_ns, subj[i].n, rb->seq, false, subj[i] };
	}
	return 0;
}

/* Oldest first; rows arrive newest first, so a later arrival is older at equal times. */
static int by_time(const void *x, const void *y)
{
	const struct replayed *a = x, *b = y;

	if (a->wall_ns != b->wall_ns)
		return a->wall_ns < b->wall_ns ? -1 : 1;
	return a->seq > b->seq ? -1 : a->seq < b->seq;
}

/* The longest bucket's window: errors older than it have leaked out of every bucket. */
static int64_t longest_window(const struct ras_actions *a)
{
	int64_t longest = a->stats.rate_th.count ? a->stats.rate_th.period_ns : 0;

	for (int k = 0; k < RAS_SUBJ_KINDS; k++)
		if (a->th[k].count && a->th[k].period_ns > longest)
			longest = a->th[k].period_ns;
	return longest;
}

static void replay(struct ras_actions *a, struct rebuild *rb)
{
	if (rb->len)
		qsort(rb->items, rb->len, sizeof(*rb->items), by_time);
	memset(a->slots, 0, sizeof(a->slots));
	a->cached = 0;
	ras_once_seen_clear(a->once);
	/* Every row looks emptied until its errors are replayed: none is pruned meanwhile. */
	a->prune_next_ns = INT64_MAX;
	for (size_t i = 0; i < rb->len; i++) {
		struct replayed *it = &rb->items[i];
		struct entry *e;

		if (it->rate) {
			actions_stats_rebuild_add(a, it->wall_ns, it->n);
			continue;
		}
		e = actions_count_errors(a, &it->s, it->wall_ns, COUNT_REBUILD);
		if (e)
			e->b.level = 0;
	}
	a->prune_next_ns = 0;
}

int ras_actions_rebuild(struct ras_actions *a, struct ras_db *db)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	struct rebuild *rb = calloc(1, sizeof(*rb));
	int64_t longest;
	int r;

	if (!rb)
		return -ENOMEM;
	rb->a = a;
	longest = longest_window(a);
	f.since_ns = actions_realtime_ns() - longest;
	/* Before the buckets are emptied: the ce-rate total is a counter, kept. */
	actions_stats_rebuild_begin(a);
	r = ras_db_buckets_empty(a->dba);
	actions_buckets_changed(a);
	if (r == 0)
		r = ras_db_once_spill_empty(a->dba);
	if (r == 0 && longest)
		r = ras_db_errors(db, &f, collect, rb);
	if (r >= 0) {
		replay(a, rb);
		r = ras_actions_flush(a) < 0 || ras_db_commit(db) < 0 ? -EIO : (int)(rb->len - rb->rate_items);
	}
	free(rb->items);
	free(rb);
	return r;
}

int ras_actions_rebuild_database(const struct rasd_config *cfg)
{
	struct ras_actions *a = NULL;
	struct ras_db *db = NULL;
	char boot_id[64], err[512];
	int r = ras_boot_id(boot_id, sizeof(boot_id));

	if (r == 0 && (r = ras_db_open_writer(&db, cfg->database, boot_id, err, sizeof(err))) < 0)
		ras_log(LOG_ERR, "%s", err);
	if (r == 0)
		r = ras_actions_open(&a, cfg, db, NULL);
	if (r == 0)
		r = ras_actions_rebuild(a, db);
	if (r >= 0)
		ras_log(LOG_INFO, "buckets rebuilt from %d errors of the stored records", r);
	else
		ras_log(LOG_ERR, "rebuilding the buckets failed: %s", strerror(-r));
	ras_actions_close(a);
	ras_db_close(db);
	return r < 0 ? r : 0;
}
