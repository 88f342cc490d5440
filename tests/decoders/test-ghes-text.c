/* SPDX-License-Identifier: MIT */
/*
 * Firmware-first (GHES/BERT) text blocks. Formats: Linux drivers/acpi/apei/
 * ghes.c, drivers/firmware/efi/cper.c and cper-arm.c. The blocks are real
 * kernel output quoted in public mailing-list posts, named per vector;
 * "synthetic" ones are written from the kernel's format strings.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "decoders/aer.h"
#include "decoders/cper.h"
#include "decoders/ghes_text.h"
#include "tests/decoders/text_got.h"
#include "tests/tap.h"

#define MAX TEXT_GOT_MAX

struct got {
	struct text_got t;   /* first: the parser's ctx */
	enum ghes_text_kind kind[MAX];
	struct extlog_decoded mem[MAX];
	struct arm_decoded arm[MAX];
	struct nonstd_decoded sec[MAX];
	struct aer_decoded aer[MAX];
	struct cxl_decoded cxl[MAX];
};

static int on_rec(void *ctx, const struct ghes_text_rec *r, unsigned line)
{
	struct got *g = ctx;
	int i = text_got_add(&g->t, line);

	if (i < 0)
		return i;
	g->kind[i] = r->kind;
	if (r->kind == GHES_TEXT_MEMORY)
		extlog_decode(&r->in.mem, &g->mem[i]);
	else if (r->kind == GHES_TEXT_ARM)
		arm_decode(&r->in.arm, &g->arm[i]);
	else if (r->kind == GHES_TEXT_SECTION)
		nonstd_decode(&r->in.section, &g->sec[i]);
	else if (r->kind == GHES_TEXT_CXL)
		cxl_decode(&r->in.cxl, &g->cxl[i]);
	else
		aer_decode(&r->in.aer, &g->aer[i]);
	text_got_notes(&g->t, i, r->notes);
	return 0;
}

#define on_err text_got_error

static const char memory[] =
	/* 1-11: Shuai Xue, "EDAC/ghes: use cper functions", linux-edac, 2022 (5.x: "name: value") */
	"[  375.938416] {2}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 2\n"
	"[  375.938417] {2}[Hardware Error]: It has been corrected by h/w and requires no further action\n"
	"[  375.938418] {2}[Hardware Error]: event severity: corrected\n"
	"[  375.938419] {2}[Hardware Error]:  Error 0, type: corrected\n"
	"[  375.938420] {2}[Hardware Error]:   section_type: memory error\n"
	"[  375.938421] {2}[Hardware Error]:   error_status: 0x0000000000000000\n"
	"[  375.938422] {2}[Hardware Error]:   physical_address: 0x0000000898b86020\n"
	"[  375.938422] {2}[Hardware Error]:   physical_address_mask: 0x0000000000000000\n"
	"[  375.938426] {2}[Hardware Error]:   node: 0 card: 0 module: 0 rank: 0 bank: 513 bank_group: 2 bank_address: 1 device: 0 row: 4887 column: 1032 bit_position: 0 requestor_id: 0x0000000000000000 responder_id: 0x0000000000000000\n"
	"[  375.938426] {2}[Hardware Error]:   error_type: 4, single-symbol chipkill ECC\n"
	"[  375.938428] {2}[Hardware Error]:   DIMM location: not present. DMI handle: 0x0000\n"
	/* 12-21: a production crash dump quoted on linux-mm, 2026 ("name:value", thread prefix) */
	"[88690.478913] [ T593001] {1}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 784\n"
	"[88690.479097] [ T593001] {1}[Hardware Error]: event severity: recoverable\n"
	"[88690.479184] [ T593001] {1}[Hardware Error]:  imprecise tstamp: 2026-03-20 13:13:08\n"
	"[88690.479282] [ T593001] {1}[Hardware Error]:  Error 0, type: recoverable\n"
	"[88690.479359] [ T593001] {1}[Hardware Error]:   section_type: memory error\n"
	"[88690.479424] [ T593001] {1}[Hardware Error]:   physical_address: 0x00000040272d5080\n"
	"[88690.479503] [ T593001] {1}[Hardware Error]:   physical_address_mask: 0xfffffffffffff000\n"
	"[88690.479606] [ T593001] {1}[Hardware Error]:   node:0 card:0 module:1 rank:1 bank:13 device:6 row:64114 column:832 requestor_id:0x0000000000000027 \n"
	"[88690.479680] [ T593001] {1}[Hardware Error]:   error_type: 3, multi-bit ECC\n"
	"[88690.479754] [ T593001] {1}[Hardware Error]:   DIMM location: not present. DMI handle: 0x000e \n"
	/* 22-30: Lenovo ThinkSystem SR650 BERT panic quoted on linux-acpi, 5.10-rc3 */
	"[    6.307912] {1}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 4\n"
	"[    6.308886] {1}[Hardware Error]: event severity: fatal\n"
	"[    6.308886] {1}[Hardware Error]:  Error 0, type: fatal\n"
	"[    6.308886] {1}[Hardware Error]:  fru_text: Card03, ChnB, DIMM0\n"
	"[    6.308886] {1}[Hardware Error]:   section_type: memory error\n"
	"[    6.308886] {1}[Hardware Error]:   error_status: 0x0000000000000000\n"
	"[    6.308886] {1}[Hardware Error]:   physical_address: 0x00000031a53f0000\n"
	"[    6.308886] {1}[Hardware Error]:   node: 2 card: 1 module: 0 rank: 0 bank: 1 device: 0 row: 3541 column: 0 \n"
	"[    6.308886] {1}[Hardware Error]:   DIMM location: CPU 1 DIMM 8 \n"
	/* 31-36: synthetic (5.x+ format): a malformed address drops its section, the next one reads */
	"{3}[Hardware Error]: event severity: corrected\n"
	"{3}[Hardware Error]:  Error 0, type: corrected\n"
	"{3}[Hardware Error]:   section_type: memory error\n"
	"{3}[Hardware Error]:   error_status: Storage error in DRAM memory (0x0000000000000400)\n"
	"{3}[Hardware Error]:   physical_address: 0xzz\n"
	"{3}[Hardware Error]:  Error 1, type: corrected\n"
	"{3}[Hardware Error]:   section_type: memory error\n"
	"{3}[Hardware Error]:   error_status: Storage error in DRAM memory (0x0000000000000400)\n"
	"{3}[Hardware Error]:   node:1 row:70000 chip_id:3\n";

static void test_memory(void)
{
	struct got g;

	memset(&g, 0, sizeof(g));
	tap_is_int(ghes_text_parse(memory, strlen(memory), on_rec, on_err, &g), 4, "memory: four sections");
	tap_is_int(g.t.n_err, 1, "memory: one malformed section");
	tap_is_int(g.t.err_line[0], 35, "memory: the bad address reported at its line");
	tap_is_int(g.t.line[0], 4, "memory: record at its Error 0 line");
	tap_is_int(g.mem[0].severity, RAS_SEV_CORRECTED, "5.x: corrected");
	tap_is_int(g.mem[0].etype, 4, "5.x: error_type 4");
	tap_is_int(g.mem[0].pa, 0x898b86020, "5.x: physical address");
	tap_is_int(g.mem[0].bank, 513, "5.x: bank 513");
	tap_is_int(g.mem[0].bank_group, 2, "5.x: bank group 2");
	tap_is_int(g.mem[0].bank_address, 1, "5.x: bank address 1");
	tap_is_int(g.mem[0].row, 4887, "5.x: row");
	tap_is_int(g.mem[0].column, 1032, "5.x: column");
	tap_is_int(g.mem[0].bit_pos, 0, "5.x: bit position");
	tap_is_int(g.mem[0].mem_dev_handle, 0, "5.x: DMI handle 0x0000");
	tap_is_int(g.mem[0].pa_mask_lsb, RAS_DF_NONE, "5.x: zero mask is no mask");
	tap_is_str(g.t.note[0][0], "error_status=0x0000000000000000", "5.x: error_status as printed");
	tap_is_str(g.t.note[0][2], "error_source=2", "5.x: GHES source");
	tap_is_int(g.mem[1].severity, RAS_SEV_UNCORRECTED, "6.x: recoverable is uncorrected");
	tap_is_int(g.mem[1].pa_mask_lsb, 12, "6.x: 4 KiB mask");
	tap_is_int(g.mem[1].requestor_id, 0x27, "6.x: requestor id");
	tap_is_int(g.mem[1].rank, 1, "6.x: rank");
	tap_is_int(g.mem[1].mem_dev_handle, 0xe, "6.x: DMI handle");
	tap_is_int(g.mem[2].severity, RAS_SEV_FATAL, "fatal");
	tap_is_str(g.mem[2].fru_text, "Card03, ChnB, DIMM0", "fatal: FRU text");
	tap_is_str(g.t.note[2][1], "dimm_location=CPU 1 DIMM 8", "fatal: DIMM location kept");
	tap_is_int(g.mem[2].etype, RAS_DF_NONE, "fatal: no error type printed");
	tap_is_int(g.mem[2].node, 2, "fatal: node 2");
	tap_is_int(g.t.line[3], 36, "second section of a block read after a malformed first");
	tap_is_int(g.mem[3].row, 70000, "row above 16 bits (extended bits)");
	tap_is_int(g.mem[3].chip_id, 3, "chip id (extended bits 7:5)");
	tap_is_str(g.t.note[3][0], "error_status=Storage error in DRAM memory (0x0000000000000400)",
		   "5.x error_status text");
}

static const char arm[] =
	/* 1-18: James Morse's reply on linux-arm-kernel, 2020 (Kunpeng 920; "N, name" type) */
	"[  387.740609] {1}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 9\n"
	"[  387.748837] {1}[Hardware Error]: event severity: recoverable\n"
	"[  387.754470] {1}[Hardware Error]:  Error 0, type: recoverable\n"
	"[  387.760103] {1}[Hardware Error]:   section_type: ARM processor error\n"
	"[  387.766425] {1}[Hardware Error]:   MIDR: 0x00000000481fd010\n"
	"[  387.771972] {1}[Hardware Error]:   Multiprocessor Affinity Register (MPIDR): 0x0000000081080000\n"
	"[  387.780628] {1}[Hardware Error]:   error affinity level: 0\n"
	"[  387.786088] {1}[Hardware Error]:   running state: 0x1\n"
	"[  387.791115] {1}[Hardware Error]:   Power State Coordination Interface state: 0\n"
	"[  387.798301] {1}[Hardware Error]:   Error info structure 0:\n"
	"[  387.803761] {1}[Hardware Error]:   num errors: 1\n"
	"[  387.808356] {1}[Hardware Error]:    error_type: 0, cache error\n"
	"[  387.814160] {1}[Hardware Error]:    error_info: 0x0000000024400017\n"
	"[  387.820311] {1}[Hardware Error]:     transaction type: Instruction\n"
	"[  387.826461] {1}[Hardware Error]:     operation type: Generic error (type cannot be determined)\n"
	"[  387.835031] {1}[Hardware Error]:     cache level: 1\n"
	"[  387.839878] {1}[Hardware Error]:     the error has been corrected\n"
	"[  387.845942] {1}[Hardware Error]:    physical fault address: 0x00000027caf50770\n"
	/* 19-34: QEMU ghes_inject.py output in Mauro Carvalho Chehab's series, 2025 ("0xNN:" mask) */
	"[  774.866308] {4}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 1\n"
	"[  774.866583] {4}[Hardware Error]: event severity: recoverable\n"
	"[  774.866738] {4}[Hardware Error]:  Error 0, type: recoverable\n"
	"[  774.866889] {4}[Hardware Error]:   section_type: ARM processor error\n"
	"[  774.867048] {4}[Hardware Error]:   MIDR: 0x00000000000f0510\n"
	"[  774.867189] {4}[Hardware Error]:   running state: 0x0\n"
	"[  774.867321] {4}[Hardware Error]:   Power State Coordination Interface state: 0\n"
	"[  774.867511] {4}[Hardware Error]:   Error info structure 0:\n"
	"[  774.867679] {4}[Hardware Error]:   num errors: 2\n"
	"[  774.867801] {4}[Hardware Error]:    first error captured\n"
	"[  774.867801] {4}[Hardware Error]:    error_type: 0x02: cache error\n"
	"[  774.867962] {4}[Hardware Error]:    error_info: 0x000000000091000f\n"
	"[  774.868124] {4}[Hardware Error]:     transaction type: Data Access\n"
	"[  774.868280] {4}[Hardware Error]:     cache error, operation type: Data write\n"
	"[  774.868465] {4}[Hardware Error]:     cache level: 2\n"
	"[  774.868592] {4}[Hardware Error]:     processor context not corrupted\n"
	/* 35-44: Junhao He's report on linux-acpi, 2025 (vendor bytes) */
	"[ 1429.861800][    C1] {59}[Hardware Error]:  Error 0, type: recoverable\n"
	"[ 1429.874658][    C1] {59}[Hardware Error]:   section_type: ARM processor error\n"
	"[ 1429.887516][    C1] {59}[Hardware Error]:   MIDR: 0x0000000000000000\n"
	"[ 1429.901159][    C1] {59}[Hardware Error]:   Multiprocessor Affinity Register (MPIDR): 0x0000000081000100\n"
	"[ 1429.933319][    C1] {59}[Hardware Error]:   Error info structure 0:\n"
	"[ 1429.946269][    C1] {59}[Hardware Error]:    error_type: 0, cache error\n"
	"[ 1430.013425][    C1] {59}[Hardware Error]:   Vendor specific error info has 20 bytes:\n"
	"[ 1430.025424][    C1] {59}[Hardware Error]:    00000000: 00000001 00000002 00000003 00000004  ................\n"
	"[ 1430.025424][    C1] {59}[Hardware Error]:    00000010: 05 06 07 08                                      ....\n"
	"[ 1430.294255][T54990] Memory failure: 0x1000093: already hardware poisoned\n"
	/* 45-50: the kernel's own refusal (Mauro Carvalho Chehab, linux-efi, 2025; BERT, no {N}) */
	"[Hardware Error]: event severity: recoverable\n"
	"[Hardware Error]:  Error 0, type: recoverable\n"
	"[Hardware Error]:   section_type: ARM processor error\n"
	"[Hardware Error]:   MIDR: 0xff304b2f8476870a\n"
	"[Hardware Error]:   section length: 854918320, CPER size: 67\n"
	"[Hardware Error]:   section length is too big\n";

static void test_arm(void)
{
	struct got g;

	memset(&g, 0, sizeof(g));
	tap_is_int(ghes_text_parse(arm, strlen(arm), on_rec, on_err, &g), 3, "arm: three sections");
	tap_is_int(g.t.n_err, 1, "arm: the kernel's refusal reported");
	tap_is_int(g.t.err_line[0], 50, "arm: at its line");
	tap_is_str(g.arm[0].implementer, "HiSilicon", "arm: MIDR implementer");
	tap_is_int(g.arm[0].mpidr, 0x81080000, "arm: MPIDR");
	tap_is_int(g.arm[0].aff2, 8, "arm: Aff2");
	tap_is_int(g.arm[0].affinity_level, 0, "arm: error affinity level");
	tap_is_int(g.arm[0].n_err_info, 1, "arm: one error information structure");
	tap_is_str(g.arm[0].err_type, "cache error", "old 'N, name' type read as the cache bit");
	tap_is_int(g.arm[0].error_info, 0x24400017, "arm: error_info");
	tap_is_int(g.arm[0].phys_fault_addr, 0x27caf50770, "arm: physical fault address");
	tap_is_int(g.arm[0].severity, RAS_SEV_UNCORRECTED, "arm: section severity recoverable");
	tap_is_int(g.arm[1].multiple_error, 1, "arm: num errors 2 is multiple_error 1");
	tap_is_str(g.arm[1].err_type, "cache error", "new '0x02:' mask");
	tap_ok(strstr(g.arm[1].err_flags, "first") != NULL, "arm: first error flag");
	tap_ok(strstr(g.arm[1].err_info_text, "level 2") != NULL, "arm: cache level from error_info");
	tap_is_int(g.arm[1].mpidr, (int64_t)UINT64_MAX, "arm: MPIDR not printed is all ones");
	tap_is_int(g.arm[2].oem_len, 20, "arm: vendor bytes length");
	tap_is_str(g.arm[2].oem_hex, "0100000002000000030000000400000005060708",
		   "arm: vendor hex dump, 32-bit groups little-endian then single bytes");
}

static const char sections[] =
	/* 1-8: Aristeu Rozanski's report on linux-arm-kernel, 2023 (Ampere Altra) */
	"[    0.299622] {1}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 0\n"
	"[    0.299626] {1}[Hardware Error]: event severity: recoverable\n"
	"[    0.299629] {1}[Hardware Error]:  Error 0, type: recoverable\n"
	"[    0.299633] {1}[Hardware Error]:   section type: unknown, e8ed898d-df16-43cc-8ecc-54f060ef157f\n"
	"[    0.299638] {1}[Hardware Error]:   section length: 0x30\n"
	"[    0.299645] {1}[Hardware Error]:   00000000: 00000005 ec30000e 00080110 80001001  ......0.........\n"
	"[    0.299648] {1}[Hardware Error]:   00000010: 00000300 00000000 00000000 00000000  ................\n"
	"[    0.299650] {1}[Hardware Error]:   00000020: 00000000 00000000 00000000 00000000  ................\n"
	/* 9-15: Punit Agrawal on linux-acpi, 2020 (BERT, first rows of a 0x290-byte section) */
	"[Hardware Error]: event severity: fatal\n"
	"[Hardware Error]:  Error 0, type: fatal\n"
	"[Hardware Error]:   section type: unknown, 81212a96-09ed-4996-9471-8d729c8e69ed\n"
	"[Hardware Error]:   section length: 0x290\n"
	"[Hardware Error]:   00000000: 00000001 00000000 00000000 00020002  ................\n"
	"[Hardware Error]:   00000010: 00020002 0000001f 00000320 00000000  ........ .......\n"
	"[Hardware Error]:   00000030: 00000000 00000000 00000000 00000000  ................\n"
	/* 16-24: synthetic (cper.c cper_print_pcie): a fatal PCIe section with its AER registers */
	"{7}[Hardware Error]: event severity: fatal\n"
	"{7}[Hardware Error]:  Error 0, type: fatal\n"
	"{7}[Hardware Error]:   section_type: PCIe error\n"
	"{7}[Hardware Error]:   device_id: 0000:5e:00.0\n"
	"{7}[Hardware Error]:   vendor_id: 0x8086, device_id: 0x0953\n"
	"{7}[Hardware Error]:   aer_uncor_status: 0x00100000, aer_uncor_mask: 0x00000000\n"
	"{7}[Hardware Error]:   aer_uncor_severity: 0x00062030\n"
	"{7}[Hardware Error]:   TLP Header: 40000001 0000000f 90028090 00000000\n"
	"{8}[Hardware Error]:  Error 0, type: corrected\n"
	"{8}[Hardware Error]:   section_type: general processor error\n";

static void test_sections(void)
{
	struct got g;

	memset(&g, 0, sizeof(g));
	tap_is_int(ghes_text_parse(sections, strlen(sections), on_rec, on_err, &g), 3,
		   "sections: unknown, BERT and fatal PCIe read; a second BERT row gap refused");
	tap_is_int(g.t.n_err, 1, "sections: one refusal");
	tap_is_int(g.t.err_line[0], 15, "sections: the missing hex dump row");
	tap_is_str(g.sec[0].sec_type_guid, "e8ed898d-df16-43cc-8ecc-54f060ef157f", "unknown: GUID kept");
	tap_is_int(g.sec[0].length, 48, "unknown: section length");
	tap_is_int(g.sec[0].data_received, 48, "unknown: every byte read from the dump");
	tap_ok(strncmp(g.sec[0].raw_hex, "050000000e0030ec1001080001100080", 32) == 0,
	       "unknown: 32-bit groups back to bytes");
	tap_is_str(g.t.note[0][2], "error_source=0", "unknown: GHES source 0");
	tap_is_int(g.kind[1], GHES_TEXT_PCIE, "fatal PCIe section read as AER");
	tap_is_int(g.aer[1].severity, RAS_SEV_FATAL, "fatal PCIe: fatal");
	tap_ok(strstr(g.aer[1].errors, "Unsupported Request") != NULL, "fatal PCIe: bit 20");
	tap_is_str(g.aer[1].dev_name, "0000:5e:00.0", "fatal PCIe: device");
	tap_is_str(g.sec[2].sec_type_name, "Processor Generic", "named section type mapped to its GUID");
	tap_is_int(g.sec[2].length, 192, "general processor section without fields: rebuilt at its size");
	tap_is_str(g.sec[2].detail, "", "general processor section without fields: nothing claimed");
	tap_is_int(ghes_text_parse(NULL, 1, on_rec, NULL, NULL), -EINVAL, "NULL buffer");
}

static const char processor[] =
	/* 1-12: a TDX machine-check write-up (Sapphire Rapids, error injection), 2024 */
	"[  896.157136] {1}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 0\n"
	"[  896.157139] {1}[Hardware Error]: event severity: recoverable\n"
	"[  896.157140] {1}[Hardware Error]:  Error 0, type: recoverable\n"
	"[  896.157141] {1}[Hardware Error]:  fru_text: Socket1\n"
	"[  896.157142] {1}[Hardware Error]:   section_type: general processor error\n"
	"[  896.157143] {1}[Hardware Error]:   processor_type: 0, IA32/X64\n"
	"[  896.157144] {1}[Hardware Error]:   processor_isa: 2, X64\n"
	"[  896.157145] {1}[Hardware Error]:   error_type: 0x08\n"
	"[  896.157146] {1}[Hardware Error]:   micro-architectural error\n"
	"[  896.157147] {1}[Hardware Error]:   operation: 0, unknown or generic\n"
	"[  896.157148] {1}[Hardware Error]:   version_info: 0x00000000000c06f2\n"
	"[  896.157149] {1}[Hardware Error]:   processor_id: 0x000000000000008c\n"
	/* 13-46: BERT of an AMD Zen 3 server, quoted in a public crash-decoding tool's README, 2026 */
	"BERT: Error records from previous boot:\n"
	"[Hardware Error]: event severity: fatal\n"
	"[Hardware Error]:  Error 0, type: fatal\n"
	"[Hardware Error]:   section_type: IA32/X64 processor error\n"
	"[Hardware Error]:   Local APIC_ID: 0x3c\n"
	"[Hardware Error]:   CPUID Info:\n"
	"[Hardware Error]:   00000000: 00a00f11 00000000 3c400800 00000000\n"
	"[Hardware Error]:   00000010: 76fa320b 00000000 178bfbff 00000000\n"
	"[Hardware Error]:   00000020: 00000000 00000000 00000000 00000000\n"
	"[Hardware Error]:   Error Information Structure 0:\n"
	"[Hardware Error]:    Error Structure Type: cache error\n"
	"[Hardware Error]:    Check Information: 0x00000000060200ff\n"
	"[Hardware Error]:     Transaction Type: 2, Generic\n"
	"[Hardware Error]:     Operation: 0, generic error\n"
	"[Hardware Error]:     Level: 0\n"
	"[Hardware Error]:     Processor Context Corrupt: true\n"
	"[Hardware Error]:     Uncorrected: true\n"
	"[Hardware Error]:     Precise IP: false\n"
	"[Hardware Error]:     Restartable IP: false\n"
	"[Hardware Error]:     Overflow: false\n"
	"[Hardware Error]:   Context Information Structure 0:\n"
	"[Hardware Error]:    Register Context Type: MSR Registers (Machine Check and other MSRs)\n"
	"[Hardware Error]:    Register Array Size: 0x0080\n"
	"[Hardware Error]:    MSR Address: 0xc0002030\n"
	"[Hardware Error]:    Register Array:\n"
	"[Hardware Error]:    00000000: 0000000000000000 b2a0000000090108\n"
	"[Hardware Error]:    00000010: 0000000000000000 d010000000000000\n"
	"[Hardware Error]:    00000020: 00000003000001f9 000300b00000003c\n"
	"[Hardware Error]:    00000030: 000000004d000001 0000000000000000\n"
	"[Hardware Error]:    00000040: 0000000000000000 0000000000000000\n"
	"[Hardware Error]:    00000050: 0000000000000000 0000000000000000\n"
	"[Hardware Error]:    00000060: 0000000000000000 0000000000000000\n"
	"[Hardware Error]:    00000070: 0000000000000000 0000000000000000\n"
	"BERT: Total records found: 1\n"
	/* 47-54: synthetic (cper-x86.c): a structure of a type the kernel does not know */
	"{3}[Hardware Error]: event severity: corrected\n"
	"{3}[Hardware Error]:  Error 0, type: corrected\n"
	"{3}[Hardware Error]:   section_type: IA32/X64 processor error\n"
	"{3}[Hardware Error]:   Error Information Structure 0:\n"
	"{3}[Hardware Error]:    Error Structure Type: unknown\n"
	"{3}[Hardware Error]:    Error Structure Type: 01020304-0506-0708-090a-0b0c0d0e0f10\n"
	"{3}[Hardware Error]:    Instruction Pointer: 0xffffffff81000000\n"
	"{3}[Hardware Error]:   Local APIC_ID: 0x2\n"
	/* 55-61: Paul Menzel on linux-acpi, 2020 (Dell XPS 13 9310 BERT; the mail's wrapping undone) */
	"kernel: BERT: Error records from previous boot:\n"
	"kernel: [Hardware Error]: event severity: fatal\n"
	"kernel: [Hardware Error]:  Error 0, type: fatal\n"
	"kernel: [Hardware Error]:   section_type: Firmware Error Record Reference\n"
	"kernel: [Hardware Error]:   Firmware Error Record Type: SOC Firmware Error Record Type2\n"
	"kernel: [Hardware Error]:   Revision: 2\n"
	"kernel: [Hardware Error]:   Record Identifier: 8f87f311-c998-4d9e-a0c4-6065518c4f6d\n"
	"kernel: [Hardware Error]:   00000000: 0100a306 00000280 ca5824d3 000003ab  .........$X.....\n"
	/* 63-65: synthetic: a context line with no context structure open */
	"{9}[Hardware Error]:  Error 0, type: corrected\n"
	"{9}[Hardware Error]:   section_type: IA32/X64 processor error\n"
	"{9}[Hardware Error]:    Register Array Size: 0x0010\n";

static void test_processor(void)
{
	struct got g;

	memset(&g, 0, sizeof(g));
	tap_is_int(ghes_text_parse(processor, strlen(processor), on_rec, on_err, &g), 4,
		   "processor: general, two IA32/X64 and a firmware reference section read; the misplaced line refused");
	tap_is_int(g.t.n_err, 1, "processor: one refusal");
	tap_is_int(g.t.err_line[0], 65, "processor: Register Array Size outside a context structure");
	tap_is_str(g.sec[3].sec_type_name, "Firmware Error Record Reference", "firmware reference: section type");
	tap_is_int(g.t.line[3], 57, "firmware reference: at its Error line");
	tap_is_str(g.sec[3].detail, "SOC Firmware Error Record Type2, revision 2, record identifier "
		   "8f87f311-c998-4d9e-a0c4-6065518c4f6d", "firmware reference: type, revision, identifier");
	tap_is_int(g.sec[3].length, 48, "firmware reference: N.2.10 header then the dump");
	tap_ok(strncmp(g.sec[3].raw_hex + 64, "06a30001", 8) == 0, "firmware reference: the dump after the header");
	tap_is_str(g.sec[2].detail, "Local APIC_ID 0x2: unknown error structure, IP 0xffffffff81000000",
		   "IA32/X64: a structure of unknown type said so, its IP kept");
	tap_ok(strncmp(g.sec[2].raw_hex + 128, "04030201060508070", 16) == 0,
	       "IA32/X64: the unknown structure's GUID from its second type line");
	tap_is_int(g.kind[0], GHES_TEXT_SECTION, "general processor: handed over as a CPER section");
	tap_is_int(g.t.line[0], 3, "general processor: at its Error line");
	tap_is_str(g.sec[0].sec_type_name, "Processor Generic", "general processor: section type");
	tap_is_int(g.sec[0].severity, RAS_SEV_UNCORRECTED, "general processor: recoverable");
	tap_is_int(g.sec[0].length, 192, "general processor: UEFI N.2.4.1 size");
	tap_is_str(g.sec[0].detail,
		   "processor_type IA32/X64, processor_isa X64, error_type micro-architectural error, "
		   "operation unknown or generic, version_info 0xc06f2, processor_id 0x8c",
		   "general processor: every printed field, in the kernel's names");
	tap_is_str(g.sec[0].fru_text, "Socket1", "general processor: fru_text");
	tap_is_str(g.sec[1].sec_type_name, "Processor Specific: IA32/X64", "IA32/X64: section type");
	tap_is_int(g.sec[1].severity, RAS_SEV_FATAL, "IA32/X64: fatal");
	tap_is_int(g.t.line[1], 15, "IA32/X64: at its Error line");
	tap_is_int(g.sec[1].length, 64 + 64 + 16 + 128, "IA32/X64: header, one error structure, one context");
	tap_is_int(g.sec[1].data_truncated, 0, "IA32/X64: every byte kept");
	tap_is_str(g.sec[1].detail,
		   "Local APIC_ID 0x3c: cache error (Transaction Type Generic, Operation generic error, "
		   "Level 0, Processor Context Corrupt, Uncorrected); context MSR Registers from MSR "
		   "0xc0002030 (bank 3: MCA_STATUS 0xb2a0000000090108, MCA_IPID 0x300b00000003c)",
		   "IA32/X64: check information and the bank's registers from the MSR array");
	tap_ok(strncmp(g.sec[1].raw_hex, "07010000000000003c00000000000000110fa00000000000", 48) == 0,
	       "IA32/X64: validation bits (APIC, CPUID, 1 error, 1 context), APIC ID, CPUID dump");
	tap_is_str(g.t.note[1][2], "", "BERT: no error source");
	return;
}

static const char cxl[] =
	/* 1-30: synthetic, from cper_cxl.c's format strings: poison received by a CXL device */
	"{4}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 1\n"
	"{4}[Hardware Error]: event severity: recoverable\n"
	"{4}[Hardware Error]:  Error 0, type: recoverable\n"
	"{4}[Hardware Error]:   section_type: CXL Protocol Error\n"
	"{4}[Hardware Error]:    agent_type: 2, CXL Device\n"
	"{4}[Hardware Error]:    agent_address: 0000:0d:00.0\n"
	"{4}[Hardware Error]:    slot: 0\n"
	"{4}[Hardware Error]:    vendor_id: 0x8086, device_id: 0x0d93\n"
	"{4}[Hardware Error]:    sub_vendor_id: 0x8086, sub_device_id: 0x0000\n"
	"{4}[Hardware Error]:    class_code: 0502\n"
	"{4}[Hardware Error]:    lower_dw: 0x00000001, upper_dw: 0x00000002\n"
	"{4}[Hardware Error]:   00000000: 00420010 10008fe2 00002950 00437d22\n"
	"{4}[Hardware Error]:   00000010: 10220040 00000000 00000000 00000000\n"
	"{4}[Hardware Error]:   00000020: 00000000 00000000 00000000 00000000\n"
	"{4}[Hardware Error]:   00000030: 00000000 00000000 00000000\n"
	"{4}[Hardware Error]:    DVSEC length: 0x0000\n"
	"{4}[Hardware Error]:    CXL DVSEC:\n"
	"{4}[Hardware Error]:    Error log length: 0x0058\n"
	"{4}[Hardware Error]:    CXL Error Log:\n"
	"{4}[Hardware Error]:    cxl_ras_uncor_status: 0x00000400\n"
	"{4}[Hardware Error]:    cxl_ras_uncor_mask: 0x00000000\n"
	"{4}[Hardware Error]:    cxl_ras_uncor_severity: 0x00000400\n"
	"{4}[Hardware Error]:    cxl_ras_cor_status: 0x00000000\n"
	"{4}[Hardware Error]:    cxl_ras_cor_mask: 0x00000000\n"
	"{4}[Hardware Error]:    cap_control: 0x0000000a\n"
	"{4}[Hardware Error]:    Header Log Registers:\n"
	"{4}[Hardware Error]:   00000000: 00000001 00000002 00000003 00000004\n"
	"{4}[Hardware Error]:   00000010: 00000000 00000000 00000000 00000000\n"
	"{4}[Hardware Error]:   00000020: 00000000 00000000 00000000 00000000\n"
	"{4}[Hardware Error]:   00000030: 00000000 00000000 00000000 00000000\n"
	/* 31-38: synthetic: a corrected one on a root port, CRC threshold (bit 2) unmasked */
	"{5}[Hardware Error]: event severity: corrected\n"
	"{5}[Hardware Error]:  Error 0, type: corrected\n"
	"{5}[Hardware Error]:   section_type: CXL Protocol Error\n"
	"{5}[Hardware Error]:    agent_type: 5, CXL Root Port\n"
	"{5}[Hardware Error]:    agent_address: 0000:00:01.1\n"
	"{5}[Hardware Error]:    Error log length: 0x0058\n"
	"{5}[Hardware Error]:    cxl_ras_cor_status: 0x00000006\n"
	"{5}[Hardware Error]:    cxl_ras_cor_mask: 0x00000002\n"
	/* 39-42: synthetic: a malformed address, then the next block is still read */
	"{6}[Hardware Error]:  Error 0, type: fatal\n"
	"{6}[Hardware Error]:   section_type: CXL Protocol Error\n"
	"{6}[Hardware Error]:    agent_address: 0000:0d:00\n"
	"{6}[Hardware Error]:    agent_type: 2, CXL Device\n"
	/* 43-56: synthetic (cper.c, an unknown section's dump; include/cxl/event.h): a General Media event */
	"{7}[Hardware Error]: event severity: recoverable\n"
	"{7}[Hardware Error]:  Error 0, type: recoverable\n"
	"{7}[Hardware Error]:   section type: unknown, fbcd0a77-c260-417f-85a9-088b1621eba6\n"
	"{7}[Hardware Error]:   section length: 0x90\n"
	"{7}[Hardware Error]:   00000000: 00000090 00000007 00000000 0d938086  ................\n"
	"{7}[Hardware Error]:   00000010: 000d0000 00000000 00000001 00000002  ................\n"
	"{7}[Hardware Error]:   00000020: 00000a80 00000001 34567890 00000012  ........xV4.....\n"
	"{7}[Hardware Error]:   00000030: 00000000 00000000 00000000 00000000  ................\n"
	"{7}[Hardware Error]:   00000040: 12345001 00000000 07010001 05010200  .P4.............\n"
	"{7}[Hardware Error]:   00000050: 00000000 00000000 00000000 00000000  ................\n"
	"{7}[Hardware Error]:   00000060: 00000000 00000000 00000000 00000000  ................\n"
	"{7}[Hardware Error]:   00000070: 00000000 00000000 00000000 00000000  ................\n"
	"{7}[Hardware Error]:   00000080: 00000000 00000000 00000000 00000000  ................\n";

static void test_cxl(void)
{
	struct got g;

	memset(&g, 0, sizeof(g));
	tap_is_int(ghes_text_parse(cxl, strlen(cxl), on_rec, on_err, &g), 3,
		   "cxl: two protocol error sections and a component event read, the malformed one refused");
	tap_is_int(g.t.n_err, 1, "cxl: one refusal");
	tap_is_int(g.t.err_line[0], 41, "cxl: the agent_address without a function");
	tap_is_str(g.sec[0].sec_type_name, "CXL Protocol Error", "cxl: section type");
	tap_is_int(g.sec[0].length, 116 + 88, "cxl: N.2.13 header and the RAS capability registers");
	tap_is_str(g.sec[0].detail,
		   "CXL Device 0000:0d:00.0 [8086:0d93], serial 0x200000001; uncorrectable: "
		   "Received Poison From Peer (first: Received Poison From Peer)",
		   "cxl: agent, ids, serial, unmasked status and the first error pointer");
	tap_ok(strncmp(g.sec[0].raw_hex + 96, "100042", 6) == 0, "cxl: capability dump at offset 48");
	tap_ok(strncmp(g.sec[0].raw_hex + 2 * (116 + 24), "01000000", 8) == 0,
	       "cxl: header log after the six registers");
	tap_is_int(g.sec[1].severity, RAS_SEV_CORRECTED, "cxl: corrected section");
	tap_is_str(g.sec[1].detail, "CXL Root Port 0000:00:01.1; correctable: CRC Threshold Hit",
		   "cxl: a corrected section names the unmasked correctable bits");
	tap_is_int(g.kind[2], GHES_TEXT_CXL, "cxl event: handed to the CXL tracepoint decoder");
	tap_is_int(g.t.line[2], 44, "cxl event: at its Error line");
	tap_is_str(g.cxl[2].event, "cxl_general_media", "cxl event: as the cxl_general_media tracepoint");
	tap_is_str(g.cxl[2].host, "0000:0d:00.0", "cxl event: the device from the section's device id");
	tap_is_int(g.cxl[2].serial, 0x200000001LL, "cxl event: serial number");
	tap_is_int(g.cxl[2].dpa, 0x12345000, "cxl event: DPA without its flag bits");
	tap_is_str(g.cxl[2].log_name, "Failure", "cxl event: the record's own severity is its log");
	tap_is_str(g.cxl[2].record_type, "ECC Error", "cxl event: memory event type");
	tap_is_str(g.cxl[2].transaction_name, "Host Read", "cxl event: transaction type");
	tap_is_int(g.cxl[2].channel, 2, "cxl event: channel");
	tap_is_int(g.cxl[2].rank, 1, "cxl event: rank");
	tap_is_int(g.cxl[2].device, 5, "cxl event: device");
	tap_is_int(g.cxl[2].severity, RAS_SEV_UNCORRECTED, "cxl event: uncorrectable descriptor");
}

int main(void)
{
	test_memory();
	test_arm();
	test_sections();
	test_processor();
	test_cxl();
	return tap_done();
}
