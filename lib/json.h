/* SPDX-License-Identifier: MIT */
/*
 * The one JSON encoder: every string and every key ras-fdr writes as JSON
 * (ras-fdr-ctl --json, import's copy of a source row) goes through
 * ras_json_string, so no text from a record or a database can end a string,
 * forge a key or split a JSON Lines line. Only libc, text.c and
 * decoders/dfield.h, so the decode fuzz target builds it as is.
 */
#ifndef RAS_JSON_H
#define RAS_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "decoders/dfield.h"

/*
 * The version of ras-fdr-ctl's JSON contract (ras-fdr-ctl(8), JSON; the
 * schemas in doc/schema/): the first key of every document and line. A new
 * version may change or remove keys; within one, keys are only added.
 */
#define RAS_JSON_VERSION 2

/*
 * s (len bytes, NULs included) as a JSON string: valid UTF-8 is kept; '"'
 * and '\' are escaped; control characters (text.h: C0, DEL, C1, U+2028,
 * U+2029, the bidirectional overrides) as \uXXXX, so the output never holds
 * a raw newline or escape sequence; a byte that is not UTF-8 as \u00XX (its
 * value as a code point). NULL with len 0 is "".
 */
void ras_json_string(FILE *f, const char *s, size_t len);
/* "name": through the same encoder (a key built from a column name is data too). */
void ras_json_key(FILE *f, const char *name);
/* A register or address: its 64 bits unsigned, "0xfffffffffffff000". */
void ras_json_hex(FILE *f, uint64_t v);
/* A 64-bit count, position or time: unsigned decimal in a string, "18446744073709551615". */
void ras_json_u64(FILE *f, uint64_t v);
/* A signed 64-bit value (a time in ns) as a decimal string. */
void ras_json_i64(FILE *f, int64_t v);
/*
 * A decoder's structured field of decoded, by its dfield: a string, or an
 * integer as its fixed JSON kind (df->json: number, hex string, decimal
 * string), null when unknown. A key never changes type from record to record.
 */
void ras_json_dfield(FILE *f, const struct ras_dfield *df, const void *decoded);

#endif
