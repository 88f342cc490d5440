/* SPDX-License-Identifier: MIT */
/*
 * The diagnosis's keys of rasd.conf: health_permanent_after, and a
 * health_rule_<name> per verdict rule (diag/rules.h), "VERDICT" or, for a
 * rate, "VERDICT COUNT/PERIOD": "watch", "replace 10/24h", "off".
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "config.h"
#include "threshold.h"

int rasd_duration_parse(const char *value, int64_t *ns)
{
	struct ras_threshold t;
	char text[48];

	/* One error per the period: the threshold's own reading of "24h", "30m", "2d". */
	if (strlen(value) > 32 || !*value || !isdigit((unsigned char)*value))
		return -EINVAL;
	snprintf(text, sizeof(text), "1/%s", value);
	if (ras_threshold_parse(text, &t) < 0 || !t.count || t.period_ns <= 0)
		return -EINVAL;
	*ns = t.period_ns;
	return 0;
}

/* "VERDICT [COUNT/PERIOD]": the verdict (DIAG_OFF for off) and the threshold text, or -EINVAL. */
static int split_rule(const char *value, int *verdict, const char **threshold)
{
	char word[16];
	size_t n = strcspn(value, " \t");

	if (n == 0 || n >= sizeof(word))
		return -EINVAL;
	memcpy(word, value, n);
	word[n] = '\0';
	*verdict = !strcmp(word, "off") ? DIAG_OFF : diag_verdict_parse(word);
	if (*verdict == -1 && strcmp(word, "off"))
		return -EINVAL;
	value += n;
	while (isspace((unsigned char)*value))
		value++;
	*threshold = *value ? value : NULL;
	return 0;
}

int rasd_health_rule_check(int r, const char *value, const char **why)
{
	const struct diag_rule_info *in = diag_rule_info((enum diag_rule)r);
	struct ras_threshold t;
	const char *th;
	int verdict;

	if (split_rule(value, &verdict, &th) < 0) {
		*why = "expected ok, watch, replace or off";
		return -EINVAL;
	}
	if (th && !in->count) {
		*why = "this rule takes a verdict alone (ok, watch, replace, off)";
		return -EINVAL;
	}
	if (th && (ras_threshold_parse(th, &t) < 0 || !t.count)) {
		*why = "expected a verdict, then count/period (watch 100/24h)";
		return -EINVAL;
	}
	return 0;
}

void rasd_config_health_rules(const struct rasd_config *c, struct diag_rules *out)
{
	diag_rules_defaults(out);
	rasd_duration_parse(c->health_permanent_after, &out->permanent_after_ns);
	out->wide_cells = c->health_wide_cells;
	for (int i = 1; i < DIAG_R_N; i++) {
		struct ras_threshold t;
		const char *th;
		int verdict;

		if (!c->health_rule[i][0] || split_rule(c->health_rule[i], &verdict, &th) < 0)
			continue;
		out->r[i].verdict = verdict;
		if (th && ras_threshold_parse(th, &t) == 0 && t.count) {
			out->r[i].count = t.count;
			out->r[i].period_ns = t.period_ns;
		}
	}
}
