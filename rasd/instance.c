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

unsigned rasd_instance_enable_events(struct ras_tracing *tr, const struct ras_formats *fmt,
				     const struct rasd_config *cfg)
{
	unsigned enabled = 0;

	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_type_format *tf = &fmt->type[i];
		const struct ras_event_type *t = &ras_event_types[i];

		if (tf->state != RAS_FMT_KERNEL)
			continue;
		/* A reload may have dropped an event: turn it off in the instance. */
		if (!rasd_config_event_wanted(cfg, tf->system, t->event, t->table)) {
			if (ras_tracing_disable(tr, tf->system, t->event) < 0)
				ras_log(LOG_WARNING, "cannot disable %s:%s", tf->system, t->event);
			continue;
		}
		if (ras_tracing_enable(tr, tf->system, t->event) < 0) {
			ras_log(LOG_WARNING, "cannot enable %s:%s", tf->system, t->event);
			continue;
		}
		enabled++;
	}
	return enabled;
}

void rasd_instance_log_recording(const struct ras_tracing *tr, unsigned enabled)
{
	ras_log(LOG_INFO, "recording %u RAS tracepoints in instance %s", enabled, tr->instance_dir);
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
	return 0;
}

/*
 * Something else turned rasd's events or tracing off, or overwrite on
 * (trace-cmd reset -a, a script): errors would go unrecorded, or be replaced,
 * with no sign. Set back, said at LOG_WARNING with what was changed; what
 * arrived meanwhile the kernel never recorded, and the line says since when.
 */
unsigned rasd_instance_check(struct ras_tracing *tr, const struct ras_formats *fmt,
			     const struct rasd_config *cfg, const char *since)
{
	char off[1024] = "";
	size_t n = 0;
	unsigned fixed = 0;

	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_type_format *tf = &fmt->type[i];
		const struct ras_event_type *t = &ras_event_types[i];

		if (tf->state != RAS_FMT_KERNEL ||
		    !rasd_config_event_wanted(cfg, tf->system, t->event, t->table) ||
		    ras_tracing_event_is_on(tr, tf->system, t->event) != 0)
			continue;
		if (ras_tracing_enable(tr, tf->system, t->event) == 0)
			fixed++;
		if (n < sizeof(off))
			n += (size_t)snprintf(off + n, sizeof(off) - n, " %s:%s off,", tf->system,
					      t->event);
	}
	/* On, a storm would replace older records with no count of them. */
	if (ras_tracing_keep_overwrite_off(tr) != 0 && n < sizeof(off)) {
		fixed++;
		n += (size_t)snprintf(off + n, sizeof(off) - n, " overwrite on,");
	}
	if (ras_tracing_is_on(tr) == 0) {
		if (ras_tracing_on(tr, true) == 0)
			fixed++;
		if (n < sizeof(off))
			n += (size_t)snprintf(off + n, sizeof(off) - n, " tracing_on off,");
	}
	if (n)
		ras_log(LOG_WARNING, "something changed instance %s since %s:%s set back; errors "
			"in between may not have been recorded", tr->instance_dir, since, off);
	return fixed;
}
