/* SPDX-License-Identifier: MIT */
/*
 * Metrics for a fleet's Prometheus: counts filled in by db/db_metrics.c,
 * printed here as OpenMetrics (ras-fdr-ctl metrics) or as the Prometheus
 * text format that node_exporter's textfile collector reads (rasd's
 * metrics_textfile). No SQL here: lib/ does not depend on db/.
 */
#ifndef RAS_METRICS_H
#define RAS_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "decoders/severity.h"
#include "lastwords/cause.h"

#define RAS_METRICS_TYPES 64
#define RAS_METRICS_TOP_DEFAULT 10
/* Distinct subjects remembered per dimension; more are counted in "other" at once. */
#define RAS_METRICS_MAX_SUBJECTS 4096
#define RAS_METRICS_MAX_ACTIONS 64

/* Where a record came from, as the "source" label. */
enum ras_metrics_source {
	RAS_MSRC_LIVE, RAS_MSRC_BOOT, RAS_MSRC_PREVIOUS_BOOT, RAS_MSRC_SYNTHETIC,
	RAS_MSRC_IMPORTED, RAS_MSRC_ERST, RAS_MSRC_OTHER, RAS_MSRC_COUNT_
};

/* The subjects a fleet alerts on: a DIMM, a CPU, a PCIe device. */
enum ras_metrics_dim { RAS_MDIM_DIMM, RAS_MDIM_CPU, RAS_MDIM_PCIE, RAS_MDIM_COUNT_ };

struct ras_metrics_subject {
	char key[128];       /* DIMM label, CPU number, PCI device */
	char key2[32];       /* socket of a CPU; "" otherwise */
	int64_t count[RAS_SEV_COUNT];
};

struct ras_metrics_action {
	char action[48], result[48];
	int64_t count;
};

enum ras_metrics_event_state { RAS_MEV_UNKNOWN, RAS_MEV_ENABLED, RAS_MEV_DISABLED, RAS_MEV_ABSENT };

struct ras_metrics {
	/* Filled by ras_db_metrics_collect(), incrementally: seen_id is where it stopped. */
	int64_t records[RAS_METRICS_TYPES][RAS_SEV_COUNT][RAS_MSRC_COUNT_];
	int64_t seen_id[RAS_METRICS_TYPES];
	/*
	 * Folded storm records (db/db_fold.c): all of them at the first collect;
	 * later, only the growth of the "fresh" folds (rows folded before any
	 * collect saw them), whose last totals are kept here.
	 */
	bool folds_counted[RAS_METRICS_TYPES];
	/* The first collect read the roll-ups, which count folded records too (db_metrics.c). */
	bool rolled_up[RAS_METRICS_TYPES];
	int64_t fresh_records[RAS_METRICS_TYPES][RAS_SEV_COUNT][RAS_MSRC_COUNT_];
	struct ras_metrics *fresh_subjects;
	struct ras_metrics_subject *subjects[RAS_MDIM_COUNT_];
	unsigned n_subjects[RAS_MDIM_COUNT_];
	int64_t overflow[RAS_MDIM_COUNT_][RAS_SEV_COUNT]; /* beyond RAS_METRICS_MAX_SUBJECTS */
	int64_t last_error_ns;          /* newest non-synthetic record; 0: none */
	int64_t lost_records, lost_gaps, malformed, synthetic_refused;
	bool have_actions;              /* the actions table exists */
	struct ras_metrics_action actions[RAS_METRICS_MAX_ACTIONS];
	unsigned n_actions;
	/* Crashes of previous boots per cause (db_crashes.h); have_crashes: the table exists. */
	bool have_crashes;
	int64_t crashes[LW_CAUSE_COUNT];
	/* Filled by ras_metrics_read_info(). */
	char version[32], kernel[128];
	enum ras_metrics_event_state event_state[RAS_METRICS_TYPES];
};

enum ras_metrics_format {
	RAS_MFMT_OPENMETRICS,   /* application/openmetrics-text; version=1.0.0 */
	RAS_MFMT_PROMETHEUS,    /* text/plain; version=0.0.4, for node_exporter */
};

void ras_metrics_init(struct ras_metrics *m);
void ras_metrics_free(struct ras_metrics *m);
/* Forgets the counts (not the info), e.g. when the database was replaced. */
void ras_metrics_reset_counts(struct ras_metrics *m);
const char *ras_metrics_source_name(enum ras_metrics_source s);
enum ras_metrics_source ras_metrics_source_of(const char *source, bool synthetic);
/* Adds n records of severity sev to a subject. 0 or -ENOMEM. */
int ras_metrics_add_subject(struct ras_metrics *m, enum ras_metrics_dim dim, const char *key,
			    const char *key2, enum ras_severity sev, int64_t n);
/* A subject's count of one severity so far (0 when not there). */
int64_t ras_metrics_subject_count(const struct ras_metrics *m, enum ras_metrics_dim dim,
				  const char *key, const char *key2, enum ras_severity sev);
/*
 * Version, kernel release and the state of each event in rasd's instance
 * (tracing_dir: the tracefs root, "" to find it; instance: rasd's instance).
 */
void ras_metrics_read_info(struct ras_metrics *m, const char *tracing_dir, const char *instance);
/* Prints every series; top: how many subjects per dimension before "other". 0 or -errno. */
int ras_metrics_print(const struct ras_metrics *m, unsigned top, enum ras_metrics_format fmt,
		      FILE *out);
/* Replaces path atomically (temporary file in the same directory, fsync, rename). */
int ras_metrics_write_file(const struct ras_metrics *m, unsigned top, enum ras_metrics_format fmt,
			   const char *path);

#endif
