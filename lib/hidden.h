/* SPDX-License-Identifier: MIT */
/*
 * Kernel settings that keep hardware errors from ever reaching the RAS
 * tracepoints: the corrected-error collector, a second consumer, machine
 * check logging switched off, tracepoints the kernel was built without.
 */
#ifndef RAS_HIDDEN_H
#define RAS_HIDDEN_H

typedef void (*hidden_report_fn)(void *ctx, const char *condition, const char *advice);

/* Where to look; every path may be replaced by a fake tree in tests. */
struct hidden_paths {
	const char *sysfs_root;    /* /sys */
	const char *debugfs_root;  /* /sys/kernel/debug */
	const char *tracing_dir;   /* tracefs root; NULL: tracefs unavailable */
	const char *cmdline;       /* /proc/cmdline */
	const char *dev_root;      /* /dev */
	const char *machine;       /* uname -m; machine checks are x86 only */
};

/*
 * Calls report once per condition found. Returns the number reported, or
 * -errno when nothing could be checked. Never prints.
 */
int hidden_conditions(const char *sysfs_root, const char *debugfs_root, const char *tracing_dir,
		      void (*report)(void *ctx, const char *condition, const char *advice),
		      void *ctx);
int hidden_conditions_at(const struct hidden_paths *p, hidden_report_fn report, void *ctx);

#endif
