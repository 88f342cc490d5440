/* SPDX-License-Identifier: MIT */
/* The 16 bytes of a SEL entry (sel_entry.h has the layout, field by field). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sel_entry.h"

struct sel_kind {
	enum bmc_sel_part part;
	enum bmc_sel_what what;
	uint8_t type, offset;
	const char *words;
};

/* IPMI 2.0 sensor types and their sensor-specific offsets (sel_entry.h). */
static const struct sel_kind sel_kinds[] = {
	{ BMC_SEL_MEMORY, BMC_SEL_UNCORRECTED, BMC_SEL_TYPE_MEMORY, 0x01,
	  "memory: uncorrectable ECC" },
	{ BMC_SEL_MEMORY, BMC_SEL_FATAL, BMC_SEL_TYPE_MEMORY, 0x01, "memory: uncorrectable ECC" },
	{ BMC_SEL_MEMORY, BMC_SEL_THRESHOLD, BMC_SEL_TYPE_MEMORY, 0x05,
	  "memory: correctable ECC logging limit reached" },
	{ BMC_SEL_PROCESSOR, BMC_SEL_UNCORRECTED, BMC_SEL_TYPE_PROCESSOR, 0x0b,
	  "processor: uncorrectable machine check exception" },
	{ BMC_SEL_PROCESSOR, BMC_SEL_FATAL, BMC_SEL_TYPE_PROCESSOR, 0x0b,
	  "processor: uncorrectable machine check exception" },
	{ BMC_SEL_PROCESSOR, BMC_SEL_THRESHOLD, BMC_SEL_TYPE_PROCESSOR, 0x0c,
	  "processor: correctable machine check error" },
	{ BMC_SEL_BUS, BMC_SEL_UNCORRECTED, BMC_SEL_TYPE_CRITICAL_INTERRUPT, 0x08,
	  "critical interrupt: bus uncorrectable error" },
	{ BMC_SEL_BUS, BMC_SEL_FATAL, BMC_SEL_TYPE_CRITICAL_INTERRUPT, 0x0a,
	  "critical interrupt: bus fatal error" },
	{ BMC_SEL_BUS, BMC_SEL_THRESHOLD, BMC_SEL_TYPE_CRITICAL_INTERRUPT, 0x07,
	  "critical interrupt: bus correctable error" },
};

#define N_KINDS (sizeof(sel_kinds) / sizeof(sel_kinds[0]))

int bmc_sel_encode(const struct bmc_sel_event *e, uint8_t out[BMC_SEL_ENTRY_LEN])
{
	const struct sel_kind *k = NULL;

	for (size_t i = 0; i < N_KINDS && !k; i++)
		if (sel_kinds[i].part == e->part && sel_kinds[i].what == e->what)
			k = &sel_kinds[i];
	if (!k)
		return -EINVAL;
	out[0] = 0;                  /* record ID: the BMC's to give */
	out[1] = 0;
	out[2] = BMC_SEL_RECORD_SYSTEM;
	out[3] = (uint8_t)(e->time_s & 0xff);
	out[4] = (uint8_t)(e->time_s >> 8 & 0xff);
	out[5] = (uint8_t)(e->time_s >> 16 & 0xff);
	out[6] = (uint8_t)(e->time_s >> 24 & 0xff);
	out[7] = BMC_SEL_GENERATOR_SOFTWARE;
	out[8] = 0;                  /* channel 0, LUN 0 */
	out[9] = BMC_SEL_EVM_REV;
	out[10] = k->type;
	out[11] = BMC_SEL_NO_SENSOR;
	out[12] = BMC_SEL_SENSOR_SPECIFIC;   /* bit 7 clear: an assertion */
	out[13] = (uint8_t)(BMC_SEL_DATA1_OEM23 | k->offset);
	out[14] = (uint8_t)(e->ref >> 8);
	out[15] = (uint8_t)(e->ref & 0xff);
	return 0;
}

static const struct {
	const char *table;
	enum bmc_sel_part part;
} table_parts[] = {
	{ "mc_event", BMC_SEL_MEMORY },
	{ "extlog_mem_event", BMC_SEL_MEMORY },
	{ "memory_failure_event", BMC_SEL_MEMORY },
	{ "cxl_general_media", BMC_SEL_MEMORY },
	{ "cxl_dram", BMC_SEL_MEMORY },
	{ "cxl_poison", BMC_SEL_MEMORY },
	{ "cxl_memory_module", BMC_SEL_MEMORY },
	{ "mce_record", BMC_SEL_PROCESSOR },
	{ "arm_event", BMC_SEL_PROCESSOR },
	{ "aer_event", BMC_SEL_BUS },
	{ "cxl_aer_uncorrectable_error", BMC_SEL_BUS },
	{ "cxl_aer_correctable_error", BMC_SEL_BUS },
};

enum bmc_sel_part bmc_sel_part_of_table(const char *table)
{
	for (size_t i = 0; i < sizeof(table_parts) / sizeof(table_parts[0]); i++)
		if (!strcmp(table, table_parts[i].table))
			return table_parts[i].part;
	return BMC_SEL_NONE;
}

enum bmc_sel_part bmc_sel_part_of_kind(const char *kind)
{
	if (!strcmp(kind, "page") || !strcmp(kind, "row") || !strcmp(kind, "dimm"))
		return BMC_SEL_MEMORY;
	if (!strcmp(kind, "cpu"))
		return BMC_SEL_PROCESSOR;
	if (!strcmp(kind, "device"))
		return BMC_SEL_BUS;
	return BMC_SEL_NONE;
}

const char *bmc_sel_words(const uint8_t entry[BMC_SEL_ENTRY_LEN])
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (entry[10] == sel_kinds[i].type && (entry[13] & 0x0f) == sel_kinds[i].offset)
			return sel_kinds[i].words;
	return NULL;
}

void bmc_sel_hex(const uint8_t e[BMC_SEL_ENTRY_LEN], char *out, size_t len)
{
	/* Grouped as the fields: ID, type, timestamp, generator, rev, sensor, dir, data. */
	snprintf(out, len, "%02x%02x %02x %02x%02x%02x%02x %02x%02x %02x %02x%02x %02x %02x%02x%02x",
		 e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8], e[9], e[10], e[11], e[12],
		 e[13], e[14], e[15]);
}

static const struct {
	unsigned code;
	const char *words;
} completions[] = {
	{ 0x00, "success" },
	/* Add SEL Entry's own codes. */
	{ 0x80, "operation not supported for this record type" },
	{ 0x81, "SEL erase in progress" },
	{ 0xc0, "node busy" },
	{ 0xc1, "invalid command" },
	{ 0xc2, "command invalid for this LUN" },
	{ 0xc3, "timeout" },
	{ 0xc4, "out of space" },
	{ 0xc5, "reservation cancelled or invalid" },
	{ 0xc6, "request data truncated" },
	{ 0xc7, "request data length invalid" },
	{ 0xc8, "request data field length limit exceeded" },
	{ 0xc9, "parameter out of range" },
	{ 0xca, "cannot return the number of requested data bytes" },
	{ 0xcb, "requested sensor, data or record not present" },
	{ 0xcc, "invalid data field in request" },
	{ 0xcd, "command illegal for this sensor or record type" },
	{ 0xce, "command response could not be provided" },
	{ 0xcf, "cannot execute duplicated request" },
	{ 0xd0, "SDR repository in update mode" },
	{ 0xd1, "device in firmware update mode" },
	{ 0xd2, "BMC initialization in progress" },
	{ 0xd3, "destination unavailable" },
	{ 0xd4, "insufficient privilege" },
	{ 0xd5, "not supported in present state" },
	{ 0xd6, "sub-function disabled" },
	{ 0xff, "unspecified error" },
};

const char *bmc_sel_completion_words(unsigned code)
{
	for (size_t i = 0; i < sizeof(completions) / sizeof(completions[0]); i++)
		if (completions[i].code == code)
			return completions[i].words;
	return "unknown completion code";
}
