/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl inject edac: EDAC's fake_inject debugfs files (see inject_kernel.c). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "inject_kernel.h"
#include "inject_util.h"
#include "lib/fileio.h"

/* ---- edac --------------------------------------------------------------- */

struct edac_opts {
	unsigned mc, count, layer[3], n_layers;
	bool have_mc, ue, yes;
};

static const struct option edac_longopts[] = {
	{ "mc", required_argument, NULL, O_MC },
	{ "type", required_argument, NULL, O_TYPE },
	{ "count", required_argument, NULL, O_COUNT },
	{ "layers", required_argument, NULL, O_LAYERS },
	{ "yes", no_argument, NULL, O_YES },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

static int parse_layers(const char *s, struct edac_opts *o)
{
	char buf[64], *save = NULL, *tok;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	o->n_layers = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->n_layers == 3 || inj_parse_uint(tok, 255, &o->layer[o->n_layers]))
			return -EINVAL;
		o->n_layers++;
	}
	return o->n_layers ? 0 : -EINVAL;
}

static int edac_opt(struct edac_opts *o, int c, const char *arg)
{
	switch (c) {
	case O_MC: o->have_mc = true; return inj_parse_uint(arg, 255, &o->mc);
	case O_TYPE:
		if (strcmp(arg, "ce") && strcmp(arg, "ue"))
			return -EINVAL;
		o->ue = !strcmp(arg, "ue");
		return 0;
	case O_COUNT: return inj_parse_uint(arg, 0xffff, &o->count) || !o->count ? -EINVAL : 0;
	case O_LAYERS: return parse_layers(arg, o);
	case O_YES: o->yes = true; return 0;
	case O_HELP: return 1;
	default: return -EINVAL;
	}
}

static int edac_parse(int argc, char **argv, struct edac_opts *o)
{
	int c, r;

	memset(o, 0, sizeof(*o));
	o->count = 1;
	optind = 0;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "", edac_longopts, NULL)) != -1) {
		r = edac_opt(o, c, optarg);
		if (r == 1) {
			ctl_inject_kernel_usage(stdout);
			return 0;
		}
		if (r)
			return c == '?' ? inj_usage_error("inject edac: bad option")
					: inj_usage_error("inject edac: bad value '%s'", optarg ? optarg : "");
	}
	if (optind < argc)
		return inj_usage_error("inject edac: unexpected argument '%s'", argv[optind]);
	if (!o->have_mc)
		return inj_usage_error("inject edac: --mc is required");
	return -1;
}

/*
 * Layer names in order, from the first DIMM's location ("channel 0 slot 1 ")
 * in sysfs; they name the fake_inject_<layer> debugfs files.
 */
static int edac_layer_names(unsigned mc, char names[3][16], unsigned *n)
{
	static const char *const dimms[] = { "dimm0", "rank0", "csrow0" };
	char path[128], loc[128], *save = NULL, *tok;
	ssize_t len = -1;
	int fd;

	for (size_t i = 0; i < 3 && len <= 0; i++) {
		snprintf(path, sizeof(path), EDAC_SYSFS "/mc%u/%s/dimm_location", mc, dimms[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, loc, sizeof(loc) - 1);
		close(fd);
	}
	if (len <= 0)
		return -ENOENT;
	loc[len] = 0;
	*n = 0;
	for (tok = strtok_r(loc, " \n", &save); tok && *n < 3;
	     tok = strtok_r(NULL, " \n", &save)) {
		snprintf(names[(*n)++], 16, "%s", tok);
		strtok_r(NULL, " \n", &save); /* skip the index */
	}
	return *n ? 0 : -ENOENT;
}

static int edac_need(unsigned mc, char *dir, size_t dirlen)
{
	char path[160];

	snprintf(path, sizeof(path), EDAC_SYSFS "/mc%u", mc);
	if (!inj_path_exists(path)) {
		fprintf(stderr, "ras-fdr-ctl inject: no EDAC memory controller mc%u (%s)\n", mc, path);
		return -ENOENT;
	}
	if (inj_need_debugfs())
		return -ENOENT;
	snprintf(dir, dirlen, EDAC_DEBUGFS "/mc%u", mc);
	snprintf(path, sizeof(path), "%s/fake_inject", dir);
	if (!inj_path_exists(path)) {
		fprintf(stderr, "ras-fdr-ctl inject: %s is missing: EDAC error injection needs a "
			"kernel built with CONFIG_EDAC_DEBUG\n", path);
		return -ENOENT;
	}
	return 0;
}

static int edac_write_layers(const struct edac_opts *o, const char *dir)
{
	char names[3][16], file[32];
	unsigned n = 0;
	int r;

	if (!o->n_layers)
		return 0;
	r = edac_layer_names(o->mc, names, &n);
	if (r || o->n_layers > n) {
		fprintf(stderr, "ras-fdr-ctl inject: mc%u has %u layers, %u given\n",
			o->mc, n, o->n_layers);
		return -EINVAL;
	}
	for (unsigned i = 0; i < o->n_layers; i++) {
		snprintf(file, sizeof(file), "fake_inject_%s", names[i]);
		r = inj_write_u64_file(dir, file, o->layer[i]);
		if (r) {
			fprintf(stderr, "ras-fdr-ctl inject: writing %s/%s: %s\n", dir, file,
				strerror(-r));
			return r;
		}
	}
	return 0;
}

int inject_edac(int argc, char **argv)
{
	struct edac_opts o;
	char dir[128], path[160];
	int r;

	r = edac_parse(argc, argv, &o);
	if (r >= 0)
		return r;
	if (inj_check_common(o.yes))
		return o.yes ? 1 : EXIT_USAGE;
	if (edac_need(o.mc, dir, sizeof(dir)) || edac_write_layers(&o, dir))
		return 1;
	r = inj_write_u64_file(dir, "fake_inject_ue", o.ue);
	if (!r)
		r = inj_write_u64_file(dir, "fake_inject_count", o.count);
	snprintf(path, sizeof(path), "%s/fake_inject", dir);
	if (!r)
		r = ras_write_file(path, "1\n");
	if (r) {
		fprintf(stderr, "ras-fdr-ctl inject: EDAC fake_inject on mc%u: %s\n", o.mc,
			strerror(-r));
		return 1;
	}
	printf("injected %u EDAC %s error%s on mc%u\n", o.count, o.ue ? "uncorrected" :
	       "corrected", o.count == 1 ? "" : "s", o.mc);
	return 0;
}
