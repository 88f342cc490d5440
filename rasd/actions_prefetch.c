/* SPDX-License-Identifier: MIT */
/*
 * A record's subjects hashed and their slots (the buckets cache's, the
 * subjects seen once) fetched into the CPU's cache before the record is
 * counted (issue 39). Under a varied storm nearly every subject is new: its
 * once-seen slot, in a set of tens of MiB, is a miss to memory, and the
 * counting waited for it. With folding on the pipeline has the subjects
 * before it inserts the row, so the fetch runs while the row is inserted;
 * otherwise ras_actions_record starts it itself, before noting the rows.
 */
#include "actions_hash.h"
#include "actions_internal.h"
#include "once_seen.h"

static void hash_and_fetch(struct ras_actions *a, const struct ras_subject *all, int n,
			   uint64_t *hash)
{
	for (int i = 0; i < n; i++) {
		hash[i] = actions_subject_hash(all[i].kind, all[i].key);
		if (!(a->counted & (1u << all[i].kind)))
			continue;
		__builtin_prefetch(&a->slots[hash[i] % CACHE_SLOTS]);
		ras_once_seen_prefetch(a->once, all[i].kind, hash[i]);
		/* The filter of stored buckets' two bits (actions.c known_maybe), asked next. */
		if (a->known) {
			__builtin_prefetch(&a->known[(uint32_t)hash[i] % KNOWN_BITS / 64]);
			__builtin_prefetch(&a->known[(uint32_t)(hash[i] >> 32) % KNOWN_BITS / 64]);
		}
	}
}

void ras_actions_prefetch(struct ras_actions *a, const struct ras_db_event *ev)
{
	if (!a || !ev->subjects || ev->n_subjects <= 0 || ev->n_subjects > RAS_SUBJECTS_MAX)
		return;
	a->pre.subjects = ev->subjects;
	a->pre.n = ev->n_subjects;
	a->pre.rec_hash = ev->rec_hash;
	a->pre.wall_ns = ev->wall_ns;
	hash_and_fetch(a, ev->subjects, ev->n_subjects, a->pre.hash);
}

/*
 * The same record (its bytes' hash and time), so the same subjects; a
 * duplicate record is not counted, and its hashes stay behind unused.
 */
static bool prefetched(const struct ras_actions *a, const struct ras_db_event *ev,
		       const struct ras_subject *all, int n)
{
	return all == a->pre.subjects && n == a->pre.n && ev->rec_hash == a->pre.rec_hash &&
	       ev->wall_ns == a->pre.wall_ns;
}

const uint64_t *actions_subjects_hashed(struct ras_actions *a, const struct ras_db_event *ev,
					const struct ras_subject *all, int n, uint64_t *hash)
{
	bool pre = prefetched(a, ev, all, n);

	a->pre.subjects = NULL;
	if (pre)
		return a->pre.hash;
	hash_and_fetch(a, all, n, hash);
	return hash;
}
