/* SPDX-License-Identifier: MIT */
/*
 * Fake sysfs trees for the EDAC tests, built under a temp dir: the three
 * layouts the kernel uses (an old csrow-only controller, an Intel server
 * controller with dimmN directories over channel/slot, an AMD chip-select
 * controller with rankN directories), the DMI id files, and an SMBIOS
 * table blob holding type 17 records.
 */
#ifndef RAS_EDAC_FIXTURES_H
#define RAS_EDAC_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

/* Writes root/rel (creating directories); 0 or -errno. */
int fx_write(const char *root, const char *rel, const char *content);
/* Two Intel controllers: mc0 (DIMMs 0, 1, 2, 4), mc1 (DIMM 0). */
int fx_intel_tree(const char *root);
/* One AMD controller with four ranks (csrow 0-1 x channel 0-1). */
int fx_amd_tree(const char *root);
/* One old controller with csrow0-1 x ch0-1 and no DIMM directories. */
int fx_csrow_tree(const char *root);
/* Sets a DIMM's kernel counters in the Intel tree: mc, dimm index, ce, ue. */
int fx_set_dimm_counts(const char *root, unsigned mc, unsigned dimm, unsigned ce, unsigned ue);
/* Builds an SMBIOS table: a type 0, the memory devices (NULL locator: empty socket), type 127. */
size_t fx_smbios_blob(uint8_t *out, size_t cap);

#endif
