/* SPDX-License-Identifier: MIT */
/*
 * Text from records and databases is data, never control. A process name,
 * a DIMM label, a kernel message or a whole database handed over with -d can
 * come from anyone, and it reaches an operator's terminal, a line-based log
 * and JSON readers. This is the one place that says which characters could
 * act instead of being read, and how a terminal is shown them.
 *
 * Here, not in ctl/: rasd's stderr lines, ras-fdr-ctl's output, the JSON
 * encoder (json.c, which db/ uses too) and the decode fuzz target all need
 * the same rule, and lib/ is the lowest layer they share (decoders/ does no
 * I/O). Only libc is used, so the fuzz target can build it as is.
 */
#ifndef RAS_TEXT_H
#define RAS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ras_text_class {
	RAS_TEXT_PLAIN,    /* printable: ASCII or a well-formed UTF-8 character */
	RAS_TEXT_CONTROL,  /* well-formed, but acts on a terminal or a line (see text.c) */
	RAS_TEXT_INVALID,  /* one byte that is not part of well-formed UTF-8 */
};

/*
 * The character at s (n > 0 bytes left): its class, its length in bytes in
 * *len and its code point in *cp (an invalid byte's value). A control
 * character is one of: C0 (NUL, newline, ESC...), DEL, C1 (U+0080..U+009F,
 * CSI among them), the line and paragraph separators U+2028 and U+2029, and
 * the bidirectional embeddings, overrides and isolates U+202A..U+202E,
 * U+2066..U+2069 (they reorder what follows on the line).
 */
enum ras_text_class ras_text_next(const char *s, size_t n, size_t *len, uint32_t *cp);

/*
 * The form of s (len bytes; NULs included) safe to print on a terminal or
 * in a line of a log: plain characters as they are, every byte of a control
 * character or of invalid UTF-8 as the four characters \xNN (ESC is \x1b,
 * U+009B is \xc2\x9b). Backslashes are left as they are: the form is for
 * reading; JSON (json.h) is the lossless one.
 */
/* Whether s prints as it is. */
bool ras_text_plain(const char *s, size_t len);
/*
 * Writes the safe form into dst (size bytes, terminated unless size is 0,
 * cut before a character or an escape that does not fit) and returns the
 * length the whole of it needs, as snprintf does.
 */
size_t ras_text_safe(char *dst, size_t size, const char *s, size_t len);
/* Writes the safe form to f. */
void ras_text_write(FILE *f, const char *s, size_t len);

#endif
