/* SPDX-License-Identifier: MIT */
/*
 * The actions' side of a transaction: what a commit keeps and a rollback
 * puts back (buckets, decisions, subjects seen once, the machine-wide
 * warnings), and the trimming of subjects seen once as time goes on.
 */
#include <stdint.h>
#include <string.h>
#include "actions.h"
#include "actions_internal.h"
#include "db/db_actions.h"
#include "decision.h"
#include "once_seen.h"

void ras_actions_mark(struct ras_actions *a, struct ras_actions_mark *m)
{
	*m = (struct ras_actions_mark){ 0 };
	if (!a)
		return;
	m->undo = a->log.n_undo;
	m->once = ras_once_seen_mark(a->once);
	m->made = ras_decisions_mark(&a->decisions);
	m->newest_ns = a->newest_ns;
	m->buckets = actions_buckets_mark(a);
	actions_stats_mark(a, m);
	/* An entry changed next is remembered again, as it is after this transaction. */
	a->txn++;
}

void ras_actions_committed_to(struct ras_actions *a, const struct ras_actions_mark *m)
{
	struct txn_log *l;

	if (!a)
		return;
	l = &a->log;
	/* Memory ran out in one of them: still not known what changed, the rollback reloads. */
	if (m->undo && m->undo <= l->n_undo) {
		memmove(l->undo, l->undo + m->undo, (l->n_undo - m->undo) * sizeof(*l->undo));
		l->n_undo -= m->undo;
	}
	a->committed_newest_ns = m->newest_ns;
	a->committed_mono_ns = actions_monotonic_ns();
	actions_buckets_confirmed_to(a, m->buckets);
	ras_once_seen_committed_to(a->once, m->once);
	ras_decisions_committed_to(&a->decisions, m->made);
	actions_stats_committed_to(a, m);
}

void ras_actions_committed(struct ras_actions *a)
{
	if (!a)
		return;
	a->txn++;
	a->committed_newest_ns = a->newest_ns;
	a->committed_mono_ns = actions_monotonic_ns();
	a->log.n_undo = 0;
	a->log.undo_incomplete = false;
	actions_buckets_settled(a);
	ras_once_seen_committed(a->once);
	ras_decisions_committed(&a->decisions);
	actions_stats_committed(a);
}

/*
 * A minute behind: a record still in a CPU's buffer may be dated a little
 * before the newest, and its subject's first error must still be there.
 */
#define TRIM_MARGIN_NS (60 * 1000000000LL)

/*
 * Time goes on in the records' own time line: the newest error counted at the
 * last commit, plus the monotonic time since. The wall clock is not used: a
 * clock stepped after rasd set the records' time base (NTP at boot) would
 * forget first errors that later records, dated on the old base, still need.
 */
void ras_actions_trim(struct ras_actions *a)
{
	int64_t now = actions_monotonic_ns(), since;

	if (!a || now < a->trim_next_ns || !a->committed_mono_ns)
		return;
	a->trim_next_ns = now + TRIM_MARGIN_NS;
	since = now - a->committed_mono_ns;
	if (a->committed_newest_ns < INT64_MAX - since)
		ras_once_seen_trim(a->once, a->committed_newest_ns + since - TRIM_MARGIN_NS);
}

/* Worth a wake-up only once the set grew past its first size: a storm's, not a trickle's. */
int ras_actions_trim_timeout_ms(const struct ras_actions *a)
{
	int64_t left;

	if (!a || ras_once_seen_bytes(a->once) <= RAS_ONCE_SEEN_FIRST_BYTES)
		return -1;
	left = a->trim_next_ns - actions_monotonic_ns();
	return left <= 0 ? 0 : (int)(left / 1000000) + 1;
}

/* Frees e's slot, moving back the entries after it that probed past it (linear probing). */
static void cache_remove(struct ras_actions *a, struct entry *e)
{
	unsigned hole = (unsigned)(e - a->slots), j = hole;

	a->slots[hole].used = false;
	a->cached--;
	for (;;) {
		unsigned home;

		j = (j + 1) % CACHE_SLOTS;
		if (!a->slots[j].used)
			return;
		home = (unsigned)(a->slots[j].hash % CACHE_SLOTS);
		/* Stays when its home lies cyclically in (hole, j]. */
		if (hole < j ? home > hole && home <= j : home > hole || home <= j)
			continue;
		a->slots[hole] = a->slots[j];
		a->slots[j].used = false;
		hole = j;
	}
}

/* Puts back every bucket the abandoned transaction changed. */
static void undo_buckets(struct ras_actions *a)
{
	struct txn_log *l = &a->log;

	if (l->undo_incomplete) {
		/* Not known what changed: the database holds what was committed. */
		memset(a->slots, 0, sizeof(a->slots));
		a->cached = 0;
		return;
	}
	/* Newest first: an entry changed, evicted and changed again ends as it was first. */
	for (size_t i = l->n_undo; i-- > 0;) {
		struct entry *e = actions_slot_for(a, l->undo[i].kind, l->undo[i].key);

		if (!e)
			continue;
		/* Made by the transaction: not there before it. */
		if (!l->undo[i].used) {
			if (e->used)
				cache_remove(a, e);
			continue;
		}
		a->cached += !e->used;
		*e = l->undo[i];
	}
	/* The abandoned flush is gone with the transaction: the next commit writes them all. */
	for (unsigned i = 0; i < CACHE_SLOTS; i++)
		a->slots[i].dirty = a->slots[i].used;
}

void ras_actions_rolled_back(struct ras_actions *a)
{
	struct txn_log *l;

	if (!a)
		return;
	l = &a->log;
	/* Told after the rollback's sync: the batch given again goes without the spill. */
	actions_spill_check(a);
	a->spill_failed = false;
	ras_db_actions_discard(a->dba);
	/* The database is as of the last commit made, the cache holds what changed since. */
	actions_buckets_settled(a);
	undo_buckets(a);
	actions_stats_rolled_back(a);
	ras_once_seen_rolled_back(a->once);
	/* A removal undone with the transaction is made again at the next flush. */
	a->prune_next_ns = 0;
	/* The decisions taken wait for their records to come again. */
	ras_decisions_rolled_back(&a->decisions);
	/* A row's crossing undone: the crossed rows are read again (actions_rows.c). */
	a->rows.stale = true;
	a->txn++;
	l->n_undo = 0;
	l->undo_incomplete = false;
}
