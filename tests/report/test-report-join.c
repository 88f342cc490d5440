/* SPDX-License-Identifier: MIT */
/*
 * ctl/report_join.c (each part's verdict by hash look-ups) against the join it
 * replaced, kept below as the oracle: every part against every verdict in
 * health's order, the first whose label or key names the part's location.
 * Fixed cases (precedence between an earlier key and a later label, '#' and
 * '_' beside a word, EDAC keys with and without a third layer, empty and
 * one-character strings) and random models built from the pieces real
 * locations and keys are made of, compared part by part.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/tap.h"
#include "ctl/report.h"

/* ---- the oracle: report_join before report_join.c (ctl/report_verdicts.c) ---- */

static bool old_word_in(const char *s, const char *w, size_t len)
{
	for (const char *at = s; len && (at = strstr(at, w)); at++) {
		bool before = at > s && (isalnum((unsigned char)at[-1]) || at[-1] == '_' || at[-1] == '#');
		bool after = isalnum((unsigned char)at[len]) || at[len] == '_' || at[len] == '#';

		if (!before && !after)
			return true;
	}
	return false;
}

static bool old_edac_key_in(const char *name, const char *key)
{
	char want[96];
	unsigned mc;
	int a, b, c, n;

	if (sscanf(key, "mc%u %d:%d:%d%n", &mc, &a, &b, &c, &n) != 4 || key[n])
		return false;
	if (c < 0)
		snprintf(want, sizeof(want), "mc%u, layers %d:%d", mc, a, b);
	else
		snprintf(want, sizeof(want), "mc%u, layers %d:%d:%d", mc, a, b, c);
	return !strncmp(name, want, strlen(want)) && (!name[strlen(want)] || name[strlen(want)] == ' ');
}

static bool old_names(const struct rpt_part *p, const struct rpt_verdict *v)
{
	const char *key = v->part;

	if (!p->name[0])
		return false;
	if (strlen(v->label) >= 2 && old_word_in(p->name, v->label, strlen(v->label)))
		return true;
	return old_edac_key_in(p->name, key) || (strlen(key) >= 2 && old_word_in(p->name, key, strlen(key)));
}

static int old_verdict_of(const struct rpt_model *m, const struct rpt_part *p)
{
	for (size_t k = 0; k < m->nverdicts; k++)
		if (old_names(p, &m->verdicts[k]))
			return (int)k;
	return -1;
}

/* ---- models ---- */

#define MAXV 16
#define MAXP 40

struct model {
	struct rpt_model m;
	struct rpt_part parts[MAXP];
	struct rpt_verdict verdicts[MAXV];
	char names[MAXP][128], keys[MAXV][128], labels[MAXV][128];
};

static void model_init(struct model *x)
{
	memset(x, 0, sizeof(*x));
	x->m.parts = x->parts;
	x->m.verdicts = x->verdicts;
	for (size_t i = 0; i < MAXP; i++)
		x->parts[i].name = x->names[i];
	for (size_t k = 0; k < MAXV; k++) {
		x->verdicts[k].part = x->keys[k];
		x->verdicts[k].label = x->labels[k];
	}
}

/* Joins the model both ways; the number of parts whose verdict differs (-1: out of memory). */
static int compare(struct model *x, size_t *joined)
{
	int bad = 0;

	for (size_t i = 0; i < x->m.nparts; i++)
		x->parts[i].verdict = -2;
	if (report_join(&x->m) < 0)
		return -1;
	for (size_t i = 0; i < x->m.nparts; i++) {
		int want = old_verdict_of(&x->m, &x->parts[i]);

		if (x->parts[i].verdict != want) {
			if (bad++ < 5)
				tap_diag("\"%s\": got %d, want %d", x->parts[i].name, x->parts[i].verdict, want);
		}
		*joined += want >= 0;
	}
	return bad;
}

static void fixed(struct model *x, const char *const *names, size_t np, const char *const (*v)[2], size_t nv)
{
	model_init(x);
	x->m.nparts = np;
	x->m.nverdicts = nv;
	for (size_t i = 0; i < np; i++)
		snprintf(x->names[i], sizeof(x->names[i]), "%s", names[i]);
	for (size_t k = 0; k < nv; k++) {
		snprintf(x->keys[k], sizeof(x->keys[k]), "%s", v[k][0]);
		snprintf(x->labels[k], sizeof(x->labels[k]), "%s", v[k][1]);
	}
}

static const char *const pieces[] = {
	"mc0", "mc1", "mc12", ", layers ", "layers", " ", " ", ", ", "0", "1", "4", ":", ":-1", "-1", "#", "_",
	"DIMM", "DIMM#1", "DIMM#10", "A1", "A", "(", ")", "CPU_SrcID#0_MC#1_Chan#4_DIMM#1", "Chan#4",
	"cpu 0", "cpu 10", " L2 cache", "socket 0", "bank 16 (IMC)", "x", "é", "0000:3b:00.0",
};
#define NPIECES (sizeof(pieces) / sizeof(pieces[0]))

static void random_text(char *out, size_t len, unsigned max)
{
	unsigned n = (unsigned)rand() % (max + 1);
	size_t at = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		const char *p = pieces[(unsigned)rand() % NPIECES];
		size_t l = strlen(p);

		if (at + l + 1 > len)
			break;
		memcpy(out + at, p, l + 1);
		at += l;
	}
}

static void random_model(struct model *x)
{
	model_init(x);
	x->m.nparts = (size_t)rand() % (MAXP + 1);
	x->m.nverdicts = (size_t)rand() % (MAXV + 1);
	for (size_t i = 0; i < x->m.nparts; i++) {
		if (rand() % 2)
			snprintf(x->names[i], sizeof(x->names[i]), "mc%d, layers %d:%d%s%s", rand() % 3,
				 rand() % 3, rand() % 3, rand() % 2 ? ":1" : "", rand() % 2 ? " (" : "");
		else
			x->names[i][0] = '\0';
		random_text(x->names[i] + strlen(x->names[i]), sizeof(x->names[i]) - strlen(x->names[i]), 6);
	}
	for (size_t k = 0; k < x->m.nverdicts; k++) {
		if (rand() % 3 == 0)
			snprintf(x->keys[k], sizeof(x->keys[k]), "mc%d %d:%d:%d", rand() % 3, rand() % 3,
				 rand() % 3, rand() % 3 - 1);
		else
			random_text(x->keys[k], sizeof(x->keys[k]), 3);
		random_text(x->labels[k], sizeof(x->labels[k]), rand() % 3 ? 2 : 0);
	}
}

int main(void)
{
	static struct model x;
	static const char *const bench[] = {
		"mc1, layers 4:1 (CPU_SrcID#0_MC#1_Chan#4_DIMM#1)", "mc1, layers 4:1:0", "mc1, layers 4:10",
		"socket 0, CPU 2, bank 16 (IMC), memory controller 1, channel 1", "", "cpu 0 L2 cache",
		"DIMM#10 and A1", "A1x_A1 #A1",
	};
	/* Earlier key beats later label; '#'/'_' are word characters; a one-letter label never names. */
	static const char *const bench_v[][2] = {
		{ "cpu 0 L1i cache", "" }, { "socket 1", "A" }, { "x", "CPU_SrcID#0_MC#1_Chan#4_DIMM#1" },
		{ "mc1 4:1:-1", "" }, { "mc1 4:1:0", "DIMM#1" }, { "cpu 0 L2 cache", "" }, { "A1", "" },
		{ "mc1 4:10:-1", "DIMM#10" }, { "bank 16", "Chan#4" },
	};
	size_t joined = 0, models = 20000, bad = 0, oom = 0;

	tap_plan(4);
	fixed(&x, bench, sizeof(bench) / sizeof(bench[0]), bench_v, sizeof(bench_v) / sizeof(bench_v[0]));
	tap_is_int(compare(&x, &joined), 0, "the fixed cases join as the pairwise join does");
	tap_ok(x.parts[0].verdict == 2 && x.parts[1].verdict == 4 && x.parts[2].verdict == 7 &&
	       x.parts[4].verdict == -1 && x.parts[5].verdict == 5 && x.parts[6].verdict == 6,
	       "label, EDAC key and key words chosen in health's order (%d %d %d %d %d %d)",
	       x.parts[0].verdict, x.parts[1].verdict, x.parts[2].verdict, x.parts[4].verdict,
	       x.parts[5].verdict, x.parts[6].verdict);
	srand(38);
	joined = 0;
	for (size_t n = 0; n < models; n++) {
		int r;

		random_model(&x);
		if ((r = compare(&x, &joined)) < 0)
			oom++;
		else
			bad += (size_t)r;
	}
	tap_ok(!bad && !oom, "%zu random models: every part's verdict the pairwise join's (%zu differ, %zu joins failed)",
	       models, bad, oom);
	tap_ok(joined > models, "the random models join often (%zu parts joined)", joined);
	return tap_failed ? 1 : 0;
}
