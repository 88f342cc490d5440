/* SPDX-License-Identifier: MIT */
/* rasd: the ras-fdr daemon. Options, configuration, then the event loop. */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/timeline.h"
#include "daemon.h"
#include "actions.h"
#include "log.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: rasd [OPTIONS]\n"
		"Records every hardware-error (RAS) tracepoint of the running kernel in SQLite.\n\n"
		"  -c, --config FILE        configuration file (default %s)\n"
		"  -n, --check-config       check the configuration, say which file was read, exit\n"
		"  -d, --db PATH            database file (key: database)\n"
		"  -i, --instance NAME      tracing instance to own (key: instance)\n"
		"  -t, --tracing-dir DIR    tracefs root to use instead of finding it (key: tracing_dir)\n"
		"      --lock-dir DIR       directory of the instance lock (key: lock_dir)\n"
		"      --formats-dir DIR    shipped tracepoint formats (key: formats_dir)\n"
		"      --sysfs-root DIR     sysfs to read EDAC, DMI and PCI from (key: sysfs_root)\n"
		"      --buffer-size-kb N   per-CPU ring-buffer size (key: buffer_size_kb)\n"
		"      --allow-synthetic    store synthetic test records (key: allow_synthetic)\n"
		"      --keep-instance      leave the instance in place at exit (key: keep_instance)\n"
		"      --once               store what is buffered now, then exit\n"
		"      --rebuild-buckets    recompute the threshold buckets from the stored records, exit\n"
		"  -v, --verbose            more log output\n"
		"  -V, --version            print the version\n"
		"  -h, --help               this text\n",
		RASD_DEFAULT_CONFIG);
}

enum { OPT_LOCK = 256, OPT_FORMATS, OPT_SYSFS, OPT_BUFSZ, OPT_SYNTH, OPT_KEEP, OPT_ONCE, OPT_REBUILD };

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "check-config", no_argument, NULL, 'n' },
	{ "db", required_argument, NULL, 'd' },
	{ "instance", required_argument, NULL, 'i' },
	{ "tracing-dir", required_argument, NULL, 't' },
	{ "lock-dir", required_argument, NULL, OPT_LOCK },
	{ "formats-dir", required_argument, NULL, OPT_FORMATS },
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS },
	{ "buffer-size-kb", required_argument, NULL, OPT_BUFSZ },
	{ "allow-synthetic", no_argument, NULL, OPT_SYNTH },
	{ "keep-instance", no_argument, NULL, OPT_KEEP },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "rebuild-buckets", no_argument, NULL, OPT_REBUILD },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Command-line settings are applied after the file, so they win. */
struct overrides {
	const char *key[16];
	const char *value[16];
	int n;
};

static void override(struct overrides *o, const char *key, const char *value)
{
	if (o->n < 16) {
		o->key[o->n] = key;
		o->value[o->n++] = value;
	}
}

static int parse_args(int argc, char **argv, struct rasd_options *opt, struct overrides *o,
		      bool *check)
{
	int c;

	while ((c = getopt_long(argc, argv, "c:nd:i:t:vVh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'c': opt->config_path = optarg; opt->config_explicit = true; break;
		case 'n': *check = true; break;
		case 'd': override(o, "database", optarg); break;
		case 'i': override(o, "instance", optarg); break;
		case 't': override(o, "tracing_dir", optarg); break;
		case OPT_LOCK: override(o, "lock_dir", optarg); break;
		case OPT_FORMATS: override(o, "formats_dir", optarg); break;
		case OPT_SYSFS: override(o, "sysfs_root", optarg); break;
		case OPT_BUFSZ: override(o, "buffer_size_kb", optarg); break;
		case OPT_SYNTH: override(o, "allow_synthetic", "yes"); break;
		case OPT_KEEP: override(o, "keep_instance", "yes"); break;
		case OPT_ONCE: opt->once = true; break;
		case OPT_REBUILD: opt->rebuild_buckets = true; break;
		case 'v': opt->verbosity++; break;
		case 'V': printf("rasd %s\n", PACKAGE_VERSION); exit(0);
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rasd: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

static void print_config_error(void *ctx, const char *file, unsigned line, const char *reason)
{
	fprintf(stderr, "%s:%u: %s\n", file, line, reason);
}

static int load_config(struct rasd_config *cfg, struct rasd_options *opt, const struct overrides *o)
{
	int errors = 0, r;

	rasd_config_defaults(cfg);
	if (!opt->config_path)
		opt->config_path = RASD_DEFAULT_CONFIG;
	r = rasd_config_load(cfg, opt->config_path, print_config_error, NULL);
	if (r == -ENOENT && !opt->config_explicit)
		r = 0;
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", opt->config_path, strerror(-r));
		return 1;
	}
	errors += r;
	for (int i = 0; i < o->n; i++) {
		const char *why = NULL;

		if (rasd_config_set(cfg, o->key[i], o->value[i], &why) < 0) {
			fprintf(stderr, "command line: %s '%s': %s\n", o->key[i], o->value[i], why);
			errors++;
		}
	}
	return errors;
}

int main(int argc, char **argv)
{
	struct rasd_options opt = { 0 };
	struct overrides o = { 0 };
	struct rasd_config cfg;
	bool check = false;
	sigset_t mask;
	int r;

	/*
	 * Buffers of 256 KiB and more (the records held until commit, a storm's
	 * arrays) are mapped and given back when freed. Left to glibc, the limit
	 * rises to the largest block freed, later ones come from the heap and stay
	 * there: a 1M-record storm's peak RSS was 99 MiB, 80 MiB with this, the
	 * same time (make bench, default configuration).
	 */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	/* Blocked from the start: a stop request during set-up is handled by the loop's signalfd. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);

	if (parse_args(argc, argv, &opt, &o, &check) < 0)
		return 2;
	if (load_config(&cfg, &opt, &o) > 0)
		return 1;
	opt.override_key = o.key;
	opt.override_value = o.value;
	opt.n_overrides = o.n;
	if (check) {
		/* load_config took a missing default file as "use the built-in defaults". */
		if (access(opt.config_path, F_OK) == 0)
			printf("configuration OK (read %s)\n", opt.config_path);
		else
			printf("configuration OK (%s not found: built-in defaults)\n", opt.config_path);
		return 0;
	}
	/* Under systemd stderr is the journal already; send structured entries instead. */
	opt.journal = getenv("INVOCATION_ID") && getenv("JOURNAL_STREAM");
	ras_log_init(opt.journal, opt.verbosity, &(struct ras_log_rates){
		cfg.log_corrected_per_minute, cfg.log_uncorrected_per_minute });
	if (opt.rebuild_buckets)
		return ras_actions_rebuild_database(&cfg) < 0 ? 1 : 0;
	/* Profiling only: RAS_FDR_TIMELINE=path notes when each thread waits (HACKING.md). */
	ras_tl_open();
	r = rasd_run(&cfg, &opt);
	ras_tl_close();
	return r;
}
