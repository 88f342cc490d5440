/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "refusals.h"
#include "log.h"

#define MAX_REFUSALS 16
#define LINES_PER_MINUTE 10

static struct refusal {
	char what[40];
	char why[400];
} refusals[MAX_REFUSALS];
static unsigned n_refusals;
static bool changed;
static struct ras_log_limit lines;

static struct refusal *find(const char *what)
{
	for (unsigned i = 0; i < n_refusals; i++)
		if (!strcmp(refusals[i].what, what))
			return &refusals[i];
	return NULL;
}

/* The state file is lines of key=value: a path with a newline or escape in it is not let through. */
static void copy_printable(char *out, size_t len, const char *in)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++)
		out[i] = (unsigned char)in[i] < 0x20 || in[i] == 0x7f ? '?' : in[i];
	out[i] = '\0';
}

void rasd_refuse(const char *what, const char *why)
{
	struct refusal *r = find(what);
	char clean[sizeof(r->why)];

	copy_printable(clean, sizeof(clean), why);
	if (r && !strcmp(r->why, clean))
		return;
	if (!r && n_refusals == MAX_REFUSALS)
		r = &refusals[MAX_REFUSALS - 1];
	else if (!r)
		r = &refusals[n_refusals++];
	copy_printable(r->what, sizeof(r->what), what);
	snprintf(r->why, sizeof(r->why), "%s", clean);
	changed = true;
	if (ras_log_limit_allows(&lines, LINES_PER_MINUTE, "refusals", "of unsafe paths"))
		ras_log(LOG_ERR, "refusing %s: %s", r->what, r->why);
}

void rasd_refusal_clear(const char *what)
{
	struct refusal *r = find(what);

	if (!r)
		return;
	if (ras_log_limit_allows(&lines, LINES_PER_MINUTE, "refusals", "of unsafe paths"))
		ras_log(LOG_NOTICE, "%s passes the path rule again", r->what);
	*r = refusals[--n_refusals];
	changed = true;
}

size_t rasd_refusals_text(char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < n_refusals && used < len; i++) {
		int n = snprintf(buf + used, len - used, "refused=%s: %s\n", refusals[i].what,
				 refusals[i].why);

		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)n;
	}
	return used;
}

bool rasd_refusals_changed(void)
{
	bool was = changed;

	changed = false;
	return was;
}
