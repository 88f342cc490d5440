/* SPDX-License-Identifier: MIT */
/* Shared by the kernel injectors of ras-fdr-ctl inject (ctl_inject_kernel.c, ctl_inject_mem.c). */
#ifndef RAS_CTL_INJECT_UTIL_H
#define RAS_CTL_INJECT_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#define DEBUGFS "/sys/kernel/debug"
#define DEBUGFS_MAGIC_NR 0x64626720
#define MCE_INJ_DIR DEBUGFS "/mce-inject"
#define AER_INJ_DEV "/dev/aer_inject"
#define EDAC_SYSFS "/sys/devices/system/edac/mc"
#define EDAC_DEBUGFS DEBUGFS "/edac"
#define EXIT_USAGE 2
#define MCE_MAX_COUNT 1000000u

extern char **environ;

/* Option codes of every injector. */
enum { O_BANK = 256, O_STATUS, O_ADDR, O_MISC, O_SYND, O_IPID, O_CPU, O_MCGSTATUS,
       O_HW, O_SW, O_COUNT, O_YES, O_HELP, O_COR, O_UNCOR, O_TLP, O_MC, O_TYPE,
       O_LAYERS };

int inj_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int inj_parse_u64(const char *s, uint64_t *out);
int inj_parse_uint(const char *s, unsigned max, unsigned *out);
int inj_write_u64_file(const char *dir, const char *name, uint64_t v);
bool inj_path_exists(const char *path);
int inj_run_modprobe(const char *module);
int inj_need_root(void);
int inj_need_debugfs(void);
int inj_need_injector(const char *path, const char *module, const char *config);
int inj_check_common(bool yes);

#endif
