/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl edac: the kernel's EDAC sysfs tree, answered from the
 * database. "edac mc0/dimm3/dimm_ce_count" prints what cat would, counted
 * from stored records across reboots; --live sets the kernel's own
 * counters beside them and flags what the database lacks.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "edac_cmd.h"
#include "lib/clock.h"
#include "lib/tracing.h"

#define EXIT_GAP CTL_EXIT_ATTENTION

struct file_list {
	struct edac_file *f;
	unsigned n, cap;
	int err;
};

static void add_file(struct file_list *l, const char *path, bool is_count, uint64_t count,
		     const char *text)
{
	struct edac_file *f;

	if (l->n == l->cap) {
		unsigned cap = l->cap ? l->cap * 2 : 64;
		void *grown = realloc(l->f, cap * sizeof(*l->f));

		if (!grown) {
			l->err = -ENOMEM;
			return;
		}
		l->f = grown;
		l->cap = cap;
	}
	f = &l->f[l->n++];
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->is_count = is_count;
	f->count = count;
	if (is_count)
		snprintf(f->value, sizeof(f->value), "%llu", (unsigned long long)count);
	else
		snprintf(f->value, sizeof(f->value), "%s", text);
}

#define ADD_COUNT(l, fmt, v, ...) do { char p_[64]; snprintf(p_, sizeof(p_), fmt, __VA_ARGS__); \
	add_file(l, p_, true, v, NULL); } while (0)
#define ADD_TEXT(l, fmt, v, ...) do { char p_[64]; snprintf(p_, sizeof(p_), fmt, __VA_ARGS__); \
	add_file(l, p_, false, 0, v); } while (0)

static void collect_csrow(struct file_list *l, unsigned mc, const struct edac_csrow *cs)
{
	char size[24];

	snprintf(size, sizeof(size), "%llu", (unsigned long long)cs->size_mb);
	ADD_TEXT(l, "mc%u/csrow%u/size_mb", size, mc, cs->index);
	ADD_TEXT(l, "mc%u/csrow%u/mem_type", cs->mem_type, mc, cs->index);
	ADD_TEXT(l, "mc%u/csrow%u/dev_type", cs->dev_type, mc, cs->index);
	ADD_TEXT(l, "mc%u/csrow%u/edac_mode", cs->edac_mode, mc, cs->index);
	ADD_COUNT(l, "mc%u/csrow%u/ce_count", cs->ce_count, mc, cs->index);
	ADD_COUNT(l, "mc%u/csrow%u/ue_count", cs->ue_count, mc, cs->index);
	for (unsigned c = 0; c < cs->n_channels; c++) {
		const struct edac_csrow_channel *ch = &cs->ch[c];

		ADD_COUNT(l, "mc%u/csrow%u/ch%u_ce_count", ch->ce_count, mc, cs->index, c);
		ADD_TEXT(l, "mc%u/csrow%u/ch%u_dimm_label",
			 edac_display_label(ch->configured_label, ch->dimm_label), mc, cs->index, c);
	}
}

static void collect_dimm(struct file_list *l, unsigned mc, const struct edac_dimm *d)
{
	const char *kind = d->is_rank ? "rank" : "dimm";
	char size[24];

	snprintf(size, sizeof(size), "%llu", (unsigned long long)d->size_mb);
	ADD_TEXT(l, "mc%u/%s%u/dimm_label", edac_display_label(d->configured_label, d->label),
		 mc, kind, d->index);
	ADD_TEXT(l, "mc%u/%s%u/dimm_location", d->location, mc, kind, d->index);
	ADD_TEXT(l, "mc%u/%s%u/size", size, mc, kind, d->index);
	ADD_TEXT(l, "mc%u/%s%u/dimm_mem_type", d->mem_type, mc, kind, d->index);
	ADD_TEXT(l, "mc%u/%s%u/dimm_dev_type", d->dev_type, mc, kind, d->index);
	ADD_TEXT(l, "mc%u/%s%u/dimm_edac_mode", d->edac_mode, mc, kind, d->index);
	ADD_COUNT(l, "mc%u/%s%u/dimm_ce_count", d->ce_count, mc, kind, d->index);
	ADD_COUNT(l, "mc%u/%s%u/dimm_ue_count", d->ue_count, mc, kind, d->index);
}

int edac_files_collect(const struct edac_topology *t, struct edac_file **out, unsigned *n)
{
	struct file_list l = { 0 };

	for (unsigned m = 0; m < t->n_mcs; m++) {
		const struct edac_mc *mc = &t->mcs[m];
		char size[24];

		snprintf(size, sizeof(size), "%llu", (unsigned long long)mc->size_mb);
		ADD_TEXT(&l, "mc%u/mc_name", mc->mc_name, mc->index);
		ADD_TEXT(&l, "mc%u/size_mb", size, mc->index);
		ADD_COUNT(&l, "mc%u/seconds_since_reset", mc->seconds_since_reset, mc->index);
		ADD_COUNT(&l, "mc%u/ce_count", mc->ce_count, mc->index);
		ADD_COUNT(&l, "mc%u/ue_count", mc->ue_count, mc->index);
		ADD_COUNT(&l, "mc%u/ce_noinfo_count", mc->ce_noinfo_count, mc->index);
		ADD_COUNT(&l, "mc%u/ue_noinfo_count", mc->ue_noinfo_count, mc->index);
		ADD_TEXT(&l, "mc%u/max_location", mc->max_location, mc->index);
		for (unsigned i = 0; i < mc->n_csrows; i++)
			collect_csrow(&l, mc->index, &mc->csrows[i]);
		for (unsigned i = 0; i < mc->n_dimms; i++)
			collect_dimm(&l, mc->index, &mc->dimms[i]);
	}
	if (l.err) {
		free(l.f);
		return l.err;
	}
	*out = l.f;
	*n = l.n;
	return 0;
}

const struct edac_file *edac_files_find(const struct edac_file *f, unsigned n, const char *path)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(f[i].path, path))
			return &f[i];
	return NULL;
}

static const struct ctl_opt edac_opts_table[] = {
	CTL_OPT_SINCE, CTL_OPT_UNTIL, CTL_OPT_BOOT, CTL_OPT_SYNTHETIC,
	{ "live", 'l', NULL, CTL_C_NONE, "set the kernel's own counters beside; exit 3 when it "
	  "counted errors the database lacks" },
	{ "report", 'r', NULL, CTL_C_NONE, "a report per controller and DIMM, worst first" },
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_edac_spec = {
	.name = "edac", .args = "[mcN[/dimmM[/FILE]]]", .opts = edac_opts_table,
	.positional = CTL_C_EDAC,
	.summary = "the EDAC sysfs tree (counts, labels, sizes) answered from the database",
};

struct edac_parse {
	struct ctl *c;
	struct edac_opts *o;
};

static int edac_opt(void *ctx, int key, const char *arg)
{
	struct edac_parse *p = ctx;

	if (key == 'j')
		p->o->json = true;
	else if (key == 'l')
		p->o->live = true;
	else if (key == 'r')
		p->o->report = true;
	else if (ctl_filter_option(p->c, &p->o->f, key, arg) < 0)
		return CTL_EXIT_USAGE;
	return CTL_GO_ON;
}

static int parse_edac_opts(struct ctl *c, int argc, char **argv, struct edac_opts *o)
{
	struct edac_parse p = { c, o };
	int first, r = ctl_parse(&ctl_edac_spec, argc, argv, edac_opt, &p, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first + 1 < argc)
		return ctl_usage_error("edac", "takes one path, got '%s' too", argv[first + 1]);
	if (first < argc)
		edac_normalize_path(argv[first], o->path, sizeof(o->path));
	return CTL_GO_ON;
}

/* The database's counts over the kernel's own counting span, for --live. */
struct live {
	struct edac_topology kernel;
	struct edac_file *kf, *df;
	unsigned nk, nd;
};

static int build_live(struct ctl *c, struct ras_db *db, const struct edac_opts *o, struct live *lv)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = o->f.include_synthetic };
	struct edac_window *w;
	struct edac_view cmp;
	char boot[64];
	int64_t now = (int64_t)time(NULL) * 1000000000;
	int r = edac_sysfs_read(c->cfg.sysfs_root, &lv->kernel);

	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: cannot read %s/devices/system/edac/mc: %s\n",
			ctl_text(c->cfg.sysfs_root), strerror(-r));
		return r;
	}
	/* The kernel counts since its driver loaded or was reset, in this boot only. */
	f.boot_id = o->f.boot_id;
	if (!f.boot_id && ras_boot_id(boot, sizeof(boot)) == 0)
		f.boot_id = boot;
	w = calloc(lv->kernel.n_mcs + 1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (unsigned i = 0; i < lv->kernel.n_mcs; i++) {
		const struct edac_mc *mc = &lv->kernel.mcs[i];

		snprintf(w[i].scope, sizeof(w[i].scope), "mc%u", mc->index);
		/* One second of slack for the kernel's whole-second counter. */
		w[i].start_ns = now - (int64_t)(mc->seconds_since_reset + 1) * 1000000000;
	}
	r = edac_view_build(db, &f, w, lv->kernel.n_mcs, &cmp);
	free(w);
	if (r < 0)
		return r;
	r = edac_files_collect(&cmp.topo, &lv->df, &lv->nd);
	edac_view_free(&cmp);
	if (r == 0)
		r = edac_files_collect(&lv->kernel, &lv->kf, &lv->nk);
	return r;
}

static void free_live(struct live *lv)
{
	edac_topology_free(&lv->kernel);
	free(lv->kf);
	free(lv->df);
}

static bool path_selected(const char *want, const char *path)
{
	size_t n = strlen(want);

	return !n || !strcmp(want, path) || (!strncmp(want, path, n) && path[n] == '/');
}

struct printer {
	const struct edac_opts *o;
	const struct live *lv;
	bool single;
	unsigned printed, gaps;
};

/* Prints one file; in --live mode with the kernel's value and any gap. */
static void print_file(struct printer *p, const struct edac_file *f, const char *db_value)
{
	const struct edac_file *k = p->lv ? edac_files_find(p->lv->kf, p->lv->nk, f->path) : NULL;
	const struct edac_file *d = p->lv ? edac_files_find(p->lv->df, p->lv->nd, f->path) : NULL;
	bool timer = strstr(f->path, "seconds_since_reset") != NULL;
	uint64_t missing = k && f->is_count && !timer && k->count > (d ? d->count : 0)
				   ? k->count - (d ? d->count : 0) : 0;

	p->gaps += missing > 0;
	if (p->o->json) {
		/* One type per key: value is always what cat would print, count a counter's number. */
		printf("%s{\"path\":", p->printed++ ? "," : "");
		ctl_print_json_string(f->path, strlen(f->path));
		printf(",\"value\":");
		ctl_print_json_string(db_value ? db_value : "", db_value ? strlen(db_value) : 0);
		if (f->is_count)
			printf(",\"count\":%llu", (unsigned long long)(db_value ? f->count : 0));
		if (k) {
			printf(",\"kernel\":");
			ctl_print_json_string(k->value, strlen(k->value));
		}
		if (k && k->is_count)
			printf(",\"kernel_count\":%llu,\"missing\":%llu", (unsigned long long)k->count,
			       (unsigned long long)missing);
		printf("}");
		return;
	}
	p->printed++;
	if (!p->single)
		printf("%s: ", ctl_text(f->path));
	printf("%s", db_value ? ctl_text(db_value) : "-");
	if (k && (f->is_count || strcmp(k->value, db_value ? db_value : "")))
		printf(" (kernel: %s)", ctl_text(k->value));
	if (missing)
		printf("  <- the kernel counted %llu that the database lacks",
		       (unsigned long long)missing);
	putchar('\n');
}

static int print_tree(const struct edac_opts *o, const struct edac_file *files, unsigned n,
		      const struct live *lv)
{
	struct printer p = { .o = o, .lv = lv };

	p.single = o->path[0] && edac_files_find(files, n, o->path) != NULL;
	if (o->json)
		printf("{\"version\":%d,\"files\":[", CTL_JSON_VERSION);
	for (unsigned i = 0; i < n; i++)
		if (path_selected(o->path, files[i].path))
			print_file(&p, &files[i], files[i].value);
	/* Files only the kernel has: a controller or DIMM the database never saw. */
	for (unsigned i = 0; lv && i < lv->nk; i++)
		if (path_selected(o->path, lv->kf[i].path) && !edac_files_find(files, n, lv->kf[i].path)) {
			struct edac_file none = lv->kf[i];

			none.count = 0;
			print_file(&p, &none, NULL);
		}
	if (o->json)
		printf("],\"gaps\":%u}\n", p.gaps);
	if (!p.printed && o->path[0]) {
		fprintf(stderr, "ras-fdr-ctl: edac: no such file or node '%s'\n", ctl_text(o->path));
		return 1;
	}
	if (!p.printed && !o->json)
		printf("No EDAC topology recorded yet (rasd stores it when it starts).\n");
	return p.gaps ? EXIT_GAP : 0;
}

int ctl_edac(struct ctl *c, int argc, char **argv)
{
	struct edac_opts o = { .f = { .type_idx = -1 } };
	struct edac_window *w = NULL;
	struct edac_file *files = NULL;
	struct live lv = { 0 };
	struct edac_view v;
	struct ras_db *db;
	unsigned nw = 0, nf = 0;
	int r;

	r = parse_edac_opts(c, argc, argv, &o);
	if (r != CTL_GO_ON)
		return r;
	if (ctl_open_db(c, &db) < 0)
		return 1;
	r = edac_view_db_windows(db, &w, &nw);
	if (r == 0)
		r = edac_view_build(db, &o.f, w, nw, &v);
	free(w);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(ras_db_errmsg(db)));
		ras_db_close(db);
		return 1;
	}
	if (o.report) {
		r = ctl_edac_report(&o, &v);
	} else if ((r = edac_files_collect(&v.topo, &files, &nf)) == 0 &&
		   (!o.live || (r = build_live(c, db, &o, &lv)) == 0)) {
		r = print_tree(&o, files, nf, o.live ? &lv : NULL);
	} else {
		r = 1;
	}
	free(files);
	free_live(&lv);
	edac_view_free(&v);
	ras_db_close(db);
	return r;
}
