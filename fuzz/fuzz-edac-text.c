/* SPDX-License-Identifier: MIT */
/* Fuzzes the EDAC core error line parser, decoding every record it delivers. */
#include <stdint.h>
#include <stdlib.h>
#include "decoders/edac.h"
#include "decoders/edac_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int decode_record(void *ctx, const struct edac_in *rec, unsigned line)
{
	struct edac_decoded out;

	(void)ctx;
	if (!line || edac_decode(rec, &out) != 0)
		abort();
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
	if (edac_text_parse((const char *)data, size, decode_record, note_error, NULL) < 0)
		abort();
	return 0;
}
