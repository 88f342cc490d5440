/* SPDX-License-Identifier: MIT */
/*
 * Parser for the machine-check blocks Linux's AMD decoder (drivers/edac/
 * mce_amd.c, amd_decode_mce) writes to the kernel log, the form AMD and
 * Hygon users paste:
 *
 *   [Hardware Error]: Corrected error, no action required.
 *   [Hardware Error]: CPU:2 (19:21:0) MC18_STATUS[-|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b
 *   [Hardware Error]: Error Addr: 0x00000003dd6ae7c0
 *   [Hardware Error]: IPID: 0x0000009600350f00, Syndrome: 0x000001ff0a240701
 *   [Hardware Error]: Unified Memory Controller Ext. Error Code: 0, DRAM ECC error.
 *   [Hardware Error]: cache level: L3/GEN, tx: GEN, mem-tx: RD
 *
 * After the IPID line, kernels with MCA_SYND1/MCA_SYND2 support (around
 * Linux 6.14) print "FRU Text: <text>" when the bank holds FRU text, and the
 * patch series before it printed "Syndrome1: 0x…, Syndrome2: 0x…": both
 * fill the record's SMCA vendor data (SYND1, SYND2; MCA_CONFIG[9] for FRU
 * text).
 *
 * Family, model and stepping come from "CPU:n (ff:mm:ss)" (hex); when the
 * IPID line is missing, the bank type is taken from the "<name> Ext. Error
 * Code" line where that name is unambiguous (mce_in.ipid_type_only).
 */
#ifndef RAS_MCE_TEXT_AMD_H
#define RAS_MCE_TEXT_AMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mce_text.h"

/*
 * Same contract as mce_text_parse(): records to on_record with the line of
 * their CPU:n header, malformed lines to on_error (may be NULL), other lines
 * skipped. Returns the number of records or -errno.
 */
int mce_amd_text_parse(const char *buf, size_t len, mce_text_record_fn on_record,
		       mce_text_error_fn on_error, void *ctx);

/*
 * MCA_IPID HardwareID and McaType for the bank type Linux (smca_long_names)
 * and rasdaemon name name[0..len); only names that fix a single type. False
 * if the name is not one of them. The result has no instance id: callers set
 * mce_in.ipid_type_only.
 */
bool mce_amd_bank_type_ipid(const char *name, size_t len, uint64_t *ipid);

#endif
