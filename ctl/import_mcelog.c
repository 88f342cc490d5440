/* SPDX-License-Identifier: MIT */
/*
 * An mcelog.conf read as mcelog reads it. Facts of its code (config.c,
 * leaky-bucket.c, page.c, memdb.c, yellow.c, bus.c, unknown.c, trigger.c):
 *
 * - '#' starts a comment anywhere on a line; a line is "[section]" (nothing
 *   after the ']'), "key = value" (blanks around both dropped, quotes kept),
 *   or blank; anything else makes mcelog refuse the file. Keys before the
 *   first section are global, and a key a section lacks is looked up among
 *   the global ones. The first of two equal keys is the one read.
 * - Thresholds are "count / period": the count with an optional k, m or g
 *   (x1000 each step), the period with an optional d, h or m (minutes), no
 *   unit meaning seconds, any case, neither 0. A trigger runs when its
 *   threshold is crossed, so without the threshold it never runs.
 * - [page] memory-ce-action: off (the default: pages are not counted),
 *   account, soft, hard, soft-then-hard, any case.
 * - A relative trigger program is run from [trigger] directory; a relative
 *   directory from mcelog's working directory. children-max defaults to 4,
 *   and 0 or less means no limit.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "import_config.h"

struct mc_line {
	unsigned line;
	const char *section;    /* "global" before the first section */
	const char *key, *value;
	bool used;
};

struct mc {
	struct imp *im;
	struct mc_line *l;
	size_t n;
	const struct mc_line *dir;      /* [trigger] directory */
};

static char *strip(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* Splits text into the lines mcelog reads; false after a line mcelog refuses. */
static bool parse(struct mc *m, char *text)
{
	const char *section = "global";
	unsigned lineno = 0;
	bool ok = true;

	for (char *line = text, *next; line; line = next) {
		char *hash, *s, *eq;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		if ((hash = strchr(line, '#')))
			*hash = 0;
		s = strip(line);
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end || *strip(end + 1)) {
				imp_error(m->im, lineno, s, NULL, "%s", !end ? "a section without its ']': "
					  "mcelog refuses the file" : "characters after ']': mcelog refuses the file");
				ok = false;
				continue;
			}
			*end = 0;
			section = s + 1;
			continue;
		}
		if (!*s)
			continue;
		if (!(eq = strchr(s, '='))) {
			imp_error(m->im, lineno, s, NULL, "neither key = value nor [section]: mcelog refuses "
				  "the file");
			ok = false;
			continue;
		}
		*eq = 0;
		m->l[m->n++] = (struct mc_line){ lineno, section, strip(s), strip(eq + 1), false };
	}
	return ok;
}

/* mcelog's lookup: the first such key of the section, else of the global keys. */
static struct mc_line *get(struct mc *m, const char *section, const char *key)
{
	for (int pass = 0; pass < 2; pass++) {
		const char *sec = pass ? "global" : section;

		for (size_t i = 0; i < m->n; i++)
			if (!strcmp(m->l[i].section, sec) && !strcmp(m->l[i].key, key)) {
				m->l[i].used = true;
				return &m->l[i];
			}
	}
	return NULL;
}

/* "[page] memory-ce-action", or the key alone among the global ones. */
static const char *name_of(const struct mc_line *l, char *buf, size_t len)
{
	if (!strcmp(l->section, "global"))
		snprintf(buf, len, "%s", l->key);
	else
		snprintf(buf, len, "[%s] %s", l->section, l->key);
	return buf;
}

static void from(struct mc *m, struct imp_item *it, const struct mc_line *l)
{
	char name[192];

	if (l)
		imp_from(m->im, it, l->line, name_of(l, name, sizeof(name)), l->value);
}

static struct imp_item *bad(struct mc *m, const struct mc_line *l, const char *why)
{
	char name[192];

	return imp_error(m->im, l->line, name_of(l, name, sizeof(name)), l->value, "%s", why);
}

static struct imp_item *skip(struct mc *m, const struct mc_line *l, const char *why)
{
	char name[192];

	return imp_skip(m->im, l->line, name_of(l, name, sizeof(name)), l->value, "%s", why);
}

/* An unsigned number as sscanf's %u takes it: blanks, then digits. */
static const char *number(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return NULL;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > 0xffffffffULL)
			return NULL;
	}
	*out = v;
	return s;
}

/* One non-blank character, as %1s takes it; 0 at the end. */
static const char *letter(const char *s, char *out)
{
	while (isspace((unsigned char)*s))
		s++;
	*out = *s;
	return *s ? s + 1 : s;
}

static const char *slash(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return *s == '/' ? s + 1 : NULL;
}

/*
 * mcelog's "count / period": first "%u %1s / %u %1s" (units on both), else
 * "%u / %u %1s"; what follows is not looked at. 0 or -EINVAL.
 */
static int rate(const char *s, uint64_t *count, uint64_t *seconds)
{
	const char *p;
	char cu = 0, tu = 0;
	uint64_t c = 0, t = 0;
	int n = 0;

	/* "%u %1s / %u %1s": n counts what matched, as sscanf's return value. */
	if ((p = number(s, &c))) {
		n = 1;
		p = letter(p, &cu);
		if (cu && (n = 2, p = slash(p)) && (p = number(p, &t))) {
			n = 3;
			letter(p, &tu);
			n += tu != 0;
		}
	}
	if (n == 3)
		return -EINVAL;  /* a count unit needs a period unit too */
	if (n != 4) {
		cu = tu = 0;
		if (!(p = number(s, &c)) || !(p = slash(p)) || !(p = number(p, &t)))
			return -EINVAL;
		letter(p, &tu);
	}
	if (!c || !t)
		return -EINVAL;
	switch (tolower((unsigned char)cu)) {
	case 'g': c *= 1000; /* fall through */
	case 'm': c *= 1000; /* fall through */
	case 'k': c *= 1000; /* fall through */
	case 0: break;
	default: return -EINVAL;
	}
	switch (tolower((unsigned char)tu)) {
	case 'd': t *= 86400; break;
	case 'h': t *= 3600; break;
	case 'm': t *= 60; break;
	case 0: break;
	default: return -EINVAL;
	}
	*count = c;
	*seconds = t;
	return 0;
}

#define RATE_FORM "expected count / period as mcelog reads it: a count with optionally k, m or g, a '/', " \
	"a period with optionally d, h or m (minutes), no unit meaning seconds, neither 0, such as " \
	"10 / 24h (mcelog refuses the file)"

/* A threshold key as a rasd.conf value into buf; false after an error. */
static bool threshold(struct mc *m, const struct mc_line *l, char *buf, size_t len)
{
	uint64_t count, seconds;

	if (rate(l->value, &count, &seconds) < 0) {
		bad(m, l, RATE_FORM);
		return false;
	}
	if (imp_threshold_text(count, seconds, buf, len) < 0) {
		bad(m, l, "a count above 1000000000, more than rasd takes");
		return false;
	}
	return true;
}

/* config_bool: yes, true, 1, on / no, false, 0, off in any case; -1 after an error. */
static int boolean(struct mc *m, const struct mc_line *l, int dflt)
{
	static const char *const yes[] = { "yes", "true", "1", "on" }, *const no[] = { "no", "false", "0", "off" };

	if (!l)
		return dflt;
	for (int i = 0; i < 4; i++) {
		if (!strcasecmp(l->value, yes[i]))
			return 1;
		if (!strcasecmp(l->value, no[i]))
			return 0;
	}
	bad(m, l, "expected yes, true, 1, on, no, false, 0 or off (mcelog refuses the file)");
	return -1;
}

/* A trigger program: relative ones run from [trigger] directory. NULL when there is none. */
static struct imp_item *trigger(struct mc *m, const struct mc_line *l, const char *condition,
				const char *note)
{
	char *program = NULL;
	bool exact = l->value[0] == '/';
	struct imp_item *it;

	if (!*l->value) {
		skip(m, l, "empty: no program");
		return NULL;
	}
	if (!exact && m->dir && *m->dir->value) {
		if (asprintf(&program, "%s/%s", m->dir->value, l->value) < 0) {
			m->im->oom = true;
			return NULL;
		}
		exact = m->dir->value[0] == '/';
	}
	it = imp_trigger(m->im, condition, program ? program : l->value, exact);
	from(m, it, l);
	if (program)
		from(m, it, m->dir);
	imp_note(m->im, it, "%s", note);
	if (!exact)
		imp_note(m->im, it, "mcelog ran %s from its working directory", program ? program : l->value);
	imp_note(m->im, it, "the program gets RAS_* variables (rasd.conf(5)), not mcelog's");
	free(program);
	return it;
}

/* A trigger that mcelog runs only when its threshold is crossed. */
static void threshold_trigger(struct mc *m, const char *section, const char *base, const char *condition,
			      const char *note)
{
	char key[64];
	struct mc_line *t, *thr;

	snprintf(key, sizeof(key), "%s-trigger", base);
	if (!(t = get(m, section, key)))
		return;
	snprintf(key, sizeof(key), "%s-threshold", base);
	thr = get(m, section, key);
	if (!thr) {
		skip(m, t, "mcelog never runs it: the section gives no threshold for it");
		return;
	}
	from(m, trigger(m, t, condition, note), thr);
}

/* Keys of a section that is switched off: mcelog reads them for nothing. */
static void unused(struct mc *m, const char *section, const char *const *keys, const char *why)
{
	for (; *keys; keys++) {
		struct mc_line *l = get(m, section, *keys);

		if (l)
			skip(m, l, why);
	}
}

static void set(struct mc *m, const char *key, const char *value, const struct mc_line *l, const char *note)
{
	struct imp_item *it = imp_add(m->im, IMP_SET, key, value);

	from(m, it, l);
	if (note)
		imp_note(m->im, it, "%s", note);
}

static void page(struct mc *m)
{
	static const char *const choices[] = { "off", "account", "soft", "hard", "soft-then-hard" };
	struct mc_line *act = get(m, "page", "memory-ce-action"), *thr = get(m, "page", "memory-ce-threshold");
	const char *action = "off";
	char text[48] = "off";

	if (act) {
		action = NULL;
		for (size_t i = 0; i < sizeof(choices) / sizeof(choices[0]); i++)
			if (!strcasecmp(act->value, choices[i]))
				action = choices[i];
		if (!action) {
			bad(m, act, "not one of off, account, soft, hard or soft-then-hard (any case; mcelog "
			    "refuses the file)");
			return;
		}
	}
	if (thr && !threshold(m, thr, text, sizeof(text)))
		return;
	set(m, "page_ce_threshold", text, thr, thr ? NULL : "[page] memory-ce-threshold is absent: "
	    "mcelog's page count never crosses");
	set(m, "page_ce_action", action, act, act ? NULL : "[page] memory-ce-action is absent: mcelog's "
	    "default is off (pages are not counted)");
	set(m, "row_ce_threshold", "off", NULL, "mcelog counts no DRAM row; rasd's row bucket would apply "
	    "page_ce_action to a row's address, so it is off");
	if (!strcmp(action, "off")) {
		struct mc_line *t = get(m, "page", "memory-ce-trigger");

		if (t)
			skip(m, t, "mcelog never runs it: memory-ce-action is off");
	} else {
		threshold_trigger(m, "page", "memory-ce", "page-threshold", "mcelog and rasd both run it when "
				  "a page crosses its threshold");
	}
	if ((act = get(m, "page", "memory-post-sync-soft-ce-trigger")))
		trigger(m, act, "page-threshold", "mcelog runs it after soft-offlining a page, with the "
			"address as argument; rasd runs page-threshold after each page decision, with no "
			"argument (RAS_ADDRESS holds it)");
}

static void dimm(struct mc *m)
{
	struct mc_line *track = get(m, "dimm", "dimm-tracking-enabled");
	struct mc_line *thr = get(m, "dimm", "ce-error-threshold");
	int on = boolean(m, track, 1);
	char text[48];

	if (on < 0)
		return;
	if (!on) {
		static const char *const keys[] = { "ce-error-threshold", "ce-error-trigger",
			"uc-error-threshold", "uc-error-trigger", NULL };

		set(m, "dimm_ce_threshold", "off", track, "mcelog tracks no DIMM");
		unused(m, "dimm", keys, "dimm-tracking-enabled is off: mcelog counts no DIMM");
		return;
	}
	if (track)
		skip(m, track, "rasd always counts DIMMs (dimm_ce_threshold)");
	if (thr && threshold(m, thr, text, sizeof(text)))
		set(m, "dimm_ce_threshold", text, thr, "the action is account: rasd records the crossing");
	threshold_trigger(m, "dimm", "ce-error", "dimm-threshold", "mcelog and rasd both run it when a "
			  "DIMM crosses its corrected-error threshold");
	threshold_trigger(m, "dimm", "uc-error", "uncorrected", "mcelog runs it when a DIMM's uncorrected "
			  "errors reach uc-error-threshold; rasd runs uncorrected at every record of severity "
			  "deferred or worse, of any type");
}

static void socket_section(struct mc *m)
{
	struct mc_line *l = get(m, "socket", "socket-tracking-enabled");
	int on = boolean(m, l, 1);

	if (on < 0)
		return;
	if (l)
		skip(m, l, "rasd keeps no per-socket count");
	if (!on) {
		static const char *const keys[] = { "mem-ce-error-threshold", "mem-ce-error-trigger",
			"mem-uc-error-threshold", "mem-uc-error-trigger", NULL };

		unused(m, "socket", keys, "socket-tracking-enabled is off: mcelog counts no socket");
	}
	threshold_trigger(m, "socket", "mem-ce-error", "", "mcelog runs it when a socket's corrected "
			  "memory errors reach mem-ce-error-threshold; rasd keeps no per-socket count (the "
			  "nearest is dimm-threshold, per DIMM)");
	threshold_trigger(m, "socket", "mem-uc-error", "uncorrected", "mcelog runs it when a socket's "
			  "uncorrected memory errors reach mem-uc-error-threshold; rasd runs uncorrected at "
			  "every record of severity deferred or worse, of any type");
	if ((l = get(m, "socket", "bus-uc-threshold-trigger")))
		trigger(m, l, "uncorrected", "mcelog runs it at each uncorrected bus and interconnect error; "
			"rasd runs uncorrected at every record of severity deferred or worse, of any type");
	if ((l = get(m, "socket", "iomca-threshold-trigger")))
		trigger(m, l, "uncorrected", "mcelog runs it at each IO MCA error; rasd runs uncorrected at "
			"every record of severity deferred or worse, of any type");
	if ((l = get(m, "socket", "unknown-threshold-trigger")))
		trigger(m, l, "", "mcelog runs it at each machine check it cannot decode; rasd has no "
			"condition for that (an uncorrected one runs uncorrected)");
}

static void cache(struct mc *m)
{
	struct mc_line *l = get(m, "cache", "cache-threshold-trigger");

	if (l)
		trigger(m, l, "cpu-threshold", "mcelog runs it when a CPU reports its own cache error "
			"threshold (the yellow status); rasd runs cpu-threshold when a cache crosses "
			"cpu_ce_threshold, and with cpu_ce_action = offline offlines the CPUs sharing it");
}

static void trigger_section(struct mc *m)
{
	struct mc_line *dir = get(m, "trigger", "directory"), *max = get(m, "trigger", "children-max");

	m->dir = dir;
	if (dir && dir->value[0] == '/') {
		set(m, "trigger_dir", dir->value, dir, "rasd runs the programs there named after "
		    "conditions (see the triggers below)");
		imp_check_trigger_dir(m->im, dir->value);
	} else if (dir) {
		skip(m, dir, *dir->value ? "not an absolute path: mcelog takes it from its working "
		     "directory; give trigger_dir an absolute path" : "empty");
	}
	if (max) {
		char *end, text[16];
		long n = strtol(max->value, &end, 10);

		if (end == max->value) {
			bad(m, max, "expected a number (mcelog refuses the file)");
			return;
		}
		snprintf(text, sizeof(text), "%ld", n <= 0 || n > 64 ? 64 : n);
		set(m, "trigger_max_children", text, max, n <= 0 ? "mcelog: no limit; rasd's largest is 64" :
		    n > 64 ? "rasd's largest is 64" : NULL);
	}
}

static const struct {
	const char *section, *key, *why;
} no_equivalent[] = {
	{ "global", "num-errors", "an mcelog test setting" },
	{ "dimm", "dmi-prepopulate", "rasd reads DIMM labels from EDAC and its label files" },
	{ "socket", "mem-ce-error-threshold", "rasd keeps no per-socket count (the nearest is "
	  "dimm_ce_threshold, per DIMM)" },
	{ "socket", "mem-uc-error-threshold", "rasd counts no uncorrected error against a threshold" },
	{ "dimm", "uc-error-threshold", "rasd counts no uncorrected error against a threshold" },
	{ "page", "memory-pre-sync-soft-ce-trigger", "rasd runs no program before offlining a page" },
	{ "page", "memory-ce-counter-replacement-threshold", "rasd keeps every page's count in its database" },
	{ "page", "memory-ce-counter-replacement-trigger", "rasd keeps every page's count in its database" },
	{ "global", "max-corr-err-counters", "rasd keeps every page's count in its database" },
};

/* Lines nothing above read. */
static void leftovers(struct mc *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct mc_line *l = &m->l[i];
		const char *why = NULL;
		char reason[96];

		if (l->used)
			continue;
		for (size_t j = 0; j < i && !why; j++)
			if (m->l[j].used && !strcmp(m->l[j].key, l->key) && !strcmp(m->l[j].section, l->section)) {
				snprintf(reason, sizeof(reason), "mcelog reads the first, line %u", m->l[j].line);
				why = reason;
			}
		for (size_t k = 0; !why && k < sizeof(no_equivalent) / sizeof(no_equivalent[0]); k++)
			if (!strcmp(l->key, no_equivalent[k].key) && !strcmp(l->section, no_equivalent[k].section))
				why = no_equivalent[k].why;
		if (!why && strlen(l->key) > 4 && !strcmp(l->key + strlen(l->key) - 4, "-log"))
			why = "rasd logs every decision (rate-limited) and every record";
		skip(m, l, why ? why : "no equivalent in rasd.conf");
	}
}

int imp_read_mcelog(struct imp *im, char *text)
{
	size_t lines = 1;
	struct mc m = { .im = im };

	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	m.l = calloc(lines, sizeof(*m.l));
	if (!m.l)
		return -ENOMEM;
	im->format = "mcelog";
	im->dialect = "as mcelog reads it";
	if (parse(&m, text)) {
		trigger_section(&m);
		page(&m);
		dimm(&m);
		socket_section(&m);
		cache(&m);
		leftovers(&m);
	}
	free(m.l);
	return 0;
}
