/* SPDX-License-Identifier: MIT */
/*
 * The database layer: the only code that speaks SQL. One writer (rasd),
 * any number of read-only readers (ras-fdr-ctl). Statements are prepared
 * once; the schema is generated from the event table and versioned with
 * PRAGMA user_version.
 */
#ifndef RAS_DB_H
#define RAS_DB_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/event_table.h"
#include "lib/subject.h"

#define RAS_DB_SCHEMA_VERSION 26

struct ras_db;

/*
 * Storm folding and raw-record limits (db_fold.c, rasd.conf(5)): beyond
 * fold_threshold records of one subject in a period, all but the first and
 * the last fold_keep are folded into exact per-hour counts; the oldest raw
 * records go first (folded likewise) past max_db_bytes or keep_raw_ns.
 */
struct ras_db_limits {
	uint32_t fold_threshold;    /* 0: no folding */
	int64_t fold_period_ns;
	unsigned fold_keep;
	uint64_t page_size;         /* for the page subject */
	int64_t max_db_bytes;       /* 0: no limit */
	int64_t keep_raw_ns;        /* 0: forever */
};

/* One stored record. values follow type->fields; decoded starts with a ras_decoded_head. */
/* The subject kinds storm folding derives for a record: all of them. */
#define RAS_DB_FOLD_KINDS ((1u << RAS_SUBJ_KINDS) - 1)

struct ras_db_event {
	unsigned type_idx;
	int64_t wall_ns;
	uint64_t trace_ts;
	int trace_cpu;
	const char *source;    /* live, boot, previous-boot, synthetic, erst (db_crashes.h); inserted, a
				  text that never changes (the roll-ups know a source by its address) */
	bool synthetic;        /* injected by ras-fdr-ctl, wherever it was read */
	int64_t boot;          /* boots.id; 0: this boot */
	uint64_t rec_hash;
	const struct ras_value *values;
	const void *decoded;
	const struct ras_db_limits *limits;   /* NULL: never folded, no limits applied */
	/*
	 * The record's subjects (lib/subject.h) of the kinds set in subject_kinds,
	 * derived once by the caller for folding and thresholds alike; NULL: each
	 * user derives what it needs.
	 */
	const struct ras_subject *subjects;
	int n_subjects;
	unsigned subject_kinds;
};

struct ras_db_lost {
	int cpu;
	long long count;       /* -1: the kernel said "some" without a count */
	int64_t from_ns, to_ns;
	const char *origin;    /* "subbuffer", "stats", "malformed" or "crash" */
	const char *instance;
};

/* What a file at the database path is (db_check.c says how it is told). */
enum ras_db_state {
	RAS_DB_GOOD,        /* a ras-fdr database this version can use */
	RAS_DB_MISSING,     /* no file */
	RAS_DB_EMPTY,       /* an empty file, or an SQLite database without tables */
	RAS_DB_CORRUPT,     /* truncated, not SQLite, or header/schema damaged */
	RAS_DB_FOREIGN,     /* another application's tables */
	RAS_DB_NEWER,       /* a newer ras-fdr's schema */
	RAS_DB_UNREADABLE,  /* a link, not a regular file, no permission, locked */
};
const char *ras_db_state_name(enum ras_db_state s);

/*
 * Opens for writing: checks the directory (not writable by other users),
 * never follows a link, creates files 0640, creates or migrates the schema.
 * Refuses a file that is not GOOD, MISSING or EMPTY; *state (may be NULL)
 * says what it was, so rasd can move a corrupt file aside.
 */
int ras_db_open_writer_state(struct ras_db **out, const char *path, const char *boot_id,
			     enum ras_db_state *state, char *err, size_t errlen);
int ras_db_open_writer(struct ras_db **out, const char *path, const char *boot_id,
		       char *err, size_t errlen);
/*
 * Opens read-only. A missing table or column of an older ras-fdr is not an
 * error; a missing, empty, corrupt, truncated, foreign or newer file is
 * (-ENOENT, -EBADMSG, -EPROTO, -EACCES), with err saying which. The handle
 * is for the opening thread only (no mutex).
 */
int ras_db_open_reader(struct ras_db **out, const char *path, char *err, size_t errlen);
/*
 * A writer's records are stored from here on by a thread of its own (write-
 * behind, db_writer.c), so that SQLite's work on a storm uses a second core:
 * the calls below stay as they are, a failure of a record's insert is met at
 * the next call that reads or commits. 0 or -errno (then all stays on the
 * caller's thread). ras_db_close stops the thread.
 */
int ras_db_write_behind_start(struct ras_db *db);
void ras_db_close(struct ras_db *db);
/*
 * ras_db_close, and when the file had been moved and its log's frames could
 * not all be copied into it, the name that log was kept under
 * (<path>-wal.moved-TIME, db_moved.c) in kept; else kept is "".
 */
void ras_db_close_keep(struct ras_db *db, char *kept, size_t len);
const char *ras_db_errmsg(struct ras_db *db);

int ras_db_begin(struct ras_db *db);
/*
 * Commits. -EBUSY when another process held the lock past the busy timeout,
 * -ENOSPC when the disk is full, -ESTALE when the file was removed or
 * replaced since it was opened (nothing is written to it then), -EIO
 * otherwise; the transaction is then still open: the caller rolls it back
 * and tries again later (after -ESTALE, on a database opened again). With a
 * writer thread the stages' work at commit (roll-ups, folding) and the COMMIT
 * run on it, and this waits for them.
 */
int ras_db_commit(struct ras_db *db);
/*
 * Commits without waiting, where it can: with a writer thread that stores the
 * transaction's records, the roll-ups' upserts, folding's flush and the COMMIT
 * are handed to it, *ticket names that commit, and the next transaction may
 * begin at once (it follows it on the thread). Where it cannot (no thread, the
 * last record stored here, a failure), it commits as ras_db_commit does: *ticket 0.
 * 0 or -errno (as ras_db_commit).
 */
int ras_db_commit_behind(struct ras_db *db, uint64_t *ticket);
/*
 * A commit handed over: 1 made (durable), 0 not yet, or -errno: it failed, or
 * a write before it did, and nothing since the last commit made is stored
 * (ras_db_rollback, then give the records again). commit_wait waits: 0 or -errno.
 */
int ras_db_commit_poll(struct ras_db *db, uint64_t ticket);
int ras_db_commit_wait(struct ras_db *db, uint64_t ticket);
/*
 * An event loop's wait for a commit handed over, without a timer. commit_fd
 * is an eventfd (O_CLOEXEC, non-blocking; -1 without a writer thread or when
 * none could be made) that the writer thread makes readable when a watched
 * commit is made or has failed. commit_watch is commit_poll, and when it says
 * 0 (not yet) the fd will become readable once the answer is known; a commit
 * not watched writes nothing. The fd may be readable with nothing new (a
 * watch answered meanwhile): poll again. commit_fd_drain empties it.
 */
int ras_db_commit_fd(const struct ras_db *db);
int ras_db_commit_watch(struct ras_db *db, uint64_t ticket);
void ras_db_commit_fd_drain(struct ras_db *db);
/* When the writer thread's last commit was durable (CLOCK_REALTIME ns), 0 without one. */
int64_t ras_db_committed_ns(const struct ras_db *db);
/*
 * With no transaction open (-EBUSY otherwise): folds, in a transaction of its
 * own, the committed rows of storms that wait to be folded together (up to
 * 63 per storm, rasd.conf(5) fold_keep), as rasd does before it stops. On
 * failure they stay raw rows, still counted; 0 or -errno.
 */
int ras_db_fold_settle(struct ras_db *db);
/* Abandons the open transaction (if SQLite has not already) and whatever it cached from it. */
void ras_db_rollback(struct ras_db *db);
/* How many rollbacks db has had: a copy of its rows kept since one is out of date (rasd/stats_stored.h). */
unsigned long ras_db_rollbacks(const struct ras_db *db);
/*
 * Whether a writer's path no longer names the file it has open (removed or
 * replaced since it was opened). Then any failure of it is "moved" (-ESTALE),
 * never corrupt: what is at the path now is another file.
 */
bool ras_db_moved(struct ras_db *db);
/* -EBUSY, -ENOSPC, -EBADMSG (corrupt), -ESTALE (moved) or -EIO: the kind of the last failure. */
int ras_db_last_errno(struct ras_db *db);
/* Adds a storage_events row (what happened to the database itself), in its own transaction. */
int ras_db_storage_event(struct ras_db *db, const char *what, const char *detail);
/* Returns 1 when stored, 0 when an identical record was already stored, or -errno. */
int ras_db_insert_event(struct ras_db *db, const struct ras_db_event *ev);
int ras_db_insert_lost(struct ras_db *db, const struct ras_db_lost *lost);

/*
 * Last seen per-CPU loss counters of an instance in this boot (0 if none),
 * with the identity of the instance they were read from (0 unknown: none
 * stored, or stored by a ras-fdr before schema 24).
 */
struct ras_db_cpu_stats {
	uint64_t overrun, dropped;
	uint64_t ident;
};
int ras_db_cpu_stats_get(struct ras_db *db, const char *instance, int cpu,
			 struct ras_db_cpu_stats *out);
int ras_db_cpu_stats_set(struct ras_db *db, const char *instance, int cpu,
			 const struct ras_db_cpu_stats *in);
/*
 * The kernel's "read events" figure of a CPU of an instance (per_cpu/cpuN/stats)
 * that matches what is committed: kept in the same transaction as the records,
 * so that a rasd killed between reading and committing leaves a countable gap.
 * get: 1 and *read when known, 0 when none is stored, or -EIO.
 */
int ras_db_read_mark_get(struct ras_db *db, const char *instance, int cpu, uint64_t *read);
int ras_db_read_mark_set(struct ras_db *db, const char *instance, int cpu, uint64_t read);
int ras_db_counter_add(struct ras_db *db, const char *name, int64_t delta);
/* Gives the page cache and a storm's batch slots back between batches, so an idle daemon stays small. */
void ras_db_release_memory(struct ras_db *db);
/*
 * Memory held by a batch's slots (hourly roll-ups, storm folds): kept while
 * batches are storm-sized, freed by ras_db_release_memory once they are not.
 */
size_t ras_db_slot_bytes(const struct ras_db *db);
/*
 * boots.id of the boot before this one: the newest other boot in the
 * database, or a new row named "before:<this boot id>" when there is none.
 */
int ras_db_previous_boot(struct ras_db *db, int64_t *boot);

/* Column names of an event table, in storage order (common, raw, decoded). */
const char *ras_db_column_name(unsigned type_idx, unsigned col);
unsigned ras_db_column_count(unsigned type_idx);

#endif
