/* SPDX-License-Identifier: MIT */
/*
 * One table per subcommand: its options drive getopt_long (with GNU
 * permutation, so options may follow positional arguments), its --help,
 * "ras-fdr-ctl help CMD", the bash completion (ras-fdr-ctl __complete) and
 * the synopsis that tests/test-cli.sh checks against ras-fdr-ctl(8).
 */
#ifndef RAS_CTL_CLI_H
#define RAS_CTL_CLI_H

#include <stdbool.h>
#include <stdint.h>

/* Exit statuses, documented in ras-fdr-ctl(8) under EXIT STATUS. */
enum {
	CTL_EXIT_OK = 0,
	CTL_EXIT_ERROR = 1,
	CTL_EXIT_USAGE = 2,
	CTL_EXIT_ATTENTION = 3,	/* rasd not running, records lost, counts missing... */
};

/* What the completion offers for an option's argument or a positional. */
enum ctl_complete {
	CTL_C_NONE,
	CTL_C_TIME,	/* now, -1h, -1d, -7d */
	CTL_C_TYPE,	/* event type names from the event table */
	CTL_C_BOOT,	/* 0, -1, ... */
	CTL_C_FILE,	/* file names */
	CTL_C_EDAC,	/* mcN, mcN/dimmM from the database */
	CTL_C_WORDS,	/* the spec's words */
};

struct ctl_opt {
	const char *name;	/* long name without the dashes */
	int key;		/* what the parser hands to the command's handler */
	const char *arg;	/* metavariable ("T", "N"); NULL: the option takes no argument */
	enum ctl_complete complete;	/* CTL_C_WORDS: the words of arg, '|'-separated */
	const char *help;
};

struct ctl_spec {
	const char *name;
	const char *args;	/* positional part of the synopsis ("" for none) */
	const char *summary;	/* one line for "ras-fdr-ctl help" */
	const struct ctl_opt *opts;	/* ends with { NULL } */
	enum ctl_complete positional;
	const char *words;	/* fixed positional words for completion, space separated */
	const char *more;	/* further help text after the options, or NULL */
	void (*more_fn)(void *file);	/* prints more help text, or NULL */
	/* An option that must be given (export --cursor-file): shown without
	 * brackets in the synopsis, and ctl_parse refuses its absence. */
	const char *required;
	/* The options (by key) that also have a one-letter form, the key itself: "o" gives -o. */
	const char *short_keys;
	/* The command parses its own arguments: opts are listed for --help and
	 * completion only, and the synopsis is name and args alone. */
	bool raw;
};

/* Handler for one option; returns 0, or an exit status (CTL_EXIT_USAGE) to stop. */
typedef int (*ctl_opt_fn)(void *ctx, int key, const char *arg);

/*
 * Parses argv (argv[0] is the command name) by spec: calls fn for each option
 * (NULL when the spec has none)
 * and leaves the positional arguments in argv[*first..argc-1] (permuted there
 * by getopt_long). Returns -1 to go on, or an exit status to return at once
 * (0 after --help, 2 after a usage error, which it has reported).
 */
#define CTL_GO_ON (-1)
int ctl_parse(const struct ctl_spec *spec, int argc, char **argv, ctl_opt_fn fn, void *ctx,
	      int *first);

void ctl_print_help(const struct ctl_spec *spec, void *file);
/* "name [args] [--opt ARG] ..." into buf. */
void ctl_synopsis(const struct ctl_spec *spec, char *buf, unsigned len);

/* Strict numbers: the whole string, decimal (or 0x hex when hex), within [min, max]. */
int ctl_parse_i64(const char *s, int64_t min, int64_t max, bool hex, int64_t *out);
/* Reports "ras-fdr-ctl CMD: --OPT: reason" and returns CTL_EXIT_USAGE. */
int ctl_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
