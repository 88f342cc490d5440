/* SPDX-License-Identifier: MIT */
/*
 * Parser for the firmware-first (GHES, BERT) error blocks Linux prints
 * (drivers/acpi/apei/ghes.c, drivers/firmware/efi/cper.c, cper-arm.c):
 *
 *   {1}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 2
 *   {1}[Hardware Error]: event severity: corrected
 *   {1}[Hardware Error]:  Error 0, type: corrected
 *   {1}[Hardware Error]:   section_type: memory error
 *   {1}[Hardware Error]:   physical_address: 0x0000000898b86020
 *   {1}[Hardware Error]:   node:0 card:0 module:0 rank:0 bank:513 ... column:1032
 *   {1}[Hardware Error]:   error_type: 4, single-symbol chipkill ECC
 *
 * Each section becomes the input of the decoder that reads the same CPER
 * section from a tracepoint: memory errors go to extlog_decode (the
 * location rebuilt as the kernel's struct cper_mem_err_compact), ARM
 * processor errors to arm_decode (the error information structures
 * rebuilt as UEFI N.2.4.4.1 entries), general processor, IA32/X64 and CXL
 * protocol error sections to nonstd_decode (each rebuilt as the UEFI
 * section the kernel printed, ghes_text_proc.c), the CXL component events
 * the kernel dumps as unknown sections to cxl_decode, other and unknown
 * sections to nonstd_decode (with the hex dump's bytes), fatal PCIe sections carrying
 * AER registers to aer_decode. Non-fatal PCIe sections are left to the
 * aer_text parser, which reads the aer_status lines the kernel prints for
 * them afterwards.
 */
#ifndef RAS_GHES_TEXT_H
#define RAS_GHES_TEXT_H

#include <stddef.h>
#include "aer.h"
#include "cper.h"
#include "cxl.h"
#include "text_note.h"

enum ghes_text_kind { GHES_TEXT_MEMORY, GHES_TEXT_ARM, GHES_TEXT_SECTION, GHES_TEXT_PCIE, GHES_TEXT_CXL };


struct ghes_text_rec {
	enum ghes_text_kind kind;
	union {
		struct extlog_in mem;
		struct arm_in arm;
		struct nonstd_in section;
		struct aer_in aer;
		struct cxl_in cxl;   /* a CXL component event (UEFI N.2.14) */
	} in;
	struct text_note notes[TEXT_NOTES];   /* error_status, dimm_location, error_source, ... */
};

/*
 * Calls on_record per section read, with line the 1-based line of its
 * "Error N, type:" line; rec and everything it points to are valid only
 * during the call. A recognised but malformed section goes to on_error (may
 * be NULL) with a reason and is dropped; parsing goes on. Returns the number
 * of records, a negative on_record result, or -EINVAL.
 */
int ghes_text_parse(const char *buf, size_t len,
		    int (*on_record)(void *ctx, const struct ghes_text_rec *rec, unsigned line),
		    void (*on_error)(void *ctx, unsigned line, const char *reason),
		    void *ctx);

#endif
