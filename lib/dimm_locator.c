/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dimm_locator.h"
#include "edac_sysfs.h"

/* The instance N of a "17-N" entry name, or -1. */
static long entry_instance(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "17-", 3) || name[3] < '0' || name[3] > '9')
		return -1;
	n = strtol(name + 3, &end, 10);
	return *end || n < 0 || n > INT_MAX ? -1 : n;
}

static int by_instance(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* Instances of the 17-N entries, sorted: their count, or -errno. */
static int list_entries(const char *dir, long *inst, unsigned max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		long i = entry_instance(e->d_name);

		if (i >= 0)
			inst[n++] = i;
	}
	closedir(d);
	qsort(inst, n, sizeof(*inst), by_instance);
	return (int)n;
}

int dimm_locators_read(const char *sysfs_root, struct dimm_locators *l)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	long *inst;
	int n, err = 0;

	memset(l, 0, sizeof(*l));
	snprintf(dir, sizeof(dir), "%s/firmware/dmi/entries", sysfs_root);
	inst = calloc(DIMM_LOCATOR_MAX, sizeof(*inst));
	l->dev = calloc(DIMM_LOCATOR_MAX, sizeof(*l->dev));
	if (!inst || !l->dev) {
		free(inst);
		free(l->dev);
		l->dev = NULL;
		return l->error = -ENOMEM;
	}
	n = list_entries(dir, inst, DIMM_LOCATOR_MAX);
	if (n < 0)
		err = n;
	for (int i = 0; i < n; i++) {
		uint8_t *blob;
		size_t len;
		int r;

		snprintf(path, sizeof(path), "%s/17-%ld/raw", dir, inst[i]);
		r = smbios_read_table(path, &blob, &len);
		if (r < 0) {
			err = err ? err : r;   /* raw is root's only: remember why */
			continue;
		}
		/* One structure per file: exactly one type 17 device, or it is not one. */
		if (smbios_memory_devices(blob, len, &l->dev[l->n], 1) == 1)
			l->n++;
		free(blob);
	}
	free(inst);
	/* Some entries read: what they say stands; none read: say why. */
	l->error = l->n ? 0 : err;
	return l->error;
}

void dimm_locators_free(struct dimm_locators *l)
{
	free(l->dev);
	memset(l, 0, sizeof(*l));
}

/* The label, trimmed of the blanks the kernel and firmware pad with, into out. */
static void trimmed(const char *s, char *out, size_t len)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	snprintf(out, len, "%s", s);
	n = strlen(out);
	while (n && (out[n - 1] == ' ' || out[n - 1] == '\t' || out[n - 1] == '\n'))
		out[--n] = '\0';
}

/* ghes_edac's label for a DIMM whose SMBIOS strings were empty: the handle. */
static bool handle_of(const char *label, unsigned *handle)
{
	char tail;

	return sscanf(label, "unknown memory (handle: 0x%4x%c", handle, &tail) == 2 && tail == ')';
}

/* The name ghes_edac (and CPER) give a device: bank locator and locator, either alone if the other is empty. */
static void kernel_name(const struct smbios_memory_device *d, char *out, size_t len)
{
	snprintf(out, len, "%s%s%s", d->bank_locator, d->bank_locator[0] && d->locator[0] ? " " : "",
		 d->locator);
}

const struct smbios_memory_device *dimm_locator_match(const struct dimm_locators *l,
						      const char *label, enum dimm_match_by *by)
{
	const struct smbios_memory_device *found = NULL;
	char want[2 * SMBIOS_STR_LEN + 64], name[2 * SMBIOS_STR_LEN + 2];
	unsigned handle, hits = 0;

	*by = DIMM_MATCH_NONE;
	trimmed(label ? label : "", want, sizeof(want));
	if (!want[0] || !l->n)
		return NULL;
	if (handle_of(want, &handle)) {
		for (unsigned i = 0; i < l->n; i++)
			if (l->dev[i].handle == handle) {
				*by = DIMM_MATCH_HANDLE;
				return &l->dev[i];
			}
		return NULL;
	}
	/* The kernel's full name first: it tells apart locators repeated per bank. */
	for (int pass = 0; pass < 2 && !hits; pass++) {
		for (unsigned i = 0; i < l->n; i++) {
			const struct smbios_memory_device *d = &l->dev[i];

			if (!d->size_mb)
				continue;   /* an empty socket has no DIMM to fail */
			if (pass == 0)
				kernel_name(d, name, sizeof(name));
			else
				snprintf(name, sizeof(name), "%s", d->locator);
			if (name[0] && !strcmp(name, want)) {
				found = d;
				hits++;
			}
		}
		if (hits)
			*by = pass == 0 && found->bank_locator[0] ? DIMM_MATCH_BANK_LOCATOR : DIMM_MATCH_LOCATOR;
	}
	if (hits > 1) {
		*by = DIMM_MATCH_AMBIGUOUS;
		return NULL;
	}
	return found;
}

const char *dimm_match_by_name(enum dimm_match_by by)
{
	switch (by) {
	case DIMM_MATCH_HANDLE: return "the kernel's SMBIOS handle in the EDAC label";
	case DIMM_MATCH_BANK_LOCATOR: return "the EDAC label names its bank locator and locator";
	case DIMM_MATCH_LOCATOR: return "the EDAC label names its locator";
	case DIMM_MATCH_AMBIGUOUS: return "the EDAC label names more than one SMBIOS device";
	case DIMM_MATCH_NONE: break;
	}
	return "the EDAC label names no SMBIOS device";
}

/* The label EDAC gives the DIMM at the part's key now, or NULL. */
static const char *live_label(const struct edac_topology *topo, const char *key)
{
	const struct edac_mc *mc;
	const struct edac_dimm *d;
	int idx, top, mid, low;
	char tail;

	if (!topo || sscanf(key, "mc%d %d:%d:%d%c", &idx, &top, &mid, &low, &tail) != 4 || idx < 0)
		return NULL;
	if (!(mc = edac_topology_mc(topo, (unsigned)idx)) || !(d = edac_mc_dimm_at(mc, top, mid, low)))
		return NULL;
	return d->label;
}

const struct smbios_memory_device *dimm_locator_of_part(const struct dimm_locators *l,
							const struct edac_topology *topo,
							const char *key, const char *label,
							enum dimm_match_by *by)
{
	const struct smbios_memory_device *d = dimm_locator_match(l, label, by);
	const char *now;
	enum dimm_match_by by_now;

	if (d || *by == DIMM_MATCH_AMBIGUOUS || !(now = live_label(topo, key)))
		return d;
	d = dimm_locator_match(l, now, &by_now);
	if (d || by_now == DIMM_MATCH_AMBIGUOUS)
		*by = by_now;
	return d;
}

void dimm_where_of_part(const struct dimm_locators *l, const struct edac_topology *topo,
			const char *key, const char *label, struct dimm_where *w)
{
	w->dev = dimm_locator_of_part(l, topo, key, label, &w->by);
	if (!w->dev && l->error)
		snprintf(w->why, sizeof(w->why), "SMBIOS type 17 entries not readable: %s%s",
			 strerror(-l->error), l->error == -EACCES ? " (they need root)" : "");
	else if (!w->dev && !l->n)
		snprintf(w->why, sizeof(w->why), "no SMBIOS type 17 entries");
	else
		snprintf(w->why, sizeof(w->why), "%s", dimm_match_by_name(w->by));
}
