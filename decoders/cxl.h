/* SPDX-License-Identifier: MIT */
/*
 * CXL RAS tracepoints of the cxl_core module (drivers/cxl/core/trace.h):
 * cxl_aer_uncorrectable_error, cxl_aer_correctable_error, cxl_overflow,
 * cxl_generic_event, cxl_general_media, cxl_dram, cxl_memory_module,
 * cxl_memory_sparing and cxl_poison. One input struct covers them all; fields vary by kernel, so
 * every number has a presence bit and can be set by its tracepoint name.
 */
#ifndef RAS_CXL_H
#define RAS_CXL_H

#include <stddef.h>
#include <stdint.h>
#include "severity.h"
#include "dfield.h"

/* Numeric tracepoint fields, by their names in the format files. */
enum cxl_field {
	CXL_F_SERIAL, CXL_F_STATUS, CXL_F_FIRST_ERROR, CXL_F_LOG,
	CXL_F_HDR_FLAGS, CXL_F_HDR_HANDLE, CXL_F_HDR_TIMESTAMP,
	CXL_F_HDR_MAINT_OP_CLASS, CXL_F_DPA, CXL_F_DPA_FLAGS, CXL_F_HPA,
	CXL_F_DESCRIPTOR, CXL_F_TYPE, CXL_F_SUB_TYPE, CXL_F_TRANSACTION_TYPE,
	CXL_F_CHANNEL, CXL_F_RANK, CXL_F_DEVICE, CXL_F_VALIDITY_FLAGS,
	CXL_F_NIBBLE_MASK, CXL_F_BANK_GROUP, CXL_F_BANK, CXL_F_ROW,
	CXL_F_COLUMN, CXL_F_EVENT_TYPE, CXL_F_HEALTH_STATUS,
	CXL_F_MEDIA_STATUS, CXL_F_LIFE_USED, CXL_F_DIRTY_SHUTDOWN_CNT,
	CXL_F_COR_VOL_ERR_CNT, CXL_F_COR_PER_ERR_CNT, CXL_F_DEVICE_TEMP,
	CXL_F_ADD_STATUS, CXL_F_TRACE_TYPE, CXL_F_SOURCE, CXL_F_FLAGS,
	CXL_F_DPA_LENGTH, CXL_F_OVERFLOW_TS, CXL_F_COUNT, CXL_F_FIRST_TS,
	CXL_F_LAST_TS, CXL_F_CME_THRESHOLD_EV_FLAGS, CXL_F_SUB_CHANNEL,
	CXL_F_HDR_MAINT_OP_SUB_CLASS, CXL_F_RESULT, CXL_F_RES_AVAIL,
	CXL_F_N
};

struct cxl_in {
	const char *event;        /* tracepoint name, e.g. "cxl_general_media" */
	size_t event_len;
	const char *memdev;       /* strings: not necessarily NUL-terminated */
	size_t memdev_len;
	const char *host;
	size_t host_len;
	const char *region;       /* "region" (poison) or "region_name" */
	size_t region_len;
	uint64_t has;             /* bit (1 << CXL_F_x) set when value[x] is known */
	int64_t value[CXL_F_N];
};

/* Sets a numeric field by its tracepoint name; -ENOENT if not one we use. */
int cxl_in_set(struct cxl_in *in, const char *field, int64_t value);
/* Tracepoint name of a field. */
const char *cxl_field_name(enum cxl_field f);

struct cxl_decoded {
	RAS_DECODED_HEAD;
	char event[40];
	/*
	 * Device names from drivers/cxl/core/trace.h: memdev "mem%d"
	 * (core/memdev.c), region "region%d" (core/region.c), host the memdev's
	 * parent, a PCI device (pci_name(), at most 16) or cxl_test's platform
	 * "cxl_mem.%d": at most 20 characters; held with room to spare.
	 */
	char memdev[32];
	char host[64];
	char region[32];
	int64_t serial;
	int64_t log;
	char log_name[16];
	int64_t status;
	char errors[320];         /* RAS capability status bit names */
	char first_error_name[64];
	int64_t dpa;
	int64_t hpa;
	char record_type[48];     /* event / memory event / poison trace type name */
	char descriptor_names[80];
	char transaction_name[40];
	int64_t channel, rank, device, bank_group, bank, row, column;
	char health_status_names[96];
	char media_status_name[64];
	int64_t life_used;
	int64_t device_temp;
	char hdr_flag_names[128];
	char poison_source[16];
	char detail[320];         /* everything else worth a word */
	/*
	 * 1: the device says its own corrected-error threshold was met (a
	 * General Media or DRAM record's Threshold Event descriptor without
	 * Uncorrectable Event, or Exceeded Programmable Threshold); rasd acts
	 * on the page at once. 0: it does not; RAS_DF_NONE: not told.
	 */
	int64_t device_threshold;
	int64_t spares;           /* memory sparing: spare resources available */
};
RAS_DECODED_CHECK(struct cxl_decoded);

extern const struct ras_dfield cxl_dfields[];
extern const size_t cxl_n_dfields;

int cxl_decode(const struct cxl_in *in, struct cxl_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in cxl_dfields alone (pure). Always NUL-terminates buf.
 */
void cxl_render(const struct cxl_decoded *d, char *buf, size_t len);
/*
 * RAS capability status bit names (CXL r3.1 8.2.4.17.1 Uncorrectable /
 * 8.2.4.17.4 Correctable Error Status), ", "-joined; 0 or -EINVAL.
 */
int cxl_decode_status(uint32_t status, int correctable, char *out, size_t len);

/*
 * The tracepoint input of a CXL component event carried as a CPER section
 * (General Media, DRAM or Memory Module; UEFI 2.10 N.2.14): guid is the
 * section type, p[0..n) its body. host (host_len bytes, which in->host then
 * points to) gets the device's segment:bus:device.function, "" if not
 * valid. 0; -ENOENT for another section type; -EBADMSG if the body is
 * short or holds no event record.
 */
int cxl_cper_event_in(const uint8_t guid[16], const uint8_t *p, size_t n, struct cxl_in *in,
		      char *host, size_t host_len);

#endif
