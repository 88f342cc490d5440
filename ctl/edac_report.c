/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl edac --report and ras-fdr-ctl layout. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "edac_cmd.h"

static void json_str(const char *s)
{
	ctl_print_json_string(s, strlen(s));
}

/* The first keys of a DIMM's JSON object, as the report and the layout print it. */
static void json_dimm_start(unsigned i, const struct edac_dimm *d)
{
	printf("%s{\"name\":\"%s%u\",\"location\":", i ? "," : "", d->is_rank ? "rank" : "dimm",
	       d->index);
	json_str(d->location);
	printf(",\"label\":");
	json_str(edac_display_label(d->configured_label, d->label));
}

/* Channel c of csrow cs, the k-th of its controller, as json_dimm_start a DIMM: up to its label. */
static void json_csrow_start(unsigned k, const struct edac_csrow *cs, unsigned c)
{
	printf("%s{\"csrow\":%u,\"channel\":%u,\"label\":", k ? "," : "", cs->index, c);
	json_str(edac_display_label(cs->ch[c].configured_label, cs->ch[c].dimm_label));
}

static void report_mc_json(const struct edac_mc *mc, bool first)
{
	printf("%s{\"mc\":%u,\"mc_name\":", first ? "" : ",", mc->index);
	json_str(mc->mc_name);
	printf(",\"size_mb\":%llu,\"ce_count\":%llu,\"ue_count\":%llu,\"ce_noinfo_count\":%llu,"
	       "\"ue_noinfo_count\":%llu,\"dimms\":[", (unsigned long long)mc->size_mb,
	       (unsigned long long)mc->ce_count, (unsigned long long)mc->ue_count,
	       (unsigned long long)mc->ce_noinfo_count, (unsigned long long)mc->ue_noinfo_count);
	for (unsigned i = 0; i < mc->n_dimms; i++) {
		const struct edac_dimm *d = &mc->dimms[i];

		json_dimm_start(i, d);
		printf(",\"ce\":%llu,\"ue\":%llu}", (unsigned long long)d->ce_count,
		       (unsigned long long)d->ue_count);
	}
	printf("],\"csrows\":[");
	for (unsigned i = 0, k = 0; i < mc->n_csrows; i++) {
		const struct edac_csrow *cs = &mc->csrows[i];

		for (unsigned c = 0; c < cs->n_channels; c++) {
			json_csrow_start(k++, cs, c);
			printf(",\"ce\":%llu,\"csrow_ue\":%llu}", (unsigned long long)cs->ch[c].ce_count,
			       (unsigned long long)cs->ue_count);
		}
	}
	printf("]}");
}

static void report_mc_text(const struct edac_mc *mc)
{
	printf("mc%u: %s, %llu MB, counting for %llu s: %llu corrected, %llu uncorrected\n",
	       mc->index, mc->mc_name[0] ? ctl_text(mc->mc_name) : "(unnamed)",
	       (unsigned long long)mc->size_mb,
	       (unsigned long long)mc->seconds_since_reset, (unsigned long long)mc->ce_count,
	       (unsigned long long)mc->ue_count);
	if (mc->n_dimms) {
		printf("  %-8s %-28s %-24s %10s %10s\n", "DIMM", "LOCATION", "LABEL", "CE", "UE");
		for (unsigned i = 0; i < mc->n_dimms; i++) {
			const struct edac_dimm *d = &mc->dimms[i];
			char name[16];

			snprintf(name, sizeof(name), "%s%u", d->is_rank ? "rank" : "dimm", d->index);
			printf("  %-8s %-28s %-24s %10llu %10llu\n", name, ctl_text(d->location),
			       ctl_text(edac_display_label(d->configured_label, d->label)),
			       (unsigned long long)d->ce_count, (unsigned long long)d->ue_count);
		}
	} else {
		/* The old layout: corrected errors per channel, uncorrected per row. */
		printf("  %-8s %-8s %-28s %10s %10s\n", "ROW", "CHANNEL", "LABEL", "CE", "UE(row)");
		for (unsigned i = 0; i < mc->n_csrows; i++) {
			const struct edac_csrow *cs = &mc->csrows[i];

			for (unsigned c = 0; c < cs->n_channels; c++)
				printf("  csrow%-3u ch%-6u %-28s %10llu %10llu\n", cs->index, c,
				       ctl_text(edac_display_label(cs->ch[c].configured_label,
								   cs->ch[c].dimm_label)),
				       (unsigned long long)cs->ch[c].ce_count,
				       (unsigned long long)cs->ue_count);
		}
	}
	printf("  %-8s %-28s %-24s %10llu %10llu\n", "-", "(no DIMM location)", "",
	       (unsigned long long)mc->ce_noinfo_count, (unsigned long long)mc->ue_noinfo_count);
}

int ctl_edac_report(const struct edac_opts *o, const struct edac_view *v)
{
	const struct edac_topology *t = &v->topo;
	unsigned shown = 0;

	if (o->json)
		printf("{\"version\":%d,\"controllers\":[", CTL_JSON_VERSION);
	for (unsigned m = 0; m < t->n_mcs; m++) {
		char node[16];

		snprintf(node, sizeof(node), "mc%u", t->mcs[m].index);
		if (o->path[0] && strcmp(o->path, node))
			continue;
		if (o->json)
			report_mc_json(&t->mcs[m], shown++ == 0);
		else
			report_mc_text(&t->mcs[m]);
	}
	if (o->json) {
		printf("],\"unmapped_errors\":%lld}\n", (long long)v->unmapped_errors);
	} else if (!t->n_mcs) {
		printf("No EDAC topology recorded yet (rasd stores it when it starts).\n");
	} else if (v->unmapped_errors) {
		printf("%lld errors of controllers that no stored topology knows.\n",
		       (long long)v->unmapped_errors);
	}
	return 0;
}

/* ---- layout ---- */

static const struct edac_dimm *dimm_with(const struct edac_mc *mc, const int pos[EDAC_MAX_LAYERS])
{
	for (unsigned i = 0; i < mc->n_dimms; i++)
		if (!memcmp(mc->dimms[i].pos, pos, sizeof(mc->dimms[i].pos)))
			return &mc->dimms[i];
	return NULL;
}

static void cell_text(const struct edac_mc *mc, const int pos[EDAC_MAX_LAYERS], char *top,
		      char *bottom, size_t len)
{
	const struct edac_dimm *d = dimm_with(mc, pos);

	snprintf(top, len, "-");
	bottom[0] = 0;
	if (!d)
		return;
	snprintf(top, len, "%s", edac_display_label(d->configured_label, d->label));
	snprintf(bottom, len, "%llu MB %s", (unsigned long long)d->size_mb, d->mem_type);
}

/* Rows: every combination of the layers above the last; columns: the last layer. */
static void layout_dimms(const struct edac_mc *mc)
{
	unsigned last = mc->n_layers - 1, rows = 1, cols = mc->layer_size[last];
	char head[48], top[48], bottom[48];

	for (unsigned l = 0; l < last; l++)
		rows *= mc->layer_size[l];
	printf("  %-18s", "");
	for (unsigned c = 0; c < cols; c++) {
		snprintf(head, sizeof(head), "%s %u", mc->layer_name[last], c);
		printf(" %-26s", ctl_text(head));
	}
	putchar('\n');
	for (unsigned r = 0; r < rows; r++) {
		int pos[EDAC_MAX_LAYERS] = { -1, -1, -1 };
		size_t n = 0;

		head[0] = 0;
		for (unsigned l = last, rest = r; l-- > 0; rest /= mc->layer_size[l])
			pos[l] = (int)(rest % mc->layer_size[l]);
		for (unsigned l = 0; l < last; l++)
			n += (size_t)snprintf(head + n, sizeof(head) - n, "%s%s %d", l ? " " : "",
					      mc->layer_name[l], pos[l]);
		for (int line = 0; line < 2; line++) {
			printf("  %-18s", line ? "" : ctl_text(head));
			for (unsigned c = 0; c < cols; c++) {
				pos[last] = (int)c;
				cell_text(mc, pos, top, bottom, sizeof(top));
				printf(" %-26.26s", ctl_text(line ? bottom : top));
			}
			putchar('\n');
		}
	}
}

static void layout_csrows(const struct edac_mc *mc)
{
	unsigned chans = 0;

	for (unsigned i = 0; i < mc->n_csrows; i++)
		if (mc->csrows[i].n_channels > chans)
			chans = mc->csrows[i].n_channels;
	printf("  %-10s", "");
	for (unsigned c = 0; c < chans; c++)
		printf(" channel %-18u", c);
	putchar('\n');
	for (unsigned i = 0; i < mc->n_csrows; i++) {
		const struct edac_csrow *cs = &mc->csrows[i];

		for (int line = 0; line < 2; line++) {
			char head[16];

			snprintf(head, sizeof(head), "csrow %u", cs->index);
			printf("  %-10s", line ? "" : head);
			for (unsigned c = 0; c < cs->n_channels; c++) {
				char cell[48];

				if (line)
					snprintf(cell, sizeof(cell), "%llu MB %s",
						 (unsigned long long)(cs->size_mb / cs->n_channels), cs->mem_type);
				else
					snprintf(cell, sizeof(cell), "%s", edac_display_label(
						 cs->ch[c].configured_label, cs->ch[c].dimm_label));
				printf(" %-26.26s", ctl_text(cell));
			}
			putchar('\n');
		}
	}
}

static int print_layout(const struct edac_topology *t)
{
	if (!t->n_mcs) {
		printf("No EDAC memory controllers.\n");
		return 1;
	}
	for (unsigned m = 0; m < t->n_mcs; m++) {
		const struct edac_mc *mc = &t->mcs[m];

		printf("mc%u: %s (%s)\n", mc->index, ctl_text(mc->mc_name), ctl_text(mc->max_location));
		if (mc->n_dimms && mc->n_layers)
			layout_dimms(mc);
		else
			layout_csrows(mc);
	}
	return 0;
}

static void layout_json_mc(const struct edac_mc *mc, bool first)
{
	printf("%s{\"mc\":%u,\"mc_name\":", first ? "" : ",", mc->index);
	json_str(mc->mc_name);
	printf(",\"max_location\":");
	json_str(mc->max_location);
	printf(",\"size_mb\":%llu,\"dimms\":[", (unsigned long long)mc->size_mb);
	for (unsigned i = 0; i < mc->n_dimms; i++) {
		const struct edac_dimm *d = &mc->dimms[i];

		json_dimm_start(i, d);
		printf(",\"size_mb\":%llu,\"mem_type\":", (unsigned long long)d->size_mb);
		json_str(d->mem_type);
		printf("}");
	}
	printf("],\"csrows\":[");
	for (unsigned i = 0, k = 0; i < mc->n_csrows; i++) {
		const struct edac_csrow *cs = &mc->csrows[i];

		for (unsigned c = 0; c < cs->n_channels; c++) {
			json_csrow_start(k++, cs, c);
			printf(",\"size_mb\":%llu,\"mem_type\":",
			       (unsigned long long)(cs->n_channels ? cs->size_mb / cs->n_channels : 0));
			json_str(cs->mem_type);
			printf("}");
		}
	}
	printf("]}");
}

static int print_layout_json(const struct edac_topology *t, bool live)
{
	printf("{\"version\":%d,\"source\":\"%s\",\"controllers\":[", CTL_JSON_VERSION,
	       live ? "kernel" : "database");
	for (unsigned m = 0; m < t->n_mcs; m++)
		layout_json_mc(&t->mcs[m], m == 0);
	printf("]}\n");
	return t->n_mcs ? 0 : 1;
}

static const struct ctl_opt layout_opts[] = {
	CTL_OPT_BOOT,
	{ "live", 'l', NULL, CTL_C_NONE, "the kernel's EDAC sysfs now instead of the database" },
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_layout_spec = {
	.name = "layout", .args = "", .opts = layout_opts,
	.summary = "the memory controllers and DIMM slots as a grid, with labels and sizes",
};

struct layout_parse {
	struct ctl *c;
	struct ras_db_filter f;
	bool live, json;
};

static int layout_opt(void *ctx, int key, const char *arg)
{
	struct layout_parse *p = ctx;

	if (key == 'l')
		p->live = true;
	else if (key == 'j')
		p->json = true;
	else if (ctl_filter_option(p->c, &p->f, key, arg) < 0)
		return CTL_EXIT_USAGE;
	return CTL_GO_ON;
}

/*
 * No stored topology (the recording machine had no EDAC sysfs, or rasd never
 * ran there): the DIMMs the stored records name, by controller, layers and
 * label. Exit 0 when there is one, 1 when the records name none either.
 */
static int layout_from_records(struct ctl *c, const struct layout_parse *p, struct ras_db *db)
{
	char edac[PATH_MAX + 32];
	struct edac_view v;
	bool here, found;

	snprintf(edac, sizeof(edac), "%s/devices/system/edac/mc", c->cfg.sysfs_root);
	here = access(edac, F_OK) == 0;
	if (edac_view_build(db, &p->f, NULL, 0, &v) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", ras_db_errmsg(db));
		return CTL_EXIT_ERROR;
	}
	if (p->json) {
		printf("{\"version\":%d,\"source\":\"records\",\"controllers\":[],\"dimms\":[",
		       CTL_JSON_VERSION);
		for (unsigned i = 0; i < v.n_unplaced; i++) {
			const struct edac_unplaced *u = &v.unplaced[i];

			printf("%s{\"mc\":%d,\"top\":%d,\"mid\":%d,\"low\":%d,\"label\":", i ? "," : "",
			       u->mc, u->top, u->mid, u->low);
			json_str(u->label);
			printf(",\"ce\":%llu,\"ue\":%llu}", (unsigned long long)u->ce, (unsigned long long)u->ue);
		}
		printf("]}\n");
	} else {
		printf("The database holds no EDAC topology%s (rasd stores one where the kernel has EDAC "
		       "sysfs); %s.\n", p->f.boot_id ? " for that boot" : "",
		       here ? "'ras-fdr-ctl layout --live' reads this machine's"
			    : "this machine has none either");
		if (v.n_unplaced)
			printf("The stored records name these DIMMs:\n%-6s %-12s %10s %10s  %s\n", "MC",
			       "LAYERS", "CE", "UE", "LABEL");
		for (unsigned i = 0; i < v.n_unplaced; i++) {
			const struct edac_unplaced *u = &v.unplaced[i];
			char mc[16], layers[48];

			snprintf(mc, sizeof(mc), "mc%d", u->mc);
			snprintf(layers, sizeof(layers), "%d:%d:%d", u->top, u->mid, u->low);
			printf("%-6s %-12s %10llu %10llu  %s\n", mc, layers, (unsigned long long)u->ce,
			       (unsigned long long)u->ue, u->label[0] ? u->label : "(no label)");
		}
	}
	found = v.n_unplaced > 0;
	edac_view_free(&v);
	return found || p->json ? CTL_EXIT_OK : CTL_EXIT_ERROR;
}

/*
 * 0 with t loaded, or the exit status of the command when the layout was
 * printed from the records instead (*done set) or could not be read.
 */
static int load_layout(struct ctl *c, const struct layout_parse *p, struct edac_topology *t, bool *done)
{
	struct ras_db *db;
	int64_t snap;
	int r;

	if (p->live) {
		r = edac_sysfs_read(c->cfg.sysfs_root, t);
		if (r < 0) {
			fprintf(stderr, "ras-fdr-ctl: cannot read %s/devices/system/edac/mc: %s\n",
				ctl_text(c->cfg.sysfs_root), strerror(-r));
			fprintf(stderr, "ras-fdr-ctl: without --live, layout lists the DIMMs the stored "
				"records name\n");
		}
		return r < 0 ? CTL_EXIT_ERROR : 0;
	}
	if (ctl_open_db(c, &db) < 0)
		return CTL_EXIT_ERROR;
	r = ras_db_edac_latest_snapshot(db, p->f.boot_id, &snap);
	if (r == 0)
		r = ras_db_edac_load_snapshot(db, snap, t);
	if (r < 0) {
		*done = true;
		r = layout_from_records(c, p, db);
	}
	ras_db_close(db);
	return r;
}

int ctl_layout(struct ctl *c, int argc, char **argv)
{
	struct layout_parse p = { .c = c, .f = { .type_idx = -1 } };
	struct edac_topology t = { 0 };
	bool done = false;
	int first, r = ctl_parse(&ctl_layout_spec, argc, argv, layout_opt, &p, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("layout", "unexpected argument '%s'", argv[first]);
	r = load_layout(c, &p, &t, &done);
	if (r || done)
		return r;
	r = p.json ? print_layout_json(&t, p.live) : print_layout(&t);
	edac_topology_free(&t);
	return r;
}
