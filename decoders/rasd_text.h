/* SPDX-License-Identifier: MIT */
/*
 * Parser for what rasdaemon prints, so that an operator can paste it:
 *
 *  - "ras-mc-ctl --errors" rows:
 *      24 2022-10-16 06:55:24 +0000 1 Corrected error(s): memory read error at
 *        CPU_SrcID#1_MC#1_Chan#1_DIMM#0 location: 3:1:0:-1, addr 473047662528,
 *        grain 5, syndrome 0  err_code:0x0101:0x0091 socket:1 imc:1 ...
 *      1 2020-04-16 22:09:48 +0000 0000:0b:00.0 Corrected error: Receiver Error
 *      1 2024-12-19 03:52:38 +0000 error: Corrected error, no action required.,
 *        CPU 2, bank Unified Memory Controller (bank=17), ..., status=0x9c20...
 *  - "ras-mc-ctl --summary" rows (memory and AER, each with its count):
 *      Corrected on DIMM Label(s): 'DIMM_A1' location: 0:0:0:-1 errors: 12
 *      2 Corrected errors: Bad DLLP
 *  - "ras-mc-ctl --error-count" rows after their "Label CE UE" header;
 *  - rasdaemon's own log lines for mc_event, aer_event and mce_record:
 *      mc_event 2025-03-28 13:28:48 +0800 1 Uncorrected error: multi-bit ECC
 *        on unknown memory (mc: 0 address: 0xe53218400 grain: 0 ...)
 *      aer_event 2024-... 0000:00:1c.0 (name - vendor_id: 0x8086 device_id:
 *        0xa110) Receiver Error Corrected
 *  - "ras-mc-ctl --errors" rows of extlog, devlink, disk and memory
 *    failure events (rasd_text_other.c), and rasdaemon's log lines for
 *    extlog_mem_event and memory_failure_event (its devlink and disk
 *    lines carry only a timestamp):
 *      3 2024-01-02 10:00:00 +0000 error: type=multi-bit ECC,
 *        severity=fatal, address=0x12345000, fru_id=..., fru_text='...', ...
 *      1 2023-05-04 ... error: pfn=0x1a2b3, page_type=free buddy page,
 *        action_result=Recovered
 *
 * Formats (facts, no code) from rasdaemon's util/ras-mc-ctl.in (errors,
 * summary, error_count), ras-mc-handler.c, ras-aer-handler.c and
 * ras-mce-handler.c (the log lines, the AER bit names, the cpu_type names). Each line is one record; every record is
 * handed to the decoder of its kind. ARM rows are not read: they lack the
 * MIDR, and the decoder would have to say "implementer 0".
 */
#ifndef RAS_RASD_TEXT_H
#define RAS_RASD_TEXT_H

#include <stddef.h>
#include "aer.h"
#include "blockerr.h"
#include "cper.h"
#include "devlink.h"
#include "edac.h"
#include "mce.h"
#include "memfail.h"
#include "text_note.h"

enum rasd_text_kind {
	RASD_TEXT_EDAC, RASD_TEXT_AER, RASD_TEXT_MCE,
	RASD_TEXT_EXTLOG, RASD_TEXT_DEVLINK, RASD_TEXT_DISK, RASD_TEXT_MEMFAIL,
};

struct rasd_text_rec {
	enum rasd_text_kind kind;
	union {
		struct edac_in edac;
		struct aer_in aer;
		struct mce_in mce;
		struct extlog_in extlog;     /* data points at extlog_data */
		struct devlink_in devlink;
		struct blockerr_in disk;
		struct memfail_in memfail;   /* symtab: rasdaemon's own names */
	} in;
	uint8_t extlog_data[CPER_MEM_COMPACT_LEN];
	/* "rasdaemon" (which output), "timestamp", "rasdaemon_message" */
	struct text_note notes[TEXT_NOTES];
};

/*
 * Calls on_record per line read; rec and its strings are valid only during
 * the call. A line recognised as rasdaemon's but malformed goes to on_error
 * (may be NULL) with a reason. Returns the number of records, a negative
 * on_record result, or -EINVAL.
 */
int rasd_text_parse(const char *buf, size_t len,
		    int (*on_record)(void *ctx, const struct rasd_text_rec *rec, unsigned line),
		    void (*on_error)(void *ctx, unsigned line, const char *reason),
		    void *ctx);

#endif
