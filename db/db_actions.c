/* SPDX-License-Identifier: MIT */
/* Threshold buckets and action decisions: schema step 6 and its statements. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_actions.h"
#include "db_once_spill.h"

enum {
	ST_GET, ST_PUT, ST_INSERT, ST_FOLD, ST_COUNT, ST_EMPTY, ST_PRUNE, ST_N
};

/*
 * ST_INSERT and ST_FOLD share their parameter numbers (bind_decision). The
 * fold compares with IS: a NULL errno or event table matches only a NULL.
 */
static const char *const sql[ST_N] = {
	[ST_GET] = "SELECT level, last_ns, total FROM buckets WHERE kind = ? AND subject = ?",
	[ST_PUT] = "INSERT OR REPLACE INTO buckets (kind, subject, level, last_ns, total, label)"
		   " VALUES (?, ?, ?, ?, ?, NULLIF(?, ''))",
	[ST_INSERT] = "INSERT INTO actions (boot, wall_ns, kind, subject, count, threshold, action,"
		      " target, result, errno, synthetic, event_table, event_id, repeats, last_ns,"
		      " last_event_id)"
		      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
	[ST_FOLD] = "UPDATE actions SET repeats = repeats + ?14, last_ns = ?15, last_event_id = ?16"
		    " WHERE id = (SELECT id FROM actions WHERE kind = ?3 AND subject = ?4"
		    " ORDER BY id DESC LIMIT 1) AND boot IS ?1 AND threshold IS ?6 AND action IS ?7"
		    " AND target IS ?8 AND result IS ?9 AND errno IS ?10 AND synthetic IS ?11"
		    " AND event_table IS ?12",
	/* By time (actions_last): a day's rows, not every row of the kind (+kind). */
	[ST_COUNT] = "SELECT count(*) FROM actions WHERE +kind = ? AND last_ns >= ?"
		     " AND result IN ('done', 'failed') AND action <> 'account'"
		     " AND threshold IS NOT '" RAS_DB_ROW_PAGE_THRESHOLD "'",
	[ST_EMPTY] = "UPDATE buckets SET level = 0, last_ns = 0",
	/* A kind's rows only: the primary key (kind, subject) walks just those. */
	[ST_PRUNE] = "DELETE FROM buckets WHERE kind = ?1 AND total = 1 AND (level <= 0 OR last_ns <= ?2)",
};

/*
 * A storm crosses the same subjects' thresholds again and again, each time a
 * decision that folds into the subject's row (make bench's 1M records:
 * 14,000 updates of the rows of 250 subjects). While the records go to the
 * writer thread, the open transaction's folded decisions are kept here, one
 * per subject with their repeats, and written at the commit
 * (ras_db_actions_flush): the rows end the same.
 */
#define KEPT_DECISIONS 256

struct kept_decision {
	bool used;
	struct ras_db_action act;       /* the first */
	int64_t repeats, last_ns, last_event_id;
};

struct ras_db_actions {
	struct ras_db *db;
	sqlite3_stmt *st[ST_N];
	struct kept_decision kept[KEPT_DECISIONS];
	struct ras_db_spill *spill;   /* subjects seen once past rasd's memory (db_once_spill.c) */
};

int ras_db_actions_open(struct ras_db *db, struct ras_db_actions **out)
{
	struct ras_db_actions *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->db = db;
	if (ras_db_spill_open(db, &a->spill) < 0) {
		free(a);
		return -EIO;
	}
	for (int i = 0; i < ST_N; i++) {
		if (sqlite3_prepare_v3(db->h, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &a->st[i],
				       NULL) != SQLITE_OK) {
			ras_db_actions_close(a);
			return -EIO;
		}
	}
	*out = a;
	return 0;
}

void ras_db_actions_close(struct ras_db_actions *a)
{
	if (!a)
		return;
	for (int i = 0; i < ST_N; i++)
		sqlite3_finalize(a->st[i]);
	ras_db_spill_close(a->spill);
	free(a);
}

struct ras_db *ras_db_actions_db(const struct ras_db_actions *a)
{
	return a->db;
}

/* The spill of subjects seen once is db_once_spill.c's, on the actions' spill (never a call back here). */
static struct ras_db_spill *spill_of(struct ras_db_actions *a)
{
	return a ? a->spill : NULL;
}

int ras_db_once_spill_add(struct ras_db_actions *a, int kind, uint64_t key, int64_t wall_ns,
			  unsigned n)
{
	return ras_db_spill_add(spill_of(a), kind, key, wall_ns, n);
}

int ras_db_once_spill_take(struct ras_db_actions *a, int kind, uint64_t key, int64_t *wall_ns,
			   unsigned *n)
{
	return ras_db_spill_take(spill_of(a), kind, key, wall_ns, n);
}

int ras_db_once_spill_prune(struct ras_db_actions *a, int kind, int64_t leaked_before_ns,
			    int64_t leak_ns)
{
	return ras_db_spill_prune(spill_of(a), kind, leaked_before_ns, leak_ns);
}

int ras_db_once_spill_empty(struct ras_db_actions *a)
{
	return ras_db_spill_empty(spill_of(a));
}

int ras_db_once_spill_keys(struct ras_db_actions *a, void (*fn)(void *ctx, uint64_t key),
			   void *ctx)
{
	return ras_db_spill_keys(spill_of(a), fn, ctx);
}

int ras_db_once_spill_trouble(struct ras_db_actions *a)
{
	return ras_db_spill_trouble(spill_of(a));
}

void ras_db_once_spill_bound(struct ras_db_actions *a, size_t max_keys)
{
	ras_db_spill_bound(spill_of(a), max_keys);
}

static int finish(sqlite3_stmt *st, int r)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return r;
}

int ras_db_bucket_get(struct ras_db_actions *a, const char *kind, const char *subject,
		      struct ras_db_bucket *out)
{
	sqlite3_stmt *st;

	/* No database (its replacement could not be opened): nothing to read or write. */
	if (!a)
		return -ENODEV;
	if (ras_db_sync(a->db) < 0)
		return -EIO;
	st = a->st[ST_GET];
	int r;

	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, subject, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		out->level = sqlite3_column_int64(st, 0);
		out->last_ns = sqlite3_column_int64(st, 1);
		out->total = sqlite3_column_int64(st, 2);
		return finish(st, 1);
	}
	return finish(st, r == SQLITE_DONE ? 0 : -EIO);
}

int ras_db_bucket_put(struct ras_db_actions *a, const char *kind, const char *subject,
		      const struct ras_db_bucket *b, const char *label)
{
	struct ras_db_col_val v[6] = {
		ras_db_val_text(kind), ras_db_val_text(subject), ras_db_val_int(b->level),
		ras_db_val_int(b->last_ns), ras_db_val_int(b->total), ras_db_val_text(label ? label : ""),
	};

	/* No database (its replacement could not be opened): nothing to read or write. */
	if (!a)
		return -ENODEV;
	if (ras_db_begin(a->db) < 0)
		return -EIO;
	return ras_db_run(a->db, a->st[ST_PUT], v, 6) < 0 ? -EIO : 0;
}

int ras_db_buckets_empty(struct ras_db_actions *a)
{
	if (!a || ras_db_sync(a->db) < 0 || ras_db_begin(a->db) < 0)
		return -EIO;
	return finish(a->st[ST_EMPTY], sqlite3_step(a->st[ST_EMPTY]) == SQLITE_DONE ? 0 : -EIO);
}

int ras_db_buckets_prune_once(struct ras_db_actions *a, const char *kind, int64_t leaked_before_ns)
{
	sqlite3_stmt *st;

	if (!a)
		return 0;
	if (ras_db_sync(a->db) < 0)
		return -EIO;
	st = a->st[ST_PRUNE];
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, leaked_before_ns);
	if (sqlite3_step(st) != SQLITE_DONE)
		return finish(st, -EIO);
	return finish(st, sqlite3_changes(a->db->h));
}

/* One decision, or (folded) the decisions it stands for: their repeats and the last one's time and record. */
struct decisions {
	struct ras_db_action act;
	int64_t repeats, last_ns, last_event_id;
};

static void bind_decision(sqlite3_stmt *st, int64_t boot, const struct decisions *d)
{
	const struct ras_db_action *act = &d->act;

	sqlite3_bind_int64(st, 1, boot);
	sqlite3_bind_int64(st, 2, act->wall_ns);
	sqlite3_bind_text(st, 3, act->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, act->subject, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, act->count);
	sqlite3_bind_text(st, 6, act->threshold, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, act->action, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, act->target, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, act->result, -1, SQLITE_STATIC);
	if (act->error)
		sqlite3_bind_int(st, 10, act->error);
	sqlite3_bind_int(st, 11, act->synthetic);
	if (act->event_table[0])
		sqlite3_bind_text(st, 12, act->event_table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 13, act->event_id);
	sqlite3_bind_int64(st, 14, d->repeats);
	sqlite3_bind_int64(st, 15, d->last_ns);
	sqlite3_bind_int64(st, 16, d->last_event_id);
}

/* Folds the decision into its subject's latest row, or inserts it: SQLITE_OK or SQLite's code. */
static int store_action(struct ras_db_actions *a, const struct decisions *d, bool fold, bool *folded)
{
	sqlite3_stmt *st;
	int r;

	*folded = false;
	if (fold) {
		st = a->st[ST_FOLD];
		bind_decision(st, a->db->boot, d);
		if ((r = sqlite3_step(st)) != SQLITE_DONE)
			return finish(st, r);
		if ((*folded = finish(st, sqlite3_changes(a->db->h)) == 1))
			return SQLITE_OK;
	}
	st = a->st[ST_INSERT];
	bind_decision(st, a->db->boot, d);
	r = sqlite3_step(st);
	return finish(st, r == SQLITE_DONE ? SQLITE_OK : r);
}

struct deferred_action {
	struct ras_db_actions *a;
	struct decisions d;
	bool fold;
};

static int run_deferred_action(struct ras_db *db, const void *arg)
{
	struct deferred_action d;
	bool folded;

	(void)db;
	memcpy(&d, arg, sizeof(d));
	return store_action(d.a, &d.d, d.fold, &folded);
}

/* Stores d, on the writer thread while it takes the writes: 1 folded, 0 a new row (or handed over), -EIO. */
static int write_decisions(struct ras_db_actions *a, const struct decisions *d, bool fold)
{
	bool folded;

	if (ras_db_deferring(a->db)) {
		struct deferred_action j = { .a = a, .d = *d, .fold = fold };

		return ras_db_defer_call(a->db, run_deferred_action, &j, sizeof(j)) < 0 ? -EIO : 0;
	}
	if (ras_db_sync(a->db) < 0 || ras_db_begin(a->db) < 0)
		return -EIO;
	if (store_action(a, d, fold, &folded) != SQLITE_OK)
		return -EIO;
	return folded ? 1 : 0;
}

/* What the fold compares (ST_FOLD): two decisions that would fold into one row. */
static bool same_decision(const struct ras_db_action *x, const struct ras_db_action *y)
{
	return !strcmp(x->kind, y->kind) && !strcmp(x->subject, y->subject) &&
	       !strcmp(x->threshold, y->threshold) && !strcmp(x->action, y->action) &&
	       !strcmp(x->target, y->target) && !strcmp(x->result, y->result) && x->error == y->error &&
	       x->synthetic == y->synthetic && !strcmp(x->event_table, y->event_table);
}

static struct kept_decision *kept_slot(struct ras_db_actions *a, const struct ras_db_action *act)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *p = act->subject; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	for (const char *p = act->kind; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	return &a->kept[h % KEPT_DECISIONS];
}

/* Writes a kept decision with its repeats, and frees its slot. */
static int write_kept(struct ras_db_actions *a, struct kept_decision *k)
{
	struct decisions d = { .act = k->act, .repeats = k->repeats, .last_ns = k->last_ns,
			       .last_event_id = k->last_event_id };

	k->used = false;
	return write_decisions(a, &d, true) < 0 ? -EIO : 0;
}

int ras_db_actions_flush(struct ras_db_actions *a)
{
	for (unsigned i = 0; a && i < KEPT_DECISIONS; i++)
		if (a->kept[i].used && write_kept(a, &a->kept[i]) < 0)
			return -EIO;
	return 0;
}

void ras_db_actions_discard(struct ras_db_actions *a)
{
	for (unsigned i = 0; a && i < KEPT_DECISIONS; i++)
		a->kept[i].used = false;
	/* The transaction's spill adds and takes are undone: the copy is read again. */
	if (a)
		ras_db_spill_discard(a->spill);
}

int ras_db_action_insert(struct ras_db_actions *a, const struct ras_db_action *act, bool fold)
{
	struct decisions d = { .act = *act, .repeats = 1, .last_ns = act->wall_ns,
			       .last_event_id = act->event_id };
	struct kept_decision *k;

	/* No database (its replacement could not be opened): nothing to read or write. */
	if (!a)
		return -ENODEV;
	k = kept_slot(a, act);
	if (k->used) {
		if (fold && same_decision(&k->act, act)) {
			k->repeats++;
			k->last_ns = act->wall_ns;
			k->last_event_id = act->event_id;
			return 1;
		}
		/* Another decision of its subject (or another subject's) kept before it goes first. */
		if (write_kept(a, k) < 0)
			return -EIO;
	}
	/* Only while the writer thread takes the writes: a caller reading back finds its row. */
	if (fold && ras_db_deferring(a->db)) {
		*k = (struct kept_decision){ .used = true, .act = *act, .repeats = 1,
					     .last_ns = act->wall_ns, .last_event_id = act->event_id };
		return 0;
	}
	return write_decisions(a, &d, fold);
}

int ras_db_action_count_since(struct ras_db_actions *a, const char *kind, int64_t since_ns,
			      int64_t *n)
{
	sqlite3_stmt *st;

	/* No database (its replacement could not be opened): nothing to read or write. */
	if (!a)
		return -ENODEV;
	if (ras_db_sync(a->db) < 0)
		return -EIO;
	st = a->st[ST_COUNT];
	int r;

	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, since_ns);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	return finish(st, r == SQLITE_ROW ? 0 : -EIO);
}

static void text_into(sqlite3_stmt *st, int col, char *out, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(out, len, "%s", t ? (const char *)t : "");
}

static void read_action(sqlite3_stmt *st, struct ras_db_action *a)
{
	memset(a, 0, sizeof(*a));
	a->id = sqlite3_column_int64(st, 0);
	text_into(st, 1, a->boot_id, sizeof(a->boot_id));
	a->wall_ns = sqlite3_column_int64(st, 2);
	text_into(st, 3, a->kind, sizeof(a->kind));
	text_into(st, 4, a->subject, sizeof(a->subject));
	a->count = sqlite3_column_int64(st, 5);
	text_into(st, 6, a->threshold, sizeof(a->threshold));
	text_into(st, 7, a->action, sizeof(a->action));
	text_into(st, 8, a->target, sizeof(a->target));
	text_into(st, 9, a->result, sizeof(a->result));
	a->error = sqlite3_column_int(st, 10);
	a->synthetic = sqlite3_column_int(st, 11) != 0;
	text_into(st, 12, a->event_table, sizeof(a->event_table));
	a->event_id = sqlite3_column_int64(st, 13);
	a->repeats = sqlite3_column_int64(st, 14);
	a->last_ns = sqlite3_column_int64(st, 15);
	a->last_event_id = sqlite3_column_int64(st, 16);
}

/*
 * The first of the queries that prepares: the newest schema first, then what
 * a database not yet upgraded by rasd (read-only readers never upgrade) holds.
 */
static sqlite3_stmt *prepare_first(struct ras_db *db, const char *const *q, size_t n)
{
	sqlite3_stmt *st = NULL;

	for (size_t i = 0; i < n && !st; i++)
		if (sqlite3_prepare_v2(db->h, q[i], -1, &st, NULL) != SQLITE_OK)
			st = NULL;
	return st;
}

int ras_db_action_list(struct ras_db *db, int64_t since_ns, ras_db_action_fn fn, void *ctx)
{
	static const char *const q[] = {
		"SELECT a.id, b.boot_id, a.wall_ns, a.kind, a.subject, a.count, a.threshold, a.action,"
		" a.target, a.result, a.errno, a.synthetic, a.event_table, a.event_id, a.repeats,"
		" coalesce(a.last_ns, a.wall_ns), coalesce(a.last_event_id, a.event_id)"
		" FROM actions a LEFT JOIN boots b ON b.id = a.boot"
		" WHERE coalesce(a.last_ns, a.wall_ns) >= ? ORDER BY a.wall_ns, a.id",
		/* Before schema step 13: a row, a decision. */
		"SELECT a.id, b.boot_id, a.wall_ns, a.kind, a.subject, a.count, a.threshold, a.action,"
		" a.target, a.result, a.errno, a.synthetic, a.event_table, a.event_id, 1, a.wall_ns,"
		" a.event_id FROM actions a LEFT JOIN boots b ON b.id = a.boot WHERE a.wall_ns >= ?"
		" ORDER BY a.wall_ns, a.id",
	};
	sqlite3_stmt *st;
	int n = 0, r;

	if (!ras_db_table_exists(db, "actions"))
		return -ENOENT;
	if (!(st = prepare_first(db, q, sizeof(q) / sizeof(q[0]))))
		return -EIO;
	sqlite3_bind_int64(st, 1, since_ns);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct ras_db_action a;

		read_action(st, &a);
		n++;
		if (fn(ctx, &a))
			break;
	}
	sqlite3_finalize(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? n : -EIO;
}

int ras_db_action_counts(struct ras_db *db, const struct ras_db_action_window *w,
			 ras_db_action_count_fn fn, void *ctx)
{
	/* Every decision: the roll-up, a few rows whatever the history. */
	static const char *const all[] = {
		"SELECT result, sum(decisions) FROM rollup_actions WHERE nrows > 0"
		" GROUP BY result ORDER BY result",
		"SELECT result, count(*) FROM actions GROUP BY result ORDER BY result",
	};
	/* A window: the rows last decided in it (actions_last), with all their repeats. */
	static const char *const window[] = {
		"SELECT result, sum(repeats) FROM actions WHERE last_ns >= ?1 AND (?2 = 0 OR last_ns < ?2)"
		" AND (?3 IS NULL OR event_table = ?3)"
		" AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4))"
		" GROUP BY result ORDER BY result",
		/* A database from before folded decisions (schema 12 and older, read only). */
		"SELECT result, count(*) FROM actions WHERE wall_ns >= ?1 AND (?2 = 0 OR wall_ns < ?2)"
		" AND (?3 IS NULL OR event_table = ?3)"
		" AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4))"
		" GROUP BY result ORDER BY result",
	};
	bool windowed = w && (w->since_ns || w->until_ns || w->event_table || w->boot_id);
	sqlite3_stmt *st;
	int r;

	if (!ras_db_table_exists(db, "actions"))
		return -ENOENT;
	st = windowed ? prepare_first(db, window, 2) : prepare_first(db, all, 2);
	if (!st)
		return -EIO;
	if (windowed) {
		sqlite3_bind_int64(st, 1, w->since_ns);
		sqlite3_bind_int64(st, 2, w->until_ns);
		if (w->event_table)
			sqlite3_bind_text(st, 3, w->event_table, -1, SQLITE_STATIC);
		if (w->boot_id)
			sqlite3_bind_text(st, 4, w->boot_id, -1, SQLITE_STATIC);
	}
	while ((r = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_bucket_list(struct ras_db *db, ras_db_bucket_fn fn, void *ctx)
{
	static const char q[] = "SELECT kind, subject, level, last_ns, total, label FROM buckets"
				" ORDER BY kind, subject";
	sqlite3_stmt *st;
	int n = 0, r;

	if (!ras_db_table_exists(db, "buckets"))
		return -ENOENT;
	if (sqlite3_prepare_v2(db->h, q, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		struct ras_db_bucket b = { sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
					   sqlite3_column_int64(st, 4) };
		const unsigned char *label = sqlite3_column_text(st, 5);

		n++;
		if (fn(ctx, (const char *)sqlite3_column_text(st, 0),
		       (const char *)sqlite3_column_text(st, 1), &b, label ? (const char *)label : ""))
			break;
	}
	sqlite3_finalize(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? n : -EIO;
}
