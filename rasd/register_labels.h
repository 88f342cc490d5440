/* SPDX-License-Identifier: MIT */
/*
 * register_labels = yes: the DIMM labels rasd knows (labels.d, matched to
 * this board) written into EDAC sysfs, where other tools (edac-util, the
 * kernel's own messages) read them: mcN/dimmM/dimm_label (rankM on
 * chip-select controllers), or mcN/csrowI/chJ_dimm_label where a controller
 * shows only the older csrow layout. Only a label that differs from the
 * kernel's is written; each write is a decision in the actions table (kind
 * dimm, action label), logged when it fails.
 */
#ifndef RASD_REGISTER_LABELS_H
#define RASD_REGISTER_LABELS_H

#include "actions.h"
#include "lib/config.h"
#include "lib/dimm_labels.h"

/* Labels written (or, with dry_run, that would be), or -errno when EDAC cannot be read. */
int rasd_register_labels(const struct rasd_config *cfg, const struct dimm_labels *labels,
			 struct ras_actions *a);

#endif
