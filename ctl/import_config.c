/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl import-config FILE: reads rasdaemon's /etc/default/rasdaemon
 * (KEY=value) or an mcelog.conf ([section] key = value) and prints the
 * equivalent rasd.conf lines; a setting without an equivalent becomes a
 * comment that says so. Key names are facts of those programs' documented
 * configuration; one table per format maps them.
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "lib/formats.h"
#include "lib/threshold.h"

enum how {
	H_KEY,        /* the value as is, for key */
	H_THRESHOLD,  /* "count / period" → count/period */
	H_TRIGGER,    /* a trigger script: link it under trigger_dir as the condition */
	H_DIR,        /* a directory, relative to the file's own */
	H_NONE,       /* no equivalent */
};

struct mapping {
	const char *section;   /* mcelog section, "" top level; NULL for rasdaemon */
	const char *name;
	enum how how;
	const char *target;    /* rasd.conf key, or the trigger's condition */
	const char *note;
};

static const struct mapping mcelog_map[] = {
	{ "page", "memory-ce-threshold", H_THRESHOLD, "page_ce_threshold", NULL },
	{ "page", "memory-ce-action", H_KEY, "page_ce_action", NULL },
	{ "page", "memory-ce-trigger", H_TRIGGER, "page-threshold", NULL },
	{ "dimm", "ce-error-threshold", H_THRESHOLD, "dimm_ce_threshold", NULL },
	{ "dimm", "ce-error-trigger", H_TRIGGER, "dimm-threshold", NULL },
	{ "dimm", "uc-error-trigger", H_TRIGGER, "uncorrected", NULL },
	{ "dimm", "dimm-tracking-enabled", H_NONE, NULL, "DIMMs are always tracked (dimm_ce_threshold)" },
	{ "socket", "mem-uc-error-trigger", H_TRIGGER, "uncorrected", NULL },
	{ "cache", "cache-threshold-trigger", H_TRIGGER, "cpu-threshold", NULL },
	{ "trigger", "directory", H_DIR, "trigger_dir", NULL },
	{ "trigger", "children-max", H_KEY, "trigger_max_children", NULL },
	{ "", "num-errors", H_NONE, NULL, "an mcelog test setting" },
};

/* rasdaemon's PAGE_CE_THRESHOLD and CPU_CE_THRESHOLD pair with their cycles (below). */
static const struct mapping rasdaemon_map[] = {
	{ NULL, "PAGE_CE_ACTION", H_KEY, "page_ce_action", NULL },
	{ NULL, "TRIGGER_DIR", H_DIR, "trigger_dir", "triggers are named after conditions (rasd.conf(5))" },
	{ NULL, "MC_CE_TRIGGER", H_TRIGGER, "dimm-threshold", "rasd runs it when a DIMM crosses dimm_ce_threshold, not per error" },
	{ NULL, "MC_UE_TRIGGER", H_TRIGGER, "uncorrected", NULL },
};

struct import {
	const char *file;
	char dir[4096];
	char page_count[32], page_cycle[32], cpu_count[32], cpu_cycle[32];
	bool cpu_isolation_seen;
	char cpu_isolation[16];
};

static char *unquote(char *v)
{
	size_t n;

	v = rasd_trim(v);
	n = strlen(v);
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v[n - 1] = 0;
		v++;
	}
	return v;
}

/* "10 / 24h" → "10/24h", checked by the parser rasd uses. */
static bool print_threshold(const char *key, const char *value)
{
	char compact[64];
	size_t n = 0;
	struct ras_threshold t;

	for (const char *p = value; *p && n < sizeof(compact) - 1; p++)
		if (!isspace((unsigned char)*p))
			compact[n++] = *p;
	compact[n] = 0;
	if (ras_threshold_parse(compact, &t) < 0)
		return false;
	printf("%s = %s\n", key, compact);
	return true;
}

static void print_mapping(struct import *im, const struct mapping *m, const char *orig,
			  const char *value)
{
	switch (m->how) {
	case H_KEY:
		printf("%s = %s\n", m->target, value);
		return;
	case H_THRESHOLD:
		if (!print_threshold(m->target, value))
			printf("# %s: cannot read \"%s\" as count / period\n", orig, value);
		return;
	case H_TRIGGER:
		printf("# %s = %s: rasd runs trigger_dir/%s (facts in RAS_* variables, rasd.conf(5));"
		       " install it there: ln -s %s <trigger_dir>/%s\n", orig, value, m->target, value,
		       m->target);
		break;
	case H_DIR: {
		/* rasd.conf paths are absolute: a relative one is taken from the file's directory. */
		char joined[8300], real[PATH_MAX];

		snprintf(joined, sizeof(joined), "%s/%s", im->dir, value);
		if (value[0] == '/')
			printf("%s = %s\n", m->target, value);
		else if (realpath(joined, real))
			printf("%s = %s\n", m->target, real);
		else
			printf("# %s = %s: directory %s not found; give trigger_dir an absolute path\n",
			       orig, value, joined);
		break;
	}
	case H_NONE:
		printf("# %s = %s: no equivalent in rasd.conf\n", orig, value);
		break;
	}
	if (m->note)
		printf("#   (%s: %s)\n", orig, m->note);
}

static const struct mapping *find(const struct mapping *map, size_t n, const char *section,
				  const char *name)
{
	for (size_t i = 0; i < n; i++)
		if ((!map[i].section || !strcmp(map[i].section, section)) && !strcmp(map[i].name, name))
			return &map[i];
	return NULL;
}

/* rasdaemon keeps a count and its cycle apart: remember both, print the pair at the end. */
static bool rasdaemon_pair(struct import *im, const char *key, const char *value)
{
	static const struct { const char *key; size_t off; } pairs[] = {
		{ "PAGE_CE_THRESHOLD", offsetof(struct import, page_count) },
		{ "PAGE_CE_REFRESH_CYCLE", offsetof(struct import, page_cycle) },
		{ "CPU_CE_THRESHOLD", offsetof(struct import, cpu_count) },
		{ "CPU_ISOLATION_CYCLE", offsetof(struct import, cpu_cycle) },
		{ "CPU_ISOLATION_ENABLE", offsetof(struct import, cpu_isolation) },
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (strcmp(pairs[i].key, key))
			continue;
		snprintf((char *)im + pairs[i].off, 16, "%.15s", value);
		if (!strcmp(key, "CPU_ISOLATION_ENABLE"))
			im->cpu_isolation_seen = true;
		return true;
	}
	return false;
}

static void rasdaemon_finish(struct import *im)
{
	char t[96];

	/* rasdaemon's cycle is a window that restarts; rasd's bucket leaks at the same rate. */
	if (im->page_count[0]) {
		snprintf(t, sizeof(t), "%s/%s", im->page_count, im->page_cycle[0] ? im->page_cycle : "24h");
		if (!print_threshold("page_ce_threshold", t))
			printf("# PAGE_CE_THRESHOLD/PAGE_CE_REFRESH_CYCLE: cannot read \"%s\"\n", t);
	}
	if (im->cpu_count[0]) {
		snprintf(t, sizeof(t), "%s/%s", im->cpu_count, im->cpu_cycle[0] ? im->cpu_cycle : "24h");
		if (!print_threshold("cpu_ce_threshold", t))
			printf("# CPU_CE_THRESHOLD/CPU_ISOLATION_CYCLE: cannot read \"%s\"\n", t);
	}
	if (im->cpu_isolation_seen)
		printf("cpu_ce_action = %s\n", !strcasecmp(im->cpu_isolation, "yes") ? "offline" : "account");
}

static void rasdaemon_line(struct import *im, char *line)
{
	char *eq = strchr(line, '='), *key, *value;
	const struct mapping *m;

	if (!eq) {
		printf("# %s: not a KEY=value line\n", line);
		return;
	}
	*eq = 0;
	key = rasd_trim(line);
	value = unquote(eq + 1);
	if (rasdaemon_pair(im, key, value))
		return;
	m = find(rasdaemon_map, sizeof(rasdaemon_map) / sizeof(rasdaemon_map[0]), "", key);
	if (m)
		print_mapping(im, m, key, value);
	else
		printf("# %s=%s: no equivalent in rasd.conf\n", key, value);
}

static void mcelog_line(struct import *im, char *section, size_t seclen, char *line)
{
	char *eq = strchr(line, '='), *key, *value, orig[160];
	const struct mapping *m;

	if (line[0] == '[') {
		char *end = strchr(line, ']');

		snprintf(section, seclen, "%.*s", end ? (int)(end - line - 1) : (int)strlen(line + 1),
			 line + 1);
		return;
	}
	if (!eq) {
		printf("# %s: not a key = value line\n", line);
		return;
	}
	*eq = 0;
	key = rasd_trim(line);
	value = unquote(eq + 1);
	snprintf(orig, sizeof(orig), "%s%s%s", section, section[0] ? "." : "", key);
	m = find(mcelog_map, sizeof(mcelog_map) / sizeof(mcelog_map[0]), section, key);
	if (m)
		print_mapping(im, m, orig, value);
	else
		printf("# %s = %s: no equivalent in rasd.conf\n", orig, value);
}

/* mcelog.conf has [sections] or lower-case keys with dashes; rasdaemon's are upper case. */
static bool looks_like_mcelog(const char *text)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[' || (*p >= 'a' && *p <= 'z'))
			return true;
		if (*p >= 'A' && *p <= 'Z')
			return false;
	}
	return false;
}

const struct ctl_spec ctl_import_config_spec = {
	.name = "import-config", .args = "FILE", .opts = (const struct ctl_opt[]){ { NULL } },
	.positional = CTL_C_FILE,
	.summary = "rasdaemon or mcelog.conf settings as rasd.conf lines",
	.more = "FILE: /etc/default/rasdaemon (or /etc/sysconfig/rasdaemon) or an mcelog.conf.\n"
		"Settings without an equivalent become comments.\n",
};

int ctl_import_config(struct ctl *c, int argc, char **argv)
{
	struct import im = { 0 };
	char *text, *copy, section[64] = "";
	bool mcelog;
	int first, r;

	(void)c;
	r = ctl_parse(&ctl_import_config_spec, argc, argv, NULL, NULL, &first);
	if (r != CTL_GO_ON)
		return r;
	if (argc - first != 1)
		return ctl_usage_error("import-config", "takes one FILE");
	im.file = argv[first];
	if ((r = ras_read_file(im.file, &text, NULL)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s: %s\n", im.file, strerror(-r));
		return 1;
	}
	copy = strdup(im.file);
	snprintf(im.dir, sizeof(im.dir), "%s", copy ? dirname(copy) : ".");
	free(copy);
	mcelog = looks_like_mcelog(text);
	printf("# rasd.conf lines from %s %s (ras-fdr-ctl import-config)\n",
	       mcelog ? "mcelog configuration" : "rasdaemon settings", im.file);
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		line = rasd_trim(line);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (mcelog)
			mcelog_line(&im, section, sizeof(section), line);
		else
			rasdaemon_line(&im, line);
	}
	if (!mcelog)
		rasdaemon_finish(&im);
	free(text);
	return 0;
}
