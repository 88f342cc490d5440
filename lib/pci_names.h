/* SPDX-License-Identifier: MIT */
/*
 * Human names for a PCI device: vendor and device from the PCI ID database
 * (libpci, pci.ids) and, when the device exists on this machine, its driver
 * and physical slot from sysfs. Used to make AER reports readable.
 *
 * Not thread-safe: the ID database is loaded once and cached.
 */
#ifndef RAS_PCI_NAMES_H
#define RAS_PCI_NAMES_H

#include <stddef.h>

/*
 * Writes e.g. "Intel Corporation Sunrise Point-LP PCI Express Root Port #5
 * [8086:9d14], driver pcieport, slot 3" for bdf "0000:00:1c.4" (a bare
 * "00:1c.4" means domain 0). Returns 0, -EINVAL for a malformed bdf or
 * buffer, -ENODEV if the device is not present so its IDs are unknown.
 */
int pci_describe(const char *bdf, char *out, size_t len);
/* The same with another sysfs mount point (tests, chroots): "/sys" by default. */
int pci_describe_at(const char *sysfs_root, const char *bdf, char *out, size_t len);
/*
 * The same for a device that may be absent (a log from another boot):
 * vendor_id/device_id from the caller, or -1 to read them from sysfs.
 */
int pci_describe_ids(const char *sysfs_root, const char *bdf, int vendor_id,
		     int device_id, char *out, size_t len);
/*
 * Uses another pci.ids file (tests), or the libpci default for NULL; this
 * also turns udev hwdb lookups off so results come from that file only.
 * Returns 0 or -ENOMEM.
 */
int pci_names_set_ids_file(const char *path);
/* Frees the cached ID database. */
void pci_names_cleanup(void);

#endif
