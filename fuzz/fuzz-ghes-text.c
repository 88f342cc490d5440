/* SPDX-License-Identifier: MIT */
/*
 * Fuzzes the firmware-first (GHES/BERT) text parser, decoding every record
 * it delivers with the decoder its kind names and checking the renderers.
 */
#include <stdint.h>
#include <stdlib.h>
#include "decoders/aer.h"
#include "decoders/cper.h"
#include "decoders/ghes_text.h"
#include "fuzz/render_check.h"

FUZZ_RENDER_CHECK(extlog)
FUZZ_RENDER_CHECK(arm)
FUZZ_RENDER_CHECK(nonstd)
FUZZ_RENDER_CHECK(aer)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int decode_record(void *ctx, const struct ghes_text_rec *r, unsigned line)
{
	static union {
		struct extlog_decoded mem;
		struct arm_decoded arm;
		struct nonstd_decoded sec;
		struct aer_decoded aer;
	} out;

	(void)ctx;
	if (!line)
		abort();
	for (int i = 0; i < TEXT_NOTES; i++)
		if (r->notes[i].key && !r->notes[i].value)
			abort();
	switch (r->kind) {
	case GHES_TEXT_MEMORY:
		if (extlog_decode(&r->in.mem, &out.mem) != 0)
			abort();
		check_render_extlog(&out.mem, 1);
		break;
	case GHES_TEXT_ARM:
		if (arm_decode(&r->in.arm, &out.arm) != 0)
			abort();
		check_render_arm(&out.arm, 1);
		break;
	case GHES_TEXT_SECTION:
		if (nonstd_decode(&r->in.section, &out.sec) != 0)
			abort();
		check_render_nonstd(&out.sec, 1);
		break;
	case GHES_TEXT_PCIE:
		if (aer_decode(&r->in.aer, &out.aer) != 0)
			abort();
		check_render_aer(&out.aer, 1);
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
	if (ghes_text_parse((const char *)data, size, decode_record, note_error, NULL) < 0)
		abort();
	return 0;
}
