/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl crashes: what killed each previous boot, one sentence each,
 * and "crashes show ID": the whole story (the reason line, the hardware-error
 * lines, the firmware's machine check, the boot's last records, its
 * snapshots, and with --raw the kernel's log itself). rasd stores them at
 * start (rasd/lastwords.c); diag's per-part verdicts can follow the links.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "db/db_crashes.h"
#include "lastwords/cause.h"
#include "lib/clock.h"
#include "lib/decode.h"

struct crashes_args {
	struct ctl *c;
	bool json, raw, show;
	int64_t id;
	struct ras_db_filter f;
};

struct crashes_ctx {
	const struct crashes_args *a;
	struct ras_db *db;
	unsigned n;
};

/* The first sentence the links give: the firmware's machine check, decoded. */
struct story {
	char erst[RAS_SUMMARY_LEN];
	bool json;
	unsigned n;
};

static int find_erst(void *ctx, const char *tbl, int64_t row_id, const char *role,
		     const struct ras_db_row *row)
{
	struct story *s = ctx;

	if (row && !s->erst[0] && !strcmp(role, RAS_CRASH_LINK_ERST))
		ras_render(&ras_event_types[row->type_idx], row->decoded, s->erst, sizeof(s->erst));
	return 0;
}

/* A log line without its "[  123.456789] " and the panic's preamble. */
static const char *bare(const char *line)
{
	static const char panic[] = "Kernel panic - not syncing: ";

	if (!line)
		return "";
	if (line[0] == '[' && strchr(line, ']'))
		line = strchr(line, ']') + 1 + (strchr(line, ']')[1] == ' ');
	return strncmp(line, panic, strlen(panic)) ? line : line + strlen(panic);
}

/* "boot 3 ended in a fatal machine check: <what>; panic at 2026-11-22 10:00:00 UTC" */
void ctl_crash_sentence(struct ras_db *db, const struct ras_db_crash *c, char *out, size_t len)
{
	struct story s = { 0 };
	const char *what;
	char when[40] = "";
	enum lw_cause cause = lw_cause_parse(c->cause);

	ras_db_crash_links(db, c->id, find_erst, &s);
	what = s.erst[0] ? s.erst : c->detail && c->detail[0] ? bare(c->detail) : bare(c->reason);
	if (c->crash_ns) {
		ras_format_time(c->crash_ns, when, sizeof(when));
		when[10] = ' ';
		when[19] = 0;
	}
	snprintf(out, len, "boot %d ended in %s%s%s%s%s%s%s", c->boot_number, lw_cause_words(cause),
		 *what ? ": " : "", what, when[0] ? (lw_cause_is_crash(cause) ? "; panic at " : "; at ") : "",
		 when, when[0] ? " UTC" : "",
		 lw_cause_is_crash(cause) && !c->explained ? " (no hardware error explains it)" : "");
}

static void json_str(const char *key, const char *v, bool comma)
{
	printf("%s\"%s\":", comma ? "," : "", key);
	if (v)
		ctl_print_json_string(v, strlen(v));
	else
		printf("null");
}

static void print_crash_json(const struct ras_db_crash *c, const char *summary)
{
	char when[40];

	printf("{\"version\":%d,\"id\":%lld,\"boot\":%d", CTL_JSON_VERSION, (long long)c->id, c->boot_number);
	json_str("boot_id", c->boot_id, true);
	if (c->crash_ns) {
		ras_format_time(c->crash_ns, when, sizeof(when));
		printf(",\"time\":\"%s\"", when);
	} else {
		printf(",\"time\":null");
	}
	ras_format_time(c->found_ns, when, sizeof(when));
	printf(",\"found\":\"%s\",\"uptime_ns\":", when);
	c->uptime_ns >= 0 ? printf("\"%lld\"", (long long)c->uptime_ns) : printf("null");
	json_str("cause", c->cause, true);
	printf(",\"crash\":%s,\"explained\":%s", lw_cause_is_crash(lw_cause_parse(c->cause)) ? "true" : "false",
	       c->explained ? "true" : "false");
	json_str("summary", summary, true);
	json_str("reason", c->reason, true);
	json_str("detail", c->detail, true);
	json_str("backend", c->backend, true);
	json_str("kind", c->kind, true);
	json_str("dump_reason", c->dump_reason, true);
	printf(",\"dump_count\":%u,\"parts\":%u,\"parts_missing\":%u,\"problems\":%u", c->dump_count,
	       c->parts, c->parts_missing, c->problems);
	json_str("files", c->files, true);
	json_str("hardware_lines", c->hw_lines, true);
	printf(",\"hardware_lines_dropped\":%u", c->hw_dropped);
}

static int list_one(void *ctx, const struct ras_db_crash *c)
{
	struct crashes_ctx *k = ctx;
	char line[RAS_SUMMARY_LEN + 1024];

	ctl_crash_sentence(k->db, c, line, sizeof(line));
	k->n++;
	if (k->a->json) {
		print_crash_json(c, line);
		printf("}\n");
	} else {
		printf("crash %lld: %s\n", (long long)c->id, ctl_text(line));
	}
	return 0;
}

/* One link of the story: the record, its time and sentence, or what it is when gone. */
static int print_link(void *ctx, const char *tbl, int64_t row_id, const char *role,
		      const struct ras_db_row *row)
{
	struct crashes_ctx *k = ctx;
	char text[RAS_SUMMARY_LEN] = "", when[40] = "";

	if (row) {
		ras_render(&ras_event_types[row->type_idx], row->decoded, text, sizeof(text));
		ras_format_time(row->wall_ns, when, sizeof(when));
	}
	if (k->a->json) {
		printf("%s{", k->n++ ? "," : "");
		json_str("role", role, false);
		json_str("table", tbl, true);
		printf(",\"id\":%lld", (long long)row_id);
		if (row) {
			printf(",\"time\":\"%s\"", when);
			json_str("severity", row->severity, true);
			json_str("source", row->source, true);
			json_str("summary", text, true);
		}
		putchar('}');
		return 0;
	}
	if (!strcmp(role, RAS_CRASH_LINK_SNAPSHOT))
		printf("  flight-recorder snapshot %lld (ras-fdr-ctl snapshot show %lld)\n",
		       (long long)row_id, (long long)row_id);
	else if (row)
		printf("  %.19sZ %s %lld [%s, %s] %s\n", when, ctl_text(tbl), (long long)row_id,
		       row->severity ? ctl_text(row->severity) : "?",
		       row->source ? ctl_text(row->source) : "?", ctl_text(text));
	else
		printf("  %s %lld (no longer stored)\n", ctl_text(tbl), (long long)row_id);
	return 0;
}

static void print_lines(const char *title, const char *text)
{
	if (!text || !*text)
		return;
	printf("%s\n", title);
	for (const char *p = text; *p; ) {
		size_t n = strcspn(p, "\n");

		printf("  %s\n", ctl_textn(p, n));
		p += n + (p[n] == '\n');
	}
}

/* The record the kernel left, its lines kept, each shown as text (it is kernel and database text). */
static void print_raw(const uint8_t *raw, size_t len)
{
	printf("The whole record (%zu bytes):\n", len);
	for (size_t i = 0; i < len; ) {
		const uint8_t *nl = memchr(raw + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - raw) - i : len - i;

		printf("%s%s", ctl_textn((const char *)raw + i, n), nl ? "\n" : "");
		i += n + (nl != NULL);
	}
}

static void print_story_text(struct crashes_ctx *k, const struct ras_db_crash *c, const char *summary)
{
	char when[40];

	printf("Crash %lld: %s\n", (long long)c->id, ctl_text(summary));
	printf("  boot        %d (boot id %s)\n", c->boot_number,
	       c->boot_id ? ctl_text(c->boot_id) : "unknown");
	if (c->crash_ns) {
		ras_format_time(c->crash_ns, when, sizeof(when));
		printf("  time        %s", when);
		if (c->uptime_ns >= 0)
			printf(" (%lld.%06lld s after the boot)", (long long)(c->uptime_ns / 1000000000),
			       (long long)(c->uptime_ns % 1000000000 / 1000));
		putchar('\n');
	}
	ras_format_time(c->found_ns, when, sizeof(when));
	printf("  found       %s by rasd at start\n", when);
	printf("  record      %s %s%s%s", ctl_text(c->backend), ctl_text(c->kind),
	       c->dump_reason ? ", " : "", c->dump_reason ? ctl_text(c->dump_reason) : "");
	if (c->dump_reason)
		printf("#%u", c->dump_count);
	printf(", %u part%s%s: %s\n", c->parts, c->parts == 1 ? "" : "s",
	       c->parts_missing ? " (some missing)" : "", c->files ? ctl_text(c->files) : "");
	printf("  cause       %s, %s\n", ctl_text(c->cause), c->explained ? "a hardware error explains it" :
	       "no hardware error explains it");
	if (c->reason)
		printf("  reason      %s\n", ctl_text(c->reason));
	if (c->detail)
		printf("  started by  %s\n", ctl_text(c->detail));
	if (c->problems)
		printf("  problems    %u (parts missing, cut or not decompressed)\n", c->problems);
	print_lines("Hardware-error lines of the log:", c->hw_lines);
	if (c->hw_dropped)
		printf("  (%u more not kept)\n", c->hw_dropped);
	printf("Records linked (the firmware's machine check, the boot's last records, snapshots):\n");
	k->n = 0;
	ras_db_crash_links(k->db, c->id, print_link, k);
}

static int show_one(void *ctx, const struct ras_db_crash *c)
{
	struct crashes_ctx *k = ctx;
	char summary[RAS_SUMMARY_LEN + 1024];
	uint8_t *raw = NULL;
	size_t len = 0;

	ctl_crash_sentence(k->db, c, summary, sizeof(summary));
	if (k->a->raw)
		ras_db_crash_raw(k->db, c->id, &raw, &len);
	if (k->a->json) {
		print_crash_json(c, summary);
		printf(",\"links\":[");
		k->n = 0;
		ras_db_crash_links(k->db, c->id, print_link, k);
		putchar(']');
		if (k->a->raw) {
			printf(",\"record\":");
			ctl_print_json_string(raw ? (const char *)raw : "", len);
		}
		printf("}\n");
	} else {
		print_story_text(k, c, summary);
		if (k->a->raw && raw)
			print_raw(raw, len);
	}
	free(raw);
	k->n = 1;
	return 0;
}

static const struct ctl_opt crashes_opts[] = {
	CTL_OPT_BOOT,
	{ "raw", 'r', NULL, CTL_C_NONE, "show: the whole record the kernel left, as it was kept" },
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_crashes_spec = {
	.name = "crashes", .args = "[show ID]", .opts = crashes_opts, .positional = CTL_C_WORDS,
	.words = "show",
	.summary = "what killed each previous boot, one sentence each; show ID: the whole story",
};

static int crashes_opt(void *ctx, int key, const char *arg)
{
	struct crashes_args *a = ctx;

	switch (key) {
	case 'j': a->json = true; break;
	case 'r': a->raw = true; break;
	case 'B': return ctl_filter_option(a->c, &a->f, key, arg) < 0 ? CTL_EXIT_USAGE : CTL_GO_ON;
	}
	return CTL_GO_ON;
}

int ctl_crashes(struct ctl *c, int argc, char **argv)
{
	struct crashes_args a = { .c = c, .f = { .type_idx = -1 } };
	struct crashes_ctx k = { .a = &a };
	int first, r = ctl_parse(&ctl_crashes_spec, argc, argv, crashes_opt, &a, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc && !strcmp(argv[first], "show")) {
		if (first + 2 != argc || ctl_parse_i64(argv[first + 1], 1, INT64_MAX, false, &a.id) < 0)
			return ctl_usage_error("crashes", "show takes one crash id (a number from 'crashes')");
		a.show = true;
	} else if (first < argc) {
		return ctl_usage_error("crashes", "unexpected argument '%s'", argv[first]);
	}
	if (ctl_open_db(c, &k.db) < 0)
		return 1;
	r = ras_db_crashes(k.db, a.f.boot_id, a.show ? a.id : 0, a.show ? show_one : list_one, &k);
	ras_db_close(k.db);
	if (r < 0 && r != -ENOENT) {
		ctl_db_error(c, "cannot read the crashes");
		return 1;
	}
	if (a.show && !k.n) {
		fprintf(stderr, "ras-fdr-ctl: crashes: no crash %lld\n", (long long)a.id);
		return 1;
	}
	if (!k.n && !a.json)
		printf("No crashes recorded.\n");
	return 0;
}
