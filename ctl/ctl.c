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
#include "lib/clock.h"
#include "lib/formats.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: ras-fdr-ctl [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGUMENTS]\n\n"
		"Global options:\n"
		"  -c, --config FILE      rasd configuration to take paths from (default %s)\n"
		"  -d, --db PATH          database file\n"
		"  -t, --tracing-dir DIR  tracefs root (status, inject)\n"
		"  -i, --instance NAME    rasd's tracing instance (status, inject)\n"
		"  -s, --sysfs-root DIR   sysfs to read EDAC, DMI and PCI from (edac, labels, layout)\n\n"
		"Commands (options may come before or after arguments):\n",
		RASD_DEFAULT_CONFIG);
	for (size_t i = 0; i < ctl_n_commands; i++) {
		const struct ctl_command *cmd = &ctl_commands[i];

		if (cmd->name[0] == '_')
			continue;
		fprintf(out, "  %-13s %s\n", cmd->name, cmd->spec ? cmd->spec->summary : "");
	}
	fprintf(out, "  %-13s %s\n\n", "help [CMD]", "this text, or a command's options");
	fprintf(out, "Times: 2026-11-22, 2026-11-22T10:00:00Z, @UNIXSECONDS, -30m, -2h, -7d, now (UTC).\n"
		"Exit status: 0 ok, 1 error, 2 usage, 3 attention needed (see ras-fdr-ctl(8)).\n");
}

static void print_config_error(void *ctx, const char *file, unsigned line, const char *reason)
{
	fprintf(stderr, "%s:%u: %s\n", ctl_text(file), line, ctl_text(reason));
}

static void report_db_error(struct ctl *c, const char *msg)
{
	fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(msg));
	if (!c->json)
		return;
	printf("{\"version\":%d,\"error\":", CTL_JSON_VERSION);
	ctl_print_json_string(msg, strlen(msg));
	printf(",\"database\":");
	ctl_print_json_string(c->cfg.database, strlen(c->cfg.database));
	printf("}\n");
}

/* Where rasd really records, when it had to leave the configured file alone. */
static void add_rasd_hint(struct ctl *c, char *err, size_t len)
{
	char path[PATH_MAX + 160], *buf, *p;
	size_t n = strlen(err);

	snprintf(path, sizeof(path), "%s/rasd-%s.state", c->cfg.lock_dir, c->cfg.instance);
	if (ras_read_file(path, &buf, NULL) < 0)
		return;
	p = strstr(buf, "\ndatabase=");
	if (p) {
		p += 10;
		p[strcspn(p, "\n")] = 0;
		if (*p && strcmp(p, c->cfg.database))
			snprintf(err + n, len - n, " (rasd records into %s: use --db %s)", p, p);
	}
	free(buf);
}

int ctl_open_db(struct ctl *c, struct ras_db **db)
{
	char err[PATH_MAX * 3 + 600];

	if (ras_db_open_reader(db, c->cfg.database, err, sizeof(err)) < 0) {
		add_rasd_hint(c, err, sizeof(err));
		report_db_error(c, err);
		return -1;
	}
	return 0;
}

void ctl_db_error(struct ctl *c, const char *what)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "database %s: %s", c->cfg.database, what);
	report_db_error(c, msg);
}

/* The newest time a nanosecond int64_t holds, in seconds (2262-04-11). */
#define MAX_TIME_SEC INT64_C(9223372035)

static int parse_relative(const char *s, int64_t *ns)
{
	static const struct { char unit; int64_t sec; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'w', 604800 },
	};
	struct timespec now;
	char num[24];
	size_t len = strlen(s + 1);
	int64_t n;

	if (len < 2 || len > sizeof(num) - 1)
		return -EINVAL;
	memcpy(num, s + 1, len - 1);
	num[len - 1] = 0;
	if (num[0] == '-' || ctl_parse_i64(num, 0, MAX_TIME_SEC, false, &n) < 0)
		return -EINVAL;
	clock_gettime(CLOCK_REALTIME, &now);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (s[len] != units[i].unit)
			continue;
		if (n > ((int64_t)now.tv_sec - 1) / units[i].sec)
			return -ERANGE;
		/*
		 * Whole seconds, like every other time given here, rounded up so
		 * "now" includes this second: folded storm records keep their
		 * second (db/db_fold.c), so a window on seconds counts them exactly.
		 */
		*ns = ((int64_t)now.tv_sec + (now.tv_nsec > 0) - n * units[i].sec) * 1000000000;
		return 0;
	}
	return -EINVAL;
}

/* strptime takes 2026-02-31 and timegm rolls it into March: refuse what does not round-trip. */
static int parse_calendar(const char *s, int64_t *sec)
{
	static const char *const formats[] = {
		"%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d",
	};
	struct tm tm, asked, back;
	const char *end = NULL;
	time_t t;

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && !end; i++) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(s, formats[i], &tm);
		if (end && *end == 'Z')
			end++;
		if (end && *end)
			end = NULL;
	}
	if (!end || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	asked = tm;	/* timegm normalizes its argument */
	t = timegm(&tm);
	if (!gmtime_r(&t, &back) || back.tm_mday != asked.tm_mday || back.tm_mon != asked.tm_mon ||
	    back.tm_hour != asked.tm_hour || back.tm_min != asked.tm_min || back.tm_sec != asked.tm_sec)
		return -EINVAL;
	*sec = (int64_t)t;
	return 0;
}

int ctl_parse_time(const char *s, int64_t *ns)
{
	int64_t sec;
	int r;

	if (!strcmp(s, "now"))
		return parse_relative("-0s", ns);
	if (s[0] == '-')
		return parse_relative(s, ns);
	if (s[0] == '@')
		r = s[1] == '-' ? -ERANGE : ctl_parse_i64(s + 1, 0, INT64_MAX, false, &sec);
	else
		r = parse_calendar(s, &sec);
	if (r < 0)
		return r;
	/* 0 means "unbounded" to the queries, and nothing was recorded before 1970. */
	if (sec < 1 || sec > MAX_TIME_SEC)
		return -ERANGE;
	*ns = sec * 1000000000;
	return 0;
}

void ctl_time_error(const char *option, int r, const char *arg)
{
	fprintf(stderr, "ras-fdr-ctl: --%s: %s '%s' (try 2026-11-22, 2026-11-22T10:00:00Z, @SECONDS,"
		" -2h, now)\n", option, r == -ERANGE ? "out of range (1970-01-01T00:00:01Z to 2262):" :
		"cannot read time", ctl_text(arg));
}

static bool looks_like_boot_id(const char *s)
{
	size_t n = strlen(s);

	return n >= 16 && n < 64 && strspn(s, "0123456789abcdefABCDEF-") == n;
}

static int resolve_boot(struct ctl *c, struct ras_db_filter *f, const char *arg)
{
	static char boot[64];
	struct ras_db *db;
	int64_t back;
	int r;

	/* 0 is the newest boot, -1 the one before, as in journalctl; a boot id is taken as is. */
	if (looks_like_boot_id(arg)) {
		snprintf(boot, sizeof(boot), "%s", arg);
		f->boot_id = boot;
		return 0;
	}
	if (ctl_parse_i64(arg, -1000000, 0, false, &back) < 0) {
		fprintf(stderr, "ras-fdr-ctl: --boot takes 0, -1, -2 ... or a boot id, not '%s'\n",
			ctl_text(arg));
		return -EINVAL;
	}
	if (ctl_open_db(c, &db) < 0)
		return -EIO;
	r = ras_db_boot_by_offset(db, (unsigned)-back, boot, sizeof(boot));
	ras_db_close(db);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: the database has no boot %s\n", ctl_text(arg));
		return r;
	}
	f->boot_id = boot;
	return 0;
}

int ctl_filter_option(struct ctl *c, struct ras_db_filter *f, int opt, const char *arg)
{
	const struct ras_event_type *t;
	int64_t n;
	int r;

	switch (opt) {
	case 'S':
	case 'U':
		r = ctl_parse_time(arg, opt == 'S' ? &f->since_ns : &f->until_ns);
		if (r < 0) {
			ctl_time_error(opt == 'S' ? "since" : "until", r, arg);
			return -EINVAL;
		}
		return 0;
	case 'T':
		t = ras_event_type_find(arg);
		if (!t) {
			fprintf(stderr, "ras-fdr-ctl: unknown event type '%s'\n", ctl_text(arg));
			return -EINVAL;
		}
		f->type_idx = (int)(t - ras_event_types);
		return 0;
	case 'L':
		if (ctl_parse_i64(arg, 0, UINT32_MAX, false, &n) < 0) {
			fprintf(stderr, "ras-fdr-ctl: --limit takes a whole number from 0 (all) to %u, "
				"not '%s'\n", UINT32_MAX, ctl_text(arg));
			return -EINVAL;
		}
		f->limit = (unsigned)n;
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
	ras_json_string(stdout, s, len);
}

void ctl_print_json_key(const char *name)
{
	ras_json_key(stdout, name);
}

void ctl_print_json_u64(uint64_t v)
{
	ras_json_u64(stdout, v);
}

void ctl_print_json_hex(uint64_t v)
{
	ras_json_hex(stdout, v);
}

/*
 * A ring of copies: one printf may take several strings, each escaped into a
 * slot of its own. The slots grow to the longest string seen and are kept
 * for the life of the command.
 */
#define TEXT_SLOTS 16

static const char *text_slot(const char *s, size_t len)
{
	static struct { char *buf; size_t cap; } slot[TEXT_SLOTS];
	static unsigned next;
	size_t need;

	need = ras_text_safe(NULL, 0, s, len) + 1;
	if (slot[next].cap < need) {
		char *grown = realloc(slot[next].buf, need);

		if (!grown)
			return "(text not shown: out of memory)";
		slot[next].buf = grown;
		slot[next].cap = need;
	}
	ras_text_safe(slot[next].buf, need, s, len);
	s = slot[next].buf;
	next = (next + 1) % TEXT_SLOTS;
	return s;
}

/* Always a terminated copy: s is len bytes of something longer, or of a blob without a NUL. */
const char *ctl_textn(const char *s, size_t len)
{
	return s ? text_slot(s, len) : NULL;
}

const char *ctl_text(const char *s)
{
	size_t len;

	if (!s)
		return NULL;
	len = strlen(s);
	return ras_text_plain(s, len) ? s : text_slot(s, len);
}

void ctl_fprint_json_wall(FILE *o, int64_t wall_ns)
{
	char when[40];

	ras_format_time(wall_ns, when, sizeof(when));
	fprintf(o, "\"time\":\"%s\",\"wall_s\":%lld,\"wall_ns\":\"%lld\"", when,
		(long long)(wall_ns / 1000000000), (long long)wall_ns);
}

void ctl_print_json_wall(int64_t wall_ns)
{
	ctl_fprint_json_wall(stdout, wall_ns);
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

/*
 * The subcommands. An entry with a spec gets --help, "help CMD", completion
 * and the man-page check from it; a plain { name, fn } entry runs as is.
 */
const struct ctl_command ctl_commands[] = {
	{ "summary", ctl_summary, &ctl_summary_spec },
	{ "errors", ctl_errors, &ctl_errors_spec },
	{ "status", ctl_status, &ctl_status_spec },
	{ "inject", ctl_inject, &ctl_inject_spec },
	{ "decode", ctl_decode, &ctl_decode_spec },
	{ "edac", ctl_edac, &ctl_edac_spec },
	{ "layout", ctl_layout, &ctl_layout_spec },
	{ "labels", ctl_labels, &ctl_labels_spec },
	{ "reset", ctl_reset, &ctl_reset_spec },
	{ "snapshot", ctl_snapshot, &ctl_snapshot_spec },
	{ "boot-cmdline", ctl_boot_cmdline, &ctl_boot_cmdline_spec },
	{ "__complete", ctl_complete, NULL },
	{ "__synopsis", ctl_synopsis_all, NULL },
	{ "actions", ctl_actions, &ctl_actions_spec },
	{ "import-config", ctl_import_config, &ctl_import_config_spec },
	{ "metrics", ctl_metrics, &ctl_metrics_spec },
	{ "export", ctl_export, &ctl_export_spec },
	{ "import", ctl_import, &ctl_import_spec },
	{ "crashes", ctl_crashes, &ctl_crashes_spec },
	{ "report", ctl_report, &ctl_report_spec },
	{ "ack", ctl_ack, &ctl_ack_spec },
	{ "trigger-relay", ctl_trigger_relay, &ctl_trigger_relay_spec },
	{ "health", ctl_health, &ctl_health_spec },
	{ "vendors", ctl_vendors, &ctl_vendors_spec },
};
const size_t ctl_n_commands = sizeof(ctl_commands) / sizeof(ctl_commands[0]);

const struct ctl_command *ctl_command_find(const char *name)
{
	for (size_t i = 0; i < ctl_n_commands; i++)
		if (!strcmp(ctl_commands[i].name, name))
			return &ctl_commands[i];
	return NULL;
}

/* "help CMD" and "CMD --help" print the same text, from the command's table. */
static int help(int argc, char **argv)
{
	const struct ctl_command *cmd = argc > 1 ? ctl_command_find(argv[1]) : NULL;

	if (argc < 2) {
		usage(stdout);
		return CTL_EXIT_OK;
	}
	if (!cmd) {
		fprintf(stderr, "ras-fdr-ctl: unknown command '%s' (try 'ras-fdr-ctl help')\n",
			ctl_text(argv[1]));
		return CTL_EXIT_USAGE;
	}
	if (cmd->spec) {
		ctl_print_help(cmd->spec, stdout);
		return CTL_EXIT_OK;
	}
	printf("Usage: ras-fdr-ctl %s --help\n", cmd->name);
	return CTL_EXIT_OK;
}

int ctl_load_config(struct ctl *c, const char *db, const char *tdir, const char *inst, bool explicit)
{
	const char *why;
	int r;

	rasd_config_defaults(&c->cfg);
	r = rasd_config_load(&c->cfg, c->config_path, print_config_error, NULL);
	if (r < 0 && (r != -ENOENT || explicit)) {
		fprintf(stderr, "ras-fdr-ctl: %s: %s\n", ctl_text(c->config_path), strerror(-r));
		return -1;
	}
	if ((db && rasd_config_set(&c->cfg, "database", db, &why) < 0) ||
	    (tdir && rasd_config_set(&c->cfg, "tracing_dir", tdir, &why) < 0) ||
	    (inst && rasd_config_set(&c->cfg, "instance", inst, &why) < 0)) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(why));
		return -1;
	}
	return 0;
}

/* s as one shell word: as is when it holds only safe characters, else in single quotes. */
static void put_shell_word(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);
	bool plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "0123456789-_./:=@%+,") == strlen(s);

	if (n + 1 >= len)
		return;
	if (plain) {
		snprintf(buf + n, len - n, " %s", s);
		return;
	}
	snprintf(buf + n, len - n, " '");
	for (const char *p = s; *p && (n = strlen(buf)) + 5 < len; p++)
		snprintf(buf + n, len - n, *p == '\'' ? "'\\''" : "%c", *p);
	n = strlen(buf);
	snprintf(buf + n, len - n, "'");
}

void ctl_command_line(const struct ctl *c, char *buf, size_t len)
{
	snprintf(buf, len, "ras-fdr-ctl");
	for (int i = 0; i < c->n_globals; i++)
		put_shell_word(buf, len, c->globals[i]);
}

/* --help anywhere before "--" (positionals and option values are not options). */
static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct ctl c = { .config_path = RASD_DEFAULT_CONFIG };
	const char *db = NULL, *tdir = NULL, *inst = NULL, *sysfs = NULL;
	const struct ctl_command *cmd;
	bool explicit = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "+c:d:t:i:s:hV", global_opts, NULL)) != -1) {
		if (optarg && c.n_globals + 2 <= (int)(sizeof(c.globals) / sizeof(c.globals[0]))) {
			static char flags[8][3];
			char *flag = flags[c.n_globals / 2];

			snprintf(flag, sizeof(flags[0]), "-%c", opt);
			c.globals[c.n_globals] = flag;
			c.globals[c.n_globals + 1] = optarg;
			c.n_globals += 2;
		}
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
	if (optind >= argc) {
		usage(stderr);
		return CTL_EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "help"))
		return help(argc - optind, argv + optind);
	cmd = ctl_command_find(argv[optind]);
	if (cmd && cmd->spec && wants_help(argc - optind, argv + optind)) {
		ctl_print_help(cmd->spec, stdout);
		return CTL_EXIT_OK;
	}
	if (ctl_load_config(&c, db, tdir, inst, explicit) < 0)
		return 1;
	if (sysfs && rasd_config_set(&c.cfg, "sysfs_root", sysfs, &(const char *){ NULL }) < 0) {
		fprintf(stderr, "ras-fdr-ctl: --sysfs-root must be an absolute path\n");
		return 2;
	}
	if (cmd) {
		char **sub = argv + optind;
		int subc = argc - optind;

		for (int a = 1; a < subc && strcmp(sub[a], "--"); a++)
			c.json |= !strcmp(sub[a], "--json");
		optind = 1;
		return cmd->fn(&c, subc, sub);
	}
	fprintf(stderr, "ras-fdr-ctl: unknown command '%s' (try 'ras-fdr-ctl help')\n",
		ctl_text(argv[optind]));
	return 2;
}
