/* SPDX-License-Identifier: MIT */
/*
 * Which SMBIOS type 17 memory device (its locator, bank locator, part
 * number and serial) an EDAC DIMM is, said only where the kernel or the
 * DIMM's label says it: never guessed from the order of sockets.
 *
 * The devices are read at run time from <sysfs_root>/firmware/dmi/entries/
 * 17-N/raw, one structure per file (DMTF DSP0134), with lib/smbios.c's
 * parser. An EDAC label matches a device when it is
 *   - "unknown memory (handle: 0xHHHH)": ghes_edac's own mapping of the
 *     DIMM to the structure with that handle, when the strings were empty;
 *   - "BANK LOCATOR", as ghes_edac (and CPER's "DIMM location:") writes the
 *     device it found by its SMBIOS handle; or the bank locator alone, or
 *     the locator alone, when the other string is empty;
 *   - the locator, as a label file or the firmware set it.
 * Exactly one populated device must match; two (a locator repeated per
 * bank) or none is "not known".
 */
#ifndef RAS_DIMM_LOCATOR_H
#define RAS_DIMM_LOCATOR_H

#include <stddef.h>
#include "smbios.h"

#define DIMM_LOCATOR_MAX 512

struct dimm_locators {
	struct smbios_memory_device *dev;
	unsigned n;
	int error;                      /* 0, or the -errno reading the entries failed with */
};

/*
 * Reads every 17-N/raw under sysfs_root, in N order (up to DIMM_LOCATOR_MAX).
 * 0 (n may be 0), or -errno (also kept in l->error: -EACCES needs root,
 * -ENOENT no DMI). Free with dimm_locators_free().
 */
int dimm_locators_read(const char *sysfs_root, struct dimm_locators *l);
void dimm_locators_free(struct dimm_locators *l);

enum dimm_match_by {
	DIMM_MATCH_NONE,                /* no device: "locator not known" */
	DIMM_MATCH_HANDLE,              /* ghes_edac's "unknown memory (handle: 0x...)" */
	DIMM_MATCH_BANK_LOCATOR,        /* "BANK LOCATOR" (ghes_edac, CPER) */
	DIMM_MATCH_LOCATOR,             /* the label is the locator */
	DIMM_MATCH_AMBIGUOUS,           /* the label names more than one device */
};

/* The device label names (DIMM_MATCH_NONE/AMBIGUOUS: NULL), and how. */
const struct smbios_memory_device *dimm_locator_match(const struct dimm_locators *l,
						      const char *label, enum dimm_match_by *by);
/* "the kernel's SMBIOS handle", "bank locator and locator", "locator", ... */
const char *dimm_match_by_name(enum dimm_match_by by);

struct edac_topology;
/*
 * The device of a DIMM part (key "mc<N> <top>:<mid>:<low>", lib/subject.c):
 * by the label its records carried, else by the label EDAC gives that
 * location now (topo, may be NULL), as labels may have been set since.
 */
const struct smbios_memory_device *dimm_locator_of_part(const struct dimm_locators *l,
							const struct edac_topology *topo,
							const char *key, const char *label,
							enum dimm_match_by *by);

/*
 * What every view says of a DIMM part's device (ras-fdr-ctl health, the
 * report): the device and how it matched, or why it is not known (the
 * entries not readable, none, or the label's answer), in one sentence.
 */
struct dimm_where {
	const struct smbios_memory_device *dev;   /* NULL: not known */
	enum dimm_match_by by;
	char why[128];                  /* dev: how it matched; else why not known */
};
void dimm_where_of_part(const struct dimm_locators *l, const struct edac_topology *topo,
			const char *key, const char *label, struct dimm_where *w);

#endif
