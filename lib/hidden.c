/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "formats.h"
#include "hidden.h"

struct hidden {
	const struct hidden_paths *p;
	hidden_report_fn report;
	void *ctx;
	int found;
	char *cmdline;
};

static void say(struct hidden *h, const char *condition, const char *advice)
{
	h->report(h->ctx, condition, advice);
	h->found++;
}

static bool exists(const char *root, const char *rel)
{
	char path[PATH_MAX];

	if (!root)
		return false;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return access(path, F_OK) == 0;
}

/* A number from a one-value sysfs file; -1 when absent or unreadable. */
static long read_number(const char *root, const char *rel)
{
	char path[PATH_MAX], *buf, *end;
	long v;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (ras_read_file(path, &buf, NULL) < 0)
		return -1;
	v = strtol(buf, &end, 0);
	if (end == buf)
		v = -1;
	free(buf);
	return v;
}

/* True when the command line has "mce=..." with option among its comma-separated words. */
static bool cmdline_has(const struct hidden *h, const char *key, const char *option)
{
	size_t klen = strlen(key);

	if (!h->cmdline)
		return false;
	for (const char *w = h->cmdline; *w; ) {
		size_t wlen = strcspn(w, " \t\n");

		if (wlen > klen + 1 && !strncmp(w, key, klen) && w[klen] == '=') {
			const char *v = w + klen + 1, *end = w + wlen;

			while (v < end) {
				size_t vlen = strcspn(v, ",");

				if (v + vlen > end)
					vlen = (size_t)(end - v);
				if (vlen == strlen(option) && !strncmp(v, option, vlen))
					return true;
				v += vlen + 1;
			}
		}
		w += wlen;
		w += strspn(w, " \t\n");
	}
	return false;
}

static bool debugfs_mounted(const char *root)
{
	DIR *d = root ? opendir(root) : NULL;
	struct dirent *e;
	bool any = false;

	if (!d)
		return false;
	while (!any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	closedir(d);
	return any;
}

static bool has_event(const struct hidden *h, const char *sys, const char *ev)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "events/%s/%s", sys, ev);
	return exists(h->p->tracing_dir, rel);
}

static void check_cec(struct hidden *h)
{
	if (exists(h->p->debugfs_root, "ras/cec")) {
		say(h, "the kernel's corrected-error collector (CEC) is active",
		    "it absorbs corrected DRAM errors and reports none until a page reaches its "
		    "threshold (then offlines the page), so they never reach mce:mce_record; "
		    "boot with ras=cec_disable to record every corrected error");
		return;
	}
	/* Only worth a line where machine checks are traced at all. */
	if (!debugfs_mounted(h->p->debugfs_root) && has_event(h, "mce", "mce_record") &&
	    !cmdline_has(h, "ras", "cec_disable"))
		say(h, "cannot tell whether the corrected-error collector (CEC) is active",
		    "debugfs is not mounted (mount -t debugfs none /sys/kernel/debug); if "
		    "/sys/kernel/debug/ras/cec exists, corrected DRAM errors are held back: "
		    "boot with ras=cec_disable");
}

static void check_mcelog(struct hidden *h)
{
	if (exists(h->p->dev_root, "mcelog"))
		say(h, "the legacy /dev/mcelog interface is present",
		    "mcelog, if running, consumes the same machine checks and may act on them "
		    "(page offlining, triggers); its kernel buffer keeps only the first records "
		    "and drops later ones; run a single error collector");
}

static void check_machinecheck(struct hidden *h)
{
	static const char mc0[] = "devices/system/machinecheck/machinecheck0";
	const char *sys = h->p->sysfs_root;
	char rel[128];

	if (cmdline_has(h, "mce", "off"))
		say(h, "machine checks are disabled (mce=off on the kernel command line)",
		    "remove mce=off: hardware errors then go unreported or end in a hang");
	if (cmdline_has(h, "mce", "nobootlog"))
		say(h, "machine checks left over from before the reboot are not logged "
		    "(mce=nobootlog)", "remove mce=nobootlog from the kernel command line");
	if (!sys || !exists(sys, mc0))
		return;
	snprintf(rel, sizeof(rel), "%s/dont_log_ce", mc0);
	if (read_number(sys, rel) == 1)
		say(h, "corrected machine checks are cleared without being logged (dont_log_ce = 1)",
		    "write 0 to /sys/devices/system/machinecheck/machinecheck*/dont_log_ce and "
		    "drop mce=dont_log_ce from the kernel command line");
	snprintf(rel, sizeof(rel), "%s/ignore_ce", mc0);
	if (read_number(sys, rel) == 1)
		say(h, "corrected machine checks are ignored: no polling, no CMCI (ignore_ce = 1)",
		    "write 0 to /sys/devices/system/machinecheck/machinecheck*/ignore_ce and "
		    "drop mce=ignore_ce, unless firmware is meant to own corrected errors");
	snprintf(rel, sizeof(rel), "%s/check_interval", mc0);
	if (read_number(sys, rel) == 0)
		say(h, "machine-check banks are never polled (check_interval = 0)",
		    "corrected errors not signalled by CMCI stay in the banks; write 300 to "
		    "/sys/devices/system/machinecheck/machinecheck*/check_interval");
}

static void check_tracepoints(struct hidden *h)
{
	const char *m = h->p->machine;
	bool x86 = m && (!strcmp(m, "x86_64") || (m[0] == 'i' && !strcmp(m + 2, "86")));

	if (!h->p->tracing_dir || !exists(h->p->tracing_dir, "events")) {
		say(h, "tracefs is not available", "mount it: mount -t tracefs nodev /sys/kernel/tracing");
		return;
	}
	if (x86 && !has_event(h, "mce", "mce_record"))
		say(h, "the kernel has no mce:mce_record tracepoint",
		    "machine checks reach only the kernel log; a kernel with CONFIG_X86_MCE is needed");
	if (!has_event(h, "ras", "mc_event"))
		say(h, "the kernel has no ras:mc_event tracepoint",
		    "memory-controller (EDAC) errors are not traced; CONFIG_RAS and an EDAC driver are needed");
	if (!has_event(h, "ras", "aer_event") && exists(h->p->sysfs_root, "bus/pci/devices"))
		say(h, "the kernel has no ras:aer_event tracepoint",
		    "PCIe AER errors reach only the kernel log; CONFIG_PCIEAER is needed");
	if (!has_event(h, "ras", "memory_failure_event") &&
	    !has_event(h, "memory_failure", "memory_failure_event"))
		say(h, "the kernel has no memory_failure_event tracepoint",
		    "pages retired for hardware poison are not traced; CONFIG_MEMORY_FAILURE is needed");
}

int hidden_conditions_at(const struct hidden_paths *p, hidden_report_fn report, void *ctx)
{
	struct hidden h = { .p = p, .report = report, .ctx = ctx };

	if (!report)
		return -EINVAL;
	if (p->cmdline && ras_read_file(p->cmdline, &h.cmdline, NULL) < 0)
		h.cmdline = NULL;
	check_cec(&h);
	check_mcelog(&h);
	check_machinecheck(&h);
	check_tracepoints(&h);
	free(h.cmdline);
	return h.found;
}

int hidden_conditions(const char *sysfs_root, const char *debugfs_root, const char *tracing_dir,
		      void (*report)(void *ctx, const char *condition, const char *advice),
		      void *ctx)
{
	struct utsname un;
	struct hidden_paths p = {
		.sysfs_root = sysfs_root ? sysfs_root : "/sys",
		.debugfs_root = debugfs_root ? debugfs_root : "/sys/kernel/debug",
		.tracing_dir = tracing_dir,
		.cmdline = "/proc/cmdline",
		.dev_root = "/dev",
	};

	if (uname(&un) == 0)
		p.machine = un.machine;
	return hidden_conditions_at(&p, report, ctx);
}
