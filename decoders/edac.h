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

/*
 * The longest text the kernel hands over in ras:mc_event, NUL included
 * (__string fields: the trace event copies what the EDAC core was given).
 * label: struct edac_raw_error_desc's label[(EDAC_MC_LABEL_LEN 31 + 1 +
 *   sizeof(OTHER_LABEL " or ") 5) * EDAC_MAX_LABELS 8] = 296, filled by
 *   edac_mc_handle_error() (include/linux/edac.h, drivers/edac/edac_mc.c).
 * msg: the driver's own string; the longest buffers in-tree are 256 bytes
 *   (drivers/edac/synopsys_edac.c SYNPS_EDAC_MSG_SIZE, npcm_edac.c
 *   EDAC_MSG_SIZE; ghes_edac's is 80).
 * driver_detail (other_detail): skx_edac and i10nm_edac build it in
 *   skx_msg[MSG_SIZE 1024] (drivers/edac/skx_common.h), the ADXL component
 *   list and the retry_rd_err_log/correrrcnt suffixes included; ghes_edac's
 *   is OTHER_DETAIL_LEN 400.
 */
#define EDAC_LABEL_MAX 296
#define EDAC_MSG_MAX 256
#define EDAC_DETAIL_MAX 1024

struct edac_decoded {
	RAS_DECODED_HEAD;
	int64_t error_type;
	char error_type_name[16];
	int64_t error_count;
	int64_t mc_index;
	int64_t top_layer;          /* RAS_DF_NONE when -1 */
	int64_t middle_layer;
	int64_t lower_layer;
	char label[EDAC_LABEL_MAX];
	int64_t address;
	int64_t grain;              /* bytes, 1 << grain_bits */
	int64_t syndrome;
	char msg[EDAC_MSG_MAX];
	char driver_detail[EDAC_DETAIL_MAX];
};
RAS_DECODED_CHECK(struct edac_decoded);

extern const struct ras_dfield edac_dfields[];
extern const size_t edac_n_dfields;

int edac_decode(const struct edac_in *in, struct edac_decoded *out);
/*
 * The errors one mc_event stands for, in every view (buckets, summary,
 * edac, metrics): its error_count, and 1 when that is 0. The kernel's
 * edac_mc_handle_error() passes the driver's count through unchecked, and
 * the Intel drivers (sb_edac, skx_common) give MCi_STATUS[52:38], the
 * corrected-error counter, which is 0 where the hardware or the firmware did
 * not count; the record itself is the kernel's report of an error, so it is
 * one. (The kernel's own sysfs counters add error_count, 0 for such a record.)
 */
static inline int64_t edac_errors_of(int64_t error_count)
{
	return error_count > 1 ? error_count : 1;
}
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in edac_dfields alone (pure). Always NUL-terminates buf.
 */
void edac_render(const struct edac_decoded *d, char *buf, size_t len);
/* Whether label names a DIMM: not empty, nor the EDAC core's "any memory" or "unknown memory". */
bool edac_label_is_specific(const char *label);
/* "corrected", "uncorrected", "deferred", "fatal", "info" or NULL. */
const char *edac_error_type_name(uint32_t error_type);

#endif
