/* SPDX-License-Identifier: MIT */
/*
 * The kernel interfaces actions use, all under a sysfs root (--sysfs-root):
 * page offlining (devices/system/memory/{soft,hard}_offline_page), CPU
 * hotplug (devices/system/cpu/cpuN/online, cache/indexM/shared_cpu_list)
 * and EDAC memory repair (bus/edac/devices/<dev>/mem_repairN, Linux 6.15+,
 * Documentation/ABI/testing/sysfs-edac-memory-repair). Each returns 0 when
 * done, -EOPNOTSUPP when the kernel lacks the interface, or -errno; target
 * says what was (or, with dry_run, would be) written where.
 */
#ifndef RAS_ACT_SYSFS_H
#define RAS_ACT_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/subject.h"

/* One value written in one write(2), truncating (a test's regular file); -EOPNOTSUPP when absent. */
int act_write_sysfs(const char *path, const char *value);
/* how: "soft" or "hard". */
int act_offline_page(const char *root, const char *how, uint64_t addr, bool dry_run,
		     char *target, size_t len);
/*
 * Whether the kernel holds the page of addr poisoned (offline, soft or hard):
 * KPF_HWPOISON (bit 19) of its page frame's 8 bytes in proc_root/kpageflags
 * (Documentation/admin-guide/mm/pagemap.rst; root only, CONFIG_PROC_PAGE_MONITOR).
 * 1, 0, or -errno when the kernel cannot tell (-ENXIO: no such page frame).
 */
int act_page_hwpoison(const char *proc_root, uint64_t addr, uint64_t page_size);
/* Offlines the subject's CPU, or every CPU sharing its cache; never the last online one. */
int act_offline_cpus(const char *root, const struct ras_subject *s, bool dry_run,
		     char *target, size_t len);
/*
 * Asks the subject's memory device to repair its row (PPR or row sparing).
 * -EINVAL (nothing looked up or written, target says why) when the device
 * name the record gave is not one plain path component (lib/safe_path.h).
 */
int act_repair_row(const char *root, const struct ras_subject *s, bool dry_run,
		   char *target, size_t len);
/*
 * CPUs taken offline: cpuN/online files that say 0 (a CPU without one
 * cannot go). Not the kernel's offline list, which also names possible CPUs
 * never present.
 */
int act_offline_cpu_count(const char *root);
/* Parses a kernel CPU list ("0-3,8") into a bitmap of max bits; count set or -EINVAL. */
int act_parse_cpu_list(const char *text, uint8_t *bits, unsigned max);

#endif
