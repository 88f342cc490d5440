/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "event_table.h"
#include "fdr_boot.h"
#include "formats.h"

/*
 * Tracepoint systems whose events are defined in modular code, and the
 * module. The others in the event table are always built in: mce (x86
 * core), ras (drivers/ras, a bool option), memory_failure (mm), devlink
 * and net (net core), block (block core) and signal (kernel/signal.c).
 */
static const struct { const char *system; const char *module; } modular[] = {
	{ "cxl", "cxl_core" },
};

static const char *module_of(const char *system)
{
	for (size_t i = 0; i < sizeof(modular) / sizeof(modular[0]); i++)
		if (!strcmp(modular[i].system, system))
			return modular[i].module;
	return NULL;
}

/* modules.builtin lists built-in modules as paths such as kernel/drivers/cxl/core/cxl_core.ko. */
static bool module_built_in(const struct fdr_boot_paths *p, const char *module)
{
	char *buf, want[96];
	bool found = false;

	if (!p->modules_builtin || ras_read_file(p->modules_builtin, &buf, NULL) < 0)
		return false;
	snprintf(want, sizeof(want), "/%s.ko", module);
	for (char *line = buf; line && *line && !found; ) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		size_t wlen = strlen(want);

		found = len >= wlen && !strncmp(line + len - wlen, want, wlen);
		line = nl ? nl + 1 : NULL;
	}
	free(buf);
	return found;
}

static bool kernel_has(const char *tracing_dir, const char *sys, const char *ev)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events/%s/%s", tracing_dir, sys, ev);
	return access(path, F_OK) == 0;
}

unsigned fdr_boot_events(const struct fdr_boot_paths *p, struct fdr_boot_event *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ras_n_event_types && n < max; i++) {
		const struct ras_event_type *t = &ras_event_types[i];
		struct fdr_boot_event *e = &out[n++];

		e->system = t->system;
		e->event = t->event;
		e->module = NULL;
		if (t->alt_system && !kernel_has(p->tracing_dir, t->system, t->event) &&
		    kernel_has(p->tracing_dir, t->alt_system, t->event))
			e->system = t->alt_system;
		e->state = FDR_BOOT_USABLE;
		e->module = module_of(e->system);
		if (e->module && !module_built_in(p, e->module))
			e->state = FDR_BOOT_MODULE;
		else if (!kernel_has(p->tracing_dir, e->system, e->event))
			e->state = FDR_BOOT_ABSENT;
		else if (t->keep)
			e->state = FDR_BOOT_FILTERED;
	}
	return n;
}

int fdr_boot_param(char *out, size_t len, const char *instance, const char *flags,
		   const char *label, const struct fdr_boot_event *ev, unsigned n)
{
	size_t used;

	used = (size_t)snprintf(out, len, "trace_instance=%s%s%s%s%s", instance,
				flags && *flags ? "^" : "", flags ? flags : "",
				label && *label ? "@" : "", label ? label : "");
	for (unsigned i = 0; i < n && used < len; i++)
		if (ev[i].state == FDR_BOOT_USABLE)
			used += (size_t)snprintf(out + used, len - used, ",%s:%s", ev[i].system,
						 ev[i].event);
	return used < len ? 0 : -E2BIG;
}

bool fdr_kernel_at_least(const char *release, int major, int minor)
{
	char *end;
	long maj = strtol(release, &end, 10), min = 0;

	if (end == release)
		return false;
	if (*end == '.')
		min = strtol(end + 1, NULL, 10);
	return maj > major || (maj == major && min >= minor);
}

unsigned long fdr_persistent_mib(unsigned per_cpu_kb, long ncpus)
{
	unsigned long long kb = (unsigned long long)per_cpu_kb * (unsigned long long)(ncpus > 0 ? ncpus : 1);
	unsigned long long mib = (kb + 1023) / 1024;

	return mib < 1 ? 1 : (unsigned long)mib;
}
