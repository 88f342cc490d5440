/* SPDX-License-Identifier: MIT */
/*
 * What rasd decides when a subject's bucket crosses its threshold: the
 * action configured for the subject's kind, or why it does not go ahead
 * (the kernel lacks the interface, the kind is only accounted, dry run, a
 * synthetic record, the rate limit, the daily cap); which decisions may fold
 * into the subject's latest row; and the decisions of the open transaction,
 * kept so that one rolled back is given back to its retried record instead
 * of being taken, and acted on, twice. rasd/actions.c carries them out.
 */
#ifndef RAS_DECISION_H
#define RAS_DECISION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "db/db.h"
#include "db/db_actions.h"
#include "lib/config.h"
#include "lib/subject.h"

struct ras_decided;

struct ras_decisions {
	const struct rasd_config *cfg;
	int64_t last_act_ns[RAS_SUBJ_KINDS];   /* rate limit: last action that touched the machine */
	/* Grown by doubling: decided in this transaction; from rolled-back ones. */
	struct ras_decided *made, *redo;
	size_t n_made, cap_made, n_redo;
};

void ras_decisions_init(struct ras_decisions *d, const struct rasd_config *cfg);
void ras_decisions_free(struct ras_decisions *d);

/* The action configured for a kind of subject ("account" for the kinds without one). */
const char *ras_decision_configured(const struct rasd_config *cfg, enum ras_subject_kind kind);
/*
 * Whether act->action goes ahead now, probed the result of checking that the
 * kernel offers it (-EOPNOTSUPP: it does not). When it does not go ahead,
 * act->result and act->error say why; when it does, the rate limit counts
 * from now. dba counts the actions of the day for the cap. A dry run (or a
 * synthetic record without synthetic_actions) is "dry-run" whatever the
 * kernel offers, with error EOPNOTSUPP when it lacks the interface.
 */
bool ras_decision_go_ahead(struct ras_decisions *d, struct ras_db_actions *dba,
			   enum ras_subject_kind kind, struct ras_db_action *act, int probed,
			   bool synthetic);
/*
 * Whether a page of a crossed row is acted on, the row's decision having
 * gone ahead (or been a dry run): the same checks but the rate limit and the
 * daily cap, which the row's decision passed for all its pages at once
 * (rasd/actions_rows.c). act->result says why not.
 */
bool ras_decision_row_page(struct ras_decisions *d, struct ras_db_action *act, int probed,
			   bool synthetic);
/* The result of an action performed: r 0 done, -errno failed. */
void ras_decision_performed(struct ras_db_action *act, int r);
/* Whether the decision may fold into the subject's latest row when identical to it. */
bool ras_decision_foldable(const struct ras_db_action *act);

/* Keeps the decision taken at this crossing until the transaction ends. */
void ras_decisions_keep(struct ras_decisions *d, const struct ras_subject *s,
			const struct ras_db_event *ev, const struct ras_db_action *act);
/* The decision a rolled-back transaction took at this crossing, taken out of the list. */
bool ras_decisions_given_back(struct ras_decisions *d, const struct ras_subject *s,
			      const struct ras_db_event *ev, struct ras_db_action *act);
/* The same for the page action on one page of a crossed row (page not 0). */
void ras_decisions_keep_page(struct ras_decisions *d, const struct ras_subject *s,
			     const struct ras_db_event *ev, uint64_t page,
			     const struct ras_db_action *act);
bool ras_decisions_given_back_page(struct ras_decisions *d, const struct ras_subject *s,
				   const struct ras_db_event *ev, uint64_t page,
				   struct ras_db_action *act);
/* The transaction was committed: its decisions, and any still waiting, are forgotten. */
void ras_decisions_committed(struct ras_decisions *d);
/* The decisions so far (a commit handed over), and: those are committed, the later ones stay open. */
size_t ras_decisions_mark(const struct ras_decisions *d);
void ras_decisions_committed_to(struct ras_decisions *d, size_t mark);
/* It was rolled back: its decisions wait for their records to come again. */
void ras_decisions_rolled_back(struct ras_decisions *d);

#endif
