/* SPDX-License-Identifier: MIT */
/* Fuzzes the text record parsers, decoding every record they deliver. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/mce.h"
#include "decoders/mce_text.h"
#include "fuzz/render_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_RENDER_CHECK(mce)

static int decode_record(void *ctx, const struct mce_in *rec, unsigned first_line)
{
	struct mce_decoded out;
	unsigned *last_line = ctx;

	if (first_line < *last_line || mce_decode(rec, &out) != 0)
		abort();
	check_render_mce(&out, 1);
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
	int n = mce_text_parse((const char *)data, size, decode_record, note_error, &last_line);

	if (n < 0)
		abort();
	return 0;
}
