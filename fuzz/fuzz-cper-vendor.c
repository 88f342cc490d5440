/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the vendor CPER sections (decoders/cper_<vendor>.c), each
 * reached through nonstd_decode by its GUID, Ampere's record in an ARM
 * processor error's vendor data, and rasdaemon's vendor rows rebuilt into
 * sections (decoders/cper_rebuild.c) from text columns.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/cper.h"
#include "fuzz/render_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_RENDER_CHECK(nonstd)
FUZZ_RENDER_CHECK(arm)

/* The input as every text column of a row of each of rasdaemon's vendor tables. */
static void rebuild(const uint8_t *data, size_t size)
{
	static const char *const tables[] = {
		"hip08_oem_type1_event_v2", "hip08_oem_type2_event_v2", "hip08_pcie_local_event_v2",
		"hisi_common_section_v2", "yitian_ddr_reg_dump_event", "jm_payload0_event",
		"nvidia_ns_event", "amp_payload0_event", "amp_payload3_event",
	};
	static const char *const names[] = {
		"regs_dump", "module_id", "sub_module_id", "err_severity", "pcie_info", "subsystem",
		"module", "sub_module", "type", "subtype", "socket_id", "instance",
	};
	static char text[4097];
	static uint8_t out[2048];
	struct cper_rebuild_col cols[13];
	uint8_t guid[16], sev;
	size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;

	memcpy(text, data, n);
	text[n] = '\0';
	for (size_t i = 0; i < 12; i++)
		cols[i] = (struct cper_rebuild_col){ .name = names[i], .text = text };
	cols[12] = (struct cper_rebuild_col){ .name = "raw_data", .blob = data, .blob_len = size };
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		int len = cper_rebuild_rasdaemon(tables[t], cols, 13, guid, &sev, out, sizeof(out));

		if (len > (int)sizeof(out))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nonstd_decoded d;
	static struct arm_decoded a;
	struct nonstd_in in = { 0 };
	struct arm_in ain = { .running_state = 1, .has_buffers = 1, .soc_id = "jep106:0a16:0001" };
	const struct cper_guid_name *vendors[32];
	size_t nv = 0, body;
	uint32_t claimed;

	for (size_t i = 0; i < cper_n_section_types && nv < 32; i++)
		if (cper_section_types[i].vendor)
			vendors[nv++] = &cper_section_types[i];
	if (size < 6 || !nv)
		return 0;
	/* Byte 0 picks the section, 1 the severity, 2-5 the length the event claims. */
	cper_guid_bytes(vendors[data[0] % nv], in.sec_type);
	in.sev = data[1];
	memcpy(&claimed, data + 2, 4);
	body = size - 6;
	in.len = claimed % 2 ? (uint32_t)body : claimed;
	in.buf = data + 6;
	in.buf_len = body;
	nonstd_decode(&in, &d);
	check_render_nonstd(&d, 1);
	ain.oem_buf = data + 6;
	ain.oem_buf_len = body;
	ain.oem_len = in.len;
	ain.has_sev = 1;
	ain.sev = data[1];
	arm_decode(&ain, &a);
	check_render_arm(&a, 1);
	rebuild(data, size);
	return 0;
}
