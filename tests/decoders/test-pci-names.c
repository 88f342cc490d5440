/* SPDX-License-Identifier: MIT */
/* Tests of pci_describe() against a fake sysfs tree and a small pci.ids. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/pci_names.h"
#include "tests/tap.h"

static char root[64];

static void put_file(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *rel)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/* pci.ids syntax: vendor lines, then tab-indented device lines (pci.ids header). */
static const char ids[] =
	"# test subset\n"
	"144d  Samsung Electronics Co Ltd\n"
	"8086  Intel Corporation\n"
	"\ta110  Fake Root Port\n";

static void build_tree(void)
{
	char path[512], target[512];

	mkdirs("bus/pci/devices/0000:03:00.0");
	mkdirs("bus/pci/devices/0000:00:1c.0");
	mkdirs("bus/pci/devices/0000:00:1d.0");
	mkdirs("bus/pci/drivers/nvme");
	mkdirs("bus/pci/slots/5");
	mkdirs("bus/pci/slots/7");
	put_file("bus/pci/devices/0000:03:00.0/vendor", "0x144d\n");
	put_file("bus/pci/devices/0000:03:00.0/device", "0xa808\n");
	put_file("bus/pci/devices/0000:00:1c.0/vendor", "0x8086\n");
	put_file("bus/pci/devices/0000:00:1c.0/device", "0xa110\n");
	put_file("bus/pci/devices/0000:00:1d.0/vendor", "garbage\n");
	put_file("bus/pci/slots/7/address", "0000:04:00\n");
	put_file("bus/pci/slots/5/address", "0000:03:00\n");
	put_file("pci.ids", ids);
	snprintf(path, sizeof(path), "%s/bus/pci/devices/0000:03:00.0/driver", root);
	snprintf(target, sizeof(target), "../../../../bus/pci/drivers/nvme");
	if (symlink(target, path) < 0)
		perror("symlink");
}

static void cleanup_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", root);
}

#define SEC (1000000000LL)

/* The cache gives what pci_describe_at gives, asks sysfs once per device for a while, and sees hot-plug. */
static void cached(void)
{
	static struct pci_name_cache c;
	const char *desc = NULL;
	char out[256], name[32];
	int64_t t = 1000 * SEC;

	pci_describe_at(root, "0000:03:00.0", out, sizeof(out));
	tap_is_int(pci_describe_cached(&c, root, "0000:03:00.0", 12, t, &desc), 0, "cached: present device");
	tap_is_str(desc, out, "cached: the uncached answer");
	for (int i = 0; i < 100; i++)
		pci_describe_cached(&c, root, "0000:03:00.0", 12, t + i, &desc);
	tap_is_int((int)c.asked, 1, "cached: 101 records of one device, sysfs asked once");
	tap_is_int(pci_describe_cached(&c, root, "0000:05:00.0", 13, t, &desc), -ENODEV,
		   "cached: an absent device's answer, terminator in the length");
	pci_describe_cached(&c, root, "0000:05:00.0", 12, t, &desc);
	tap_is_int((int)c.asked, 2, "cached: an absence is kept too");
	pci_describe_cached(&c, root, "0000:03:00.0", 12, t, &desc);
	tap_is_str(desc, out, "cached: another device's answer does not spoil the first");
	tap_is_int(pci_describe_cached(&c, root, "0000:03:00.0/..", 15, t, &desc), -EINVAL,
		   "cached: a malformed name, as uncached");
	tap_is_int(pci_describe_cached(&c, root, "", 0, t, &desc), -EINVAL, "cached: an empty name");

	/* Hot-plug: seen when the answer ages, by the clock or by uses. */
	mkdirs("bus/pci/devices/0000:05:00.0");
	put_file("bus/pci/devices/0000:05:00.0/vendor", "0x8086\n");
	put_file("bus/pci/devices/0000:05:00.0/device", "0xa110\n");
	tap_is_int(pci_describe_cached(&c, root, "0000:05:00.0", 12, t + PCI_NAME_CACHE_NS - 1, &desc),
		   -ENODEV, "cached: a device plugged in is not seen before the answer ages");
	tap_is_int(pci_describe_cached(&c, root, "0000:05:00.0", 12, t + PCI_NAME_CACHE_NS, &desc), 0,
		   "cached: it is once the answer is PCI_NAME_CACHE_NS old");
	tap_is_str(desc, "Intel Corporation Fake Root Port [8086:a110]", "cached: its names");
	tap_is_int(pci_describe_cached(&c, root, "0000:05:00.0", 12, t - SEC, &desc), 0,
		   "cached: a clock that went back asks again");
	put_file("bus/pci/devices/0000:05:00.0/vendor", "garbage\n");
	for (int i = 0; i < PCI_NAME_CACHE_USES - 1; i++)
		pci_describe_cached(&c, root, "0000:05:00.0", 12, 0, &desc);
	tap_is_str(desc, "Intel Corporation Fake Root Port [8086:a110]", "cached: without a clock, kept for its uses");
	tap_is_int(pci_describe_cached(&c, root, "0000:05:00.0", 12, 0, &desc), -ENODEV,
		   "cached: then asked again (the device changed)");

	/* Bounded: more devices than slots reuse them, each answer still right. */
	c.asked = 0;
	for (int i = 0; i < 2 * PCI_NAME_CACHE_SLOTS; i++) {
		snprintf(name, sizeof(name), "0000:%02x:00.0", 0x40 + i);
		pci_describe_cached(&c, root, name, strlen(name), t, &desc);
	}
	tap_is_int(pci_describe_cached(&c, root, "0000:03:00.0", 12, t, &desc), 0,
		   "cached: after the slots were reused");
	tap_is_str(desc, out, "cached: the device asked again gives the same answer");
	tap_is_int((int)c.asked, 2 * PCI_NAME_CACHE_SLOTS + 1, "cached: every new device asked once");
}

int main(void)
{
	char out[256], path[512];

	snprintf(root, sizeof(root), "/tmp/ras-pci-XXXXXX");
	if (!mkdtemp(root))
		tap_skip_all("mkdtemp failed");
	build_tree();
	snprintf(path, sizeof(path), "%s/pci.ids", root);
	tap_is_int(pci_names_set_ids_file(path), 0, "use test pci.ids");

	tap_is_int(pci_describe_at(root, "0000:03:00.0", out, sizeof(out)), 0, "present device");
	tap_is_str(out, "Samsung Electronics Co Ltd [144d:a808], driver nvme, slot 5",
		   "vendor name, unknown device, driver and slot");
	tap_is_int(pci_describe_at(root, "00:1c.0", out, sizeof(out)), 0, "bare bus:dev.fn");
	tap_is_str(out, "Intel Corporation Fake Root Port [8086:a110]", "vendor and device names");
	tap_is_int(pci_describe_ids(root, "0000:05:00.0", 0x8086, 0xa110, out, sizeof(out)), 0,
		   "absent device with IDs from the log");
	tap_is_str(out, "Intel Corporation Fake Root Port [8086:a110]", "names without sysfs");
	tap_is_int(pci_describe_ids(root, "0000:05:00.0", 0x1234, 0x5678, out, sizeof(out)), 0,
		   "unknown vendor");
	tap_is_str(out, "[1234:5678]", "unknown IDs stay numeric");
	tap_is_int(pci_describe_at(root, "0000:05:00.0", out, sizeof(out)), -ENODEV,
		   "absent device without IDs");
	tap_is_int(pci_describe_at(root, "0000:00:1d.0", out, sizeof(out)), -ENODEV,
		   "malformed vendor attribute");
	tap_is_int(pci_describe_at(root, "0000:00:1c", out, sizeof(out)), -EINVAL, "malformed bdf");
	tap_is_int(pci_describe_at(root, "0000:00:20.0", out, sizeof(out)), -EINVAL, "device > 31");
	tap_is_int(pci_describe_at(root, NULL, out, sizeof(out)), -EINVAL, "NULL bdf");
	/* A record's device name never reaches a path as it is: only the numbers parsed (issue 31). */
	tap_is_int(pci_describe_at(root, "0000:03:00.0/../../../../etc", out, sizeof(out)), -EINVAL,
		   "a bdf followed by a path");
	tap_is_int(pci_describe_at(root, "../../../etc", out, sizeof(out)), -EINVAL, "a path for a bdf");
	tap_is_int(pci_describe_at(root, "0000:03:00.0", out, 0), -EINVAL, "zero-length buffer");
	tap_is_int(pci_describe_at(root, "0000:03:00.0", out, 12), 0, "short buffer");
	tap_is_str(out, "Samsung Ele", "truncated, terminated");
	cached();
	tap_is_int(pci_names_set_ids_file(NULL), 0, "back to the default database");
	pci_names_cleanup();
	cleanup_tree();
	return tap_done();
}
