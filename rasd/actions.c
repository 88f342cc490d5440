/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "actions.h"
#include "actions_hash.h"
#include "actions_internal.h"
#include "act_sysfs.h"
#include "triggers.h"
#include "trigger_env.h"
#include "db/db_actions.h"
#include "decision.h"
#include "log.h"
#include "once_seen.h"
#include "lib/clock.h"
#include "lib/decode.h"
#include "lib/subject.h"
#include "lib/threshold.h"
#include "lib/tracing.h"

/*
 * How long one error stays in a bucket (rounded up: never early): a first
 * record whose errors cannot cross alone is held without a row (once_seen.h)
 * for that long per error. Of a kind that counts nothing now, or crosses at
 * every error, a held one can go at once.
 */
int64_t actions_once_leak_ns(const struct ras_threshold *t)
{
	int64_t leak = t->count >= 2 ? t->period_ns / t->count + (t->period_ns % t->count != 0) : 1;

	return leak > 0 ? leak : 1;
}

/* A kind whose action is off counts nothing: no bucket, no decision. */
static void load_thresholds(struct ras_actions *a)
{
	const struct rasd_config *c = a->cfg;
	const char *text[RAS_SUBJ_KINDS] = {
		[RAS_SUBJ_PAGE] = strcmp(c->page_ce_action, "off") ? c->page_ce_threshold : "off",
		[RAS_SUBJ_DIMM] = c->dimm_ce_threshold,
		[RAS_SUBJ_CPU] = strcmp(c->cpu_ce_action, "off") ? c->cpu_ce_threshold : "off",
		[RAS_SUBJ_DEVICE] = c->device_ce_threshold,
		[RAS_SUBJ_ROW] = c->row_ce_threshold,
	};
	a->counted = 0;
	for (int k = 0; k < RAS_SUBJ_KINDS; k++) {
		if (ras_threshold_parse(text[k], &a->th[k]) < 0)
			a->th[k] = (struct ras_threshold){ 0, 0 };
		/* Formatted once, not at each crossing (what a format leaves unwritten stays ""). */
		a->th_text[k][0] = '\0';
		ras_threshold_format(&a->th[k], a->th_text[k], sizeof(a->th_text[k]));
		if (a->th[k].count)
			a->counted |= 1u << k;
		if (a->once)
			ras_once_seen_set_leak(a->once, (unsigned)k, actions_once_leak_ns(&a->th[k]));
	}
}

/* snprintf's "%s", without its cost at every record. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void known_add(struct ras_actions *a, uint64_t h)
{
	uint32_t b1 = (uint32_t)h % KNOWN_BITS, b2 = (uint32_t)(h >> 32) % KNOWN_BITS;

	if (!a->known)
		return;
	a->known[b1 / 64] |= 1ULL << (b1 % 64);
	a->known[b2 / 64] |= 1ULL << (b2 % 64);
	if (++a->known_count > KNOWN_MAX)
		a->known_valid = false;
}

/* False only when the database surely holds no bucket for the subject. */
static inline __attribute__((always_inline)) bool known_maybe(const struct ras_actions *a,
								 uint64_t h)
{
	uint32_t b1 = (uint32_t)h % KNOWN_BITS, b2 = (uint32_t)(h >> 32) % KNOWN_BITS;

	return !a->known_valid || ((a->known[b1 / 64] >> (b1 % 64)) & 1 &&
				   (a->known[b2 / 64] >> (b2 % 64)) & 1);
}

static int known_load_one(void *ctx, const char *kind, const char *subject,
			  const struct ras_db_bucket *b, const char *label)
{
	struct ras_actions *a = ctx;

	(void)b;
	(void)label;
	for (int k = 0; k < RAS_SUBJ_KINDS; k++)
		if (!strcmp(kind, ras_subject_kind_name((enum ras_subject_kind)k)))
			known_add(a, actions_subject_hash((enum ras_subject_kind)k, subject));
	return !a->known_valid;
}

/* The subjects of the database's buckets, into a fresh filter; on any doubt, no filter. */
static void known_load(struct ras_actions *a, struct ras_db *db)
{
	/* Fresh zero pages, not a memset: only the pages a bit lands in become resident. */
	free(a->known);
	a->known = calloc(KNOWN_BITS / 64, sizeof(*a->known));
	a->known_count = 0;
	a->known_valid = db != NULL && a->known;
	if (db && ras_db_bucket_list(db, known_load_one, a) < 0)
		a->known_valid = false;
}

static void known_add_spilled(void *ctx, uint64_t h)
{
	known_add(ctx, h);
}

/* known_load, and the spilled subjects seen once, with the database in use. */
static void known_reload(struct ras_actions *a)
{
	known_load(a, a->dba ? ras_db_actions_db(a->dba) : NULL);
	if (a->known_valid && ras_db_once_spill_keys(a->dba, known_add_spilled, a) < 0)
		a->known_valid = false;
}

int64_t actions_monotonic_ns(void)
{
	struct timespec mono;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	return (int64_t)mono.tv_sec * 1000000000 + mono.tv_nsec;
}

int64_t actions_realtime_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

void ras_actions_reload(struct ras_actions *a)
{
	struct ras_threshold old[RAS_SUBJ_KINDS];
	int64_t now = actions_realtime_ns();
	char was[32], is[32];

	if (!a)
		return;
	memcpy(old, a->th, sizeof(old));
	load_thresholds(a);
	actions_stats_load(a);
	for (int k = 0; k < RAS_SUBJ_KINDS; k++) {
		if (old[k].count == a->th[k].count && old[k].period_ns == a->th[k].period_ns)
			continue;
		ras_threshold_format(&old[k], was, sizeof(was));
		ras_threshold_format(&a->th[k], is, sizeof(is));
		ras_log(LOG_INFO, "%s threshold %s, was %s; buckets kept", ras_subject_kind_name(k),
			is, was);
	}
	/* A bucket in memory leaks at the old rate up to now, at the new one from now on. */
	for (unsigned i = 0; i < CACHE_SLOTS; i++) {
		struct entry *e = &a->slots[i];

		if (!e->used || !e->b.last_ns || !old[e->kind].count ||
		    (old[e->kind].count == a->th[e->kind].count &&
		     old[e->kind].period_ns == a->th[e->kind].period_ns))
			continue;
		ras_bucket_leak(&e->b, &old[e->kind], now);
		e->dirty = true;
	}
}

int ras_actions_open(struct ras_actions **out, const struct rasd_config *cfg, struct ras_db *db,
		     struct ras_triggers *trig)
{
	struct ras_actions *a = calloc(1, sizeof(*a));
	long ps = sysconf(_SC_PAGESIZE);
	int r;

	if (!a)
		return -ENOMEM;
	a->cfg = cfg;
	a->trig = trig;
	a->page_size = ps > 0 ? (uint64_t)ps : 4096;
	a->txn = 1;
	ras_decisions_init(&a->decisions, cfg);
	r = ras_once_seen_new(&a->once, ONCE_SEEN_MAX);
	if (r == 0) {
		load_thresholds(a);
		actions_stats_load(a);
		known_load(a, db);
		r = ras_db_actions_open(db, &a->dba);
	}
	if (r == 0)
		r = actions_buckets_open(a, db);
	if (r == 0)
		r = actions_rows_open(a, db);
	if (r == 0 && db)
		actions_hold_recent_once(a, db);
	if (r < 0) {
		ras_actions_close(a);
		return r;
	}
	*out = a;
	return 0;
}

void ras_actions_set_bmc_sel(struct ras_actions *a, struct rasd_bmc_sel *sel)
{
	if (a)
		a->sel = sel;
}

struct ras_db_actions *ras_actions_dba(const struct ras_actions *a)
{
	return a ? a->dba : NULL;
}

void ras_actions_close(struct ras_actions *a)
{
	if (!a)
		return;
	ras_log_limit_report(&a->decision_lines, "threshold decisions", "");
	actions_rows_close(a);
	actions_buckets_free(a);
	ras_db_actions_close(a->dba);
	ras_once_seen_free(a->once);
	free(a->known);
	free(a->log.undo);
	ras_decisions_free(&a->decisions);
	free(a);
}

/* Keeps e as it was before this transaction's first change to it. */
static void remember(struct ras_actions *a, struct entry *e)
{
	struct txn_log *l = &a->log;

	if (e->txn == a->txn)
		return;
	e->txn = a->txn;
	if (l->n_undo == l->cap_undo) {
		size_t cap = l->cap_undo ? l->cap_undo * 2 : 64;
		struct entry *m = realloc(l->undo, cap * sizeof(*m));

		if (!m) {
			l->undo_incomplete = true;
			return;
		}
		l->undo = m;
		l->cap_undo = cap;
	}
	l->undo[l->n_undo++] = *e;
}

int ras_actions_set_db(struct ras_actions *a, struct ras_db *db)
{
	if (!a)
		return 0;
	actions_buckets_close(a);
	ras_db_actions_close(a->dba);
	a->dba = NULL;
	actions_rows_close(a);
	actions_stats_set_db(a);
	/* Every cached bucket is written again into the new database at the next flush. */
	for (unsigned i = 0; i < CACHE_SLOTS; i++)
		a->slots[i].dirty = a->slots[i].used;
	if (!db)
		return 0;
	known_load(a, db);
	/* The cached ones are written there at the next flush. */
	for (unsigned i = 0; i < CACHE_SLOTS; i++)
		if (a->slots[i].used)
			known_add(a, actions_subject_hash(a->slots[i].kind, a->slots[i].key));
	if (actions_rows_open(a, db) < 0 || actions_buckets_open(a, db) < 0)
		return -EIO;
	return ras_db_actions_open(db, &a->dba);
}

/*
 * A spill statement failed (its temporary file full, say). The spill only
 * saves rows, so it is given up until rasd restarts: new subjects get bucket
 * rows again, and storage never waits on the temporary directory. Only when
 * SQLite rolled the transaction back does the flush fail, so the batch is
 * retried (then without the spill).
 */
static void spill_trouble(struct ras_actions *a, int r)
{
	/* No database, or its transaction failed already (the batch comes again): the spill is fine. */
	if (r == -ENODEV || r == -EPIPE)
		return;
	if (r == -ECANCELED)
		a->spill_failed = true;
	if (!a->spill_off)
		ras_log(LOG_WARNING, "cannot hold subjects seen once in SQLite's temporary storage"
			" (full or not writable?): they get threshold rows until rasd restarts");
	a->spill_off = true;
}

/*
 * A spill add handed to the writer thread that failed (db_actions.h): its
 * transaction is lost already, and the batch comes again; the spill is
 * given up, with the same warning, before it does.
 */
void actions_spill_check(struct ras_actions *a)
{
	int r = ras_db_once_spill_trouble(a->dba);

	if (r < 0)
		spill_trouble(a, r);
}

/*
 * Removes the rows of subjects whose one error has leaked out. Such a row is
 * what a subject seen once leaves when the once-seen memory is full (lookup):
 * for the thresholds it is the same as no row, and a storm over new pages
 * would otherwise leave one per page for good. Looked for once per shortest
 * leak time, up to the newest error's time but never past the clock, so a
 * record dated in the future cannot empty the table.
 */
static int prune_leaked_once(struct ras_actions *a)
{
	int64_t now = actions_realtime_ns(), every = INT64_MAX;
	int r, pruned;

	if (a->newest_ns < now)
		now = a->newest_ns;
	if (now < a->prune_next_ns)
		return 0;
	for (int k = 0; k < RAS_SUBJ_KINDS; k++) {
		const struct ras_threshold *t = &a->th[k];
		int64_t leak;

		if (t->count < 2 || t->period_ns <= 0)
			continue;
		/* One error leaks once (now - last) * count >= period: rounded up, never early. */
		leak = t->period_ns / t->count + (t->period_ns % t->count != 0);
		pruned = now > INT64_MIN + leak ?
			 ras_db_buckets_prune_once(a->dba, ras_subject_kind_name((enum ras_subject_kind)k),
						   now - leak) : 0;
		if (pruned < 0)
			return -EIO;
		/* Rows gone in the open transaction: read from the committed ones no more until it is made. */
		if (pruned > 0)
			actions_buckets_changed(a);
		if (now > INT64_MIN + leak && (r = ras_db_once_spill_prune(a->dba, k, now - leak, leak)) < 0)
			spill_trouble(a, r);
		if (leak < every)
			every = leak;
	}
	if (actions_rows_prune(a, now) < 0)
		return -EIO;
	a->prune_next_ns = now < INT64_MAX - every ? now + every : INT64_MAX;
	/* Too full to tell after a storm: what is left after the prune, counted again. */
	if (!a->known_valid)
		known_reload(a);
	return a->spill_failed ? -EIO : 0;
}

int ras_actions_flush(struct ras_actions *a)
{
	if (!a || !a->dba)
		return 0;
	if (a->spill_failed || actions_stats_flush(a) < 0 || ras_db_actions_flush(a->dba) < 0)
		return -EIO;
	for (unsigned i = 0; i < CACHE_SLOTS; i++) {
		struct entry *e = &a->slots[i];
		struct ras_db_bucket b = { e->b.level, e->b.last_ns, e->total };

		if (!e->used || !e->dirty)
			continue;
		if (actions_bucket_put(a, (int)e->kind, ras_subject_kind_name(e->kind), e->key, &b,
				       e->label) < 0)
			return -EIO;
		e->dirty = false;
	}
	return prune_leaked_once(a);
}

/*
 * actions_slot_for with the key's actions_subject_hash already computed (h).
 * Inlined: a call's register saving was 40 % of its cost per subject.
 */
static inline __attribute__((always_inline)) struct entry *
slot_for_hash(struct ras_actions *a, enum ras_subject_kind kind, const char *key, uint64_t h)
{
	unsigned i = (unsigned)(h % CACHE_SLOTS);

	for (unsigned n = 0; n < CACHE_SLOTS; n++, i = (i + 1) % CACHE_SLOTS) {
		struct entry *e = &a->slots[i];

		if (!e->used || (e->hash == h && e->kind == kind && !strcmp(e->key, key)))
			return e;
	}
	return NULL;
}

/* The slot holding kind/key, or the free slot where it would go; NULL when none is free. */
struct entry *actions_slot_for(struct ras_actions *a, enum ras_subject_kind kind, const char *key)
{
	return slot_for_hash(a, kind, key, actions_subject_hash(kind, key));
}

static struct entry *new_entry(struct ras_actions *a, struct entry *e,
			       const struct ras_subject *s, uint64_t h)
{
	memset(e, 0, sizeof(*e));
	e->kind = s->kind;
	e->hash = h;
	copy_str(e->key, sizeof(e->key), s->key);
	/*
	 * Kept as not there: a rollback takes the entry out again, so the error
	 * given again finds its first one where the rollback put it back (held
	 * as seen once, or the stored bucket) instead of an empty bucket.
	 */
	remember(a, e);
	e->used = true;
	known_add(a, h);
	a->cached++;
	return e;
}

/*
 * Holds a first record's n errors without a bucket: in memory, else (full of
 * errors still leaking: a storm over fresh pages) in the database's temporary
 * spill, an index row of a few bytes instead of a bucket row per subject.
 */
static bool hold_once(struct ras_actions *a, enum ras_subject_kind kind, uint64_t h,
		      int64_t wall_ns, unsigned n)
{
	int r = ras_once_seen_add(a->once, kind, h, wall_ns, n, a->newest_ns);

	if (r != -ENOSPC)
		return r == 0;
	actions_spill_check(a);
	if (a->spill_off)
		return false;
	r = ras_db_once_spill_add(a->dba, kind, h, wall_ns, n);
	if (r == 0) {
		known_add(a, h);
		return true;
	}
	spill_trouble(a, r);
	return false;
}

/*
 * The subject's bucket: from memory; else from the subjects seen once
 * (*first_ns and *first_n: that record's time and errors, to replay); else
 * from the database (none when resuming: its row holds the errors); else
 * from the spilled subjects seen once; else a new one. A first record whose
 * errors cannot cross alone (fewer than count: a DIMM's error_count of 3
 * against 50/24h) gets no bucket: it is held as seen once (NULL). Holding
 * only single errors left a bucket row for every page and row of a varied
 * storm whose record counted two or more (86,000 of make bench's 1M).
 */
static struct entry *lookup(struct ras_actions *a, const struct ras_subject *s, uint64_t h,
			    int64_t wall_ns, enum counting how, int64_t *first_ns, unsigned *first_n)
{
	struct entry *e = slot_for_hash(a, s->kind, s->key, h);
	struct ras_db_bucket b;
	int r = 0;

	if (e && e->used)
		return e;
	/* Full enough: write what changed and start over; the database keeps everything. */
	if (a->cached >= CACHE_SLOTS * 3 / 4) {
		if (ras_actions_flush(a) < 0)
			return NULL;
		memset(a->slots, 0, sizeof(a->slots));
		a->cached = 0;
		return lookup(a, s, h, wall_ns, how, first_ns, first_n);
	}
	if (!e)
		return NULL;
	if (ras_once_seen_take(a->once, s->kind, h, first_ns, first_n) == 1)
		return new_entry(a, e, s, h);
	if (known_maybe(a, h) &&
	    actions_bucket_get(a, (int)s->kind, ras_subject_kind_name(s->kind), s->key, &b) == 1) {
		if (how == COUNT_RESUME)
			return NULL;
		new_entry(a, e, s, h);
		e->b.level = b.level;
		e->b.last_ns = b.last_ns;
		e->total = b.total;
		e->stored = true;
		return e;
	}
	if (known_maybe(a, h) &&
	    (r = ras_db_once_spill_take(a->dba, s->kind, h, first_ns, first_n)) == 1)
		return new_entry(a, e, s, h);
	if (r < 0)
		spill_trouble(a, r);
	if (!s->at_once && s->n >= 1 && s->n < (int64_t)a->th[s->kind].count &&
	    hold_once(a, s->kind, h, wall_ns, (unsigned)s->n))
		return NULL;
	return new_entry(a, e, s, h);
}

/* actions_count_errors with the subject's actions_subject_hash (h) computed. */
static struct entry *count_hashed(struct ras_actions *a, const struct ras_subject *s, uint64_t h,
				  int64_t wall_ns, enum counting how)
{
	const struct ras_threshold *th = &a->th[s->kind];
	int64_t first_ns = INT64_MIN;
	unsigned first_n = 0;
	struct entry *e;

	if (wall_ns > a->newest_ns)
		a->newest_ns = wall_ns;
	if (!th->count || !(e = lookup(a, s, h, wall_ns, how, &first_ns, &first_n)))
		return NULL;
	remember(a, e);
	/* Seen once before: that record's errors first. */
	if (first_ns != INT64_MIN) {
		e->total += first_n;
		ras_bucket_add(&e->b, th, first_ns, first_n);
	}
	if (!(how == COUNT_REBUILD && e->stored))
		e->total += s->n;
	e->dirty = true;
	if (s->label[0])
		copy_str(e->label, sizeof(e->label), s->label);
	/* The device's own threshold (a CXL threshold event) acts at once. */
	return ras_bucket_add(&e->b, th, wall_ns, s->n) || s->at_once ? e : NULL;
}

/* Counts the subject's errors; the bucket when it crossed (the caller empties it), else NULL. */
struct entry *actions_count_errors(struct ras_actions *a, const struct ras_subject *s,
				   int64_t wall_ns, enum counting how)
{
	return count_hashed(a, s, actions_subject_hash(s->kind, s->key), wall_ns, how);
}

/* A page action on the subject's address: soft, hard, or soft and then hard if soft failed. */
int actions_page_action(const struct ras_actions *a, const char *how, uint64_t addr, bool probe,
			char *target, size_t len)
{
	const char *root = a->cfg->sysfs_root;
	int r;

	if (strcmp(how, "soft-then-hard"))
		return act_offline_page(root, how, addr, probe, target, len);
	r = act_offline_page(root, "soft", addr, probe, target, len);
	if (r < 0 && r != -EOPNOTSUPP && !probe)
		r = act_offline_page(root, "hard", addr, false, target, len);
	return r;
}

/*
 * Performs (or with probe, only checks the kernel offers) the action;
 * act->action may change when a row falls back to its page.
 */
static int perform(struct ras_actions *a, const struct ras_subject *s, struct ras_db_action *act,
		   bool probe)
{
	const char *page_how = a->cfg->page_ce_action;
	bool page_acts = strcmp(page_how, "off") && strcmp(page_how, "account");
	int r;

	if (!strcmp(act->action, "account"))
		return 0;
	if (s->kind == RAS_SUBJ_CPU)
		return act_offline_cpus(a->cfg->sysfs_root, s, probe, act->target, sizeof(act->target));
	if (s->kind == RAS_SUBJ_PAGE)
		return actions_page_unless_row(a, s, act->action, probe, act->target, sizeof(act->target));
	/* A row: repair where the kernel can, else the page action on its address. */
	if (!strcmp(act->action, "repair")) {
		r = act_repair_row(a->cfg->sysfs_root, s, probe, act->target, sizeof(act->target));
		if (r != -EOPNOTSUPP)
			return r;
	}
	if (!s->have_addr || !page_acts) {
		snprintf(act->action, sizeof(act->action), "account");
		return 0;
	}
	snprintf(act->action, sizeof(act->action), "%s", page_how);
	return actions_rows_own_page(a, s, page_how, probe, act->target, sizeof(act->target));
}

/*
 * The crossing's action, probed first (a row may fall back to its page, and
 * the target is known even when nothing is written), decided (decision.c),
 * then performed when it goes ahead.
 */
static void decide(struct ras_actions *a, const struct ras_subject *s, struct ras_db_action *act,
		   bool synthetic)
{
	int r;

	copy_str(act->action, sizeof(act->action),
		 s->uncorrected ? "offline" : ras_decision_configured(a->cfg, s->kind));
	r = perform(a, s, act, true);
	if (!ras_decision_go_ahead(&a->decisions, a->dba, s->kind, act, r, synthetic))
		return;
	r = perform(a, s, act, false);
	ras_decision_performed(act, r);
}

#define DECISION_LOG_INTERVAL_NS (60LL * 1000000000LL)
/*
 * And at most this many decision lines a minute in all, failures aside: a
 * storm over thousands of pages or rows, each crossing its threshold once,
 * would log a line per subject, past journald's own limit.
 */
#define DECISION_LINES_PER_MINUTE 600

/* Every decision is stored; a subject's decisions are logged at most once a minute. */
static void log_decision(struct ras_actions *a, struct entry *e, const struct ras_db_action *act)
{
	char f[6][200];
	const char *fields[7] = { f[0], f[1], f[2], f[3], f[4], f[5], NULL };
	bool failed = !strcmp(act->result, "failed") || !strcmp(act->result, "refused");
	char more[64] = "", why[96] = "";

	if (!failed && ((e->logged_ns && act->wall_ns - e->logged_ns < DECISION_LOG_INTERVAL_NS) ||
			!ras_log_limit_allows(&a->decision_lines, DECISION_LINES_PER_MINUTE,
					      "threshold decisions", ""))) {
		e->unlogged++;
		return;
	}
	if (e->unlogged)
		snprintf(more, sizeof(more), " (%lu earlier decisions not logged)", e->unlogged);
	e->logged_ns = act->wall_ns;
	e->unlogged = 0;
	snprintf(f[0], sizeof(f[0]), "RAS_SUBJECT_KIND=%s", act->kind);
	snprintf(f[1], sizeof(f[1]), "RAS_SUBJECT=%s", act->subject);
	snprintf(f[2], sizeof(f[2]), "RAS_ACTION=%s", act->action);
	snprintf(f[3], sizeof(f[3]), "RAS_RESULT=%s", act->result);
	snprintf(f[4], sizeof(f[4]), "RAS_COUNT=%lld", (long long)act->count);
	snprintf(f[5], sizeof(f[5]), "RAS_THRESHOLD=%s", act->threshold);
	if (failed)
		snprintf(why, sizeof(why), " (%s)", strerror(act->error));
	else if (!strcmp(act->result, "dry-run") && act->error == EOPNOTSUPP)
		snprintf(why, sizeof(why), ", and the kernel lacks the interface");
	ras_log_fields(failed ? LOG_ERR : LOG_WARNING, RAS_ACTION_MESSAGE_ID, fields,
		       "%s %s: %lld corrected errors crossed %s; %s: %s%s%s", act->kind,
		       act->subject, (long long)act->count, act->threshold, act->action, act->result,
		       why, more);
	if (act->target[0])
		ras_log(LOG_INFO, "%s %s: %s", act->kind, act->subject, act->target);
}

/* snprintf's "%s-threshold", without its cost at every crossing. */
static void condition_of(char *out, size_t len, const char kind[16])
{
	static const char suffix[] = "-threshold";
	size_t n = strnlen(kind, 16), m = sizeof(suffix) - 1;

	if (n > len - 1)
		n = len - 1;
	memcpy(out, kind, n);
	if (m > len - 1 - n)
		m = len - 1 - n;
	memcpy(out + n, suffix, m);
	out[n + m] = '\0';
}

static void crossed(struct ras_actions *a, const struct ras_subject *s, struct entry *e,
		    const struct ras_event_type *type, const void *decoded,
		    const struct ras_db_event *ev, int64_t row_id)
{
	struct ras_db_action act = { .count = e->b.level, .synthetic = ev->synthetic,
				     .event_id = row_id };
	char condition[32];
	struct timespec now;
	struct ras_trigger_env env;

	if (ras_decisions_given_back(&a->decisions, s, ev, &act)) {
		/* Acted on already, in a transaction that was rolled back: only stored now. */
		act.event_id = row_id;
		if (ras_db_action_insert(a->dba, &act, ras_decision_foldable(&act)) < 0)
			ras_log(LOG_ERR, "cannot store the action on %s %s", act.kind, act.subject);
		ras_decisions_keep(&a->decisions, s, ev, &act);
		actions_rows_crossed(a, s, &act, ev);
		return;
	}
	/* Decided now, whenever the record was made: caps and listings go by this time. */
	clock_gettime(CLOCK_REALTIME, &now);
	act.wall_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	copy_str(act.kind, sizeof(act.kind), ras_subject_kind_name(s->kind));
	copy_str(act.subject, sizeof(act.subject), s->key);
	copy_str(act.event_table, sizeof(act.event_table), type->table);
	if (s->uncorrected)
		copy_str(act.threshold, sizeof(act.threshold), "recoverable error");
	else if (s->at_once)
		copy_str(act.threshold, sizeof(act.threshold), "device threshold");
	else
		copy_str(act.threshold, sizeof(act.threshold), a->th_text[s->kind]);
	decide(a, s, &act, ev->synthetic);
	if (ras_db_action_insert(a->dba, &act, ras_decision_foldable(&act)) < 0)
		ras_log(LOG_ERR, "cannot store the action on %s %s", act.kind, act.subject);
	ras_decisions_keep(&a->decisions, s, ev, &act);
	log_decision(a, e, &act);
	/* A row's other pages: after its own decision, before the trigger is told of it. */
	actions_rows_crossed(a, s, &act, ev);
	rasd_bmc_sel_crossing(a->sel, a->dba, &act);
	_Static_assert(sizeof(act.kind) == 16, "kind");
	condition_of(condition, sizeof(condition), act.kind);
	if (!ras_triggers_installed(a->trig, condition))
		return;
	ras_trigger_env_record(&env, condition, type, decoded, ev, row_id);
	ras_trigger_env_action(&env, s, &act, e->total);
	ras_triggers_run(a->trig, condition, env.ptr);
}

/*
 * cpu_ue_offline: an ARM processor error the firmware calls recoverable
 * (uncorrected, not fatal) that is the core's own failure offlines that CPU
 * at once, as rasdaemon does; the decision goes through the same checks as a
 * threshold's (dry run, synthetic records, rate limit, daily cap,
 * cpu_offline_limit). Its bucket is left as it is.
 */
static void offline_at_ue(struct ras_actions *a, const struct ras_event_type *type,
			  const void *decoded, const struct ras_db_event *ev, int64_t row_id)
{
	const struct ras_decoded_head *h = decoded;
	struct ras_subject subj[RAS_SUBJECTS_MAX];
	int n;

	if (!a->cfg->cpu_ue_offline || h->severity != RAS_SEV_UNCORRECTED || strcmp(type->table, "arm_event"))
		return;
	n = ras_subjects_any(type, ev->values, decoded, a->page_size, 1u << RAS_SUBJ_CPU, subj);
	for (int i = 0; i < n; i++) {
		struct entry e = { .kind = RAS_SUBJ_CPU };

		if (subj[i].kind != RAS_SUBJ_CPU)
			continue;
		subj[i].at_once = subj[i].uncorrected = true;
		e.b.level = subj[i].n;
		e.total = subj[i].n;
		crossed(a, &subj[i], &e, type, decoded, ev, row_id);
	}
}

void ras_actions_record(struct ras_actions *a, const struct ras_event_type *type,
			const void *decoded, const struct ras_db_event *ev, int64_t row_id)
{
	const struct ras_decoded_head *h = decoded;
	struct ras_subject subj[RAS_SUBJECTS_MAX];
	const struct ras_subject *all = subj;
	uint64_t buf[RAS_SUBJECTS_MAX];
	const uint64_t *hash;
	int n;

	if (!a)
		return;
	/* Both machine-wide warnings are off by default: no call per record then. */
	if (a->stats.rate_th.count || a->cfg->poison_threshold_kb)
		actions_stats_record(a, type, decoded, ev, row_id);
	if (h->severity >= RAS_SEV_DEFERRED) {
		struct ras_trigger_env env;

		/* the CPU first: the BMC may take seconds to answer */
		offline_at_ue(a, type, decoded, ev, row_id);
		rasd_bmc_sel_record(a->sel, a->dba, type, decoded, ev, row_id);
		if (!ras_triggers_installed(a->trig, "uncorrected"))
			return;
		ras_trigger_env_record(&env, "uncorrected", type, decoded, ev, row_id);
		ras_triggers_run(a->trig, "uncorrected", env.ptr);
		return;
	}
	/* The pipeline's subjects when they cover every kind counted here (folding on). */
	if (ev->subjects && (ev->subject_kinds & a->counted) == a->counted) {
		all = ev->subjects;
		n = ev->n_subjects;
	} else {
		n = ras_subjects_of(type, ev->values, decoded, a->page_size, a->counted, subj);
	}
	/* Hashed once, their slots fetched before the record was stored or now (actions_prefetch.c). */
	hash = actions_subjects_hashed(a, ev, all, n, buf);
	for (int i = 0; i < n; i++) {
		/* Rows' pages only where a crossed row acts on them: asked here, not in each call. */
		bool rows = actions_rows_take_pages(a, &all[i]);
		struct entry *e;

		if (rows)
			actions_rows_note(a, &all[i], type, ev, row_id);
		if (!(e = count_hashed(a, &all[i], hash[i], ev->wall_ns, COUNT_LIVE))) {
			if (rows)
				actions_rows_later(a, &all[i], type, ev);
			continue;
		}
		crossed(a, &all[i], e, type, decoded, ev, row_id);
		/* Acted upon: the bucket starts empty again. */
		e->b.level = 0;
	}
}

int ras_actions_note(struct ras_actions *a, const struct ras_db_action *act)
{
	if (!a)
		return -ENODEV;
	return ras_db_action_insert(a->dba, act, false) < 0 ? -EIO : 0;
}

void ras_actions_lost(struct ras_actions *a, int cpu, long long count)
{
	struct ras_trigger_env env;

	if (!a)
		return;
	ras_trigger_env_lost(&env, cpu, count);
	ras_triggers_run(a->trig, "lost-records", env.ptr);
}
