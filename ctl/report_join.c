/* SPDX-License-Identifier: MIT */
/*
 * The report's parts joined to health's verdicts (report_join, ctl/report.h).
 * A part gets the first verdict, in health's order, that names its location:
 * the verdict's label or key standing in it as a word of its own (no letter,
 * digit, '_' or '#' beside it; two characters at least), or its EDAC key
 * "mcN a:b:c" as summary's location begins, "mcN, layers a:b[:c]" followed by
 * the end or a space.
 *
 * Every verdict's strings are read once into two hash tables, each string
 * with the first verdict that has it: the words, and the EDAC prefixes. A
 * part then looks up each piece of its location that could be one (a piece
 * with a boundary on both sides, of a length some verdict's string has, that
 * begins with two bytes one of them begins with; each prefix ending at a
 * space or the end) and takes the least verdict found, so
 * the result is the pairwise rule's (part x verdict, kept as the reference in
 * tests/report/test-report-join.c) at a few hundred look-ups a part.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

#define FNV_BASIS 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

struct join_entry {
	const char *s;               /* NULL: free slot */
	size_t len;
	uint64_t hash;
	int verdict;                 /* the first verdict with this string */
};

struct join_table {
	struct join_entry *e;
	size_t mask;
	size_t maxlen;               /* the longest string held */
	unsigned char *has_len;      /* has_len[l]: some string is l bytes long (l <= maxlen) */
};

struct join_index {
	struct join_table words, prefixes;
	char *wants;                 /* the EDAC prefixes' text, 96 bytes each */
	bool word_char[256];         /* a letter, digit, '_' or '#' (isalnum's answer, once) */
	uint8_t opens[65536 / 8];    /* bit c0 << 8 | c1: some word begins with the bytes c0 c1 */
};

static uint64_t fnv_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * FNV_PRIME;
}

static uint64_t fnv(const char *s, size_t len)
{
	uint64_t h = FNV_BASIS;

	for (size_t i = 0; i < len; i++)
		h = fnv_step(h, (unsigned char)s[i]);
	return h;
}

static int table_init(struct join_table *t, size_t n, size_t maxlen)
{
	size_t size = 8;

	while (size < 2 * n)
		size *= 2;
	t->e = calloc(size, sizeof(*t->e));
	t->has_len = calloc(maxlen + 1, 1);
	t->mask = size - 1;
	t->maxlen = maxlen;
	return t->e && t->has_len ? 0 : -ENOMEM;
}

/* The string's verdict stays the first one's: verdicts are added in health's order. */
static void table_add(struct join_table *t, const char *s, size_t len, int verdict)
{
	uint64_t h = fnv(s, len);
	size_t i = (size_t)h & t->mask;

	for (; t->e[i].s; i = (i + 1) & t->mask)
		if (t->e[i].hash == h && t->e[i].len == len && !memcmp(t->e[i].s, s, len))
			return;
	t->e[i] = (struct join_entry){ .s = s, .len = len, .hash = h, .verdict = verdict };
	t->has_len[len] = 1;
}

/* Whether some word begins with the two bytes at s: most pieces of a location are skipped at this. */
static bool opens_word(const struct join_index *x, const char *s)
{
	unsigned two = (unsigned)(unsigned char)s[0] << 8 | (unsigned char)s[1];

	return x->opens[two / 8] & (1u << (two % 8));
}

static void add_word(struct join_index *x, const char *s, int verdict)
{
	unsigned two = (unsigned)(unsigned char)s[0] << 8 | (unsigned char)s[1];

	x->opens[two / 8] |= (uint8_t)(1u << (two % 8));
	table_add(&x->words, s, strlen(s), verdict);
}

static int table_find(const struct join_table *t, const char *s, size_t len, uint64_t h)
{
	for (size_t i = (size_t)h & t->mask; t->e[i].s; i = (i + 1) & t->mask)
		if (t->e[i].hash == h && t->e[i].len == len && !memcmp(t->e[i].s, s, len))
			return t->e[i].verdict;
	return -1;
}

/* An EDAC key "mcN a:b:c" as summary's location begins it ("mcN, layers a:b", ":c" unless -1); false if not one. */
static bool edac_prefix(const char *key, char want[96])
{
	unsigned mc;
	int a, b, c, n;

	if (sscanf(key, "mc%u %d:%d:%d%n", &mc, &a, &b, &c, &n) != 4 || key[n])
		return false;
	if (c < 0)
		snprintf(want, 96, "mc%u, layers %d:%d", mc, a, b);
	else
		snprintf(want, 96, "mc%u, layers %d:%d:%d", mc, a, b, c);
	return true;
}

static void index_free(struct join_index *x)
{
	free(x->words.e);
	free(x->words.has_len);
	free(x->prefixes.e);
	free(x->prefixes.has_len);
	free(x->wants);
}

static int index_build(struct join_index *x, const struct rpt_model *m)
{
	size_t wordmax = 0, premax = 0, nv = m->nverdicts;

	for (unsigned c = 0; c < 256; c++)
		x->word_char[c] = isalnum((int)c) || c == '_' || c == '#';
	if (!(x->wants = calloc(nv ? nv : 1, 96)))
		return -ENOMEM;
	for (size_t k = 0; k < nv; k++) {
		size_t l = strlen(m->verdicts[k].label), p = strlen(m->verdicts[k].part);

		wordmax = l > wordmax ? l : wordmax;
		wordmax = p > wordmax ? p : wordmax;
		if (edac_prefix(m->verdicts[k].part, x->wants + 96 * k) && strlen(x->wants + 96 * k) > premax)
			premax = strlen(x->wants + 96 * k);
	}
	if (table_init(&x->words, 2 * nv, wordmax) < 0 || table_init(&x->prefixes, nv, premax) < 0)
		return -ENOMEM;
	for (size_t k = 0; k < nv; k++) {
		const struct rpt_verdict *v = &m->verdicts[k];
		const char *want = x->wants + 96 * k;

		if (strlen(v->label) >= 2)
			add_word(x, v->label, (int)k);
		if (want[0])
			table_add(&x->prefixes, want, strlen(want), (int)k);
		if (strlen(v->part) >= 2)
			add_word(x, v->part, (int)k);
	}
	return 0;
}

static int least(int best, int found)
{
	return found >= 0 && (best < 0 || found < best) ? found : best;
}

/* The first verdict naming the location, -1 none. */
static int verdict_of(const struct join_index *x, const char *name)
{
	const struct join_table *w = &x->words, *p = &x->prefixes;
	size_t len = strlen(name);
	uint64_t h = FNV_BASIS;
	int best = -1;

	if (!len)
		return -1;
	for (size_t j = 1; j <= len && j <= p->maxlen; j++) {
		h = fnv_step(h, (unsigned char)name[j - 1]);
		if ((name[j] == ' ' || !name[j]) && p->has_len[j])
			best = least(best, table_find(p, name, j, h));
	}
	for (size_t i = 0; i < len && best != 0; i++) {
		if ((i && x->word_char[(unsigned char)name[i - 1]]) || !name[i + 1] || !opens_word(x, name + i))
			continue;
		h = FNV_BASIS;
		for (size_t j = i; j < len && j - i < w->maxlen; j++) {
			size_t l = j + 1 - i;

			h = fnv_step(h, (unsigned char)name[j]);
			if (l >= 2 && w->has_len[l] && !x->word_char[(unsigned char)name[j + 1]])
				best = least(best, table_find(w, name + i, l, h));
		}
	}
	return best;
}

int report_join(struct rpt_model *m)
{
	struct join_index x = { 0 };
	int r = index_build(&x, m);

	for (size_t i = 0; !r && i < m->nparts; i++)
		m->parts[i].verdict = verdict_of(&x, m->parts[i].name);
	index_free(&x);
	return r;
}
