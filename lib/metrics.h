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
#include "decoders/edac.h"
#include "decoders/severity.h"
#include "lastwords/cause.h"

#define RAS_METRICS_TYPES 64
/*
 * Subjects per dimension whose corrected errors have series of their own:
 * the first to appear in the database (its metrics_subjects order), never
 * evicted; the later ones' corrected errors are summed in "other". Errors
 * worse than corrected always have their subject's series.
 */
#define RAS_METRICS_NAMED_DEFAULT 64
/* Distinct subjects remembered per dimension; past them everything goes to "other". */
#define RAS_METRICS_MAX_SUBJECTS 4096
#define RAS_METRICS_MAX_ACTIONS 64
#define RAS_METRICS_MAX_ORIGINS 16

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
	int64_t rank;        /* its place in the order subjects appeared (metrics_subjects); 0 unknown */
	int64_t count[RAS_SEV_COUNT][RAS_MSRC_COUNT_];
};

struct ras_metrics_action {
	char action[48], result[48];
	int64_t count;
};

/* One origin of lost_events (db_query.h ras_db_losses): records of known count, gaps of unknown size. */
struct ras_metrics_loss {
	char origin[32];
	int64_t records, gaps;
};

enum ras_metrics_event_state { RAS_MEV_UNKNOWN, RAS_MEV_ENABLED, RAS_MEV_DISABLED, RAS_MEV_ABSENT };

/* rasd's liveness as the metrics say it (ras_metrics_set_liveness). */
enum ras_metrics_storage {
	RAS_MSTORE_WORKING, RAS_MSTORE_FAILING, RAS_MSTORE_STOPPED, RAS_MSTORE_KILLED,
	RAS_MSTORE_UNKNOWN, RAS_MSTORE_COUNT_
};

/* A part's verdict and worst fault mode (the diagnosis, db/db_parts.h ras_db_parts_metrics). */
struct ras_metrics_part {
	char kind[16], part[128], label[EDAC_LABEL_MAX];
	bool synthetic;
	int verdict;                    /* enum diag_verdict: 0 ok, 1 watch, 2 replace */
	int mode;                       /* enum diag_mode: 0 none ... 7 multi-rank */
};

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
	int64_t rank_seen;              /* the last metrics_subjects row read */
	int64_t overflow[RAS_MDIM_COUNT_][RAS_SEV_COUNT][RAS_MSRC_COUNT_]; /* past MAX_SUBJECTS */
	int64_t last_ns[RAS_MSRC_COUNT_];  /* the newest record of each source; 0: none */
	struct ras_metrics_loss losses[RAS_METRICS_MAX_ORIGINS];
	unsigned n_losses;
	int64_t malformed, synthetic_refused;
	bool have_actions;              /* the actions table exists */
	struct ras_metrics_action actions[RAS_METRICS_MAX_ACTIONS];
	unsigned n_actions;
	/* Crashes of previous boots per cause (db_crashes.h); have_crashes: the table exists. */
	bool have_crashes;
	int64_t crashes[LW_CAUSE_COUNT];
	/* Filled by ras_metrics_read_info(). */
	char version[32], kernel[128];
	enum ras_metrics_event_state event_state[RAS_METRICS_TYPES];
	/* Filled by ras_metrics_set_liveness(). */
	bool up;
	enum ras_metrics_storage storage;
	int64_t start_ns, replaced_ns, last_commit_ns, written_ns;
	/* Filled by ras_db_parts_metrics(): every part, none ever dropped (rasd keeps at most 4096). */
	struct ras_metrics_part *parts;
	unsigned n_parts;
};

enum ras_metrics_format {
	RAS_MFMT_OPENMETRICS,   /* application/openmetrics-text; version=1.0.0 */
	RAS_MFMT_PROMETHEUS,    /* text/plain; version=0.0.4, for node_exporter */
	RAS_MFMT_JSON,          /* ras-fdr-ctl metrics --json (doc/schema/metrics.schema.json) */
};

void ras_metrics_init(struct ras_metrics *m);
void ras_metrics_free(struct ras_metrics *m);
/* Forgets the counts (not the info), e.g. when the database was replaced. */
void ras_metrics_reset_counts(struct ras_metrics *m);
const char *ras_metrics_source_name(enum ras_metrics_source s);
enum ras_metrics_source ras_metrics_source_of(const char *source, bool synthetic);
/* Adds n records of severity sev from src to a subject. 0 or -ENOMEM. */
int ras_metrics_add_subject(struct ras_metrics *m, enum ras_metrics_dim dim, const char *key,
			    const char *key2, enum ras_severity sev, enum ras_metrics_source src,
			    int64_t n);
/* Sets a subject's rank (its place in the order subjects appeared), adding it if new. */
int ras_metrics_rank_subject(struct ras_metrics *m, enum ras_metrics_dim dim, const char *key,
			     const char *key2, int64_t rank);
/* A subject's count of one severity and source so far (0 when not there). */
int64_t ras_metrics_subject_count(const struct ras_metrics *m, enum ras_metrics_dim dim,
				  const char *key, const char *key2, enum ras_severity sev,
				  enum ras_metrics_source src);
/*
 * Version, kernel release and the state of each event in rasd's instance
 * (tracing_dir: the tracefs root, "" to find it; instance: rasd's instance).
 */
void ras_metrics_read_info(struct ras_metrics *m, const char *tracing_dir, const char *instance);
/*
 * rasd's liveness: up, its storage state, when it started and found its
 * database replaced (0: never), and the database's last write (the mtime of
 * database_path or its -wal, whichever is newer). written_ns is now.
 */
void ras_metrics_set_liveness(struct ras_metrics *m, bool up, enum ras_metrics_storage storage,
			      int64_t start_ns, int64_t replaced_ns, const char *database_path);
/*
 * Prints every series; named: subjects per dimension with corrected-error
 * series of their own (RAS_METRICS_NAMED_DEFAULT). 0 or -errno.
 */
int ras_metrics_print(const struct ras_metrics *m, unsigned named, enum ras_metrics_format fmt,
		      FILE *out);
/*
 * Replaces path atomically (a new temporary file in the same directory,
 * fsync, rename), its directory checked by the rule of lib/safe_path.h
 * (RAS_SAFE_OTHERS_ABOVE). 0, or -errno with why set: -EPERM or -ELOOP when
 * the rule refuses the directory.
 */
int ras_metrics_write_file(const struct ras_metrics *m, unsigned named, enum ras_metrics_format fmt,
			   const char *path, char *why, size_t whylen);

#endif
