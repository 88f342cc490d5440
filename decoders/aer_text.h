/* SPDX-License-Identifier: MIT */
/*
 * Parser for the AER reports Linux writes to the kernel log, so that errors
 * logged before the daemon ran (dmesg, journal exports) can be imported:
 *
 *   pcieport 0000:00:1c.0: AER: Corrected error received: 0000:00:1c.0
 *   pcieport 0000:00:1c.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
 *   pcieport 0000:00:1c.0:   device [8086:a110] error status/mask=00000001/00002000
 *   pcieport 0000:00:1c.0:    [ 0] RxErr                  (First)
 *   pcieport 0000:00:1c.0: AER:   TLP Header: 04000001 0000200f 03071800 00000000
 *
 * Any line prefix (dmesg timestamp, syslog header) is accepted, as are the
 * "AER: " message prefixes of newer kernels.
 */
#ifndef RAS_AER_TEXT_H
#define RAS_AER_TEXT_H

#include <stddef.h>
#include "aer.h"

/*
 * Calls on_record for each complete report, with first_line the 1-based
 * line of its "PCIe Bus Error" line; rec and its strings are valid only
 * during the call. A malformed report is passed to on_error (may be NULL)
 * with its line and a reason, dropped, and parsing goes on. A negative
 * return from on_record stops parsing and is returned; otherwise returns 0,
 * or -EINVAL if buf or on_record is NULL.
 */
int aer_text_parse(const char *buf, size_t len,
		   int (*on_record)(void *ctx, const struct aer_in *rec, unsigned first_line),
		   void (*on_error)(void *ctx, unsigned line, const char *reason),
		   void *ctx);

#endif
