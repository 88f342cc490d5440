/* SPDX-License-Identifier: MIT */
/* --redact: secrets taken out of every string of the model, and counted. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

struct redact_run {
	const struct rpt_secret *secrets;
	size_t n;
	int64_t *counts;              /* per secret */
	int error;
};

/* A serial is taken out wherever it stands; a host name or an address as a word of its own. */
static bool whole_word(const struct rpt_secret *s)
{
	return strcmp(s->what, "serial") != 0;
}

static bool word_char(char c)
{
	/* '-' too: "db7" is not the host name in "db7-backup". */
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/*
 * text in s in any case: its first letter found by strpbrk (vectorised, as
 * strcasestr is not), the rest compared. A part's records are 120 MB.
 */
static const char *find_any_case(const char *s, const char *text)
{
	char first[3] = { (char)tolower((unsigned char)text[0]), (char)toupper((unsigned char)text[0]), 0 };
	size_t len = strlen(text);

	for (const char *p = s; (p = strpbrk(p, first)); p++)
		if (!strncasecmp(p, text, len))
			return p;
	return NULL;
}

/* Where secret s next stands from p on; a host name in any case (DNS knows none). */
static const char *find(const char *start, const char *p, const struct rpt_secret *s)
{
	size_t len = strlen(s->text);
	bool any_case = !strcmp(s->what, "host name");

	while ((p = any_case ? find_any_case(p, s->text) : strstr(p, s->text))) {
		if (!whole_word(s) || ((p == start || !word_char(p[-1])) && !word_char(p[len])))
			return p;
		p += len;
	}
	return NULL;
}

/* *str with every occurrence of s replaced; counts them. 0 or -ENOMEM. */
static int replace_one(char **str, const struct rpt_secret *s, int64_t *count)
{
	char mark[64], *out;
	size_t len = strlen(s->text), mlen, n = 0, size;
	const char *p, *q;
	FILE *f;

	for (p = *str; (p = find(*str, p, s)); p += len)
		n++;
	if (!n)
		return 0;
	mlen = (size_t)snprintf(mark, sizeof(mark), "[redacted %s]", s->what);
	if (!(f = open_memstream(&out, &size)))
		return -ENOMEM;
	for (p = *str; (q = find(*str, p, s)); p = q + len) {
		fwrite(p, 1, (size_t)(q - p), f);
		fwrite(mark, 1, mlen, f);
	}
	fputs(p, f);
	if (fclose(f)) {
		free(out);
		return -ENOMEM;
	}
	free(*str);
	*str = out;
	*count += (int64_t)n;
	return 0;
}

static void redact_string(void *ctx, char **str)
{
	struct redact_run *r = ctx;

	for (size_t i = 0; i < r->n && *str && !r->error; i++)
		if (r->secrets[i].text[0])
			r->error = replace_one(str, &r->secrets[i], &r->counts[i]);
}

/* Adds what to m's list (or to its count there). */
static int note(struct rpt_model *m, const char *what, int64_t count)
{
	struct rpt_redaction *v;

	for (size_t i = 0; i < m->nredactions; i++)
		if (!strcmp(m->redactions[i].what, what)) {
			m->redactions[i].count += count;
			return 0;
		}
	if (!(v = realloc(m->redactions, (m->nredactions + 1) * sizeof(*v))))
		return -ENOMEM;
	m->redactions = v;
	v[m->nredactions] = (struct rpt_redaction){ .what = strdup(what), .count = count };
	if (!v[m->nredactions].what)
		return -ENOMEM;
	m->nredactions++;
	return 0;
}

int rpt_redact(struct rpt_model *m, const struct rpt_secret *secrets, size_t n)
{
	struct redact_run r = { .secrets = secrets, .n = n };
	int ret = 0;

	m->redacted = true;
	/* Each kind is listed even when nothing of it was found: the reader sees it was looked for. */
	static const char *const kinds[] = { "host name", "serial", "address" };
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && !ret; i++)
		ret = note(m, kinds[i], 0);
	if (ret || !n)
		return ret;
	if (!(r.counts = calloc(n, sizeof(*r.counts))))
		return -ENOMEM;
	/* Longer secrets first would matter only if one held another; the caller sorts them. */
	rpt_each_string(m, redact_string, &r);
	ret = r.error;
	for (size_t i = 0; i < n && !ret; i++)
		ret = note(m, secrets[i].what, r.counts[i]);
	free(r.counts);
	return ret;
}
