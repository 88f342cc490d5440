/* SPDX-License-Identifier: MIT */
/*
 * Write-behind: in rasd, the statements that store a storm's records run on
 * a thread of their own, so that reading, decoding and counting the next
 * records (the event loop's thread) and SQLite's work on the last ones use
 * both cores. It is still one writer: one connection, one transaction, and
 * never two threads in it at once.
 *
 * The event loop's thread packs each deferred write into a job (the values
 * its statement binds, copied) and appends it to a chunk; full chunks, and
 * at a sync the partial one, are handed to the writer thread in order, which
 * binds and steps them. Everything else that touches the connection first
 * waits until the writer thread has run every job handed to it and is idle
 * (ras_db_sync): a read sees every write before it, a commit commits them.
 *
 * A job that fails (a full disk, an I/O error, a lock held too long) is the
 * transaction's failure: the writer thread runs no further job (SQLite may
 * have rolled the transaction back, and what followed would commit row by
 * row), and every sync fails the same way until ras_db_rollback, so the
 * caller meets it where it met a failed statement before: its records are
 * held and given again.
 *
 * A tripwire: every statement run on the connection checks that it runs on
 * the writer thread, or with no job handed over and none waiting (a trace
 * callback). A path that forgot to sync aborts at once instead of racing.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"

#define WB_CHUNK_BYTES (256 * 1024)
#define WB_CHUNKS 8
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
};

struct job_head {
	uint32_t len;                /* of the whole job, a multiple of 8 */
	uint16_t kind;
	uint16_t idx;                /* JOB_ROW: the event type */
	uint16_t ncols, ndec;        /* JOB_ROW: values that follow: the row's, then the decoding's */
	int64_t id;                  /* JOB_ROW: the row's reserved id */
	uint64_t sig;                /* JOB_ROW: the decoding's signature */
	ras_db_job_fn fn;            /* JOB_CALL */
};

enum { JOB_ROW = 1, JOB_CALL = 2 };

static bool on_writer_thread(const struct ras_db_wb *wb)
{
	return pthread_equal(pthread_self(), wb->thread);
}

/* The tripwire (SQLITE_TRACE_STMT): a statement on the event loop's thread while jobs are out. */
static int trace_stmt(unsigned type, void *ctx, void *p, void *x)
{
	struct ras_db_wb *wb = ctx;

	(void)type, (void)p, (void)x;
	if (on_writer_thread(wb))
		return 0;
	if (__atomic_load_n(&wb->running, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&wb->finished, __ATOMIC_ACQUIRE) != wb->submitted) {
		fprintf(stderr, "ras-fdr: a statement ran beside the writer thread without ras_db_sync: %s\n",
			sqlite3_sql(p));
		abort();
	}
	return 0;
}

static const uint8_t *get_value(const uint8_t *p, struct ras_db_col_val *v)
{
	uint32_t n;

	v->type = *p++;
	if (v->type == SQLITE_INTEGER) {
		memcpy(&v->i, p, sizeof(v->i));
		return p + sizeof(v->i);
	}
	if (v->type != SQLITE_TEXT && v->type != SQLITE_BLOB)
		return p;
	memcpy(&n, p, sizeof(n));
	v->p = (const char *)p + sizeof(n);
	v->len = n;
	return p + sizeof(n) + n;
}

static int run_row(struct ras_db *db, const struct job_head *h, const uint8_t *p)
{
	struct ras_db_col_val row[RAS_DB_MAX_COLS], dec[RAS_DB_MAX_COLS];

	if (h->ncols > RAS_DB_MAX_COLS || h->ndec > RAS_DB_MAX_COLS)
		return SQLITE_MISUSE;
	for (unsigned i = 0; i < h->ncols; i++)
		p = get_value(p, &row[i]);
	for (unsigned i = 0; i < h->ndec; i++)
		p = get_value(p, &dec[i]);
	return ras_db_row_store(db, h->idx, h->id, h->sig, row, h->ndec ? dec : NULL);
}

/* Runs a chunk's jobs; the SQLite code of the first that fails, or 0. */
static int run_chunk(struct ras_db *db, const struct wb_chunk *c)
{
	for (size_t off = 0; off < c->len;) {
		struct job_head h;
		int r;

		memcpy(&h, c->buf + off, sizeof(h));
		if (h.kind == JOB_ROW)
			r = run_row(db, &h, c->buf + off + sizeof(h));
		else
			r = h.fn(db, c->buf + off + sizeof(h));
		if (r != SQLITE_OK)
			return r;
		off += h.len;
	}
	return 0;
}

static void note_failure(struct ras_db_wb *wb, int code)
{
	if (wb->failed)
		return;
	wb->failed = code;
	snprintf(wb->why, sizeof(wb->why), "%s", sqlite3_errcode(wb->db->h) != SQLITE_OK ?
		 sqlite3_errmsg(wb->db->h) : sqlite3_errstr(code));
}

static void *writer_thread(void *arg)
{
	struct ras_db_wb *wb = arg;

	pthread_mutex_lock(&wb->lock);
	for (;;) {
		struct wb_chunk *c;
		int failed, r = 0;

		/* Read without the lock by job_done: atomic. */
		while (wb->finished == wb->submitted && !wb->stop) {
			__atomic_store_n(&wb->writer_waits, true, __ATOMIC_RELAXED);
			pthread_cond_wait(&wb->work, &wb->lock);
		}
		__atomic_store_n(&wb->writer_waits, false, __ATOMIC_RELAXED);
		if (wb->finished == wb->submitted)
			break;
		c = &wb->chunk[wb->finished % WB_CHUNKS];
		failed = wb->failed;
		__atomic_store_n(&wb->running, true, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&wb->lock);
		/* After a failure the jobs are dropped: the transaction is lost, they are given again. */
		if (!failed)
			r = run_chunk(wb->db, c);
		pthread_mutex_lock(&wb->lock);
		if (r)
			note_failure(wb, r);
		c->len = 0;
		__atomic_store_n(&wb->running, false, __ATOMIC_RELEASE);
		__atomic_store_n(&wb->finished, wb->finished + 1, __ATOMIC_RELEASE);
		if (wb->caller_waits)
			pthread_cond_signal(&wb->done);
	}
	pthread_mutex_unlock(&wb->lock);
	return NULL;
}

/* Hands the chunk being filled to the writer thread (the caller's thread). */
static void submit(struct ras_db_wb *wb)
{
	pthread_mutex_lock(&wb->lock);
	wb->submitted++;
	if (wb->writer_waits)
		pthread_cond_signal(&wb->work);
	pthread_mutex_unlock(&wb->lock);
}

static struct wb_chunk *filling(struct ras_db_wb *wb)
{
	return &wb->chunk[wb->submitted % WB_CHUNKS];
}

int ras_db_sync(struct ras_db *db)
{
	struct ras_db_wb *wb = db->wb;
	int failed;

	if (!wb || on_writer_thread(wb))
		return 0;
	/* Nothing handed over or waiting to be: the last failure seen stands. */
	if (!filling(wb)->len && __atomic_load_n(&wb->finished, __ATOMIC_ACQUIRE) == wb->submitted)
		return db->wb_failed ? ras_db_errno_of(db->wb_failed) : 0;
	if (filling(wb)->len)
		submit(wb);
	pthread_mutex_lock(&wb->lock);
	while (wb->finished != wb->submitted) {
		wb->caller_waits = true;
		pthread_cond_wait(&wb->done, &wb->lock);
	}
	wb->caller_waits = false;
	failed = wb->failed;
	if (failed && !db->err[0])
		snprintf(db->err, sizeof(db->err), "%s", wb->why);
	pthread_mutex_unlock(&wb->lock);
	db->wb_failed = failed;
	return failed ? ras_db_errno_of(failed) : 0;
}

void ras_db_sync_clear(struct ras_db *db)
{
	struct ras_db_wb *wb = db->wb;

	if (!wb)
		return;
	ras_db_sync(db);
	pthread_mutex_lock(&wb->lock);
	wb->failed = 0;
	wb->why[0] = 0;
	pthread_mutex_unlock(&wb->lock);
	db->wb_failed = 0;
}

/*
 * Room for a job of len bytes in the chunk being filled: when it is full the
 * chunk is handed over and the next taken. The next one may still be out
 * (every chunk handed over and not yet run): then this waits.
 */
static uint8_t *job_room(struct ras_db_wb *wb, size_t len)
{
	struct wb_chunk *c;

	if (filling(wb)->len + len > WB_CHUNK_BYTES)
		submit(wb);
	if (wb->submitted - __atomic_load_n(&wb->finished, __ATOMIC_ACQUIRE) >= WB_CHUNKS) {
		pthread_mutex_lock(&wb->lock);
		while (wb->submitted - wb->finished >= WB_CHUNKS) {
			wb->caller_waits = true;
			pthread_cond_wait(&wb->done, &wb->lock);
		}
		wb->caller_waits = false;
		pthread_mutex_unlock(&wb->lock);
	}
	c = filling(wb);
	if (!c->buf && !(c->buf = malloc(WB_CHUNK_BYTES)))
		return NULL;
	return c->buf + c->len;
}

/* The job is written: kept, and handed over early when the writer thread has nothing to do. */
static void job_done(struct ras_db_wb *wb, size_t len)
{
	struct wb_chunk *c = filling(wb);

	c->len += len;
	if (c->len >= WB_EAGER_BYTES && __atomic_load_n(&wb->writer_waits, __ATOMIC_RELAXED))
		submit(wb);
}

static size_t value_size(const struct ras_db_col_val *v)
{
	if (v->type == SQLITE_INTEGER)
		return 1 + sizeof(int64_t);
	if (v->type == SQLITE_TEXT || v->type == SQLITE_BLOB)
		return 1 + sizeof(uint32_t) + v->len;
	return 1;
}

static uint8_t *put_value(uint8_t *p, const struct ras_db_col_val *v)
{
	uint32_t n = (uint32_t)v->len;

	*p++ = (uint8_t)v->type;
	if (v->type == SQLITE_INTEGER) {
		memcpy(p, &v->i, sizeof(v->i));
		return p + sizeof(v->i);
	}
	if (v->type != SQLITE_TEXT && v->type != SQLITE_BLOB)
		return p;
	memcpy(p, &n, sizeof(n));
	if (n)
		memcpy(p + sizeof(n), v->p, n);
	return p + sizeof(n) + n;
}

static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int ras_db_defer_row(struct ras_db *db, unsigned idx, int64_t id, uint64_t sig,
		     const struct ras_db_col_val *row, unsigned ncols,
		     const struct ras_db_col_val *dec, unsigned ndec)
{
	struct job_head h = { .kind = JOB_ROW, .idx = (uint16_t)idx, .ncols = (uint16_t)ncols,
			      .ndec = (uint16_t)ndec, .id = id, .sig = sig };
	size_t len = sizeof(h);
	uint8_t *p;

	for (unsigned i = 0; i < ncols; i++)
		len += value_size(&row[i]);
	for (unsigned i = 0; i < ndec; i++)
		len += value_size(&dec[i]);
	len = round8(len);
	if (len > WB_CHUNK_BYTES || len > UINT32_MAX)
		return -E2BIG;
	if (!(p = job_room(db->wb, len)))
		return -ENOMEM;
	h.len = (uint32_t)len;
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	for (unsigned i = 0; i < ncols; i++)
		p = put_value(p, &row[i]);
	for (unsigned i = 0; i < ndec; i++)
		p = put_value(p, &dec[i]);
	job_done(db->wb, len);
	return 0;
}

int ras_db_defer_call(struct ras_db *db, ras_db_job_fn fn, const void *arg, size_t arg_len)
{
	struct job_head h = { .kind = JOB_CALL, .fn = fn };
	size_t len = round8(sizeof(h) + arg_len);
	uint8_t *p;

	if (len > WB_CHUNK_BYTES)
		return -E2BIG;
	if (!(p = job_room(db->wb, len)))
		return -ENOMEM;
	h.len = (uint32_t)len;
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), arg, arg_len);
	job_done(db->wb, len);
	return 0;
}

bool ras_db_deferring(const struct ras_db *db)
{
	return db->wb && db->in_txn && !db->wb_failed && db->wb_engaged;
}

int ras_db_write_behind_start(struct ras_db *db)
{
	struct ras_db_wb *wb;
	sigset_t all, old;
	int r;

	if (db->wb || db->readonly)
		return 0;
	if (!(wb = calloc(1, sizeof(*wb))))
		return -ENOMEM;
	pthread_mutex_init(&wb->lock, NULL);
	pthread_cond_init(&wb->work, NULL);
	pthread_cond_init(&wb->done, NULL);
	wb->db = db;
	/* Signals stay with the thread that waits for them (rasd's signalfd). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&wb->thread, NULL, writer_thread, wb);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0) {
		pthread_cond_destroy(&wb->done);
		pthread_cond_destroy(&wb->work);
		pthread_mutex_destroy(&wb->lock);
		free(wb);
		return -r;
	}
	db->wb = wb;
	sqlite3_trace_v2(db->h, SQLITE_TRACE_STMT, trace_stmt, wb);
	return 0;
}

void ras_db_write_behind_stop(struct ras_db *db)
{
	struct ras_db_wb *wb = db->wb;

	if (!wb)
		return;
	ras_db_sync(db);
	sqlite3_trace_v2(db->h, 0, NULL, NULL);
	pthread_mutex_lock(&wb->lock);
	wb->stop = true;
	pthread_cond_signal(&wb->work);
	pthread_mutex_unlock(&wb->lock);
	pthread_join(wb->thread, NULL);
	for (int i = 0; i < WB_CHUNKS; i++)
		free(wb->chunk[i].buf);
	pthread_cond_destroy(&wb->done);
	pthread_cond_destroy(&wb->work);
	pthread_mutex_destroy(&wb->lock);
	free(wb);
	db->wb = NULL;
	db->wb_failed = 0;
}

/* The chunks' buffers, when nothing is out: a storm's 2 MiB are not kept while idle. */
void ras_db_write_behind_trim(struct ras_db *db)
{
	struct ras_db_wb *wb = db->wb;

	if (!wb || ras_db_sync(db) < 0)
		return;
	for (int i = 0; i < WB_CHUNKS; i++) {
		free(wb->chunk[i].buf);
		wb->chunk[i].buf = NULL;
	}
}
