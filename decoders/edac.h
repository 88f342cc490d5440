/* SPDX-License-Identifier: MIT */
/* EDAC memory controller errors: the ras:mc_event tracepoint. */
#ifndef RAS_EDAC_H
#define RAS_EDAC_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "severity.h"
#include "dfield.h"

/* enum hw_event_mc_err_type, Linux include/linux/edac.h. */
#define EDAC_ERR_CORRECTED 0
#define EDAC_ERR_UNCORRECTED 1
#define EDAC_ERR_DEFERRED 2
#define EDAC_ERR_FATAL 3
#define EDAC_ERR_INFO 4

struct edac_in {
	uint32_t error_type;
	const char *msg;            /* strings: not necessarily NUL-terminated */
	size_t msg_len;
	const char *label;          /* DIMM label(s), "any memory" if unknown */
	size_t label_len;
	uint16_t error_count;
	uint8_t mc_index;
	int8_t top_layer, middle_layer, lower_layer;   /* -1: not applicable */
	int64_t address;
	uint8_t grain_bits;
	int64_t syndrome;
	const char *driver_detail;
	size_t driver_detail_len;
	/*
	 * Optional NUL-terminated names of the controller's layers ("csrow",
	 * "channel", "slot", ...), which are not in the event; NULL = unknown.
	 */
	const char *layer_name[3];
	/*
	 * Set by text sources that give only counts (rasdaemon's summaries):
	 * address, grain and syndrome unknown; with no_mc also the controller
	 * and layers (the DIMM label is all there is). A tracepoint has them all.
	 */
	unsigned no_address : 1, no_mc : 1;
};

struct edac_decoded {
	RAS_DECODED_HEAD;
	int64_t error_type;
	char error_type_name[16];
	int64_t error_count;
	int64_t mc_index;
	int64_t top_layer;          /* RAS_DF_NONE when -1 */
	int64_t middle_layer;
	int64_t lower_layer;
	char label[96];
	int64_t address;
	int64_t grain;              /* bytes, 1 << grain_bits */
	int64_t syndrome;
	char msg[128];
	char driver_detail[192];
};
RAS_DECODED_CHECK(struct edac_decoded);

extern const struct ras_dfield edac_dfields[];
extern const size_t edac_n_dfields;

int edac_decode(const struct edac_in *in, struct edac_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in edac_dfields alone (pure). Always NUL-terminates buf.
 */
void edac_render(const struct edac_decoded *d, char *buf, size_t len);
/* "corrected", "uncorrected", "deferred", "fatal", "info" or NULL. */
const char *edac_error_type_name(uint32_t error_type);

#endif
