/* SPDX-License-Identifier: MIT */
/*
 * Private to rasd/actions*.c: the buckets cache and what counts an error
 * into it, shared by the live path (actions.c) and the replay of stored
 * records at start and by --rebuild-buckets (actions_replay.c).
 */
#ifndef RASD_ACTIONS_INTERNAL_H
#define RASD_ACTIONS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "actions.h"
#include "lib/config.h"
#include "bmc_sel.h"
#include "decision.h"
#include "log.h"
#include "once_seen.h"
#include "lib/subject.h"
#include "lib/threshold.h"

#define CACHE_SLOTS 4096          /* subjects kept in memory between flushes */
/* 2 MiB, touched as it fills: about 1.4 % false hits at KNOWN_MAX subjects (stored or spilled). */
#define KNOWN_BITS (1u << 24)
#define KNOWN_MAX (1u << 20)
#define ONCE_SEEN_MAX (1u << 20)  /* subjects seen once, held without a row: 1.5M in 32 MiB at most */

struct entry {
	bool used, dirty;
	bool stored;                  /* its total came from the database */
	int64_t logged_ns;            /* last decision logged for this subject */
	unsigned long unlogged;       /* decisions since, stored but not logged */
	enum ras_subject_kind kind;
	uint64_t hash;                /* hash_key of kind and key: compared before the key */
	char key[128];
	char label[EDAC_LABEL_MAX];   /* whole, as the bucket shows it */
	struct ras_bucket b;
	int64_t total;
	uint64_t txn;                 /* the transaction that last changed it (undo kept) */
};

/* Grown by doubling; what a transaction changed, kept until it commits. */
struct txn_log {
	struct entry *undo;           /* entries as they were before the transaction changed them */
	size_t n_undo, cap_undo;
	bool undo_incomplete;         /* memory ran out: a rollback reloads from the database */
};

/* The machine-wide warnings' state as of a commit (actions_stats.c). */
struct actions_stats_mark {
	struct ras_bucket rate;
	int64_t rate_total;
	uint64_t poison_kb;
};

struct actions_stats_log {
	int64_t logged_ns;            /* last warning logged */
	unsigned long unlogged;       /* warnings since, stored but not logged */
};

struct actions_stats {
	bool th_loaded;
	struct ras_threshold rate_th; /* ce_rate_threshold */
	struct ras_bucket rate;       /* every corrected error of the machine */
	int64_t rate_total;
	bool rate_loaded, rate_dirty; /* read from the database; to be written there */
	uint64_t poison_kb;           /* HardwareCorrupted at the last poison warning; 0: none */
	bool meminfo_failed;          /* said once until it reads again */
	struct actions_stats_mark committed;
	struct actions_stats_log rate_log, poison_log;
};

struct ras_actions {
	const struct rasd_config *cfg;
	struct ras_db_actions *dba;
	struct ras_triggers *trig;
	struct rasd_bmc_sel *sel;     /* SEL entries for the BMC (bmc_sel.h), or NULL */
	struct ras_threshold th[RAS_SUBJ_KINDS];
	char th_text[RAS_SUBJ_KINDS][32]; /* each as ras_threshold_format writes it */
	unsigned counted;             /* bit per kind with a threshold: subjects worth building */
	uint64_t page_size;
	struct ras_decisions decisions; /* rate limits; the decisions of the open transaction */
	struct ras_log_limit decision_lines; /* lines logged about decisions, in all */
	unsigned cached;
	uint64_t txn;                 /* the current transaction's number (from 1) */
	struct txn_log log;
	struct entry slots[CACHE_SLOTS];
	struct ras_once_seen *once;
	bool spill_failed;            /* SQLite rolled back the transaction in a spill: it goes */
	bool spill_off;               /* the spill failed once: given up until restart */
	int64_t newest_ns;            /* the newest error time counted: what has leaked out by now */
	int64_t prune_next_ns;        /* when rows of one leaked error are looked for again */
	int64_t trim_next_ns;         /* CLOCK_MONOTONIC: when ras_actions_trim looks again */
	int64_t committed_newest_ns;  /* newest_ns at the last commit, */
	int64_t committed_mono_ns;    /* and CLOCK_MONOTONIC then (0: no commit yet) */
	/*
	 * A Bloom filter of every subject the database may hold a bucket for
	 * or have spilled (seen once, past the memory for those):
	 * the ones there at open and every one cached since (it is written at a
	 * flush). A subject not in it is new, so a storm over fresh pages skips
	 * a SELECT per page. Too full to tell (known_valid false): ask always.
	 */
	uint64_t *known;              /* KNOWN_BITS bits; NULL: ask always */
	unsigned known_count;
	bool known_valid;
	struct actions_stats stats;
	/*
	 * The buckets written since the last commit known made, and the
	 * committed ones' reader (actions_bucket.c): a cache miss waits for no
	 * writer thread. bucket_syncs: reads that still asked the writer's
	 * connection (tests).
	 */
	struct rasd_unconfirmed *written;
	struct ras_db_bucket_reader *reader;
	unsigned long bucket_syncs;
	/* The last record's subjects hashed and fetched before it was stored (actions_prefetch.c). */
	struct {
		const struct ras_subject *subjects; /* NULL: none waiting */
		int n;
		uint64_t rec_hash;
		int64_t wall_ns;
		uint64_t hash[RAS_SUBJECTS_MAX];
	} pre;
	/* The pages of each DRAM row (actions_rows.c), and the hashes of the rows that crossed. */
	struct {
		struct ras_db_row_pages *db;
		uint64_t *crossed;
		size_t n_crossed, cap_crossed;
		bool stale;           /* a transaction was rolled back: read crossed again */
	} rows;
};


/* How an error is counted: as it arrives, or replayed from the stored records. */
enum counting {
	COUNT_LIVE,
	COUNT_REBUILD,            /* every bucket rebuilt: stored totals already hold the error */
	COUNT_RESUME,             /* at start: only subjects without a stored bucket */
};

/* One error stays this long in a bucket of t: a first error is held without a row for it. */
int64_t actions_once_leak_ns(const struct ras_threshold *t);
int64_t actions_realtime_ns(void);
int64_t actions_monotonic_ns(void);
/* The slot holding kind/key, or the free slot where it would go; NULL when none is free. */
struct entry *actions_slot_for(struct ras_actions *a, enum ras_subject_kind kind, const char *key);
/* Counts the subject's errors; the bucket when it crossed (the caller empties it), else NULL. */
struct entry *actions_count_errors(struct ras_actions *a, const struct ras_subject *s,
				   int64_t wall_ns, enum counting how);
/*
 * A record's n subjects' actions_subject_hash: the ones ras_actions_prefetch
 * computed for it, else computed now into hash, their slots fetched
 * (actions_prefetch.c).
 */
const uint64_t *actions_subjects_hashed(struct ras_actions *a, const struct ras_db_event *ev,
					const struct ras_subject *all, int n, uint64_t *hash);
/* The page action (soft, hard, soft-then-hard) on a page: performed, or with probe only checked. */
int actions_page_action(const struct ras_actions *a, const char *how, uint64_t addr, bool probe,
			char *target, size_t len);

/*
 * A crossed row acts on every page recorded in it (actions_rows.c). open:
 * the statements on db (NULL: none) and the rows that crossed; note: a
 * corrected record's row subject, before it is counted, keeps its page;
 * crossed: after the row's decision act, every other page of the row gets
 * it; later: a record of a crossed row that did not cross again acts on the
 * row's new pages; prune: forgets the pages of rows that have not crossed
 * whose errors leaked out by now.
 */
struct ras_db_row_pages;
/*
 * Whether a crossed row would act on its pages: the page action is on, and
 * rows are counted. Inline and without strcmp: it is asked of every subject
 * of every record, twice (issue 39). page_ce_action is an array of 24 bytes,
 * so comparing "off" and "account" with their NULs is strcmp's answer.
 */
static inline bool actions_rows_take_pages(const struct ras_actions *a, const struct ras_subject *s)
{
	const char *how = a->cfg->page_ce_action;

	_Static_assert(sizeof(a->cfg->page_ce_action) >= sizeof("account"), "page_ce_action");
	return s->kind == RAS_SUBJ_ROW && s->have_addr && (a->counted & (1u << RAS_SUBJ_ROW)) &&
	       memcmp(how, "off", sizeof("off")) && memcmp(how, "account", sizeof("account"));
}
int actions_rows_open(struct ras_actions *a, struct ras_db *db);
void actions_rows_close(struct ras_actions *a);
void actions_rows_note(struct ras_actions *a, const struct ras_subject *s,
		       const struct ras_event_type *type, const struct ras_db_event *ev,
		       int64_t row_id);
void actions_rows_crossed(struct ras_actions *a, const struct ras_subject *s,
			  const struct ras_db_action *act, const struct ras_db_event *ev);
void actions_rows_later(struct ras_actions *a, const struct ras_subject *s,
			const struct ras_event_type *type, const struct ras_db_event *ev);
int actions_rows_prune(struct ras_actions *a, int64_t now);
/*
 * The page action of a crossed row's decision on its crossing record's page:
 * nothing written (0, said in target) when it is offline now (its own
 * threshold or a row in this boot, or the kernel's page flags).
 */
int actions_rows_own_page(const struct ras_actions *a, const struct ras_subject *s,
			  const char *how, bool probe, char *target, size_t len);
/*
 * A page subject's own page action: nothing written (0, said in target) on a
 * page a row's action offlined in this boot, or the kernel holds poisoned.
 */
int actions_page_unless_row(const struct ras_actions *a, const struct ras_subject *s,
			    const char *how, bool probe, char *target, size_t len);

/* A spill add the writer thread failed: the spill given up and the warning logged (actions.c). */
void actions_spill_check(struct ras_actions *a);
/* At start: the subjects seen once, found again in the stored records (actions_replay.c). */
void actions_hold_recent_once(struct ras_actions *a, struct ras_db *db);

/*
 * A bucket read back or written (actions_bucket.c). kind: the subject kind,
 * or ACTIONS_RATE_KIND for the machine's ce-rate bucket; kind_name as
 * stored. get: 1 and *out, 0 when none is stored, or -errno, the bucket the
 * writer's connection would read, without waiting for the writer thread
 * when it can tell (see bucket_unconfirmed.h). put: ras_db_bucket_put, kept
 * until its commit is confirmed. changed: the table changed otherwise (a
 * prune, an emptying). open: the reader on db (NULL: none), nothing kept.
 * mark, confirmed_to, settled: a commit handed over, made, or every commit
 * made or rolled back.
 */
#define ACTIONS_RATE_KIND RAS_SUBJ_KINDS
struct ras_db_bucket;
int actions_buckets_open(struct ras_actions *a, struct ras_db *db);
void actions_buckets_close(struct ras_actions *a);
void actions_buckets_free(struct ras_actions *a);
int actions_bucket_get(struct ras_actions *a, int kind, const char *kind_name, const char *key,
		       struct ras_db_bucket *out);
int actions_bucket_put(struct ras_actions *a, int kind, const char *kind_name, const char *key,
		       const struct ras_db_bucket *b, const char *label);
void actions_buckets_changed(struct ras_actions *a);
uint64_t actions_buckets_mark(const struct ras_actions *a);
void actions_buckets_confirmed_to(struct ras_actions *a, uint64_t mark);
void actions_buckets_settled(struct ras_actions *a);

/* The machine-wide warnings (actions_stats.c): the ce-rate bucket and the poison limit. */
void actions_stats_load(struct ras_actions *a);
void actions_stats_record(struct ras_actions *a, const struct ras_event_type *type,
			  const void *decoded, const struct ras_db_event *ev, int64_t row_id);
int actions_stats_flush(struct ras_actions *a);
void actions_stats_set_db(struct ras_actions *a);
void actions_stats_mark(const struct ras_actions *a, struct ras_actions_mark *m);
void actions_stats_committed_to(struct ras_actions *a, const struct ras_actions_mark *m);
void actions_stats_committed(struct ras_actions *a);
void actions_stats_rolled_back(struct ras_actions *a);
/* --rebuild-buckets: the ce-rate bucket emptied (total kept), then a record's corrected errors
 * (actions_stats_rate_errors: 0 when not counted) replayed into it oldest first. */
void actions_stats_rebuild_begin(struct ras_actions *a);
int64_t actions_stats_rate_errors(const struct ras_actions *a, const struct ras_event_type *type,
				  const void *decoded);
void actions_stats_rebuild_add(struct ras_actions *a, int64_t wall_ns, int64_t n);

#endif
