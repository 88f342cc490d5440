/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the vendor CPER sections (decoders/cper_<vendor>.c), each
 * reached through nonstd_decode by its GUID, and Ampere's record in an ARM
 * processor error's vendor data.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "decoders/cper.h"
#include "fuzz/render_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_RENDER_CHECK(nonstd)
FUZZ_RENDER_CHECK(arm)

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
	return 0;
}
