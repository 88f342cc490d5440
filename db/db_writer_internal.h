/* SPDX-License-Identifier: MIT */
/*
 * The writer thread's state and its jobs' layout (db_writer.c), shared with
 * the gathering of a table's rows into one INSERT (db_writer_rows.c).
 * Internal to those two files.
 */
#ifndef RAS_DB_WRITER_INTERNAL_H
#define RAS_DB_WRITER_INTERNAL_H

#include <pthread.h>
#include "db_internal.h"

#define WB_CHUNK_BYTES (256 * 1024)
/*
 * 32 MiB of jobs (some 110,000 records of a varied storm, about a batch at
 * the default batch_max_records) may wait for the thread: enough for the
 * event loop to go on reading through a batch's commit (the folds' and
 * roll-ups' flush, the COMMIT: 100-250 ms on make bench's 1M-record
 * stream). With 2 MiB the event loop waited at every commit and the thread
 * then idled while it caught up, 0.8 and 0.5 s of a 4 s run; with 8 MiB
 * (issue 39, after the writer's work shrank to the event loop's) the event
 * loop still waited 0.75 s for room and the thread idled 0.4 s in 12,700
 * short waits: 2.6 s for the stream, 2.15 s now (16 MiB: 2.47 s; 64 MiB:
 * 2.26 s, then waiting for the commit behind). Peak RSS about 21 MB more.
 * Freed when idle (ras_db_write_behind_trim).
 */
#define WB_CHUNKS 128
/* A partial chunk this full is handed over early when the writer thread waits for work. */
#define WB_EAGER_BYTES (16 * 1024)

struct wb_chunk {
	uint8_t *buf;
	size_t len;
};

struct ras_db_wb {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct ras_db *db;
	struct wb_chunk chunk[WB_CHUNKS];
	uint64_t submitted;          /* chunks handed over; written by the event loop's thread */
	uint64_t finished;           /* chunks run; written by the writer thread, atomically */
	bool writer_waits, caller_waits, stop;
	bool running;                /* the writer thread is running jobs (atomic) */
	int failed;                  /* SQLite code of the job that failed; 0: none (under lock) */
	char why[256];
	/* Written by the writer thread's commits, read by ras_db_commit_poll (atomic). */
	uint64_t committed;          /* the ticket of the last commit that succeeded */
	int64_t committed_ns;        /* when it was durable (CLOCK_REALTIME) */
	int64_t used_bytes;          /* the database's pages in use then, in bytes */
	/*
	 * The event loop's wake-up (ras_db_commit_fd): an eventfd written once
	 * a commit is made or the thread goes idle failed, only while watched
	 * (ras_db_commit_watch sets it, the write clears it; atomic).
	 */
	int wake_fd;
	bool watched;
	sqlite3_stmt *page_count, *free_count;   /* the writer thread's own */
	/* A table's rows gathered for one INSERT: their jobs, in the chunk being run. */
	struct {
		unsigned n;
		const uint8_t *job[RAS_DB_ROWS_PER_INSERT];
	} gathered[RAS_MAX_EVENT_TYPES];
	struct ras_db_col_val row[RAS_DB_ROWS_PER_INSERT][RAS_DB_MAX_COLS];
	struct ras_db_col_val dec[RAS_DB_ROWS_PER_INSERT][RAS_DB_MAX_COLS];
	/* Rows gathered when their chunk goes back, copied out of it: two buffers, in turn. */
	struct {
		uint8_t *buf;
		size_t cap;
	} carry[2];
	unsigned carry_now;
};

struct job_head {
	uint32_t len;                /* of the whole job, a multiple of 8 */
	uint16_t kind;
	uint16_t idx;                /* JOB_ROW: the event type */
	uint16_t ncols, ndec;        /* values that follow (JOB_ROW: the row's, then the decoding's) */
	uint32_t arg_len;            /* JOB_CALLV: the bytes of its argument, before its ndec values */
	int64_t id;                  /* JOB_ROW: the row's reserved id; JOB_COMMIT: the ticket */
	uint64_t sig;                /* JOB_ROW: the decoding's signature */
	ras_db_job_fn fn;            /* JOB_CALL */
	ras_db_vals_job_fn vfn;      /* JOB_CALLV */
	sqlite3_stmt *st;            /* JOB_STMT */
};

enum { JOB_ROW = 1, JOB_CALL, JOB_CALLV, JOB_STMT, JOB_BEGIN, JOB_COMMIT };

/* ---- a table's rows gathered for one INSERT (db_writer_rows.c) ---- */
/* A job's value, as put_value packed it; returns what follows it. */
const uint8_t *ras_db_wb_get_value(const uint8_t *p, struct ras_db_col_val *v);
/* Stores the rows gathered for table idx, in one INSERT when there are enough. */
int ras_db_wb_store_gathered(struct ras_db_wb *wb, unsigned idx);
/* After a failure the rows gathered are dropped with the rest of the transaction. */
void ras_db_wb_drop_gathered(struct ras_db_wb *wb);
int ras_db_wb_store_all_gathered(struct ras_db_wb *wb);
/* A chunk done with while rows of it are gathered and more chunks wait: they are copied out. */
int ras_db_wb_carry_gathered(struct ras_db_wb *wb);
/* A row job: gathered with its table's, stored once RAS_DB_ROWS_PER_INSERT are. */
int ras_db_wb_gather_row(struct ras_db_wb *wb, const struct job_head *h, const uint8_t *job);

#endif
