/* SPDX-License-Identifier: MIT */
/*
 * The transaction (db_txn.h): begin, commit (here, on the writer thread, or
 * behind it), rollback, and the write path's stages that run at each, in the
 * order of their table; the stages' memory between transactions and at close.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include "db_internal.h"
#include "db_fold.h"
#include "db_rollup.h"
#include "db_txn.h"

/* Whether folding's flush has work at a commit behind (defined with it, below). */
static bool fold_behind(struct ras_db *db, bool limit_due);

/*
 * The write path's stages after the raw rows (db_insert.c writes those as
 * records come, through the writer thread), run in this order from here and
 * from nowhere else: at commit the roll-ups count the transaction's rows
 * (the totals and hourly counts, the EDAC counts, the metrics' subjects),
 * then folding takes rows away (held records stored, rows folded, the
 * limits, the folds rows); after COMMIT folding may fold them later; a
 * rollback gives back each stage's share of the transaction; between
 * transactions each frees its batch's slots (trim, NULL: kept until close),
 * and says what they hold (slot_bytes, NULL: none counted). Each stage is
 * one module behind its own header (db_rollup.h, db_fold.h) and calls no
 * other's internals (tests/test-db-calls.sh).
 *
 * Where a flush runs. With a writer thread (rasd) every flush, the COMMIT
 * and every stage's end of it are jobs of that thread: a commit made here
 * (ras_db_commit) waits for them, a commit behind (ras_db_commit_behind)
 * does not. A commit behind hands a stage's state over with it: folding's
 * (behind), which the writer thread already owns until the next sync, and
 * the roll-ups' counts (hand), swapped for a second set that the next
 * transaction's records count into while the writer thread writes the
 * first (flush_out). A rollback empties both sets.
 */
static const struct ras_db_stage {
	int (*flush)(struct ras_db *db);              /* before COMMIT: 0 or -1 */
	void (*committed)(struct ras_db *db);         /* after COMMIT, or NULL */
	void (*discard)(struct ras_db *db);           /* after ROLLBACK */
	void (*trim)(struct ras_db *db);              /* between transactions, or NULL */
	void (*free)(struct ras_db *db);              /* at close */
	size_t (*slot_bytes)(const struct ras_db *db);   /* or NULL */
	/* A commit behind: whether its flush is a job now (NULL: see hand). */
	bool (*behind)(struct ras_db *db, bool limit_due);
	/* A commit behind: the state handed over, and its flush, a job (NULL: see behind). */
	void (*hand)(struct ras_db *db);
	int (*flush_out)(struct ras_db *db);
} stages[] = {
	{ ras_db_rollup_flush, NULL, ras_db_rollup_discard, ras_db_rollup_trim, ras_db_rollup_free,
	  ras_db_rollup_slot_bytes, NULL, ras_db_rollup_hand, ras_db_rollup_flush_out },
	{ ras_db_edac_acc_flush, NULL, ras_db_edac_acc_discard, NULL, ras_db_edac_acc_free, NULL, NULL,
	  ras_db_edac_acc_hand, ras_db_edac_acc_flush_out },
	{ ras_db_metrics_acc_flush, NULL, ras_db_metrics_acc_discard, NULL, ras_db_metrics_acc_free, NULL,
	  NULL, ras_db_metrics_acc_hand, ras_db_metrics_acc_flush_out },
	{ ras_db_fold_flush, ras_db_fold_committed, ras_db_fold_discard, ras_db_fold_trim, ras_db_fold_free,
	  ras_db_fold_slot_bytes, fold_behind, NULL, NULL },
};
#define N_STAGES (sizeof(stages) / sizeof(stages[0]))

static int step_reset(sqlite3_stmt *st)
{
	int r = sqlite3_step(st);

	sqlite3_reset(st);
	return r == SQLITE_DONE || r == SQLITE_ROW ? 0 : -EIO;
}

int ras_db_begin(struct ras_db *db)
{
	if (db->in_txn)
		return 0;
	/* A commit handed over: this transaction follows it on the writer thread, nothing waits. */
	if (db->commit_behind && !db->wb_failed) {
		if (ras_db_defer_begin(db) < 0)
			return -EIO;
		db->err[0] = 0;
		db->in_txn = true;
		return 0;
	}
	if (ras_db_sync(db) < 0)
		return ras_db_last_errno(db);
	/* A new transaction: an earlier failure's text no longer describes anything. */
	db->err[0] = 0;
	if (step_reset(db->stmt[STMT_BEGIN]) < 0)
		return -EIO;
	db->in_txn = true;
	memset(db->next_id, 0, sizeof(db->next_id));
	return 0;
}

/* A failure on a file that has gone (SQLite may say "read-only") is told as such. */
int ras_db_last_errno(struct ras_db *db)
{
	if (ras_db_file_moved(db))
		return -ESTALE;
	/* A deferred write's failure: the connection may have run nothing since, or a rollback. */
	return ras_db_errno_of(db->wb_failed ? db->wb_failed : sqlite3_errcode(db->h));
}

/* Every minute at most, a storm's commit waits for the age limit (keep_raw_days) to be applied. */
#define AGE_LIMIT_EVERY_NS (60 * 1000000000LL)

static int64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The SQLite code of a failure on the writer thread (a job's): SQLITE_ERROR when SQLite had none. */
static int job_code(struct ras_db *db)
{
	int r = sqlite3_errcode(db->h);

	return r != SQLITE_OK && r != SQLITE_DONE && r != SQLITE_ROW ? r : SQLITE_ERROR;
}

/* A stage's flush job: which stage, and whether of the state a commit behind handed over. */
struct flush_arg {
	size_t i;
	bool out;
};

/* Stage *arg's flush, on the writer thread, before its COMMIT. */
static int stage_flush_job(struct ras_db *db, const void *arg)
{
	struct flush_arg a;

	memcpy(&a, arg, sizeof(a));
	return (a.out ? stages[a.i].flush_out(db) : stages[a.i].flush(db)) < 0 ? job_code(db) : SQLITE_OK;
}

/* After its COMMIT (a job run only when the COMMIT was made): stage *arg's end of it. */
static int stage_committed_job(struct ras_db *db, const void *arg)
{
	size_t i;

	memcpy(&i, arg, sizeof(i));
	stages[i].committed(db);
	return SQLITE_OK;
}

/*
 * Hands the writer thread the flushes of the stages handed[] names, the
 * COMMIT of ticket, then those stages' ends of it: ended[i] says whether
 * stage i's end is handed over (or it has none). An end not handed over
 * (a stage flushed here, or no memory for the job) is the caller's to run
 * once the COMMIT is made.
 */
static int hand_commit(struct ras_db *db, uint64_t ticket, const bool *handed, bool *ended, bool behind)
{
	for (size_t i = 0; i < N_STAGES; i++) {
		struct flush_arg a = { .i = i, .out = behind && stages[i].flush_out };

		if (handed[i] && ras_db_defer_call(db, stage_flush_job, &a, sizeof(a)) < 0)
			return -ENOMEM;
	}
	if (ras_db_defer_commit(db, ticket) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < N_STAGES; i++)
		ended[i] = !stages[i].committed ||
			   (handed[i] && ras_db_defer_call(db, stage_committed_job, &i, sizeof(i)) == 0);
	return 0;
}

/*
 * The transaction is over: the stages' ends of it not run on the writer
 * thread, here. Made here, the next transaction reads its row ids again;
 * behind, they go on from where they are (the next follows this one).
 */
static void txn_committed(struct ras_db *db, const bool *ended, bool behind)
{
	db->in_txn = false;
	if (!behind)
		memset(db->next_id, 0, sizeof(db->next_id));
	for (size_t i = 0; i < N_STAGES; i++)
		if (!ended[i] && stages[i].committed)
			stages[i].committed(db);
}

/*
 * With a writer thread: every stage's flush, the COMMIT and the stages' ends
 * of it are its jobs, and this thread waits for them. A failure leaves the
 * transaction open, as a failed COMMIT here does: the caller rolls it back.
 */
static int commit_on_writer(struct ras_db *db)
{
	bool all[N_STAGES], ended[N_STAGES];
	uint64_t ticket = db->commit_ticket + 1;
	int r;

	for (size_t i = 0; i < N_STAGES; i++)
		all[i] = true;
	r = hand_commit(db, ticket, all, ended, false);
	if (r == 0)
		db->commit_ticket = ticket;
	/* The jobs handed over before a refusal run; the caller rolls the transaction back. */
	if (ras_db_sync(db) < 0 || r < 0 || ras_db_commit_poll(db, ticket) != 1)
		return r < 0 ? r : ras_db_last_errno(db);
	txn_committed(db, ended, false);
	return 0;
}

int ras_db_commit(struct ras_db *db)
{
	bool ended[N_STAGES] = { false };
	int r;

	if (!db->in_txn)
		return 0;
	if (ras_db_file_moved(db))
		return -ESTALE;
	if (db->wb && !db->wb_failed) {
		r = commit_on_writer(db);
	} else {
		/* No writer thread: here, in the table's order (roll-ups first: they count what folds take away). */
		for (size_t i = 0; i < N_STAGES; i++)
			if (stages[i].flush(db) < 0 || ras_db_sync(db) < 0)
				return ras_db_last_errno(db);
		/* The busy timeout has already waited; the caller backs off and tries again. */
		r = sqlite3_step(db->stmt[STMT_COMMIT]);
		sqlite3_reset(db->stmt[STMT_COMMIT]);
		/* The file replaced while committing: "moved", whatever the log read as. */
		if (r != SQLITE_DONE)
			return ras_db_file_moved(db) ? -ESTALE : ras_db_errno_of(r);
		txn_committed(db, ended, false);
		ras_db_note_committed(db);
		r = 0;
	}
	/* The fold flush applied the limits. */
	if (r == 0)
		db->age_checked_ns = monotonic_ns();
	return r;
}

/*
 * Whether a limit is due at this commit: the age limit once a minute, the
 * size limit once the pages in use (as of the last commit) come within a
 * sixteenth of it. Read from the event loop's copy of the limits: folding's
 * own is the writer thread's.
 */
static bool limit_due(struct ras_db *db)
{
	const struct ras_db_limits *l = db->have_limits ? &db->limits : NULL;
	int64_t used = ras_db_used_bytes(db);

	if (!l)
		return false;
	if (l->keep_raw_ns > 0 && monotonic_ns() - db->age_checked_ns >= AGE_LIMIT_EVERY_NS)
		return true;
	return l->max_db_bytes > 0 && (used < 0 || used >= l->max_db_bytes - l->max_db_bytes / 16);
}

/*
 * Folding's flush at a commit behind: a job when it has work (records handed
 * over for it, or, read only while it is not the writer thread's, rows to
 * fold or folding on) or a limit is due, which its flush applies. Its state
 * is then the writer thread's until the next sync.
 */
static bool fold_behind(struct ras_db *db, bool due)
{
	return due || db->fold_out || ras_db_fold_busy(db);
}

/*
 * The roll-ups' counts a commit behind handed over are flushed before its
 * COMMIT: once it is made their set is empty and this thread's again (rasd
 * has waited for it before the next commit behind; a caller that has not,
 * waits here). Not made, the writer thread has failed: it drops every job
 * until the rollback, which empties both sets, so what either holds is
 * never written.
 */
static void rollups_back(struct ras_db *db)
{
	if (db->rollups_ticket && ras_db_commit_poll(db, db->rollups_ticket) == 0)
		ras_db_commit_wait(db, db->rollups_ticket);
	db->rollups_ticket = 0;
}

int ras_db_commit_behind(struct ras_db *db, uint64_t *ticket)
{
	bool handed[N_STAGES], ended[N_STAGES], due, fold = false, rollups = false;

	*ticket = 0;
	if (!db->in_txn)
		return 0;
	if (!ras_db_deferring(db))
		return ras_db_commit(db);
	if (ras_db_file_moved(db))
		return -ESTALE;
	rollups_back(db);
	due = limit_due(db);
	/* In the table's order: the writer thread runs the flushes in it. */
	for (size_t i = 0; i < N_STAGES; i++) {
		if (stages[i].hand) {
			stages[i].hand(db);
			handed[i] = rollups = true;
			continue;
		}
		handed[i] = stages[i].behind && stages[i].behind(db, due);
		fold = fold || handed[i];
		if (!handed[i] && !stages[i].behind && stages[i].flush(db) < 0)
			return ras_db_last_errno(db);
	}
	if (hand_commit(db, db->commit_ticket + 1, handed, ended, true) < 0)
		return ras_db_last_errno(db);
	*ticket = ++db->commit_ticket;
	if (rollups)
		db->rollups_ticket = *ticket;
	db->commit_behind = true;
	for (size_t i = 0; i < N_STAGES; i++)
		/* A handed stage whose end found no memory for its job: ended here, once the thread is idle. */
		if (handed[i] && !ended[i] && ras_db_sync(db) < 0)
			return ras_db_last_errno(db);
	/* A stage not handed over ends here now: its state is this thread's. */
	txn_committed(db, ended, true);
	if (fold)
		db->fold_out = true;
	if (due)
		db->age_checked_ns = monotonic_ns();
	return 0;
}

void ras_db_rollback(struct ras_db *db)
{
	/* The writer thread's jobs are dropped or run; its failure is the rolled-back transaction's. */
	ras_db_sync_clear(db);
	/* After a full disk or an I/O error SQLite may have rolled back already. */
	if (!sqlite3_get_autocommit(db->h))
		step_reset(db->stmt[STMT_ROLLBACK]);
	db->in_txn = false;
	db->rollbacks++;
	memset(db->next_id, 0, sizeof(db->next_id));
	/* The writer thread is idle: the roll-ups handed over are this thread's to empty. */
	db->rollups_ticket = 0;
	for (size_t i = 0; i < N_STAGES; i++)
		stages[i].discard(db);
	/* Decodings stored in the abandoned transaction are gone with it. */
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++) {
		if (db->dec_cache[i])
			memset(db->dec_cache[i], 0, RAS_DB_DEC_CACHE * sizeof(*db->dec_cache[i]));
		if (db->dec_sent[i])
			memset(db->dec_sent[i], 0, RAS_DB_DEC_CACHE * sizeof(*db->dec_sent[i]));
	}
}

unsigned long ras_db_rollbacks(const struct ras_db *db)
{
	return db ? db->rollbacks : 0;
}

size_t ras_db_slot_bytes(const struct ras_db *db)
{
	size_t n = 0;

	for (size_t i = 0; db && i < N_STAGES; i++)
		if (stages[i].slot_bytes)
			n += stages[i].slot_bytes(db);
	return n;
}

void ras_db_release_memory(struct ras_db *db)
{
	if (!db || ras_db_sync(db) < 0)
		return;
	/* A storm's batch slots, touched whole by a varied storm, stay resident otherwise. */
	if (!db->in_txn) {
		for (size_t i = 0; i < N_STAGES; i++)
			if (stages[i].trim)
				stages[i].trim(db);
		ras_db_write_behind_trim(db);
	}
	sqlite3_db_release_memory(db->h);
}

static int release_waiting_job(struct ras_db *db, const void *arg)
{
	(void)arg;
	return ras_db_fold_release_waiting(db) < 0 ? job_code(db) : SQLITE_OK;
}

/*
 * Folds the committed rows that wait for their subject's (fold_or_queue,
 * db_fold.c), in a transaction of its own: here, with the transaction's
 * other steps, so that folding calls no commit of its own.
 */
int ras_db_fold_settle(struct ras_db *db)
{
	int r;

	/* The writer thread's until it is idle. */
	if (ras_db_sync(db) < 0)
		return -EIO;
	if (!ras_db_fold_waiting(db))
		return 0;
	if (db->in_txn)
		return -EBUSY;
	if (ras_db_begin(db) < 0)
		return -EIO;
	/* With a writer thread, there (and its commit: ras_db_commit): this thread waits. */
	if (db->wb && !db->wb_failed)
		r = ras_db_defer_call(db, release_waiting_job, NULL, 0) < 0 ? -ENOMEM : 0;
	else
		r = ras_db_fold_release_waiting(db);
	if (r == 0)
		r = ras_db_commit(db);
	if (r < 0)
		ras_db_rollback(db);
	return r;
}

void ras_db_stages_free(struct ras_db *db)
{
	for (size_t i = 0; i < N_STAGES; i++)
		stages[i].free(db);
}
