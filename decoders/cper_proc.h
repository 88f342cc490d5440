/* SPDX-License-Identifier: MIT */
/*
 * Processor Generic, IA32/X64 and CXL Protocol Error section bodies (UEFI
 * 2.10 N.2.4.1, N.2.4.2, N.2.13): one detail sentence each, for
 * nonstd_decode and for the firmware-first text parser that rebuilds them.
 */
#ifndef RAS_CPER_PROC_H
#define RAS_CPER_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cper.h"

#define CPER_PROC_GENERIC_LEN 192   /* N.2.4.1 */
#define CPER_IA_LEN 64              /* N.2.4.2 header: validation, APIC ID, CPUID */
#define CPER_IA_ERR_INFO_LEN 64     /* N.2.4.2.1 */
#define CPER_IA_CTX_LEN 16          /* N.2.4.2.3 header; the register array follows */
#define CPER_CXL_PROT_LEN 116       /* N.2.13 up to the DVSEC */
#define CPER_CXL_RAS_LEN 88         /* CXL r3.1 8.2.4.17: six registers and the header log */
#define CPER_FW_REF_LEN 32          /* N.2.10: type, revision, identifier, identifier GUID */

/* "processor_type IA32/X64, ..., IP 0x..." from the valid fields. */
void cper_proc_generic_detail(const uint8_t *p, size_t n, char *out, size_t len);
/* "Local APIC_ID 0x2: cache error (Transaction Type ..., Level 1, Uncorrected); context ..." */
void cper_ia_detail(const uint8_t *p, size_t n, char *out, size_t len);
/* "CXL Device 0000:0d:00.0 [8086:0d93], serial 0x..; uncorrectable: ... (first: ...)" */
void cper_cxl_prot_detail(const uint8_t *p, size_t n, bool correctable, char *out, size_t len);

/* "SOC Firmware Error Record Type2, revision 2, record identifier <guid>" */
void cper_fw_ref_detail(const uint8_t *p, size_t n, char *out, size_t len);
/* The kernel's name of record type t, or NULL. */
const char *cper_fw_record_type_name(unsigned t);
/* Where a reference of this revision ends and the record's own data begins (as Linux dumps it). */
size_t cper_fw_ref_data_offset(unsigned revision);

/* IA32/X64 error structure type: 0 cache, 1 TLB, 2 bus, 3 micro-architectural; -1 unknown. */
int cper_ia_err_type(const uint8_t guid[16]);
/* The kernel's name of type i ("cache error" ...), or NULL. */
const char *cper_ia_err_type_name(unsigned i);
/* The GUID of type i (0-3); guid is left alone for another i. */
void cper_ia_err_type_guid(unsigned i, uint8_t guid[16]);
/* The check information of a type-i structure, in the kernel's words. */
void cper_ia_check_format(int type, uint64_t check, char *out, size_t len);

#endif
