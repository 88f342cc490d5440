/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "decision.h"
#include "act_sysfs.h"

#define DAY_NS (86400LL * 1000000000LL)

/*
 * A decision taken in a transaction that was rolled back: the record comes
 * again when the transaction is retried, and crosses again at the same
 * point; it gets this decision back instead of acting (and triggering) twice.
 */
struct ras_decided {
	enum ras_subject_kind kind;
	char key[128];
	uint64_t rec_hash;
	int64_t event_ns;
	uint64_t page;          /* a page of a crossed row (actions_rows.c); 0: the crossing's own */
	struct ras_db_action act;
};

void ras_decisions_init(struct ras_decisions *d, const struct rasd_config *cfg)
{
	memset(d, 0, sizeof(*d));
	d->cfg = cfg;
}

void ras_decisions_free(struct ras_decisions *d)
{
	free(d->made);
	free(d->redo);
}

const char *ras_decision_configured(const struct rasd_config *cfg, enum ras_subject_kind kind)
{
	switch (kind) {
	case RAS_SUBJ_PAGE: return cfg->page_ce_action;
	case RAS_SUBJ_CPU: return cfg->cpu_ce_action;
	case RAS_SUBJ_ROW: return cfg->memory_repair ? "repair" : "page";
	default: return "account";
	}
}

/*
 * Rate limit and daily cap per kind, and the CPUs offline in all (rasdaemon's
 * CPU_ISOLATION_LIMIT); NULL when the action may go ahead.
 */
static const char *limited(struct ras_decisions *d, struct ras_db_actions *dba,
			   enum ras_subject_kind kind, int64_t now)
{
	int64_t n = 0;

	if (kind == RAS_SUBJ_CPU && d->cfg->cpu_offline_limit &&
	    act_offline_cpu_count(d->cfg->sysfs_root) >= (int)d->cfg->cpu_offline_limit)
		return "cpu-limit";
	if (d->last_act_ns[kind] &&
	    now - d->last_act_ns[kind] < (int64_t)d->cfg->action_min_interval_s * 1000000000)
		return "rate-limited";
	if (ras_db_action_count_since(dba, ras_subject_kind_name(kind), now - DAY_NS, &n) == 0 &&
	    n >= (int64_t)d->cfg->action_max_per_day)
		return "capped";
	return NULL;
}

static void set_result(struct ras_db_action *act, const char *result, int err)
{
	snprintf(act->result, sizeof(act->result), "%s", result);
	act->error = err;
}

/*
 * Whether a write may be made at all, the result set when not: a record
 * naming something no path may be made of (a device name with "../") is
 * refused; a dry run writes nothing whatever the kernel offers (it is one,
 * with the write it would have made, act->target, filled by the probe, and
 * the kernel's lack of the interface kept as its error); else the kernel
 * must have the interface.
 */
static bool may_write(const struct ras_decisions *d, struct ras_db_action *act, int probed, bool synthetic)
{
	if (probed == -EINVAL) {
		set_result(act, "refused", EINVAL);
		return false;
	}
	if (d->cfg->dry_run || (synthetic && !d->cfg->synthetic_actions)) {
		set_result(act, "dry-run", probed == -EOPNOTSUPP ? EOPNOTSUPP : 0);
		return false;
	}
	if (probed == -EOPNOTSUPP) {
		set_result(act, "unsupported", EOPNOTSUPP);
		return false;
	}
	return true;
}

bool ras_decision_go_ahead(struct ras_decisions *d, struct ras_db_actions *dba,
			   enum ras_subject_kind kind, struct ras_db_action *act, int probed,
			   bool synthetic)
{
	struct timespec now;
	const char *why;

	if (probed != -EINVAL && !strcmp(act->action, "account")) {
		set_result(act, "done", 0);
		return false;
	}
	if (!may_write(d, act, probed, synthetic))
		return false;
	clock_gettime(CLOCK_REALTIME, &now);
	why = limited(d, dba, kind, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
	if (why) {
		set_result(act, why, 0);
		return false;
	}
	d->last_act_ns[kind] = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	return true;
}

bool ras_decision_row_page(struct ras_decisions *d, struct ras_db_action *act, int probed,
			   bool synthetic)
{
	return may_write(d, act, probed, synthetic);
}

void ras_decision_performed(struct ras_db_action *act, int r)
{
	set_result(act, r < 0 ? "failed" : "done", r < 0 ? -r : 0);
}

/*
 * Only what left the machine as it was may fold (ras_db_action_insert), i.e.
 * "account", dry runs, rate-limited, capped and unsupported, which a storm
 * repeats at every crossing (3 rows per 100 records of a stuck bit). An
 * action performed, done or failed (a page or CPU taken offline, a row
 * repaired), always keeps a row of its own with its time and record: each is
 * on record as it happened, and the daily cap counts those rows. Triggers run
 * at every crossing whether its row folds or not.
 */
bool ras_decision_foldable(const struct ras_db_action *act)
{
	return !strcmp(act->action, "account") ||
	       (strcmp(act->result, "done") && strcmp(act->result, "failed"));
}

void ras_decisions_keep_page(struct ras_decisions *d, const struct ras_subject *s,
			     const struct ras_db_event *ev, uint64_t page,
			     const struct ras_db_action *act)
{
	if (d->n_made == d->cap_made) {
		size_t cap = d->cap_made ? d->cap_made * 2 : 16;
		struct ras_decided *m = realloc(d->made, cap * sizeof(*m));

		if (!m)
			return;   /* the retry may decide this one again: as conservative as before */
		d->made = m;
		d->cap_made = cap;
	}
	d->made[d->n_made] = (struct ras_decided){ s->kind, "", ev->rec_hash, ev->wall_ns, page,
						   *act };
	snprintf(d->made[d->n_made].key, sizeof(d->made[0].key), "%s", s->key);
	d->n_made++;
}

void ras_decisions_keep(struct ras_decisions *d, const struct ras_subject *s,
			const struct ras_db_event *ev, const struct ras_db_action *act)
{
	ras_decisions_keep_page(d, s, ev, 0, act);
}

bool ras_decisions_given_back_page(struct ras_decisions *d, const struct ras_subject *s,
				   const struct ras_db_event *ev, uint64_t page,
				   struct ras_db_action *act)
{
	for (size_t i = 0; i < d->n_redo; i++) {
		struct ras_decided *p = &d->redo[i];

		if (p->kind != s->kind || p->rec_hash != ev->rec_hash || p->event_ns != ev->wall_ns ||
		    p->page != page || strcmp(p->key, s->key))
			continue;
		*act = p->act;
		d->redo[i] = d->redo[--d->n_redo];
		return true;
	}
	return false;
}

bool ras_decisions_given_back(struct ras_decisions *d, const struct ras_subject *s,
			      const struct ras_db_event *ev, struct ras_db_action *act)
{
	return ras_decisions_given_back_page(d, s, ev, 0, act);
}

void ras_decisions_committed(struct ras_decisions *d)
{
	d->n_made = d->n_redo = 0;
}

size_t ras_decisions_mark(const struct ras_decisions *d)
{
	return d->n_made;
}

void ras_decisions_committed_to(struct ras_decisions *d, size_t mark)
{
	if (mark > d->n_made)
		mark = d->n_made;
	if (mark) {
		memmove(d->made, d->made + mark, (d->n_made - mark) * sizeof(*d->made));
		d->n_made -= mark;
	}
	d->n_redo = 0;
}

void ras_decisions_rolled_back(struct ras_decisions *d)
{
	if (d->n_made) {
		struct ras_decided *m = realloc(d->redo, (d->n_redo + d->n_made) * sizeof(*m));

		if (m) {
			memcpy(m + d->n_redo, d->made, d->n_made * sizeof(*m));
			d->redo = m;
			d->n_redo += d->n_made;
		}
	}
	d->n_made = 0;
}
