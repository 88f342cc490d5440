/* SPDX-License-Identifier: MIT */
/*
 * An ARM CPU's MPIDR to the logical CPU number Linux gave it, read at run
 * time from sysfs, for an arm_event that does not name its CPU (kernels
 * before the field, or -EINVAL where the kernel's own map lacked the MPIDR).
 * /proc/cpuinfo on arm64 shows no MPIDR; sysfs does, per firmware:
 *
 *   devicetree: devices/system/cpu/cpuN/of_node/reg, the cpu node's reg,
 *     big-endian cells holding MPIDR_EL1's affinity fields
 *     (Documentation/devicetree/bindings/arm/cpus.yaml);
 *   ACPI: devices/system/cpu/cpuN/firmware_node/uid, the processor device's
 *     _UID, which is the "ACPI Processor UID" of that CPU's GICC structure in
 *     the MADT (firmware/acpi/tables/APIC), whose MPIDR field is at byte 68
 *     (ACPI 6.5 5.2.12.14, GIC CPU Interface Structure, type 0x0B).
 *
 * Both compare the affinity fields only (Aff3 at bits 39:32, Aff2-Aff0 at
 * 23:0), as the kernel's MPIDR_HWID_BITMASK does.
 */
#ifndef RAS_CPU_MAP_H
#define RAS_CPU_MAP_H

#include <stddef.h>
#include <stdint.h>

#define RAS_MPIDR_AFFINITY_MASK UINT64_C(0xff00ffffff)

struct ras_cpu_map;

/*
 * Reads the map under sysfs_root. 0 and *out (possibly empty: an x86
 * machine, or firmware that says nothing), or -ENOMEM.
 */
int ras_cpu_map_load(struct ras_cpu_map **out, const char *sysfs_root);
void ras_cpu_map_free(struct ras_cpu_map *m);
/* The logical CPU of an MPIDR, or -1. */
int ras_cpu_map_lookup(const struct ras_cpu_map *m, uint64_t mpidr);
/* How many CPUs the map knows. */
unsigned ras_cpu_map_size(const struct ras_cpu_map *m);

/* A devicetree reg property (1 or 2 big-endian cells) as an MPIDR; 0 or -EINVAL. */
int ras_cpu_map_dt_reg(const uint8_t *reg, size_t len, uint64_t *mpidr);
/* The MPIDR of the MADT's GICC whose ACPI Processor UID is uid; 0, -ENOENT or -EINVAL. */
int ras_cpu_map_madt_mpidr(const uint8_t *madt, size_t len, uint32_t uid, uint64_t *mpidr);

#endif
