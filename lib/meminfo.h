/* SPDX-License-Identifier: MIT */
/*
 * /proc/meminfo's "Key:   N kB" lines: the kernel's count of poisoned memory
 * (HardwareCorrupted, the pages memory_failure() took out this boot) for the
 * poison threshold (rasd/actions_stats.c).
 */
#ifndef RAS_MEMINFO_H
#define RAS_MEMINFO_H

#include <stddef.h>
#include <stdint.h>

/* The value of key in meminfo text, in kB: 0, -ENOENT without the line, -EINVAL when malformed. */
int ras_meminfo_parse(const char *text, const char *key, uint64_t *kb);
/* The same from proc_root/meminfo ("/proc" on a real machine); -errno when it cannot be read. */
int ras_meminfo_read(const char *proc_root, const char *key, uint64_t *kb);

#endif
