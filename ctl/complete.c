/* SPDX-License-Identifier: MIT */
/*
 * Hidden helpers driven by the command tables: "__complete CWORD WORD..."
 * prints the candidates for word CWORD of a command line (bash completion,
 * contrib/ras-fdr-ctl.bash-completion); "__complete --describe CWORD WORD..."
 * the same as "word:description" where the table has one, colons in the word
 * escaped (zsh's _describe, contrib/_ras-fdr-ctl); "__synopsis" prints every
 * command's synopsis (tests/test-cli.sh checks ras-fdr-ctl(8) against it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "edac_cmd.h"

/* The global options, whether each takes a value, and what it is. */
static const struct { const char *s, *l; bool arg; const char *help; } globals[] = {
	{ "-c", "--config", true, "the rasd configuration to use" },
	{ "-d", "--db", true, "the database" }, { "-t", "--tracing-dir", true, "the tracefs root" },
	{ "-i", "--instance", true, "rasd's tracing instance" },
	{ "-s", "--sysfs-root", true, "the sysfs tree to read" },
	{ "-h", "--help", false, "the commands and global options" },
	{ "-V", "--version", false, "the version" },
};

/* --describe: candidates as "word:description" for zsh's _describe. */
static bool describe;

/* One candidate: the word (":" escaped when described) and, with --describe, what it is. */
static void candidate(const char *w, size_t len, const char *help)
{
	if (!describe) {
		printf("%.*s\n", (int)len, w);
		return;
	}
	for (size_t i = 0; i < len; i++)
		printf("%s%c", w[i] == ':' || w[i] == '\\' ? "\\" : "", w[i]);
	/* The description up to its first line's end; a colon in it is fine after the first. */
	if (help && *help)
		printf(":%.*s", (int)strcspn(help, "\n"), help);
	putchar('\n');
}

static void word(const char *w, const char *help)
{
	candidate(w, strlen(w), help);
}

static int global_index(const char *w)
{
	for (size_t i = 0; i < sizeof(globals) / sizeof(globals[0]); i++)
		if (!strcmp(w, globals[i].s) || !strcmp(w, globals[i].l))
			return (int)i;
	return -1;
}

static void print_types(void)
{
	char name[128];

	for (unsigned i = 0; i < ras_n_event_types; i++) {
		word(ras_event_types[i].table, ras_event_types[i].title);
		snprintf(name, sizeof(name), "%s:%s", ras_event_types[i].system, ras_event_types[i].event);
		word(name, ras_event_types[i].title);
	}
}

/* mcN, mcN/dimmM and their files, from the newest EDAC topology the database holds. */
static void print_edac_paths(struct ctl *c)
{
	struct edac_topology t = { 0 };
	struct edac_file *files;
	struct ras_db *db;
	unsigned n;
	int64_t snap;

	if (ras_db_open_reader(&db, c->cfg.database, (char[256]){ 0 }, 256) < 0)
		return;
	if (ras_db_edac_latest_snapshot(db, NULL, &snap) == 0 &&
	    ras_db_edac_load_snapshot(db, snap, &t) == 0 && edac_files_collect(&t, &files, &n) == 0) {
		for (unsigned m = 0; m < t.n_mcs; m++) {
			char path[64];

			snprintf(path, sizeof(path), "mc%u", t.mcs[m].index);
			word(path, NULL);
			for (unsigned i = 0; i < t.mcs[m].n_dimms; i++) {
				snprintf(path, sizeof(path), "mc%u/%s%u", t.mcs[m].index,
					 t.mcs[m].dimms[i].is_rank ? "rank" : "dimm", t.mcs[m].dimms[i].index);
				word(path, NULL);
			}
		}
		for (unsigned i = 0; i < n; i++)
			word(files[i].path, NULL);
		free(files);
	}
	edac_topology_free(&t);
	ras_db_close(db);
}

static void print_kind(struct ctl *c, const struct ctl_spec *spec, enum ctl_complete kind)
{
	switch (kind) {
	case CTL_C_TIME:
		word("now", NULL), word("-1h", "an hour ago"), word("-1d", "a day ago");
		word("-7d", "a week ago");
		break;
	case CTL_C_TYPE: print_types(); break;
	case CTL_C_BOOT:
		word("0", "the newest boot"), word("-1", "the boot before"), word("-2", NULL);
		break;
	case CTL_C_FILE: printf("@files\n"); break;
	case CTL_C_EDAC: print_edac_paths(c); break;
	case CTL_C_WORDS: case CTL_C_NONE: break;
	}
	/* Fixed words go with any positional kind (decode: mce, aer or a file). */
	if (kind != CTL_C_TIME && kind != CTL_C_TYPE && kind != CTL_C_BOOT && spec && spec->words) {
		char words[256], *save = NULL;

		snprintf(words, sizeof(words), "%s", spec->words);
		for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			word(w, NULL);
	}
}

static const struct ctl_opt *find_opt(const struct ctl_spec *spec, const char *word)
{
	for (unsigned i = 0; spec->opts && spec->opts[i].name; i++)
		if (!strncmp(word, "--", 2) && !strcmp(word + 2, spec->opts[i].name))
			return &spec->opts[i];
	return NULL;
}

static void complete_command(struct ctl *c, const struct ctl_spec *spec, char **w, int cword)
{
	const struct ctl_opt *prev = find_opt(spec, w[cword - 1]);

	if (prev && prev->arg && prev->complete == CTL_C_WORDS) {
		/* "openmetrics|prometheus": the value is one of these words */
		size_t n;

		for (const char *a = prev->arg; *a; a += n + (a[n] == '|')) {
			n = strcspn(a, "|");
			candidate(a, n, NULL);
		}
		return;
	}
	if (prev && prev->arg) {
		print_kind(c, NULL, prev->complete);
		if (!strcmp(prev->name, "by") && spec->words)
			word(spec->words, NULL);
		return;
	}
	if (w[cword][0] == '-') {
		for (unsigned i = 0; spec->opts && spec->opts[i].name; i++) {
			char opt[64];

			snprintf(opt, sizeof(opt), "--%s", spec->opts[i].name);
			word(opt, spec->opts[i].help);
		}
		word("--help", "this command's options");
		return;
	}
	print_kind(c, spec, spec->positional ? spec->positional : CTL_C_NONE);
}

/* argv: __complete CWORD WORD0 WORD1 ... where WORD0 is the program's name. */
int ctl_complete(struct ctl *c, int argc, char **argv)
{
	const char *db = NULL, *config = NULL;
	const struct ctl_command *cmd;
	char **w;
	int nw, cword, i = 1;

	describe = argc > 1 && !strcmp(argv[1], "--describe");
	if (describe)
		argv++, argc--;
	w = argv + 2;
	nw = argc - 2;
	if (argc < 3 || (cword = atoi(argv[1])) < 1 || cword > nw)
		return CTL_EXIT_USAGE;
	if (cword == nw)
		w[nw] = "";	/* the cursor past the last word: argv has room for its NULL */
	for (int g; i < cword && (g = global_index(w[i])) >= 0; i += globals[g].arg ? 2 : 1) {
		if (globals[g].arg && i + 1 < nw && g == 0)
			config = w[i + 1];
		if (globals[g].arg && i + 1 < nw && g == 1)
			db = w[i + 1];
	}
	if (config)
		c->config_path = config;
	if ((config || db) && ctl_load_config(c, db, NULL, NULL, config != NULL) < 0)
		return CTL_EXIT_ERROR;
	if (cword <= i) {
		for (size_t k = 0; w[cword][0] == '-' && k < sizeof(globals) / sizeof(globals[0]); k++)
			word(globals[k].l, globals[k].help);
		for (size_t k = 0; w[cword][0] != '-' && k < ctl_n_commands; k++)
			if (ctl_commands[k].name[0] != '_')
				word(ctl_commands[k].name, ctl_commands[k].spec ? ctl_commands[k].spec->summary : NULL);
		if (w[cword][0] != '-')
			word("help", "a command's synopsis and options");
		return CTL_EXIT_OK;
	}
	cmd = ctl_command_find(w[i]);
	if (!strcmp(w[i], "help") && cword == i + 1)
		for (size_t k = 0; k < ctl_n_commands; k++)
			if (ctl_commands[k].name[0] != '_')
				word(ctl_commands[k].name, ctl_commands[k].spec ? ctl_commands[k].spec->summary : NULL);
	if (cmd && cmd->spec)
		complete_command(c, cmd->spec, w, cword);
	return CTL_EXIT_OK;
}

int ctl_synopsis_all(struct ctl *c, int argc, char **argv)
{
	char syn[1024];

	(void)c, (void)argc, (void)argv;
	for (size_t i = 0; i < ctl_n_commands; i++) {
		if (ctl_commands[i].name[0] == '_')
			continue;
		/* A plain entry has no table yet: the man-page test only looks for its section. */
		if (!ctl_commands[i].spec) {
			printf("%s (no table)\n", ctl_commands[i].name);
			continue;
		}
		ctl_synopsis(ctl_commands[i].spec, syn, sizeof(syn));
		printf("%s\n", syn);
	}
	return CTL_EXIT_OK;
}
