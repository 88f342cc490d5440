/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the firmware bytes lib/cpu_map.c reads, a MADT (ACPI's
 * APIC table, its entry lengths trusted by nothing) searched for a GICC's
 * UID, and a devicetree reg property.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "lib/cpu_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t uid = 0;
	uint64_t mpidr = 0;

	if (size >= 4)
		memcpy(&uid, data, 4);
	/* The whole input as the table, so its "APIC" signature can come from the corpus. */
	if (ras_cpu_map_madt_mpidr(data, size, uid, &mpidr) == 0 &&
	    (mpidr & ~RAS_MPIDR_AFFINITY_MASK))
		__builtin_trap();
	if (ras_cpu_map_dt_reg(data, size, &mpidr) == 0 && (mpidr & ~RAS_MPIDR_AFFINITY_MASK))
		__builtin_trap();
	return 0;
}
