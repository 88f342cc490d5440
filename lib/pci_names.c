/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pci/pci.h>
#include "decoders/other_util.h"
#include "pci_names.h"

static struct pci_access *names_acc;
static int names_no_hwdb;

/* libpci reports through callbacks; a daemon must not print or exit from here. */
static void quiet(char *msg, ...)
{
	(void)msg;
}

/* Only reached on allocation failure inside libpci, which cannot continue. */
static __attribute__((noreturn)) void fatal(char *msg, ...)
{
	(void)msg;
	abort();
}

static struct pci_access *names(void)
{
	if (names_acc)
		return names_acc;
	names_acc = pci_alloc();
	if (!names_acc)
		return NULL;
	names_acc->error = fatal;
	names_acc->warning = quiet;
	names_acc->debug = quiet;
	return names_acc;
}

void pci_names_cleanup(void)
{
	if (names_acc)
		pci_cleanup(names_acc);
	names_acc = NULL;
}

int pci_names_set_ids_file(const char *path)
{
	struct pci_access *a;
	char *copy;

	pci_names_cleanup();
	names_no_hwdb = path != NULL;
	if (!path)
		return 0;
	a = names();
	copy = strdup(path);
	if (!a || !copy) {
		free(copy);
		return -ENOMEM;
	}
	pci_set_name_list_path(a, copy, 1);
	return 0;
}

/* Accepts "dddd:bb:dd.f" or "bb:dd.f"; writes the full form to full[13]. */
static int normalise_bdf(const char *bdf, char full[13])
{
	unsigned dom = 0, bus, dev, fn;
	char tail;

	if (!bdf)
		return -EINVAL;
	if (sscanf(bdf, "%4x:%2x:%2x.%1u%c", &dom, &bus, &dev, &fn, &tail) != 4 &&
	    (dom = 0, sscanf(bdf, "%2x:%2x.%1u%c", &bus, &dev, &fn, &tail) != 3))
		return -EINVAL;
	if (dev > 31 || fn > 7)
		return -EINVAL;
	snprintf(full, 13, "%04x:%02x:%02x.%u", dom, bus, dev, fn);
	return 0;
}

/* Reads a "0x8086"-style sysfs attribute; -1 if absent or malformed. */
static long read_hex_attr(const char *dir, const char *name)
{
	char path[PATH_MAX], buf[32], *end;
	FILE *f;
	long v = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		errno = 0;
		v = strtol(buf, &end, 16);
		if (errno || end == buf || v < 0)
			v = -1;
	}
	fclose(f);
	return v;
}

static void append_driver(const char *dev_dir, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	const char *base;

	snprintf(path, sizeof(path), "%s/driver", dev_dir);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	ou_appendf(out, len, ", driver %s", base ? base + 1 : target);
}

/* Slots list "dddd:bb:dd" (no function) in /sys/bus/pci/slots/NAME/address. */
static void append_slot(const char *sysfs_root, const char *bdf, char *out, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX + 300], addr[64];
	struct dirent *de;
	DIR *d;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/bus/pci/slots", sysfs_root);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/address", dir, de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(addr, sizeof(addr), f) && strncmp(addr, bdf, 10) == 0 &&
		    (addr[10] == '\n' || addr[10] == '\0')) {
			ou_appendf(out, len, ", slot %s", de->d_name);
			fclose(f);
			break;
		}
		fclose(f);
	}
	closedir(d);
}

static void append_names(int vid, int did, char *out, size_t len)
{
	struct pci_access *a = names();
	int flags = PCI_LOOKUP_NO_NUMBERS | (names_no_hwdb ? PCI_LOOKUP_NO_HWDB : 0);
	char vbuf[128], dbuf[256];
	const char *v = NULL, *d = NULL;

	if (a) {
		v = pci_lookup_name(a, vbuf, sizeof(vbuf), flags | PCI_LOOKUP_VENDOR, vid);
		d = pci_lookup_name(a, dbuf, sizeof(dbuf), flags | PCI_LOOKUP_DEVICE, vid, did);
	}
	if (v)
		ou_appendf(out, len, "%s ", v);
	if (d)
		ou_appendf(out, len, "%s ", d);
	ou_appendf(out, len, "[%04x:%04x]", vid, did);
}

int pci_describe_ids(const char *sysfs_root, const char *bdf, int vendor_id,
		     int device_id, char *out, size_t len)
{
	char full[13], dev_dir[PATH_MAX];
	int present;

	if (!out || len == 0)
		return -EINVAL;
	out[0] = '\0';
	if (normalise_bdf(bdf, full) < 0)
		return -EINVAL;
	if (!sysfs_root)
		sysfs_root = "/sys";
	snprintf(dev_dir, sizeof(dev_dir), "%s/bus/pci/devices/%s", sysfs_root, full);
	present = access(dev_dir, F_OK) == 0;
	if (present && vendor_id < 0)
		vendor_id = (int)read_hex_attr(dev_dir, "vendor");
	if (present && device_id < 0)
		device_id = (int)read_hex_attr(dev_dir, "device");
	if (vendor_id < 0 || device_id < 0 || vendor_id > 0xffff || device_id > 0xffff)
		return -ENODEV;
	append_names(vendor_id, device_id, out, len);
	if (present) {
		append_driver(dev_dir, out, len);
		append_slot(sysfs_root, full, out, len);
	}
	return 0;
}

int pci_describe_at(const char *sysfs_root, const char *bdf, char *out, size_t len)
{
	return pci_describe_ids(sysfs_root, bdf, -1, -1, out, len);
}

int pci_describe(const char *bdf, char *out, size_t len)
{
	return pci_describe_at("/sys", bdf, out, len);
}

static bool answer_fresh(const struct pci_name_answer *a, int64_t now_ns)
{
	if (a->uses >= PCI_NAME_CACHE_USES)
		return false;
	/* A clock that went back (or a first answer without one) is not trusted to age it. */
	return !now_ns || (now_ns >= a->asked_ns && now_ns - a->asked_ns < PCI_NAME_CACHE_NS);
}

static struct pci_name_answer *answer_of(struct pci_name_cache *c, const char *bdf, size_t len)
{
	for (unsigned i = 0; i < PCI_NAME_CACHE_SLOTS; i++) {
		struct pci_name_answer *a = &c->slot[i];

		if (a->bdf[0] && !strncmp(a->bdf, bdf, len) && a->bdf[len] == '\0')
			return a;
	}
	return NULL;
}

int pci_describe_cached(struct pci_name_cache *c, const char *sysfs_root, const char *bdf,
			size_t len, int64_t now_ns, const char **desc)
{
	struct pci_name_answer *a;

	if (!c || !bdf || !desc)
		return -EINVAL;
	/* A record's string field may carry its terminator in its length. */
	if (len >= sizeof(c->slot[0].bdf))
		return -ENAMETOOLONG;
	len = strnlen(bdf, len);
	if (len == 0)
		return -EINVAL;
	a = answer_of(c, bdf, len);
	if (!a || !answer_fresh(a, now_ns)) {
		if (!a) {
			a = &c->slot[c->next];
			c->next = (c->next + 1) % PCI_NAME_CACHE_SLOTS;
			memcpy(a->bdf, bdf, len);
			a->bdf[len] = '\0';
		}
		a->rc = pci_describe_at(sysfs_root, a->bdf, a->desc, sizeof(a->desc));
		a->uses = 0;
		a->asked_ns = now_ns;
		c->asked++;
	}
	a->uses++;
	*desc = a->desc;
	return a->rc;
}
