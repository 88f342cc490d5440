/* SPDX-License-Identifier: MIT */
/*
 * DIMM label files, in the format rasdaemon users keep in
 * /etc/ras/dimm_labels.d (see ras-fdr-labels(5)):
 *
 *   Vendor: Supermicro
 *     Model: X11DPi-N            (also Board: or Product:)
 *       P1-DIMMA1: 0.0.0;  P1-DIMMA2: 0.0.1
 *
 * A block applies to a machine whose DMI board vendor matches Vendor and
 * whose board name (Model:, Board:) or product name (Product:) matches one
 * of the block's lines; all matching is case-insensitive. A location is
 * mc.top[.mid[.low]], the mc_event layers.
 */
#ifndef RAS_DIMM_LABELS_H
#define RAS_DIMM_LABELS_H

#include <stdbool.h>

struct dimm_labels;

struct dmi_ident {
	char board_vendor[128], board_name[128], product_name[128], sys_vendor[128];
};

typedef void (*dimm_labels_error_fn)(void *ctx, const char *file, unsigned line,
				     const char *reason);

struct dimm_labels *dimm_labels_new(void);
void dimm_labels_free(struct dimm_labels *l);
/*
 * Parses one file into l. Problems are reported as (file, line, reason); a
 * file with any problem contributes nothing. Returns the number of problems,
 * or -errno if the file cannot be read.
 */
int dimm_labels_load_file(struct dimm_labels *l, const char *path,
			  dimm_labels_error_fn on_error, void *ctx);
/* Same, from a string (tests; name is used in messages). */
int dimm_labels_load_text(struct dimm_labels *l, const char *name, const char *text,
			  dimm_labels_error_fn on_error, void *ctx);
/*
 * Loads every regular file, in name order, of each space-separated
 * directory; missing directories are skipped. Returns the number of
 * problems or -errno on allocation failure.
 */
int dimm_labels_load_dirs(struct dimm_labels *l, const char *dirs,
			  dimm_labels_error_fn on_error, void *ctx);

/* Reads <sysfs_root>/class/dmi/id/{board_vendor,board_name,product_name,sys_vendor}. */
void dmi_ident_read(const char *sysfs_root, struct dmi_ident *id);
/* Sets the machine that lookups with a NULL board key refer to. */
void dimm_labels_set_machine(struct dimm_labels *l, const struct dmi_ident *id);
/* "vendor|board|product" of the machine set, for messages and the database. */
const char *dimm_labels_board_key(const struct dimm_labels *l);
/* Number of label entries that apply to the machine set. */
unsigned dimm_labels_count_matching(const struct dimm_labels *l);

/*
 * The label for an mc_event location (-1 for absent layers) on the machine
 * set (board_key NULL) or on the machine named by a board key of the form
 * "vendor|board|product". NULL if no label file says.
 */
const char *dimm_labels_lookup(const struct dimm_labels *l, const char *board_key_or_NULL,
			       int mc, int top, int mid, int low);

/* True for labels that name no socket: empty, "any memory", or the kernel's "mc#0..." default. */
bool dimm_label_is_placeholder(const char *label);

#endif
