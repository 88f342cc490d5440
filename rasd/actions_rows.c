/* SPDX-License-Identifier: MIT */
/*
 * A crossed DRAM row acts on every page recorded in it (issue 36), as
 * rasdaemon 0.8.5 retires every page of a row, not only the page of the
 * record that crossed.
 *
 * Every corrected record naming a row and a host address notes its page
 * (db/db_row_pages.c: a table, not the stored records, because a row is a
 * subject decoded from several event types' fields and a folded storm keeps
 * no address per record; reading them back would mean decoding every record
 * of the period again, and folds would lose pages). At most row_pages_max
 * pages a row: the records of pages past it are counted, and told as a
 * "row-limit" decision when the row acts, never dropped silently.
 *
 * When the row crosses, its one decision is taken as for any subject (rate
 * limit, daily cap, dry run: rasd/decision.c) on the crossing record's page;
 * when it went ahead (or was a dry run), every other recorded page not yet
 * offlined gets the same page action, each a row of its own in actions, none
 * held back by action_min_interval_s: the row was one decision. A later
 * record naming a new page of a crossed row acts on that page at once. A page
 * offlined ("done") is not acted on again in that boot, across restarts too; one whose
 * action failed, was a dry run or unsupported is tried again when the row
 * crosses again. Nor is a page its own threshold offlined (a page decision
 * done): the kernel would take the write as a no-op, and a second action on
 * record would be false; the row's decision on such a page writes nothing
 * and says so in its target. The reverse too: a page's own decision on a
 * page a row offlined writes nothing. Offlining is not kept across a
 * reboot: "offline" is the kernel's page flags when they can be read, else
 * this boot's actions, and a page offlined in an earlier boot is acted on
 * as one never acted on.
 *
 * The pages' actions are stored with threshold "crossed row"
 * (RAS_DB_ROW_PAGE_THRESHOLD): the daily cap counts the row's decision once,
 * not its pages, which row_pages_max bounds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "act_sysfs.h"
#include "actions_internal.h"
#include "db/db_row_pages.h"
#include "lib/threshold.h"

/* A row key's hash: the crossed rows are few (a daily cap of decisions), kept in a plain array. */
static uint64_t row_hash(const char *key)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return h;
}

static bool row_is_crossed(const struct ras_actions *a, const char *key)
{
	uint64_t h = row_hash(key);

	for (size_t i = 0; i < a->rows.n_crossed; i++)
		if (a->rows.crossed[i] == h)
			return true;
	return false;
}

static void row_add_crossed(void *ctx, const char *key)
{
	struct ras_actions *a = ctx;
	uint64_t h = row_hash(key);

	if (row_is_crossed(a, key))
		return;
	if (a->rows.n_crossed == a->rows.cap_crossed) {
		size_t cap = a->rows.cap_crossed ? a->rows.cap_crossed * 2 : 16;
		uint64_t *m = realloc(a->rows.crossed, cap * sizeof(*m));

		if (!m)
			return;   /* its later new pages wait for its next crossing */
		a->rows.crossed = m;
		a->rows.cap_crossed = cap;
	}
	a->rows.crossed[a->rows.n_crossed++] = h;
}

/*
 * The crossed rows, read from the database: at open, and after a rollback,
 * which may have undone a crossing (the retried record crosses again) and
 * the offlined marks of its pages: a set kept as it was would act on those
 * pages again as a crossed row's new pages, before the crossing gives its
 * decisions back. Read in the retried transaction, at the next row record.
 */
static int load_crossed(struct ras_actions *a)
{
	a->rows.n_crossed = 0;
	a->rows.stale = false;
	return ras_db_rows_crossed(a->rows.db, row_add_crossed, a) < 0 ? -EIO : 0;
}

int actions_rows_open(struct ras_actions *a, struct ras_db *db)
{
	actions_rows_close(a);
	if (!db)
		return 0;
	if (ras_db_row_pages_open(db, &a->rows.db) < 0)
		return -EIO;
	return load_crossed(a);
}

void actions_rows_close(struct ras_actions *a)
{
	ras_db_row_pages_close(a->rows.db);
	a->rows.db = NULL;
	free(a->rows.crossed);
	a->rows.crossed = NULL;
	a->rows.n_crossed = a->rows.cap_crossed = 0;
}

void actions_rows_note(struct ras_actions *a, const struct ras_subject *s,
		       const struct ras_event_type *type, const struct ras_db_event *ev,
		       int64_t row_id)
{
	if (!actions_rows_take_pages(a, s))
		return;
	if (ras_db_row_page_note(a->rows.db, s->key, s->addr & ~(a->page_size - 1), ev->wall_ns,
				 type->table, row_id, a->cfg->row_pages_max) < 0)
		ras_log(LOG_ERR, "cannot keep the page of row %s", s->key);
}

/* What acting on a row's pages is given: the row, its record, and the decision's copy for each page. */
struct row_act {
	struct ras_actions *a;
	const struct ras_subject *s;
	const struct ras_db_event *ev;
	struct ras_db_action tmpl;
	uint64_t skip;          /* the crossing record's page, decided with the row */
	unsigned done, failed, other, offline;
};

/* Stores a page's decision; new (not given back by a rolled-back transaction): counted for the log. */
static void store_page(struct row_act *r, uint64_t page, const struct ras_db_action *act, bool new)
{
	struct ras_actions *a = r->a;

	if (ras_db_action_insert(a->dba, act, ras_decision_foldable(act)) < 0)
		ras_log(LOG_ERR, "cannot store the action on row %s", act->subject);
	if (ras_db_row_page_acted(a->rows.db, r->s->key, page, act->result) < 0)
		ras_log(LOG_ERR, "cannot store the action on a page of row %s", act->subject);
	ras_decisions_keep_page(&a->decisions, r->s, r->ev, page, act);
	if (!new)
		return;
	if (!strcmp(act->result, "done"))
		r->done++;
	else if (!strcmp(act->result, "failed")) {
		r->failed++;
		ras_log(LOG_ERR, "row %s: %s (%s)", act->subject, act->target, strerror(act->error));
	} else
		r->other++;
}

/* Who holds a page offline now: nobody, its own threshold, a row's page action, the kernel. */
enum offline_by { OFF_NONE, OFF_PAGE, OFF_ROW, OFF_KERNEL };

static const char *const offline_by_name[] = {
	[OFF_NONE] = "", [OFF_PAGE] = "page threshold", [OFF_ROW] = "row action",
	[OFF_KERNEL] = "kernel: hwpoison",
};

/*
 * Whether the page is offline now, and by whom. Offlining is not kept across
 * a reboot, so the kernel's page flags answer when they can be read (root,
 * CONFIG_PROC_PAGE_MONITOR; a test's proc_root), else this boot's actions;
 * the actions name who did it. own: the page's own decisions count (a row's
 * action; the page's own second crossing writes again, as any subject's).
 */
static enum offline_by offline_now(const struct ras_actions *a, uint64_t page, bool own)
{
	int k = act_page_hwpoison(a->cfg->proc_root, page, a->page_size);

	if (k == 0)
		return OFF_NONE;
	if (a->rows.db && own && ras_db_page_offlined(a->rows.db, page) > 0)
		return OFF_PAGE;
	/* No row ever crossed, none offlined a page: a page's crossing in a storm asks nothing. */
	if (a->rows.db && (a->rows.n_crossed || a->rows.stale) &&
	    ras_db_page_row_offlined(a->rows.db, page) > 0)
		return OFF_ROW;
	return k > 0 ? OFF_KERNEL : OFF_NONE;
}

/* The row's page action on one of its pages: probed, decided (no rate limit), performed. */
static void act_on_page(struct row_act *r, uint64_t page, const char *event_table, int64_t event_id)
{
	struct ras_actions *a = r->a;
	struct ras_db_action act = r->tmpl;
	int rc;

	if (page == r->skip)
		return;
	snprintf(act.event_table, sizeof(act.event_table), "%s", event_table);
	snprintf(act.threshold, sizeof(act.threshold), "%s", RAS_DB_ROW_PAGE_THRESHOLD);
	act.event_id = event_id;
	/* Acted on already, in a transaction that was rolled back: only stored now. */
	if (ras_decisions_given_back_page(&a->decisions, r->s, r->ev, page, &act)) {
		store_page(r, page, &act, false);
		return;
	}
	/* Offline now (its own threshold, the kernel): not written again, nor on record twice. */
	if (offline_now(a, page, true) != OFF_NONE) {
		if (ras_db_row_page_acted(a->rows.db, r->s->key, page, "done") < 0)
			ras_log(LOG_ERR, "cannot store the action on a page of row %s", act.subject);
		r->offline++;
		return;
	}
	snprintf(act.action, sizeof(act.action), "%s", a->cfg->page_ce_action);
	act.target[0] = '\0';
	act.wall_ns = actions_realtime_ns();
	rc = actions_page_action(a, act.action, page, true, act.target, sizeof(act.target));
	if (ras_decision_row_page(&a->decisions, &act, rc, act.synthetic)) {
		rc = actions_page_action(a, act.action, page, false, act.target, sizeof(act.target));
		ras_decision_performed(&act, rc);
	}
	store_page(r, page, &act, true);
}

/* Pages the bound kept out of the row since it was last told: one "row-limit" decision. */
static void tell_over(struct row_act *r)
{
	struct ras_actions *a = r->a;
	struct ras_db_action act = r->tmpl;
	int64_t n = 0;

	if (ras_db_row_over_take(a->rows.db, r->s->key, &n) < 0 || n <= 0)
		return;
	snprintf(act.action, sizeof(act.action), "%s", a->cfg->page_ce_action);
	snprintf(act.result, sizeof(act.result), "row-limit");
	act.error = 0;
	act.wall_ns = actions_realtime_ns();
	snprintf(act.target, sizeof(act.target),
		 "%lld records of pages past row_pages_max (%u): not kept", (long long)n,
		 a->cfg->row_pages_max);
	if (ras_db_action_insert(a->dba, &act, false) < 0)
		ras_log(LOG_ERR, "cannot store the action on row %s", act.subject);
	ras_log(LOG_WARNING, "row %s: %s", act.subject, act.target);
}

/* The pages to act on, read whole before any is acted on: acting writes to the same table. */
struct pending {
	struct pending_page { uint64_t page; int64_t event_id; char event_table[48]; } *v;
	size_t n, cap;
};

static int pending_add(void *ctx, uint64_t page, const char *event_table, int64_t event_id)
{
	struct pending *p = ctx;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct pending_page *m = realloc(p->v, cap * sizeof(*m));

		if (!m)
			return 1;   /* the rest wait for the row's next crossing */
		p->v = m;
		p->cap = cap;
	}
	p->v[p->n].page = page;
	p->v[p->n].event_id = event_id;
	snprintf(p->v[p->n].event_table, sizeof(p->v[0].event_table), "%s", event_table);
	p->n++;
	return 0;
}

static void act_on_pages(struct row_act *r, bool again)
{
	struct pending p = { 0 };

	if (ras_db_row_pages_pending(r->a->rows.db, r->s->key, again, pending_add, &p) < 0)
		ras_log(LOG_ERR, "cannot read the pages of row %s", r->s->key);
	for (size_t i = 0; i < p.n; i++)
		act_on_page(r, p.v[i].page, p.v[i].event_table, p.v[i].event_id);
	free(p.v);
	tell_over(r);
	if (r->done + r->failed + r->other)
		ras_log(LOG_WARNING, "row %s: %s on %u more pages of the row: %u done, %u failed,"
			" %u %s", r->s->key, r->tmpl.action, r->done + r->failed + r->other, r->done,
			r->failed, r->other, r->other ? "not performed (see ras-fdr-ctl actions)" : "other");
	if (r->offline)
		ras_log(LOG_INFO, "row %s: %u more pages of the row offline already (their own"
			" threshold or the kernel's)", r->s->key, r->offline);
}

/* The page action on the subject's page, unless it is offline now (said in target, 0). */
static int page_unless_offline(const struct ras_actions *a, const struct ras_subject *s,
			       bool own, const char *how, bool probe, char *target, size_t len)
{
	uint64_t page = s->addr & ~(a->page_size - 1);
	enum offline_by by = offline_now(a, page, own);

	if (by != OFF_NONE) {
		snprintf(target, len, "0x%llx offline already (%s): nothing written",
			 (unsigned long long)page, offline_by_name[by]);
		return 0;
	}
	return actions_page_action(a, how, own ? page : s->addr, probe, target, len);
}

int actions_rows_own_page(const struct ras_actions *a, const struct ras_subject *s,
			  const char *how, bool probe, char *target, size_t len)
{
	return page_unless_offline(a, s, true, how, probe, target, len);
}

int actions_page_unless_row(const struct ras_actions *a, const struct ras_subject *s,
			    const char *how, bool probe, char *target, size_t len)
{
	return page_unless_offline(a, s, false, how, probe, target, len);
}

void actions_rows_crossed(struct ras_actions *a, const struct ras_subject *s,
			  const struct ras_db_action *act, const struct ras_db_event *ev)
{
	struct row_act r = { .a = a, .s = s, .ev = ev, .tmpl = *act };
	bool went = !strcmp(act->result, "done") || !strcmp(act->result, "failed");

	/* Repaired, accounted, or held back (rate limit, cap): the pages wait for the next crossing. */
	if (!actions_rows_take_pages(a, s) || strcmp(act->action, a->cfg->page_ce_action) ||
	    (!went && strcmp(act->result, "dry-run")))
		return;
	r.skip = s->addr & ~(a->page_size - 1);
	if (ras_db_row_page_acted(a->rows.db, s->key, r.skip, act->result) < 0 ||
	    ras_db_row_crossed(a->rows.db, s->key, act->wall_ns) < 0)
		ras_log(LOG_ERR, "cannot store the crossing of row %s", s->key);
	row_add_crossed(a, s->key);
	act_on_pages(&r, true);
}

void actions_rows_later(struct ras_actions *a, const struct ras_subject *s,
			const struct ras_event_type *type, const struct ras_db_event *ev)
{
	struct row_act r;

	if (!actions_rows_take_pages(a, s))
		return;
	if (a->rows.stale && load_crossed(a) < 0)
		ras_log(LOG_ERR, "cannot read the crossed rows");
	if (!row_is_crossed(a, s->key))
		return;
	/* Filled only for a crossed row: it holds a whole decision, cleared at every record before. */
	r = (struct row_act){ .a = a, .s = s, .ev = ev, .skip = 0 };
	r.tmpl = (struct ras_db_action){ .count = s->n, .synthetic = ev->synthetic };
	snprintf(r.tmpl.kind, sizeof(r.tmpl.kind), "%s", ras_subject_kind_name(s->kind));
	snprintf(r.tmpl.subject, sizeof(r.tmpl.subject), "%s", s->key);
	snprintf(r.tmpl.event_table, sizeof(r.tmpl.event_table), "%s", type->table);
	snprintf(r.tmpl.action, sizeof(r.tmpl.action), "%s", a->cfg->page_ce_action);
	snprintf(r.tmpl.threshold, sizeof(r.tmpl.threshold), "crossed row");
	act_on_pages(&r, false);
}

int actions_rows_prune(struct ras_actions *a, int64_t now)
{
	const struct ras_threshold *t = &a->th[RAS_SUBJ_ROW];

	if (!a->rows.db || !t->count || t->period_ns <= 0 || now <= INT64_MIN + t->period_ns)
		return 0;
	return ras_db_row_pages_prune(a->rows.db, now - t->period_ns) < 0 ? -EIO : 0;
}
