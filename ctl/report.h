/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl report: filling the model of report/report.h (report_model.c, report_machine.c). */
#ifndef RAS_CTL_REPORT_H
#define RAS_CTL_REPORT_H

#include "ctl.h"
#include "report/report.h"

struct report_args {
	struct ctl *c;
	struct ras_db_filter f;       /* --since, --until, --include-synthetic */
	const char *part;             /* --part: a part's name, or a piece of it */
	const char *output;           /* -o FILE; NULL: standard output */
	bool json, redact, machine;
};

/*
 * The model from the database: parts from ras_db_summary (the same counts),
 * their timelines from ras_db_summary over each column's window, actions,
 * crashes, losses, boots, the configuration file, and --part's records.
 * 0, or -errno with the reason on stderr.
 */
int report_build(struct ras_db *db, const struct report_args *a, struct rpt_model *m);
/*
 * The live machine's identity, read from sysfs under sysfs_root (DMI, the
 * SMBIOS table, CPU PPIN), /proc/cpuinfo and uname. What cannot be read is
 * left out; the serials' files refused are in unread. NULL only when out of memory.
 */
struct rpt_machine *report_machine(const char *sysfs_root);

/* report_verdicts.c: the diagnosis's verdicts, as health reads them (none: an older database). */
int report_verdicts(struct ras_db *db, const struct report_args *a, struct rpt_model *m);
/*
 * Each part (a summary location) joined to the verdict health gives the
 * part it names: by the verdict's label standing as a word of the location,
 * else by its key (an EDAC "mcN a:b:c" as summary writes it, or the key as a
 * word). The first in health's order, worst first; -1 when none names it.
 * report_join.c: each verdict's strings read once into hash tables, each
 * part's pieces looked up. 0 or -ENOMEM.
 */
int report_join(struct rpt_model *m);
/* report_map.c: the DIMM map from the stored EDAC topology, else the slots the parts name. */
int report_map(struct ras_db *db, struct rpt_model *m);
/* report_model.c: the parts (summary's counts, --part) and their timelines. */
int report_parts(struct ras_db *db, const struct report_args *a, struct rpt_model *m);
struct rpt_part *report_find_part(struct rpt_model *m, unsigned idx, const char *loc);
/* 0 corrected, 1 uncorrected (every severity worse), 2 other (informational, unknown). */
int report_class_of(const char *severity);
/* One zeroed element added to the array *vp of *n; NULL when out of memory. */
void *report_grow(void *vp, size_t *n, size_t size);
/* strdup, "" for NULL. */
char *report_dup(const char *s);

#endif
