/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl decode on text: runs every text parser of decoders/ over one
 * buffer, decodes the records in input order and prints them. Free of ctl.h
 * and lib/ so that fuzz/fuzz-decode-glue.c builds it with decoders/ alone.
 */
#ifndef RAS_CTL_DECODE_TEXT_H
#define RAS_CTL_DECODE_TEXT_H

#include <stddef.h>
#include "decode_print.h"

/*
 * name is what messages call the input ("<stdin>", a file name); buf need
 * not be NUL-terminated. Malformed records are reported on o->err as
 * "name:line: reason". Returns 0 when at least one record was decoded and
 * none was malformed, else 1.
 */
int decode_text_buffer(const char *name, const char *buf, size_t len, const struct decode_out *o);

#endif
