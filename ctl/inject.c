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
#include <unistd.h>
#include "ctl.h"
#include "inject_kernel.h"
#include "lib/formats.h"
#include "lib/synthetic.h"
#include "lib/tracing.h"

static void usage(FILE *out)
{
	fprintf(out, "Usage: ras-fdr-ctl inject --synthetic TYPE [field=value ...]\n"
		"       ras-fdr-ctl inject KIND [OPTIONS] --yes   (through the kernel's injectors)\n\n"
		"TYPE is system:event, the event or its table name, e.g. ras:mc_event.\n"
		"Fields are the tracepoint's; integers in any C base, strings as text,\n"
		"byte arrays as hex. Unset fields are zero or empty. rasd stores the\n"
		"record only with allow_synthetic = yes, with source 'synthetic'.\n\n");
	ctl_inject_kernel_usage(out);
}

static int write_marker(const char *instance_dir, const uint8_t *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t w;
	int fd;

	snprintf(path, sizeof(path), "%s/trace_marker_raw", instance_dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ras-fdr-ctl: cannot open %s: %s (is rasd running?)\n", path,
			strerror(errno));
		return -errno;
	}
	w = write(fd, buf, len);
	close(fd);
	if (w != (ssize_t)len) {
		fprintf(stderr, "ras-fdr-ctl: writing %s failed: %s\n", path,
			w < 0 ? strerror(errno) : "short write");
		return -EIO;
	}
	return 0;
}

static int inject_synthetic(struct ctl *c, const char *name, char **assign, int n)
{
	const struct ras_event_type *t = ras_event_type_find(name);
	char dir[PATH_MAX], inst[PATH_MAX], err[512];
	struct ras_formats *fmt = NULL;
	uint8_t buf[RAS_SYNTH_MAX + 256];
	int r, len;

	if (!t) {
		fprintf(stderr, "ras-fdr-ctl: unknown event type '%s'\n", name);
		return 2;
	}
	if (ras_tracing_find(c->cfg.tracing_dir, dir, sizeof(dir), err, sizeof(err)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", err);
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
			"and %s has no copy\n", t->system, t->event, c->cfg.formats_dir);
		ras_formats_free(fmt);
		return 1;
	}
	len = ras_synth_build(fmt->type[idx].event, fmt->type[idx].system, assign, n, buf,
			      sizeof(buf), err, sizeof(err));
	ras_formats_free(fmt);
	if (len < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", err);
		return 2;
	}
	return write_marker(inst, buf, (size_t)len) < 0 ? 1 : 0;
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
