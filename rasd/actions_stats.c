/* SPDX-License-Identifier: MIT */
/*
 * The machine-wide warnings, rasdaemon's two statistics done as thresholds:
 * ce_rate_threshold, a leaky bucket of every corrected error the machine
 * reports (an mc_event's error_count, one for any other corrected record),
 * kept in the buckets table as kind "rate" like any other bucket; and
 * poison_threshold_kb, the kernel's HardwareCorrupted (proc_root/meminfo)
 * read at each memory_failure_event of this boot and warned about when it
 * reaches the limit and each time it grows past it. Neither touches the
 * machine: a crossing is a decision stored in the actions table (action
 * ce-rate-warning or poison-warning, result done), a log line, and the
 * ce-rate-threshold or poison-threshold trigger. Undone with a rolled-back
 * transaction like the other buckets; a decision taken in one is given back
 * to its retried record, stored but neither logged nor triggered again.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "actions_internal.h"
#include "triggers.h"
#include "trigger_env.h"
#include "db/db_actions.h"
#include "lib/decode.h"
#include "lib/meminfo.h"

#define RATE_KIND "rate"
#define RATE_SUBJECT "corrected errors"
#define STATS_LOG_INTERVAL_NS (60LL * 1000000000LL)

void actions_stats_load(struct ras_actions *a)
{
	struct actions_stats *st = &a->stats;
	struct ras_threshold old = st->rate_th;
	char was[32], is[32];

	if (ras_threshold_parse(a->cfg->ce_rate_threshold, &st->rate_th) < 0)
		st->rate_th = (struct ras_threshold){ 0, 0 };
	if (!st->th_loaded || (old.count == st->rate_th.count && old.period_ns == st->rate_th.period_ns)) {
		st->th_loaded = true;
		return;
	}
	ras_threshold_format(&old, was, sizeof(was));
	ras_threshold_format(&st->rate_th, is, sizeof(is));
	ras_log(LOG_INFO, "corrected-error rate threshold %s, was %s; bucket kept", is, was);
	if (st->rate.last_ns && old.count)
		ras_bucket_leak(&st->rate, &old, actions_realtime_ns());
	st->rate_dirty = st->rate_loaded;
}

/* The stored bucket, read once (a database replaced: kept, written there at the next flush). */
static void rate_load(struct ras_actions *a)
{
	struct actions_stats *st = &a->stats;
	struct ras_db_bucket b;

	if (st->rate_loaded)
		return;
	st->rate_loaded = true;
	if (a->dba && actions_bucket_get(a, ACTIONS_RATE_KIND, RATE_KIND, RATE_SUBJECT, &b) == 1) {
		st->rate = (struct ras_bucket){ b.level, b.last_ns };
		st->rate_total = b.total;
		st->committed = (struct actions_stats_mark){ st->rate, st->rate_total, st->poison_kb };
	}
}

int actions_stats_flush(struct ras_actions *a)
{
	struct actions_stats *st = &a->stats;
	struct ras_db_bucket b = { st->rate.level, st->rate.last_ns, st->rate_total };

	if (!st->rate_dirty || !a->dba)
		return 0;
	if (actions_bucket_put(a, ACTIONS_RATE_KIND, RATE_KIND, RATE_SUBJECT, &b, "") < 0)
		return -EIO;
	st->rate_dirty = false;
	return 0;
}

void actions_stats_set_db(struct ras_actions *a)
{
	a->stats.rate_dirty = a->stats.rate_loaded;
}

void actions_stats_mark(const struct ras_actions *a, struct ras_actions_mark *m)
{
	const struct actions_stats *st = &a->stats;

	m->stats.level = st->rate.level;
	m->stats.last_ns = st->rate.last_ns;
	m->stats.total = st->rate_total;
	m->stats.poison_kb = st->poison_kb;
}

void actions_stats_committed_to(struct ras_actions *a, const struct ras_actions_mark *m)
{
	a->stats.committed = (struct actions_stats_mark){ { m->stats.level, m->stats.last_ns },
							  m->stats.total, m->stats.poison_kb };
}

void actions_stats_committed(struct ras_actions *a)
{
	struct actions_stats *st = &a->stats;

	st->committed = (struct actions_stats_mark){ st->rate, st->rate_total, st->poison_kb };
}

void actions_stats_rolled_back(struct ras_actions *a)
{
	struct actions_stats *st = &a->stats;

	st->rate = st->committed.rate;
	st->rate_total = st->committed.rate_total;
	st->poison_kb = st->committed.poison_kb;
	/* The abandoned flush went with the transaction. */
	st->rate_dirty = st->rate_loaded;
}

/*
 * rasd --rebuild-buckets: the ce-rate bucket starts empty and its window's
 * corrected errors are replayed into it, oldest first, a crossing emptying it
 * as it did live (no warning again); its total, a counter, is kept.
 */
void actions_stats_rebuild_begin(struct ras_actions *a)
{
	struct actions_stats *st = &a->stats;

	if (!st->rate_th.count)
		return;
	rate_load(a);
	st->rate = (struct ras_bucket){ 0, 0 };
	st->rate_dirty = true;
}

int64_t actions_stats_rate_errors(const struct ras_actions *a, const struct ras_event_type *type,
				  const void *decoded)
{
	const struct ras_decoded_head *h = decoded;
	int64_t n;

	if (h->severity != RAS_SEV_CORRECTED || !a->stats.rate_th.count)
		return 0;
	n = type->errors ? ras_dfield_int(decoded, type->errors) : 1;
	return n < 1 || n == RAS_DF_NONE ? 1 : n;
}

void actions_stats_rebuild_add(struct ras_actions *a, int64_t wall_ns, int64_t n)
{
	struct actions_stats *st = &a->stats;

	if (ras_bucket_add(&st->rate, &st->rate_th, wall_ns, n))
		st->rate.level = 0;
}

/* A machine-wide "subject", for the decisions kept across a rollback and the trigger. */
static void pseudo_subject(struct ras_subject *s, const char *key)
{
	memset(s, 0, sizeof(*s));
	s->kind = RAS_SUBJ_KINDS;
	s->cpu = -1;
	snprintf(s->key, sizeof(s->key), "%s", key);
}

/* Logged at most once a minute per warning (and within the decision lines' limit). */
static void warn_log(struct ras_actions *a, struct actions_stats_log *l,
		     const struct ras_db_action *act, const char *text)
{
	char f[4][200], more[64] = "";
	const char *fields[5] = { f[0], f[1], f[2], f[3], NULL };

	if ((l->logged_ns && act->wall_ns - l->logged_ns < STATS_LOG_INTERVAL_NS) ||
	    !ras_log_limit_allows(&a->decision_lines, 600, "threshold decisions", "")) {
		l->unlogged++;
		return;
	}
	if (l->unlogged)
		snprintf(more, sizeof(more), " (%lu earlier warnings not logged)", l->unlogged);
	l->logged_ns = act->wall_ns;
	l->unlogged = 0;
	snprintf(f[0], sizeof(f[0]), "RAS_SUBJECT_KIND=%s", act->kind);
	snprintf(f[1], sizeof(f[1]), "RAS_ACTION=%s", act->action);
	snprintf(f[2], sizeof(f[2]), "RAS_COUNT=%lld", (long long)act->count);
	snprintf(f[3], sizeof(f[3]), "RAS_THRESHOLD=%s", act->threshold);
	ras_log_fields(LOG_WARNING, RAS_ACTION_MESSAGE_ID, fields, "%s%s", text, more);
}

/* Stores the warning (given back after a rollback: only stored) and says whether it is new. */
static bool warning(struct ras_actions *a, const char *key, struct ras_db_action *act,
		    const struct ras_db_event *ev, int64_t row_id, bool fold)
{
	struct ras_subject s;
	struct timespec now;
	bool again;

	pseudo_subject(&s, key);
	again = ras_decisions_given_back(&a->decisions, &s, ev, act);
	if (!again) {
		clock_gettime(CLOCK_REALTIME, &now);
		act->wall_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
		snprintf(act->kind, sizeof(act->kind), "%s", key);
		snprintf(act->result, sizeof(act->result), "done");
		act->synthetic = ev->synthetic;
	}
	act->event_id = row_id;
	if (ras_db_action_insert(a->dba, act, fold) < 0)
		ras_log(LOG_ERR, "cannot store the %s warning", key);
	ras_decisions_keep(&a->decisions, &s, ev, act);
	return !again;
}

static void warn_trigger(struct ras_actions *a, const char *condition, const char *key,
			 const struct ras_event_type *type, const void *decoded,
			 const struct ras_db_event *ev, int64_t row_id,
			 const struct ras_db_action *act, int64_t total)
{
	struct ras_trigger_env env;
	struct ras_subject s;

	if (!ras_triggers_installed(a->trig, condition))
		return;
	pseudo_subject(&s, key);
	ras_trigger_env_record(&env, condition, type, decoded, ev, row_id);
	ras_trigger_env_action(&env, &s, act, total);
	ras_triggers_run(a->trig, condition, env.ptr);
}

static void count_rate(struct ras_actions *a, const struct ras_event_type *type,
		       const void *decoded, const struct ras_db_event *ev, int64_t row_id)
{
	struct actions_stats *st = &a->stats;
	int64_t n = actions_stats_rate_errors(a, type, decoded);
	struct ras_db_action act = { 0 };
	char text[200];

	rate_load(a);
	st->rate_total += n;
	st->rate_dirty = true;
	if (!ras_bucket_add(&st->rate, &st->rate_th, ev->wall_ns, n))
		return;
	act.count = st->rate.level;
	st->rate.level = 0;
	snprintf(act.subject, sizeof(act.subject), "machine");
	snprintf(act.action, sizeof(act.action), "ce-rate-warning");
	snprintf(act.event_table, sizeof(act.event_table), "%s", type->table);
	ras_threshold_format(&st->rate_th, act.threshold, sizeof(act.threshold));
	if (!warning(a, "ce-rate", &act, ev, row_id, true))
		return;
	snprintf(text, sizeof(text), "corrected errors are spiking: %lld crossed %s machine-wide%s",
		 (long long)act.count, act.threshold, ev->synthetic ? " (synthetic records)" : "");
	warn_log(a, &st->rate_log, &act, text);
	warn_trigger(a, "ce-rate-threshold", "ce-rate", type, decoded, ev, row_id, &act,
		     st->rate_total);
}

static void check_poison(struct ras_actions *a, const struct ras_event_type *type,
			 const void *decoded, const struct ras_db_event *ev, int64_t row_id)
{
	struct actions_stats *st = &a->stats;
	struct ras_db_action act = { 0 };
	char text[200];
	uint64_t kb;
	int r = ras_meminfo_read(a->cfg->proc_root, "HardwareCorrupted", &kb);

	if (r < 0) {
		if (!st->meminfo_failed)
			ras_log(LOG_WARNING, "poison threshold: cannot read HardwareCorrupted from %s/meminfo: %s",
				a->cfg->proc_root, strerror(-r));
		st->meminfo_failed = true;
		return;
	}
	st->meminfo_failed = false;
	if (kb < a->cfg->poison_threshold_kb || kb <= st->poison_kb)
		return;
	st->poison_kb = kb;
	act.count = (int64_t)kb;
	snprintf(act.subject, sizeof(act.subject), "HardwareCorrupted");
	snprintf(act.action, sizeof(act.action), "poison-warning");
	snprintf(act.event_table, sizeof(act.event_table), "%s", type->table);
	snprintf(act.threshold, sizeof(act.threshold), "%ukB", a->cfg->poison_threshold_kb);
	snprintf(act.target, sizeof(act.target), "%s/meminfo HardwareCorrupted: %llu kB",
		 a->cfg->proc_root, (unsigned long long)kb);
	if (!warning(a, "poison", &act, ev, row_id, false))
		return;
	snprintf(text, sizeof(text), "poisoned memory: the kernel has taken %llu kB out of use"
		 " (HardwareCorrupted), at or past poison_threshold_kb = %u",
		 (unsigned long long)kb, a->cfg->poison_threshold_kb);
	warn_log(a, &st->poison_log, &act, text);
	warn_trigger(a, "poison-threshold", "poison", type, decoded, ev, row_id, &act, (int64_t)kb);
}

void actions_stats_record(struct ras_actions *a, const struct ras_event_type *type,
			  const void *decoded, const struct ras_db_event *ev, int64_t row_id)
{
	const struct ras_decoded_head *h = decoded;

	if (h->severity == RAS_SEV_CORRECTED && a->stats.rate_th.count)
		count_rate(a, type, decoded, ev, row_id);
	/* HardwareCorrupted is this boot's: a record from another boot says nothing of it. */
	if (a->cfg->poison_threshold_kb && !strcmp(type->table, "memory_failure_event") && !ev->boot)
		check_poison(a, type, decoded, ev, row_id);
}
