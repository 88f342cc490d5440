/* SPDX-License-Identifier: MIT */
/*
 * Committing the pipeline's records: when (a group's age or size, a full
 * batch), with what (the batch's counters, the read marks, the thresholds'
 * buckets), and what a commit made means for the records held (pending).
 *
 * A storm's full batch is committed behind (ras_db_commit_behind): the
 * writer thread makes the commit while this thread reads and stores the next
 * batch. Until the commit is known made its records stay held, and what it
 * changed (buckets, the batch counters saved, the durability figures) is
 * taken as done only then (confirm); if it failed, everything since the last
 * commit made is rolled back and given again, as after any failed commit
 * (ras_pipeline_note_db_error). At most one such commit is out. A group
 * due while it is being made is not committed yet (behind_unmade): the event
 * loop reads on, the group growing, and commits it at the first turn after
 * the commit behind is made: the writer thread wakes the loop through an
 * eventfd it polls (ras_db_commit_watch, ras_pipeline_commit_timeout_ms;
 * without one the loop looks every millisecond). Only a full hold, the stop and a
 * forced commit (ras_pipeline_commit) wait for it: a wait here was the live
 * path's longest gap in reading the kernel's buffers (issue 39).
 */
#include <errno.h>
#include "lib/timeline.h"
#include "lib/tracing.h"
#include "actions.h"
#include "metrics_file.h"
#include "pipeline_internal.h"

/*
 * A due group this large is a storm's: committed behind, the writer thread
 * syncing it (and flushing folding's work) while this thread reads on.
 * A smaller one (a trickle, a lone record) is committed at once, and this
 * thread waits for it: the writer thread still makes it (the stages' flushes
 * and the COMMIT, ras_db_commit), so its work is never the event loop's.
 */
#define GROUP_BEHIND_RECORDS 256

/*
 * A group grows until its oldest record is commit_delay_ms old: under a
 * storm a commit then holds commit_delay_ms of records, not a fixed few
 * hundred (a commit's cost is mostly per commit: the sync, the roll-ups' and
 * folds' flush). Its size is bounded by batch_max_records and hold_max_kb,
 * which commit a full batch at once (ras_pipeline_commit_batch).
 */
bool ras_pipeline_commit_due(const struct ras_pipeline *p, int64_t now_ns)
{
	if (!p->group_first_ns)
		return true;
	return now_ns - p->group_first_ns >= (int64_t)p->cfg->commit_delay_ms * 1000000;
}

bool ras_pipeline_commit_goes_behind(const struct ras_pipeline *p)
{
	return p->in_txn >= GROUP_BEHIND_RECORDS;
}

static void confirm_behind(struct ras_pipeline *p);

/*
 * The commit behind is out and not made yet (nor failed): a due group waits
 * for it by growing, not by stopping the event loop's reads. Its failure is
 * not met here: the commit that follows meets it (ras_pipeline_behind_settle).
 */
static bool behind_unmade(struct ras_pipeline *p)
{
	return p->behind.ticket && !p->failing && ras_db_commit_poll(p->db, p->behind.ticket) == 0;
}

bool ras_pipeline_commit_if_due(struct ras_pipeline *p, int64_t now_ns)
{
	int r;

	/* A commit behind: taken as made once it is, its failure met as any other. */
	if (p->behind.ticket && !p->failing) {
		r = ras_db_commit_poll(p->db, p->behind.ticket);
		if (r == 1)
			confirm_behind(p);
		else if (r < 0)
			ras_pipeline_note_db_error(p);
	}
	if (!p->group_first_ns || p->failing || !ras_pipeline_commit_due(p, now_ns))
		return false;
	return ras_pipeline_commit_group(p) != -EAGAIN;
}

int ras_pipeline_commit_timeout_ms(const struct ras_pipeline *p, int64_t now_ns)
{
	int64_t delay = (int64_t)p->cfg->commit_delay_ms * 1000000, left;

	/* While failing the storage back-off decides when to try again. */
	if (p->failing)
		return -1;
	if (p->behind.ticket) {
		/* Without the writer's eventfd in the loop's epoll: looked at again shortly. */
		if (!p->commit_fd_polled)
			return 1;
		/* Made or failed already: now. Else its fd wakes the loop, and a due group waits for it. */
		if (ras_db_commit_watch(p->db, p->behind.ticket) != 0)
			return 0;
		if (ras_pipeline_commit_due(p, now_ns))
			return -1;
	}
	if (!p->group_first_ns)
		return -1;
	left = p->group_first_ns + delay - now_ns;
	if (left <= 0)
		return 0;
	/* A wall clock stepped back never makes a record wait longer than the delay. */
	return (int)(((left < delay ? left : delay) + 999999) / 1000000);
}

/* The counters of this batch: malformed and refused records, and records memory could not hold. */
static int add_batch_counters(struct ras_pipeline *p)
{
	if (p->pending.nomem) {
		struct ras_db_lost lost = {
			.cpu = -1, .count = (long long)p->pending.nomem, .from_ns = p->fail_since_ns,
			.to_ns = ras_pipeline_wall_now(), .origin = "storage", .instance = p->tr->name,
		};

		if (ras_db_begin(p->db) < 0 || ras_db_insert_lost(p->db, &lost) < 0)
			return -EIO;
	}
	if (p->malformed == p->saved_malformed && p->synthetic_refused == p->saved_refused)
		return 0;
	if (ras_db_begin(p->db) < 0 ||
	    ras_db_counter_add(p->db, "malformed_records",
			       (int64_t)(p->malformed - p->saved_malformed)) < 0 ||
	    ras_db_counter_add(p->db, "synthetic_refused",
			       (int64_t)(p->synthetic_refused - p->saved_refused)) < 0)
		return -EIO;
	return 0;
}

/*
 * Records that are counted, never stored: unknown event ids, other writers'
 * raw data, and records the kernel's filter would have left out.
 */
static int save_unknown_counters(struct ras_pipeline *p)
{
	if (p->unknown_ids == p->saved_unknown && p->foreign == p->saved_foreign &&
	    p->filtered == p->saved_filtered)
		return 0;
	if (ras_db_begin(p->db) < 0 ||
	    ras_db_counter_add(p->db, "unknown_event_records",
			       (int64_t)(p->unknown_ids - p->saved_unknown)) < 0 ||
	    ras_db_counter_add(p->db, "foreign_raw_records",
			       (int64_t)(p->foreign - p->saved_foreign)) < 0 ||
	    ras_db_counter_add(p->db, "filtered_records",
			       (int64_t)(p->filtered - p->saved_filtered)) < 0)
		return -EIO;
	return 0;
}

/*
 * The kernel counts a record as read when rasd reads its page; the mark
 * committed with the records is that count less what is read and not yet
 * delivered, so it always matches what this transaction accounts for.
 */
static int save_read_marks(struct ras_pipeline *p)
{
	if (p->replay_seen)
		return ras_pipeline_save_replay_marks(p);
	for (unsigned i = 0; p->reader && i < ras_reader_ncpus(p->reader); i++) {
		int cpu = ras_reader_cpu_at(p->reader, i);
		uint64_t pending = ras_reader_pending(p->reader, i);
		struct ras_cpu_stats st;

		if (ras_tracing_cpu_stats(p->tr->instance_dir, cpu, &st) < 0)
			continue;
		if (ras_db_begin(p->db) < 0 ||
		    ras_db_read_mark_set(p->db, p->tr->name, cpu,
					 st.read > pending ? st.read - pending : 0) < 0)
			return -EIO;
	}
	return 0;
}

/* What a commit writes beside the records; then the commit, behind (p->behind.ticket) or here. */
static int write_batch(struct ras_pipeline *p, bool behind)
{
	if (add_batch_counters(p) < 0 || save_unknown_counters(p) < 0 || save_read_marks(p) < 0 ||
	    ras_actions_flush(p->actions) < 0 || rasd_health_flush(p->health, false) < 0)
		return -EIO;
	return behind ? ras_db_commit_behind(p->db, &p->behind.ticket) : ras_db_commit(p->db);
}

static int add_latency(void *ctx, const struct ras_pending_entry *e)
{
	struct ras_pipeline *p = ctx;

	if (e->kind == RAS_PENDING_RECORD)
		rasd_durability_add(p->durability, p->committed_ns - e->wall_ns);
	return 0;
}

/* The records of the first bytes of pending are durable since committed_ns: how long since each arrived. */
static void note_durable(struct ras_pipeline *p, size_t bytes, int64_t committed_ns)
{
	if (!p->durability || !p->pending.records)
		return;
	p->committed_ns = committed_ns;
	ras_pending_each_until(&p->pending, bytes, add_latency, p);
}

/* A commit behind was made: its records and what it changed are done with. */
static void confirm_behind(struct ras_pipeline *p)
{
	struct ras_pipeline_behind *b = &p->behind;

	ras_tl_begin(RAS_TL_CONFIRM);
	ras_actions_committed_to(p->actions, &b->mark);
	rasd_health_committed_to(p->health, b->health_mark);
	note_durable(p, b->pending_bytes, ras_db_committed_ns(p->db));
	ras_pending_drop_front(&p->pending, b->pending_bytes);
	p->committed_stored = b->stored;
	p->committed_duplicates = b->duplicates;
	b->ticket = 0;
	rasd_metrics_file_update(p->db, p->cfg);
	ras_tl_end(RAS_TL_CONFIRM);
}

int ras_pipeline_behind_settle(struct ras_pipeline *p)
{
	struct ras_pipeline_behind *b = &p->behind;

	if (!b->ticket)
		return 0;
	if (ras_db_commit_wait(p->db, b->ticket) == 0) {
		confirm_behind(p);
		return 0;
	}
	/* Failed: what it counted as saved was not; everything since the last commit goes again. */
	p->saved_unknown = b->saved_unknown;
	p->saved_foreign = b->saved_foreign;
	p->saved_filtered = b->saved_filtered;
	p->saved_malformed = b->saved_malformed;
	p->saved_refused = b->saved_refused;
	p->pending.nomem += b->nomem;
	p->stats_fresh = b->stats_fresh;
	rasd_stats_stored_drop(&p->stats_stored);
	b->ticket = 0;
	return -EIO;
}

/* The batch's counters are in the transaction just committed (or handed over). */
static void batch_saved(struct ras_pipeline *p)
{
	p->in_txn = 0;
	p->group_first_ns = 0;
	p->saved_unknown = p->unknown_ids;
	p->saved_foreign = p->foreign;
	p->saved_filtered = p->filtered;
	p->saved_malformed = p->malformed;
	p->saved_refused = p->synthetic_refused;
	/* The new instance's counters are stored now: later ones compare with them. */
	if (p->stats_in_txn)
		p->stats_fresh = p->stats_in_txn = false;
	p->pending.nomem = 0;
	p->db_error = 0;
	p->fail_since_ns = 0;
	ras_pipeline_set_limits(p);   /* rasd.conf may have been read again */
}

/* The commit behind: what it counts and holds, so that its failure can take it back. */
static void note_behind(struct ras_pipeline *p)
{
	struct ras_pipeline_behind *b = &p->behind;

	b->pending_bytes = p->pending.len;
	/* Its records are dropped whole once it is made: kept apart, nothing moves then. */
	ras_pending_seal(&p->pending);
	b->stored = p->stored;
	b->duplicates = p->duplicates;
	b->saved_unknown = p->saved_unknown;
	b->saved_foreign = p->saved_foreign;
	b->saved_filtered = p->saved_filtered;
	b->saved_malformed = p->saved_malformed;
	b->saved_refused = p->saved_refused;
	b->nomem = p->pending.nomem;
	b->stats_fresh = p->stats_fresh;
	ras_actions_mark(p->actions, &b->mark);
	b->health_mark = rasd_health_mark(p->health);
	batch_saved(p);
}

static int commit_traced(struct ras_pipeline *p, bool behind);

/* A group's commit, noted on the timeline (lib/timeline.h). */
static int commit(struct ras_pipeline *p, bool behind)
{
	int r;

	ras_tl_begin(RAS_TL_COMMIT);
	r = commit_traced(p, behind);
	ras_tl_end(RAS_TL_COMMIT);
	return r;
}

static int commit_traced(struct ras_pipeline *p, bool behind)
{
	int64_t start = ras_pipeline_wall_now();

	/* A loss the kernel counted before the last read goes in this commit (rasd/stats_due.h). */
	if (!p->failing)
		ras_pipeline_stats_before_commit(p);
	if (p->failing)
		return -EIO;
	/* The one behind first: made, or its failure takes this batch back with it. */
	if (ras_pipeline_behind_settle(p) < 0 || write_batch(p, behind) < 0) {
		ras_pipeline_note_db_error(p);
		return -EIO;
	}
	if (behind && p->behind.ticket) {
		note_behind(p);
		return 0;
	}
	/* Counters count commits, not attempts. */
	ras_actions_committed(p->actions);
	rasd_health_committed(p->health);
	note_durable(p, p->pending.len, ras_pipeline_wall_now());
	if (p->commit_cost && p->pending.records)
		rasd_durability_add(p->commit_cost, p->committed_ns - start);
	p->committed_stored = p->stored;
	p->committed_duplicates = p->duplicates;
	ras_pending_clear(&p->pending);
	batch_saved(p);
	rasd_metrics_file_update(p->db, p->cfg);
	return 0;
}

int ras_pipeline_commit(struct ras_pipeline *p)
{
	return commit(p, false);
}

int ras_pipeline_commit_group(struct ras_pipeline *p)
{
	if (behind_unmade(p))
		return -EAGAIN;
	return commit(p, ras_pipeline_commit_goes_behind(p));
}

int ras_pipeline_commit_batch(struct ras_pipeline *p)
{
	/* A full hold may be the commit behind's records: once it is made, there may be room. */
	if (p->behind.ticket && ras_pipeline_hold_full(p) && ras_pipeline_behind_settle(p) < 0) {
		ras_pipeline_note_db_error(p);
		return -EIO;
	}
	if (p->failing || (p->in_txn < p->cfg->batch_max_records && !ras_pipeline_hold_full(p)))
		return 0;
	/* A full batch, with room in the hold: it grows on while the commit behind is made. */
	if (!ras_pipeline_hold_full(p) && behind_unmade(p))
		return 0;
	return commit(p, true);
}
