/* SPDX-License-Identifier: MIT */
/*
 * rasdaemon's settings (/etc/default/rasdaemon, /etc/sysconfig/rasdaemon,
 * rasdaemon.env) read as rasdaemon 0.8.5 reads them. Facts of its code:
 *
 * - PAGE_CE_ACTION and ROW_CE_ACTION: off, account, soft, hard or
 *   soft-then-hard in any case; absent or unknown, page is soft and row off.
 *   While the row action is not off the page threshold is off, and a crossed
 *   row offlines the pages seen in it with the row action.
 * - PAGE_/ROW_CE_THRESHOLD: digits and one optional letter, k (x1000) or m
 *   (x1000000, its documentation's), any case; default 50. PAGE_/ROW_CE_
 *   REFRESH_CYCLE: digits and d, h, m (minutes) or s, any case, no letter
 *   meaning hours; default 24h. 0 is not accepted. An invalid value is
 *   replaced by the default with a log line; here it is an error.
 * - CPU_ISOLATION_ENABLE=yes (any case) enables CPU offlining;
 *   CPU_CE_THRESHOLD is digits (default 18, at most 10000),
 *   CPU_ISOLATION_CYCLE digits and d, h, m or s, no letter meaning SECONDS
 *   (default 24h, at most 30 days); CPU_ISOLATION_LIMIT: it offlines no more
 *   once that many CPUs are offline (cpu_offline_limit, the same rule), and
 *   absent it is 0, which offlines none.
 * - Triggers run TRIGGER_DIR/NAME (NAME alone without TRIGGER_DIR, from the
 *   working directory, / under systemd): MC_CE_/MC_UE_TRIGGER at each
 *   corrected/uncorrected mc_event, AER_CE_/AER_UE_TRIGGER at each AER
 *   error, MEM_FAIL_TRIGGER at each memory_failure_event. An empty one is none.
 * - DISABLE lists system:event names rasdaemon leaves off.
 * - MC_CE_STAT_THRESHOLD and POISON_STAT_THRESHOLD: numbers as strtoull
 *   reads them (base 0: 0x hex, a leading 0 octal), absent meaning 0. It logs
 *   when the error_count of the corrected mc_events of one calendar second
 *   adds up to more than the first (absent or 0: at every one), and when
 *   HardwareCorrupted, read at each memory_failure_event, is more than the
 *   second in kB (a build with its poison statistics only).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "import_config.h"
#include "import_env.h"
#include "lib/event_table.h"

#define ACTIONS "off, account, soft, hard or soft-then-hard, in any case"

struct rd {
	struct imp *im;
	struct imp_env *env;
	size_t n;
	bool *used;
};

/* The assignment in force (the last one), marked as read; NULL when the file has none. */
static const struct imp_env *get(struct rd *rd, const char *key)
{
	const struct imp_env *last = NULL;

	for (size_t i = 0; i < rd->n; i++) {
		const struct imp_env *e = &rd->env[i];

		if (!e->value || e->bad_name || strcmp(e->key, key))
			continue;
		rd->used[i] = true;
		last = e;
	}
	return last;
}

/* A source of an item: the line as read, or the key rasdaemon defaults. */
static void from(struct rd *rd, struct imp_item *it, const struct imp_env *e, const char *key,
		 const char *dflt)
{
	if (!e) {
		imp_from(rd->im, it, 0, key, dflt);
		return;
	}
	imp_from(rd->im, it, e->line, e->key, e->value);
	if (e->exported)
		imp_note(rd->im, it, "line %u is written 'export %s=...': systemd's EnvironmentFile= "
			 "ignores such a line, a shell that sources the file exports it; read as %s=...",
			 e->line, e->key, e->key);
}

static struct imp_item *bad(struct rd *rd, const struct imp_env *e, const char *why)
{
	struct imp_item *it = imp_error(rd->im, e->line, e->key, e->value, "%s", why);

	if (e->unquoted_hash)
		imp_note(rd->im, it, "systemd keeps an unquoted ' #...' as part of the value: "
			 "put the comment on a line of its own");
	return it;
}

struct unit {
	char letter;
	uint64_t factor;        /* as documented */
	uint64_t factor_085;    /* what rasdaemon 0.8.5's parser multiplies by */
};

/* rasdaemon 0.8.5 multiplies by the matched unit's own table entry, not down to the base unit. */
static const struct unit count_units[] = { { 'k', 1000, 1000 }, { 'm', 1000000, 1000 }, { 0, 0, 0 } };
static const struct unit cycle_units[] = {
	{ 'd', 86400, 24 }, { 'h', 3600, 60 }, { 'm', 60, 60 }, { 's', 1, 1 }, { 0, 0, 0 },
};

/*
 * A page or row value: digits, then a digit or one unit letter of units (any
 * case); bare: no letter means that unit (0: none). -ENODATA when empty (the
 * default applies), -EINVAL or -ERANGE when rasdaemon would refuse it.
 */
static int page_value(const char *v, const struct unit *units, char bare, uint64_t *out,
		      uint64_t *out_085)
{
	size_t len = strlen(v), digits = len;
	unsigned long long n;
	char *end;
	char u;

	if (!len)
		return -ENODATA;
	if (!isdigit((unsigned char)v[len - 1]))
		digits--;
	for (size_t i = 0; i < digits; i++)
		if (!isdigit((unsigned char)v[i]))
			return -EINVAL;
	if (!digits)
		return -EINVAL;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (n == 0)
		return -EINVAL;
	u = digits < len ? (char)tolower((unsigned char)v[len - 1]) : bare;
	if (!u) {
		*out = *out_085 = n;
		return 0;
	}
	for (const struct unit *x = units; x->letter; x++) {
		if (x->letter != u)
			continue;
		if (n > UINT64_MAX / x->factor)
			return -ERANGE;
		*out = n * x->factor;
		*out_085 = n * x->factor_085;
		return 0;
	}
	return -EINVAL;
}

/*
 * rasdaemon's count and cycle of the page or row bucket: from the file, else
 * its defaults (50 per 24h). Adds the sources and notes to it; false after
 * an error.
 */
static bool page_pair(struct rd *rd, struct imp_item *it, const char *count_key, const char *cycle_key,
		      uint64_t *count, uint64_t *seconds)
{
	const struct imp_env *c = get(rd, count_key), *y = get(rd, cycle_key);
	uint64_t c085 = 50, y085 = 24 * 60;
	int rc = -ENODATA, ry = -ENODATA;

	*count = 50;
	*seconds = 86400;
	if (c && (rc = page_value(c->value, count_units, 0, count, &c085)) < 0 && rc != -ENODATA)
		bad(rd, c, rc == -ERANGE ? "too large" :
		    "expected a count above 0: digits, then optionally k (x1000) or m (x1000000), "
		    "any case, such as 50 or 5k (rasdaemon would use its default, 50)");
	if (y && (ry = page_value(y->value, cycle_units, 'h', seconds, &y085)) < 0 && ry != -ENODATA)
		bad(rd, y, ry == -ERANGE ? "too long" :
		    "expected a period above 0: digits, then optionally d, h, m (minutes) or s, any "
		    "case, no letter meaning hours, such as 24h or 1d (rasdaemon would use its default, 24h)");
	if ((rc < 0 && rc != -ENODATA) || (ry < 0 && ry != -ENODATA))
		return false;
	from(rd, it, rc == 0 ? c : NULL, count_key, "50");
	from(rd, it, ry == 0 ? y : NULL, cycle_key, "24h");
	if (c && rc == -ENODATA)
		imp_note(rd->im, it, "%s is empty: rasdaemon's default, 50", count_key);
	if (y && ry == -ENODATA)
		imp_note(rd->im, it, "%s is empty: rasdaemon's default, 24h", cycle_key);
	if (ry == 0 && isdigit((unsigned char)y->value[strlen(y->value) - 1]))
		imp_note(rd->im, it, "%s=%s has no unit: hours", cycle_key, y->value);
	if (c085 != *count)
		imp_note(rd->im, it, "%s=%s is %llu as documented; rasdaemon 0.8.5's parser multiplies m "
			 "by 1000 only (%llu)", count_key, c->value, (unsigned long long)*count,
			 (unsigned long long)c085);
	if (y085 != *seconds)
		imp_note(rd->im, it, "%s %s is %llu s as documented; rasdaemon 0.8.5's parser multiplies "
			 "by the unit's own step only (d 24, h 60, no unit 60), so it used %llu s: the "
			 "documented period is kept", cycle_key, ry == 0 ? y->value : "24h",
			 (unsigned long long)*seconds, (unsigned long long)y085);
	return true;
}

/* PAGE_CE_ACTION or ROW_CE_ACTION, lower case, into out; false after an error. */
static bool action(struct rd *rd, const char *key, const char *dflt, char *out, size_t len,
		   const struct imp_env **e)
{
	static const char *const choices[] = { "off", "account", "soft", "hard", "soft-then-hard" };

	*e = get(rd, key);
	snprintf(out, len, "%s", dflt);
	if (!*e || !*(*e)->value)
		return true;
	for (size_t i = 0; i < sizeof(choices) / sizeof(choices[0]); i++)
		if (!strcasecmp((*e)->value, choices[i])) {
			snprintf(out, len, "%s", choices[i]);
			return true;
		}
	bad(rd, *e, !strcmp(dflt, "soft") ? "not one of " ACTIONS " (rasdaemon would use its default, soft)" :
	    "not one of " ACTIONS " (rasdaemon would use its default, off)");
	return false;
}

static void action_source(struct rd *rd, struct imp_item *it, const struct imp_env *e, const char *key,
			  const char *dflt)
{
	from(rd, it, e && *e->value ? e : NULL, key, dflt);
	if (e && !*e->value)
		imp_note(rd->im, it, "%s is empty: rasdaemon's default is %s", key, dflt);
}

/* Keys rasdaemon reads for nothing in this configuration. */
static void not_read(struct rd *rd, const char *count_key, const char *cycle_key, const char *why)
{
	const struct imp_env *e;

	if ((e = get(rd, count_key)))
		imp_skip(rd->im, e->line, e->key, e->value, "%s", why);
	if ((e = get(rd, cycle_key)))
		imp_skip(rd->im, e->line, e->key, e->value, "%s", why);
}

/* Pages and rows: rasdaemon turns the page threshold off while rows act. */
static void memory(struct rd *rd)
{
	char page_act[16], row_act[16], text[48];
	const struct imp_env *pa, *ra;
	struct imp_item *pt = imp_add(rd->im, IMP_SET, "page_ce_threshold", "off");
	struct imp_item *pact = imp_add(rd->im, IMP_SET, "page_ce_action", NULL);
	struct imp_item *rt = imp_add(rd->im, IMP_SET, "row_ce_threshold", "off");
	uint64_t count, seconds;
	bool ok = action(rd, "PAGE_CE_ACTION", "soft", page_act, sizeof(page_act), &pa);
	bool rows;

	ok &= action(rd, "ROW_CE_ACTION", "off", row_act, sizeof(row_act), &ra);
	if (!ok || !pt || !pact || !rt)
		return;
	rows = strcmp(row_act, "off");
	/* The pair in force is converted; the other one is checked all the same. */
	ok = page_pair(rd, NULL, rows ? "PAGE_CE_THRESHOLD" : "ROW_CE_THRESHOLD",
		       rows ? "PAGE_CE_REFRESH_CYCLE" : "ROW_CE_REFRESH_CYCLE", &count, &seconds);
	if (!page_pair(rd, rows ? rt : pt, rows ? "ROW_CE_THRESHOLD" : "PAGE_CE_THRESHOLD",
		       rows ? "ROW_CE_REFRESH_CYCLE" : "PAGE_CE_REFRESH_CYCLE", &count, &seconds) || !ok)
		return;
	if (imp_threshold_text(count, seconds, text, sizeof(text)) < 0) {
		imp_error(rd->im, 0, rows ? "ROW_CE_THRESHOLD" : "PAGE_CE_THRESHOLD", NULL,
			  "a count above 1000000000 or a period too long for rasd");
		return;
	}
	free(rows ? rt->value : pt->value);
	if (rows)
		rt->value = strdup(text);
	else
		pt->value = strdup(text);
	action_source(rd, rt, ra, "ROW_CE_ACTION", "off");
	if (!rows) {
		not_read(rd, "ROW_CE_THRESHOLD", "ROW_CE_REFRESH_CYCLE", "rasdaemon reads it only when "
			 "ROW_CE_ACTION is not off");
		imp_note(rd->im, rt, "rasdaemon counts no row while ROW_CE_ACTION is off; rasd's row "
			 "bucket would apply page_ce_action to a row's address, so it is off too");
		action_source(rd, pact, pa, "PAGE_CE_ACTION", "soft");
		free(pact->value);
		pact->value = strdup(page_act);
	} else {
		not_read(rd, "PAGE_CE_THRESHOLD", "PAGE_CE_REFRESH_CYCLE", "rasdaemon turns the page "
			 "threshold off while ROW_CE_ACTION is not off");
		if (pa)
			imp_skip(rd->im, pa->line, pa->key, pa->value, "rasdaemon ignores it while "
				 "ROW_CE_ACTION is not off");
		imp_note(rd->im, rt, "a crossed row: rasdaemon offlines every page it saw in the row with "
			 "ROW_CE_ACTION, rasd applies page_ce_action to the crossing record's page");
		imp_from(rd->im, pt, ra->line, ra->key, ra->value);
		imp_note(rd->im, pt, "rasdaemon turns the page threshold off while ROW_CE_ACTION is %s",
			 row_act);
		free(pact->value);
		pact->value = strdup(row_act);
		imp_from(rd->im, pact, ra->line, ra->key, ra->value);
		imp_note(rd->im, pact, "rasd applies page_ce_action to crossed rows");
	}
	if (!pt->value || !pact->value || !rt->value)
		rd->im->oom = true;
}

/*
 * A CPU isolation number: digits and one optional letter, which must be in
 * units (NULL: none allowed). -ENODATA when empty, -EINVAL when invalid.
 */
static int cpu_value(const char *v, const struct unit *units, uint64_t *out)
{
	size_t len = strlen(v), digits = len;
	uint64_t n = 0, factor = 1;

	if (!len)
		return -ENODATA;
	if (isalpha((unsigned char)v[len - 1])) {
		char u = (char)tolower((unsigned char)v[len - 1]);

		digits--;
		factor = 0;
		for (const struct unit *x = units; x && x->letter; x++)
			if (x->letter == u)
				factor = x->factor;
		if (!factor)
			return -EINVAL;
	}
	if (!digits)
		return -EINVAL;
	for (size_t i = 0; i < digits; i++) {
		if (!isdigit((unsigned char)v[i]) || n > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		n = n * 10 + (uint64_t)(v[i] - '0');
	}
	if (n > UINT64_MAX / factor)
		return -EINVAL;
	*out = n * factor;
	return 0;
}

/* CPU_ISOLATION_ENABLE: true for yes, false for no or absent; -1 after an error. */
static int cpu_enabled(struct rd *rd, const struct imp_env *e)
{
	if (!e || !*e->value || !strcasecmp(e->value, "no"))
		return 0;
	if (!strcasecmp(e->value, "yes"))
		return 1;
	bad(rd, e, "rasdaemon offlines CPUs only for yes (any case), anything else means no: "
	    "write yes or no");
	return -1;
}

/* A CPU number from the file, else the default; clamped as rasdaemon clamps it. */
static bool cpu_number(struct rd *rd, struct imp_item *it, const char *key, const struct unit *units,
		       uint64_t dflt, const char *dflt_text, uint64_t max, const char *expect,
		       uint64_t *out)
{
	const struct imp_env *e = get(rd, key);
	int r = e ? cpu_value(e->value, units, out) : -ENODATA;

	if (r == -EINVAL) {
		bad(rd, e, expect);
		return false;
	}
	if (r == -ENODATA)
		*out = dflt;
	if (it)
		from(rd, it, r == 0 ? e : NULL, key, dflt_text);
	if (e && r == -ENODATA)
		imp_note(rd->im, it, "%s is empty: rasdaemon's default, %s", key, dflt_text);
	if (max && *out > max) {
		imp_note(rd->im, it, "%s=%s: rasdaemon lowers it to its limit, %llu", key, e->value,
			 (unsigned long long)max);
		*out = max;
	}
	return true;
}

/* cpu_ce_action: offline only where rasdaemon 0.8.5 would offline a CPU. */
static void cpu_action(struct rd *rd, struct imp_item *a, const struct imp_env *en, bool on, uint64_t limit)
{
	const struct imp_env *l = get(rd, "CPU_ISOLATION_LIMIT");

	from(rd, a, en && *en->value ? en : NULL, "CPU_ISOLATION_ENABLE", "no");
	free(a->value);
	a->value = strdup(on && limit ? "offline" : "account");
	if (!a->value)
		rd->im->oom = true;
	if (!on) {
		imp_note(rd->im, a, "rasdaemon offlines no CPU unless CPU_ISOLATION_ENABLE=yes; "
			 "account records crossings only");
		if (l)
			imp_skip(rd->im, l->line, l->key, l->value, "rasdaemon reads it only with "
				 "CPU_ISOLATION_ENABLE=yes");
		return;
	}
	from(rd, a, l, "CPU_ISOLATION_LIMIT", "0");
	if (limit) {
		char v[24];
		struct imp_item *li;

		/* The same rule: no CPU offlined once that many are offline. */
		snprintf(v, sizeof(v), "%llu", (unsigned long long)(limit > 65535 ? 65535 : limit));
		li = imp_add(rd->im, IMP_SET, "cpu_offline_limit", v);
		if (li)
			from(rd, li, l, "CPU_ISOLATION_LIMIT", "0");
		/* rasdaemon offlines a CPU at its first recoverable core error too. */
		li = imp_add(rd->im, IMP_SET, "cpu_ue_offline", "yes");
		if (li) {
			from(rd, li, en, "CPU_ISOLATION_ENABLE", "no");
			imp_note(rd->im, li, "rasdaemon offlines a CPU at its first recoverable (uncorrected) "
				 "error as well; so does rasd, for an ARM processor error that is the core's "
				 "own, within cpu_offline_limit");
		}
		imp_note(rd->im, a, "rasd never takes the last online CPU, and action_max_per_day caps "
			 "its actions");
	} else
		imp_note(rd->im, a, "CPU_ISOLATION_LIMIT is 0 or absent: rasdaemon 0.8.5 then offlines "
			 "no CPU (it stops at that many offline CPUs); account records crossings only");
}

static void cpu(struct rd *rd)
{
	const struct imp_env *en = get(rd, "CPU_ISOLATION_ENABLE");
	struct imp_item *t = imp_add(rd->im, IMP_SET, "cpu_ce_threshold", NULL);
	struct imp_item *a = imp_add(rd->im, IMP_SET, "cpu_ce_action", NULL);
	uint64_t count, cycle, limit;
	char text[48];
	int on = cpu_enabled(rd, en);
	bool ok = on >= 0;

	ok &= cpu_number(rd, t, "CPU_CE_THRESHOLD", NULL, 18, "18", 10000,
			 "expected a count: digits only, no unit (rasdaemon would use its default, 18)", &count);
	ok &= cpu_number(rd, t, "CPU_ISOLATION_CYCLE", cycle_units, 86400, "24h", 30 * 86400,
			 "expected a period: digits, then optionally d, h, m (minutes) or s, any case, no "
			 "letter meaning seconds (rasdaemon would use its default, 24h)", &cycle);
	ok &= cpu_number(rd, NULL, "CPU_ISOLATION_LIMIT", NULL, 0, "0", 0,
			 "expected a number of CPUs: digits only", &limit);
	if (!ok || !t || !a)
		return;
	if (count == 0) {
		imp_note(rd->im, t, "CPU_CE_THRESHOLD=0: rasdaemon offlines at the first error, as a count of 1 does");
		count = 1;
	}
	if (cycle == 0) {
		imp_note(rd->im, t, "CPU_ISOLATION_CYCLE=0: rasdaemon counts the errors of one second");
		cycle = 1;
	}
	if (imp_threshold_text(count, cycle, text, sizeof(text)) == 0) {
		free(t->value);
		t->value = strdup(text);
		if (!t->value)
			rd->im->oom = true;
	}
	if (on)
		imp_note(rd->im, t, "rasdaemon counts ARM and RISC-V processor errors per CPU; rasd counts "
			 "x86 machine checks (mce_record) per core and cache and ARM processor errors "
			 "(arm_event) per CPU, and no RISC-V one");
	cpu_action(rd, a, en, on, limit);
}

/* A statistics threshold: strtoull's number (base 0), the whole value; -ENODATA when empty. */
static int stat_value(const char *v, uint64_t *out)
{
	unsigned long long n;
	char *end;

	if (!*v)
		return -ENODATA;
	if (!isdigit((unsigned char)*v))
		return -EINVAL;
	errno = 0;
	n = strtoull(v, &end, 0);
	if (errno || *end)
		return -EINVAL;
	*out = n;
	return 0;
}

/* MC_CE_STAT_THRESHOLD=N: more than N in a second is N+1 in rasd's bucket of one second. */
static void ce_stat(struct rd *rd)
{
	const struct imp_env *e = get(rd, "MC_CE_STAT_THRESHOLD");
	struct imp_item *it;
	uint64_t n;
	char text[48];

	if (!e)
		return;
	if (stat_value(e->value, &n) < 0 || n >= UINT32_MAX) {
		bad(rd, e, "expected a number of corrected errors a second (digits, or 0x and hex digits)");
		return;
	}
	if (n == 0) {
		imp_skip(rd->im, e->line, e->key, e->value, "0 or empty: rasdaemon logs a line at every "
			 "corrected memory error; rasd logs each record already (log_corrected_per_minute "
			 "limits them)");
		return;
	}
	if (imp_threshold_text(n + 1, 1, text, sizeof(text)) < 0)
		return;
	it = imp_add(rd->im, IMP_SET, "ce_rate_threshold", text);
	from(rd, it, e, e->key, NULL);
	imp_note(rd->im, it, "rasdaemon warns at more than %llu corrected errors in one calendar second; "
		 "rasd's bucket also catches a burst that straddles two seconds, counts every corrected "
		 "record (machine checks, ARM, AER, CXL too, not EDAC's alone) and runs the "
		 "ce-rate-threshold trigger", (unsigned long long)n);
}

/* POISON_STAT_THRESHOLD=N kB: more than N kB is N+1 kB or more (whole pages either way). */
static void poison_stat(struct rd *rd)
{
	const struct imp_env *e = get(rd, "POISON_STAT_THRESHOLD");
	struct imp_item *it;
	uint64_t n;
	char text[24];

	if (!e)
		return;
	if (stat_value(e->value, &n) < 0 || n >= 1073741824) {
		bad(rd, e, "expected a number of kB below 1073741824 (digits, or 0x and hex digits)");
		return;
	}
	snprintf(text, sizeof(text), "%llu", (unsigned long long)n + 1);
	it = imp_add(rd->im, IMP_SET, "poison_threshold_kb", text);
	from(rd, it, e, e->key, NULL);
	imp_note(rd->im, it, "rasdaemon warns while HardwareCorrupted is more than %llu kB, at every "
		 "memory_failure_event; rasd warns when it reaches %s kB and again each time it grows, "
		 "and runs the poison-threshold trigger", (unsigned long long)n, text);
}

/* TRIGGER_DIR: converted only when it is an absolute path; never made up. */
static const struct imp_env *trigger_dir(struct rd *rd)
{
	const struct imp_env *e = get(rd, "TRIGGER_DIR");
	struct imp_item *it;

	if (!e)
		return NULL;
	if (!*e->value) {
		imp_skip(rd->im, e->line, e->key, e->value, "empty: rasdaemon then runs /NAME for each "
			 "trigger NAME; rasd keeps its own trigger_dir (%s)", rd->im->cfg->trigger_dir);
		return e;
	}
	if (e->value[0] != '/') {
		imp_skip(rd->im, e->line, e->key, e->value, "not an absolute path: rasdaemon takes it "
			 "from its working directory (/ under systemd); give trigger_dir an absolute path");
		return e;
	}
	it = imp_add(rd->im, IMP_SET, "trigger_dir", e->value);
	from(rd, it, e, e->key, NULL);
	imp_note(rd->im, it, "rasd runs the programs there named after conditions, not the names "
		 "rasdaemon's *_TRIGGER keys give (see the triggers below)");
	imp_check_trigger_dir(rd->im, e->value);
	return e;
}

static const struct {
	const char *key;
	const char *condition;  /* "" when rasd has none */
	const char *note;
} trigger_keys[] = {
	{ "MC_CE_TRIGGER", "", "rasdaemon runs it at every corrected memory controller error (mc_event); "
	  "rasd runs no program per corrected error: the nearest is dimm-threshold, run when a DIMM "
	  "crosses dimm_ce_threshold (1/1s crosses at every error of a known DIMM)" },
	{ "MC_UE_TRIGGER", "uncorrected", "rasdaemon runs it at every uncorrected memory controller "
	  "error; rasd runs uncorrected at every record of severity deferred or worse, of any type" },
	{ "AER_CE_TRIGGER", "", "rasdaemon runs it at every corrected PCIe AER error; rasd runs no "
	  "program per corrected error: the nearest is device-threshold, run when a device crosses "
	  "device_ce_threshold (1/1s crosses at every error)" },
	{ "AER_UE_TRIGGER", "uncorrected", "rasdaemon runs it at every uncorrected PCIe AER error; rasd "
	  "runs uncorrected at every record of severity deferred or worse, of any type" },
	{ "MEM_FAIL_TRIGGER", "uncorrected", "rasdaemon runs it at every memory_failure_event; rasd runs "
	  "uncorrected at each of those and at every other record of severity deferred or worse" },
	/* Read by some distributions' rasdaemon builds, not by upstream 0.8.5. */
	{ "MCE_UE_TRIGGER", "uncorrected", "not read by upstream rasdaemon 0.8.5 (a distribution's "
	  "build runs it at every uncorrected machine check); rasd runs uncorrected at every record "
	  "of severity deferred or worse" },
	{ "MCE_DE_TRIGGER", "uncorrected", "not read by upstream rasdaemon 0.8.5 (a distribution's "
	  "build runs it at every deferred machine check); rasd runs uncorrected at every record of "
	  "severity deferred or worse" },
	{ "AER_FATAL_TRIGGER", "uncorrected", "not read by upstream rasdaemon 0.8.5 (a distribution's "
	  "build runs it at every fatal AER error); rasd runs uncorrected at every record of severity "
	  "deferred or worse" },
};

static void one_trigger(struct rd *rd, const struct imp_env *dir, const struct imp_env *e,
			const char *condition, const char *note)
{
	char *program = NULL;
	bool exact;
	struct imp_item *it;

	if (!*e->value) {
		imp_skip(rd->im, e->line, e->key, e->value, "empty: rasdaemon runs no trigger");
		return;
	}
	/* rasdaemon joins TRIGGER_DIR and the name with a '/' whenever TRIGGER_DIR is set. */
	if (dir && asprintf(&program, "%s/%s", dir->value, e->value) < 0) {
		rd->im->oom = true;
		return;
	}
	exact = dir ? dir->value[0] == '/' : e->value[0] == '/';
	it = imp_trigger(rd->im, condition, program ? program : e->value, exact);
	from(rd, it, e, e->key, NULL);
	if (dir)
		imp_from(rd->im, it, dir->line, dir->key, dir->value);
	imp_note(rd->im, it, "%s", note);
	if (dir && !*dir->value)
		imp_note(rd->im, it, "TRIGGER_DIR is empty, so rasdaemon ran %s", program);
	else if (!exact)
		imp_note(rd->im, it, "rasdaemon ran %s from its working directory (/ under systemd)",
			 program ? program : e->value);
	imp_note(rd->im, it, "the program gets RAS_* variables (rasd.conf(5)), not rasdaemon's");
	free(program);
}

static void triggers(struct rd *rd)
{
	const struct imp_env *dir = trigger_dir(rd);

	for (size_t i = 0; i < sizeof(trigger_keys) / sizeof(trigger_keys[0]); i++) {
		const struct imp_env *e = get(rd, trigger_keys[i].key);

		if (e)
			one_trigger(rd, dir, e, trigger_keys[i].condition, trigger_keys[i].note);
	}
}

/* DISABLE: the events rasdaemon leaves off become every other event of rasd's table. */
static void disable(struct rd *rd)
{
	const struct imp_env *e = get(rd, "DISABLE");
	bool off[RAS_MAX_EVENT_TYPES] = { false };
	char list[1024] = "", *copy, *save = NULL;
	size_t len = 0, n_off = 0;
	struct imp_item *it;

	if (!e)
		return;
	if (!*e->value) {
		imp_skip(rd->im, e->line, e->key, e->value, "empty: rasdaemon disables nothing, as rasd's "
			 "default events = all");
		return;
	}
	it = imp_add(rd->im, IMP_SET, "events", NULL);
	from(rd, it, e, e->key, NULL);
	copy = strdup(e->value);
	if (!copy || !it) {
		rd->im->oom = true;
		free(copy);
		return;
	}
	for (char *tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		/* Older kernels' block error event is the one rasd records as block_rq_error. */
		const char *name = !strcmp(tok, "block:block_rq_complete") ? "block:block_rq_error" : tok;
		const struct ras_event_type *t = strchr(name, ':') ? ras_event_type_find(name) : NULL;

		if (t)
			off[t - ras_event_types] = true;
		else
			imp_note(rd->im, it, "%s: rasd has no such event", tok);
	}
	free(copy);
	for (unsigned i = 0; i < ras_n_event_types; i++)
		n_off += off[i];
	if (!n_off) {
		/* A fixed list would leave out the events a later rasd adds. */
		it->kind = IMP_SKIP;
		imp_note(rd->im, it, "names no event of rasd's table: events stays all");
		return;
	}
	for (unsigned i = 0; i < ras_n_event_types; i++)
		if (!off[i])
			len += (size_t)snprintf(list + len, len < sizeof(list) ? sizeof(list) - len : 0,
						"%s%s:%s", len ? " " : "", ras_event_types[i].system,
						ras_event_types[i].event);
	if (len >= sizeof(list)) {
		imp_error(rd->im, e->line, e->key, e->value, "the list of the other events is longer "
			  "than rasd's events key takes");
		return;
	}
	free(it->value);
	it->value = strdup(list);
	if (!it->value)
		rd->im->oom = true;
	imp_note(rd->im, it, "every event of rasd's table but those DISABLE names");
}

static const struct {
	const char *key;
	const char *why;
} no_equivalent[] = {
	{ "ERST_DELETE", "rasdaemon's ERST record handling; no equivalent in rasd.conf" },
};

/* What no part above read: overridden lines, lines systemd ignores, keys without an equivalent. */
static void leftovers(struct rd *rd)
{
	for (size_t i = 0; i < rd->n; i++) {
		const struct imp_env *e = &rd->env[i];
		const char *why = "no equivalent in rasd.conf";

		if (!e->value) {
			imp_skip(rd->im, e->line, e->key, NULL, "not a KEY=value line: systemd ignores it");
			continue;
		}
		if (e->bad_name) {
			imp_skip(rd->im, e->line, e->key, e->value, "not a variable name: systemd ignores the line");
			continue;
		}
		if (rd->used[i]) {
			for (size_t j = i + 1; j < rd->n; j++)
				if (rd->env[j].value && !strcmp(rd->env[j].key, e->key)) {
					imp_skip(rd->im, e->line, e->key, e->value, "overridden by line %u "
						 "(the last assignment wins)", rd->env[j].line);
					break;
				}
			continue;
		}
		for (size_t k = 0; k < sizeof(no_equivalent) / sizeof(no_equivalent[0]); k++)
			if (!strcmp(e->key, no_equivalent[k].key))
				why = no_equivalent[k].why;
		if (strstr(e->key, "_TRIGGER_TIMEOUT"))
			why = "a distribution's rasdaemon: seconds before that trigger is killed; rasd has one "
			      "trigger_timeout_s for every trigger";
		imp_skip(rd->im, e->line, e->key, e->value, "%s", why);
	}
}

int imp_read_rasdaemon(struct imp *im, char *text)
{
	struct rd rd = { .im = im };
	int r = imp_env_parse(text, &rd.env, &rd.n);

	if (r < 0)
		return r;
	rd.used = calloc(rd.n + 1, sizeof(*rd.used));
	if (!rd.used) {
		imp_env_free(rd.env, rd.n);
		return -ENOMEM;
	}
	im->format = "rasdaemon";
	im->dialect = "as rasdaemon 0.8.5 reads it (systemd EnvironmentFile= syntax)";
	disable(&rd);
	memory(&rd);
	cpu(&rd);
	ce_stat(&rd);
	poison_stat(&rd);
	triggers(&rd);
	leftovers(&rd);
	free(rd.used);
	imp_env_free(rd.env, rd.n);
	return 0;
}
