/* SPDX-License-Identifier: MIT */
/* Fuzzes the EDAC core error line parser, decoding every record it delivers. */
#include "decoders/edac_text.h"
#include "fuzz/fuzz_text.h"

FUZZ_TEXT_TARGET(edac_text_parse, struct edac_in, fuzz_decode_edac)
