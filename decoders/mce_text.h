/* SPDX-License-Identifier: MIT */
/*
 * Parsers for machine-check records found in text: kernel log blocks
 * ("mce: [Hardware Error]: CPU 0: Machine Check ..."), mcelog ASCII records
 * (CPU/BANK/STATUS/ADDR/MISC/MCGSTATUS/MCGCAP/TSC/RIP/TIME/SOCKETID/APICID/
 * PROCESSOR lines, as read by "mcelog --ascii" and mce-inject) and Xen
 * console lines ("(XEN) Bank 2: <status> at <addr>"). Formats may be mixed.
 */
#ifndef RAS_MCE_TEXT_H
#define RAS_MCE_TEXT_H

#include <stddef.h>
#include "mce.h"

/* Longest line handled; longer lines are reported as malformed. */
#define MCE_TEXT_MAX_LINE 1024

/* Called per complete record; first_line is 1-based. A negative return stops parsing. */
typedef int (*mce_text_record_fn)(void *ctx, const struct mce_in *rec, unsigned first_line);
/* Called per malformed line; the record it belongs to is dropped. */
typedef void (*mce_text_error_fn)(void *ctx, unsigned line, const char *reason);

/*
 * Parses buf[0..len) (need not be NUL-terminated). Returns the number of
 * records delivered, or -errno (-EINVAL for bad arguments, or the negative
 * value a callback returned). on_error may be NULL.
 */
int mce_text_parse(const char *buf, size_t len, mce_text_record_fn on_record,
		   mce_text_error_fn on_error, void *ctx);

#endif
