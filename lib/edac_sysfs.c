/* SPDX-License-Identifier: MIT */
/*
 * Reads the EDAC memory-controller tree. Every attribute is a small text
 * file; a missing one leaves its field empty or zero, because drivers and
 * kernel versions differ in what they create.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "edac_sysfs.h"
#include "fileio.h"

#define ATTR_MAX 256

/* Reads dir/name into buf, trimmed of trailing whitespace; -errno if absent. */
static int read_attr(int dirfd, const char *name, char *buf, size_t len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = 0;
	return 0;
}

static void read_text(int dirfd, const char *name, char *out, size_t len)
{
	char buf[ATTR_MAX];

	read_attr(dirfd, name, buf, sizeof(buf));
	snprintf(out, len, "%s", buf);
}

static uint64_t read_u64(int dirfd, const char *name)
{
	char buf[ATTR_MAX];

	if (read_attr(dirfd, name, buf, sizeof(buf)) < 0)
		return 0;
	return strtoull(buf, NULL, 0);
}

/* Parses "mc12" style names; false for anything else. */
static bool parse_index(const char *name, const char *prefix, unsigned *idx)
{
	size_t n = strlen(prefix);
	char *end;
	unsigned long v;

	if (strncmp(name, prefix, n) || name[n] < '0' || name[n] > '9')
		return false;
	v = strtoul(name + n, &end, 10);
	if (*end || v > 65535)
		return false;
	*idx = (unsigned)v;
	return true;
}

int edac_parse_location(const char *text, char names[EDAC_MAX_LAYERS][EDAC_NAME_LEN],
			int pos[EDAC_MAX_LAYERS])
{
	char copy[EDAC_TEXT_LEN], *save = NULL, *name, *num;
	int n = 0;

	for (int i = 0; i < EDAC_MAX_LAYERS; i++) {
		pos[i] = -1;
		if (names)
			names[i][0] = 0;
	}
	snprintf(copy, sizeof(copy), "%s", text);
	for (name = strtok_r(copy, " \t\n", &save); name; name = strtok_r(NULL, " \t\n", &save)) {
		char *end;
		long v;

		num = strtok_r(NULL, " \t\n", &save);
		if (!num || n >= EDAC_MAX_LAYERS)
			return -EINVAL;
		v = strtol(num, &end, 10);
		if (*end || v < 0 || v > 255)
			return -EINVAL;
		if (names)
			snprintf(names[n], EDAC_NAME_LEN, "%s", name);
		pos[n++] = (int)v;
	}
	return n;
}

static int read_dimm(int mcfd, const char *dname, unsigned idx, bool is_rank, struct edac_dimm *d)
{
	int fd = openat(mcfd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	memset(d, 0, sizeof(*d));
	d->index = idx;
	d->is_rank = is_rank;
	read_text(fd, "dimm_location", d->location, sizeof(d->location));
	if (edac_parse_location(d->location, NULL, d->pos) < 0)
		edac_parse_location("", NULL, d->pos);
	read_text(fd, "dimm_label", d->label, sizeof(d->label));
	d->size_mb = read_u64(fd, "size");
	read_text(fd, "dimm_mem_type", d->mem_type, sizeof(d->mem_type));
	read_text(fd, "dimm_dev_type", d->dev_type, sizeof(d->dev_type));
	read_text(fd, "dimm_edac_mode", d->edac_mode, sizeof(d->edac_mode));
	d->ce_count = read_u64(fd, "dimm_ce_count");
	d->ue_count = read_u64(fd, "dimm_ue_count");
	d->csrow = d->cschannel = -1;
	close(fd);
	return 0;
}

static int read_csrow(int mcfd, const char *dname, unsigned idx, struct edac_csrow *cs)
{
	int fd = openat(mcfd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char name[48], probe[ATTR_MAX];

	if (fd < 0)
		return -errno;
	memset(cs, 0, sizeof(*cs));
	cs->index = idx;
	cs->size_mb = read_u64(fd, "size_mb");
	read_text(fd, "mem_type", cs->mem_type, sizeof(cs->mem_type));
	read_text(fd, "dev_type", cs->dev_type, sizeof(cs->dev_type));
	read_text(fd, "edac_mode", cs->edac_mode, sizeof(cs->edac_mode));
	cs->ce_count = read_u64(fd, "ce_count");
	cs->ue_count = read_u64(fd, "ue_count");
	/* The kernel hides the files of empty channels, so there may be holes. */
	for (unsigned ch = 0; ch < EDAC_MAX_CSROW_CHANNELS; ch++) {
		struct edac_csrow_channel *c = &cs->ch[ch];

		edac_parse_location("", NULL, c->pos);
		snprintf(name, sizeof(name), "ch%u_ce_count", ch);
		if (read_attr(fd, name, probe, sizeof(probe)) < 0)
			continue;
		c->ce_count = strtoull(probe, NULL, 0);
		snprintf(name, sizeof(name), "ch%u_dimm_label", ch);
		read_text(fd, name, c->dimm_label, sizeof(c->dimm_label));
		/* Old chip-select drivers: the top layer is the csrow, the middle the channel. */
		c->pos[0] = (int)idx;
		c->pos[1] = (int)ch;
		c->pos[2] = -1;
		cs->n_channels = ch + 1;
	}
	close(fd);
	return 0;
}

static int grow(void **arr, unsigned n, size_t elem)
{
	void *p;

	if (n & (n - 1) && n)
		return 0;  /* capacity doubles at powers of two */
	p = realloc(*arr, (n ? n * 2 : 1) * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	return 0;
}

static int read_children(int mcfd, struct edac_mc *mc)
{
	DIR *dir = ras_opendir_fd(mcfd);
	struct dirent *de;
	unsigned idx;
	int r = 0;

	if (!dir)
		return -errno;
	while (r == 0 && (de = readdir(dir))) {
		bool rank = parse_index(de->d_name, "rank", &idx);

		if (rank || parse_index(de->d_name, "dimm", &idx)) {
			r = grow((void **)&mc->dimms, mc->n_dimms, sizeof(*mc->dimms));
			if (r == 0 && read_dimm(mcfd, de->d_name, idx, rank, &mc->dimms[mc->n_dimms]) == 0)
				mc->n_dimms++;
		} else if (parse_index(de->d_name, "csrow", &idx)) {
			r = grow((void **)&mc->csrows, mc->n_csrows, sizeof(*mc->csrows));
			if (r == 0 && read_csrow(mcfd, de->d_name, idx, &mc->csrows[mc->n_csrows]) == 0)
				mc->n_csrows++;
		}
	}
	closedir(dir);
	return r;
}

static int cmp_dimm(const void *a, const void *b)
{
	const struct edac_dimm *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static int cmp_csrow(const void *a, const void *b)
{
	const struct edac_csrow *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static int cmp_mc(const void *a, const void *b)
{
	const struct edac_mc *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static int read_mc(int edacfd, const char *dname, unsigned idx, struct edac_mc *mc)
{
	int fd = openat(edacfd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int pos[EDAC_MAX_LAYERS], n, r;

	if (fd < 0)
		return -errno;
	memset(mc, 0, sizeof(*mc));
	mc->index = idx;
	read_text(fd, "mc_name", mc->mc_name, sizeof(mc->mc_name));
	mc->size_mb = read_u64(fd, "size_mb");
	mc->seconds_since_reset = read_u64(fd, "seconds_since_reset");
	mc->ce_count = read_u64(fd, "ce_count");
	mc->ue_count = read_u64(fd, "ue_count");
	mc->ce_noinfo_count = read_u64(fd, "ce_noinfo_count");
	mc->ue_noinfo_count = read_u64(fd, "ue_noinfo_count");
	read_text(fd, "max_location", mc->max_location, sizeof(mc->max_location));
	n = edac_parse_location(mc->max_location, mc->layer_name, pos);
	for (int i = 0; i < n; i++)
		mc->layer_size[i] = (unsigned)pos[i] + 1;
	mc->n_layers = n > 0 ? (unsigned)n : 0;
	r = read_children(fd, mc);
	close(fd);
	if (r < 0)
		return r;
	edac_mc_sort(mc);
	edac_mc_link_csrows(mc);
	return 0;
}

static void free_mc(struct edac_mc *mc)
{
	free(mc->dimms);
	free(mc->csrows);
}

int edac_sysfs_read(const char *sysfs_root, struct edac_topology *out)
{
	char path[4096];
	struct dirent *de;
	DIR *dir;
	unsigned idx;
	int r = 0;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/devices/system/edac/mc", sysfs_root);
	dir = opendir(path);  /* glibc opens directories with O_CLOEXEC */
	if (!dir)
		return -errno;
	while (r == 0 && (de = readdir(dir))) {
		if (!parse_index(de->d_name, "mc", &idx))
			continue;
		r = grow((void **)&out->mcs, out->n_mcs, sizeof(*out->mcs));
		if (r == 0 && read_mc(dirfd(dir), de->d_name, idx, &out->mcs[out->n_mcs]) == 0)
			out->n_mcs++;
	}
	closedir(dir);
	if (r < 0) {
		edac_topology_free(out);
		return r;
	}
	edac_topology_sort(out, false);
	return 0;
}

void edac_mc_sort(struct edac_mc *mc)
{
	if (mc->n_dimms)
		qsort(mc->dimms, mc->n_dimms, sizeof(*mc->dimms), cmp_dimm);
	if (mc->n_csrows)
		qsort(mc->csrows, mc->n_csrows, sizeof(*mc->csrows), cmp_csrow);
}

void edac_topology_sort(struct edac_topology *t, bool each_mc)
{
	if (t->n_mcs)
		qsort(t->mcs, t->n_mcs, sizeof(*t->mcs), cmp_mc);
	for (unsigned i = 0; each_mc && i < t->n_mcs; i++)
		edac_mc_sort(&t->mcs[i]);
}

void edac_topology_free(struct edac_topology *t)
{
	for (unsigned i = 0; i < t->n_mcs; i++)
		free_mc(&t->mcs[i]);
	free(t->mcs);
	memset(t, 0, sizeof(*t));
}

/*
 * Layers that the kernel's drivers mark as "virtual csrows" (chip select,
 * slot, all-memory) make up the csrow number; the others the channel.
 */
static bool layer_is_virtual_csrow(const char *name)
{
	return !strcmp(name, "csrow") || !strcmp(name, "slot") || !strcmp(name, "memory");
}

static void link_dimm(struct edac_mc *mc, struct edac_dimm *d, unsigned rows, unsigned chans)
{
	unsigned idx = 0;

	/* The DIMM number is its position linearised with the lowest layer fastest. */
	for (unsigned l = 0; l < mc->n_layers; l++) {
		if (d->pos[l] < 0 || (unsigned)d->pos[l] >= mc->layer_size[l])
			return;
		idx = idx * mc->layer_size[l] + (unsigned)d->pos[l];
	}
	if (layer_is_virtual_csrow(mc->layer_name[0])) {
		d->csrow = (int)(idx / chans);
		d->cschannel = (int)(idx % chans);
	} else {
		d->cschannel = (int)(idx / rows);
		d->csrow = (int)(idx % rows);
	}
	for (unsigned i = 0; i < mc->n_csrows; i++) {
		struct edac_csrow *cs = &mc->csrows[i];

		if (cs->index == (unsigned)d->csrow && (unsigned)d->cschannel < cs->n_channels)
			memcpy(cs->ch[d->cschannel].pos, d->pos, sizeof(d->pos));
	}
}

void edac_mc_link_csrows(struct edac_mc *mc)
{
	unsigned rows = 1, chans = 1;

	if (!mc->n_layers)
		return;
	for (unsigned l = 0; l < mc->n_layers; l++) {
		if (layer_is_virtual_csrow(mc->layer_name[l]))
			rows *= mc->layer_size[l];
		else
			chans *= mc->layer_size[l];
	}
	/* With DIMM directories present, only linked channels take events. */
	if (mc->n_dimms)
		for (unsigned i = 0; i < mc->n_csrows; i++)
			for (unsigned c = 0; c < mc->csrows[i].n_channels; c++)
				edac_parse_location("", NULL, mc->csrows[i].ch[c].pos);
	for (unsigned i = 0; i < mc->n_dimms; i++)
		link_dimm(mc, &mc->dimms[i], rows, chans);
}

const struct edac_mc *edac_topology_mc(const struct edac_topology *t, unsigned index)
{
	for (unsigned i = 0; i < t->n_mcs; i++)
		if (t->mcs[i].index == index)
			return &t->mcs[i];
	return NULL;
}

static bool same_layers(const int pos[EDAC_MAX_LAYERS], int top, int mid, int low)
{
	return pos[0] == top && pos[1] == mid && pos[2] == low;
}

const struct edac_dimm *edac_mc_dimm_at(const struct edac_mc *mc, int top, int mid, int low)
{
	if (top < 0)
		return NULL;
	for (unsigned i = 0; i < mc->n_dimms; i++)
		if (same_layers(mc->dimms[i].pos, top, mid, low))
			return &mc->dimms[i];
	return NULL;
}

bool edac_mc_csrow_at(const struct edac_mc *mc, int top, int mid, int low,
		      unsigned *csrow_idx, unsigned *channel)
{
	if (top < 0)
		return false;
	for (unsigned i = 0; i < mc->n_csrows; i++)
		for (unsigned c = 0; c < mc->csrows[i].n_channels; c++)
			if (same_layers(mc->csrows[i].ch[c].pos, top, mid, low)) {
				*csrow_idx = i;
				*channel = c;
				return true;
			}
	return false;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s, strlen(s) + 1);
}

uint64_t edac_topology_digest(const struct edac_topology *t)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (unsigned m = 0; m < t->n_mcs; m++) {
		const struct edac_mc *mc = &t->mcs[m];

		h = fnv(h, &mc->index, sizeof(mc->index));
		h = fnv_str(fnv_str(h, mc->mc_name), mc->max_location);
		h = fnv(h, &mc->size_mb, sizeof(mc->size_mb));
		for (unsigned i = 0; i < mc->n_dimms; i++) {
			const struct edac_dimm *d = &mc->dimms[i];

			h = fnv(h, &d->index, sizeof(d->index));
			h = fnv(h, &d->is_rank, sizeof(d->is_rank));
			h = fnv_str(fnv_str(fnv_str(h, d->location), d->label), d->configured_label);
			h = fnv_str(fnv_str(fnv_str(h, d->mem_type), d->dev_type), d->edac_mode);
			h = fnv(h, &d->size_mb, sizeof(d->size_mb));
		}
		for (unsigned i = 0; i < mc->n_csrows; i++) {
			const struct edac_csrow *cs = &mc->csrows[i];

			h = fnv(h, &cs->index, sizeof(cs->index));
			h = fnv(h, &cs->size_mb, sizeof(cs->size_mb));
			h = fnv_str(fnv_str(fnv_str(h, cs->mem_type), cs->dev_type), cs->edac_mode);
			for (unsigned c = 0; c < cs->n_channels; c++)
				h = fnv_str(fnv_str(h, cs->ch[c].dimm_label), cs->ch[c].configured_label);
		}
	}
	return h;
}
