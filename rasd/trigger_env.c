/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include "trigger_env.h"
#include "lib/clock.h"
#include "lib/decode.h"

static void __attribute__((format(printf, 2, 3)))
env_add(struct ras_trigger_env *e, const char *fmt, ...)
{
	va_list ap;

	if (e->n >= 32)
		return;
	va_start(ap, fmt);
	vsnprintf(e->buf[e->n], sizeof(e->buf[0]), fmt, ap);
	va_end(ap);
	e->ptr[e->n] = e->buf[e->n];
	e->n++;
	e->ptr[e->n] = NULL;
}

/* Triggers run with a fixed PATH, whatever rasd was started with. */
static void env_start(struct ras_trigger_env *env, const char *condition)
{
	env->n = 0;
	env_add(env, "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	env_add(env, "RAS_CONDITION=%s", condition);
}

void ras_trigger_env_record(struct ras_trigger_env *env, const char *condition,
			    const struct ras_event_type *type, const void *decoded,
			    const struct ras_db_event *ev, int64_t row_id)
{
	const struct ras_decoded_head *h = decoded;
	char when[40], sentence[RAS_SUMMARY_LEN];

	env_start(env, condition);
	env_add(env, "RAS_EVENT=%s:%s", type->system, type->event);
	env_add(env, "RAS_TABLE=%s", type->table);
	env_add(env, "RAS_RECORD_ID=%lld", (long long)row_id);
	env_add(env, "RAS_SEVERITY=%s", ras_severity_name(h->severity));
	env_add(env, "RAS_LOCATION=%s", h->location);
	ras_render(type, decoded, sentence, sizeof(sentence));
	env_add(env, "RAS_SUMMARY=%s", sentence);
	env_add(env, "RAS_SOURCE=%s", ev->source);
	env_add(env, "RAS_SYNTHETIC=%d", ev->synthetic ? 1 : 0);
	ras_format_time(ev->wall_ns, when, sizeof(when));
	env_add(env, "RAS_TIME=%s", when);
	env_add(env, "RAS_TRACE_CPU=%d", ev->trace_cpu);
}

void ras_trigger_env_action(struct ras_trigger_env *env, const struct ras_subject *s,
			    const struct ras_db_action *act, int64_t total)
{
	env_add(env, "RAS_SUBJECT_KIND=%s", act->kind);
	env_add(env, "RAS_SUBJECT=%s", act->subject);
	env_add(env, "RAS_COUNT=%lld", (long long)act->count);
	env_add(env, "RAS_TOTAL=%lld", (long long)total);
	env_add(env, "RAS_THRESHOLD=%s", act->threshold);
	env_add(env, "RAS_ACTION=%s", act->action);
	env_add(env, "RAS_RESULT=%s", act->result);
	env_add(env, "RAS_ERRNO=%d", act->error);
	env_add(env, "RAS_TARGET=%s", act->target);
	if (s->have_addr)
		env_add(env, "RAS_ADDRESS=0x%llx", (unsigned long long)s->addr);
	if (s->cpu >= 0)
		env_add(env, "RAS_CPU=%d", s->cpu);
	if (s->device[0])
		env_add(env, "RAS_DEVICE=%s", s->device);
	if (s->label[0])
		env_add(env, "RAS_DIMM_LABEL=%s", s->label);
}

/* A count the part has (RAS_DF_NONE: not one of its kind): its variable, else none. */
static void env_count(struct ras_trigger_env *env, const char *name, int64_t v)
{
	if (v != RAS_DF_NONE)
		env_add(env, "%s=%lld", name, (long long)v);
}

void ras_trigger_env_verdict(struct ras_trigger_env *env, const struct ras_db_part *part,
			     const struct ras_db_verdict_change *c, const char *actions)
{
	char first[40], last[40], since[40];

	env_start(env, "verdict-change");
	env_add(env, "RAS_PART_KIND=%s", part->kind);
	env_add(env, "RAS_PART=%s", part->part);
	env_add(env, "RAS_PART_LABEL=%s", part->label);
	env_add(env, "RAS_SYNTHETIC=%d", part->synthetic ? 1 : 0);
	env_add(env, "RAS_VERDICT=%s", c->verdict);
	env_add(env, "RAS_VERDICT_WAS=%s", c->was);
	env_add(env, "RAS_RULE=%s", c->rule);
	env_add(env, "RAS_WHY=%s", c->why);
	env_add(env, "RAS_FAULT_MODE=%s", part->mode[0] ? part->mode : "none");
	if (part->permanent >= 0)
		env_add(env, "RAS_FAULT_PERMANENT=%d", part->permanent);
	env_add(env, "RAS_RECORDS=%lld", (long long)part->records);
	env_add(env, "RAS_CORRECTED=%lld", (long long)part->corrected);
	env_add(env, "RAS_UNCORRECTED=%lld", (long long)part->uncorrected);
	env_count(env, "RAS_ROWS", part->rows);
	env_count(env, "RAS_BANKS", part->banks);
	env_count(env, "RAS_RANKS", part->ranks);
	ras_format_time(part->first_ns, first, sizeof(first));
	ras_format_time(part->last_ns, last, sizeof(last));
	ras_format_time(c->at_ns, since, sizeof(since));
	env_add(env, "RAS_FIRST_TIME=%s", first);
	env_add(env, "RAS_LAST_TIME=%s", last);
	env_add(env, "RAS_SINCE=%s", since);
	if (part->link[0])
		env_add(env, "RAS_LINK=%s", part->link);
	env_add(env, "RAS_ACTIONS_TAKEN=%s", actions);
}

void ras_trigger_env_lost(struct ras_trigger_env *env, int cpu, long long count)
{
	env_start(env, "lost-records");
	env_add(env, "RAS_TRACE_CPU=%d", cpu);
	env_add(env, "RAS_LOST_COUNT=%lld", count);
}

void ras_trigger_env_crash(struct ras_trigger_env *env, const struct ras_db_crash *c)
{
	char when[40];

	env_start(env, "crash");
	env_add(env, "RAS_CRASH_ID=%lld", (long long)c->id);
	env_add(env, "RAS_CRASH_CAUSE=%s", c->cause);
	env_add(env, "RAS_CRASH_EXPLAINED=%d", c->explained ? 1 : 0);
	env_add(env, "RAS_CRASH_BOOT_ID=%s", c->boot_id ? c->boot_id : "");
	env_add(env, "RAS_CRASH_BACKEND=%s", c->backend);
	env_add(env, "RAS_CRASH_REASON=%s", c->reason ? c->reason : "");
	ras_format_time(c->crash_ns, when, sizeof(when));
	env_add(env, "RAS_TIME=%s", c->crash_ns ? when : "");
}
