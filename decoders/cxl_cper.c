/* SPDX-License-Identifier: MIT */
/*
 * CXL component events carried in CPER (UEFI 2.10 N.2.14, the CXL
 * Component Events Section: a header with the device's id and serial
 * number, then the CXL r3.1 8.2.9.2.1 event record without its UUID, which
 * the section type gives). Linux prints them as sections of unknown type
 * with a hex dump and hands them to the cxl driver, which traces them as
 * cxl_general_media, cxl_dram and cxl_memory_module events; this builds the
 * same tracepoint input (layouts: Linux include/cxl/event.h, struct
 * cxl_cper_event_rec; the log is the record's own severity, flags bits 1:0,
 * as the driver takes it for CPER records).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cxl.h"
#include "cper.h"
#include "other_util.h"

#define HDR 32           /* length, validation bits, device id, serial number */
#define DEVID_VALID 1u
#define SERIAL_VALID 2u
#define LOG_VALID 4u

static uint32_t le24(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

/* A field of the record: its tracepoint name, offset after the CPER header, and size. */
struct rec_field {
	const char *name;
	uint8_t off, bytes;
};

static const struct rec_field gm_fields[] = {
	{ "descriptor", 40, 1 }, { "type", 41, 1 }, { "transaction_type", 42, 1 },
	{ "validity_flags", 43, 2 }, { "channel", 45, 1 }, { "rank", 46, 1 }, { "device", 47, 3 },
	{ "sub_type", 70, 1 },
};
static const struct rec_field dram_fields[] = {
	{ "descriptor", 40, 1 }, { "type", 41, 1 }, { "transaction_type", 42, 1 },
	{ "validity_flags", 43, 2 }, { "channel", 45, 1 }, { "rank", 46, 1 },
	{ "nibble_mask", 47, 3 }, { "bank_group", 50, 1 }, { "bank", 51, 1 }, { "row", 52, 3 },
	{ "column", 55, 2 },
};
static const struct rec_field module_fields[] = {
	{ "event_type", 32, 1 }, { "health_status", 33, 1 }, { "media_status", 34, 1 },
	{ "add_status", 35, 1 }, { "life_used", 36, 1 }, { "device_temp", 37, 2 },
	{ "dirty_shutdown_cnt", 39, 4 }, { "cor_vol_err_cnt", 43, 4 }, { "cor_per_err_cnt", 47, 4 },
};

static const struct {
	const char *section, *event;
	const struct rec_field *fields;
	size_t n_fields;
	size_t len;          /* bytes of the record this reads, after the CPER header */
	bool media;          /* has the physical address at 32 */
} kinds[] = {
	{ "CXL General Media Event", "cxl_general_media", gm_fields, OU_ARRAY_SIZE(gm_fields), 71, true },
	{ "CXL DRAM Event", "cxl_dram", dram_fields, OU_ARRAY_SIZE(dram_fields), 57, true },
	{ "CXL Memory Module Event", "cxl_memory_module", module_fields, OU_ARRAY_SIZE(module_fields), 51, false },
};

static void set_field(struct cxl_in *in, const char *name, const uint8_t *p, unsigned bytes)
{
	int64_t v = bytes == 1 ? p[0] : bytes == 2 ? ou_le16(p) : bytes == 3 ? le24(p) : ou_le32(p);

	cxl_in_set(in, name, v);
}

int cxl_cper_event_in(const uint8_t guid[16], const uint8_t *p, size_t n, struct cxl_in *in,
		      char *host, size_t host_len)
{
	const char *section = cper_section_name(guid);
	const uint8_t *r;
	uint64_t valid;
	size_t k;

	if (!in || !p || !host || !host_len)
		return -EINVAL;
	for (k = 0; k < OU_ARRAY_SIZE(kinds); k++)
		if (section && strcmp(section, kinds[k].section) == 0)
			break;
	if (k == OU_ARRAY_SIZE(kinds))
		return -ENOENT;
	valid = n >= HDR ? ou_le64(p + 4) : 0;
	if (n < HDR + kinds[k].len || !(valid & LOG_VALID))
		return -EBADMSG;
	memset(in, 0, sizeof(*in));
	in->event = kinds[k].event;
	in->event_len = strlen(kinds[k].event);
	host[0] = '\0';
	if (valid & DEVID_VALID)
		snprintf(host, host_len, "%04x:%02x:%02x.%x", ou_le16(p + 19), p[18], p[17], p[16] & 7);
	in->host = host;
	in->host_len = strlen(host);
	if (valid & SERIAL_VALID)
		cxl_in_set(in, "serial", (int64_t)ou_le64(p + 24));
	r = p + HDR;
	cxl_in_set(in, "hdr_flags", le24(r + 1));
	cxl_in_set(in, "log", le24(r + 1) & 3);
	cxl_in_set(in, "hdr_handle", ou_le16(r + 4));
	cxl_in_set(in, "hdr_timestamp", (int64_t)ou_le64(r + 8));
	cxl_in_set(in, "hdr_maint_op_class", r[16]);
	if (kinds[k].media) {
		/* Physical Address: the DPA in bits 63:6, its flags in 1:0 (CXL r3.1 Table 8-45). */
		cxl_in_set(in, "dpa", (int64_t)(ou_le64(r + 32) & ~UINT64_C(0x3f)));
		cxl_in_set(in, "dpa_flags", (int64_t)(ou_le64(r + 32) & 3));
	}
	for (size_t i = 0; i < kinds[k].n_fields; i++)
		set_field(in, kinds[k].fields[i].name, r + kinds[k].fields[i].off, kinds[k].fields[i].bytes);
	return 0;
}
