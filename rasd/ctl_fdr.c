/* SPDX-License-Identifier: MIT */
/* Placeholder until the flight-recorder work lands. */
#include <stdio.h>
#include "ctl.h"

int ctl_snapshot(struct ctl *c, int argc, char **argv) { fprintf(stderr, "not yet\n"); return 1; }
int ctl_boot_cmdline(struct ctl *c, int argc, char **argv) { fprintf(stderr, "not yet\n"); return 1; }
