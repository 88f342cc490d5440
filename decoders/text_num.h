/* SPDX-License-Identifier: MIT */
/*
 * Unsigned numbers in the text the kernel and tools print, for every text
 * parser of decoders/ (machine-check, AMD, GHES, rasdaemon text).
 */
#ifndef RAS_TEXT_NUM_H
#define RAS_TEXT_NUM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Reads the unsigned number at the start of s in base 10 or 16; a "0x"
 * prefix always selects 16. *end (may be NULL) gets the first byte after
 * it. False, with nothing stored, if s starts with no digit or the value
 * overflows 64 bits.
 */
bool text_num_prefix(const char *s, unsigned base, uint64_t *v, const char **end);
/* The same, for a whole NUL-terminated token: false if anything follows. */
bool text_num_whole(const char *s, unsigned base, uint64_t *v);

#endif
