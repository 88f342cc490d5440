/* SPDX-License-Identifier: MIT */
/*
 * Storms bounded on disk, every error still counted. A subject (DIMM, PCIe
 * device, CPU, DRAM row or page: lib/subject.c) that reports more than
 * fold_threshold records in a period keeps its first fold_keep and its last
 * fold_keep raw rows of the period; the rows in between are folded: deleted
 * from the event table and counted in a folds row per hour and roll-up key
 * (with first/last time, address range, up to eight distinct syndromes or
 * rows, the errors they stand for and each record's second, delta-packed).
 * The size and age limits fold the oldest raw rows the same way. Roll-ups
 * count every record (the rows to fold are folded at commit, after the
 * roll-ups counted them), so whole hours need nothing more; the partial
 * hours at a window's edges add the folded seconds in the raw-row functions
 * of db_rollup.h (RAS_DB_FOLDED_IN_RANGES).
 *
 * A row folded in the transaction that stored it is "fresh": no reader has
 * counted it as a raw row. rasd's metrics count raw rows as they are
 * committed, so they add only fresh folds after their first read
 * (db_metrics.c); the size and age limits fold committed rows only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/str.h"
#include "lib/subject.h"
#include "db_fold.h"
#include "db_metrics.h"
#include "db_rollup.h"

#include "db_fold_internal.h"
#include "db_fold_entries.h"

/* ---- state ---- */

static struct ras_db_fold *fold_state(struct ras_db *db)
{
	if (!db->fold)
		db->fold = calloc(1, sizeof(*db->fold));
	return db->fold;
}

static void subject_clear(struct fold_subject *s)
{
	free(s->held);
	free(s->deferred);
	memset(s, 0, sizeof(*s));
}

/* Folds into one subject: the coarsest the record names (a DIMM holds many pages). */
bool ras_db_fold_subject(const struct ras_db_event *ev, const struct ras_db_limits *l, char *key,
			 size_t len)
{
	static const enum ras_subject_kind order[] = {
		RAS_SUBJ_DIMM, RAS_SUBJ_DEVICE, RAS_SUBJ_CPU, RAS_SUBJ_KINDS, RAS_SUBJ_ROW, RAS_SUBJ_PAGE,
	};
	struct ras_subject own[RAS_SUBJECTS_MAX];
	const struct ras_subject *subj = ev->subjects;
	int n = ev->n_subjects;

	/* The caller's subjects when it derived every kind folding needs (the hot path). */
	if (!subj || (ev->subject_kinds & RAS_DB_FOLD_KINDS) != RAS_DB_FOLD_KINDS) {
		n = ras_subjects_of(&ras_event_types[ev->type_idx], ev->values, ev->decoded,
				    l->page_size, RAS_DB_FOLD_KINDS, own);
		subj = own;
	}
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		/* Between the CPU and the row: a machine check's bank, whose pages all differ. */
		if (order[o] == RAS_SUBJ_KINDS &&
		    ras_subject_fold_group(&ras_event_types[ev->type_idx], ev->decoded, key, len))
			return true;
		for (int i = 0; i < n; i++)
			if (subj[i].kind == order[o]) {
				ras_str_join(key, len, ras_subject_kind_name(order[o]), subj[i].key);
				return true;
			}
	}
	return false;
}

static int pending_push(struct ras_db_fold *f, unsigned idx, const char *subject, int64_t id)
{
	struct fold_pending *p;

	if (f->npending == f->cap_pending) {
		size_t cap = f->cap_pending ? 2 * f->cap_pending : 256;

		if (!(p = realloc(f->pending, cap * sizeof(*p))))
			return -ENOMEM;
		f->pending = p;
		f->cap_pending = cap;
	}
	p = &f->pending[f->npending++];
	p->idx = idx;
	p->id = id;
	ras_str_copy(p->subject, sizeof(p->subject), subject);
	return 0;
}

/*
 * Queues the subject's stored rows that wait to be folded (fold_or_queue)
 * for this commit. Best effort when its slot is given up: a row not queued
 * stays raw, still counted.
 */
static int release_deferred(struct ras_db_fold *f, struct fold_subject *s)
{
	for (size_t i = 0; i < s->ndeferred; i++)
		if (pending_push(f, s->idx, s->key, s->deferred[i]) < 0)
			return -ENOMEM;
	s->ndeferred = 0;
	return 0;
}

/*
 * The subject's slot. With every slot taken, one is given up: an older
 * period's first, else the one that has seen fewest records this period.
 * A varied stream names more subjects in a period than there are slots,
 * nearly all reporting once or twice; refusing new ones let those one-offs
 * keep a storm that began later from ever folding. A subject given up keeps
 * its rows raw and starts counting again if it comes back (a storm that
 * already folded goes on folding: period_crossed).
 */
static struct fold_subject *subject_slot(struct ras_db_fold *f, unsigned idx, const char *key,
					 int64_t period)
{
	uint64_t h = fold_fnv(0xcbf29ce484222325ULL ^ idx, key, strlen(key));
	struct fold_subject *give_up = NULL;

	for (unsigned i = 0; i < FOLD_SUBJECTS; i++) {
		struct fold_subject *s = &f->subj[(h + i) % FOLD_SUBJECTS];

		if (!s->used) {
			give_up = s;
			break;
		}
		if (s->idx == idx && !strcmp(s->key, key))
			return s;
		if (!give_up || (give_up->period >= period &&
				 (s->period < period || s->seen < give_up->seen)))
			give_up = s;
	}
	if (give_up->used)
		(void)release_deferred(f, give_up);
	subject_clear(give_up);
	give_up->used = true;
	give_up->idx = idx;
	give_up->period = period;
	ras_str_copy(give_up->key, sizeof(give_up->key), key);
	return give_up;
}

static int held_push(struct fold_subject *s, int64_t id)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		int64_t *h = malloc(cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		for (size_t i = 0; i < s->n; i++)
			h[i] = s->held[(s->head + i) % s->cap];
		free(s->held);
		s->held = h;
		s->head = 0;
		s->cap = cap;
	}
	s->held[(s->head + s->n++) % s->cap] = id;
	return 0;
}

static int64_t held_pop(struct fold_subject *s)
{
	int64_t id = s->held[s->head];

	s->head = (s->head + 1) % s->cap;
	s->n--;
	return id;
}

static bool committed(const struct ras_db_fold *f, unsigned idx, int64_t id)
{
	return !f->txn_first[idx] || id < f->txn_first[idx];
}

/* ---- reading a row back, and deleting it ---- */

/*
 * The first of names that is a column of view. Asked of table_info: a probe
 * such as SELECT "name" FROM view would prepare for any name, since SQLite
 * reads an unknown double-quoted identifier as a string.
 */
static const char *first_column(struct ras_db *db, const char *view, const char *const *names)
{
	sqlite3_stmt *st;
	const char *found = NULL;

	if (sqlite3_prepare_v2(db->h, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1, &st,
			       NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, view, -1, SQLITE_STATIC);
	for (; *names && !found; names++) {
		sqlite3_bind_text(st, 2, *names, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			found = *names;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return found;
}

static struct fold_table *table_sql(struct ras_db *db, unsigned idx)
{
	static const char *const addrs[] = { "address", "addr", "pa", "hpa", "dpa", NULL };
	static const char *const details[] = { "syndrome", "synd", "row", "status", NULL };
	struct fold_table *t = &db->fold->t[idx];
	const char *table = ras_event_types[idx].table, *addr, *detail, *weight;
	char view[96], dims[512], list[1536], sql[2048];

	if (t->probed)
		return t->sel ? t : NULL;
	t->probed = true;
	snprintf(view, sizeof(view), "%s_decoded", table);
	addr = first_column(db, view, addrs);
	detail = first_column(db, view, details);
	snprintf(t->detail_name, sizeof(t->detail_name), "%s", detail ? detail : "");
	ras_db_metrics_subject_sql(table, dims, sizeof(dims), &weight);
	/* The EDAC counts' key of an mc_event (db_edac_rollup.c), so edge hours count folds too. */
	snprintf(list, sizeof(list),
		 "wall_ns, coalesce(boot, 0), coalesce(source, ''), coalesce(synthetic, 0),"
		 " coalesce(severity, ''), coalesce(location, ''), coalesce(dec, 0), %s%s%s, %s%s%s,"
		 " %s, %s, %s", addr ? "\"" : "", addr ? addr : "NULL",
		 addr ? "\"" : "", detail ? "\"" : "", detail ? detail : "NULL", detail ? "\"" : "",
		 weight, dims, strcmp(table, "mc_event") ? "''" :
		 "json_array(coalesce(mc_index, -1), coalesce(top_layer, -1),"
		 " coalesce(middle_layer, -1), coalesce(lower_layer, -1), coalesce(error_type, -1),"
		 " coalesce(error_count, 1))");
	snprintf(sql, sizeof(sql), "SELECT %s FROM %s WHERE id = ?", list, view);
	if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &t->sel, NULL) != SQLITE_OK)
		return NULL;
	/* The same columns of a record held in memory (db_fold_hold.c); without them none is held. */
	ras_db_hold_prepare(db, &db->fold->hold, idx, list, addr, detail);
	snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE id = ?", table);
	if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &t->del, NULL) != SQLITE_OK)
		return NULL;
	snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE id = ?1 AND wall_ns = ?2", table);
	if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &t->del_known, NULL) != SQLITE_OK)
		return NULL;
	snprintf(sql, sizeof(sql), "SELECT id FROM %s WHERE wall_ns < ?1 AND (?2 = 0 OR id < ?2)"
		 " ORDER BY wall_ns LIMIT %d", table, LIMIT_BATCH);
	if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &t->oldest, NULL) != SQLITE_OK)
		return NULL;
	return t;
}

/*
 * Folds row id from the copy kept when it was stored at a commit
 * (ras_db_hold_take_stored): its fold columns computed from the copy as a
 * held record's are, the row deleted if it is still there with the copy's
 * time. 1 folded; 0 no copy, or the row gone or not the one stored (read
 * back as before); -errno. A storm's records held at a commit, stored, then
 * folded a few commits later were read back through the view one by one:
 * that SELECT was most of the flush's work per commit with live batches.
 * The DELETE stays one row to a statement: its cost is the table and index
 * pages, not the statement. Measured on make bench's 200k stream, a run of
 * kept copies deleted 64 to a statement saved at most a fifth of it, and
 * only as "id IN (...)", which loses the time check; every form that keeps
 * it and tells which rows went was dearer than one by one (RETURNING id costs
 * some 6,700 instructions a row, "(id, wall_ns) IN (VALUES ...)" scans).
 */
static int fold_stored_copy(struct ras_db *db, struct fold_table *t, unsigned idx, int64_t id,
			    struct folded_row *r)
{
	int taken = ras_db_hold_take_stored(db, db->fold->hold, idx, id, r);
	int step;

	if (taken <= 0)
		return taken;
	sqlite3_bind_int64(t->del_known, 1, id);
	sqlite3_bind_int64(t->del_known, 2, r->wall_ns);
	step = sqlite3_step(t->del_known);
	sqlite3_reset(t->del_known);
	if (step != SQLITE_DONE)
		return -EIO;
	return sqlite3_changes(db->h) == 1;
}

/* Folds one committed row: read back, deleted, counted. A row already gone is left alone. */
static int fold_row(struct ras_db *db, unsigned idx, const char *subject, int64_t id)
{
	struct fold_table *t = table_sql(db, idx);
	struct folded_row r;
	int step;

	if (!t)
		return -EIO;
	if ((step = fold_stored_copy(db, t, idx, id, &r)) != 0) {
		r.fresh = !committed(db->fold, idx, id);
		r.id = id;
		return step < 0 ? step : ras_db_fold_accumulate(db, idx, subject, &r, NULL);
	}
	sqlite3_bind_int64(t->sel, 1, id);
	step = sqlite3_step(t->sel);
	if (step == SQLITE_ROW)
		ras_db_fold_read_row(t->sel, &r);
	sqlite3_reset(t->sel);
	r.fresh = !committed(db->fold, idx, id);
	r.id = id;
	if (step != SQLITE_ROW)
		return step == SQLITE_DONE ? 0 : -EIO;
	sqlite3_bind_int64(t->del, 1, id);
	step = sqlite3_step(t->del);
	sqlite3_reset(t->del);
	if (step != SQLITE_DONE)
		return -EIO;
	return ras_db_fold_accumulate(db, idx, subject, &r, NULL);
}

/*
 * Whether the subject's storm already crossed the threshold in this period,
 * as a folds row of its says: a restarted rasd (or a slot given up to other
 * storms) goes on folding instead of keeping fold_threshold raw rows again.
 */
static bool period_crossed(struct ras_db *db, unsigned idx, const char *subject, int64_t period,
			   int64_t period_ns)
{
	struct ras_db_fold *f = db->fold;
	bool crossed;

	if (!f->crossed && sqlite3_prepare_v3(db->h, "SELECT 1 FROM folds WHERE tbl = ?1 AND hour"
					      " BETWEEN ?2 AND ?3 AND subject = ?4 LIMIT 1", -1,
					      SQLITE_PREPARE_PERSISTENT, &f->crossed, NULL) != SQLITE_OK)
		return false;   /* at worst the period keeps a few more raw rows */
	sqlite3_bind_text(f->crossed, 1, ras_event_types[idx].table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(f->crossed, 2, ras_db_hour_of(period * period_ns));
	sqlite3_bind_int64(f->crossed, 3, ras_db_hour_of((period + 1) * period_ns - 1));
	sqlite3_bind_text(f->crossed, 4, subject, -1, SQLITE_STATIC);
	crossed = sqlite3_step(f->crossed) == SQLITE_ROW;
	sqlite3_reset(f->crossed);
	return crossed;
}

/*
 * Folds row id of the subject's storm: a record still held is folded from
 * memory at once (it never becomes a row), a row stored in this transaction
 * is queued for the commit. A row committed earlier waits until FOLD_DEFER
 * of its subject's have gathered, then all are queued for the commit: under a trickle each commit stores a record or three, and folding
 * one stored row per commit rewrote a page of the event table, of its
 * index, of the free list and of the folds row at every commit (4.7 KiB
 * written per record at 50 records/s; make soak SOAK_CORRECTED=1).
 */
static int fold_or_queue(struct ras_db *db, struct fold_subject *s, int64_t id)
{
	struct folded_row r;
	int taken = ras_db_hold_take(db, db->fold->hold, s->idx, id, &r);

	if (taken < 0)
		return taken;
	if (taken) {
		r.fresh = 1;
		return ras_db_fold_accumulate(db, s->idx, s->key, &r, &s->hint);
	}
	/* Stored in this transaction (a boot instance's records): its pages are written anyway. */
	if (!committed(db->fold, s->idx, id))
		return pending_push(db->fold, s->idx, s->key, id);
	if (!s->deferred && !(s->deferred = malloc(FOLD_DEFER * sizeof(*s->deferred))))
		return -ENOMEM;
	s->deferred[s->ndeferred++] = id;
	return s->ndeferred < FOLD_DEFER ? 0 : release_deferred(db->fold, s);
}

/* Holds the record hr asks for as row id: 1 held, 0 not (its table holds none), -errno. */
static int hold(struct ras_db *db, unsigned idx, int64_t id, const struct ras_db_hold_req *hr)
{
	struct ras_db_fold *f = db->fold;

	if (!hr || !table_sql(db, idx))
		return 0;
	if (hr->ev)
		return ras_db_hold_add(f->hold, hr->ev, id, hr->dec);
	return ras_db_hold_put_packed(f->hold, idx, id, hr->dec, hr->packed, hr->bytes);
}

int ras_db_fold_note_req(struct ras_db *db, unsigned idx, int64_t wall_ns, const struct ras_db_limits *l,
			 const char *key, int64_t id, const struct ras_db_hold_req *hr)
{
	struct ras_db_fold *f;
	struct fold_subject *s;
	int64_t period;
	int held, r;

	if (!(f = fold_state(db)))
		return -ENOMEM;
	f->limits = *l;
	f->have_limits = true;
	f->newest_ns = wall_ns > f->newest_ns ? wall_ns : f->newest_ns;
	if (!f->txn_first[idx])
		f->txn_first[idx] = id;
	if (!l->fold_threshold || l->fold_period_ns <= 0 || !key)
		return 0;
	period = fold_floor_div(wall_ns, l->fold_period_ns);
	s = subject_slot(f, idx, key, period);
	if (s->period != period) {
		/* The period's last rows are its last fold_keep: the ones waiting fold now. */
		if ((r = release_deferred(f, s)) < 0)
			return r;
		s->period = period;
		s->seen = 0;
		s->head = s->n = 0;
	}
	if (!s->seen && period_crossed(db, idx, s->key, period, l->fold_period_ns))
		s->seen = l->fold_threshold;   /* its first rows are stored: fold from here on */
	if (++s->seen <= l->fold_keep)
		return 0;   /* the first ones of the period */
	held = hold(db, idx, id, hr);
	if (held < 0 || held_push(s, id) < 0)
		return -ENOMEM;
	if (s->seen <= l->fold_threshold)
		return held;
	/* Past the threshold: everything but the last fold_keep held is folded. */
	while (s->n > l->fold_keep)
		if ((r = fold_or_queue(db, s, held_pop(s))) < 0)
			return r;
	return held;
}

int ras_db_fold_note(struct ras_db *db, const struct ras_db_event *ev, int64_t id, int64_t dec,
		     bool may_hold)
{
	const struct ras_db_limits *l = ev->limits;
	struct ras_db_hold_req hr = { .ev = ev, .dec = dec };
	char key[160];
	bool have_key;

	if (!l)
		return 0;
	have_key = l->fold_threshold && l->fold_period_ns > 0 && ras_db_fold_subject(ev, l, key, sizeof(key));
	return ras_db_fold_note_req(db, ev->type_idx, ev->wall_ns, l, have_key ? key : NULL, id,
				    may_hold ? &hr : NULL);
}

int ras_db_fold_ready(struct ras_db *db, unsigned idx)
{
	struct ras_db_fold *f = db->fold;

	if (f && f->ready[idx])
		return 0;
	if (ras_db_sync(db) < 0 || !(f = fold_state(db)))
		return -EIO;
	/* Without its statements no record of the table is held: each is stored, then folded. */
	table_sql(db, idx);
	/* Allocated here, read by the event loop's thread as it packs. */
	if (ras_db_hold_state(&f->hold) < 0)
		return -ENOMEM;
	f->ready[idx] = true;
	return 0;
}

/* Folds the rows queued in the batch; the roll-ups have counted them by now. */
static int fold_pending_rows(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;

	for (size_t i = 0; i < f->npending; i++) {
		int r = fold_row(db, f->pending[i].idx, f->pending[i].subject, f->pending[i].id);

		if (r < 0)
			return r;
	}
	f->npending = 0;
	return 0;
}

/* ---- the size and age limits (db_fold_limits.c) fold the oldest raw rows, a batch per commit ---- */

int ras_db_fold_oldest(struct ras_db *db, unsigned idx, int64_t before_ns)
{
	struct ras_db_fold *f = db->fold;
	struct fold_table *t = table_sql(db, idx);
	int64_t ids[LIMIT_BATCH];
	size_t n = 0;
	int r;

	if (!t)
		return -EIO;
	sqlite3_bind_int64(t->oldest, 1, before_ns);
	sqlite3_bind_int64(t->oldest, 2, f->txn_first[idx]);
	while ((r = sqlite3_step(t->oldest)) == SQLITE_ROW && n < LIMIT_BATCH)
		ids[n++] = sqlite3_column_int64(t->oldest, 0);
	sqlite3_reset(t->oldest);
	if (r != SQLITE_DONE && r != SQLITE_ROW)
		return -EIO;
	for (size_t i = 0; i < n; i++)
		if (fold_row(db, idx, "", ids[i]) < 0)
			return -EIO;
	/* The newest row may be among them: its id is not handed out again. */
	for (size_t i = 0; i < n; i++)
		if (ids[i] > ids[0])
			ids[0] = ids[i];
	return n ? ras_db_raise_id_floor(db, idx, ids[0]) : 0;
}

int ras_db_fold_flush(struct ras_db *db)
{
	if (!db->fold)
		return 0;
	/* The records still held become rows first: the limits and next batches see them. */
	if (ras_db_hold_store(db, db->fold->hold) < 0 || fold_pending_rows(db) < 0 ||
	    (db->fold->have_limits &&
	     ras_db_fold_apply_limits(db, &db->fold->limits, db->fold->newest_ns,
				      ras_db_fold_oldest) < 0))
		return -EIO;
	return ras_db_fold_write_entries(db);
}

bool ras_db_fold_waiting(const struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;
	bool waiting = false;

	for (unsigned i = 0; f && i < FOLD_SUBJECTS && !waiting; i++)
		waiting = f->subj[i].ndeferred > 0;
	return waiting;
}

int ras_db_fold_release_waiting(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;
	int r = 0;

	for (unsigned i = 0; i < FOLD_SUBJECTS && r == 0; i++)
		r = release_deferred(f, &f->subj[i]);
	return r;
}

const struct ras_db_limits *ras_db_fold_limits(const struct ras_db *db)
{
	return db->fold && db->fold->have_limits ? &db->fold->limits : NULL;
}

bool ras_db_fold_busy(const struct ras_db *db)
{
	const struct ras_db_fold *f = db->fold;

	return f && ((f->have_limits && f->limits.fold_threshold) || f->used || f->npending);
}

void ras_db_fold_committed(struct ras_db *db)
{
	if (db->fold)
		memset(db->fold->txn_first, 0, sizeof(db->fold->txn_first));
}

void ras_db_fold_discard(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;

	if (!f)
		return;
	/* Held ids may name rows the rollback took away: every storm starts again. */
	for (unsigned i = 0; i < FOLD_SUBJECTS; i++)
		subject_clear(&f->subj[i]);
	ras_db_fold_entries_empty(f);
	ras_db_fold_known_free(f);
	f->ngrows = 0;
	f->grow_ids_len = 0;
	f->npending = 0;
	ras_db_hold_clear(f->hold);
	memset(f->txn_first, 0, sizeof(f->txn_first));
}

/*
 * The batch's entries, when none is in use and few were taken since the last
 * trim (as ras_db_rollup_trim). They are what the batches used, not the
 * whole table: a storm of a few keys takes back a few entries at its next
 * commit (the places, 16 KiB, and the known rows with them).
 */
void ras_db_fold_trim(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;

	if (!f)
		return;
	/* The copies of stored records: a storm that goes on while rasd is idle is a trickle. */
	ras_db_hold_forget(f->hold);
	if (f->used)
		return;
	if (f->taken < FOLD_SLOTS / 16)
		ras_db_fold_entries_free(f);
	f->taken = 0;
}

/* On the event loop's thread, while the writer thread may be folding: the count is atomic. */
size_t ras_db_fold_slot_bytes(const struct ras_db *db)
{
	const struct ras_db_fold *f = db->fold;

	return f ? __atomic_load_n(&f->bytes, __ATOMIC_RELAXED) : 0;
}

void ras_db_fold_free(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;

	if (!f)
		return;
	for (unsigned i = 0; i < FOLD_SUBJECTS; i++)
		subject_clear(&f->subj[i]);
	ras_db_fold_entries_free(f);
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++) {
		sqlite3_finalize(f->t[i].sel);
		sqlite3_finalize(f->t[i].del);
		sqlite3_finalize(f->t[i].del_known);
		sqlite3_finalize(f->t[i].oldest);
	}
	sqlite3_finalize(f->get);
	sqlite3_finalize(f->ins);
	sqlite3_finalize(f->upd);
	sqlite3_finalize(f->upd_known);
	sqlite3_finalize(f->upd_whole);
	sqlite3_finalize(f->crossed);
	for (unsigned k = 0; k <= RAS_DB_RUNS; k++)
		sqlite3_finalize(f->grow[k]);
	free(f->pending);
	ras_db_hold_free(f->hold);
	free(f);
	db->fold = NULL;
}
