/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl inject: --synthetic writes a record laid out exactly as the
 * tracepoint's format into rasd's instance through trace_marker_raw; the
 * other kinds go through the kernel's own injectors (ctl_inject_kernel.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ctl.h"
#include "inject_kernel.h"
#include "lib/formats.h"
#include "lib/synthetic.h"
#include "lib/tracing.h"

static const char synthetic_help[] =
	"--synthetic TYPE [FIELD=VALUE ...] writes one record laid out as the tracepoint's\n"
	"format into rasd's instance (trace_marker_raw). TYPE is system:event, the event or\n"
	"its table name, e.g. ras:mc_event. Fields are the tracepoint's; integers in any C\n"
	"base, strings as text, byte arrays as hex. Unset fields are zero or empty. rasd\n"
	"stores the record only with allow_synthetic = yes, with source 'synthetic'.\n\n";

static const struct ctl_opt inject_opts[] = {
	{ "synthetic", 's', "TYPE", CTL_C_TYPE, "a synthetic record of TYPE, fields as FIELD=VALUE" },
	{ "yes", 'y', NULL, CTL_C_NONE, "kernel injectors: do it (they raise real errors)" },
	{ NULL },
};

const struct ctl_spec ctl_inject_spec = {
	.name = "inject", .args = "--synthetic TYPE [FIELD=VALUE ...] | KIND [OPTIONS] --yes",
	.opts = inject_opts, .raw = true, .positional = CTL_C_WORDS,
	.words = "mce aer memory-failure edac",
	.summary = "write a synthetic record, or raise an error through the kernel's injectors",
	.more = synthetic_help, .more_fn = ctl_inject_kernel_usage,
};

static void usage(FILE *out)
{
	ctl_print_help(&ctl_inject_spec, out);
}

static int write_marker(const char *instance_dir, const uint8_t *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t w;
	int fd, e;

	snprintf(path, sizeof(path), "%s/trace_marker_raw", instance_dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ras-fdr-ctl: cannot open %s: %s (is rasd running?)\n", ctl_text(path),
			strerror(errno));
		return -errno;
	}
	w = write(fd, buf, len);
	e = errno;
	close(fd);
	/*
	 * The kernel answers EBADF when its ring buffer cannot take the record:
	 * full with overwrite off (rasd's setting: nothing is read from it, rasd
	 * is stopped or stuck) or tracing off in the instance.
	 */
	if (w < 0 && e == EBADF) {
		fprintf(stderr, "ras-fdr-ctl: %s refused the record: the instance's ring buffer is "
			"full (nobody reads it: is rasd running?) or tracing is off in it\n", path);
		return -ENOSPC;
	}
	if (w != (ssize_t)len) {
		fprintf(stderr, "ras-fdr-ctl: writing %s failed: %s\n", ctl_text(path),
			w < 0 ? strerror(e) : "short write");
		return -EIO;
	}
	return 0;
}

static int inject_synthetic(struct ctl *c, const char *name, char **assign, int n)
{
	const struct ras_event_type *t = ras_event_type_find(name);
	char dir[PATH_MAX], inst[PATH_MAX], err[512], cmd[PATH_MAX * 2];
	struct ras_formats *fmt = NULL;
	uint8_t buf[RAS_SYNTH_MAX + 256];
	int r, len;

	if (!t) {
		return ctl_usage_error("inject", "unknown event type '%s'", name);
	}
	if (ras_tracing_find(c->cfg.tracing_dir, dir, sizeof(dir), err, sizeof(err)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(err));
		return 1;
	}
	snprintf(inst, sizeof(inst), "%s/instances/%s", dir, c->cfg.instance);
	r = ras_formats_load(&fmt, dir, inst, c->cfg.formats_dir);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: cannot read tracepoint formats: %s\n", strerror(-r));
		return 1;
	}
	unsigned idx = (unsigned)(t - ras_event_types);
	if (!fmt->type[idx].event) {
		fprintf(stderr, "ras-fdr-ctl: no format for %s:%s: the running kernel lacks it "
			"and %s has no copy\n", t->system, t->event, ctl_text(c->cfg.formats_dir));
		ras_formats_free(fmt);
		return 1;
	}
	len = ras_synth_build(fmt->type[idx].event, fmt->type[idx].system, assign, n, buf,
			      sizeof(buf), err, sizeof(err));
	ras_formats_free(fmt);
	if (len < 0) {
		/* The reason quotes the assignments given. */
		fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(err));
		return 2;
	}
	if (write_marker(inst, buf, (size_t)len) < 0)
		return 1;
	/* rasd stores it asynchronously: say what was written and how to find it, with the
	 * global options given (the database -c or -d named). */
	ctl_command_line(c, cmd, sizeof(cmd));
	printf("wrote a synthetic %s:%s record (%d bytes, %d field%s set) into %s at %lld; find it "
	       "with: %s errors --type %s --since @%lld\n", t->system, t->event, len, n,
	       n == 1 ? "" : "s", ctl_text(inst), (long long)time(NULL), ctl_text(cmd), t->table,
	       (long long)time(NULL));
	return 0;
}

int ctl_inject(struct ctl *c, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--synthetic")) {
		if (argc < 3) {
			usage(stderr);
			return 2;
		}
		return inject_synthetic(c, argv[2], argv + 3, argc - 3);
	}
	return ctl_inject_kernel(argc - 1, argv + 1);
}
