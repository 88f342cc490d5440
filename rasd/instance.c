/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "instance.h"
#include "log.h"

static void report_formats(const struct ras_formats *fmt)
{
	char absent[2048] = "";
	size_t n = 0;

	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_type_format *tf = &fmt->type[i];
		const struct ras_event_type *t = &ras_event_types[i];

		if (tf->state == RAS_FMT_MALFORMED)
			ras_log(LOG_WARNING, "tracepoint %s:%s skipped: %s", t->system, t->event,
				tf->problem);
		else if (tf->state != RAS_FMT_KERNEL && n < sizeof(absent))
			n += (size_t)snprintf(absent + n, sizeof(absent) - n, "%s%s:%s",
					      n ? " " : "", t->system, t->event);
	}
	if (n)
		ras_log(LOG_INFO, "tracepoints absent from this kernel: %s", absent);
}

/* An event of the kernel's that the configuration wants; 0 an event it does not; -1 none. */
static int kernel_event_wanted(const struct ras_formats *fmt, const struct rasd_config *cfg,
			       unsigned i)
{
	const struct ras_type_format *tf = &fmt->type[i];
	const struct ras_event_type *t = &ras_event_types[i];

	if (tf->state != RAS_FMT_KERNEL)
		return -1;
	return rasd_config_event_wanted(cfg, tf->system, t->event, t->table);
}

unsigned rasd_instance_enable_events(struct ras_tracing *tr, const struct ras_formats *fmt,
				     const struct rasd_config *cfg)
{
	unsigned enabled = 0;

	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_type_format *tf = &fmt->type[i];
		const char *event = ras_event_types[i].event;
		int wanted = kernel_event_wanted(fmt, cfg, i);

		if (wanted < 0)
			continue;
		/* A reload may have dropped an event: turn it off in the instance. */
		if (!wanted) {
			if (ras_tracing_disable(tr, tf->system, event) < 0)
				ras_log(LOG_WARNING, "cannot disable %s:%s", tf->system, event);
			continue;
		}
		if (ras_tracing_enable(tr, tf->system, event) < 0) {
			ras_log(LOG_WARNING, "cannot enable %s:%s", tf->system, event);
			continue;
		}
		enabled++;
	}
	return enabled;
}

void rasd_instance_log_recording(const struct ras_tracing *tr, unsigned enabled, const char *more)
{
	ras_log(LOG_INFO, "recording %u RAS tracepoints in instance %s%s", enabled, tr->instance_dir,
		more);
}

int rasd_instance_open(struct ras_tracing *tr, struct ras_formats **fmt,
		       struct ras_decode_ctx *dctx, const struct rasd_config *cfg)
{
	char dir[PATH_MAX], err[512] = "";
	int r = ras_tracing_find(cfg->tracing_dir, dir, sizeof(dir), err, sizeof(err));

	if (r == 0)
		r = ras_tracing_open(tr, dir, cfg->instance, err, sizeof(err));
	if (r == 0)
		r = ras_formats_load(fmt, dir, tr->instance_dir, cfg->formats_dir);
	if (r < 0) {
		ras_log(LOG_ERR, "%s", err[0] ? err : strerror(-r));
		return r;
	}
	if (tr->real && !tr->created)
		ras_log(LOG_NOTICE, "taking back instance %s left by an earlier rasd; "
			"its buffered records are stored first", tr->instance_dir);
	report_formats(*fmt);
	ras_decode_ctx_load_memfail(dctx, *fmt);
	/* A replayed tree may come from another machine: its PCI addresses are not ours. */
	dctx->pci_sysfs_root = tr->real ? cfg->sysfs_root : NULL;
	/* CPU numbers are this machine's whatever the tree: actions offline this machine's CPUs. */
	dctx->cpu_sysfs_root = cfg->sysfs_root;
	return 0;
}

/* Appends " what," to the list being said; failed: it could not be set back. */
static void note_change(char *list, size_t cap, size_t *n, const char *what, bool *failed, int r)
{
	if (*n < cap)
		*n += (size_t)snprintf(list + *n, cap - *n, " %s,", what);
	*failed |= r < 0;
}

/*
 * Something else turned rasd's events or tracing off, or overwrite on
 * (trace-cmd reset -a, a script): errors would go unrecorded, or be replaced,
 * with no sign. Set back, said at LOG_WARNING with what was changed; what
 * arrived meanwhile the kernel never recorded, and the line says since when.
 */
void rasd_instance_check(struct ras_tracing *tr, const struct ras_formats *fmt,
			 const struct rasd_config *cfg, const char *since)
{
	char list[1024], what[160];
	size_t n = 0;
	bool failed = false;
	int r;

	list[0] = 0;
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const char *system = fmt->type[i].system, *event = ras_event_types[i].event;

		/* Unknown (-EIO) is not "off": only a file that says 0 is set back. */
		if (kernel_event_wanted(fmt, cfg, i) != 1 || ras_tracing_event_is_on(tr, system, event) != 0)
			continue;
		snprintf(what, sizeof(what), "%s:%s off", system, event);
		note_change(list, sizeof(list), &n, what, &failed, ras_tracing_enable(tr, system, event));
	}
	/* On, a storm would replace older records with no count of them. */
	if ((r = ras_tracing_keep_overwrite_off(tr)) != 0)
		note_change(list, sizeof(list), &n, "overwrite on", &failed, r);
	if (ras_tracing_is_on(tr) == 0)
		note_change(list, sizeof(list), &n, "tracing_on off", &failed, ras_tracing_on(tr, true));
	if (n)
		ras_log(LOG_WARNING, "something changed instance %s since %s:%s %s; errors in between "
			"may not have been recorded", tr->instance_dir, since, list,
			failed ? "not all could be set back" : "set back");
}
