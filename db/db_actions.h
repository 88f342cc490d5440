/* SPDX-License-Identifier: MIT */
/*
 * Threshold buckets and action decisions (schema step 6): the buckets table
 * keeps each subject's leaky bucket across restarts, written in the same
 * transaction as the records that filled it; the actions table keeps every
 * decision taken on a crossed threshold, repeated identical ones folded into
 * one row (schema step 13), and rollup_actions their counts.
 */
#ifndef RAS_DB_ACTIONS_H
#define RAS_DB_ACTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "db.h"

/* The writer's prepared statements for buckets and actions. */
struct ras_db_actions;

struct ras_db_bucket {
	int64_t level, last_ns;
	int64_t total;          /* every error ever counted against the subject */
};

struct ras_db_action {
	int64_t id;
	int64_t wall_ns;
	char boot_id[64];       /* listing only */
	char kind[16];          /* page, dimm, cpu, device, row */
	char subject[128];
	int64_t count;          /* errors in the bucket when it crossed */
	char threshold[32];     /* "10/1d" */
	char action[24];        /* soft, hard, soft-then-hard, account, offline, repair, ... */
	char target[256];       /* what was written where, or what would have been */
	char result[16];        /* done, failed, dry-run, unsupported, rate-limited, capped */
	int error;              /* errno when failed */
	bool synthetic;
	char event_table[48];
	int64_t event_id;       /* row id of the record that crossed (the first, when folded) */
	/* Identical consecutive decisions on the subject folded into this row (listing only). */
	int64_t repeats;        /* decisions the row stands for, at least 1 */
	int64_t last_ns;        /* the last one's time (wall_ns: the first's) */
	int64_t last_event_id;  /* the record behind the last one */
};

int ras_db_actions_open(struct ras_db *db, struct ras_db_actions **out);
void ras_db_actions_close(struct ras_db_actions *a);
/* The database the statements were prepared on. */
struct ras_db *ras_db_actions_db(const struct ras_db_actions *a);
/* 1 and *out when the subject has a stored bucket, 0 when not, or -EIO. */
int ras_db_bucket_get(struct ras_db_actions *a, const char *kind, const char *subject,
		      struct ras_db_bucket *out);
int ras_db_bucket_put(struct ras_db_actions *a, const char *kind, const char *subject,
		      const struct ras_db_bucket *b, const char *label);
/* Empties every bucket (totals stay): the start of a rebuild from the records. */
int ras_db_buckets_empty(struct ras_db_actions *a);
/*
 * Removes the kind's buckets that hold one error ever counted, leaked out:
 * emptied, or fed last at or before leaked_before_ns. For the thresholds
 * such a row is the same as none. The rows removed, or -EIO.
 */
int ras_db_buckets_prune_once(struct ras_db_actions *a, const char *kind, int64_t leaked_before_ns);
/*
 * Subjects seen once past rasd's memory for them (rasd/once_seen.h): kind
 * and key hash with the record's time and its n errors, in a temporary table
 * of the writer's connection, changed inside the open transaction (a rollback
 * undoes them) and gone with the connection. add: 0 or -errno. take: 1, the
 * time and n when held (it is removed), 0 when not, or -errno. prune: removes
 * the kind's entries whose errors have leaked out, one per leak_ns after its
 * time (wall_ns + n * leak_ns <= leaked_before_ns + leak_ns); the count, or
 * -EIO. keys: fn for each held key; the count, or -EIO. A failed statement
 * returns -EIO when only it was undone, -ECANCELED when SQLite rolled the
 * transaction back (a new one is open; the caller rolls it back too); -EPIPE
 * when nothing ran because a write handed to the writer thread had failed
 * (the transaction is lost already: the caller's commit fails and the batch
 * comes again).
 */
int ras_db_once_spill_add(struct ras_db_actions *a, int kind, uint64_t key, int64_t wall_ns,
			  unsigned n);
int ras_db_once_spill_take(struct ras_db_actions *a, int kind, uint64_t key, int64_t *wall_ns,
			   unsigned *n);
int ras_db_once_spill_prune(struct ras_db_actions *a, int kind, int64_t leaked_before_ns,
			    int64_t leak_ns);
int ras_db_once_spill_empty(struct ras_db_actions *a);
int ras_db_once_spill_keys(struct ras_db_actions *a, void (*fn)(void *ctx, uint64_t key),
			   void *ctx);
/*
 * The spilled rows are also kept in memory, 24 bytes each (db_once_spill.c),
 * and a take is answered from there: it never waits for the writer thread.
 * While a writer thread takes the transaction's writes (ras_db_deferring), an
 * add and a take's removal are handed to it and return at once; if one then
 * fails, the transaction fails with it (the commit fails: the batch comes
 * again), and trouble tells how, once: -EIO, -ECANCELED (SQLite rolled it
 * back), or 0 when none handed over has failed. bound: at most max_keys in
 * memory (tests; past it every take asks the table after a sync).
 */
int ras_db_once_spill_trouble(struct ras_db_actions *a);
void ras_db_once_spill_bound(struct ras_db_actions *a, size_t max_keys);
/*
 * Stores a decision. With fold, a decision identical to the subject's latest
 * row (same boot, threshold, action, target, result, errno, synthetic, event
 * table) adds to that row's repeats and last time instead: the caller says
 * which decisions may fold (db_actions.c stores, rasd/decision.c knows what
 * touched the machine). 0 stored as a new row, 1 folded, or -errno; with a
 * writer thread (ras_db_write_behind_start) in a transaction, 0: handed to it.
 */
int ras_db_action_insert(struct ras_db_actions *a, const struct ras_db_action *act, bool fold);
/*
 * While the writer thread takes the writes (ras_db_write_behind_start), the
 * open transaction's folding decisions are kept, one per subject with their
 * repeats (ras_db_action_insert then returns 0, and 1 for each that folds
 * into one kept): flush writes them, before the commit; discard forgets them
 * with a rolled-back transaction.
 */
int ras_db_actions_flush(struct ras_db_actions *a);
void ras_db_actions_discard(struct ras_db_actions *a);
/*
 * The threshold of a crossed row's page action (rasd/actions_rows.c): one
 * page of a decision taken for the whole row, not a decision of its own.
 */
#define RAS_DB_ROW_PAGE_THRESHOLD "crossed row"
/*
 * Decisions of a kind that touched the machine (done or failed, not
 * "account") since since_ns: a crossed row's page actions are not counted,
 * its decision is.
 */
int ras_db_action_count_since(struct ras_db_actions *a, const char *kind, int64_t since_ns,
			      int64_t *n);

/*
 * Readers. fn returns non-zero to stop. Returns rows seen, -ENOENT without the
 * table, or -EIO. The list holds the rows with a decision at or after since_ns.
 */
typedef int (*ras_db_action_fn)(void *ctx, const struct ras_db_action *act);
int ras_db_action_list(struct ras_db *db, int64_t since_ns, ras_db_action_fn fn, void *ctx);
/*
 * Decisions per result (a folded row counts its repeats). Without a window,
 * type or boot (f NULL, or none set): all of them, from the roll-up. Else
 * those of the rows whose last decision is in [since, until), on records of
 * the type's table and of that boot, each row counted in full.
 */
struct ras_db_action_window {
	int64_t since_ns, until_ns;   /* 0: unbounded */
	const char *event_table;      /* NULL: every type */
	const char *boot_id;          /* NULL: every boot */
};
typedef void (*ras_db_action_count_fn)(void *ctx, const char *result, int64_t n);
int ras_db_action_counts(struct ras_db *db, const struct ras_db_action_window *w,
			 ras_db_action_count_fn fn, void *ctx);
typedef int (*ras_db_bucket_fn)(void *ctx, const char *kind, const char *subject,
				const struct ras_db_bucket *b, const char *label);
int ras_db_bucket_list(struct ras_db *db, ras_db_bucket_fn fn, void *ctx);

#endif
