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
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include "db_writer_internal.h"
#include "lib/nice.h"
#include "lib/timeline.h"

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

static int run_stmt(const struct job_head *h, const uint8_t *p)
{
	struct ras_db_col_val v;
	int r;

	for (unsigned i = 0; i < h->ncols; i++) {
		p = ras_db_wb_get_value(p, &v);
		ras_db_bind_value(h->st, (int)i + 1, &v);
	}
	r = sqlite3_step(h->st);
	sqlite3_reset(h->st);
	return r == SQLITE_DONE || r == SQLITE_ROW ? SQLITE_OK : r;
}

static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t pragma_int(sqlite3 *h, sqlite3_stmt **st, const char *sql)
{
	int64_t v = -1;

	if (!*st && sqlite3_prepare_v3(h, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(*st) == SQLITE_ROW)
		v = sqlite3_column_int64(*st, 0);
	sqlite3_reset(*st);
	return v;
}

/* The pages in use, for the size limit (limit_due, db_txn.c): on the thread that commits. */
static void note_used(struct ras_db_wb *wb)
{
	struct ras_db *db = wb->db;
	int64_t pages = pragma_int(db->h, &wb->page_count, "PRAGMA page_count");
	int64_t free_pages = pragma_int(db->h, &wb->free_count, "PRAGMA freelist_count");

	__atomic_store_n(&wb->used_bytes, pages < 0 || free_pages < 0 ? -1 :
			 (pages - free_pages) * (int64_t)db->page_bytes, __ATOMIC_RELAXED);
}

void ras_db_note_committed(struct ras_db *db)
{
	if (db->wb && ras_db_sync(db) == 0)
		note_used(db->wb);
}

/*
 * The event loop sleeps on the eventfd while it waits for a commit
 * (ras_db_commit_watch): told once, and only then, so that a commit nobody
 * waits for costs no system call. Paired with the watch's store and load
 * (both sequentially consistent): either it sees the commit published, or
 * this sees it watching.
 */
static void wake_watcher(struct ras_db_wb *wb)
{
	static const uint64_t one = 1;

	if (wb->wake_fd < 0 || !__atomic_load_n(&wb->watched, __ATOMIC_SEQ_CST) ||
	    !__atomic_exchange_n(&wb->watched, false, __ATOMIC_SEQ_CST))
		return;
	/* Only EAGAIN (the counter full) can fail: it is readable then anyway. */
	if (write(wb->wake_fd, &one, sizeof(one)) < 0)
		return;
}

/* A commit handed over: once durable, its ticket, time and the pages in use are published. */
static int run_commit(struct ras_db_wb *wb, uint64_t ticket)
{
	struct ras_db *db = wb->db;
	int r;

	ras_tl_begin(RAS_TL_WRITER_COMMIT);
	r = sqlite3_step(db->stmt[STMT_COMMIT]);
	sqlite3_reset(db->stmt[STMT_COMMIT]);
	ras_tl_end(RAS_TL_WRITER_COMMIT);
	if (r != SQLITE_DONE)
		return r;
	note_used(wb);
	__atomic_store_n(&wb->committed_ns, realtime_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&wb->committed, ticket, __ATOMIC_SEQ_CST);
	wake_watcher(wb);
	return SQLITE_OK;
}

static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/*
 * A call with values (a record storm folding decides on): its table's rows
 * gathered are stored first, since it may name a decoding one of them brings.
 */
static int run_call_vals(struct ras_db_wb *wb, const struct job_head *h, const uint8_t *p)
{
	const uint8_t *v = p + round8(h->arg_len);
	int r = h->idx < RAS_MAX_EVENT_TYPES && h->ndec <= RAS_DB_MAX_COLS ?
		ras_db_wb_store_gathered(wb, h->idx) : SQLITE_MISUSE;

	if (r != SQLITE_OK)
		return r;
	for (unsigned i = 0; i < h->ndec; i++)
		v = ras_db_wb_get_value(v, &wb->dec[0][i]);
	return h->vfn(wb->db, p, wb->dec[0], h->ndec);
}

/* Runs a chunk's jobs; the SQLite code of the first that fails, or 0. */
static int run_chunk(struct ras_db_wb *wb, const struct wb_chunk *c)
{
	for (size_t off = 0; off < c->len;) {
		const uint8_t *p = c->buf + off + sizeof(struct job_head);
		struct job_head h;
		int r;

		memcpy(&h, c->buf + off, sizeof(h));
		switch (h.kind) {
		case JOB_ROW:
			r = ras_db_wb_gather_row(wb, &h, c->buf + off);
			break;
		case JOB_STMT:
			r = run_stmt(&h, p);
			break;
		case JOB_BEGIN:
			r = ras_db_wb_store_all_gathered(wb);
			if (r == SQLITE_OK)
				r = sqlite3_step(wb->db->stmt[STMT_BEGIN]);
			sqlite3_reset(wb->db->stmt[STMT_BEGIN]);
			r = r == SQLITE_DONE ? SQLITE_OK : r;
			break;
		case JOB_COMMIT:
			r = ras_db_wb_store_all_gathered(wb);
			if (r == SQLITE_OK)
				r = run_commit(wb, (uint64_t)h.id);
			break;
		case JOB_CALLV:
			r = run_call_vals(wb, &h, p);
			break;
		default:
			/* A call may read any row handed over before it (folding's flush does). */
			r = ras_db_wb_store_all_gathered(wb);
			if (r == SQLITE_OK)
				r = h.fn(wb->db, p);
		}
		if (r != SQLITE_OK) {
			ras_db_wb_drop_gathered(wb);
			return r;
		}
		off += h.len;
	}
	return SQLITE_OK;
}

/* After a chunk: its gathered rows carried on while more chunks wait, else stored now. */
static int chunk_done(struct ras_db_wb *wb, bool more)
{
	int r = more ? ras_db_wb_carry_gathered(wb) : ras_db_wb_store_all_gathered(wb);

	if (r != SQLITE_OK)
		ras_db_wb_drop_gathered(wb);
	return r;
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

	/* Below the event loop that reads the kernel's buffers (lib/nice.h); a refusal changes nothing else. */
	ras_nice_lower(RAS_NICE_BELOW_READER);
	pthread_mutex_lock(&wb->lock);
	for (;;) {
		struct wb_chunk *c;
		int failed, r = 0;

		/* Read without the lock by job_done: atomic. */
		if (wb->finished == wb->submitted && !wb->stop) {
			ras_tl_begin(RAS_TL_WRITER_IDLE);
			while (wb->finished == wb->submitted && !wb->stop) {
				__atomic_store_n(&wb->writer_waits, true, __ATOMIC_RELAXED);
				pthread_cond_wait(&wb->work, &wb->lock);
			}
			ras_tl_end(RAS_TL_WRITER_IDLE);
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
			r = run_chunk(wb, c);
		if (!failed && r == SQLITE_OK)
			r = chunk_done(wb, __atomic_load_n(&wb->submitted, __ATOMIC_ACQUIRE) >
					   wb->finished + 1);
		pthread_mutex_lock(&wb->lock);
		if (r)
			note_failure(wb, r);
		c->len = 0;
		__atomic_store_n(&wb->running, false, __ATOMIC_RELEASE);
		__atomic_store_n(&wb->finished, wb->finished + 1, __ATOMIC_RELEASE);
		if (wb->caller_waits)
			pthread_cond_signal(&wb->done);
		/* Failed and idle: ras_db_commit_poll now says so (under the lock it reads this by). */
		if (wb->failed && wb->finished == wb->submitted)
			wake_watcher(wb);
	}
	pthread_mutex_unlock(&wb->lock);
	return NULL;
}

/* Hands the chunk being filled to the writer thread (the caller's thread). */
static void submit(struct ras_db_wb *wb)
{
	pthread_mutex_lock(&wb->lock);
	/* Read without the lock by the writer thread (is there more?): atomic. */
	__atomic_store_n(&wb->submitted, wb->submitted + 1, __ATOMIC_RELEASE);
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
	if (!filling(wb)->len && __atomic_load_n(&wb->finished, __ATOMIC_ACQUIRE) == wb->submitted &&
	    !db->commit_behind) {
		db->fold_out = false;
		return db->wb_failed ? ras_db_errno_of(db->wb_failed) : 0;
	}
	if (filling(wb)->len)
		submit(wb);
	db->sync_waits++;
	ras_tl_begin(RAS_TL_WAIT_SYNC);
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
	ras_tl_end(RAS_TL_WAIT_SYNC);
	db->wb_failed = failed;
	/* Idle: a commit handed over has been made, or has failed; folding is the caller's again. */
	db->commit_behind = false;
	db->fold_out = false;
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
		ras_tl_begin(RAS_TL_WAIT_ROOM);
		pthread_mutex_lock(&wb->lock);
		while (wb->submitted - wb->finished >= WB_CHUNKS) {
			wb->caller_waits = true;
			pthread_cond_wait(&wb->done, &wb->lock);
		}
		wb->caller_waits = false;
		pthread_mutex_unlock(&wb->lock);
		ras_tl_end(RAS_TL_WAIT_ROOM);
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

/*
 * Inlined: a row's two dozen values are packed at every record with folding
 * off, and a call each cost more than the packing (the registers saved and
 * restored around it).
 */
static inline __attribute__((always_inline)) uint8_t *put_value(uint8_t *p,
								 const struct ras_db_col_val *v)
{
	int type = v->type;
	uint32_t n;

	*p++ = (uint8_t)type;
	if (type == SQLITE_INTEGER) {
		memcpy(p, &v->i, sizeof(v->i));
		return p + sizeof(v->i);
	}
	if (type != SQLITE_TEXT && type != SQLITE_BLOB)
		return p;
	n = (uint32_t)v->len;
	memcpy(p, &n, sizeof(n));
	if (n)
		memcpy(p + sizeof(n), v->p, n);
	return p + sizeof(n) + n;
}

/* The values v[0..n) packed at p, none past lim; NULL when they do not fit. */
static uint8_t *put_values_within(uint8_t *p, const uint8_t *lim, const struct ras_db_col_val *v,
				  unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		/* An integer's tag and value, or a text's tag, length and bytes, at most. */
		size_t most = v[i].type == SQLITE_TEXT || v[i].type == SQLITE_BLOB ?
			      1 + sizeof(uint32_t) + v[i].len : 1 + sizeof(int64_t);

		if (most > (size_t)(lim - p))
			return NULL;
		p = put_value(p, &v[i]);
	}
	return p;
}

/*
 * Packed in one pass where the job fits the chunk being filled (nearly
 * always): the same bytes and the same chunk as sizing it first. 0, or 1
 * when it does not fit (nothing handed over; put_job sizes it and moves on).
 */
static int put_job_in_place(struct ras_db *db, struct job_head *h, const struct ras_db_col_val *a,
			    unsigned na, const struct ras_db_col_val *b, unsigned nb)
{
	struct ras_db_wb *wb = db->wb;
	uint8_t *start = job_room(wb, 0), *p;
	const uint8_t *lim;
	size_t len;

	if (!start)
		return -ENOMEM;
	lim = filling(wb)->buf + WB_CHUNK_BYTES;
	if ((size_t)(lim - start) < sizeof(*h) ||
	    !(p = put_values_within(start + sizeof(*h), lim, a, na)) ||
	    !(p = put_values_within(p, lim, b, nb)))
		return 1;
	len = round8((size_t)(p - start));
	if (len > (size_t)(lim - start))
		return 1;
	h->len = (uint32_t)len;
	memcpy(start, h, sizeof(*h));
	job_done(wb, len);
	return 0;
}

/* Hands over a job of header h (its len set here) and the values a[0..na), then b[0..nb). */
static int put_job(struct ras_db *db, struct job_head *h, const struct ras_db_col_val *a, unsigned na,
		   const struct ras_db_col_val *b, unsigned nb)
{
	size_t len = sizeof(*h);
	uint8_t *p;
	int r = put_job_in_place(db, h, a, na, b, nb);

	if (r <= 0)
		return r;

	for (unsigned i = 0; i < na; i++)
		len += value_size(&a[i]);
	for (unsigned i = 0; i < nb; i++)
		len += value_size(&b[i]);
	len = round8(len);
	if (len > WB_CHUNK_BYTES)
		return -E2BIG;
	if (!(p = job_room(db->wb, len)))
		return -ENOMEM;
	h->len = (uint32_t)len;
	memcpy(p, h, sizeof(*h));
	p += sizeof(*h);
	for (unsigned i = 0; i < na; i++)
		p = put_value(p, &a[i]);
	for (unsigned i = 0; i < nb; i++)
		p = put_value(p, &b[i]);
	job_done(db->wb, len);
	return 0;
}

int ras_db_defer_row(struct ras_db *db, unsigned idx, int64_t id, uint64_t sig,
		     const struct ras_db_col_val *row, unsigned ncols,
		     const struct ras_db_col_val *dec, unsigned ndec)
{
	struct job_head h = { .kind = JOB_ROW, .idx = (uint16_t)idx, .ncols = (uint16_t)ncols,
			      .ndec = (uint16_t)ndec, .id = id, .sig = sig };

	return put_job(db, &h, row, ncols, dec, ndec);
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
	/* A call may take no argument (NULL). */
	if (arg_len)
		memcpy(p + sizeof(h), arg, arg_len);
	job_done(db->wb, len);
	return 0;
}

/*
 * A JOB_CALLV job's argument written in place: room for it in the chunk
 * being filled, after its head, so that it is packed there and never copied
 * (a record storm folding decides on: some 300 bytes at every record).
 */
uint8_t *ras_db_defer_vals_room(struct ras_db *db, bool fresh, size_t *room)
{
	struct ras_db_wb *wb = db->wb;
	struct wb_chunk *c = filling(wb);
	uint8_t *start, *lim;

	/* job_room's way without its call, when the chunk being filled is ours (not still out) and has room. */
	if (!fresh && wb->submitted - __atomic_load_n(&wb->finished, __ATOMIC_ACQUIRE) < WB_CHUNKS && c->buf &&
	    c->len + sizeof(struct job_head) < WB_CHUNK_BYTES) {
		*room = WB_CHUNK_BYTES - c->len - sizeof(struct job_head);
		return c->buf + c->len + sizeof(struct job_head);
	}
	if (fresh && c->len)
		submit(wb);
	if (!(start = job_room(wb, 0)))
		return NULL;
	lim = filling(wb)->buf + WB_CHUNK_BYTES;
	*room = (size_t)(lim - start) > sizeof(struct job_head) ? (size_t)(lim - start) - sizeof(struct job_head) : 0;
	return start + sizeof(struct job_head);
}

void ras_db_defer_vals_put(struct ras_db *db, unsigned idx, ras_db_vals_job_fn fn, size_t arg_len)
{
	struct wb_chunk *c = filling(db->wb);
	/* Written where it goes: a chunk is malloc's, its jobs multiples of 8, a head's alignment. */
	struct job_head *h = (struct job_head *)(void *)(c->buf + c->len);
	uint32_t len = (uint32_t)(sizeof(*h) + round8(arg_len));

	*h = (struct job_head){ .len = len, .kind = JOB_CALLV, .idx = (uint16_t)idx, .arg_len = (uint32_t)arg_len,
				.vfn = fn };
	job_done(db->wb, len);
}

int ras_db_run(struct ras_db *db, sqlite3_stmt *st, const struct ras_db_col_val *v, unsigned n)
{
	struct job_head h = { .kind = JOB_STMT, .ncols = (uint16_t)n, .st = st };
	int r;

	if (ras_db_deferring(db))
		return put_job(db, &h, v, n, NULL, 0);
	if (ras_db_sync(db) < 0)
		return -EIO;
	for (unsigned i = 0; i < n; i++)
		ras_db_bind_value(st, (int)i + 1, &v[i]);
	r = sqlite3_step(st);
	sqlite3_reset(st);
	return r == SQLITE_DONE || r == SQLITE_ROW ? 0 : -EIO;
}

static int defer_plain(struct ras_db *db, uint16_t kind, int64_t id)
{
	struct job_head h = { .kind = kind, .len = sizeof(h), .id = id };
	uint8_t *p = job_room(db->wb, sizeof(h));

	if (!p)
		return -ENOMEM;
	memcpy(p, &h, sizeof(h));
	job_done(db->wb, sizeof(h));
	return 0;
}

int ras_db_defer_begin(struct ras_db *db)
{
	return defer_plain(db, JOB_BEGIN, 0);
}

int ras_db_defer_commit(struct ras_db *db, uint64_t ticket)
{
	int r = defer_plain(db, JOB_COMMIT, (int64_t)ticket);

	/* Handed over now: nothing may wait behind a commit for the next chunk to fill. */
	if (r == 0)
		submit(db->wb);
	return r;
}

int ras_db_commit_poll(struct ras_db *db, uint64_t ticket)
{
	struct ras_db_wb *wb = db->wb;
	bool idle;
	int failed;

	if (!wb || !ticket || __atomic_load_n(&wb->committed, __ATOMIC_ACQUIRE) >= ticket)
		return 1;
	pthread_mutex_lock(&wb->lock);
	idle = wb->finished == wb->submitted;
	failed = wb->failed;
	pthread_mutex_unlock(&wb->lock);
	/* Committed just now, before the thread went idle: the ticket says so. */
	if (__atomic_load_n(&wb->committed, __ATOMIC_ACQUIRE) >= ticket)
		return 1;
	if (!idle)
		return 0;
	return ras_db_errno_of(failed ? failed : SQLITE_ERROR);
}

int ras_db_commit_watch(struct ras_db *db, uint64_t ticket)
{
	struct ras_db_wb *wb = db->wb;
	int r;

	if (!wb || !ticket || wb->wake_fd < 0)
		return ras_db_commit_poll(db, ticket);
	__atomic_store_n(&wb->watched, true, __ATOMIC_SEQ_CST);
	r = __atomic_load_n(&wb->committed, __ATOMIC_SEQ_CST) >= ticket ? 1 : ras_db_commit_poll(db, ticket);
	/* Known now: no write needed (one already made leaves the fd readable once, harmlessly). */
	if (r != 0)
		__atomic_store_n(&wb->watched, false, __ATOMIC_SEQ_CST);
	return r;
}

int ras_db_commit_fd(const struct ras_db *db)
{
	return db->wb ? db->wb->wake_fd : -1;
}

void ras_db_commit_fd_drain(struct ras_db *db)
{
	uint64_t n;

	if (db->wb && db->wb->wake_fd >= 0 && read(db->wb->wake_fd, &n, sizeof(n)) < 0)
		return;   /* EAGAIN: already empty */
}

/*
 * Waits for the commit of ticket alone, not for the jobs handed over after it
 * (the next batch's rows): the event loop goes on reading while the thread
 * stores them. Waiting for them all left the thread idle at every batch while
 * the event loop caught up (make bench: 0.6 s of 4 s).
 */
int ras_db_commit_wait(struct ras_db *db, uint64_t ticket)
{
	struct ras_db_wb *wb = db->wb;
	int r, polled;

	if (wb && ticket && !on_writer_thread(wb) &&
	    __atomic_load_n(&wb->committed, __ATOMIC_ACQUIRE) < ticket) {
		/* The COMMIT may still be in the chunk being filled. */
		if (filling(wb)->len)
			submit(wb);
		ras_tl_begin(RAS_TL_WAIT_COMMIT);
		pthread_mutex_lock(&wb->lock);
		while (__atomic_load_n(&wb->committed, __ATOMIC_ACQUIRE) < ticket &&
		       wb->finished != wb->submitted) {
			wb->caller_waits = true;
			pthread_cond_wait(&wb->done, &wb->lock);
		}
		wb->caller_waits = false;
		pthread_mutex_unlock(&wb->lock);
		ras_tl_end(RAS_TL_WAIT_COMMIT);
	}
	polled = ras_db_commit_poll(db, ticket);
	if (polled == 1)
		return 0;
	/* Not made: the thread is idle, and its failure is the transaction's. */
	r = ras_db_sync(db);
	polled = ras_db_commit_poll(db, ticket);
	return polled == 1 ? 0 : r < 0 ? r : polled;
}

int64_t ras_db_committed_ns(const struct ras_db *db)
{
	return db->wb ? __atomic_load_n(&db->wb->committed_ns, __ATOMIC_RELAXED) : 0;
}

int64_t ras_db_used_bytes(const struct ras_db *db)
{
	return db->wb ? __atomic_load_n(&db->wb->used_bytes, __ATOMIC_RELAXED) : -1;
}

/* Never on the writer thread: a stage's flush it runs (db_txn.c) runs its statements there and then. */
bool ras_db_deferring(const struct ras_db *db)
{
	return db->wb && !on_writer_thread(db->wb) && db->in_txn && !db->wb_failed && db->wb_engaged;
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
	wb->used_bytes = -1;
	/* Without it the event loop looks for its commits on a timer, as before (rasd/pipeline_commit.c). */
	wb->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
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
		if (wb->wake_fd >= 0)
			close(wb->wake_fd);
		free(wb);
		return -r;
	}
	/* Named for top -H and make bench's per-thread CPU figures. */
	pthread_setname_np(wb->thread, "rasd-writer");
	db->wb = wb;
	sqlite3_trace_v2(db->h, SQLITE_TRACE_STMT, trace_stmt, wb);
	return 0;
}

void ras_db_write_behind_stop(struct ras_db *db)
{
	struct ras_db_wb *wb = db->wb;

	if (!wb)
		return;
	ras_tl_begin(RAS_TL_WRITER_JOIN);
	ras_db_sync(db);
	sqlite3_trace_v2(db->h, 0, NULL, NULL);
	pthread_mutex_lock(&wb->lock);
	wb->stop = true;
	pthread_cond_signal(&wb->work);
	pthread_mutex_unlock(&wb->lock);
	pthread_join(wb->thread, NULL);
	ras_tl_end(RAS_TL_WRITER_JOIN);
	for (int i = 0; i < WB_CHUNKS; i++)
		free(wb->chunk[i].buf);
	free(wb->carry[0].buf);
	free(wb->carry[1].buf);
	sqlite3_finalize(wb->page_count);
	sqlite3_finalize(wb->free_count);
	pthread_cond_destroy(&wb->done);
	pthread_cond_destroy(&wb->work);
	pthread_mutex_destroy(&wb->lock);
	if (wb->wake_fd >= 0)
		close(wb->wake_fd);
	free(wb);
	db->wb = NULL;
	db->wb_failed = 0;
}

/*
 * The chunks' buffers, when nothing is out: a storm's (up to WB_CHUNKS x
 * WB_CHUNK_BYTES, 32 MiB) are not kept while idle.
 */
void ras_db_write_behind_trim(struct ras_db *db)
{
	struct ras_db_wb *wb = db->wb;

	if (!wb || ras_db_sync(db) < 0)
		return;
	for (int i = 0; i < WB_CHUNKS; i++) {
		free(wb->chunk[i].buf);
		wb->chunk[i].buf = NULL;
	}
	for (int i = 0; i < 2; i++) {
		free(wb->carry[i].buf);
		wb->carry[i].buf = NULL;
		wb->carry[i].cap = 0;
	}
}
