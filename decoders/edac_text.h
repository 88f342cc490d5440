/* SPDX-License-Identifier: MIT */
/*
 * Parser for the memory-controller error lines Linux's EDAC core prints
 * (drivers/edac/edac_mc.c, edac_ce_error/edac_ue_error), whatever the
 * driver (sb_edac, skx/i10nm, amd64_edac, ghes_edac, ...):
 *
 *   EDAC MC0: 1 CE memory read error on CPU_SrcID#0_MC#0_Chan#1_DIMM#0
 *     (channel:1 slot:0 page:0x12345 offset:0x0 grain:32 syndrome:0x0 -
 *      err_code:0x0000:0x009f socket:0 imc:0 rank:0 bg:0 ba:0 row:0x1a col:0x8)
 *   EDAC MC0: 1 CE on mc#0csrow#1channel#0 (csrow:1 channel:0 page:0x5c4f3
 *     offset:0x8c0 grain:64 syndrome:0x4b40)
 *   EDAC MC1: 1 UE memory read error on DIMM_B1 (channel:0 slot:1 page:0x0
 *     offset:0x0 grain:32 - ...)
 *
 * (each is one line). The "name:value" pairs before page: are the
 * controller's layers, in order; the text after " - " is the driver's
 * detail. The address is rebuilt as page << 12 | offset, the kernel's own
 * arithmetic for 4 KiB pages (x86).
 */
#ifndef RAS_EDAC_TEXT_H
#define RAS_EDAC_TEXT_H

#include <stddef.h>
#include "edac.h"

/*
 * Calls on_record per line read, rec's strings (msg, label, detail, layer
 * names) valid only during the call; a recognised but malformed line goes to
 * on_error (may be NULL) with its reason. Other lines are skipped. Returns
 * the number of records, the negative value on_record returned, or -EINVAL.
 */
int edac_text_parse(const char *buf, size_t len,
		    int (*on_record)(void *ctx, const struct edac_in *rec, unsigned line),
		    void (*on_error)(void *ctx, unsigned line, const char *reason),
		    void *ctx);

#endif
