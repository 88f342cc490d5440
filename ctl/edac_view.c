/* SPDX-License-Identifier: MIT */
/*
 * The database's EDAC tree. Stored mc_event records are grouped in SQL by
 * the snapshot of their boot and their layers; here each group is mapped
 * onto the DIMM and csrow it hit in that snapshot and added to the node of
 * the same name in the newest topology, so a DIMM's history survives
 * reboots, driver reloads and a database moved to another machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "edac_cmd.h"
#include "lib/dimm_labels.h"

#define SNAPSHOT_CACHE 32

struct cached_snapshot {
	int64_t id;
	struct edac_topology t;
	bool loaded;
};

struct build {
	struct ras_db *db;
	struct edac_view *v;
	const struct edac_window *w;
	unsigned n_windows;
	int64_t bounds[RAS_DB_EDAC_MAX_BOUNDS];
	unsigned n_bounds;
	struct cached_snapshot cache[SNAPSHOT_CACHE];
	unsigned n_cache;
	int err;
};

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The distinct window starts, ascending; only the newest fit when there are too many. */
static void collect_bounds(struct build *b)
{
	int64_t all[256];
	unsigned n = 0, skip;

	for (unsigned i = 0; i < b->n_windows && n < 256; i++)
		all[n++] = b->w[i].start_ns;
	if (n)
		qsort(all, n, sizeof(all[0]), cmp_i64);
	skip = n > RAS_DB_EDAC_MAX_BOUNDS ? n - RAS_DB_EDAC_MAX_BOUNDS : 0;
	for (unsigned i = skip; i < n; i++)
		if (!b->n_bounds || b->bounds[b->n_bounds - 1] != all[i])
			b->bounds[b->n_bounds++] = all[i];
}

static bool scope_covers(const char *scope, const char *node)
{
	size_t n = strlen(scope);

	return !n || !strcmp(scope, node) || (!strncmp(scope, node, n) && node[n] == '/');
}

/* Segment from which a node's counts start: 0 = all, k = from bounds[k - 1] on. */
static unsigned node_start_segment(const struct build *b, const char *node)
{
	unsigned k = 0;

	for (unsigned i = 0; i < b->n_windows; i++) {
		if (!scope_covers(b->w[i].scope, node))
			continue;
		for (unsigned j = 0; j < b->n_bounds; j++)
			if (b->bounds[j] == b->w[i].start_ns && j + 1 > k)
				k = j + 1;
	}
	return k;
}

static int64_t node_window_start(const struct build *b, const char *node)
{
	unsigned k = node_start_segment(b, node);

	return k ? b->bounds[k - 1] : 0;
}

static const struct edac_topology *snapshot(struct build *b, int64_t id)
{
	struct cached_snapshot *c;

	if (id <= 0)
		return NULL;
	for (unsigned i = 0; i < b->n_cache; i++)
		if (b->cache[i].id == id)
			return b->cache[i].loaded ? &b->cache[i].t : NULL;
	if (b->n_cache == SNAPSHOT_CACHE)
		return NULL;  /* more topologies than any real history; count as unmapped */
	c = &b->cache[b->n_cache++];
	c->id = id;
	c->loaded = ras_db_edac_load_snapshot(b->db, id, &c->t) == 0;
	return c->loaded ? &c->t : NULL;
}

static void *append(void *arr, unsigned *n, size_t elem, const void *item)
{
	char *grown = realloc(arr, (*n + 1) * elem);

	if (!grown)
		return NULL;
	memcpy(grown + *n * elem, item, elem);
	(*n)++;
	return grown;
}

/* The merged controller of that number, copied in (without children) if the newest snapshot lacks it. */
static struct edac_mc *merged_mc(struct build *b, const struct edac_mc *from, int index)
{
	struct edac_topology *t = &b->v->topo;
	struct edac_mc copy, *grown;

	for (unsigned i = 0; i < t->n_mcs; i++)
		if ((int)t->mcs[i].index == index)
			return &t->mcs[i];
	if (!from)
		return NULL;
	copy = *from;
	copy.dimms = NULL;
	copy.csrows = NULL;
	copy.n_dimms = copy.n_csrows = 0;
	grown = append(t->mcs, &t->n_mcs, sizeof(copy), &copy);
	if (!grown)
		return NULL;
	t->mcs = grown;
	return &t->mcs[t->n_mcs - 1];
}

static struct edac_dimm *merged_dimm(struct edac_mc *mc, const struct edac_dimm *d)
{
	struct edac_dimm *grown;

	for (unsigned i = 0; i < mc->n_dimms; i++)
		if (mc->dimms[i].index == d->index && mc->dimms[i].is_rank == d->is_rank)
			return &mc->dimms[i];
	grown = append(mc->dimms, &mc->n_dimms, sizeof(*d), d);
	if (!grown)
		return NULL;
	mc->dimms = grown;
	return &mc->dimms[mc->n_dimms - 1];
}

static struct edac_csrow *merged_csrow(struct edac_mc *mc, const struct edac_csrow *cs)
{
	struct edac_csrow *grown;

	for (unsigned i = 0; i < mc->n_csrows; i++)
		if (mc->csrows[i].index == cs->index)
			return &mc->csrows[i];
	grown = append(mc->csrows, &mc->n_csrows, sizeof(*cs), cs);
	if (!grown)
		return NULL;
	mc->csrows = grown;
	return &mc->csrows[mc->n_csrows - 1];
}

static void add_dimm_count(struct build *b, struct edac_mc *mc, const struct edac_dimm *sd,
			   const struct ras_db_edac_count *c, bool corrected)
{
	struct edac_dimm *d = merged_dimm(mc, sd);
	char node[48];

	if (!d) {
		b->err = -ENOMEM;
		return;
	}
	snprintf(node, sizeof(node), "mc%u/%s%u", mc->index, d->is_rank ? "rank" : "dimm", d->index);
	if (c->segment < node_start_segment(b, node))
		return;
	if (corrected)
		d->ce_count += (uint64_t)c->errors;
	else
		d->ue_count += (uint64_t)c->errors;
}

static void add_csrow_count(struct build *b, struct edac_mc *mc, const struct edac_csrow *scs,
			    unsigned channel, const struct ras_db_edac_count *c, bool corrected)
{
	struct edac_csrow *cs = merged_csrow(mc, scs);
	char node[48];

	if (!cs) {
		b->err = -ENOMEM;
		return;
	}
	snprintf(node, sizeof(node), "mc%u/csrow%u", mc->index, cs->index);
	if (c->segment < node_start_segment(b, node))
		return;
	if (!corrected) {
		cs->ue_count += (uint64_t)c->errors;
		return;
	}
	cs->ce_count += (uint64_t)c->errors;
	if (channel < cs->n_channels)
		cs->ch[channel].ce_count += (uint64_t)c->errors;
}

/* Errors no topology places, added to their controller and layers' entry. */
static void add_unplaced(struct build *b, const struct ras_db_edac_count *c, bool corrected)
{
	struct edac_view *v = b->v;
	struct edac_unplaced item = { .mc = c->mc, .top = c->top, .mid = c->mid, .low = c->low };
	struct edac_unplaced *u = NULL, *grown;
	char node[48];

	v->unmapped_errors += c->errors;
	snprintf(node, sizeof(node), "mc%d", c->mc);
	if (c->segment < node_start_segment(b, node))
		return;
	for (unsigned i = 0; i < v->n_unplaced && !u; i++)
		if (v->unplaced[i].mc == c->mc && v->unplaced[i].top == c->top &&
		    v->unplaced[i].mid == c->mid && v->unplaced[i].low == c->low)
			u = &v->unplaced[i];
	if (!u) {
		grown = append(v->unplaced, &v->n_unplaced, sizeof(item), &item);
		if (!grown) {
			b->err = -ENOMEM;
			return;
		}
		v->unplaced = grown;
		u = &v->unplaced[v->n_unplaced - 1];
	}
	if (corrected)
		u->ce += (uint64_t)c->errors;
	else
		u->ue += (uint64_t)c->errors;
}

static int on_count(void *ctx, const struct ras_db_edac_count *c)
{
	struct build *b = ctx;
	const struct edac_topology *snap = snapshot(b, c->snapshot);
	const struct edac_mc *smc = snap && c->mc >= 0 ? edac_topology_mc(snap, (unsigned)c->mc) : NULL;
	struct edac_mc *mc = merged_mc(b, smc, c->mc);
	/* Like the kernel, everything that is not corrected counts as uncorrected. */
	bool corrected = c->error_type == 0;
	const struct edac_dimm *d = NULL;
	unsigned csrow = 0, channel = 0;
	bool on_csrow = false;
	char node[48];

	if (!mc) {
		add_unplaced(b, c, corrected);
		return b->err;
	}
	snprintf(node, sizeof(node), "mc%u", mc->index);
	if (smc) {
		d = edac_mc_dimm_at(smc, c->top, c->mid, c->low);
		on_csrow = edac_mc_csrow_at(smc, c->top, c->mid, c->low, &csrow, &channel);
	}
	if (c->segment >= node_start_segment(b, node)) {
		if (corrected)
			mc->ce_count += (uint64_t)c->errors;
		else
			mc->ue_count += (uint64_t)c->errors;
		if (!d && !on_csrow && corrected)
			mc->ce_noinfo_count += (uint64_t)c->errors;
		else if (!d && !on_csrow)
			mc->ue_noinfo_count += (uint64_t)c->errors;
	}
	if (d)
		add_dimm_count(b, mc, d, c, corrected);
	if (on_csrow)
		add_csrow_count(b, mc, &smc->csrows[csrow], channel, c, corrected);
	return b->err;
}

static int oldest_snapshot(void *ctx, const struct ras_db_edac_snapshot_info *s)
{
	int64_t *first = ctx;

	if (!*first || s->taken_ns < *first)
		*first = s->taken_ns;
	return 0;
}

/* Sorts the merged tree and sets each controller's seconds_since_reset. */
static void finish(struct build *b, const struct ras_db_filter *f)
{
	struct edac_topology *t = &b->v->topo;
	struct timespec now;
	char node[48];

	clock_gettime(CLOCK_REALTIME, &now);
	edac_topology_sort(t, true);
	for (unsigned i = 0; i < t->n_mcs; i++) {
		struct edac_mc *mc = &t->mcs[i];
		int64_t start = b->v->first_snapshot_ns;

		snprintf(node, sizeof(node), "mc%u", mc->index);
		if (node_window_start(b, node) > start)
			start = node_window_start(b, node);
		if (f->since_ns > start)
			start = f->since_ns;
		mc->seconds_since_reset = start && now.tv_sec > start / 1000000000
						  ? (uint64_t)(now.tv_sec - start / 1000000000) : 0;
	}
}

int edac_view_build(struct ras_db *db, const struct ras_db_filter *f,
		    const struct edac_window *w, unsigned n_windows, struct edac_view *v)
{
	struct build b = { .db = db, .v = v, .w = w, .n_windows = n_windows };
	int64_t newest;
	int r;

	memset(v, 0, sizeof(*v));
	collect_bounds(&b);
	if (ras_db_edac_latest_snapshot(db, f->boot_id, &newest) == 0 &&
	    ras_db_edac_load_snapshot(db, newest, &v->topo) == 0)
		v->have_snapshot = true;
	ras_db_edac_snapshots(db, NULL, oldest_snapshot, &v->first_snapshot_ns);
	r = ras_db_edac_counts(db, f, b.bounds, b.n_bounds, on_count, &b);
	for (unsigned i = 0; i < b.n_cache; i++)
		if (b.cache[i].loaded)
			edac_topology_free(&b.cache[i].t);
	if (r < 0) {
		edac_view_free(v);
		return r;
	}
	for (unsigned i = 0; i < v->n_unplaced; i++) {
		struct edac_unplaced *u = &v->unplaced[i];

		if (ras_db_edac_record_label(db, u->mc, u->top, u->mid, u->low, u->label,
					     sizeof(u->label)) < 0) {
			edac_view_free(v);
			return -EIO;
		}
	}
	finish(&b, f);
	return 0;
}

void edac_view_free(struct edac_view *v)
{
	edac_topology_free(&v->topo);
	free(v->unplaced);
	v->unplaced = NULL;
	v->n_unplaced = 0;
}

struct window_list {
	struct edac_window *w;
	unsigned n;
	int err;
};

static int add_window(void *ctx, const char *scope, int64_t start_ns)
{
	struct window_list *l = ctx;
	struct edac_window item = { .start_ns = start_ns };
	struct edac_window *grown;

	snprintf(item.scope, sizeof(item.scope), "%s", scope);
	grown = append(l->w, &l->n, sizeof(item), &item);
	if (!grown)
		return l->err = -ENOMEM;
	l->w = grown;
	return 0;
}

int edac_view_db_windows(struct ras_db *db, struct edac_window **w, unsigned *n)
{
	struct window_list l = { 0 };
	int r = ras_db_edac_windows(db, add_window, &l);

	if (r < 0) {
		free(l.w);
		return r;
	}
	*w = l.w;
	*n = l.n;
	return 0;
}

const char *edac_display_label(const char *configured, const char *kernel)
{
	if (configured && *configured)
		return configured;
	return kernel ? kernel : "";
}

void edac_normalize_path(const char *in, char *out, size_t len)
{
	static const char prefix[] = "/sys/devices/system/edac/mc";
	size_t n;

	if (!strncmp(in, prefix, sizeof(prefix) - 1))
		in += sizeof(prefix) - 1;
	while (*in == '/')
		in++;
	snprintf(out, len, "%s", in);
	n = strlen(out);
	while (n > 0 && out[n - 1] == '/')
		out[--n] = 0;
}
