/* SPDX-License-Identifier: MIT */
/* The per-subcommand option tables: parsing, --help and synopsis from one place. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lib/text.h"

#define MAX_OPTS 32

static unsigned count_opts(const struct ctl_spec *spec)
{
	unsigned n = 0;

	while (spec->opts && spec->opts[n].name)
		n++;
	return n;
}

int ctl_usage_error(const char *cmd, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The message quotes the arguments: shown as a terminal may print them. */
	fprintf(stderr, "ras-fdr-ctl %s: ", cmd);
	ras_text_write(stderr, msg, strlen(msg));
	fprintf(stderr, " (try 'ras-fdr-ctl %s --help')\n", cmd);
	return CTL_EXIT_USAGE;
}

/* The option's one-letter form is its key, when the spec lists it. */
static bool short_of(const struct ctl_spec *spec, const struct ctl_opt *o)
{
	return spec->short_keys && o->key > ' ' && o->key < 0x7f && strchr(spec->short_keys, o->key);
}

int ctl_parse(const struct ctl_spec *spec, int argc, char **argv, ctl_opt_fn fn, void *ctx,
	      int *first)
{
	struct option lo[MAX_OPTS + 2] = { { 0 } };
	unsigned n = count_opts(spec);
	uint32_t seen = 0;
	int opt, idx, r;
	char shorts[2 * MAX_OPTS + 3] = ":h";
	size_t ns = 2;

	*first = argc;   /* no arguments, also when parsing stops on an error */
	if (n > MAX_OPTS)
		n = MAX_OPTS;
	for (unsigned i = 0; i < n; i++)
		lo[i] = (struct option){ spec->opts[i].name,
					 spec->opts[i].arg ? required_argument : no_argument,
					 NULL, (int)i };
	for (unsigned i = 0; i < n; i++)
		if (short_of(spec, &spec->opts[i])) {
			shorts[ns++] = (char)spec->opts[i].key;
			if (spec->opts[i].arg)
				shorts[ns++] = ':';
		}
	shorts[ns] = 0;
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	/* 0, not 1: glibc then starts afresh, forgetting main's "+" (stop at the first argument). */
	optind = 0;
	opterr = 0;
	/* A leading '-' would hand positionals over in order; '+' would stop at the first. */
	while ((opt = getopt_long(argc, argv, shorts, lo, &idx)) != -1) {
		if (opt == 'h') {
			ctl_print_help(spec, stdout);
			return CTL_EXIT_OK;
		}
		if (opt == '?')
			return ctl_usage_error(spec->name, "unknown option '%s'", argv[optind - 1]);
		if (opt == ':')
			return ctl_usage_error(spec->name, "'%s' needs a value", argv[optind - 1]);
		/* A one-letter form: its option's index (long forms return the index itself). */
		for (unsigned i = 0; opt >= (int)n && i < n; i++)
			if (short_of(spec, &spec->opts[i]) && spec->opts[i].key == opt)
				opt = (int)i;
		seen |= UINT32_C(1) << opt;
		r = fn(ctx, spec->opts[opt].key, optarg);
		if (r >= 0)
			return r;
	}
	for (unsigned i = 0; i < n; i++)
		if (spec->required && !strcmp(spec->required, spec->opts[i].name) &&
		    !(seen & UINT32_C(1) << i))
			return ctl_usage_error(spec->name, "--%s is required", spec->opts[i].name);
	*first = optind;
	return CTL_GO_ON;
}

void ctl_synopsis(const struct ctl_spec *spec, char *buf, unsigned len)
{
	unsigned k = (unsigned)snprintf(buf, len, "%s%s%s", spec->name, spec->args[0] ? " " : "",
					spec->args);

	for (unsigned i = 0; !spec->raw && spec->opts && spec->opts[i].name && k < len; i++) {
		const struct ctl_opt *o = &spec->opts[i];

		bool must = spec->required && !strcmp(spec->required, o->name);

		k += (unsigned)snprintf(buf + k, len - k, must ? " --%s%s%s" : " [--%s%s%s]", o->name,
					o->arg ? " " : "", o->arg ? o->arg : "");
	}
}

void ctl_print_help(const struct ctl_spec *spec, void *file)
{
	FILE *out = file;
	char syn[1024];

	ctl_synopsis(spec, syn, sizeof(syn));
	fprintf(out, "Usage: ras-fdr-ctl [GLOBAL OPTIONS] %s\n\n%s\n", syn, spec->summary);
	fprintf(out, "\nOptions:\n");
	for (unsigned i = 0; spec->opts && spec->opts[i].name; i++) {
		const struct ctl_opt *o = &spec->opts[i];
		char left[64];

		if (short_of(spec, o))
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->key, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		/* a long value list ("openmetrics|prometheus") gets a line of its own */
		if (strlen(left) > 22)
			fprintf(out, "  %s\n  %-22s %s\n", left, "", o->help);
		else
			fprintf(out, "  %-22s %s\n", left, o->help);
	}
	fprintf(out, "  %-22s %s\n", "--help", "this text");
	if (spec->more)
		fprintf(out, "\n%s", spec->more);
	if (spec->more_fn)
		spec->more_fn(out);
	fprintf(out, "\nExit status: 0 ok, 1 error, 2 usage, 3 attention needed (see ras-fdr-ctl(8)).\n");
}

int ctl_parse_i64(const char *s, int64_t min, int64_t max, bool hex, int64_t *out)
{
	char *end;
	long long v;

	/* strtoll would skip blanks and accept "5abc", "1e3" (as 1) and overflow silently. */
	if (!s || !*s || (s[0] != '-' && (s[0] < '0' || s[0] > '9')))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, hex ? 0 : 10);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}
