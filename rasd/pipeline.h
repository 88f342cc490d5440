/* SPDX-License-Identifier: MIT */
/*
 * The record pipeline: raw record → event type → fields → decoder →
 * database row and log line. Used for live, boot and replayed records alike.
 */
#ifndef RAS_PIPELINE_H
#define RAS_PIPELINE_H

#include <stdalign.h>
#include "lib/config.h"
#include "db/db.h"
#include "lib/decode.h"
#include "lib/formats.h"
#include "lib/reader.h"
#include "lib/synthetic.h"
#include "lib/tracing.h"
#include "actions.h"
#include "durability.h"
#include "health.h"
#include "pending.h"
#include "stats_stored.h"

/*
 * A full batch's commit handed to the writer thread, not yet known made
 * (pipeline_commit.c): its records are the first pending_bytes of the hold,
 * and what it took as saved is put back if it fails.
 */
struct ras_pipeline_behind {
	uint64_t ticket;                 /* ras_db_commit_behind's; 0: none out */
	size_t pending_bytes;
	uint64_t stored, duplicates;     /* as counted when it was handed over */
	uint64_t saved_unknown, saved_foreign, saved_malformed, saved_refused; /* before it */
	uint64_t saved_filtered;
	uint64_t nomem;                  /* records not kept, counted in it */
	bool stats_fresh;                /* before it */
	struct ras_actions_mark mark;
	size_t health_mark;              /* the diagnosis's held observations it covers */
};

/* CPUs whose quiet drop counters are kept in memory (ras_pipeline.stats_quiet); above: always read. */
#define RAS_PIPELINE_STATS_CPUS 1024

/* The kinds of item a replayed tree is resumed by (see pipeline.c). */
enum { RAS_REPLAY_RECORD, RAS_REPLAY_MISSED, RAS_REPLAY_MALFORMED, RAS_REPLAY_KINDS };

struct ras_pipeline {
	struct ras_formats *fmt;
	struct ras_db *db;
	struct ras_tracing *tr;
	const struct rasd_config *cfg;
	const char *source;              /* live, boot, previous-boot */
	int64_t boot;                    /* boots.id for the records; 0: this boot */
	bool previous_boot;              /* records are from the boot before: find it at the first one */
	struct ras_decode_ctx *dctx;     /* the machine's lookups for decoding */
	struct fdr *fdr;                 /* flight recorder, or NULL */
	struct ras_actions *actions;     /* thresholds, actions and triggers, or NULL */
	struct rasd_health *health;      /* the diagnosis, or NULL */
	uint64_t snapshots;
	const char *synthetic_source;    /* the source given to synthetic records */
	unsigned in_txn;                 /* records in the open transaction */
	int64_t group_first_ns;          /* arrival (wall) of the oldest uncommitted record, 0: none */
	struct rasd_durability *durability; /* commit − arrival of each record, or NULL */
	int64_t committed_ns;            /* wall clock of the last commit measured */
	struct rasd_durability *commit_cost; /* how long each commit took, or NULL */
	uint64_t stored, duplicates, malformed, synthetic_refused, foreign;
	uint64_t saved_malformed, saved_refused; /* already added to the counters table */
	int64_t last_stats_ns;
	/* A new instance: its drop counters start at zero, whatever an old one of its name left. */
	bool stats_fresh, stats_in_txn;
	/*
	 * CPUs (bits) whose kernel drop counters and stored ones were both 0, and
	 * CPUs whose stored ones this pipeline changed outside a fresh start: a
	 * quiet CPU that never was written is checked from the kernel's figures
	 * alone while they stay 0, without reading the database (which waits for
	 * the writer thread, a commit behind included) at every read.
	 */
	uint64_t stats_quiet[RAS_PIPELINE_STATS_CPUS / 64], stats_written[RAS_PIPELINE_STATS_CPUS / 64];
	uint64_t stats_reads;            /* the stored counters read (tests count them) */
	/* What those stored counters are, kept as written: read from the database once (stats_stored.h). */
	struct rasd_stats_stored stats_stored;
	/*
	 * When the kernel's counters are read (rasd/stats_due.h): a read since
	 * the last check (the next commit checks first), a lost page met since,
	 * and the last check's CLOCK_MONOTONIC (0: none this run).
	 */
	bool stats_unchecked, stats_missed;
	int64_t stats_checked_mono;
	const struct ras_reader *stats_reader; /* the reader of that read */
	uint64_t stats_checks;           /* the kernel's counters read, all CPUs at once (tests count them) */
	/* The instance's identity (ras_tracing_instance_ident), read once a run; 0: not yet. */
	uint64_t stats_ident;
	/*
	 * The last rasd left its instance (killed, or it kept it at its stop in
	 * this boot: daemon_setup.c); a fresh one now means someone removed that
	 * (a cleanup) with what it held.
	 */
	bool stats_left_gone;
	/*
	 * That instance was one the last rasd kept at its stop in this boot: a
	 * fresh check that stores no gap for any CPU (no counters of this boot
	 * to judge by: the last rasd's database never opened) stores one for the
	 * whole instance (cpu -1). stats_gaps: the per-CPU gaps stored so far.
	 */
	bool stats_kept_gone;
	uint64_t stats_gaps;
	int db_error;                    /* the last database error (-errno), 0 once committed */
	/* Storage failures: see ras_pipeline_retry. */
	struct ras_pending pending;      /* read since the last commit, kept until it succeeds */
	bool failing;                    /* the database refused: hold records, do not write */
	bool replaying;                  /* storing pending records again: no logs, no copies */
	int64_t fail_since_ns;           /* start of the current failure (wall clock), 0: none */
	char fail_reason[256];
	uint64_t committed_stored, committed_duplicates;
	struct ras_pipeline_behind behind;
	bool commit_fd_polled;           /* the loop's epoll has ras_db_commit_fd: no timer for it */
	bool malformed_logged[RAS_MAX_EVENT_TYPES];
	/* Malformed pages, unknown ids, crash accounting (see pipeline.c). */
	const struct ras_reader *reader; /* set: read marks are committed with the records */
	uint64_t malformed_pages, unknown_ids, saved_unknown, saved_foreign;
	uint64_t crash_lost;           /* records an earlier rasd read and never stored (origin crash) */
	/* Records a type's keep terms leave out (lib/keep.h), or a stand-in's not needed. */
	uint64_t filtered, saved_filtered;
	bool page_problem_logged[RAS_PAGE_N_PROBLEMS];
	/* A replayed tree: items per kind and CPU seen, and committed by an earlier rasd. */
	uint64_t *replay_seen, *replay_skip;
	unsigned replay_ncpus;
	bool unknown_logged;
	bool refused_logged;
	struct ras_db_limits limits;     /* folding and raw-record limits, from cfg */
	struct ras_value values[RAS_MAX_FIELDS];
	/* fmt->tep's byte order against the host's (ras_record_swap), asked once a tep. */
	struct tep_handle *swap_tep;
	bool swap;
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	alignas(16) uint8_t synth[RAS_SYNTH_MAX];
};

void ras_pipeline_init(struct ras_pipeline *p, struct ras_formats *fmt, struct ras_db *db,
		       struct ras_tracing *tr, const struct rasd_config *cfg,
		       struct ras_decode_ctx *dctx, const char *source);
extern const struct ras_reader_ops ras_pipeline_ops;
/*
 * Commits the open transaction, with the per-batch counters. 0, or -EIO when
 * the database failed: the transaction is rolled back, p->failing set, and the
 * records stay in p->pending for ras_pipeline_retry.
 */
int ras_pipeline_commit(struct ras_pipeline *p);
/*
 * Commits the open group as its size says: behind (ras_db_commit_behind, its
 * records held until it is made) when ras_pipeline_commit_goes_behind, else
 * as ras_pipeline_commit. -EAGAIN, nothing done, while the commit behind is
 * still being made: the group stays open and grows (the caller reads on and
 * tries again). Stops and forced commits use ras_pipeline_commit, which waits.
 */
int ras_pipeline_commit_group(struct ras_pipeline *p);
/*
 * Whether the open group should be committed now (now_ns: wall clock): it
 * holds nothing waiting for a group, or its oldest record arrived
 * cfg->commit_delay_ms ago. Its size is bounded by the full batch
 * (batch_max_records, hold_max_kb), committed as soon as it is reached.
 */
bool ras_pipeline_commit_due(const struct ras_pipeline *p, int64_t now_ns);
/* A due group large enough to be a storm's is committed behind, on the writer thread. */
bool ras_pipeline_commit_goes_behind(const struct ras_pipeline *p);
/*
 * Commits an open group that is due, behind when ras_pipeline_commit_goes_behind;
 * true when it tried (a failure is held as usual), false when nothing was due
 * or the commit behind is still being made (the group waits for it, open).
 */
bool ras_pipeline_commit_if_due(struct ras_pipeline *p, int64_t now_ns);
/*
 * Milliseconds until the open group is due (0: now), -1 when nothing waits.
 * While a commit behind is out: 0 once it is made or failed; until then, with
 * commit_fd_polled, the commit fd wakes the loop (ras_db_commit_watch) and a
 * due group waits for it (-1), else 1 (looked at every millisecond).
 */
int ras_pipeline_commit_timeout_ms(const struct ras_pipeline *p, int64_t now_ns);
/*
 * After a failure: stores every pending record and loss again in one
 * transaction (with the kernel's loss counters when r is given) and commits.
 * 0 when stored (or nothing was failing), -EIO when the database still fails.
 */
int ras_pipeline_retry(struct ras_pipeline *p, const struct ras_reader *r);
/* It holds hold_max_kb of records or more: time to commit, or (failing) to stop reading. */
bool ras_pipeline_hold_full(const struct ras_pipeline *p);
/* Gives back the memory of an empty hold (between wake-ups); nothing while records are held. */
void ras_pipeline_trim(struct ras_pipeline *p);
void ras_pipeline_free(struct ras_pipeline *p);
/*
 * At start on a taken-back instance: the records a killed rasd read from the
 * kernel and never committed (the kernel's "read events" now minus the mark
 * committed last) are stored as lost_events with origin "crash". Commits.
 */
int ras_pipeline_account_crash(struct ras_pipeline *p);
/*
 * A replayed tree: what an earlier rasd committed from it (per-CPU counts kept
 * with the records) is passed over, and the counts are committed from now on.
 */
int ras_pipeline_resume_replay(struct ras_pipeline *p, const struct ras_reader *r);
/* Compares the kernel's per-CPU loss counters with the last seen and stores the difference. */
int ras_pipeline_check_stats(struct ras_pipeline *p, const struct ras_reader *r);
/*
 * After a read of a live instance: the counters are checked now when
 * rasd/stats_due.h says so, else before the next commit
 * (ras_pipeline_stats_before_commit).
 */
int ras_pipeline_after_read(struct ras_pipeline *p, const struct ras_reader *r);
/* Before a commit: the counters checked if a read came since the last check. 0 or -EIO. */
int ras_pipeline_stats_before_commit(struct ras_pipeline *p);
/*
 * The same for one CPU (now: the wall clock, the loss's end): the stored
 * counters are read only when the CPU is not known quiet (stats_quiet).
 * 0, or -EIO (the caller notes the database's error).
 */
int ras_pipeline_check_cpu(struct ras_pipeline *p, int cpu, int64_t now);

#endif
