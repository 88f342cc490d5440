/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl metrics: the database's counts as OpenMetrics text. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "db/db_metrics.h"

static const struct option metrics_opts[] = {
	{ "top", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void metrics_usage(FILE *out)
{
	fprintf(out,
		"Usage: ras-fdr-ctl metrics [--top N] [--format openmetrics|prometheus] [--output FILE]\n"
		"  --top N       subjects per DIMM/CPU/PCIe series before 'other' (default %d)\n"
		"  --format F    openmetrics (default) or prometheus (node_exporter's text format)\n"
		"  --output FILE replace FILE atomically instead of printing\n",
		RAS_METRICS_TOP_DEFAULT);
}

struct metrics_args {
	unsigned top;
	enum ras_metrics_format fmt;
	const char *output;
};

static int parse_metrics_args(int argc, char **argv, struct metrics_args *a)
{
	int64_t top;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", metrics_opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (ctl_parse_i64(optarg, 0, 1000000, false, &top) < 0) {
				fprintf(stderr, "ras-fdr-ctl: --top takes a whole number from 0 to "
					"1000000, not '%s'\n", optarg);
				return 2;
			}
			a->top = (unsigned)top;
			break;
		case 'f':
			if (!strcmp(optarg, "openmetrics"))
				a->fmt = RAS_MFMT_OPENMETRICS;
			else if (!strcmp(optarg, "prometheus"))
				a->fmt = RAS_MFMT_PROMETHEUS;
			else {
				fprintf(stderr, "ras-fdr-ctl: --format takes openmetrics or prometheus\n");
				return 2;
			}
			break;
		case 'o': a->output = optarg; break;
		case 'h': metrics_usage(stdout); return 0;
		default: metrics_usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ras-fdr-ctl: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return -1;
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
