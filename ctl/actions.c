/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl actions: the decisions rasd took on crossed thresholds, and the buckets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "db/db_actions.h"
#include "lib/clock.h"

struct list_ctx {
	bool json;
	unsigned n;
};

static void json_field(const char *key, const char *value, bool comma)
{
	printf("%s\"%s\":", comma ? "," : "", key);
	ctl_print_json_string(value, strlen(value));
}

static void print_action_json(const struct ras_db_action *a, const char *first, const char *last)
{
	printf("{\"version\":%d,\"id\":%lld,\"time\":\"%s\",\"wall_ns\":", CTL_JSON_VERSION,
	       (long long)a->id, first);
	ras_json_i64(stdout, a->wall_ns);
	json_field("boot_id", a->boot_id, true);
	json_field("kind", a->kind, true);
	json_field("subject", a->subject, true);
	printf(",\"count\":%lld", (long long)a->count);
	json_field("threshold", a->threshold, true);
	json_field("action", a->action, true);
	json_field("result", a->result, true);
	printf(",\"errno\":%d", a->error);
	json_field("error", a->error ? strerror(a->error) : "", true);
	json_field("target", a->target, true);
	printf(",\"synthetic\":%s", a->synthetic ? "true" : "false");
	json_field("event_table", a->event_table, true);
	printf(",\"event_id\":%lld", (long long)a->event_id);
	/* Identical decisions folded into the row: how many, the first and the last. */
	printf(",\"repeats\":%lld,\"first_time\":\"%s\",\"last_time\":\"%s\",\"last_ns\":",
	       (long long)a->repeats, first, last);
	ras_json_i64(stdout, a->last_ns);
	printf(",\"last_event_id\":%lld}\n", (long long)a->last_event_id);
}

/*
 * The result and why: "failed (Permission denied)"; a dry run on a kernel
 * without the interface wrote nothing either way, and says the kernel lacks it.
 */
static const char *result_text(const struct ras_db_action *a, char *buf, size_t len)
{
	if (!strcmp(a->result, "dry-run") && a->error == EOPNOTSUPP)
		snprintf(buf, len, "%s, and the kernel lacks the interface", a->result);
	else if (a->error)
		snprintf(buf, len, "%s (%s)", a->result, strerror(a->error));
	else
		snprintf(buf, len, "%s", a->result);
	return buf;
}

static int print_action(void *ctx, const struct ras_db_action *a)
{
	struct list_ctx *l = ctx;
	char first[40], last[40], why[160];

	ras_format_time(a->wall_ns, first, sizeof(first));
	ras_format_time(a->last_ns, last, sizeof(last));
	if (l->json) {
		print_action_json(a, first, last);
		l->n++;
		return 0;
	}
	if (!l->n++)
		printf("%-20s %-6s %-34s %6s %-8s %7s %-14s %s\n", "TIME (UTC)", "KIND", "SUBJECT",
		       "COUNT", "LIMIT", "REPEATS", "ACTION", "RESULT");
	printf("%.19sZ %-6s %-34s %6lld %-8s %7lld %-14s %s%s\n", first, ctl_text(a->kind),
	       ctl_text(a->subject), (long long)a->count, ctl_text(a->threshold),
	       (long long)a->repeats, ctl_text(a->action), ctl_text(result_text(a, why, sizeof(why))),
	       a->synthetic ? " [synthetic]" : "");
	if (a->repeats > 1)
		printf("%20s decided %lld times, first %.19sZ, last %.19sZ (%s row %lld)\n", "",
		       (long long)a->repeats, first, last,
		       a->event_table[0] ? ctl_text(a->event_table) : "record",
		       (long long)a->last_event_id);
	if (a->target[0])
		printf("%20s %s\n", "", ctl_text(a->target));
	return 0;
}

static int print_bucket(void *ctx, const char *kind, const char *subject,
			const struct ras_db_bucket *b, const char *label)
{
	struct list_ctx *l = ctx;
	char when[40];

	ras_format_time(b->last_ns, when, sizeof(when));
	if (l->json) {
		printf("{\"version\":%d", CTL_JSON_VERSION);
		json_field("kind", kind, true);
		json_field("subject", subject, true);
		printf(",\"level\":%lld,\"total\":%lld,\"leaked_until\":\"%s\",\"leaked_until_ns\":",
		       (long long)b->level, (long long)b->total, when);
		ras_json_i64(stdout, b->last_ns);
		json_field("label", label, true);
		printf("}\n");
		l->n++;
		return 0;
	}
	if (!l->n++)
		printf("%-6s %-44s %6s %8s  %s\n", "KIND", "SUBJECT", "LEVEL", "TOTAL", "LABEL");
	printf("%-6s %-44s %6lld %8lld  %s\n", ctl_text(kind), ctl_text(subject), (long long)b->level,
	       (long long)b->total, ctl_text(label));
	return 0;
}

static const struct ctl_opt actions_opts[] = {
	CTL_OPT_SINCE,
	{ "buckets", 'b', NULL, CTL_C_NONE, "every subject's leaky bucket instead of the decisions" },
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_actions_spec = {
	.name = "actions", .args = "", .opts = actions_opts,
	.summary = "rasd's decisions on crossed thresholds and its BMC SEL entries (oldest first), or the buckets",
};

struct actions_args {
	int64_t since;
	bool buckets, json;
};

static int actions_opt(void *ctx, int key, const char *arg)
{
	struct actions_args *a = ctx;
	int r;

	switch (key) {
	case 'S':
		r = ctl_parse_time(arg, &a->since);
		if (r < 0) {
			ctl_time_error("since", r, arg);
			return CTL_EXIT_USAGE;
		}
		break;
	case 'b': a->buckets = true; break;
	case 'j': a->json = true; break;
	}
	return CTL_GO_ON;
}

int ctl_actions(struct ctl *c, int argc, char **argv)
{
	struct actions_args a = { 0 };
	struct list_ctx l = { 0 };
	struct ras_db *db;
	int first, r = ctl_parse(&ctl_actions_spec, argc, argv, actions_opt, &a, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("actions", "unexpected argument '%s'", argv[first]);
	l.json = a.json;
	if (ctl_open_db(c, &db) < 0)
		return 1;
	r = a.buckets ? ras_db_bucket_list(db, print_bucket, &l)
		      : ras_db_action_list(db, a.since, print_action, &l);
	ras_db_close(db);
	if (r < 0 && r != -ENOENT) {
		fprintf(stderr, "ras-fdr-ctl: cannot read the database\n");
		return 1;
	}
	if (!l.n && !l.json)
		printf(a.buckets ? "No buckets.\n" : "No actions.\n");
	return 0;
}

/* The counts by result, as text ("done 2, failed 1") or JSON members, never spliced raw. */
struct counts_ctx {
	bool json;
	unsigned n;
	int64_t total;
	FILE *out;
};

static void add_count(void *ctx, const char *result, int64_t n)
{
	struct counts_ctx *k = ctx;

	k->total += n;
	if (!k->out)
		return;
	if (k->n++)
		fputs(k->json ? "," : ", ", k->out);
	if (k->json)
		ras_json_key(k->out, result ? result : "?");
	else
		ras_text_write(k->out, result ? result : "?", result ? strlen(result) : 1);
	fprintf(k->out, k->json ? "%lld" : " %lld", (long long)n);
}

void ctl_actions_counts(struct ras_db *db, const struct ras_db_action_window *w, bool json)
{
	struct counts_ctx k = { .json = json };
	char *text = NULL;
	size_t len = 0;

	k.out = open_memstream(&text, &len);
	ras_db_action_counts(db, w, add_count, &k);
	if (k.out)
		fclose(k.out);
	if (json)
		printf(",\"actions\":{%s}", text ? text : "");
	else if (k.total)
		printf("Actions: %lld decided (%s); see ras-fdr-ctl actions.\n", (long long)k.total,
		       text ? text : "");
	else
		printf("Actions: none.\n");
	free(text);
}
