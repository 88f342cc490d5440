/* SPDX-License-Identifier: MIT */
/*
 * The diagnosis in rasd: every stored record is attributed to the parts it
 * names (health_attr.c), in the same pass that decodes it and from the same
 * subjects the thresholds count (lib/subject.h). Its observations are held
 * with the transaction and counted into the parts' state (diag/) once it is
 * committed, so a rolled-back batch counts once when given again. A part
 * whose verdict changes is logged with the verdict's MESSAGE_ID, runs the
 * verdict-change trigger and gets a history row. The state is written to
 * the parts table at most once a second (and at stop); health_marks says
 * which event rows it holds, so a restart after a crash counts only the
 * rows after them (health_store.c).
 */
#ifndef RAS_HEALTH_H
#define RAS_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "db/db.h"
#include "lib/config.h"
#include "lib/event_table.h"

/* MESSAGE_IDs of a part's new verdict (contrib/ras-fdr.catalog explains each). */
#define RAS_VERDICT_OK_MESSAGE_ID "667cc195cc6665e0a0fe28d81127649a"
#define RAS_VERDICT_WATCH_MESSAGE_ID "6daaba6a546c9ebb3f869fe81e2ee15e"
#define RAS_VERDICT_REPLACE_MESSAGE_ID "2948e3091375ab88db30ae2ff76f09a4"

struct rasd_health;
struct ras_triggers;

/*
 * With health off (rasd.conf) *out is NULL and every call below does
 * nothing. Reads the stored parts and counts the event rows stored since
 * their state was written. 0 or -errno.
 */
int rasd_health_open(struct rasd_health **out, const struct rasd_config *cfg, struct ras_db *db,
		     struct ras_triggers *trig);
/* With write (no transaction open), writes what is not written yet in one of its own; frees. */
void rasd_health_close(struct rasd_health *h, bool write);
/* rasd.conf read again: the rules apply from now on; every part is judged again. */
void rasd_health_reload(struct rasd_health *h);
/* The database was replaced: statements move to db (may be NULL); everything is written again. */
int rasd_health_set_db(struct rasd_health *h, struct ras_db *db);
/* A stored record: its observations wait for the transaction's commit. */
void rasd_health_record(struct rasd_health *h, const struct ras_event_type *type,
			const void *decoded, const struct ras_db_event *ev, int64_t row_id);
/* Writes the parts that changed (at most once a second unless forced), in the open transaction. */
int rasd_health_flush(struct rasd_health *h, bool force);
/* Milliseconds until unwritten state is due to be written (0: now), -1 when none waits. */
int rasd_health_timeout_ms(const struct rasd_health *h);
/* The transaction's fate, as ras_actions_* (rasd/actions.h): mark for a commit behind. */
size_t rasd_health_mark(struct rasd_health *h);
void rasd_health_committed_to(struct rasd_health *h, size_t mark);
void rasd_health_committed(struct rasd_health *h);
void rasd_health_rolled_back(struct rasd_health *h);

/* What the diagnosis did since it opened: tests count its work through it, never time. */
struct rasd_health_work {
	uint64_t decided;      /* parts judged (diag_decide) */
	uint64_t worded;       /* whys written (diag_why) */
	uint64_t classified;   /* cells classified (diag_cells_classify) */
	uint64_t written;      /* part rows written */
};
void rasd_health_work(const struct rasd_health *h, struct rasd_health_work *out);

#endif
