/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl: query, inspect and exercise a ras-fdr database and daemon. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ctl.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: ras-fdr-ctl [GLOBAL OPTIONS] COMMAND [OPTIONS]\n\n"
		"Global options:\n"
		"  -c, --config FILE      rasd configuration to take paths from (default %s)\n"
		"  -d, --db PATH          database file\n"
		"  -t, --tracing-dir DIR  tracefs root (status, inject)\n"
		"  -i, --instance NAME    rasd's tracing instance (status, inject)\n"
		"  -s, --sysfs-root DIR   sysfs to read EDAC, DMI and PCI from (edac, labels, layout)\n\n"
		"Commands:\n"
		"  summary  [--since T] [--until T] [--type T] [--boot N] [--by dimm] [--include-synthetic] [--json]\n"
		"  errors   [--type T] [--since T] [--until T] [--limit N] [--boot N] [--json]\n"
		"  status\n"
		"  inject   --synthetic TYPE [field=value ...] | KIND ... --yes\n"
		"  decode   mce|aer [register options] | [FILE ...]   (see decode --help)\n"
		"  edac     [mcN[/dimmM[/FILE]]] [--since T] [--until T] [--live] [--report] [--json]\n"
		"  layout   [--json]\n"
		"  labels   print | register | guess\n"
		"  reset    [mcN[/dimmM]] [--purge] [--yes]\n"
		"  snapshot list [--json] | show ID | take [--reason TEXT]\n"
		"  boot-cmdline [--persistent] [--instance NAME] [--size KB]\n"
		"  metrics  [--top N] [--format openmetrics|prometheus] [--output FILE]\n"
		"  export   --cursor-file FILE [--json] [--batch N]\n"
		"  import   rasdaemon [PATH]\n"
		"  help\n\n"
		"Times: 2026-11-22, 2026-11-22T10:00:00Z, @UNIXSECONDS, -30m, -2h, -7d, now.\n",
		RASD_DEFAULT_CONFIG);
}

static void print_config_error(void *ctx, const char *file, unsigned line, const char *reason)
{
	fprintf(stderr, "%s:%u: %s\n", file, line, reason);
}

int ctl_open_db(struct ctl *c, struct ras_db **db)
{
	char err[512];

	if (ras_db_open_reader(db, c->cfg.database, err, sizeof(err)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", err);
		return -1;
	}
	return 0;
}

static int parse_relative(const char *s, int64_t *ns)
{
	static const struct { char unit; int64_t sec; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'w', 604800 },
	};
	struct timespec now;
	char *end;
	long long n = strtoll(s + 1, &end, 10);

	if (end == s + 1 || strlen(end) != 1)
		return -EINVAL;
	clock_gettime(CLOCK_REALTIME, &now);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (*end == units[i].unit) {
			*ns = ((int64_t)now.tv_sec - n * units[i].sec) * 1000000000 + now.tv_nsec;
			return 0;
		}
	}
	return -EINVAL;
}

int ctl_parse_time(const char *s, int64_t *ns)
{
	struct tm tm = { 0 };
	const char *end;
	char *e;

	if (!strcmp(s, "now"))
		return parse_relative("-0s", ns);
	if (s[0] == '-')
		return parse_relative(s, ns);
	if (s[0] == '@') {
		long long sec = strtoll(s + 1, &e, 10);

		if (e == s + 1 || *e)
			return -EINVAL;
		*ns = (int64_t)sec * 1000000000;
		return 0;
	}
	static const char *const formats[] = {
		"%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d",
	};

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(s, formats[i], &tm);
		if (end && *end == 'Z')
			end++;
		if (end && !*end)
			break;
		end = NULL;
	}
	if (!end)
		return -EINVAL;
	*ns = (int64_t)timegm(&tm) * 1000000000;
	return 0;
}

static int resolve_boot(struct ctl *c, struct ras_db_filter *f, const char *arg)
{
	static char boot[64];
	struct ras_db *db;
	long back = strtol(arg, NULL, 10);
	int r;

	/* 0 is this boot, -1 the one before, as in journalctl; a boot id is taken as is. */
	if (strlen(arg) > 8) {
		snprintf(boot, sizeof(boot), "%s", arg);
		f->boot_id = boot;
		return 0;
	}
	if (ctl_open_db(c, &db) < 0)
		return -EIO;
	r = ras_db_boot_by_offset(db, (unsigned)(back < 0 ? -back : back), boot, sizeof(boot));
	ras_db_close(db);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: the database has no boot %s\n", arg);
		return r;
	}
	f->boot_id = boot;
	return 0;
}

int ctl_filter_option(struct ctl *c, struct ras_db_filter *f, int opt, const char *arg)
{
	const struct ras_event_type *t;

	switch (opt) {
	case 'S':
	case 'U':
		if (ctl_parse_time(arg, opt == 'S' ? &f->since_ns : &f->until_ns) < 0) {
			fprintf(stderr, "ras-fdr-ctl: cannot read time '%s'\n", arg);
			return -EINVAL;
		}
		return 0;
	case 'T':
		t = ras_event_type_find(arg);
		if (!t) {
			fprintf(stderr, "ras-fdr-ctl: unknown event type '%s'\n", arg);
			return -EINVAL;
		}
		f->type_idx = (int)(t - ras_event_types);
		return 0;
	case 'L':
		f->limit = (unsigned)strtoul(arg, NULL, 10);
		return 0;
	case 'B':
		return resolve_boot(c, f, arg);
	case 'I':
		f->include_synthetic = true;
		return 0;
	}
	return -EINVAL;
}

void ctl_print_json_string(const char *s, size_t len)
{
	putchar('"');
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static const struct option global_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "db", required_argument, NULL, 'd' },
	{ "tracing-dir", required_argument, NULL, 't' },
	{ "instance", required_argument, NULL, 'i' },
	{ "sysfs-root", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static const struct { const char *name; int (*fn)(struct ctl *, int, char **); } commands[] = {
	{ "summary", ctl_summary },
	{ "errors", ctl_errors },
	{ "status", ctl_status },
	{ "inject", ctl_inject },
	{ "decode", ctl_decode },
	{ "edac", ctl_edac },
	{ "layout", ctl_layout },
	{ "labels", ctl_labels },
	{ "reset", ctl_reset },
	{ "snapshot", ctl_snapshot },
	{ "boot-cmdline", ctl_boot_cmdline },
	{ "metrics", ctl_metrics },
	{ "export", ctl_export },
	{ "import", ctl_import },
};

static int load_config(struct ctl *c, const char *db, const char *tdir, const char *inst, bool explicit)
{
	const char *why;
	int r;

	rasd_config_defaults(&c->cfg);
	r = rasd_config_load(&c->cfg, c->config_path, print_config_error, NULL);
	if (r < 0 && (r != -ENOENT || explicit)) {
		fprintf(stderr, "ras-fdr-ctl: %s: %s\n", c->config_path, strerror(-r));
		return -1;
	}
	if ((db && rasd_config_set(&c->cfg, "database", db, &why) < 0) ||
	    (tdir && rasd_config_set(&c->cfg, "tracing_dir", tdir, &why) < 0) ||
	    (inst && rasd_config_set(&c->cfg, "instance", inst, &why) < 0)) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", why);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ctl c = { .config_path = RASD_DEFAULT_CONFIG };
	const char *db = NULL, *tdir = NULL, *inst = NULL, *sysfs = NULL;
	bool explicit = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "+c:d:t:i:s:hV", global_opts, NULL)) != -1) {
		switch (opt) {
		case 'c': c.config_path = optarg; explicit = true; break;
		case 'd': db = optarg; break;
		case 't': tdir = optarg; break;
		case 'i': inst = optarg; break;
		case 's': sysfs = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("ras-fdr-ctl %s\n", PACKAGE_VERSION); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc || !strcmp(argv[optind], "help")) {
		usage(optind >= argc ? stderr : stdout);
		return optind >= argc ? 2 : 0;
	}
	if (load_config(&c, db, tdir, inst, explicit) < 0)
		return 1;
	if (sysfs && rasd_config_set(&c.cfg, "sysfs_root", sysfs, &(const char *){ NULL }) < 0) {
		fprintf(stderr, "ras-fdr-ctl: --sysfs-root must be an absolute path\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(argv[optind], commands[i].name)) {
			char **sub = argv + optind;
			int subc = argc - optind;

			optind = 1;
			return commands[i].fn(&c, subc, sub);
		}
	}
	fprintf(stderr, "ras-fdr-ctl: unknown command '%s' (try 'ras-fdr-ctl help')\n", argv[optind]);
	return 2;
}
