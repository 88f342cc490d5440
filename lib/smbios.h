/* SPDX-License-Identifier: MIT */
/*
 * SMBIOS type 17 (Memory Device) records from the raw structure table the
 * kernel exports in /sys/firmware/dmi/tables/DMI (DMTF DSP0134). Every
 * offset and string index is checked against the blob; a short or
 * malformed structure ends the walk instead of being trusted.
 */
#ifndef RAS_SMBIOS_H
#define RAS_SMBIOS_H

#include <stddef.h>
#include <stdint.h>

#define SMBIOS_STR_LEN 65

struct smbios_memory_device {
	uint16_t handle;
	uint64_t size_mb;               /* 0: no module installed; UINT64_MAX: unknown */
	uint8_t form_factor, memory_type;
	uint8_t rank;                   /* 0: unknown */
	uint16_t speed_mts;             /* 0: unknown */
	char locator[SMBIOS_STR_LEN];   /* silkscreen of the socket, e.g. "DIMM_A1" */
	char bank_locator[SMBIOS_STR_LEN];
	char manufacturer[SMBIOS_STR_LEN];
	char serial[SMBIOS_STR_LEN];
	char part_number[SMBIOS_STR_LEN];
};

/*
 * Parses up to max type-17 records from a table blob into out. Returns the
 * number found (which may exceed max; only max are written), or -EINVAL if
 * the first structure is already malformed.
 */
int smbios_memory_devices(const uint8_t *blob, size_t len, struct smbios_memory_device *out,
			  unsigned max);
/* Reads a whole file (the DMI table) into a malloc'd buffer; 0 or -errno. */
int smbios_read_table(const char *path, uint8_t **blob, size_t *len);
/* "DDR4", "DDR5", ... or "Unknown" for the type-17 Memory Type byte. */
const char *smbios_memory_type_name(uint8_t type);

#endif
