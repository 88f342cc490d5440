/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl metrics: the database's counts and rasd's liveness as OpenMetrics text. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "db/db_crashes.h"
#include "db/db_metrics.h"
#include "db/db_parts.h"
#include "lib/rasd_state.h"

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static const struct ctl_opt metrics_opts[] = {
	{ "subjects", 'n', "N", CTL_C_NONE, "DIMMs, CPUs and PCIe devices whose corrected errors have "
	  "series of their own, the first N to appear (default " STRINGIFY(RAS_METRICS_NAMED_DEFAULT)
	  "; --top is an older name)" },
	{ "top", 'n', "N", CTL_C_NONE, "the same as --subjects" },
	{ "format", 'f', "openmetrics|prometheus|json", CTL_C_WORDS,
	  "openmetrics (default), prometheus (node_exporter's text format) or json" },
	CTL_OPT_JSON,
	{ "output", 'o', "FILE", CTL_C_FILE, "replace FILE atomically instead of printing" },
	{ NULL },
};

const struct ctl_spec ctl_metrics_spec = {
	.name = "metrics", .args = "", .opts = metrics_opts,
	.summary = "the database's counts and rasd's liveness as OpenMetrics (or Prometheus, JSON)",
};

struct metrics_args {
	unsigned named;
	enum ras_metrics_format fmt;
	const char *output;
};

static int metrics_opt(void *ctx, int key, const char *arg)
{
	struct metrics_args *a = ctx;
	int64_t n;

	switch (key) {
	case 'n':
		if (ctl_parse_i64(arg, 0, RAS_METRICS_MAX_SUBJECTS, false, &n) < 0)
			return ctl_usage_error("metrics", "--subjects takes a number from 0 to %d, not '%s'",
					       RAS_METRICS_MAX_SUBJECTS, arg);
		a->named = (unsigned)n;
		break;
	case 'f':
		if (!strcmp(arg, "openmetrics"))
			a->fmt = RAS_MFMT_OPENMETRICS;
		else if (!strcmp(arg, "prometheus"))
			a->fmt = RAS_MFMT_PROMETHEUS;
		else if (!strcmp(arg, "json"))
			a->fmt = RAS_MFMT_JSON;
		else
			return ctl_usage_error("metrics", "--format takes openmetrics, prometheus or json, "
					       "not '%s'", arg);
		break;
	case 'j': a->fmt = RAS_MFMT_JSON; break;
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

/* rasd's liveness from its lock and state file: a killed rasd is never up (lib/rasd_state.h). */
static void liveness(struct ctl *c, struct ras_metrics *m)
{
	struct ras_rasd_state st;
	enum ras_metrics_storage storage = RAS_MSTORE_UNKNOWN;

	ras_rasd_state_read(c->cfg.lock_dir, c->cfg.instance, &st);
	if (st.alive)
		storage = st.failing ? RAS_MSTORE_FAILING : RAS_MSTORE_WORKING;
	else if (st.stopped)
		storage = RAS_MSTORE_STOPPED;
	else if (st.killed)
		storage = RAS_MSTORE_KILLED;
	ras_metrics_set_liveness(m, st.lock_pid != 0, storage, st.alive ? st.start_ns : 0,
				 st.replaced_ns, c->cfg.database);
}

/*
 * Collects everything and writes it in fmt to path (NULL: standard output).
 * 0 or -errno, with why set when the path rule refused path's directory.
 */
static int metrics_out(struct ctl *c, unsigned named, enum ras_metrics_format fmt, const char *path,
		       char *why, size_t whylen)
{
	struct ras_metrics *m;
	struct ras_db *db;
	int r;

	if (ctl_open_db(c, &db) < 0)
		return -ENOENT;
	m = malloc(sizeof(*m));
	if (!m) {
		ras_db_close(db);
		return -ENOMEM;
	}
	ras_metrics_init(m);
	r = ras_db_metrics_collect(db, m);
	ras_db_crash_metrics(db, m);
	/* The diagnosis's series (a database without its tables has none). */
	if (r == 0 && ras_db_parts_metrics(db, m) == -ENOMEM)
		r = -ENOMEM;
	ras_db_close(db);
	ras_metrics_read_info(m, c->cfg.tracing_dir, c->cfg.instance);
	liveness(c, m);
	if (r == 0 && path)
		r = ras_metrics_write_file(m, named, fmt, path, why, whylen);
	else if (r == 0 && (r = ras_metrics_print(m, named, fmt, stdout)) == 0 && fflush(stdout))
		r = -errno;
	ras_metrics_free(m);
	free(m);
	return r;
}

int ctl_metrics_refresh_textfile(struct ctl *c)
{
	char why[PATH_MAX + 300] = "";
	int r;

	if (!c->cfg.metrics_textfile[0])
		return 0;
	r = metrics_out(c, RAS_METRICS_NAMED_DEFAULT, RAS_MFMT_PROMETHEUS, c->cfg.metrics_textfile,
			why, sizeof(why));
	if (r < 0 && r != -ENOENT)
		fprintf(stderr, "ras-fdr-ctl: cannot write metrics_textfile %s: %s\n",
			c->cfg.metrics_textfile, why[0] ? why : strerror(-r));
	return r;
}

int ctl_metrics(struct ctl *c, int argc, char **argv)
{
	struct metrics_args a = { .named = RAS_METRICS_NAMED_DEFAULT, .fmt = RAS_MFMT_OPENMETRICS };
	char why[PATH_MAX + 300] = "";
	int r = parse_metrics_args(argc, argv, &a);

	if (r >= 0)
		return r;
	r = metrics_out(c, a.named, a.fmt, a.output, why, sizeof(why));
	if (r < 0 && r != -ENOENT)
		fprintf(stderr, "ras-fdr-ctl: metrics: %s\n", why[0] ? why : strerror(-r));
	return r < 0 ? 1 : 0;
}
