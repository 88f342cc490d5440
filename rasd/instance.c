/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "instance.h"
#include "log.h"
#include "lib/keep.h"

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
			n += (size_t)snprintf(absent + n, sizeof(absent) - n, "%s%s:%s%s",
					      n ? " " : "", t->system, t->event,
					      !strcmp(tf->problem, "pretend_absent") ?
					      " (pretend_absent)" : "");
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

	/* A stand-in (block_rq_complete) only where the kernel lacks what it stands in for. */
	if (tf->state != RAS_FMT_KERNEL || ras_formats_fallback_unneeded(fmt, i))
		return -1;
	return rasd_config_event_wanted(cfg, tf->system, t->event, t->table);
}

/*
 * A type whose records are mostly not RAS (every signal, every completed
 * request) is filtered in the kernel, before its records take room in the
 * buffer. Set before the event is enabled. A kernel that refuses the
 * expression gets every record, and the pipeline keeps the ones the filter
 * would have kept (lib/keep.c): said once, at LOG_NOTICE.
 */
static void set_filter(struct ras_tracing *tr, const char *system, unsigned i)
{
	const struct ras_event_type *t = &ras_event_types[i];
	char filter[RAS_KEEP_FILTER_LEN];
	int r;

	if (!t->keep || ras_keep_filter(t, filter, sizeof(filter)) < 0 || !filter[0])
		return;
	r = ras_tracing_set_filter(tr, system, t->event, filter);
	if (r == 0) {
		if (tr->filter[i] != 1)
			ras_log(LOG_INFO, "%s:%s filtered in the kernel: %s", system, t->event, filter);
		tr->filter[i] = 1;
		return;
	}
	if (tr->filter[i] != -1)
		ras_log(LOG_NOTICE, "the kernel refused the filter '%s' for %s:%s (%s): rasd reads "
			"every %s record and keeps only those the filter would have kept", filter,
			system, t->event, strerror(-r), t->event);
	tr->filter[i] = -1;
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
		set_filter(tr, tf->system, i);
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
	ras_formats_pretend_absent(*fmt, cfg->pretend_absent);
	report_formats(*fmt);
	ras_decode_ctx_load_memfail(dctx, *fmt);
	/* A replayed tree may come from another machine: its PCI addresses are not ours. */
	dctx->pci_sysfs_root = tr->real ? cfg->sysfs_root : NULL;
	/*
	 * Nor its SoC, unless a sysfs tree was named with it (--sysfs-root: the
	 * replayed machine's, as the tests and an offline analysis give it).
	 */
	if (tr->real || strcmp(cfg->sysfs_root, "/sys"))
		ras_decode_ctx_load_soc(dctx, cfg->sysfs_root);
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

/* A filter the kernel took, cleared or changed since (trace-cmd reset clears them): set back. */
static void check_filter(struct ras_tracing *tr, const char *system, unsigned i, char *list,
			 size_t cap, size_t *n, bool *failed)
{
	const struct ras_event_type *t = &ras_event_types[i];
	char filter[RAS_KEEP_FILTER_LEN], what[160];

	if (tr->filter[i] != 1 || ras_keep_filter(t, filter, sizeof(filter)) < 0 ||
	    ras_tracing_filter_is(tr, system, t->event, filter) != 0)
		return;
	snprintf(what, sizeof(what), "%s:%s filter changed", system, t->event);
	note_change(list, cap, n, what, failed, ras_tracing_set_filter(tr, system, t->event, filter));
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

		if (kernel_event_wanted(fmt, cfg, i) != 1)
			continue;
		check_filter(tr, system, i, list, sizeof(list), &n, &failed);
		/* Unknown (-EIO) is not "off": only a file that says 0 is set back. */
		if (ras_tracing_event_is_on(tr, system, event) != 0)
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
