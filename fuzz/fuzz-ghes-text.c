/* SPDX-License-Identifier: MIT */
/*
 * Fuzzes the firmware-first (GHES/BERT) text parser, decoding every record
 * it delivers with the decoder its kind names and checking the renderers.
 */
#include "decoders/ghes_text.h"
#include "fuzz/fuzz_text.h"

static void decode_record(const struct ghes_text_rec *r)
{
	fuzz_text_check_notes(r->notes);
	switch (r->kind) {
	case GHES_TEXT_MEMORY: fuzz_decode_extlog(&r->in.mem); break;
	case GHES_TEXT_ARM: fuzz_decode_arm(&r->in.arm); break;
	case GHES_TEXT_SECTION: fuzz_decode_nonstd(&r->in.section); break;
	case GHES_TEXT_PCIE: fuzz_decode_aer(&r->in.aer); break;
	case GHES_TEXT_CXL: fuzz_decode_cxl(&r->in.cxl); break;
	default: abort();
	}
}

FUZZ_TEXT_TARGET(ghes_text_parse, struct ghes_text_rec, decode_record)
