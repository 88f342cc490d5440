/* SPDX-License-Identifier: MIT */
/* Fuzzes the rasdaemon output parser, decoding every record it delivers. */
#include <stdint.h>
#include <stdlib.h>
#include "decoders/rasd_text.h"
#include "fuzz/render_check.h"

FUZZ_RENDER_CHECK(edac)
FUZZ_RENDER_CHECK(aer)
FUZZ_RENDER_CHECK(mce)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int decode_record(void *ctx, const struct rasd_text_rec *r, unsigned line)
{
	static union {
		struct edac_decoded edac;
		struct aer_decoded aer;
		struct mce_decoded mce;
	} out;

	(void)ctx;
	if (!line)
		abort();
	for (int i = 0; i < TEXT_NOTES; i++)
		if (r->notes[i].key && !r->notes[i].value)
			abort();
	switch (r->kind) {
	case RASD_TEXT_EDAC:
		if (edac_decode(&r->in.edac, &out.edac) != 0)
			abort();
		check_render_edac(&out.edac, 1);
		break;
	case RASD_TEXT_AER:
		if (aer_decode(&r->in.aer, &out.aer) != 0)
			abort();
		check_render_aer(&out.aer, 1);
		break;
	case RASD_TEXT_MCE:
		if (mce_decode(&r->in.mce, &out.mce) != 0)
			abort();
		check_render_mce(&out.mce, 1);
		break;
	default:
		abort();
	}
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
	if (rasd_text_parse((const char *)data, size, decode_record, note_error, NULL) < 0)
		abort();
	return 0;
}
