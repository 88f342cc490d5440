/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl health: each part rasd attributed errors to, its verdict (ok,
 * watch, replace), the rule and evidence behind it, since when, and what to
 * do; its faults, the actions already taken on it, its verdicts' history.
 * Read from the parts tables rasd writes (db/db_parts.h); nothing decided here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "db/db_parts.h"
#include "diag/rules.h"
#include "lib/clock.h"
#include "lib/dimm_locator.h"
#include "lib/edac_sysfs.h"
#include "lib/threshold.h"

struct health_args {
	bool json, synthetic, history, rules;
};

/* What the listing found, for the summary line and the exit status. */
struct listing {
	struct ctl *c;
	struct ras_db *db;
	bool json;
	unsigned n, by_verdict[DIAG_V_N];
	unsigned to_replace;          /* not synthetic */
	/* The SMBIOS devices and the EDAC labels, read at the first DIMM. */
	bool located;
	struct dimm_locators loc;
	struct edac_topology topo;
	bool have_topo;
};

static const char *advice_of(const char *rule)
{
	int r = diag_rule_find(rule);

	return diag_rule_info(r < 0 ? DIAG_R_NONE : (enum diag_rule)r)->advice;
}

static void json_str(const char *key, const char *v, bool comma)
{
	printf("%s\"%s\":", comma ? "," : "", key);
	ctl_print_json_string(v, strlen(v));
}

static void json_time(const char *key, int64_t ns)
{
	char when[40];

	if (ns == RAS_DF_NONE || !ns) {
		printf(",\"%s\":null", key);
		return;
	}
	ras_format_time(ns, when, sizeof(when));
	printf(",\"%s\":\"%s\"", key, when);
}

static void json_int(const char *key, int64_t v)
{
	if (v == RAS_DF_NONE)
		printf(",\"%s\":null", key);
	else
		printf(",\"%s\":%lld", key, (long long)v);
}

/* ---- a DIMM's SMBIOS type 17 device ----------------------------------------- */

static void locate(struct listing *l, const struct ras_db_part *p, struct dimm_where *w)
{
	const char *root = l->c->cfg.sysfs_root;

	if (!l->located) {
		l->located = true;
		dimm_locators_read(root, &l->loc);
		l->have_topo = edac_sysfs_read(root, &l->topo) == 0;
	}
	dimm_where_of_part(&l->loc, l->have_topo ? &l->topo : NULL, p->part, p->label, w);
}

static void locator_json(struct listing *l, const struct ras_db_part *p)
{
	struct dimm_where w;

	if (strcmp(p->kind, "dimm")) {
		printf(",\"smbios\":null");
		return;
	}
	locate(l, p, &w);
	printf(",\"smbios\":{\"known\":%s", w.dev ? "true" : "false");
	if (w.dev) {
		json_str("locator", w.dev->locator, true);
		json_str("bank_locator", w.dev->bank_locator, true);
		json_str("manufacturer", w.dev->manufacturer, true);
		json_str("part_number", w.dev->part_number, true);
		json_str("serial", w.dev->serial, true);
		printf(",\"handle\":\"0x%04x\"", (unsigned)w.dev->handle);
	}
	json_str(w.dev ? "matched_by" : "why", w.why, true);
	putchar('}');
}

/* "DIMM_A1 (bank P0 CHANNEL A), Samsung M393A2K43BB1-CTD, serial 0x1234" or why not known. */
static void locator_text(struct listing *l, const struct ras_db_part *p)
{
	struct dimm_where w;

	if (strcmp(p->kind, "dimm"))
		return;
	locate(l, p, &w);
	if (!w.dev) {
		printf("         socket: locator not known (%s)\n", w.why);
		return;
	}
	printf("         socket: %s", ctl_text(w.dev->locator[0] ? w.dev->locator : "(no locator)"));
	if (w.dev->bank_locator[0])
		printf(" (bank %s)", ctl_text(w.dev->bank_locator));
	if (w.dev->manufacturer[0])
		printf(", %s", ctl_text(w.dev->manufacturer));
	if (w.dev->part_number[0])
		printf(", part %s", ctl_text(w.dev->part_number));
	if (w.dev->serial[0])
		printf(", serial %s", ctl_text(w.dev->serial));
	printf("; SMBIOS: %s\n", w.why);
}

/* ---- a part's faults, actions and history ---------------------------------- */

struct sub {
	bool json;
	unsigned n;
};

static int fault_json(void *ctx, const struct ras_db_fault *f)
{
	struct sub *s = ctx;

	printf("%s{", s->n++ ? "," : "");
	json_str("mode", f->mode, false);
	printf(",\"permanent\":%s", f->permanent ? "true" : "false");
	json_int("rank", f->rank);
	json_int("bank_group", f->bank_group);
	json_int("bank", f->bank);
	json_int("row", f->row);
	json_int("column", f->column);
	printf(",\"cells\":%lld,\"ranks\":%lld,\"banks\":%lld,\"rows\":%lld,\"columns\":%lld,"
	       "\"errors\":%lld", (long long)f->cells, (long long)f->ranks, (long long)f->banks,
	       (long long)f->rows, (long long)f->columns, (long long)f->errors);
	json_time("first_time", f->first_ns);
	json_time("last_time", f->last_ns);
	json_str("description", f->description, true);
	putchar('}');
	return 0;
}

static int fault_text(void *ctx, const struct ras_db_fault *f)
{
	char first[40], last[40];

	(void)ctx;
	ras_format_time(f->first_ns, first, sizeof(first));
	ras_format_time(f->last_ns, last, sizeof(last));
	printf("         fault: %s (%.19sZ .. %.19sZ)\n", f->description, first, last);
	return 0;
}

static void action_json(void *ctx, const char *action, const char *result, int64_t n,
			int64_t first_ns, int64_t last_ns)
{
	struct sub *s = ctx;

	printf("%s{", s->n++ ? "," : "");
	json_str("action", action, false);
	json_str("result", result, true);
	printf(",\"decisions\":%lld", (long long)n);
	json_time("first_time", first_ns);
	json_time("last_time", last_ns);
	putchar('}');
}

static void action_text(void *ctx, const char *action, const char *result, int64_t n,
			int64_t first_ns, int64_t last_ns)
{
	struct sub *s = ctx;
	char last[40];

	(void)first_ns;
	ras_format_time(last_ns, last, sizeof(last));
	printf("%s%s %s %lld (last %.19sZ)", s->n++ ? ", " : "         actions taken: ", action, result,
	       (long long)n, last);
}

static int history_json(void *ctx, const struct ras_db_verdict_change *v)
{
	struct sub *s = ctx;

	printf("%s{", s->n++ ? "," : "");
	json_str("was", v->was, false);
	json_str("verdict", v->verdict, true);
	json_str("rule", v->rule, true);
	json_str("mode", v->mode, true);
	json_str("why", v->why, true);
	json_time("time", v->at_ns);
	json_time("decided_time", v->decided_ns);
	json_str("boot_id", v->boot_id, true);
	putchar('}');
	return 0;
}

static int history_text(void *ctx, const struct ras_db_verdict_change *v)
{
	char when[40];

	(void)ctx;
	ras_format_time(v->at_ns, when, sizeof(when));
	printf("         %.19sZ %s -> %s, rule %s: %s\n", when, v->was, v->verdict, v->rule, v->why);
	return 0;
}

/* ---- one part --------------------------------------------------------------- */

static void part_json(struct listing *l, const struct ras_db_part *p)
{
	struct sub s = { .json = true };

	printf("%s{", l->n ? "," : "");
	json_str("kind", p->kind, false);
	json_str("part", p->part, true);
	json_str("label", p->label, true);
	locator_json(l, p);
	printf(",\"synthetic\":%s", p->synthetic ? "true" : "false");
	json_str("verdict", p->verdict, true);
	json_str("rule", p->rule, true);
	json_str("why", p->why, true);
	json_str("advice", advice_of(p->rule), true);
	json_time("since", p->since_ns);
	json_time("first_time", p->first_ns);
	json_time("last_time", p->last_ns);
	printf(",\"records\":%lld,\"corrected\":%lld,\"uncorrected\":%lld,\"fatal\":%lld",
	       (long long)p->records, (long long)p->corrected, (long long)p->uncorrected,
	       (long long)p->fatal);
	printf(",\"coordinates_reported\":%lld", (long long)p->coord_records);
	json_int("cells", p->cells);
	json_int("cells_beyond", p->beyond);
	json_int("rows", p->rows);
	json_int("banks", p->banks);
	json_int("ranks", p->ranks);
	if (p->mode[0])
		json_str("mode", p->mode, true);
	else
		printf(",\"mode\":null");
	printf(",\"permanent\":%s", p->permanent < 0 ? "null" : p->permanent ? "true" : "false");
	json_str("link", p->link, true);
	printf(",\"faults\":[");
	ras_db_part_faults(l->db, p->id, fault_json, &s);
	printf("],\"actions\":[");
	s.n = 0;
	ras_db_part_actions(l->db, p->part, action_json, &s);
	printf("],\"history\":[");
	s.n = 0;
	ras_db_verdict_history(l->db, p->id, history_json, &s);
	printf("]}");
}

static void upper(const char *s, char *out, size_t len)
{
	size_t i = 0;

	for (; s[i] && i + 1 < len; i++)
		out[i] = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 'a' + 'A' : s[i]);
	out[i] = '\0';
}

static void evidence_text(const struct ras_db_part *p)
{
	char first[40], last[40];

	ras_format_time(p->first_ns, first, sizeof(first));
	ras_format_time(p->last_ns, last, sizeof(last));
	printf("         %lld corrected, %lld uncorrected%s in %lld records, %.19sZ .. %.19sZ",
	       (long long)p->corrected, (long long)p->uncorrected, p->fatal ? " (fatal)" : "",
	       (long long)p->records, first, last);
	if (p->rows != RAS_DF_NONE && p->cells > 0)
		printf("; touched %lld row%s, %lld bank%s, %lld rank%s", (long long)p->rows,
		       p->rows == 1 ? "" : "s", (long long)p->banks, p->banks == 1 ? "" : "s",
		       (long long)p->ranks, p->ranks == 1 ? "" : "s");
	if (p->beyond > 0)
		printf(" (%lld errors at further cells)", (long long)p->beyond);
	putchar('\n');
	if (p->link[0])
		printf("         link: %s\n", p->link);
}

/* An ok part: one line. Watch and replace: why, since when, evidence, faults, actions, advice. */
static void part_text(struct listing *l, const struct ras_db_part *p, bool history)
{
	struct sub s = { 0 };
	char v[16], since[40];

	upper(p->verdict, v, sizeof(v));
	printf("%-8s %s %s%s%s%s%s\n", v, p->kind, p->part, p->label[0] ? " (" : "", p->label,
	       p->label[0] ? ")" : "", p->synthetic ? " [synthetic]" : "");
	locator_text(l, p);
	if (!strcmp(p->verdict, "ok")) {
		printf("         %s\n", p->why);
	} else {
		ras_format_time(p->since_ns, since, sizeof(since));
		printf("         since %.19sZ, rule %s: %s\n", since, p->rule, p->why);
		evidence_text(p);
		ras_db_part_faults(l->db, p->id, fault_text, &s);
		s.n = 0;
		ras_db_part_actions(l->db, p->part, action_text, &s);
		if (s.n)
			putchar('\n');
		printf("         do: %s\n", advice_of(p->rule));
	}
	if (history)
		ras_db_verdict_history(l->db, p->id, history_text, &s);
}

struct part_ctx {
	struct listing *l;
	bool history;
};

static int one_part(void *ctx, const struct ras_db_part *p)
{
	struct part_ctx *pc = ctx;
	struct listing *l = pc->l;
	int v = diag_verdict_parse(p->verdict);

	if (v >= 0)
		l->by_verdict[v]++;
	if (v == DIAG_REPLACE && !p->synthetic)
		l->to_replace++;
	if (l->json)
		part_json(l, p);
	else
		part_text(l, p, pc->history);
	l->n++;
	return 0;
}

/* ---- the rules ------------------------------------------------------------- */

static void print_rules(struct ctl *c, bool json)
{
	struct diag_rules r;

	rasd_config_health_rules(&c->cfg, &r);
	if (json)
		printf("{\"version\":%d,\"permanent_after_s\":%lld,\"wide_cells\":%u,\"rules\":[",
		       CTL_JSON_VERSION, (long long)(r.permanent_after_ns / 1000000000), r.wide_cells);
	else
		printf("Permanent: a fault's errors %s apart. Wide: %u scattered cells.\n%-17s %-8s %-9s %s\n",
		       c->cfg.health_permanent_after, r.wide_cells, "RULE", "VERDICT", "RATE", "WHEN (SOURCE)");
	for (int i = 1; i < DIAG_R_N; i++) {
		const struct diag_rule_info *in = diag_rule_info((enum diag_rule)i);
		const char *v = r.r[i].verdict == DIAG_OFF ? "off" : diag_verdict_name(r.r[i].verdict);
		char rate[32] = "";

		if (in->count)
			ras_threshold_format(&(struct ras_threshold){ r.r[i].count, r.r[i].period_ns },
					     rate, sizeof(rate));
		if (json) {
			printf("%s{", i > 1 ? "," : "");
			json_str("rule", in->name, false);
			json_str("verdict", v, true);
			json_str("rate", rate, true);
			json_str("when", in->when, true);
			json_str("source", in->source, true);
			json_str("advice", in->advice, true);
			putchar('}');
		} else {
			printf("%-17s %-8s %-9s %s (%s)\n", in->name, v, rate, in->when, in->source);
		}
	}
	if (json)
		printf("]}\n");
}

/* ---- the command ------------------------------------------------------------ */

static const struct ctl_opt health_opts[] = {
	CTL_OPT_SYNTHETIC,
	{ "history", 'H', NULL, CTL_C_NONE, "each part's verdict changes too" },
	{ "rules", 'r', NULL, CTL_C_NONE, "the verdict rules as rasd.conf sets them, instead" },
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_health_spec = {
	.name = "health", .args = "", .opts = health_opts,
	.summary = "each part with errors: its verdict (ok, watch, replace), why, and what to do",
	.more = "Exit status 3 when a part (not synthetic) is to be replaced.\n",
};

static int health_opt(void *ctx, int key, const char *arg)
{
	struct health_args *a = ctx;

	(void)arg;
	switch (key) {
	case 'I': a->synthetic = true; break;
	case 'H': a->history = true; break;
	case 'r': a->rules = true; break;
	case 'j': a->json = true; break;
	}
	return CTL_GO_ON;
}

static void summary_line(const struct listing *l)
{
	if (l->json) {
		printf("],\"replace\":%u,\"watch\":%u,\"ok\":%u}\n", l->by_verdict[DIAG_REPLACE],
		       l->by_verdict[DIAG_WATCH], l->by_verdict[DIAG_OK]);
		return;
	}
	if (!l->n) {
		printf("No part has errors.\n");
		return;
	}
	printf("\n%u part%s with errors: %u to replace, %u to watch, %u ok.\n", l->n,
	       l->n == 1 ? "" : "s", l->by_verdict[DIAG_REPLACE], l->by_verdict[DIAG_WATCH],
	       l->by_verdict[DIAG_OK]);
}

int ctl_health(struct ctl *c, int argc, char **argv)
{
	struct health_args a = { 0 };
	struct listing l = { .c = c };
	struct part_ctx pc = { &l, false };
	int first, r = ctl_parse(&ctl_health_spec, argc, argv, health_opt, &a, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("health", "unexpected argument '%s'", argv[first]);
	c->json = l.json = a.json;
	pc.history = a.history;
	if (a.rules) {
		print_rules(c, a.json);
		return 0;
	}
	if (ctl_open_db(c, &l.db) < 0)
		return 1;
	if (l.json)
		printf("{\"version\":%d,\"parts\":[", CTL_JSON_VERSION);
	r = ras_db_part_list(l.db, a.synthetic, false, one_part, &pc);
	if (r < 0 && r != -ENOENT) {
		if (l.json)
			printf("]}\n");
		ctl_db_error(c, "cannot read the parts");
		ras_db_close(l.db);
		return 1;
	}
	summary_line(&l);
	dimm_locators_free(&l.loc);
	if (l.have_topo)
		edac_topology_free(&l.topo);
	ras_db_close(l.db);
	return l.to_replace ? CTL_EXIT_ATTENTION : CTL_EXIT_OK;
}
