/* SPDX-License-Identifier: MIT */
/* Fuzzes the AMD decoded machine-check block parser, decoding every record it delivers. */
#include <stdint.h>
#include <stdlib.h>
#include "decoders/mce.h"
#include "decoders/mce_text_amd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int decode_record(void *ctx, const struct mce_in *rec, unsigned first_line)
{
	struct mce_decoded out;
	unsigned *last_line = ctx;

	if (first_line < *last_line || mce_decode(rec, &out) != 0)
		abort();
	*last_line = first_line;
	return 0;
}

static void note_error(void *ctx, unsigned line, const char *reason)
{
	(void)ctx;
	if (!line || !reason || !*reason)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned last_line = 0;

	if (mce_amd_text_parse((const char *)data, size, decode_record, note_error, &last_line) < 0)
		abort();
	return 0;
}
