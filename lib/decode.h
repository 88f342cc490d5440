/* SPDX-License-Identifier: MIT */
/*
 * Decoding a record: extracted tracepoint fields → a decoder's structured
 * output. Everything that depends on the machine (PCI names, DIMM labels,
 * EDAC layer names, the kernel's memory-failure symbols) comes from an
 * explicit context, never from process-wide state, so a decoding depends only
 * on its arguments. Adapters live in decode.c, one per decoder.
 */
#ifndef RAS_DECODE_H
#define RAS_DECODE_H

#include <stdbool.h>
#include "event_table.h"
#include "decoders/mce.h"
#include "decoders/memfail.h"
#include "edac_sysfs.h"
#include "pci_names.h"

struct dimm_labels;
struct ras_formats;
struct ras_cpu_map;

#define RAS_DECODE_MAX_MCS 64

/* The names of each controller's EDAC layers ("channel", "slot", "csrow"...). */
struct ras_edac_layer_names {
	char name[RAS_DECODE_MAX_MCS][EDAC_MAX_LAYERS][EDAC_NAME_LEN];
};

/*
 * What a decoding may look up. A zeroed context looks nothing up: records
 * decode from their own fields alone (a database read on another machine).
 */
struct ras_decode_ctx {
	const char *pci_sysfs_root;            /* NULL: no PCI name lookups */
	const struct dimm_labels *labels;      /* configured DIMM labels, or NULL */
	bool have_layers;
	struct ras_edac_layer_names layers;
	bool have_memfail;
	struct memfail_symtab memfail;         /* the running kernel's page types */
	struct pci_name_cache pci_cache;       /* PCI answers per device (pci_names.h) */
	int64_t now_ns;                        /* the caller's monotonic clock, 0: none (ages the cache) */
	char soc_id[64];                       /* /sys/devices/soc0/soc_id: whose ARM vendor data */
	/* ARM MPIDR -> logical CPU (lib/cpu_map.h) under this root, read at the first need; NULL: none. */
	const char *cpu_sysfs_root;
	struct ras_cpu_map *cpu_map;
	bool cpu_map_read;
	struct mce_model_memo mce_memo;        /* the MCE decoder's model lookups (decoders/mce.h) */
};

#define RAS_DECLARE_ADAPTER(name)                                              \
	extern const struct ras_dfield name##_dfields[];                        \
	extern const size_t name##_n_dfields;                                   \
	int adapt_##name(const struct ras_event_type *type,                     \
			 const struct ras_value *values, struct ras_decode_ctx *ctx, void *out); \
	void render_##name(const void *decoded, char *buf, size_t len)

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
RAS_DECLARE_ADAPTER(sigbus);
RAS_DECLARE_ADAPTER(netdev);

void ras_decode_ctx_init(struct ras_decode_ctx *ctx);
/* Frees what the context read (the CPU map); it can be used again, reading anew. */
void ras_decode_ctx_release(struct ras_decode_ctx *ctx);
/* The logical CPU of an ARM MPIDR on this machine, or -1 (no cpu_sysfs_root, or not found). */
int ras_decode_ctx_cpu_of_mpidr(struct ras_decode_ctx *ctx, uint64_t mpidr);
/* Reads the memory-failure symbols from a format's print fmt (text of a format file). */
void ras_decode_ctx_set_memfail_format(struct ras_decode_ctx *ctx, const char *text, size_t len);
/* The same from the loaded formats, when they include ras:memory_failure_event. */
void ras_decode_ctx_load_memfail(struct ras_decode_ctx *ctx, const struct ras_formats *f);
/*
 * Reads the SoC's id from SYSFS/devices/soc0/soc_id ("jep106:0a16:0001"), which
 * tells whose layout an ARM processor error's vendor data has; "" when absent.
 */
void ras_decode_ctx_load_soc(struct ras_decode_ctx *ctx, const char *sysfs_root);
/* Remembers the layer names of an EDAC topology. */
void ras_decode_ctx_set_layers(struct ras_decode_ctx *ctx, const struct edac_topology *t);
/* The name of a controller's layer, or NULL when unknown. */
const char *ras_decode_layer_name(const struct ras_decode_ctx *ctx, int mc, int layer);

/*
 * Decodes extracted values into out (a buffer of RAS_DECODED_MAX bytes). ctx
 * may be NULL: nothing is looked up. Returns the decoder's result.
 */
int ras_decode_values(const struct ras_event_type *type, const struct ras_value *values,
		      struct ras_decode_ctx *ctx, void *out);

/*
 * The sentence for a decoded struct of type t (out of ras_decode_values, or
 * rebuilt from a database row): the decoder's renderer, or "<title> (could
 * not be decoded)" when nothing is known. Pure; always NUL-terminates.
 */
void ras_render(const struct ras_event_type *t, const void *decoded, char *buf, size_t len);

#endif
