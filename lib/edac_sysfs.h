/* SPDX-License-Identifier: MIT */
/*
 * The kernel's EDAC memory-controller tree, read into plain structs:
 * <sysfs_root>/devices/system/edac/mc/mcN with both layouts the kernel
 * exposes, the csrowN/chM_* one and the dimmN (or rankN) one. Reading only;
 * the same structs are filled from a stored snapshot by db_edac.c.
 */
#ifndef RAS_EDAC_SYSFS_H
#define RAS_EDAC_SYSFS_H

#include <stdbool.h>
#include <stdint.h>

#define EDAC_MAX_LAYERS 3
#define EDAC_MAX_CSROW_CHANNELS 16
#define EDAC_NAME_LEN 32
#define EDAC_LABEL_LEN 64
#define EDAC_TEXT_LEN 80

/* One DIMM (dimmN) or rank (rankN, on chip-select based controllers). */
struct edac_dimm {
	unsigned index;
	bool is_rank;
	int pos[EDAC_MAX_LAYERS];        /* position per layer; -1 where the layer is absent */
	char location[EDAC_TEXT_LEN];    /* dimm_location as the kernel prints it, trimmed */
	char label[EDAC_LABEL_LEN];      /* dimm_label */
	char configured_label[EDAC_LABEL_LEN]; /* from the label files; "" if none */
	uint64_t size_mb;                /* "size" */
	char mem_type[EDAC_NAME_LEN], dev_type[EDAC_NAME_LEN], edac_mode[EDAC_NAME_LEN];
	uint64_t ce_count, ue_count;     /* the kernel's counters, live reads only */
	int csrow, cschannel;            /* where the csrow view shows it; -1 unknown */
};

struct edac_csrow_channel {
	char dimm_label[EDAC_LABEL_LEN];
	char configured_label[EDAC_LABEL_LEN];
	uint64_t ce_count;
	int pos[EDAC_MAX_LAYERS];        /* the mc_event layers that land here; -1 absent */
};

struct edac_csrow {
	unsigned index;
	uint64_t size_mb;
	char mem_type[EDAC_NAME_LEN], dev_type[EDAC_NAME_LEN], edac_mode[EDAC_NAME_LEN];
	uint64_t ce_count, ue_count;
	unsigned n_channels;
	struct edac_csrow_channel ch[EDAC_MAX_CSROW_CHANNELS];
};

struct edac_mc {
	unsigned index;
	char mc_name[EDAC_TEXT_LEN];
	uint64_t size_mb, seconds_since_reset;
	uint64_t ce_count, ue_count, ce_noinfo_count, ue_noinfo_count;
	char max_location[EDAC_TEXT_LEN];
	unsigned n_layers;
	char layer_name[EDAC_MAX_LAYERS][EDAC_NAME_LEN];
	unsigned layer_size[EDAC_MAX_LAYERS];
	struct edac_dimm *dimms;
	unsigned n_dimms;
	struct edac_csrow *csrows;
	unsigned n_csrows;
};

struct edac_topology {
	struct edac_mc *mcs;
	unsigned n_mcs;
};

/*
 * Reads every memory controller under sysfs_root. -ENOENT when the EDAC
 * directory does not exist (no EDAC driver); other -errno on failure. On
 * success the caller frees *out with edac_topology_free().
 */
int edac_sysfs_read(const char *sysfs_root, struct edac_topology *out);
void edac_topology_free(struct edac_topology *t);
/* Sorts DIMMs and csrows by index, as edac_sysfs_read() leaves them. */
void edac_mc_sort(struct edac_mc *mc);
/* Sorts controllers by index, and each one's DIMMs and csrows when each_mc. */
void edac_topology_sort(struct edac_topology *t, bool each_mc);

/* "channel 1 slot 0" -> names and positions; returns the number of layers or -EINVAL. */
int edac_parse_location(const char *text, char names[EDAC_MAX_LAYERS][EDAC_NAME_LEN],
			int pos[EDAC_MAX_LAYERS]);
/*
 * Fills csrow/cschannel of every DIMM and the layers of every csrow
 * channel, the way the kernel's allocator assigns DIMMs to csrows.
 */
void edac_mc_link_csrows(struct edac_mc *mc);

const struct edac_mc *edac_topology_mc(const struct edac_topology *t, unsigned index);
/* The DIMM at exactly these layers (-1 for absent layers), or NULL. */
const struct edac_dimm *edac_mc_dimm_at(const struct edac_mc *mc, int top, int mid, int low);
/* The csrow channel that these layers land in; returns false if none. */
bool edac_mc_csrow_at(const struct edac_mc *mc, int top, int mid, int low,
		      unsigned *csrow_idx, unsigned *channel);
/* A structural fingerprint: names, layers, labels, sizes, types; not the counters. */
uint64_t edac_topology_digest(const struct edac_topology *t);

#endif
