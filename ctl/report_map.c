/* SPDX-License-Identifier: MIT */
/*
 * The report's DIMM map: the controllers and slots of the newest EDAC
 * topology the database stored (what ras-fdr-ctl layout draws), each slot
 * given the parts (summary locations "mcN, layers a:b (label)") at it. A
 * database without a topology (an imported one, a machine without EDAC
 * sysfs) gets only the slots its records name, and the map says so. A
 * controller's socket is what its name says (skx_edac and i10nm_edac name
 * theirs "... Socket#N IMC#M", sb_edac "... SrcID#N_Ha#M") or else what
 * every label of its slots says alike ("CPU_SrcID#N_MC#M_Chan#C_DIMM#D");
 * never guessed from the controllers' order.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "edac_cmd.h"
#include "db/db_edac.h"

/* "mcN, layers a:b[:c] (label)": the controller, layers and label a summary location names. */
static bool slot_of(const char *name, int *mc, int pos[RPT_LAYERS], const char **label, size_t *llen)
{
	int n = 0, k;

	pos[0] = pos[1] = pos[2] = -1;
	k = sscanf(name, "mc%d, layers %d:%d:%d%n", mc, &pos[0], &pos[1], &pos[2], &n);
	if (k < 3 || *mc < 0)
		return false;
	if (k == 3) {
		pos[2] = -1;
		if (sscanf(name, "mc%d, layers %d:%d%n", mc, &pos[0], &pos[1], &n) != 3)
			return false;
	}
	*label = NULL;
	*llen = 0;
	if (!strncmp(name + n, " (", 2) && name[strlen(name) - 1] == ')') {
		*label = name + n + 2;
		*llen = strlen(*label) - 1;
	}
	return name[n] == 0 || name[n] == ' ';
}

/* The socket "Socket#N" or "SrcID#N" in s names (not inside a longer word), or -1. */
static int socket_in(const char *s)
{
	static const char *const marks[] = { "Socket#", "SrcID#" };

	for (size_t i = 0; s && i < sizeof(marks) / sizeof(marks[0]); i++) {
		for (const char *at = s; (at = strstr(at, marks[i])); at++) {
			const char *d = at + strlen(marks[i]);
			char *end;
			long n;

			if (at > s && isalnum((unsigned char)at[-1]))
				continue;
			if (!isdigit((unsigned char)*d) || (n = strtol(d, &end, 10)) > 4095 ||
			    isalnum((unsigned char)*end))
				continue;
			return (int)n;
		}
	}
	return -1;
}

/* Each controller's socket: its name's, else the one all its labelled slots name. */
static void sockets(struct rpt_dimm_map *d)
{
	for (size_t i = 0; i < d->nmcs; i++) {
		struct rpt_map_mc *x = &d->mcs[i];
		int said = -2;

		if ((x->socket = socket_in(x->name)) >= 0)
			continue;
		for (size_t k = 0; k < d->nslots && said != -1; k++) {
			int s;

			if (d->slots[k].mc != x->mc || !d->slots[k].label[0])
				continue;
			s = socket_in(d->slots[k].label);
			said = said == -2 || said == s ? s : -1;
		}
		x->socket = said >= 0 ? said : -1;
	}
}

static struct rpt_map_mc *mc_entry(struct rpt_dimm_map *d, int mc)
{
	for (size_t i = 0; i < d->nmcs; i++)
		if (d->mcs[i].mc == mc)
			return &d->mcs[i];
	return NULL;
}

static struct rpt_slot *slot_entry(struct rpt_dimm_map *d, int mc, const int pos[RPT_LAYERS])
{
	for (size_t i = 0; i < d->nslots; i++)
		if (d->slots[i].mc == mc && !memcmp(d->slots[i].pos, pos, sizeof(d->slots[i].pos)))
			return &d->slots[i];
	return NULL;
}

static struct rpt_slot *add_slot(struct rpt_dimm_map *d, int mc, const int pos[RPT_LAYERS],
				 const char *label, size_t llen)
{
	struct rpt_slot *s = report_grow(&d->slots, &d->nslots, sizeof(*s));

	if (!s || !(s->label = strndup(label ? label : "", llen)))
		return NULL;
	s->mc = mc;
	memcpy(s->pos, pos, sizeof(s->pos));
	s->part = -1;
	return s;
}

/* The stored topology's controllers and slots; -ENOENT when the database has none. */
static int from_edac(struct ras_db *db, struct rpt_dimm_map *d)
{
	struct edac_topology t = { 0 };
	int64_t snap;
	int r = ras_db_edac_latest_snapshot(db, NULL, &snap);

	if (r < 0 || (r = ras_db_edac_load_snapshot(db, snap, &t)) < 0)
		return r == -ENOMEM ? r : -ENOENT;
	for (unsigned i = 0; i < t.n_mcs && r == 0; i++) {
		const struct edac_mc *mc = &t.mcs[i];
		struct rpt_map_mc *x;

		if (!mc->n_dimms || !mc->n_layers || mc->n_layers > RPT_LAYERS)
			continue;     /* a csrow-only controller: not drawn by slot */
		if (!(x = report_grow(&d->mcs, &d->nmcs, sizeof(*x))) || !(x->name = report_dup(mc->mc_name))) {
			r = -ENOMEM;
			break;
		}
		x->mc = (int)mc->index;
		x->n_layers = mc->n_layers;
		for (unsigned l = 0; l < mc->n_layers && r == 0; l++) {
			x->layer_size[l] = mc->layer_size[l];
			if (!(x->layer_name[l] = report_dup(mc->layer_name[l])))
				r = -ENOMEM;
		}
		for (unsigned k = 0; k < mc->n_dimms && r == 0; k++) {
			const struct edac_dimm *dm = &mc->dimms[k];
			const char *label = edac_display_label(dm->configured_label, dm->label);

			if (!add_slot(d, (int)mc->index, dm->pos, label, strlen(label)))
				r = -ENOMEM;
		}
	}
	edac_topology_free(&t);
	d->from_edac = r == 0 && d->nmcs > 0;
	return r;
}

/* No topology: a controller for each one the records name, its layers as wide as they reach. */
static int seen_slot(struct rpt_dimm_map *d, int mc, const int pos[RPT_LAYERS], const char *label,
		     size_t llen)
{
	struct rpt_map_mc *x = mc_entry(d, mc);
	unsigned layers = pos[2] >= 0 ? 3 : 2;

	if (!x) {
		if (!(x = report_grow(&d->mcs, &d->nmcs, sizeof(*x))) || !(x->name = strdup("")))
			return -ENOMEM;
		x->mc = mc;
	}
	if (layers > x->n_layers)
		x->n_layers = layers;
	for (unsigned l = 0; l < layers; l++) {
		char name[16];

		if (!x->layer_name[l]) {
			snprintf(name, sizeof(name), "layer %u", l);
			if (!(x->layer_name[l] = strdup(name)))
				return -ENOMEM;
		}
		if (pos[l] >= 0 && (unsigned)pos[l] + 1 > x->layer_size[l])
			x->layer_size[l] = (unsigned)pos[l] + 1;
	}
	return slot_entry(d, mc, pos) || add_slot(d, mc, pos, label, llen) ? 0 : -ENOMEM;
}

/* By socket (not known last), then by controller. */
static int by_socket_mc(const void *a, const void *b)
{
	const struct rpt_map_mc *x = a, *y = b;
	unsigned sx = (unsigned)x->socket, sy = (unsigned)y->socket;   /* -1: the largest */

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return x->mc < y->mc ? -1 : x->mc > y->mc;
}

int report_map(struct ras_db *db, struct rpt_model *m)
{
	struct rpt_dimm_map *d = &m->map;
	int r = from_edac(db, d);

	if (r < 0 && r != -ENOENT)
		return r;
	for (size_t i = 0; i < m->nparts; i++) {
		const char *label;
		size_t llen;
		int mc, pos[RPT_LAYERS];
		struct rpt_slot *s;

		if (!slot_of(m->parts[i].name, &mc, pos, &label, &llen))
			continue;
		if (!d->from_edac && (r = seen_slot(d, mc, pos, label, llen)) < 0)
			return r;
		if (!(s = slot_entry(d, mc, pos)))
			continue;     /* a slot the topology does not have: in the parts table only */
		s->records += m->parts[i].corrected + m->parts[i].uncorrected + m->parts[i].other;
		if (s->part < 0)
			s->part = (int)i;
	}
	sockets(d);
	if (d->nmcs > 1)
		qsort(d->mcs, d->nmcs, sizeof(*d->mcs), by_socket_mc);
	return 0;
}
