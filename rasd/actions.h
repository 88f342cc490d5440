/* SPDX-License-Identifier: MIT */
/*
 * Acting on what is recorded: each stored corrected record fills the leaky
 * buckets of its subjects (lib/subject.h); a crossed threshold becomes a
 * decision (offline a page or CPUs, repair a row, or account), stored in the
 * actions table, logged with its own MESSAGE_ID and handed to a trigger.
 * Uncorrected records and lost records run their triggers too.
 */
#ifndef RAS_ACTIONS_H
#define RAS_ACTIONS_H

#include "db/db.h"
#include "lib/config.h"
#include "lib/event_table.h"

struct ras_actions;
struct ras_triggers;

#define RAS_ACTION_MESSAGE_ID "6f0c2e9a4b7d41d8a3e5c1b9d2f4a6e8"

int ras_actions_open(struct ras_actions **out, const struct rasd_config *cfg, struct ras_db *db,
		     struct ras_triggers *trig);
void ras_actions_close(struct ras_actions *a);
/* After a record is stored (row_id its row): count it, and act when a threshold is crossed. */
void ras_actions_record(struct ras_actions *a, const struct ras_event_type *type,
			const void *decoded, const struct ras_db_event *ev, int64_t row_id);
/* Writes the buckets that changed; called inside the transaction, before its commit. */
int ras_actions_flush(struct ras_actions *a);
/* The kernel dropped records (count -1: unknown): the lost-records trigger. */
void ras_actions_lost(struct ras_actions *a, int cpu, long long count);

#endif
