/* SPDX-License-Identifier: MIT */
/* Fuzzes the rasdaemon output parser, decoding every record it delivers. */
#include "decoders/rasd_text.h"
#include "fuzz/fuzz_text.h"

static void decode_record(const struct rasd_text_rec *r)
{
	fuzz_text_check_notes(r->notes);
	switch (r->kind) {
	case RASD_TEXT_EDAC: fuzz_decode_edac(&r->in.edac); break;
	case RASD_TEXT_AER: fuzz_decode_aer(&r->in.aer); break;
	case RASD_TEXT_MCE: fuzz_decode_mce(&r->in.mce); break;
	case RASD_TEXT_EXTLOG: fuzz_decode_extlog(&r->in.extlog); break;
	case RASD_TEXT_DEVLINK: fuzz_decode_devlink(&r->in.devlink); break;
	case RASD_TEXT_DISK: fuzz_decode_blockerr(&r->in.disk); break;
	case RASD_TEXT_MEMFAIL: fuzz_decode_memfail(&r->in.memfail); break;
	default: abort();
	}
}

FUZZ_TEXT_TARGET(rasd_text_parse, struct rasd_text_rec, decode_record)
