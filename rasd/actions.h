/* SPDX-License-Identifier: MIT */
/*
 * Acting on what is recorded: each stored corrected record fills the leaky
 * buckets of its subjects (lib/subject.h); a crossed threshold becomes a
 * decision (offline a page or CPUs, repair a row, or account), stored in the
 * actions table, logged with its own MESSAGE_ID and handed to a trigger.
 * Uncorrected records and lost records run their triggers too.
 */
#ifndef RAS_ACTIONS_H
#define RAS_ACTIONS_H

#include "db/db.h"
#include "lib/config.h"
#include "lib/event_table.h"

struct ras_actions;
struct ras_triggers;
struct ras_db_action;
struct ras_db_actions;

#define RAS_ACTION_MESSAGE_ID "6f0c2e9a4b7d41d8a3e5c1b9d2f4a6e8"

int ras_actions_open(struct ras_actions **out, const struct rasd_config *cfg, struct ras_db *db,
		     struct ras_triggers *trig);
void ras_actions_close(struct ras_actions *a);
struct rasd_bmc_sel;
/* Uncorrected records and crossings are told to the BMC through sel too (may be NULL). */
void ras_actions_set_bmc_sel(struct ras_actions *a, struct rasd_bmc_sel *sel);
/* The actions table's statements (NULL without a database): SEL outcomes come later. */
struct ras_db_actions *ras_actions_dba(const struct ras_actions *a);
/*
 * The configuration was reloaded (SIGHUP): thresholds and actions are read
 * again. Buckets are kept, subject keys do not depend on the configuration;
 * a bucket in memory is leaked at its old rate up to the reload.
 */
void ras_actions_reload(struct ras_actions *a);
/*
 * Before a record with its subjects (ev->subjects) is stored: their
 * threshold slots are fetched into the CPU's cache while it is, and
 * ras_actions_record of the same record takes their hashes.
 */
void ras_actions_prefetch(struct ras_actions *a, const struct ras_db_event *ev);
/* After a record is stored (row_id its row): count it, and act when a threshold is crossed. */
void ras_actions_record(struct ras_actions *a, const struct ras_event_type *type,
			const void *decoded, const struct ras_db_event *ev, int64_t row_id);
/*
 * The transaction holding the records given since the last of these calls
 * was committed, or rolled back. After a rollback the buckets are as they
 * were before it, so the records, given again when the transaction is
 * retried, count once; a crossing decided in it is not acted on again: the
 * retried record gets the decision back (stored, not logged, no trigger).
 */
void ras_actions_committed(struct ras_actions *a);
void ras_actions_rolled_back(struct ras_actions *a);
/*
 * A commit handed to the writer thread (ras_db_commit_behind), not yet known
 * made: mark takes down what its transaction changed, and the records given
 * next count in a transaction of their own. committed_to: that commit was
 * made, what it changed stays even if a later transaction is rolled back (a
 * rollback before then undoes both).
 */
struct ras_actions_mark {
	size_t undo, once, made;
	uint64_t buckets;             /* the buckets written up to here (actions_bucket.c) */
	int64_t newest_ns;
	/* The machine-wide warnings' state (rasd/actions_stats.c). */
	struct { int64_t level, last_ns, total; uint64_t poison_kb; } stats;
};
void ras_actions_mark(struct ras_actions *a, struct ras_actions_mark *m);
void ras_actions_committed_to(struct ras_actions *a, const struct ras_actions_mark *m);
/*
 * When rasd goes idle, between transactions: forgets the subjects seen once
 * whose errors leaked out more than a minute ago (the newest record's time
 * plus the time since), and gives back the memory a storm grew for them. At
 * most once a minute.
 */
void ras_actions_trim(struct ras_actions *a);
/* Milliseconds until a trim could give memory back (0: now), or -1 when none is held. */
int ras_actions_trim_timeout_ms(const struct ras_actions *a);
/* Writes the buckets that changed; called inside the transaction, before its commit. */
int ras_actions_flush(struct ras_actions *a);
/* The database was replaced (a corrupt one moved aside): statements move to db (may be NULL). */
int ras_actions_set_db(struct ras_actions *a, struct ras_db *db);
/*
 * Recomputes every bucket from the stored records (rasd --rebuild-buckets,
 * with rasd stopped): buckets are emptied, then the records of the longest
 * period are replayed in time order, a crossing emptying the bucket as rasd
 * did, without acting. A bucket empties within one period, so older records
 * cannot hold anything. Totals are kept; a subject without a stored bucket
 * gets the errors of that window. Returns the records replayed or -errno.
 */
int ras_actions_rebuild(struct ras_actions *a, struct ras_db *db);
/* The same on the configured database, opened and closed here. 0 or -errno. */
int ras_actions_rebuild_database(const struct rasd_config *cfg);
/*
 * A sysfs write made outside a threshold (register_labels), stored in the
 * actions table as a decision of its own; in the open transaction if there
 * is one, else at once. 0 or -errno.
 */
int ras_actions_note(struct ras_actions *a, const struct ras_db_action *act);
/* The kernel dropped records (count -1: unknown): the lost-records trigger. */
void ras_actions_lost(struct ras_actions *a, int cpu, long long count);

#endif
