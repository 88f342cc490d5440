/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl snapshot (flight-recorder snapshots) and boot-cmdline (boot-time buffers). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "ctl.h"
#include "db/db_snapshot.h"
#include "lib/fdr.h"
#include "lib/fdr_boot.h"
#include "lib/fdr_render.h"
#include "lib/hidden.h"
#include "lib/clock.h"
#include "lib/tracing.h"

/* ---- snapshot list ---- */

struct list_ctx {
	bool json;
	unsigned n;
};

static void print_size(uint64_t bytes, char *out, size_t len)
{
	if (bytes >= 10 * 1024 * 1024)
		snprintf(out, len, "%lluM", (unsigned long long)(bytes >> 20));
	else if (bytes >= 10 * 1024)
		snprintf(out, len, "%lluK", (unsigned long long)(bytes >> 10));
	else
		snprintf(out, len, "%llu", (unsigned long long)bytes);
}

static void print_json_field(const char *name, const char *value)
{
	printf(",\"%s\":", name);
	ctl_print_json_string(value, strlen(value));
}

static int list_one(void *ctx, const struct ras_snapshot *s)
{
	struct list_ctx *l = ctx;
	char when[40], size[16], trigger[96];

	ras_format_time(s->wall_ns, when, sizeof(when));
	if (l->json) {
		printf("%s{\"id\":%lld,", l->n++ ? "," : "", (long long)s->id);
		ctl_print_json_wall(s->wall_ns);
		print_json_field("boot", s->boot_id);
		print_json_field("reason", s->reason);
		print_json_field("trigger_table", s->trigger_table);
		printf(",\"trigger_row_id\":%lld,\"records\":%lld,\"missed\":%lld,\"cpus\":%u,"
		       "\"compressed_bytes\":%zu,\"raw_bytes\":%llu", (long long)s->trigger_row_id,
		       (long long)s->record_count, (long long)s->missed, s->ncpus, s->data_len,
		       (unsigned long long)s->raw_size);
		print_json_field("instance", s->instance);
		putchar('}');
		return 0;
	}
	if (!l->n++)
		printf("%5s  %-27s %8s %4s %6s  %-28s %s\n", "ID", "TAKEN", "RECORDS", "CPUS", "SIZE",
		       "TRIGGER", "REASON");
	print_size(s->data_len, size, sizeof(size));
	if (s->trigger_table[0])
		snprintf(trigger, sizeof(trigger), "%s #%lld", ctl_text(s->trigger_table),
			 (long long)s->trigger_row_id);
	else
		snprintf(trigger, sizeof(trigger), "manual");
	printf("%5lld  %-27s %8lld %4u %6s  %-28s %s\n", (long long)s->id, when,
	       (long long)s->record_count, s->ncpus, size, trigger, ctl_text(s->reason));
	return 0;
}

struct snap_opts {
	bool json;
	const char *reason;
};

static int snapshot_list(struct ctl *c, const struct snap_opts *o, int argc, char **argv)
{
	struct list_ctx l = { .json = o->json };
	struct ras_db *db;
	int r;

	if (argc > 1)
		return ctl_usage_error("snapshot", "list: unexpected argument '%s'", argv[1]);
	if (ctl_open_db(c, &db) < 0)
		return 1;
	if (l.json)
		printf("{\"version\":%d,\"snapshots\":[", CTL_JSON_VERSION);
	r = ras_db_snapshot_list(db, list_one, &l);
	if (l.json)
		printf("]}\n");
	else if (r == 0 || r == -ENOENT)
		printf("No flight-recorder snapshots.\n");
	ras_db_close(db);
	if (r < 0 && r != -ENOENT) {
		fprintf(stderr, "ras-fdr-ctl: cannot list snapshots: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}

/* ---- snapshot show ---- */

static void print_line(void *ctx, const char *line)
{
	unsigned *json_lines = ctx;

	/* A record's text (a process name, a message) is anyone's: shown, never obeyed. */
	if (!json_lines) {
		printf("%s\n", ctl_text(line));
		return;
	}
	printf("%s", (*json_lines)++ ? "," : "");
	ctl_print_json_string(line, strlen(line));
}

static void show_header_json(const struct ras_snapshot *s)
{
	char when[40];

	printf("{\"version\":%d,\"id\":%lld,", CTL_JSON_VERSION, (long long)s->id);
	ctl_print_json_wall(s->wall_ns);
	print_json_field("instance", s->instance);
	print_json_field("boot", s->boot_id);
	print_json_field("reason", s->reason);
	print_json_field("trigger_table", s->trigger_table);
	ras_format_time(s->trigger_wall_ns, when, sizeof(when));
	printf(",\"trigger_row_id\":%lld,\"trigger_wall_ns\":\"%lld\",\"trigger_time\":\"%s\","
	       "\"records\":%lld,\"missed\":%lld,\"cpus\":%u,\"lines\":[", (long long)s->trigger_row_id,
	       (long long)s->trigger_wall_ns, when, (long long)s->record_count, (long long)s->missed,
	       s->ncpus);
}

static void show_header(const struct ras_snapshot *s)
{
	char when[40];

	ras_format_time(s->wall_ns, when, sizeof(when));
	printf("Snapshot %lld, taken %s from instance %s (boot %s)\n", (long long)s->id, when,
	       ctl_text(s->instance), s->boot_id[0] ? ctl_text(s->boot_id) : "unknown");
	printf("Reason: %s\n", s->reason[0] ? ctl_text(s->reason) : "-");
	if (s->trigger_table[0]) {
		ras_format_time(s->trigger_wall_ns, when, sizeof(when));
		printf("Trigger: %s #%lld at %s (ras-fdr-ctl errors --type %s)\n",
		       ctl_text(s->trigger_table), (long long)s->trigger_row_id, when,
		       ctl_text(s->trigger_table));
	} else {
		printf("Trigger: none (taken by hand)\n");
	}
	printf("Records: %lld from %u CPU(s)", (long long)s->record_count, s->ncpus);
	if (s->missed < 0)
		printf("; the kernel overwrote older records (count unknown)");
	else if (s->missed > 0)
		printf("; the kernel overwrote %lld older records", (long long)s->missed);
	printf("\nTimes are seconds relative to the trigger.\n\n");
}

static int snapshot_show(struct ctl *c, const struct snap_opts *o, int argc, char **argv)
{
	struct ras_snapshot s;
	struct fdr_render_stats st;
	struct ras_db *db;
	unsigned json_lines = 0;
	int64_t id;
	int r;

	if (argc != 2)
		return ctl_usage_error("snapshot", "show takes one snapshot ID");
	if (ctl_parse_i64(argv[1], 1, INT64_MAX, false, &id) < 0)
		return ctl_usage_error("snapshot", "show: '%s' is not a snapshot id (1, 2, ...)", argv[1]);
	if (ctl_open_db(c, &db) < 0)
		return 1;
	r = ras_db_snapshot_get(db, id, &s);
	ras_db_close(db);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: snapshot %lld: %s\n", (long long)id,
			r == -ENOENT ? "no such snapshot" : strerror(-r));
		return 1;
	}
	if (o->json)
		show_header_json(&s);
	else
		show_header(&s);
	r = fdr_render_snapshot(&s, print_line, o->json ? &json_lines : NULL, &st);
	ras_snapshot_free(&s);
	if (o->json && r == 0) {
		printf("],\"damaged_sub_buffers\":%u,\"records_without_format\":%u}\n", st.bad_pages,
		       st.unknown_events);
		return 0;
	}
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: snapshot %lld cannot be rendered: %s\n", (long long)id,
			r == -EINVAL ? "damaged or unknown format" : strerror(-r));
		return 1;
	}
	if (st.bad_pages || st.unknown_events)
		printf("\n(%u damaged sub-buffers skipped, %u records without a stored format)\n",
		       st.bad_pages, st.unknown_events);
	return 0;
}

/* ---- snapshot take ---- */

static int open_writer(struct ctl *c, struct ras_db **db)
{
	char boot[64], err[512];

	if (ras_boot_id(boot, sizeof(boot)) < 0)
		snprintf(boot, sizeof(boot), "unknown");
	if (ras_db_open_writer(db, c->cfg.database, boot, err, sizeof(err)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(err));
		return -1;
	}
	return 0;
}

static int take(struct ctl *c, const char *reason)
{
	char dir[PATH_MAX], err[512];
	struct ras_snapshot s;
	struct ras_db *db;
	struct fdr *f;
	int64_t id = 0;
	int r;

	if (ras_tracing_find(c->cfg.tracing_dir, dir, sizeof(dir), err, sizeof(err)) < 0 ||
	    fdr_attach(&f, dir, c->cfg.fdr_instance, err, sizeof(err)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n(is rasd running with fdr_enable = yes?)\n",
			ctl_text(err));
		return 1;
	}
	if (open_writer(c, &db) < 0) {
		fdr_close(f, false);
		return 1;
	}
	r = fdr_capture(f, reason, NULL, 0, 0, 0, &s);
	fdr_close(f, false);
	if (r == 0) {
		r = ras_db_snapshot_insert(db, &s, &id);
		ras_snapshot_free(&s);
	}
	if (r == 0 && ras_db_snapshot_get(db, id, &s) == 0) {
		printf("snapshot %lld: %lld records from %u CPU(s); see 'ras-fdr-ctl snapshot show %lld'\n",
		       (long long)id, (long long)s.record_count, s.ncpus, (long long)id);
		ras_snapshot_free(&s);
	}
	ras_db_close(db);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: capture failed: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}

static int snapshot_take(struct ctl *c, const struct snap_opts *o, int argc, char **argv)
{
	if (argc > 1)
		return ctl_usage_error("snapshot", "take: unexpected argument '%s'", argv[1]);
	if (geteuid() != 0) {
		fprintf(stderr, "ras-fdr-ctl snapshot take: reading the tracing instance needs root\n");
		return 1;
	}
	return take(c, o->reason);
}

static const struct ctl_opt snapshot_opts[] = {
	{ "reason", 'r', "TEXT", CTL_C_NONE, "take: why the snapshot was taken (default manual)" },
	{ "json", 'j', NULL, CTL_C_NONE, "list, show: JSON output (formats in ras-fdr-ctl(8))" },
	{ NULL },
};

const struct ctl_spec ctl_snapshot_spec = {
	.name = "snapshot", .args = "list|show ID|take", .opts = snapshot_opts,
	.positional = CTL_C_WORDS, .words = "list show take",
	.summary = "flight-recorder snapshots: list them, show one, take one now (root)",
};

static int snapshot_opt(void *ctx, int key, const char *arg)
{
	struct snap_opts *o = ctx;

	if (key == 'j')
		o->json = true;
	else
		o->reason = arg;
	return CTL_GO_ON;
}

int ctl_snapshot(struct ctl *c, int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(struct ctl *, const struct snap_opts *, int, char **);
	} subs[] = {
		{ "list", snapshot_list }, { "show", snapshot_show }, { "take", snapshot_take },
	};
	struct snap_opts o = { .reason = "manual" };
	int first, r = ctl_parse(&ctl_snapshot_spec, argc, argv, snapshot_opt, &o, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first >= argc)
		return ctl_usage_error("snapshot", "which: list, show ID or take?");
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[first], subs[i].name))
			return subs[i].fn(c, &o, argc - first, argv + first);
	return ctl_usage_error("snapshot", "unknown action '%s' (list, show, take)", argv[first]);
}

/* ---- boot-cmdline ---- */

struct boot_opts {
	bool persistent, json;
	const char *instance;
	unsigned size_kb;
};

static void print_left_out(const struct fdr_boot_event *ev, unsigned n)
{
	bool header = false;

	for (unsigned i = 0; i < n; i++) {
		char name[96];

		if (ev[i].state == FDR_BOOT_USABLE)
			continue;
		if (!header)
			printf("\nLeft out (the kernel would complain at boot, or the buffer would fill with them):\n");
		header = true;
		snprintf(name, sizeof(name), "%s:%s", ev[i].system, ev[i].event);
		if (ev[i].state == FDR_BOOT_MODULE)
			printf("  %-40s from module %s, loaded after boot instances are made;"
			       " rasd enables it\n", ctl_text(name), ctl_text(ev[i].module));
		else if (ev[i].state == FDR_BOOT_FILTERED)
			printf("  %-40s needs a filter the command line cannot set;"
			       " rasd enables it with one\n", ctl_text(name));
		else
			printf("  %-40s not in this kernel\n", ctl_text(name));
	}
}

static void print_hidden(void *ctx, const char *condition, const char *advice)
{
	bool *first = ctx;

	if (*first)
		printf("\nWhat can still hide errors on this machine:\n");
	*first = false;
	printf("  hidden: %s\n          %s\n", ctl_text(condition), ctl_text(advice));
}

static void print_grub_steps(void)
{
	printf("\nTo add it (Debian, Ubuntu and other GRUB systems):\n"
	       "  1. edit /etc/default/grub and append the parameters inside\n"
	       "     GRUB_CMDLINE_LINUX=\"...\" (space-separated from what is there)\n"
	       "  2. run update-grub (grub2-mkconfig -o /boot/grub2/grub.cfg elsewhere)\n"
	       "  3. reboot, then check: cat /proc/cmdline; ls /sys/kernel/tracing/instances\n");
}

static void print_boot_notes(const struct boot_opts *o)
{
	printf("\nNotes:\n"
	       "  - trace_buf_size= is global: it sizes the top-level buffer and every instance\n"
	       "    created without its own size (rasd sets the size of its own instance).\n"
	       "  - set boot_instance = %s in rasd.conf so rasd drains it at start.\n", o->instance);
}

static void print_persistent_notes(const struct boot_opts *o, const char *label)
{
	printf("\nNotes (persistent buffer, Linux 6.12 or later):\n"
	       "  - reserve_mem= sets aside memory labelled %s; the instance's ring buffer lives\n"
	       "    there and, after a warm reboot, still holds the previous boot's records.\n"
	       "  - ^traceoff keeps the two boots apart: rasd reads what the previous boot left,\n"
	       "    then turns tracing on (persistent_instance = %s in rasd.conf).\n"
	       "  - KASLR may load the next kernel on top of the reservation; reserve_mem= then\n"
	       "    takes other memory and the buffer is lost (a larger alignment does not\n"
	       "    help). On x86 a fixed range does not move: memmap=SIZE$ADDR (free RAM, see\n"
	       "    /proc/iomem; KASLR avoids it) with trace_instance=%s^traceoff@ADDR:SIZE\n"
	       "    in place of reserve_mem= and @%s; in GRUB's file write $ as \\\\\\$.\n"
	       "    Or boot with nokaslr.\n"
	       "  - Firmware may clear memory on reset (always on a cold boot, and with\n"
	       "    memory-clearing options such as CONFIG_RESET_ATTACK_MITIGATION).\n"
	       "  - Only the same kernel build is sure to accept the old buffer; another kernel\n"
	       "    may find it invalid and clear it.\n"
	       "  - A fatal machine check is not traced (the kernel panics first): expect the\n"
	       "    run-up to a crash, the fatal record itself comes back through the banks\n"
	       "    or ERST at the next boot.\n", label, o->instance, o->instance, label);
}

/* The whole parameter string, or -1 after saying why there is none. */
static int build_cmdline(struct ctl *c, const struct boot_opts *o, const char *tracing_dir,
			 const struct utsname *un, struct fdr_boot_event ev[64], unsigned *n,
			 char *out, size_t len)
{
	char builtin[PATH_MAX], param[2048], label[16];
	struct fdr_boot_paths p = { tracing_dir, c->cfg.sysfs_root, builtin };
	unsigned usable = 0;
	size_t k = 0;

	snprintf(builtin, sizeof(builtin), "/lib/modules/%s/modules.builtin", un->release);
	*n = fdr_boot_events(&p, ev, 64);
	for (unsigned i = 0; i < *n; i++)
		usable += ev[i].state == FDR_BOOT_USABLE;
	if (!usable) {
		fprintf(stderr, "ras-fdr-ctl: this kernel has none of the RAS tracepoints built in\n");
		return -1;
	}
	/* reserve_mem labels are at most 15 characters. */
	snprintf(label, sizeof(label), "%s", o->instance);
	if (fdr_boot_param(param, sizeof(param), o->instance, o->persistent ? "traceoff" : NULL,
			   o->persistent ? label : NULL, ev, *n) < 0) {
		fprintf(stderr, "ras-fdr-ctl: the parameter would be too long\n");
		return -1;
	}
	if (o->persistent)
		k = (size_t)snprintf(out, len, "reserve_mem=%luM:4096:%s ",
				     fdr_persistent_mib(o->size_kb, sysconf(_SC_NPROCESSORS_CONF)), label);
	if (k < len)
		k += (size_t)snprintf(out + k, len - k, "%s", param);
	if (!o->persistent && k < len)
		snprintf(out + k, len - k, " trace_buf_size=%uK", o->size_kb);
	return 0;
}

static void print_cmdline_json(const struct boot_opts *o, const struct utsname *un,
			       const struct fdr_boot_event *ev, unsigned n, const char *params)
{
	unsigned k = 0;

	printf("{\"version\":%d,\"kernel\":", CTL_JSON_VERSION);
	ctl_print_json_string(un->release, strlen(un->release));
	printf(",\"persistent\":%s", o->persistent ? "true" : "false");
	print_json_field("instance", o->instance);
	print_json_field("parameters", params);
	printf(",\"left_out\":[");
	for (unsigned i = 0; i < n; i++) {
		char name[96];

		if (ev[i].state == FDR_BOOT_USABLE)
			continue;
		snprintf(name, sizeof(name), "%s:%s", ev[i].system, ev[i].event);
		printf("%s{\"event\":", k++ ? "," : "");
		ctl_print_json_string(name, strlen(name));
		printf(",\"reason\":\"%s\"", ev[i].state == FDR_BOOT_MODULE ? "module" :
		       ev[i].state == FDR_BOOT_FILTERED ? "filter" : "absent");
		if (ev[i].state == FDR_BOOT_MODULE)
			print_json_field("module", ev[i].module);
		putchar('}');
	}
	printf("]}\n");
}

static int print_cmdline(struct ctl *c, const struct boot_opts *o, const char *tracing_dir,
			 const struct utsname *un)
{
	struct fdr_boot_event ev[64];
	char params[2300];
	unsigned n;

	if (build_cmdline(c, o, tracing_dir, un, ev, &n, params, sizeof(params)) < 0)
		return 1;
	if (o->json) {
		print_cmdline_json(o, un, ev, n, params);
		return 0;
	}
	printf("Kernel command-line parameters for %s (kernel %s):\n\n  %s\n",
	       o->persistent ? "a persistent buffer" : "a boot-time instance", ctl_text(un->release),
	       ctl_text(params));
	print_left_out(ev, n);
	print_grub_steps();
	if (o->persistent)
		print_persistent_notes(o, o->instance);
	else
		print_boot_notes(o);
	return 0;
}

static const struct ctl_opt boot_opts_table[] = {
	{ "persistent", 'p', NULL, CTL_C_NONE, "a buffer that survives a warm reboot (Linux 6.12+)" },
	{ "instance", 'i', "NAME", CTL_C_NONE, "the instance name (default boot_instance or "
	  "persistent_instance from rasd.conf)" },
	{ "size", 's', "KB", CTL_C_NONE, "buffer size per CPU in KiB, 8 to 1048576" },
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_boot_cmdline_spec = {
	.name = "boot-cmdline", .args = "", .opts = boot_opts_table,
	.summary = "kernel parameters that keep errors from before rasd starts",
};

static int boot_opt(void *ctx, int key, const char *arg)
{
	struct boot_opts *o = ctx;
	int64_t kb;

	switch (key) {
	case 'p': o->persistent = true; break;
	case 'i': o->instance = arg; break;
	case 'j': o->json = true; break;
	case 's':
		if (ctl_parse_i64(arg, 8, 1048576, false, &kb) < 0)
			return ctl_usage_error("boot-cmdline", "--size takes KiB, 8 to 1048576, not '%s'", arg);
		o->size_kb = (unsigned)kb;
		break;
	}
	return CTL_GO_ON;
}

static int parse_boot_opts(struct ctl *c, int argc, char **argv, struct boot_opts *o)
{
	const char *why;
	int first, r = ctl_parse(&ctl_boot_cmdline_spec, argc, argv, boot_opt, o, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("boot-cmdline", "unexpected argument '%s'", argv[first]);
	if (!o->instance) {
		o->instance = o->persistent ? c->cfg.persistent_instance : c->cfg.boot_instance;
		/* Empty in rasd.conf: rasd harvests no such instance, so there is no name to give. */
		if (!*o->instance)
			return ctl_usage_error("boot-cmdline", "%s is empty in the configuration "
					       "(rasd harvests none); name one with --instance",
					       o->persistent ? "persistent_instance" : "boot_instance");
	}
	/* The name lands in a directory and a command line: the config rules apply. */
	if (!*o->instance || rasd_config_set(&(struct rasd_config){ 0 }, "boot_instance",
					     o->instance, &why) < 0)
		return ctl_usage_error("boot-cmdline", "bad instance name '%s'", o->instance);
	if (o->persistent && strlen(o->instance) > 15)
		return ctl_usage_error("boot-cmdline", "a persistent instance name is also the "
				       "reserve_mem label, at most 15 characters");
	return CTL_GO_ON;
}

int ctl_boot_cmdline(struct ctl *c, int argc, char **argv)
{
	struct boot_opts o = { .size_kb = c->cfg.buffer_size_kb };
	char dir[PATH_MAX], err[256];
	struct utsname un;
	bool first = true;
	int r;

	r = parse_boot_opts(c, argc, argv, &o);
	if (r != CTL_GO_ON)
		return r;
	if (uname(&un) < 0 ||
	    ras_tracing_find(c->cfg.tracing_dir, dir, sizeof(dir), err, sizeof(err)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(err));
		return 1;
	}
	if (!o.json && !fdr_kernel_at_least(un.release, 6, o.persistent ? 12 : 3))
		printf("WARNING: the running kernel %s is older than %s: it does not know %s.\n"
		       "The parameters below are for a newer kernel booted on this machine.\n\n",
		       ctl_text(un.release), o.persistent ? "6.12" : "6.3",
		       o.persistent ? "persistent trace buffers" : "trace_instance=");
	r = print_cmdline(c, &o, dir, &un);
	if (r == 0 && !o.json)
		hidden_conditions(c->cfg.sysfs_root, NULL, dir, print_hidden, &first);
	return r;
}
