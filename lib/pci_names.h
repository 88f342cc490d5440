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
#include <stdint.h>

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
/*
 * pci_describe_at's answers kept per device, so that a storm of AER records
 * does not ask sysfs again for every record (issue 39). Bounded: the slots
 * are reused in turn. An answer is asked again after PCI_NAME_CACHE_USES
 * uses or PCI_NAME_CACHE_NS on the caller's monotonic clock, so a device
 * hot-plugged in or out is seen within that: the uncached answer is already
 * the one at decoding, not at the error (a record is read a tick or a whole
 * boot later), and the name is only a reader's aid next to the bdf.
 */
#define PCI_NAME_CACHE_SLOTS 16
#define PCI_NAME_CACHE_USES 1024
#define PCI_NAME_CACHE_NS (10 * 1000000000LL)

struct pci_name_cache {
	struct pci_name_answer {
		char bdf[64];            /* as the record gave it; "" an unused slot */
		char desc[256];
		int rc;                  /* pci_describe_at's return */
		uint32_t uses;
		int64_t asked_ns;        /* the caller's clock when asked */
	} slot[PCI_NAME_CACHE_SLOTS];
	unsigned next;               /* the slot reused next */
	uint64_t asked;              /* pci_describe_at calls made (tests count them) */
};

/*
 * pci_describe_at's answer for bdf (len bytes, or up to a NUL), from the cache
 * while fresh. now_ns: a monotonic clock the caller already read, or 0 to age
 * answers by uses alone. Returns pci_describe_at's value; on 0, *desc is the
 * description (valid until the next call). -ENAMETOOLONG: bdf too long to be one.
 */
int pci_describe_cached(struct pci_name_cache *c, const char *sysfs_root, const char *bdf,
			size_t len, int64_t now_ns, const char **desc);
/* Frees the cached ID database. */
void pci_names_cleanup(void);

#endif
