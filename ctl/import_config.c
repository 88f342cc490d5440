/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl import-config FILE [--json]: rasdaemon's settings or an
 * mcelog.conf, read the way their programs read them (import_rasdaemon.c,
 * import_mcelog.c), printed as rasd.conf lines that rasd's own parser has
 * accepted, each after a comment naming the lines it comes from; then the
 * trigger programs to install, what was not converted and why, and
 * warnings. An invalid value is an error: nothing but the errors is
 * printed, exit 1.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "import_config.h"
#include "lib/fileio.h"

/*
 * Text from the file goes into comments: a control character must not end the
 * comment nor reach the terminal (lib/text.h: C0, DEL, C1, bidi overrides and
 * bytes that are not UTF-8 as \xNN).
 */
static void put_text(FILE *f, const char *s)
{
	ras_text_write(f, s ? s : "", s ? strlen(s) : 0);
}

static void put_src(FILE *f, const struct imp *im, const struct imp_src *s)
{
	bool env = !strcmp(im->format, "rasdaemon");

	if (!s->line) {
		put_text(f, s->key);
		fputs(" absent (default ", f);
		put_text(f, s->value);
		fputc(')', f);
		return;
	}
	fprintf(f, "line %u: ", s->line);
	put_text(f, s->key);
	fputs(env ? "=" : " = ", f);
	put_text(f, s->value);
}

static void put_sources(FILE *f, const struct imp *im, const struct imp_item *it, const char *after)
{
	fputs("# ", f);
	for (unsigned i = 0; i < it->n_src; i++) {
		if (i)
			fputs("; ", f);
		put_src(f, im, &it->src[i]);
	}
	fputs(after, f);
}

static void put_note(FILE *f, const char *prefix, const char *note)
{
	if (!note)
		return;
	fputs(prefix, f);
	put_text(f, note);
	fputc('\n', f);
}

static void print_settings(struct imp *im)
{
	for (size_t i = 0; i < im->n; i++) {
		const struct imp_item *it = im->items[i];

		if (it->kind != IMP_SET)
			continue;
		if (it->n_src)
			put_sources(stdout, im, it, "\n");
		put_note(stdout, "#   ", it->note);
		printf("%s = %s\n", it->key, ctl_text(it->value));
	}
}

static void print_triggers(struct imp *im)
{
	bool first = true;

	for (size_t i = 0; i < im->n; i++) {
		const struct imp_item *it = im->items[i];

		if (it->kind != IMP_TRIGGER)
			continue;
		if (first)
			printf("# Triggers: rasd runs %s/CONDITION, one program per condition\n",
			       ctl_text(imp_trigger_dir(im)));
		first = false;
		put_sources(stdout, im, it, "\n");
		if (!*it->key) {
			put_note(stdout, "#   no rasd condition: ", it->note);
			continue;
		}
		printf("#   %s: ", ctl_text(it->key));
		if (it->install)
			printf("%s\n", ctl_text(it->install));
		else if (imp_find(im, IMP_TRIGGER, it->key) != it)
			printf("see the program above\n");
		else
			printf("install the program as %s/%s\n", ctl_text(imp_trigger_dir(im)),
			       ctl_text(it->key));
		put_note(stdout, "#   ", it->note);
	}
}

static void print_text(struct imp *im)
{
	bool first = true;

	printf("# rasd.conf lines from the %s settings ", im->format);
	put_text(stdout, im->file);
	printf(" (ras-fdr-ctl import-config),\n# read %s; each line follows the lines it comes from\n",
	       im->dialect);
	print_settings(im);
	print_triggers(im);
	for (size_t i = 0; i < im->n; i++) {
		const struct imp_item *it = im->items[i];

		if (it->kind != IMP_SKIP)
			continue;
		if (first)
			printf("# Not converted:\n");
		first = false;
		put_sources(stdout, im, it, ": ");
		put_text(stdout, it->note);
		putchar('\n');
	}
	for (size_t i = 0; i < im->n; i++)
		if (im->items[i]->kind == IMP_WARN) {
			put_note(stdout, "# WARNING: ", im->items[i]->note);
			put_note(stderr, "ras-fdr-ctl: warning: ", im->items[i]->note);
		}
}

static void json_str(const char *s)
{
	ctl_print_json_string(s ? s : "", s ? strlen(s) : 0);
}

static void json_sources(const struct imp_item *it)
{
	printf("\"from\":[");
	for (unsigned i = 0; i < it->n_src; i++) {
		const struct imp_src *s = &it->src[i];

		if (s->line)
			printf("%s{\"line\":%u,\"key\":", i ? "," : "", s->line);
		else
			printf("%s{\"line\":null,\"default\":true,\"key\":", i ? "," : "");
		json_str(s->key);
		printf(",\"value\":");
		json_str(s->value);
		putchar('}');
	}
	putchar(']');
}

static void json_items(struct imp *im, enum imp_kind kind, const char *name)
{
	bool first = true;

	printf(",\"%s\":[", name);
	for (size_t i = 0; i < im->n; i++) {
		const struct imp_item *it = im->items[i];

		if (it->kind != kind)
			continue;
		printf("%s{", first ? "" : ",");
		first = false;
		if (kind == IMP_SET || kind == IMP_TRIGGER) {
			printf(kind == IMP_SET ? "\"key\":" : "\"condition\":");
			if (kind == IMP_TRIGGER && !*it->key)
				printf("null");
			else
				json_str(it->key);
			printf(kind == IMP_SET ? ",\"value\":" : ",\"program\":");
			json_str(it->value);
			putchar(',');
		}
		if (kind == IMP_TRIGGER) {
			printf("\"install\":");
			if (it->install)
				json_str(it->install);
			else
				printf("null");
			putchar(',');
		}
		if (kind != IMP_WARN) {
			json_sources(it);
			putchar(',');
		}
		printf(kind == IMP_SET || kind == IMP_TRIGGER ? "\"note\":" :
		       kind == IMP_WARN ? "\"text\":" : "\"why\":");
		if (it->note)
			json_str(it->note);
		else
			printf("null");
		putchar('}');
	}
	putchar(']');
}

static void print_json(struct imp *im, bool errors)
{
	printf("{\"version\":%d,\"file\":", CTL_JSON_VERSION);
	json_str(im->file);
	printf(",\"format\":");
	json_str(im->format);
	printf(",\"read_as\":");
	json_str(im->dialect);
	if (errors) {
		json_items(im, IMP_ERROR, "errors");
		printf("}\n");
		return;
	}
	printf(",\"trigger_dir\":");
	json_str(imp_trigger_dir(im));
	json_items(im, IMP_SET, "settings");
	json_items(im, IMP_TRIGGER, "triggers");
	json_items(im, IMP_SKIP, "not_converted");
	json_items(im, IMP_WARN, "warnings");
	printf(",\"errors\":[]}\n");
}

static void print_errors(struct imp *im)
{
	for (size_t i = 0; i < im->n; i++) {
		const struct imp_item *it = im->items[i];

		if (it->kind != IMP_ERROR)
			continue;
		fputs("ras-fdr-ctl: ", stderr);
		put_text(stderr, im->file);
		fputc(':', stderr);
		if (it->n_src && it->src[0].line)
			fprintf(stderr, "%u: ", it->src[0].line);
		else
			fputc(' ', stderr);
		if (it->n_src) {
			put_text(stderr, it->src[0].key);
			if (it->src[0].value && *it->src[0].value) {
				fputs(strcmp(im->format, "rasdaemon") ? " = " : "=\"", stderr);
				put_text(stderr, it->src[0].value);
				fputs(strcmp(im->format, "rasdaemon") ? "" : "\"", stderr);
			}
			fputs(": ", stderr);
		}
		put_text(stderr, it->note);
		fputc('\n', stderr);
	}
	if (im->oom)
		fprintf(stderr, "ras-fdr-ctl: import-config: out of memory\n");
}

/* Every setting through rasd's own parser, so the output passes rasd --check-config. */
static void check_settings(struct imp *im)
{
	struct rasd_config scratch;

	rasd_config_defaults(&scratch);
	for (size_t i = 0; i < im->n; i++) {
		struct imp_item *it = im->items[i];
		const char *why = NULL;
		bool control = false;

		if (it->kind != IMP_SET)
			continue;
		for (const char *p = it->value; *p; p++)
			control |= (unsigned char)*p < 0x20 || *p == 0x7f;
		if (control)
			why = "a control character";
		else if (rasd_config_set(&scratch, it->key, it->value, &why) == 0)
			continue;
		imp_error(im, it->n_src ? it->src[0].line : 0, it->n_src ? it->src[0].key : it->key,
			  it->n_src ? it->src[0].value : it->value, "rasd would refuse %s = %s: %s",
			  it->key, it->value, why ? why : "invalid");
	}
}

/* mcelog.conf has [sections] and lower-case keys with dashes; rasdaemon's are upper case. */
static bool looks_like_mcelog(const char *text)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *k;

		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '[')
			return true;
		if (*p == '#' || *p == ';' || *p == '\n' || !*p)
			continue;
		if (!strncmp(p, "export", 6) && (p[6] == ' ' || p[6] == '\t'))
			for (p += 6; *p == ' ' || *p == '\t'; p++)
				;
		for (k = p; *k && *k != '=' && *k != '\n'; k++)
			if (islower((unsigned char)*k) || *k == '-')
				return true;
		return false;
	}
	return false;
}

static const struct ctl_opt import_config_opts[] = {
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_import_config_spec = {
	.name = "import-config", .args = "FILE", .opts = import_config_opts,
	.positional = CTL_C_FILE,
	.summary = "rasdaemon or mcelog.conf settings as rasd.conf lines",
	.more = "FILE: /etc/default/rasdaemon (or /etc/sysconfig/rasdaemon, rasdaemon.env) or an\n"
		"mcelog.conf, read as rasdaemon 0.8.5 and mcelog read them. Each rasd.conf line\n"
		"follows a comment naming the lines it comes from; trigger programs to install,\n"
		"settings not converted and why, and warnings come after. An invalid value is an\n"
		"error naming the allowed values (exit 1).\n",
};

static int import_config_opt(void *ctx, int key, const char *arg)
{
	(void)key, (void)arg;
	*(bool *)ctx = true;
	return CTL_GO_ON;
}

int ctl_import_config(struct ctl *c, int argc, char **argv)
{
	struct imp im = { .cfg = &c->cfg, .format = "rasdaemon", .dialect = "" };
	bool json = false, failed;
	char *text;
	int first, r;

	r = ctl_parse(&ctl_import_config_spec, argc, argv, import_config_opt, &json, &first);
	if (r != CTL_GO_ON)
		return r;
	if (argc - first != 1)
		return ctl_usage_error("import-config", "takes one FILE");
	im.file = argv[first];
	if ((r = ras_read_file(im.file, &text, NULL)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s: %s\n", ctl_text(im.file), strerror(-r));
		if (json) {
			printf("{\"version\":%d,\"error\":", CTL_JSON_VERSION);
			json_str(strerror(-r));
			printf(",\"file\":");
			json_str(im.file);
			printf("}\n");
		}
		return CTL_EXIT_ERROR;
	}
	r = looks_like_mcelog(text) ? imp_read_mcelog(&im, text) : imp_read_rasdaemon(&im, text);
	if (r < 0)
		im.oom = true;
	if (!imp_has_errors(&im))
		check_settings(&im);
	failed = imp_has_errors(&im);
	if (failed)
		print_errors(&im);
	if (json)
		print_json(&im, failed);
	else if (!failed)
		print_text(&im);
	imp_free(&im);
	free(text);
	return failed ? CTL_EXIT_ERROR : CTL_EXIT_OK;
}
