/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl reset (counting windows) and summary --by dimm. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "edac_cmd.h"

int ctl_confirm(const char *question, bool yes)
{
	char answer[16];

	if (yes)
		return 1;
	if (!isatty(STDIN_FILENO)) {
		fprintf(stderr, "ras-fdr-ctl: %s\nras-fdr-ctl: not asking without a terminal; "
			"add --yes to confirm\n", ctl_text(question));
		return 0;
	}
	fprintf(stderr, "%s [y/N] ", ctl_text(question));
	fflush(stderr);
	if (!fgets(answer, sizeof(answer), stdin))
		return 0;
	return answer[0] == 'y' || answer[0] == 'Y';
}

struct reset_scope {
	char text[48];        /* "" for everything */
	int mc;               /* -1: every controller */
	char kind[8];         /* "", "dimm", "rank", "csrow" */
	int idx;
};

static int parse_scope(const char *arg, struct reset_scope *s)
{
	char norm[64];
	unsigned mc, idx;
	int used = 0;

	memset(s, 0, sizeof(*s));
	s->mc = -1;
	if (!arg)
		return 0;
	edac_normalize_path(arg, norm, sizeof(norm));
	if (sscanf(norm, "mc%u%n", &mc, &used) != 1 || mc > 65535)
		return -EINVAL;
	s->mc = (int)mc;
	if (norm[used] == '/') {
		const char *node = norm + used + 1;
		static const char *const kinds[] = { "dimm", "rank", "csrow" };
		bool ok = false;

		for (size_t i = 0; i < 3 && !ok; i++) {
			size_t n = strlen(kinds[i]);
			int end = 0;

			if (!strncmp(node, kinds[i], n) && sscanf(node + n, "%u%n", &idx, &end) == 1 &&
			    !node[n + (size_t)end]) {
				snprintf(s->kind, sizeof(s->kind), "%s", kinds[i]);
				s->idx = (int)idx;
				ok = true;
			}
		}
		if (!ok)
			return -EINVAL;
	} else if (norm[used]) {
		return -EINVAL;
	}
	snprintf(s->text, sizeof(s->text), "%s", norm);
	return 0;
}

/* The scope must name something the database has seen, or the window would count nothing. */
static bool scope_known(struct ras_db *db, const struct reset_scope *s)
{
	struct edac_topology t;
	const struct edac_mc *mc;
	int64_t snap;
	bool found = false;

	if (s->mc < 0)
		return true;
	if (ras_db_edac_latest_snapshot(db, NULL, &snap) < 0 || ras_db_edac_load_snapshot(db, snap, &t) < 0)
		return false;
	mc = edac_topology_mc(&t, (unsigned)s->mc);
	if (mc && !s->kind[0])
		found = true;
	for (unsigned i = 0; mc && !strcmp(s->kind, "csrow") && i < mc->n_csrows; i++)
		found |= mc->csrows[i].index == (unsigned)s->idx;
	for (unsigned i = 0; mc && s->kind[0] && strcmp(s->kind, "csrow") && i < mc->n_dimms; i++)
		found |= mc->dimms[i].index == (unsigned)s->idx &&
			 mc->dimms[i].is_rank == !strcmp(s->kind, "rank");
	edac_topology_free(&t);
	return found;
}

static const struct ctl_opt reset_opts[] = {
	{ "purge", 'p', NULL, CTL_C_NONE, "also delete the stored memory errors of the scope" },
	{ "yes", 'y', NULL, CTL_C_NONE, "do not ask" },
	{ NULL },
};

const struct ctl_spec ctl_reset_spec = {
	.name = "reset", .args = "[mcN[/dimmM]]", .opts = reset_opts, .positional = CTL_C_EDAC,
	.summary = "start a new EDAC counting window (all controllers, one, or one DIMM)",
};

static int reset_opt(void *ctx, int key, const char *arg)
{
	bool *flags = ctx;

	(void)arg;
	flags[key == 'y'] = true;
	return CTL_GO_ON;
}

int ctl_reset(struct ctl *c, int argc, char **argv)
{
	struct reset_scope s;
	bool flags[2] = { false, false };	/* purge, yes */
	struct ras_db *db;
	char err[512], question[256];
	const char *what;
	int64_t deleted;
	int first, r = ctl_parse(&ctl_reset_spec, argc, argv, reset_opt, flags, &first);
	bool purge = false, yes = false;

	if (r != CTL_GO_ON)
		return r;
	purge = flags[0], yes = flags[1];
	if (argc - first > 1 || parse_scope(first < argc ? argv[first] : NULL, &s) < 0)
		return ctl_usage_error("reset", "takes one scope: mcN, mcN/dimmK, mcN/rankK or mcN/csrowK");
	if (ras_db_edac_open_rw(&db, c->cfg.database, err, sizeof(err)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(err));
		return 1;
	}
	if (!scope_known(db, &s)) {
		fprintf(stderr, "ras-fdr-ctl: %s is not in the recorded EDAC topology\n", ctl_text(s.text));
		ras_db_close(db);
		return 1;
	}
	what = s.text[0] ? s.text : "all memory controllers";
	if (purge)
		snprintf(question, sizeof(question), "Delete the stored memory errors of %s and start "
			 "counting anew?", what);
	else
		snprintf(question, sizeof(question), "Start a new counting window for %s (stored "
			 "records are kept)?", what);
	if (!ctl_confirm(question, yes)) {
		ras_db_close(db);
		return 1;
	}
	r = ras_db_edac_reset(db, s.text, s.mc, s.kind[0] ? s.kind : NULL, s.idx,
			      (int64_t)time(NULL) * 1000000000, purge, &deleted);
	if (r < 0)
		fprintf(stderr, "ras-fdr-ctl: reset failed: %s\n", ctl_text(ras_db_errmsg(db)));
	else if (purge)
		printf("Deleted %lld records; counting %s from now.\n", (long long)deleted, ctl_text(what));
	else
		printf("Counting %s from now.\n", ctl_text(what));
	ras_db_close(db);
	return r < 0 ? 1 : 0;
}

/* ---- summary --by dimm ---- */

struct dimm_total {
	char label[EDAC_LABEL_MAX];
	char where[96];
	uint64_t ce, ue;
	bool by_label;       /* no stored topology: placed by its records' label */
};

struct totals {
	struct dimm_total *t;
	unsigned n;
};

static void add_total(struct totals *s, const char *label, const char *where, uint64_t ce, uint64_t ue,
		      bool by_label)
{
	struct dimm_total *grown;

	if (!ce && !ue)
		return;
	for (unsigned i = 0; i < s->n; i++) {
		if (!strcmp(s->t[i].label, label) && s->t[i].by_label == by_label) {
			size_t n = strlen(s->t[i].where);

			if (!strstr(s->t[i].where, where))
				snprintf(s->t[i].where + n, sizeof(s->t[i].where) - n, " %s", where);
			s->t[i].ce += ce;
			s->t[i].ue += ue;
			return;
		}
	}
	grown = realloc(s->t, (s->n + 1) * sizeof(*s->t));
	if (!grown)
		return;
	s->t = grown;
	snprintf(s->t[s->n].label, sizeof(s->t[0].label), "%s", label);
	snprintf(s->t[s->n].where, sizeof(s->t[0].where), "%s", where);
	s->t[s->n].ce = ce;
	s->t[s->n].ue = ue;
	s->t[s->n].by_label = by_label;
	s->n++;
}

static void total_mc(struct totals *s, const struct edac_mc *mc)
{
	char where[48];

	for (unsigned i = 0; i < mc->n_dimms; i++) {
		const struct edac_dimm *d = &mc->dimms[i];

		snprintf(where, sizeof(where), "mc%u/%s%u", mc->index, d->is_rank ? "rank" : "dimm", d->index);
		add_total(s, edac_display_label(d->configured_label, d->label), where, d->ce_count,
			  d->ue_count, false);
	}
	for (unsigned i = 0; !mc->n_dimms && i < mc->n_csrows; i++) {
		const struct edac_csrow *cs = &mc->csrows[i];
		char both[EDAC_LABEL_LEN] = "";
		size_t n = 0;

		for (unsigned ch = 0; ch < cs->n_channels; ch++) {
			const char *label = edac_display_label(cs->ch[ch].configured_label, cs->ch[ch].dimm_label);

			snprintf(where, sizeof(where), "mc%u/csrow%u/ch%u", mc->index, cs->index, ch);
			add_total(s, label, where, cs->ch[ch].ce_count, 0, false);
			n += (size_t)snprintf(both + n, n < sizeof(both) ? sizeof(both) - n : 0, "%s%s",
					      ch ? " or " : "", label);
		}
		/* The old layout counts uncorrected errors per row, not per channel. */
		snprintf(where, sizeof(where), "mc%u/csrow%u", mc->index, cs->index);
		add_total(s, both, where, 0, cs->ue_count, false);
	}
	snprintf(where, sizeof(where), "mc%u", mc->index);
	add_total(s, "(no DIMM location)", where, mc->ce_noinfo_count, mc->ue_noinfo_count, false);
}

/*
 * Errors of controllers no stored topology knows (a machine without EDAC
 * sysfs when rasd recorded), placed on the DIMM their records' label names.
 */
static void total_unplaced(struct totals *s, const struct edac_unplaced *u)
{
	char where[48];

	snprintf(where, sizeof(where), "mc%d %d:%d:%d", u->mc, u->top, u->mid, u->low);
	add_total(s, edac_label_is_specific(u->label) ? u->label : "(no DIMM label)", where, u->ce,
		  u->ue, true);
}

static int worst_first(const void *a, const void *b)
{
	const struct dimm_total *x = a, *y = b;

	if (x->ue != y->ue)
		return x->ue < y->ue ? 1 : -1;
	if (x->ce != y->ce)
		return x->ce < y->ce ? 1 : -1;
	return strcmp(x->label, y->label);
}

static void print_totals(const struct totals *s, bool json, int64_t unmapped)
{
	bool by_label = false;

	for (unsigned i = 0; i < s->n; i++)
		by_label |= s->t[i].by_label;
	if (json) {
		printf("{\"version\":%d,\"dimms\":[", CTL_JSON_VERSION);
		for (unsigned i = 0; i < s->n; i++) {
			printf("%s{\"label\":", i ? "," : "");
			ctl_print_json_string(s->t[i].label, strlen(s->t[i].label));
			printf(",\"where\":");
			ctl_print_json_string(s->t[i].where, strlen(s->t[i].where));
			printf(",\"placed_by\":\"%s\",\"ce\":%llu,\"ue\":%llu}",
			       s->t[i].by_label ? "label" : "topology", (unsigned long long)s->t[i].ce,
			       (unsigned long long)s->t[i].ue);
		}
		printf("],\"unmapped_errors\":%lld}\n", (long long)unmapped);
		return;
	}
	if (!s->n && unmapped) {
		printf("%lld memory controller errors, none placed on a DIMM: no stored EDAC topology "
		       "knows their controller (see 'ras-fdr-ctl errors --type mc_event').\n",
		       (long long)unmapped);
		return;
	}
	if (!s->n) {
		printf("No memory controller errors in this window.\n");
		return;
	}
	printf("%-28s %10s %10s  %s\n", "DIMM", "CE", "UE", "WHERE");
	for (unsigned i = 0; i < s->n; i++)
		printf("%-28s %10llu %10llu  %s%s\n",
		       s->t[i].label[0] ? ctl_text(s->t[i].label) : "(no label)",
		       (unsigned long long)s->t[i].ce, (unsigned long long)s->t[i].ue,
		       ctl_text(s->t[i].where), s->t[i].by_label ? " (by label)" : "");
	if (by_label)
		printf("(by label): no EDAC topology was stored for the controller (the machine had no "
		       "EDAC sysfs, or rasd did not run); the DIMM is the one its records' label names, "
		       "at the controller and layers they give.\n");
}

int ctl_summary_by_dimm(struct ctl *c, const struct ras_db_filter *f, bool json)
{
	struct totals s = { 0 };
	struct edac_view v;
	struct ras_db *db;
	int r;

	if (ctl_open_db(c, &db) < 0)
		return 1;
	r = edac_view_build(db, f, NULL, 0, &v);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(ras_db_errmsg(db)));
		ras_db_close(db);
		return 1;
	}
	for (unsigned m = 0; m < v.topo.n_mcs; m++)
		total_mc(&s, &v.topo.mcs[m]);
	for (unsigned u = 0; u < v.n_unplaced; u++)
		total_unplaced(&s, &v.unplaced[u]);
	if (s.n)
		qsort(s.t, s.n, sizeof(*s.t), worst_first);
	print_totals(&s, json, v.unmapped_errors);
	free(s.t);
	edac_view_free(&v);
	ras_db_close(db);
	return 0;
}
