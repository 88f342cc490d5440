/* SPDX-License-Identifier: MIT */
/*
 * Intel per-model golden vectors: bank names, memory controller / channel /
 * DIMM / rank location and MSCOD meanings. Each vector names the SDM Vol. 3B
 * "Interpreting Machine Check Error Codes" section ("Incremental Decoding Information", by CPUID
 * DisplayFamily_DisplayModel) or other public source its values come from.
 */
#include <string.h>
#include "decoders/mce.h"
#include "tests/decoders/said.h"
#include "tests/tap.h"

#define VAL   (1ULL << 63)
#define UC    (1ULL << 61)
#define EN    (1ULL << 60)
#define MISCV (1ULL << 59)
#define ADDRV (1ULL << 58)
#define PCC   (1ULL << 57)
#define S     (1ULL << 56)
#define AR    (1ULL << 55)
#define OTHER_INFO1 (1ULL << 33)
#define SER_P (1ULL << 24)
#define MSCOD(x) ((uint64_t)(x) << 16)
#define N RAS_DF_NONE

struct vec {
	const char *source;
	unsigned family, model, stepping, bank;
	uint64_t status, misc, mcgcap;
	const char *model_name, *bank_name, *cls;
	int64_t mem_ctrl, channel, dimm, rank, chip_select;
	const char *model_text; /* substring expected in model_text, "" = must be empty */
	enum ras_severity sev;
};

static const struct vec vectors[] = {
	{ "SDM 06_55H Intel IMC MC error codes (i=13-18), MSCOD bit 19; mcelog skx channel map",
	  6, 0x55, 4, 15, VAL | EN | MSCOD(0x0008) | 0x00c0, 0, SER_P,
	  "Skylake-SP", "IMC", "memory", 1, 0, N, N, N, "corrected patrol scrub error", RAS_SEV_CORRECTED },
	{ "SDM 06_55H IMC, STATUS[27]=1 selects MSCOD code 0x0805",
	  6, 0x55, 4, 17, VAL | UC | EN | MSCOD(0x0805) | 0x0090, 0, SER_P,
	  "Skylake-SP", "IMC", "memory", 0, 2, N, N, N, "completion FIFO overflow", RAS_SEV_UCNA },
	{ "SDM 06_55H M2M MC error codes (i=7-8), MSCOD bit 16",
	  6, 0x55, 4, 8, VAL | EN | MSCOD(0x0001) | 0x0091, 0, SER_P,
	  "Skylake-SP", "M2M", "memory", 1, 1, N, N, N, "memory controller read data error", RAS_SEV_CORRECTED },
	{ "SDM 06_55H interconnect MC error codes (i=5,12,19), MSCOD 0x30",
	  6, 0x55, 4, 5, VAL | EN | MSCOD(0x0030) | 0x0c0f, 0, SER_P,
	  "Skylake-SP", "UPI", "bus", N, N, N, N, N, "corrected: CRC error recovered by link-level retry without re-init",
	  RAS_SEV_CORRECTED },
	{ "SDM 06_55H IA32_MC4_STATUS (PCU) STATUS[31:24] = 0x81",
	  6, 0x55, 4, 4, VAL | UC | EN | MSCOD(0x8100) | 0x0402, 0, SER_P,
	  "Skylake-SP", "PCU", "internal", N, N, N, N, N, "MCA_RECOVERABLE_DIE_THERMAL_TOO_HOT", RAS_SEV_UCNA },
	{ "SDM 06_6AH IA32_MC4_STATUS (PCU) STATUS[31:24] = 0x0e",
	  6, 0x6a, 6, 4, VAL | UC | EN | (1ULL << 57) | MSCOD(0x0e00) | 0x0402, 0, SER_P,
	  "Ice Lake-SP", "PCU", "internal", N, N, N, N, N, "MCA_DMI_TRAINING_TIMEOUT", RAS_SEV_FATAL },
	{ "SDM 06_3FH IA32_MC4_STATUS (PCU) STATUS[31:24] = 0x4f",
	  6, 0x3f, 2, 4, VAL | UC | EN | (1ULL << 57) | MSCOD(0x4f00) | 0x0402, 0, SER_P,
	  "Haswell-EP", "PCU", "internal", N, N, N, N, N, "MC_SVID_COMMAND_ERROR", RAS_SEV_FATAL },
	{ "Cascade Lake = 06_55H stepping 5-7 (SDM Vol. 4 Table 2-1)",
	  6, 0x55, 7, 13, VAL | EN | 0x0090, 0, SER_P,
	  "Cascade Lake-SP", "IMC", "memory", 0, 0, N, N, N, "", RAS_SEV_CORRECTED },
	{ "SDM 06_6AH IMC MSCOD 0x0080; i10nm_base.c MISC[58:56] rank, DIMM = rank/4",
	  6, 0x6a, 6, 18, VAL | EN | MISCV | ADDRV | MSCOD(0x0080) | 0x0091, (5ULL << 56) | (1ULL << 59), SER_P,
	  "Ice Lake-SP", "IMC", "memory", 1, 1, 1, 1, N, "corrected read error", RAS_SEV_CORRECTED },
	{ "i10nm_base.c: no rank decode in DDR-T ECC mode (MISC[62:59]=8)",
	  6, 0x6a, 6, 18, VAL | EN | MISCV | MSCOD(0x0080) | 0x0091, (5ULL << 56) | (8ULL << 59), SER_P,
	  "Ice Lake-SP", "IMC", "memory", 1, 1, N, N, N, "corrected read error", RAS_SEV_CORRECTED },
	{ "SDM 06_6AH M2M (i=12,16,20,24), MSCOD bit 21",
	  6, 0x6a, 6, 20, VAL | EN | MSCOD(0x0020) | 0x0090, 0, SER_P,
	  "Ice Lake-SP", "M2M", "memory", 2, 0, N, N, N, "M2M timeout", RAS_SEV_CORRECTED },
	{ "SDM 06_8FH IMC (i=13-20) MSCOD 0x0080; i10nm_base.c SPR MISC[57] rank, [58] DIMM",
	  6, 0x8f, 8, 17, VAL | EN | MISCV | MSCOD(0x0080) | 0x0090, (1ULL << 57) | (1ULL << 58), SER_P,
	  "Sapphire Rapids", "IMC", "memory", 2, 0, 1, 1, N, "corrected read error", RAS_SEV_CORRECTED },
	{ "Emerald Rapids 06_CFH uses the 06_8FH tables; UC patrol scrub, S=1 AR=0 is SRAO",
	  6, 0xcf, 2, 20, VAL | UC | EN | MISCV | ADDRV | S | MSCOD(0x0010) | 0x00c1, 0, SER_P,
	  "Emerald Rapids", "IMC", "memory", 3, 1, 0, 0, N, "uncorrected patrol scrub error", RAS_SEV_SRAO },
	{ "SDM 06_8FH M2M (i=12) MSCOD[7:0] 0x09",
	  6, 0x8f, 8, 12, VAL | EN | MSCOD(0x0009) | 0x0090, 0, SER_P,
	  "Sapphire Rapids", "M2M", "memory", N, 0, N, N, N, "timeout", RAS_SEV_CORRECTED },
	{ "SDM 06_ADH MCCHAN (i=13-24) MSCOD 0x0010, MISC[57:55] chip select valid with STATUS[33]",
	  6, 0xad, 1, 15, VAL | EN | MISCV | OTHER_INFO1 | MSCOD(0x0010) | 0x00c2, 5ULL << 55, SER_P,
	  "Granite Rapids", "MCCHAN", "memory", N, 2, N, N, 5, "uncorrected patrol scrub error", RAS_SEV_CORRECTED },
	{ "SDM 06_ADH B2CMI (i=12) MSCOD 0x0004",
	  6, 0xad, 1, 12, VAL | EN | MSCOD(0x0004) | 0x0090, 0, SER_P,
	  "Granite Rapids", "B2CMI", "memory", N, 0, N, N, N, "security mismatch", RAS_SEV_CORRECTED },
	{ "Diamond Rapids (Intel public decode data) MCCHAN MSCOD 0x0108; no MISC without STATUS[33]",
	  19, 1, 0, 20, VAL | EN | MISCV | MSCOD(0x0108) | 0x0090, 3ULL << 55, SER_P,
	  "Diamond Rapids", "MCCHAN", "memory", N, 1, N, N, N, "DDR link failure", RAS_SEV_CORRECTED },
	{ "SDM 06_3EH 16.5.2 Table 16-18 IMC (i=9-16) MSCOD 010H: uncorrected patrol scrub, SRAO",
	  6, 0x3e, 4, 13, VAL | UC | EN | S | MISCV | ADDRV | MSCOD(0x0010) | 0x00c0, 0, SER_P,
	  "Ivy Bridge-EP", "IMC", "memory", 1, 0, N, N, N, "uncorrected patrol scrub error", RAS_SEV_SRAO },
	{ "SDM 06_3EH Table 16-18 MSCOD 080H: corrected read error (Additional Error logging Mode-1)",
	  6, 0x3e, 4, 9, VAL | EN | MSCOD(0x0080) | 0x0090, 0, SER_P,
	  "Ivy Bridge-EP", "IMC", "memory", 0, 0, N, N, N, "corrected memory read error", RAS_SEV_CORRECTED },
	{ "SDM 06_2DH 16.4.2 Table 16-15 IMC MSCOD 008H",
	  6, 0x2d, 7, 9, VAL | EN | MSCOD(0x0008) | 0x00c1, 0, SER_P,
	  "Sandy Bridge-EP", "IMC", "memory", 0, 1, N, N, N, "corrected patrol scrub error", RAS_SEV_CORRECTED },
	{ "SDM 06_2DH Table 16-15: bit 23 is not listed for Sandy Bridge-EP",
	  6, 0x2d, 7, 9, VAL | EN | MSCOD(0x0080) | 0x0091, 0, SER_P,
	  "Sandy Bridge-EP", "IMC", "memory", 0, 1, N, N, N, "MSCOD 0x0080 not in the documented table", RAS_SEV_CORRECTED },
	{ "SDM 06_3FH IMC (i=9-16) MSCOD bit 23",
	  6, 0x3f, 2, 10, VAL | EN | MSCOD(0x0080) | 0x0091, 0, SER_P,
	  "Haswell-EP", "IMC", "memory", 0, 1, N, N, N, "corrected memory read error", RAS_SEV_CORRECTED },
	{ "SDM 06_4FH IMC (i=9-16) MSCOD bit 19",
	  6, 0x4f, 1, 14, VAL | EN | MSCOD(0x0008) | 0x00c1, 0, SER_P,
	  "Broadwell-EP", "IMC", "memory", 1, 1, N, N, N, "corrected patrol scrub error", RAS_SEV_CORRECTED },
	{ "SDM 06_4FH IMC: bit 23 is not listed, so no meaning is invented",
	  6, 0x4f, 1, 14, VAL | EN | MSCOD(0x0080) | 0x0091, 0, SER_P,
	  "Broadwell-EP", "IMC", "memory", 1, 1, N, N, N, "MSCOD 0x0080 not in the documented table", RAS_SEV_CORRECTED },
	{ "SDM 06_3FH QPI (i=5,20,21) MSCOD 0x31",
	  6, 0x3f, 2, 20, VAL | EN | MSCOD(0x0031) | 0x0e0f, 0, SER_P,
	  "Haswell-EP", "QPI", "bus", N, N, N, N, N, "without physical re-init", RAS_SEV_CORRECTED },
	{ "SDM 06_3EH: IA32_MC9-16 are IMC banks",
	  6, 0x3e, 4, 9, VAL | EN | 0x0090, 0, SER_P,
	  "Ivy Bridge-EP", "IMC", "memory", 0, 0, N, N, N, "", RAS_SEV_CORRECTED },
	{ "SDM 06_2DH IMC MISC (i=8-11): failing rank MISC[50:46] valid with MISC[62]",
	  6, 0x2d, 7, 9, VAL | EN | MISCV | 0x0091, (1ULL << 62) | (5ULL << 46), SER_P,
	  "Sandy Bridge-EP", "IMC", "memory", 0, 1, N, 5, N, "", RAS_SEV_CORRECTED },
	{ "SDM 06_1AH IA32_MC8 IMC: STATUS bit 16 read ECC, MISC[19:18] channel, [17:16] DIMM",
	  6, 0x1a, 5, 8, VAL | EN | MISCV | MSCOD(0x0001) | 0x009f, (2ULL << 18) | (1ULL << 16), 0,
	  "Nehalem-EP", "IMC", "memory", N, 2, 1, N, N, "memory read ECC error", RAS_SEV_CORRECTED },
	{ "Zhaoxin KH-50000 DRAM bank (Zhaoxin public decode data): code 1, channel B1, MISC[26:25] rank",
	  7, 0x7b, 1, 10, VAL | EN | MISCV | MSCOD(0x0001) | 0x0093, 2ULL << 25, 0,
	  "Zhaoxin KH-50000", "DRAM", "memory", N, 3, N, 2, N, "single-bit ECC error; channel B1", RAS_SEV_CORRECTED },
	{ "Zhaoxin KH-50000 LLC bank 17: STATUS[31:30]=01, STATUS[26:25]=3",
	  7, 0x7b, 1, 17, VAL | EN | (1ULL << 30) | (3ULL << 25) | 0x0001, 0, 0,
	  "Zhaoxin KH-50000", "LLC", "simple", N, N, N, N, N, "multi-bit ECC error in data", RAS_SEV_CORRECTED },
	/* Denverton 06_5FH: SDM "Intel IMC MC Error Codes for IA32_MCi_STATUS (i = 6, 7)", STATUS[20:16] flags. */
	{ "SDM 06_5FH IMC (i=6,7) MSCOD bit 16, MCACOD 0x00b0 address/command channel 0",
	  6, 0x5f, 1, 6, VAL | UC | EN | MSCOD(0x0001) | 0x00b0, 0, SER_P,
	  "Denverton (Atom C3000)", "IMC", "memory", N, 0, N, N, N, "command/address parity error", RAS_SEV_UCNA },
	{ "SDM 06_5FH IMC MSCOD bit 17: corrected demand/patrol scrub error, MCACOD 0x00c1 channel 1",
	  6, 0x5f, 1, 7, VAL | EN | MSCOD(0x0002) | 0x00c1, 0, SER_P,
	  "Denverton (Atom C3000)", "IMC", "memory", N, 1, N, N, N,
	  "corrected error on a demand read or patrol scrub", RAS_SEV_CORRECTED },
	{ "SDM 06_5FH IMC MSCOD bit 18: uncorrected patrol scrub, S=1 AR=0 is SRAO",
	  6, 0x5f, 1, 6, VAL | UC | EN | S | MISCV | ADDRV | MSCOD(0x0004) | 0x00c0, 0, SER_P,
	  "Denverton (Atom C3000)", "IMC", "memory", N, 0, N, N, N, "uncorrected patrol scrub error", RAS_SEV_SRAO },
	{ "SDM 06_5FH IMC MSCOD bit 19: uncorrected demand read, S=1 AR=1 is SRAR",
	  6, 0x5f, 1, 7, VAL | UC | EN | S | AR | ADDRV | MSCOD(0x0008) | 0x0091, 0, SER_P,
	  "Denverton (Atom C3000)", "IMC", "memory", N, 1, N, N, N, "uncorrected demand read error", RAS_SEV_SRAR },
	{ "SDM 06_5FH IMC MSCOD bit 20: write data buffer read ECC, channel not specified",
	  6, 0x5f, 1, 6, VAL | UC | EN | PCC | MSCOD(0x0010) | 0x00af, 0, SER_P,
	  "Denverton (Atom C3000)", "IMC", "memory", N, N, N, N, N, "write data buffer read ECC error", RAS_SEV_FATAL },
	{ "SDM 06_5FH IMC: two flags set, both named in bit order",
	  6, 0x5f, 1, 6, VAL | EN | MSCOD(0x0003) | 0x0090, 0, SER_P,
	  "Denverton (Atom C3000)", "IMC", "memory", N, 0, N, N, N,
	  "command/address parity error; corrected error on a demand read or patrol scrub", RAS_SEV_CORRECTED },
	{ "SDM 06_5FH IMC: bit 21 is not listed, so no meaning is invented",
	  6, 0x5f, 1, 7, VAL | EN | MSCOD(0x0020) | 0x0090, 0, SER_P,
	  "Denverton (Atom C3000)", "IMC", "memory", N, 0, N, N, N, "MSCOD 0x0020 not in the documented table", RAS_SEV_CORRECTED },
	{ "06_5FH: no public table for bank 3, nothing invented",
	  6, 0x5f, 1, 3, VAL | EN | MSCOD(0x0001) | 0x0136, 0, SER_P,
	  "Denverton (Atom C3000)", "", "cache", N, N, N, N, N, "", RAS_SEV_CORRECTED },
	/* Snow Ridge 06_86H: the Ice Lake 10 nm memory controller (i10nm_base.c type I10NM), banks 4, 12, 13-15. */
	{ "06_86H IMC bank 13 = controller 0 channel 0, SDM Ice Lake IMC MSCOD 0x0080; MISC[58:56] rank 6 = DIMM 1 rank 2",
	  6, 0x86, 7, 13, VAL | EN | MISCV | ADDRV | MSCOD(0x0080) | 0x0090, (6ULL << 56) | (1ULL << 59), SER_P,
	  "Snow Ridge (Atom P5900)", "IMC", "memory", 0, 0, 1, 2, N, "corrected read error", RAS_SEV_CORRECTED },
	{ "06_86H IMC bank 15 = channel 2, MSCOD 0x0010 uncorrected patrol scrub, SRAO",
	  6, 0x86, 7, 15, VAL | UC | EN | S | MISCV | ADDRV | MSCOD(0x0010) | 0x00c2, 1ULL << 59, SER_P,
	  "Snow Ridge (Atom P5900)", "IMC", "memory", 0, 2, 0, 0, N, "uncorrected patrol scrub error", RAS_SEV_SRAO },
	{ "06_86H IMC: DDR-T MSCOD 0x0806 (Ice Lake table)",
	  6, 0x86, 7, 14, VAL | EN | MSCOD(0x0806) | 0x0090, 0, SER_P,
	  "Snow Ridge (Atom P5900)", "IMC", "memory", 0, 1, N, N, N, "DDR-T ERID correctable parity error", RAS_SEV_CORRECTED },
	{ "06_86H M2M bank 12, MSCOD bit 21 M2M timeout",
	  6, 0x86, 7, 12, VAL | EN | MSCOD(0x0020) | 0x0091, 0, SER_P,
	  "Snow Ridge (Atom P5900)", "M2M", "memory", 0, 1, N, N, N, "M2M timeout", RAS_SEV_CORRECTED },
	{ "06_86H PCU bank 4, STATUS[31:24] 0x0e (10 nm PCU table)",
	  6, 0x86, 7, 4, VAL | UC | EN | PCC | MSCOD(0x0e00) | 0x0402, 0, SER_P,
	  "Snow Ridge (Atom P5900)", "PCU", "internal", N, N, N, N, N, "MCA_DMI_TRAINING_TIMEOUT", RAS_SEV_FATAL },
	{ "06_86H: no UPI on Snow Ridge, bank 5 is not named",
	  6, 0x86, 7, 5, VAL | EN | MSCOD(0x0030) | 0x0c0f, 0, SER_P,
	  "Snow Ridge (Atom P5900)", "", "bus", N, N, N, N, N, "", RAS_SEV_CORRECTED },
	/* IA32_MC4 MCACOD meanings: SDM 06_55H / 06_56H "Machine Check Error Codes for IA32_MC4_STATUS". */
	{ "SDM 06_55H MC4 MCACOD 0407H other UBOX internal error, STATUS[31:24] 0x25",
	  6, 0x55, 4, 4, VAL | UC | EN | PCC | MSCOD(0x2500) | 0x0407, 0, SER_P,
	  "Skylake-SP", "PCU", "internal", N, N, N, N, N,
	  "MCA_MESSAGE_CHANNEL_TIMEOUT; other UBOX internal error", RAS_SEV_FATAL },
	{ "SDM 06_55H MC4 MCACOD 0406H Intel TXT error",
	  6, 0x55, 7, 4, VAL | UC | EN | PCC | 0x0406, 0, SER_P,
	  "Cascade Lake-SP", "PCU", "internal", N, N, N, N, N, "Intel TXT error", RAS_SEV_FATAL },
	{ "SDM 06_55H MC4: MLC status copied after a core 3-strike; the PCU MSCOD table is not applied",
	  6, 0x55, 7, 4, VAL | UC | EN | PCC | MSCOD(0x0d00) | 0x0136, 0, SER_P,
	  "Cascade Lake-SP", "PCU", "cache", N, N, N, N, N,
	  "MLC status copied to the PCU bank after a core 3-strike (IERR)", RAS_SEV_FATAL },
	{ "SDM 06_56H MC4 MCACOD 0402H PCU internal error (no MSCOD table for Broadwell-DE here)",
	  6, 0x56, 3, 4, VAL | UC | EN | PCC | MSCOD(0x1300) | 0x0402, 0, SER_P,
	  "Broadwell-DE", "PCU", "internal", N, N, N, N, N, "PCU internal error", RAS_SEV_FATAL },
	{ "SDM 06_56H IMC (i=9-10) MSCOD 0008H corrected patrol scrub",
	  6, 0x56, 3, 9, VAL | EN | MSCOD(0x0008) | 0x00c0, 0, SER_P,
	  "Broadwell-DE", "IMC", "memory", N, 0, N, N, N, "corrected patrol scrub error", RAS_SEV_CORRECTED },
	{ "SDM 06_56H IMC MSCOD 0200H DDR4 command/address parity",
	  6, 0x56, 3, 10, VAL | UC | EN | MSCOD(0x0200) | 0x00b1, 0, SER_P,
	  "Broadwell-DE", "IMC", "memory", N, 1, N, N, N, "DDR4 command/address parity error", RAS_SEV_UCNA },
	{ "SDM 06_56H IMC: spare-error bit 21 is not listed for Broadwell-DE",
	  6, 0x56, 3, 10, VAL | EN | MSCOD(0x0020) | 0x0091, 0, SER_P,
	  "Broadwell-DE", "IMC", "memory", N, 1, N, N, N, "MSCOD 0x0020 not in the documented table", RAS_SEV_CORRECTED },
	/* SDM Vol. 3B publishes no MSCOD table for the core, IIO and CHA banks of these generations. */
	{ "06_55H CHA (MC9-11): MSCOD 0x000c has no public table, and the decode says so",
	  6, 0x55, 4, 10, VAL | UC | EN | PCC | MSCOD(0x000c) | 0x0400, 0, SER_P,
	  "Skylake-SP", "CHA", "simple", N, N, N, N, N, "MSCOD 0x000c has no public meaning for this bank", RAS_SEV_FATAL },
	{ "06_6AH IIO (MC6) IOMCA with MSCOD 0: nothing to say, nothing invented",
	  6, 0x6a, 6, 6, VAL | UC | EN | 0x0e0b, 0, SER_P,
	  "Ice Lake-SP", "IIO", "io", N, N, N, N, N, "", RAS_SEV_UCNA },
	{ "06_8FH DCU (MC1) data-load SRAR 0x0134: MSCOD 0x0010 has no public table",
	  6, 0x8f, 8, 1, VAL | UC | EN | S | AR | ADDRV | MISCV | MSCOD(0x0010) | 0x0134, 0x86, SER_P,
	  "Sapphire Rapids", "DCU", "cache", N, N, N, N, N, "MSCOD 0x0010 has no public meaning for this bank", RAS_SEV_SRAR },
	{ "Ice Lake-D 06_6CH: IMC 1 channel 2 at bank 19 (mcelog i10nm bank map), MSCOD 0x0200",
	  6, 0x6c, 1, 19, VAL | UC | EN | MSCOD(0x0200) | 0x00b2, 0, SER_P,
	  "Ice Lake-D", "IMC", "memory", 1, 2, N, N, N, "DDR4 command/address parity error", RAS_SEV_UCNA },
	{ "Ice Lake-D 06_6CH: no UPI and no third controller, banks 5 and 21 are not named",
	  6, 0x6c, 1, 21, VAL | EN | 0x0090, 0, SER_P,
	  "Ice Lake-D", "", "memory", N, 0, N, N, N, "", RAS_SEV_CORRECTED },
	/* Linux drivers/edac/i10nm_base.c: 06_DDH and 06_B6H are decoded as Granite Rapids (gnr_cfg). */
	{ "Clearwater Forest 06_DDH: the 06_ADH MCCHAN table (i10nm_base.c gnr_cfg), bank 20 is channel 7",
	  6, 0xdd, 0, 20, VAL | EN | MISCV | OTHER_INFO1 | MSCOD(0x0010) | 0x00c7, 3ULL << 55, SER_P,
	  "Clearwater Forest", "MCCHAN", "memory", N, 7, N, N, 3, "uncorrected patrol scrub error", RAS_SEV_CORRECTED },
	{ "Grand Ridge 06_B6H: the 06_ADH B2CMI table",
	  6, 0xb6, 0, 12, VAL | EN | MSCOD(0x0004) | 0x0090, 0, SER_P,
	  "Grand Ridge", "B2CMI", "memory", N, 0, N, N, N, "security mismatch", RAS_SEV_CORRECTED },
	/* SDM 06_57H (Xeon Phi 7200), as mcelog's knl.c tabulates it. */
	{ "SDM 06_57H MC5 MCACOD 0403H: VCU internal error",
	  6, 0x57, 1, 5, VAL | UC | EN | PCC | 0x0403, 0, 0,
	  "Knights Landing", "UBOX", "internal", N, N, N, N, N, "VCU internal error", RAS_SEV_FATAL },
	{ "SDM 06_57H MC7-16 MSCOD bit 19 corrected patrol scrub; MISC[50:46] first failing rank (valid [62])",
	  6, 0x57, 1, 9, VAL | EN | MISCV | MSCOD(0x0008) | 0x00c2, (1ULL << 62) | (3ULL << 46), 0,
	  "Knights Landing", "memory controller", "memory", N, 2, N, 3, N, "corrected patrol scrub error",
	  RAS_SEV_CORRECTED },
	{ "SDM 06_85H (Knights Mill) uses the 06_57H tables: second failing rank MISC[55:51] (valid [63])",
	  6, 0x85, 0, 15, VAL | EN | MISCV | MSCOD(0x0080) | 0x0090, (1ULL << 62) | (1ULL << 63) | (2ULL << 51), 0,
	  "Knights Mill", "memory controller", "memory", N, 0, N, 0, N,
	  "corrected chip failure (DDR MC) or 4-bit burst error (EDC); second failing rank 2", RAS_SEV_CORRECTED },
	/* SDM Processor Family 06H: bus errors of the Intel Core microarchitecture (STATUS[54:16]). */
	{ "SDM 06H Core 2: bus queue request 04H (RFO), error type 0 (hard), bit 37 FSB address parity",
	  6, 0x17, 6, 0, VAL | UC | EN | PCC | (1ULL << 37) | (0x04ULL << 19) | 0x0e0f, 0, 0,
	  "Core 2 (Penryn)", "", "bus", N, N, N, N, N,
	  "bus queue: read for ownership; hard error; FSB address parity error", RAS_SEV_FATAL },
	{ "SDM 06H P6 family: bit 28 FRC error; correctable ECC (46) with syndrome [54:47] 0x5a",
	  6, 0x08, 3, 0, VAL | EN | (1ULL << 28) | (1ULL << 46) | (0x5aULL << 47) | (0x08ULL << 19) | 0x0e0f, 0, 0,
	  "Pentium III", "", "bus", N, N, N, N, N,
	  "bus queue: writeback; hard error; FRC error; correctable ECC error; ECC syndrome 0x5a", RAS_SEV_CORRECTED },
	{ "SDM 06H: not a bus error, nothing model-specific",
	  6, 0x0f, 6, 1, VAL | EN | 0x0134, 0, 0,
	  "Core 2", "", "cache", N, N, N, N, N, "", RAS_SEV_CORRECTED },
	/* SDM E.2.2, Xeon 7400 (06_1DH). */
	{ "SDM E.2.2 Dunnington MC6 type B bus error: bit 21, FSB response parity",
	  6, 0x1d, 1, 6, VAL | UC | EN | PCC | MSCOD(0x0020) | 0x0e0f, 0, 0,
	  "Xeon 7400 (Dunnington)", "FSB", "bus", N, N, N, N, N, "parity error on the FSB response field",
	  RAS_SEV_FATAL },
	{ "SDM E.2.2 Dunnington MC4 type C: MSCOD C008H correctable ECC on outgoing core 2 data",
	  6, 0x1d, 1, 4, VAL | EN | MSCOD(0xc008) | 0x0400, 0, 0,
	  "Xeon 7400 (Dunnington)", "cache bus controller", "simple", N, N, N, N, N,
	  "correctable ECC event on outgoing core 2 data", RAS_SEV_CORRECTED },
	{ "SDM E.2.2 Dunnington MC4: MSCOD 0500H quiet cycle timeout",
	  6, 0x1d, 1, 4, VAL | EN | MSCOD(0x0500) | 0x0400, 0, 0,
	  "Xeon 7400 (Dunnington)", "cache bus controller", "simple", N, N, N, N, N,
	  "quiet cycle timeout (correctable)", RAS_SEV_CORRECTED },
	/* SDM E.4, Family 0FH. */
	{ "SDM E.4 Pentium 4 (0F_02H): STATUS bit 17, hard fail response",
	  15, 0x02, 9, 0, VAL | UC | EN | PCC | (1ULL << 17) | 0x0e0f, 0, 0,
	  "Pentium 4", "", "bus", N, N, N, N, N, "hard fail response", RAS_SEV_FATAL },
	{ "SDM E.4.1 Xeon MP 7100 (0F_06H) MC4: 3 corrected events [39:32], syndrome [51:44] 0x1c with [52], inbound ECC [25]",
	  15, 0x06, 8, 4, VAL | EN | (1ULL << 52) | (0x1cULL << 44) | (3ULL << 32) | (1ULL << 25) | 0x0e0f, 0, 0,
	  "Xeon 7100 (Tulsa)", "main error bank", "bus", N, N, N, N, N,
	  "3 corrected events; ECC syndrome 0x1c; data ECC error on inbound data", RAS_SEV_CORRECTED },
	{ "SDM E.4.1 Tulsa MC4 MSCOD 0100H: SpeedStep TM1-TM2 error",
	  15, 0x06, 8, 4, VAL | UC | EN | PCC | MSCOD(0x0100) | 0x0400, 0, 0,
	  "Xeon 7100 (Tulsa)", "main error bank", "simple", N, N, N, N, N,
	  "Enhanced SpeedStep TM1-TM2 error", RAS_SEV_FATAL },
	{ "Westmere-EX 06_2FH: known model, no public tables",
	  6, 0x2f, 2, 8, VAL | EN | 0x0090, 0, 0,
	  "Westmere-EX", "", "memory", N, 0, N, N, N, "", RAS_SEV_CORRECTED },
};

static void check_vector(const struct vec *v)
{
	struct mce_in in;
	struct mce_decoded out;

	memset(&in, 0, sizeof(in));
	in.cpuvendor = v->family == 7 ? 10 : 0; /* family 7 rows are Zhaoxin */
	in.cpuid = mce_cpuid_signature(v->family, v->model, v->stepping);
	in.bank = (uint8_t)v->bank;
	in.status = v->status;
	in.misc = v->misc;
	in.mcgcap = v->mcgcap;
	tap_is_int(mce_decode(&in, &out), 0, "%s: decodes", v->source);
	tap_is_str(out.cpu_model_name, v->model_name, "%s: model name", v->source);
	tap_is_str(out.bank_name, v->bank_name, "%s: bank name", v->source);
	tap_is_str(out.error_class, v->cls, "%s: class", v->source);
	tap_is_int(out.mem_ctrl, v->mem_ctrl, "%s: memory controller", v->source);
	tap_is_int(out.channel, v->channel, "%s: channel", v->source);
	tap_is_int(out.dimm, v->dimm, "%s: DIMM", v->source);
	tap_is_int(out.rank, v->rank, "%s: rank", v->source);
	tap_is_int(out.chip_select, v->chip_select, "%s: chip select", v->source);
	if (v->model_text[0])
		tap_ok(strstr(out.model_text, v->model_text) != NULL, "%s: model text \"%s\"", v->source, out.model_text);
	else
		tap_is_str(out.model_text, "", "%s: no model text", v->source);
	tap_is_str(ras_severity_name(out.severity), ras_severity_name(v->sev), "%s: severity", v->source);
}

static void test_summary_example(void)
{
	struct mce_in in;
	struct mce_decoded out;

	/* Skylake-SP bank 16 = IMC 1 channel 1 (mcelog skx channel map), corrected memory read (0x0091). */
	memset(&in, 0, sizeof(in));
	in.cpuid = 0x50654;
	in.bank = 16;
	in.status = VAL | EN | 0x0091;
	in.mcgcap = SER_P;
	mce_decode(&in, &out);
	tap_is_str(SAID(out),
		   "Corrected memory read error on socket 0, memory controller 1, channel 1 (Skylake-SP, bank 16 IMC)",
		   "summary sentence");
	tap_is_str(out.location, "socket 0, CPU 0, bank 16 (IMC), memory controller 1, channel 1", "location");
}

static void decode_one(unsigned model, unsigned stepping, unsigned bank, uint64_t status,
		       uint64_t mcgcap, struct mce_decoded *out)
{
	struct mce_in in;

	memset(&in, 0, sizeof(in));
	in.cpuid = mce_cpuid_signature(6, model, stepping);
	in.bank = (uint8_t)bank;
	in.status = status;
	in.mcgcap = mcgcap;
	mce_decode(&in, out);
}

/* SDM "IA32_MCi_STATUS MSRs": STATUS[52:38] is the corrected count with MCG_CAP[10] (CMCI_P). */
#define CMCI_P (1ULL << 10)
#define COUNT(n) ((uint64_t)(n) << 38)

static void test_count_without_mcgcap(void)
{
	struct mce_decoded out;

	/* Nehalem-EP memory record as mcelog prints it without MCGCAP (tests/data/mcelog/dimm0 shape). */
	decode_one(0x1a, 5, 8, VAL | EN | MISCV | COUNT(5) | 0x0080, 0, &out);
	tap_is_int(out.corrected_count, 5, "Nehalem-EP, MCG_CAP not recorded: STATUS[52:38] count shown");
	tap_ok(strstr(out.decode_note, "MCG_CAP not recorded: STATUS[52:38] read as the corrected-error count") != NULL,
	       "and the note says where the count comes from");
	decode_one(0x1a, 5, 8, VAL | EN | COUNT(5) | 0x0080, 0x1809 | CMCI_P, &out);
	tap_is_int(out.corrected_count, 5, "recorded MCG_CAP 0x1c09 (CMCI_P set): count from the capability");
	tap_is_str(out.decode_note, "", "recorded MCG_CAP: no note");
	decode_one(0x1a, 5, 8, VAL | EN | COUNT(5) | 0x0080, 0x1809, &out);
	tap_is_int(out.corrected_count, N, "recorded MCG_CAP without CMCI_P wins over the model");
	decode_one(0x1a, 5, 8, VAL | UC | EN | COUNT(5) | 0x0080, 0, &out);
	tap_is_int(out.corrected_count, N, "uncorrected record: no count");
	decode_one(0x4d, 8, 6, VAL | EN | COUNT(5) | 0x0080, 0, &out);
	tap_is_int(out.corrected_count, N, "Avoton (CMCI not established here): no count without MCG_CAP");
	decode_one(0x5f, 1, 6, VAL | EN | COUNT(5) | 0x0080, 0, &out);
	tap_is_int(out.corrected_count, N, "Denverton: no count without MCG_CAP");
	decode_one(0x55, 4, 13, VAL | EN | COUNT(3) | 0x0080, 0, &out);
	tap_is_int(out.corrected_count, 3, "Skylake-SP, MCG_CAP not recorded: count shown");
}

static void test_copied_mlc_status(void)
{
	struct mce_decoded out;

	/* MSCOD 0x0d00 would read as MCA_DMI_TRAINING_TIMEOUT in the PCU table: not for an MLC copy. */
	decode_one(0x55, 7, 4, VAL | UC | EN | PCC | MSCOD(0x0d00) | 0x0136, SER_P, &out);
	tap_ok(strstr(out.model_text, "MCA_DMI") == NULL, "copied MLC status: PCU MSCOD table not applied (\"%s\")",
	       out.model_text);
	tap_ok(strstr(out.model_text, "not in the documented table") == NULL, "nor called undocumented");
	decode_one(0x55, 7, 4, VAL | UC | EN | PCC | MSCOD(0x0d00) | 0x0402, SER_P, &out);
	tap_ok(strstr(out.model_text, "MCA_DMI_TRAINING_TIMEOUT; PCU internal error") != NULL,
	       "PCU's own record: MSCOD then MCACOD meaning (\"%s\")", out.model_text);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
		check_vector(&vectors[i]);
	test_summary_example();
	test_count_without_mcgcap();
	test_copied_mlc_status();
	return tap_done();
}
