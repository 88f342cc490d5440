/* SPDX-License-Identifier: MIT */
/* libFuzzer target: ARM processor error information / context buffers. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "decoders/cper.h"
#include "fuzz/render_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_RENDER_CHECK(arm)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arm_decoded d;
	struct arm_in in = { 0 };
	uint8_t h[32] = { 0 };
	size_t head = size < sizeof(h) ? size : sizeof(h), body = size - head, split;

	memcpy(h, data, head);
	memcpy(&in.mpidr, h, 8);
	memcpy(&in.midr, h + 8, 8);
	memcpy(&in.running_state, h + 16, 4);
	memcpy(&in.psci_state, h + 20, 4);
	in.affinity = h[24];
	in.has_buffers = h[25] & 1;
	in.has_sev = (h[25] >> 1) & 1;
	in.has_cpu = (h[25] >> 2) & 1;
	in.has_mapped_cpu = (h[25] >> 3) & 1;
	in.mapped_cpu = (int8_t)h[25] >> 4;
	in.sev = h[26];
	in.cpu = (int8_t)h[27];
	/* Split the body between the three buffers; lengths may lie. */
	split = body ? h[28] % (body + 1) : 0;
	in.pei_buf = data + head;
	in.pei_buf_len = split;
	in.pei_len = (h[29] & 1) ? (uint32_t)split : (uint32_t)split + h[30];
	in.ctx_buf = data + head + split;
	in.ctx_buf_len = (body - split) / 2;
	in.ctx_len = (uint32_t)in.ctx_buf_len + (h[31] & 0x7);
	in.oem_buf = in.ctx_buf + in.ctx_buf_len;
	in.oem_buf_len = body - split - in.ctx_buf_len;
	in.oem_len = (uint32_t)in.oem_buf_len;
	arm_decode(&in, &d);
	check_render_arm(&d, 1);
	return 0;
}
