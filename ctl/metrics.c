/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl metrics: the database's counts as OpenMetrics text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "db/db_crashes.h"
#include "db/db_metrics.h"

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static const struct ctl_opt metrics_opts[] = {
	{ "top", 'n', "N", CTL_C_NONE, "subjects per DIMM/CPU/PCIe series before 'other' (default "
	  STRINGIFY(RAS_METRICS_TOP_DEFAULT) ")" },
	{ "format", 'f', "openmetrics|prometheus", CTL_C_WORDS,
	  "openmetrics (default) or prometheus (node_exporter's text format)" },
	{ "output", 'o', "FILE", CTL_C_FILE, "replace FILE atomically instead of printing" },
	{ NULL },
};

const struct ctl_spec ctl_metrics_spec = {
	.name = "metrics", .args = "", .opts = metrics_opts,
	.summary = "the database's counts as OpenMetrics (or Prometheus) text",
};

struct metrics_args {
	unsigned top;
	enum ras_metrics_format fmt;
	const char *output;
};

static int metrics_opt(void *ctx, int key, const char *arg)
{
	struct metrics_args *a = ctx;
	int64_t n;

	switch (key) {
	case 'n':
		if (ctl_parse_i64(arg, 0, 1000000, false, &n) < 0)
			return ctl_usage_error("metrics", "--top takes a number from 0 to 1000000, not '%s'", arg);
		a->top = (unsigned)n;
		break;
	case 'f':
		if (!strcmp(arg, "openmetrics"))
			a->fmt = RAS_MFMT_OPENMETRICS;
		else if (!strcmp(arg, "prometheus"))
			a->fmt = RAS_MFMT_PROMETHEUS;
		else
			return ctl_usage_error("metrics", "--format takes openmetrics or prometheus, not '%s'", arg);
		break;
	case 'o': a->output = arg; break;
	}
	return CTL_GO_ON;
}

static int parse_metrics_args(int argc, char **argv, struct metrics_args *a)
{
	int first, r = ctl_parse(&ctl_metrics_spec, argc, argv, metrics_opt, a, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("metrics", "unexpected argument '%s'", argv[first]);
	return CTL_GO_ON;
}

int ctl_metrics(struct ctl *c, int argc, char **argv)
{
	struct metrics_args a = { .top = RAS_METRICS_TOP_DEFAULT, .fmt = RAS_MFMT_OPENMETRICS };
	struct ras_metrics *m;
	struct ras_db *db;
	int r = parse_metrics_args(argc, argv, &a);

	if (r >= 0)
		return r;
	if (ctl_open_db(c, &db) < 0)
		return 1;
	m = malloc(sizeof(*m));
	if (!m) {
		ras_db_close(db);
		return 1;
	}
	ras_metrics_init(m);
	r = ras_db_metrics_collect(db, m);
	ras_db_crash_metrics(db, m);
	ras_db_close(db);
	ras_metrics_read_info(m, c->cfg.tracing_dir, c->cfg.instance);
	if (r == 0 && a.output)
		r = ras_metrics_write_file(m, a.top, a.fmt, a.output);
	else if (r == 0 && (r = ras_metrics_print(m, a.top, a.fmt, stdout)) == 0 && fflush(stdout))
		r = -errno;
	if (r < 0)
		fprintf(stderr, "ras-fdr-ctl: metrics: %s\n", strerror(-r));
	ras_metrics_free(m);
	free(m);
	return r < 0 ? 1 : 0;
}
