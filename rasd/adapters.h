/* SPDX-License-Identifier: MIT */
/* Adapters from extracted tracepoint fields to the pure decoders in decoders/. */
#ifndef RAS_ADAPTERS_H
#define RAS_ADAPTERS_H

#include "event_table.h"

#define RAS_DECLARE_ADAPTER(name)                                   \
	extern const struct ras_dfield name##_dfields[];             \
	extern const size_t name##_n_dfields;                        \
	int adapt_##name(const struct ras_event_type *type,          \
			 const struct ras_value *values, void *out)

RAS_DECLARE_ADAPTER(mce);
RAS_DECLARE_ADAPTER(edac);
RAS_DECLARE_ADAPTER(aer);
RAS_DECLARE_ADAPTER(extlog);
RAS_DECLARE_ADAPTER(nonstd);
RAS_DECLARE_ADAPTER(arm);
RAS_DECLARE_ADAPTER(memfail);
RAS_DECLARE_ADAPTER(devlink);
RAS_DECLARE_ADAPTER(blockerr);
RAS_DECLARE_ADAPTER(cxl);

/* The DIMM label configured for an EDAC location, or NULL. */
typedef const char *(*ras_label_lookup_fn)(int mc, int top, int mid, int low);

/* Memory-failure page types come from the running kernel's print fmt. */
void ras_adapters_set_memfail_format(const char *format_text, size_t len);
/* Reads what the adapters need from the loaded formats (the memory-failure symbols). */
struct ras_formats;
void ras_adapters_prepare(const struct ras_formats *f);
/* Where PCI devices are looked up; lookups off for replays from another machine. */
void ras_adapters_set_pci(const char *sysfs_root, bool lookups);
void ras_adapters_set_label_lookup(ras_label_lookup_fn fn);
/* Whether decoders that can skip it build the sentence (default yes). */
void ras_adapters_want_summary(bool want);
/* Labels come from the files loaded by edac_daemon_load_labels(). */
void ras_adapters_use_label_files(void);

#endif
