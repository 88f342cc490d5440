/* SPDX-License-Identifier: MIT */
/* Subjects seen once that rasd's memory had no room for: see db_actions.h and db_once_spill.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_actions.h"
#include "db_once_spill.h"
#include "lib/spill_rows.h"

enum { SP_ADD, SP_TAKE, SP_DROP, SP_PRUNE, SP_EMPTY, SP_ROWS, SP_N };

/*
 * A table of the connection's own temporary database, so it costs no WAL
 * frame or fsync and is gone with the connection, as the memory would be.
 * Its cache is 16 MiB, not SQLite's 2 MB, filled only as a storm spills:
 * make bench's 184,000 spilled subjects (about 6 MB of rows) went to the
 * temporary file and back, 3-4 % of rasd's time; 5 MiB more at the peak.
 */
static const char spill_table_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS once_spill (k INTEGER PRIMARY KEY,"
	" kind INTEGER NOT NULL, wall_ns INTEGER NOT NULL, n INTEGER NOT NULL);"
	" PRAGMA temp.cache_size = -16384";

static const char *const sql[SP_N] = {
	[SP_ADD] = "INSERT OR REPLACE INTO temp.once_spill (k, kind, wall_ns, n) VALUES (?, ?, ?, ?)",
	[SP_TAKE] = "DELETE FROM temp.once_spill WHERE k = ? AND kind = ? RETURNING wall_ns, n",
	[SP_DROP] = "DELETE FROM temp.once_spill WHERE k = ? AND kind = ?",
	/* n errors leak out n leak times after their record: wall_ns + n * leak <= now. */
	[SP_PRUNE] = "DELETE FROM temp.once_spill WHERE kind = ?1 AND wall_ns <= ?2 - (n - 1) * ?3"
		     " RETURNING k",
	[SP_EMPTY] = "DELETE FROM temp.once_spill",
	[SP_ROWS] = "SELECT k, kind, wall_ns, n FROM temp.once_spill",
};

/*
 * The table's rows, also in memory (lib/spill_rows.h, 24 bytes each): a take
 * is answered from there, and its row's removal handed to the writer thread
 * as the add was, so the event loop never waits for the writer thread to
 * empty its queue (ras_db_sync) in a storm. It follows every add, take,
 * prune and empty; a rollback, which it cannot follow, marks it stale, and
 * it is read again from the table right after the rollback's sync (or at
 * its next use). Past SPILL_ROWS_MAX (48 MiB of slots) it cannot tell: each
 * take asks the table after a sync, until it is read again.
 */
#define SPILL_ROWS_MAX ((size_t)1 << 20)

struct ras_db_spill {
	struct ras_db *db;
	sqlite3_stmt *st[SP_N];
	struct ras_spill_rows *rows;
	bool stale;
	int err;                  /* a spill job the writer thread ran failed: -EIO, -ECANCELED (atomic) */
};

int ras_db_spill_open(struct ras_db *db, struct ras_db_spill **out)
{
	struct ras_db_spill *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->db = db;
	if (ras_spill_rows_new(&s->rows, SPILL_ROWS_MAX) < 0) {
		free(s);
		return -ENOMEM;
	}
	if (ras_db_exec(db, spill_table_sql) < 0) {
		ras_db_spill_close(s);
		return -EIO;
	}
	for (int i = 0; i < SP_N; i++) {
		if (sqlite3_prepare_v3(db->h, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
				       NULL) != SQLITE_OK) {
			ras_db_spill_close(s);
			return -EIO;
		}
	}
	*out = s;
	return 0;
}

void ras_db_spill_close(struct ras_db_spill *s)
{
	if (!s)
		return;
	for (int i = 0; i < SP_N; i++)
		sqlite3_finalize(s->st[i]);
	ras_spill_rows_free(s->rows);
	free(s);
}

static int finish(sqlite3_stmt *st, int r)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return r;
}

/* The copy read again from the table; the table unreadable, it cannot tell. */
static int rows_load(struct ras_db_spill *s)
{
	sqlite3_stmt *st = s->st[SP_ROWS];
	int r;

	if (ras_db_sync(s->db) < 0)
		return -EPIPE;
	ras_spill_rows_clear(s->rows);
	while ((r = sqlite3_step(st)) == SQLITE_ROW)
		ras_spill_rows_put(s->rows, (uint64_t)sqlite3_column_int64(st, 0),
				   sqlite3_column_int(st, 1), sqlite3_column_int64(st, 2),
				   (unsigned)sqlite3_column_int64(st, 3));
	finish(st, 0);
	if (r != SQLITE_DONE)
		ras_spill_rows_give_up(s->rows);
	s->stale = false;
	return 0;
}

static int rows_ready(struct ras_db_spill *s)
{
	return s->stale ? rows_load(s) : 0;
}

void ras_db_spill_discard(struct ras_db_spill *s)
{
	if (!s)
		return;
	s->stale = true;
	/* Now, while the writer thread is idle: later the load would wait for it. */
	rows_load(s);
}

/*
 * A spill statement failed (its temporary file full, say). Usually SQLite
 * undid that statement only: -EIO, the transaction goes on. It may have
 * rolled the whole transaction back: -ECANCELED, and what follows is kept in
 * a new transaction all the same, for the caller to roll back, never
 * committed row by row. Either way the copy is read again.
 */
static int spill_failed(struct ras_db_spill *s, sqlite3_stmt *st)
{
	finish(st, 0);
	s->stale = true;
	if (s->db->in_txn && sqlite3_get_autocommit(s->db->h)) {
		ras_db_exec(s->db, "BEGIN");
		return -ECANCELED;
	}
	return -EIO;
}

/*
 * Spill statement which, in the open transaction (begun if none), bound to
 * one subject (key hash ?1, kind ?2) unless kind < 0; NULL when none can be,
 * *err saying why: -EPIPE when a write handed to the writer thread failed
 * (the transaction is lost: the caller's batch comes again, the spill itself
 * is fine), -EIO when no transaction can be begun.
 */
static sqlite3_stmt *spill_stmt(struct ras_db_spill *s, int which, int kind, uint64_t key, int *err)
{
	sqlite3_stmt *st;

	*err = ras_db_sync(s->db) < 0 ? -EPIPE : ras_db_begin(s->db) < 0 ? -EIO : 0;
	if (*err)
		return NULL;
	st = s->st[which];
	if (kind >= 0) {
		sqlite3_bind_int64(st, 1, (int64_t)key);
		sqlite3_bind_int(st, 2, kind);
	}
	return st;
}

struct spill_job {
	struct ras_db_spill *s;
	uint64_t key;
	int64_t wall_ns;
	int kind;
	unsigned n;
	bool add;                 /* else the take's removal */
};

/*
 * A spill add or a take's removal on the writer thread. Its failure fails
 * the transaction (the writer thread runs nothing more of it): the table
 * and the copy differ, so the batch is rolled back and given again, and the
 * event loop, told by ras_db_once_spill_trouble, gives the spill up before.
 */
static int run_spill_job(struct ras_db *db, const void *arg)
{
	struct spill_job j;
	sqlite3_stmt *st;
	int r;

	memcpy(&j, arg, sizeof(j));
	st = j.s->st[j.add ? SP_ADD : SP_DROP];
	sqlite3_bind_int64(st, 1, (int64_t)j.key);
	sqlite3_bind_int(st, 2, j.kind);
	if (j.add) {
		sqlite3_bind_int64(st, 3, j.wall_ns);
		sqlite3_bind_int64(st, 4, j.n);
	}
	r = finish(st, sqlite3_step(st));
	if (r == SQLITE_DONE)
		return SQLITE_OK;
	__atomic_store_n(&j.s->err, sqlite3_get_autocommit(db->h) ? -ECANCELED : -EIO,
			 __ATOMIC_RELEASE);
	return r;
}

/* j run on the writer thread, behind the records before it (nothing waits), else here. */
static int spill_write(struct ras_db_spill *s, const struct spill_job *j)
{
	sqlite3_stmt *st;
	int err;

	if (ras_db_deferring(s->db)) {
		if (ras_db_defer_call(s->db, run_spill_job, j, sizeof(*j)) == 0)
			return 0;
		s->stale = true;
		return -EIO;
	}
	if (!(st = spill_stmt(s, j->add ? SP_ADD : SP_DROP, j->kind, j->key, &err))) {
		s->stale = true;
		return err;
	}
	if (j->add) {
		sqlite3_bind_int64(st, 3, j->wall_ns);
		sqlite3_bind_int64(st, 4, j->n);
	}
	if (sqlite3_step(st) != SQLITE_DONE)
		return spill_failed(s, st);
	return finish(st, 0);
}

int ras_db_spill_add(struct ras_db_spill *s, int kind, uint64_t key, int64_t wall_ns,
			  unsigned n)
{
	struct spill_job j = { .s = s, .key = key, .wall_ns = wall_ns, .kind = kind, .n = n, .add = true };
	int err;

	if (!s)
		return -ENODEV;
	if ((err = rows_ready(s)) < 0)
		return err;
	/* Past its bound the copy cannot tell from now on: takes ask the table. */
	ras_spill_rows_put(s->rows, key, kind, wall_ns, n);
	return spill_write(s, &j);
}

int ras_db_spill_trouble(struct ras_db_spill *s)
{
	return s ? __atomic_exchange_n(&s->err, 0, __ATOMIC_ACQ_REL) : 0;
}

void ras_db_spill_bound(struct ras_db_spill *s, size_t max_keys)
{
	struct ras_spill_rows *r;

	if (s && ras_spill_rows_new(&r, max_keys) == 0) {
		ras_spill_rows_free(s->rows);
		s->rows = r;
		s->stale = true;
	}
}

/* The copy cannot tell: the table asked on the event loop's thread, after a sync. */
static int take_from_table(struct ras_db_spill *s, int kind, uint64_t key, int64_t *wall_ns,
			   unsigned *n)
{
	sqlite3_stmt *st;
	int r;

	if (!(st = spill_stmt(s, SP_TAKE, kind, key, &r)))
		return r;
	r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		*wall_ns = sqlite3_column_int64(st, 0);
		*n = (unsigned)sqlite3_column_int64(st, 1);
		r = sqlite3_step(st) == SQLITE_DONE ? 1 : -EIO;
	} else {
		r = r == SQLITE_DONE ? 0 : -EIO;
	}
	return r < 0 ? spill_failed(s, st) : finish(st, r);
}

int ras_db_spill_take(struct ras_db_spill *s, int kind, uint64_t key, int64_t *wall_ns,
			   unsigned *n)
{
	struct spill_job j = { .s = s, .key = key, .kind = kind };
	int r;

	if (!s)
		return -ENODEV;
	if ((r = rows_ready(s)) < 0)
		return r;
	r = ras_spill_rows_take(s->rows, key, kind, wall_ns, n);
	if (r == -EAGAIN)
		return take_from_table(s, kind, key, wall_ns, n);
	/* Never spilled (a storm's fresh subject): nothing to ask, nothing to wait for. */
	if (r == 0)
		return 0;
	return (r = spill_write(s, &j)) < 0 ? r : 1;
}

int ras_db_spill_prune(struct ras_db_spill *s, int kind, int64_t leaked_before_ns,
			    int64_t leak_ns)
{
	sqlite3_stmt *st;
	int err, r, n = 0;

	if (!s)
		return 0;
	if (!(st = spill_stmt(s, SP_PRUNE, -1, 0, &err)))
		return err;
	sqlite3_bind_int(st, 1, kind);
	sqlite3_bind_int64(st, 2, leaked_before_ns);
	sqlite3_bind_int64(st, 3, leak_ns);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		ras_spill_rows_remove(s->rows, (uint64_t)sqlite3_column_int64(st, 0));
		n++;
	}
	if (r != SQLITE_DONE)
		return spill_failed(s, st);
	/* A copy that could not tell may again, with fewer rows: read again at its next use. */
	if (n > 0 && ras_spill_rows_overflowed(s->rows))
		s->stale = true;
	return finish(st, n);
}

int ras_db_spill_empty(struct ras_db_spill *s)
{
	sqlite3_stmt *st;
	int err;

	if (!s)
		return 0;
	if (!(st = spill_stmt(s, SP_EMPTY, -1, 0, &err)))
		return err;
	if (sqlite3_step(st) != SQLITE_DONE)
		return spill_failed(s, st);
	ras_spill_rows_clear(s->rows);
	s->stale = false;
	return finish(st, 0);
}

int ras_db_spill_keys(struct ras_db_spill *s, void (*fn)(void *ctx, uint64_t key),
			   void *ctx)
{
	sqlite3_stmt *st;
	int r, n = 0;

	if (!s)
		return 0;
	st = s->st[SP_ROWS];
	if (ras_db_sync(s->db) < 0)
		return -EIO;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		fn(ctx, (uint64_t)sqlite3_column_int64(st, 0));
		n++;
	}
	return finish(st, r == SQLITE_DONE ? n : -EIO);
}
