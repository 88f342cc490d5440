/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the whole text path of "ras-fdr-ctl decode" — every
 * parser, the record list that outlives their callbacks (a use-after-free
 * lived there), decoding and both printers — on arbitrary input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ctl/decode_print.c"
#include "ctl/decode_text.c"
#include "lib/json.c"
#include "lib/text.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct decode_out o;

	if (!null)
		null = fopen("/dev/null", "we");
	if (!null)
		return 0;
	o.out = o.err = null;
	o.json = size && (data[0] & 1);
	decode_text_buffer("fuzz", (const char *)data, size, &o);
	return 0;
}
