/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the dmesg AER parser, and decoding of what it returns. */
#include <stddef.h>
#include <stdint.h>
#include "decoders/aer.h"
#include "decoders/aer_text.h"
#include "fuzz/render_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_RENDER_CHECK(aer)

static int on_record(void *ctx, const struct aer_in *rec, unsigned first_line)
{
	struct aer_decoded d;

	(void)ctx;
	(void)first_line;
	aer_decode(rec, &d);
	check_render_aer(&d, 1);
	return 0;
}

static void on_error(void *ctx, unsigned line, const char *reason)
{
	(void)ctx;
	(void)line;
	(void)reason;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aer_decoded d;
	struct aer_in in = { 0 };
	uint32_t words[6] = { 0 };

	aer_text_parse((const char *)data, size, on_record, on_error, NULL);
	/* Also feed raw bytes to the event decoder as status and TLP header. */
	for (size_t i = 0; i < sizeof(words) && i < size; i++)
		words[i / 4] |= (uint32_t)data[i] << (8 * (i % 4));
	in.dev_name = (const char *)data;
	in.dev_name_len = size;
	in.status = words[0];
	in.severity = (uint8_t)(words[1] & 3);
	in.tlp_header_valid = 1;
	in.has_mask = 1;
	in.mask = words[1];
	for (int i = 0; i < 4; i++)
		in.tlp_header[i] = words[2 + i];
	aer_decode(&in, &d);
	check_render_aer(&d, 1);
	return 0;
}
