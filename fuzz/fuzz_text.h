/* SPDX-License-Identifier: MIT */
/*
 * The harness the text parser fuzz targets share: FUZZ_TEXT_TARGET(parse,
 * rec_type, decode) defines LLVMFuzzerTestOneInput, which runs parse over
 * the input and hands every record to decode(rec); a record without a line,
 * a refusal without a line or reason, a note without a value or a negative
 * parse result aborts. fuzz_decode_<name>(in) decodes one decoder input,
 * aborting unless it decodes, and checks its renderer (render_check.h).
 */
#ifndef RAS_FUZZ_TEXT_H
#define RAS_FUZZ_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "decoders/aer.h"
#include "decoders/blockerr.h"
#include "decoders/cper.h"
#include "decoders/cxl.h"
#include "decoders/devlink.h"
#include "decoders/edac.h"
#include "decoders/mce.h"
#include "decoders/memfail.h"
#include "decoders/text_note.h"
#include "fuzz/render_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_RENDER_CHECK(extlog)
FUZZ_RENDER_CHECK(arm)
FUZZ_RENDER_CHECK(nonstd)
FUZZ_RENDER_CHECK(aer)
FUZZ_RENDER_CHECK(edac)
FUZZ_RENDER_CHECK(mce)
FUZZ_RENDER_CHECK(devlink)
FUZZ_RENDER_CHECK(blockerr)
FUZZ_RENDER_CHECK(memfail)
FUZZ_RENDER_CHECK(cxl)

/* Decodes one input with name_decode; the record must decode and its sentence say something. */
#define FUZZ_TEXT_DECODER(name, in_type)                                       \
	static inline void fuzz_decode_##name(const in_type *in)               \
	{                                                                      \
		static struct name##_decoded out;                              \
                                                                               \
		if (name##_decode(in, &out) != 0)                              \
			abort();                                               \
		check_render_##name(&out, 1);                                  \
	}

FUZZ_TEXT_DECODER(extlog, struct extlog_in)
FUZZ_TEXT_DECODER(arm, struct arm_in)
FUZZ_TEXT_DECODER(nonstd, struct nonstd_in)
FUZZ_TEXT_DECODER(aer, struct aer_in)
FUZZ_TEXT_DECODER(edac, struct edac_in)
FUZZ_TEXT_DECODER(mce, struct mce_in)
FUZZ_TEXT_DECODER(devlink, struct devlink_in)
FUZZ_TEXT_DECODER(blockerr, struct blockerr_in)
FUZZ_TEXT_DECODER(memfail, struct memfail_in)
FUZZ_TEXT_DECODER(cxl, struct cxl_in)

/* Every note a parser sets has a value. */
static inline void fuzz_text_check_notes(const struct text_note *notes)
{
	for (int i = 0; i < TEXT_NOTES; i++)
		if (notes[i].key && !notes[i].value)
			abort();
}

static inline void fuzz_text_on_error(void *ctx, unsigned line, const char *reason)
{
	(void)ctx;
	if (!line || !reason || !*reason)
		abort();
}

#define FUZZ_TEXT_TARGET(parse, rec_type, decode)                                       \
	static int fuzz_text_on_record(void *ctx, const rec_type *rec, unsigned line)  \
	{                                                                               \
		(void)ctx;                                                              \
		if (!line)                                                              \
			abort();                                                        \
		decode(rec);                                                            \
		return 0;                                                               \
	}                                                                               \
                                                                                        \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                    \
	{                                                                               \
		if (parse((const char *)data, size, fuzz_text_on_record, fuzz_text_on_error, NULL) < 0) \
			abort();                                                        \
		return 0;                                                               \
	}

#endif
