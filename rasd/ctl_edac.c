/* SPDX-License-Identifier: MIT */
/* Placeholder until the EDAC work lands. */
#include <stdio.h>
#include "ctl.h"

int ctl_edac(struct ctl *c, int argc, char **argv) { fprintf(stderr, "not yet\n"); return 1; }
int ctl_layout(struct ctl *c, int argc, char **argv) { fprintf(stderr, "not yet\n"); return 1; }
int ctl_labels(struct ctl *c, int argc, char **argv) { fprintf(stderr, "not yet\n"); return 1; }
int ctl_reset(struct ctl *c, int argc, char **argv) { fprintf(stderr, "not yet\n"); return 1; }
int ctl_summary_by_dimm(struct ctl *c, const struct ras_db_filter *f, bool json) { fprintf(stderr, "not yet\n"); return 1; }
