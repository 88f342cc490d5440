/* SPDX-License-Identifier: MIT */
/*
 * What a trigger program is told, in its environment (rasd.conf(5) lists the
 * variables): the record behind the condition, the decision at a threshold
 * crossing, or the records the kernel dropped. rasd/triggers.c runs it.
 */
#ifndef RAS_TRIGGER_ENV_H
#define RAS_TRIGGER_ENV_H

#include <stdint.h>
#include "db/db.h"
#include "db/db_actions.h"
#include "db/db_crashes.h"
#include "db/db_parts.h"
#include "lib/event_table.h"
#include "lib/subject.h"

/* "NAME=value" strings; ptr is the NULL-terminated list ras_triggers_run takes. */
struct ras_trigger_env {
	char buf[32][384];
	char *ptr[33];
	unsigned n;
};

/* Starts env with what every trigger is told about the record behind it. */
void ras_trigger_env_record(struct ras_trigger_env *env, const char *condition,
			    const struct ras_event_type *type, const void *decoded,
			    const struct ras_db_event *ev, int64_t row_id);
/* Adds the decision taken on subject s, whose total is the errors ever counted against it. */
void ras_trigger_env_action(struct ras_trigger_env *env, const struct ras_subject *s,
			    const struct ras_db_action *act, int64_t total);
/* A previous boot ended in a crash, found at start (rasd/lastwords.c). */
void ras_trigger_env_crash(struct ras_trigger_env *env, const struct ras_db_crash *c);
/*
 * A part's verdict changed (rasd/health.c): the part as it is stored now, the
 * change, and the threshold actions already taken on it ("" none).
 */
void ras_trigger_env_verdict(struct ras_trigger_env *env, const struct ras_db_part *part,
			     const struct ras_db_verdict_change *c, const char *actions);
/* The kernel dropped records on a CPU (count -1: unknown). */
void ras_trigger_env_lost(struct ras_trigger_env *env, int cpu, long long count);

#endif
