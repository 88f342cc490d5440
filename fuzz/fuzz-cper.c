/* SPDX-License-Identifier: MIT */
/* libFuzzer target: extlog compact location and non-standard CPER sections. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "decoders/cper.h"
#include "fuzz/render_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_RENDER_CHECK(extlog)
FUZZ_RENDER_CHECK(nonstd)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct extlog_decoded e;
	struct nonstd_decoded n;
	struct extlog_in ein = { 0 };
	struct nonstd_in nin = { 0 };
	size_t head = size < 40 ? size : 40;
	uint8_t h[40] = { 0 };

	memcpy(h, data, head);
	/* The first bytes pick the header fields, the rest is the body. */
	ein.etype = h[0];
	ein.sev = h[1];
	memcpy(&ein.pa, h + 2, 8);
	ein.pa_mask_lsb = h[10];
	memcpy(ein.fru_id, h + 11, 16);
	ein.fru_text = (const char *)data;
	ein.fru_text_len = size;
	ein.data = data + head;
	ein.data_len = size - head;
	extlog_decode(&ein, &e);
	check_render_extlog(&e, 1);

	/* Half the time use the Platform Memory GUID so its parser is reached. */
	if (h[27] & 1) {
		cper_guid_bytes(&cper_section_types[4], nin.sec_type);
	} else {
		memcpy(nin.sec_type, h + 11, 16);
	}
	nin.sev = h[28];
	memcpy(&nin.len, h + 29, 4);
	nin.buf = data + head;
	nin.buf_len = size - head;
	nin.fru_text = (const char *)data;
	nin.fru_text_len = head;
	nonstd_decode(&nin, &n);
	check_render_nonstd(&n, 1);
	return 0;
}
