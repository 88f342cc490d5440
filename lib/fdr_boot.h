/* SPDX-License-Identifier: MIT */
/*
 * Building the kernel command line for a boot-time tracing instance
 * (trace_instance=, Linux 6.3+) and a persistent one (reserve_mem= with
 * trace_instance=NAME^traceoff@LABEL, Linux 6.12+). Boot instances are made
 * in trace_init(), before any module loads, so only built-in events may be
 * named; the kernel complains about any event it does not know.
 */
#ifndef RAS_FDR_BOOT_H
#define RAS_FDR_BOOT_H

#include <stdbool.h>
#include <stddef.h>

enum fdr_boot_state {
	FDR_BOOT_USABLE,   /* present and built in */
	FDR_BOOT_ABSENT,   /* the running kernel does not have it */
	FDR_BOOT_MODULE,   /* comes from a module: cannot be enabled at boot */
	/*
	 * Needs an event filter (event_table.h keep terms: every signal, every
	 * completed request) that trace_instance= cannot set: unfiltered, it
	 * would fill the boot buffer and push the errors out.
	 */
	FDR_BOOT_FILTERED,
};

struct fdr_boot_event {
	const char *system;     /* the system the running kernel has it under */
	const char *event;
	enum fdr_boot_state state;
	const char *module;     /* for FDR_BOOT_MODULE */
};

struct fdr_boot_paths {
	const char *tracing_dir;
	const char *sysfs_root;       /* /sys */
	const char *modules_builtin;  /* /lib/modules/RELEASE/modules.builtin */
};

/* One entry per event-table row; returns how many were written to out. */
unsigned fdr_boot_events(const struct fdr_boot_paths *p, struct fdr_boot_event *out, unsigned max);
/* "trace_instance=NAME[^FLAGS][@LABEL],sys:ev,..." from the usable events. -E2BIG if too long. */
int fdr_boot_param(char *out, size_t len, const char *instance, const char *flags,
		   const char *label, const struct fdr_boot_event *ev, unsigned n);
/* Compares a release such as "6.18.44-foo" with major.minor; true when at least that. */
bool fdr_kernel_at_least(const char *release, int major, int minor);
/* reserve_mem= size for per_cpu_kb on ncpus, in MiB, rounded up. */
unsigned long fdr_persistent_mib(unsigned per_cpu_kb, long ncpus);

#endif
