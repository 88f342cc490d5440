/* SPDX-License-Identifier: MIT */
/* The pages seen in each DRAM row: schema step 21 and its statements (db_row_pages.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_row_pages.h"

enum {
	ST_SEEN, ST_ADD, ST_OVER, ST_CROSSED, ST_ACTED, ST_PENDING, ST_OVER_GET, ST_OVER_TOLD,
	ST_CROSSED_LIST, ST_PRUNE, ST_OFFLINED, ST_ROW_OFFLINED, ST_N
};

static const char *const sql[ST_N] = {
	[ST_SEEN] = "UPDATE row_pages SET seen_ns = max(seen_ns, ?3) WHERE row = ?1 AND page = ?2",
	/* The bound: a row of max pages keeps no more (counted by ST_OVER instead). */
	[ST_ADD] = "INSERT INTO row_pages (row, page, seen_ns, event_table, event_id)"
		   " SELECT ?1, ?2, ?3, NULLIF(?4, ''), ?5"
		   " WHERE (SELECT count(*) FROM row_pages WHERE row = ?1) < ?6",
	[ST_OVER] = "INSERT INTO row_state (row, over) VALUES (?1, 1)"
		    " ON CONFLICT (row) DO UPDATE SET over = over + 1",
	[ST_CROSSED] = "INSERT INTO row_state (row, crossed_ns) VALUES (?1, ?2)"
		       " ON CONFLICT (row) DO UPDATE SET crossed_ns = excluded.crossed_ns",
	[ST_ACTED] = "UPDATE row_pages SET acted = ?3, acted_boot = ?4 WHERE row = ?1 AND page = ?2",
	/* Offlined in an earlier boot: in use again since, as a page never acted on. */
	[ST_PENDING] = "SELECT page, event_table, event_id FROM row_pages WHERE row = ?1"
		       " AND (acted IS NULL OR (acted = 'done' AND acted_boot IS NOT ?3)"
		       " OR (?2 AND acted <> 'done')) ORDER BY page",
	[ST_OVER_GET] = "SELECT over - over_told FROM row_state WHERE row = ?1",
	[ST_OVER_TOLD] = "UPDATE row_state SET over_told = over WHERE row = ?1",
	[ST_CROSSED_LIST] = "SELECT row FROM row_state WHERE crossed_ns IS NOT NULL",
	[ST_PRUNE] = "DELETE FROM row_pages WHERE seen_ns < ?1 AND acted IS NULL AND row NOT IN"
		     " (SELECT row FROM row_state WHERE crossed_ns IS NOT NULL)",
	/* The page's own threshold offlined it in this boot (actions_subject walks the page's rows). */
	[ST_OFFLINED] = "SELECT EXISTS (SELECT 1 FROM actions WHERE kind = 'page' AND subject = ?1"
			" AND result = 'done' AND action <> 'account' AND boot = ?2)",
	/* A row's page action offlined it in this boot (row_pages_done). */
	[ST_ROW_OFFLINED] = "SELECT EXISTS (SELECT 1 FROM row_pages WHERE page = ?1"
			    " AND acted = 'done' AND acted_boot = ?2)",
};

struct ras_db_row_pages {
	struct ras_db *db;
	sqlite3_stmt *st[ST_N];
};

int ras_db_row_pages_open(struct ras_db *db, struct ras_db_row_pages **out)
{
	struct ras_db_row_pages *rp = calloc(1, sizeof(*rp));

	if (!rp)
		return -ENOMEM;
	rp->db = db;
	for (int i = 0; i < ST_N; i++) {
		if (sqlite3_prepare_v3(db->h, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &rp->st[i],
				       NULL) != SQLITE_OK) {
			ras_db_row_pages_close(rp);
			return -EIO;
		}
	}
	*out = rp;
	return 0;
}

void ras_db_row_pages_close(struct ras_db_row_pages *rp)
{
	if (!rp)
		return;
	for (int i = 0; i < ST_N; i++)
		sqlite3_finalize(rp->st[i]);
	free(rp);
}

static int finish(sqlite3_stmt *st, int r)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return r;
}

/*
 * Statement `which`, once the writer thread has run what it was given, so that
 * it reads every row written so far: 0, -ENODEV without the tables, -EIO.
 */
static int read_stmt(struct ras_db_row_pages *rp, int which, sqlite3_stmt **st)
{
	if (!rp)
		return -ENODEV;
	if (ras_db_sync(rp->db) < 0)
		return -EIO;
	*st = rp->st[which];
	return 0;
}

/* A page noted, as the writer thread runs it (or this thread, after a sync). */
struct note_job {
	struct ras_db_row_pages *rp;
	char row[128];
	char event_table[48];
	uint64_t page;
	int64_t seen_ns, event_id;
	unsigned max;
};

static int step_done(struct ras_db *db, sqlite3_stmt *st, int *changes)
{
	int r = sqlite3_step(st);

	*changes = r == SQLITE_DONE ? sqlite3_changes(db->h) : 0;
	return finish(st, r == SQLITE_DONE ? SQLITE_OK : r);
}

static int run_note(struct ras_db *db, const void *arg)
{
	const struct note_job *j = arg;
	sqlite3_stmt *const *st = j->rp->st;
	int r, changed;

	sqlite3_bind_text(st[ST_SEEN], 1, j->row, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st[ST_SEEN], 2, (int64_t)j->page);
	sqlite3_bind_int64(st[ST_SEEN], 3, j->seen_ns);
	if ((r = step_done(db, st[ST_SEEN], &changed)) != SQLITE_OK || changed)
		return r;
	sqlite3_bind_text(st[ST_ADD], 1, j->row, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st[ST_ADD], 2, (int64_t)j->page);
	sqlite3_bind_int64(st[ST_ADD], 3, j->seen_ns);
	sqlite3_bind_text(st[ST_ADD], 4, j->event_table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st[ST_ADD], 5, j->event_id);
	sqlite3_bind_int64(st[ST_ADD], 6, j->max);
	if ((r = step_done(db, st[ST_ADD], &changed)) != SQLITE_OK || changed)
		return r;
	sqlite3_bind_text(st[ST_OVER], 1, j->row, -1, SQLITE_STATIC);
	return step_done(db, st[ST_OVER], &changed);
}

int ras_db_row_page_note(struct ras_db_row_pages *rp, const char *row, uint64_t page,
			 int64_t seen_ns, const char *event_table, int64_t event_id, unsigned max)
{
	struct note_job j = { .rp = rp, .page = page, .seen_ns = seen_ns, .event_id = event_id,
			      .max = max };

	if (!rp)
		return -ENODEV;
	snprintf(j.row, sizeof(j.row), "%s", row);
	snprintf(j.event_table, sizeof(j.event_table), "%s", event_table ? event_table : "");
	if (ras_db_deferring(rp->db))
		return ras_db_defer_call(rp->db, run_note, &j, sizeof(j)) < 0 ? -EIO : 0;
	if (ras_db_sync(rp->db) < 0 || ras_db_begin(rp->db) < 0)
		return -EIO;
	return run_note(rp->db, &j) == SQLITE_OK ? 0 : -EIO;
}

/* One of the table's writes, in the open (or a new) transaction. */
static int write_in_txn(struct ras_db_row_pages *rp, int which, const struct ras_db_col_val *v, unsigned n)
{
	if (ras_db_begin(rp->db) < 0)
		return -EIO;
	return ras_db_run(rp->db, rp->st[which], v, n) < 0 ? -EIO : 0;
}

int ras_db_row_crossed(struct ras_db_row_pages *rp, const char *row, int64_t when_ns)
{
	struct ras_db_col_val v[2] = { ras_db_val_text(row), ras_db_val_int(when_ns) };

	return rp ? write_in_txn(rp, ST_CROSSED, v, 2) : -ENODEV;
}

int ras_db_row_page_acted(struct ras_db_row_pages *rp, const char *row, uint64_t page,
			  const char *result)
{
	struct ras_db_col_val v[4] = { ras_db_val_text(row), ras_db_val_int((int64_t)page),
				       ras_db_val_text(result), ras_db_val_int(rp ? rp->db->boot : 0) };

	return rp ? write_in_txn(rp, ST_ACTED, v, 4) : -ENODEV;
}

int ras_db_row_pages_pending(struct ras_db_row_pages *rp, const char *row, bool again,
			     ras_db_row_page_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int r, n = 0;

	if ((r = read_stmt(rp, ST_PENDING, &st)) < 0)
		return r;
	sqlite3_bind_text(st, 1, row, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, again);
	sqlite3_bind_int64(st, 3, rp->db->boot);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 1);

		n++;
		if (fn(ctx, (uint64_t)sqlite3_column_int64(st, 0), t ? t : "",
		       sqlite3_column_int64(st, 2)))
			return finish(st, n);
	}
	return finish(st, r == SQLITE_DONE ? n : -EIO);
}

int ras_db_row_over_take(struct ras_db_row_pages *rp, const char *row, int64_t *n)
{
	struct ras_db_col_val v[1] = { ras_db_val_text(row) };
	sqlite3_stmt *st;
	int r;

	*n = 0;
	if ((r = read_stmt(rp, ST_OVER_GET, &st)) < 0)
		return r;
	sqlite3_bind_text(st, 1, row, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	finish(st, 0);
	if (r != SQLITE_ROW && r != SQLITE_DONE)
		return -EIO;
	if (*n <= 0)
		return 0;
	return write_in_txn(rp, ST_OVER_TOLD, v, 1);
}

int ras_db_rows_crossed(struct ras_db_row_pages *rp, void (*fn)(void *ctx, const char *row),
			void *ctx)
{
	sqlite3_stmt *st;
	int r, n = 0;

	if ((r = read_stmt(rp, ST_CROSSED_LIST, &st)) < 0)
		return r;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *row = (const char *)sqlite3_column_text(st, 0);

		n++;
		if (row)
			fn(ctx, row);
	}
	return finish(st, r == SQLITE_DONE ? n : -EIO);
}

int ras_db_row_pages_prune(struct ras_db_row_pages *rp, int64_t seen_before_ns)
{
	sqlite3_stmt *st;

	if (!rp)
		return 0;
	if (ras_db_sync(rp->db) < 0 || ras_db_begin(rp->db) < 0)
		return -EIO;
	st = rp->st[ST_PRUNE];
	sqlite3_bind_int64(st, 1, seen_before_ns);
	if (sqlite3_step(st) != SQLITE_DONE)
		return finish(st, -EIO);
	return finish(st, sqlite3_changes(rp->db->h));
}

int ras_db_page_offlined(struct ras_db_row_pages *rp, uint64_t page)
{
	char key[24];
	sqlite3_stmt *st;
	int r;

	if ((r = read_stmt(rp, ST_OFFLINED, &st)) < 0)
		return r;
	/* The page subject's key, as lib/subject.c writes it. */
	snprintf(key, sizeof(key), "0x%llx", (unsigned long long)page);
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, rp->db->boot);
	r = sqlite3_step(st);
	return finish(st, r == SQLITE_ROW ? sqlite3_column_int(st, 0) != 0 : -EIO);
}

int ras_db_page_row_offlined(struct ras_db_row_pages *rp, uint64_t page)
{
	sqlite3_stmt *st;
	int r;

	if ((r = read_stmt(rp, ST_ROW_OFFLINED, &st)) < 0)
		return r;
	sqlite3_bind_int64(st, 1, (int64_t)page);
	sqlite3_bind_int64(st, 2, rp->db->boot);
	r = sqlite3_step(st);
	return finish(st, r == SQLITE_ROW ? sqlite3_column_int(st, 0) != 0 : -EIO);
}
