/* SPDX-License-Identifier: MIT */
/*
 * Shared parts of the EDAC commands: the database's view of the EDAC tree
 * (a topology whose counters are counted from stored mc_event records) and
 * the tree flattened into sysfs-like files.
 */
#ifndef RAS_CTL_EDAC_H
#define RAS_CTL_EDAC_H

#include "ctl.h"
#include "db/db_edac.h"
#include "decoders/edac.h"
#include "lib/edac_sysfs.h"

/* A counting window: counts of nodes under scope start at start_ns. */
struct edac_window {
	char scope[48];          /* "", "mc0", "mc0/dimm3", "mc0/csrow1" */
	int64_t start_ns;
};

/*
 * Errors of one controller and layers that no stored topology knows (none was
 * stored where the machine had no EDAC sysfs): placed on a DIMM by the label
 * their newest record names instead.
 */
struct edac_unplaced {
	int mc, top, mid, low;
	uint64_t ce, ue;
	char label[EDAC_LABEL_MAX];  /* "" when the records name none */
};

struct edac_view {
	struct edac_topology topo;   /* structure of the newest snapshot; counters from the database */
	bool have_snapshot;
	int64_t first_snapshot_ns;   /* when recording of the topology began */
	int64_t unmapped_errors;     /* records of controllers that no snapshot knows */
	struct edac_unplaced *unplaced;   /* those errors by controller and layers, with their label */
	unsigned n_unplaced;
};

/*
 * Builds the view of the records that pass f, each counted against the
 * topology of its own boot, and each node's counters starting at the
 * newest window whose scope covers it.
 */
int edac_view_build(struct ras_db *db, const struct ras_db_filter *f,
		    const struct edac_window *w, unsigned n_windows, struct edac_view *v);
void edac_view_free(struct edac_view *v);
/* The counting windows stored by "reset"; *w is malloc'd. */
int edac_view_db_windows(struct ras_db *db, struct edac_window **w, unsigned *n);

/* One file of the tree: "mc0/dimm3/dimm_ce_count" and what cat would print. */
struct edac_file {
	char path[64];
	char value[EDAC_TEXT_LEN];
	bool is_count;
	uint64_t count;
};

/* Flattens t into files, in sysfs order; *out is malloc'd. */
int edac_files_collect(const struct edac_topology *t, struct edac_file **out, unsigned *n);
const struct edac_file *edac_files_find(const struct edac_file *f, unsigned n, const char *path);

/* The label to show: the configured one, else the kernel's. */
const char *edac_display_label(const char *configured, const char *kernel);
/* Strips a leading "/sys/devices/system/edac/mc/" and trailing slashes. */
void edac_normalize_path(const char *in, char *out, size_t len);

/* Options of "ras-fdr-ctl edac". */
struct edac_opts {
	struct ras_db_filter f;
	bool json, live, report;
	char path[64];
};

/* edac --report: counts per controller and DIMM (or csrow/channel) with labels. */
int ctl_edac_report(const struct edac_opts *o, const struct edac_view *v);

/* Asks "question [y/N]" on the terminal unless yes; 1 when confirmed. */
int ctl_confirm(const char *question, bool yes);

#endif
