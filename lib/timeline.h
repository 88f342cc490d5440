/* SPDX-License-Identifier: MIT */
/*
 * A timeline of rasd's threads, for profiling (issue 39): when each waits, and
 * on what. Off unless RAS_FDR_TIMELINE names a file at start; then each span's
 * begin and end is noted (CLOCK_MONOTONIC and the thread's CPU time) in an
 * array allocated once, and written to that file at exit. Off, a note is one
 * predictable branch on a global. bench/timeline-summary.py reads the file.
 */
#ifndef RAS_TIMELINE_H
#define RAS_TIMELINE_H

#include <stdbool.h>

enum ras_tl_span {
	RAS_TL_SETUP,         /* event loop: daemon_setup (lock, instance, database, modules) */
	RAS_TL_OPEN_DB,       /* event loop: the database opened, schema and migrations */
	RAS_TL_TAKEN_BACK,    /* event loop, in the set-up: a taken-back instance's records stored */
	RAS_TL_RUN,           /* event loop: reading and storing the records, the last drain, the BMC's */
	RAS_TL_STOP,          /* event loop: the stop (storage settled, folds settled, summary) */
	RAS_TL_SETTLE_FOLDS,  /* event loop, in the stop: ras_db_fold_settle */
	RAS_TL_TEARDOWN,      /* event loop: closing the modules and the database */
	RAS_TL_DB_CLOSE,      /* event loop, in the teardown: ras_db_close (the writer joined) */
	RAS_TL_WAIT_ROOM,     /* event loop waits for a free chunk (ras_db_wb's queue full) */
	RAS_TL_WAIT_SYNC,     /* event loop waits for the writer to be idle (ras_db_sync) */
	RAS_TL_WAIT_COMMIT,   /* event loop waits for a commit behind (ras_db_commit_wait) */
	RAS_TL_WRITER_IDLE,   /* writer thread waits for work */
	RAS_TL_WRITER_COMMIT, /* writer thread steps a COMMIT handed over */
	RAS_TL_CHECKPOINT,    /* a checkpoint pass (checkpointer thread, or the writer's own) */
	RAS_TL_CKPT_JOIN,     /* event loop, closing: the checkpointer's pass ended and it joined */
	RAS_TL_WRITER_JOIN,   /* event loop, closing: the writer's last jobs run and it joined */
	RAS_TL_FILL,          /* event loop: the per-CPU buffers read (lib/reader.c); between two, they fill */
	RAS_TL_POLL,          /* event loop: in epoll_wait */
	RAS_TL_COMMIT,        /* event loop: a group's commit (rasd/pipeline_commit.c), behind or here */
	RAS_TL_CONFIRM,       /* event loop: a commit behind taken as made (the diagnosis's counting) */
	RAS_TL_GIVE_BACK,     /* event loop: memory given back after a real idle (go_idle) */
	RAS_TL_SPANS
};

extern bool ras_tl_on;

void ras_tl_note(enum ras_tl_span span, bool begin);

static inline void ras_tl_begin(enum ras_tl_span span)
{
	if (__builtin_expect(ras_tl_on, 0))
		ras_tl_note(span, true);
}

static inline void ras_tl_end(enum ras_tl_span span)
{
	if (__builtin_expect(ras_tl_on, 0))
		ras_tl_note(span, false);
}

/*
 * Reads RAS_FDR_TIMELINE once (the program's first thread, before any other
 * starts); a "%p" in it is the process id (one file per rasd make bench-live starts).
 */
void ras_tl_open(void);
/* Writes the notes to the file and frees them; every other thread has ended. */
void ras_tl_close(void);

#endif
