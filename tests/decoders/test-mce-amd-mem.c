/* SPDX-License-Identifier: MIT */
/*
 * AMD memory facts in machine-check records (decoders/mce_amd_mem.c).
 * Vectors are built from the register layouts, each cited where it is used:
 * AMD PPR family 19h (MCA_IPID, MCA_SYND_UMC [63:32] Syndrome, [23:18]
 * Length, [2:0] chip select), the HBM UMC instance layout of Linux
 * amd64_edac.c (gpu_get_umc_base: base 0x50000 on MI200, 0x90000 on MI300,
 * (2 * UMC + channel / 4) << 20, (channel % 4) << 12), the mce_record vendor
 * data (Linux 6.14 include/trace/events/mce.h: SYND1, SYND2 little-endian),
 * MCA_CONFIG[9] McaFruTextInMca, and the family 10h BKDG (31116) MC4_STATUS
 * (CECC 46, UECC 45, Syndrome[7:0] = [54:47], Syndrome[15:8] = [31:24]) and
 * MC4_ADDR ([47:1]; K8 [39:3]).
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
#define SYNDV (1ULL << 53)
#define CECC  (1ULL << 46)
#define UECC  (1ULL << 45)
#define DEFERRED (1ULL << 44)
#define XEC(x) ((uint64_t)(x) << 16)
#define IPID(hwid, mcatype, hi, inst) \
	(((uint64_t)(mcatype) << 48) | ((uint64_t)(hi) << 44) | ((uint64_t)(hwid) << 32) | (inst))
/* MCA_SYND_UMC: syndrome, its length in bits, chip select. */
#define UMC_SYND(syn, len, cs) (((uint64_t)(syn) << 32) | ((uint64_t)(len) << 18) | (cs))
/* HBM UMC InstanceId: base nibble, UMC, channel 0-7. */
#define HBM_INST(base, umc, ch) (((uint32_t)(2 * (umc) + (ch) / 4) << 20) | ((base) << 16) | (((ch) % 4) << 12))

static struct mce_in rec(unsigned family, unsigned model, unsigned bank, uint64_t status, uint64_t ipid)
{
	struct mce_in in;

	memset(&in, 0, sizeof(in));
	in.cpuvendor = MCE_VENDOR_AMD;
	in.cpuid = mce_cpuid_signature(family, model, 1);
	in.bank = (uint8_t)bank;
	in.status = status;
	in.ipid = ipid;
	in.has_ipid = ipid != 0;
	in.has_synd = 1;
	return in;
}

static void test_umc_syndrome(void)
{
	struct mce_in in = rec(0x19, 0x11, 16, VAL | EN | MISCV | ADDRV | SYNDV | CECC | 0x011b,
			       IPID(0x96, 0, 0, 0x00750f00));
	struct mce_decoded out;

	in.synd = UMC_SYND(0x0a24, 16, 3);
	mce_decode(&in, &out);
	tap_is_int(out.channel, 7, "CPU UMC: channel = InstanceId[31:20]");
	tap_is_int(out.chip_select, 3, "CPU UMC: chip select = SYND[2:0]");
	tap_is_int(out.mem_ctrl, RAS_DF_NONE, "CPU UMC: no separate controller number");
	tap_is_str(out.model_text, "ECC syndrome 0xa24 (16 bits)", "CECC: syndrome [63:32] cut to its length [23:18]");

	in.synd = UMC_SYND(0xfffff, 9, 1);
	mce_decode(&in, &out);
	tap_is_str(out.model_text, "ECC syndrome 0x1ff (9 bits)", "syndrome masked to 9 bits");

	in.synd = UMC_SYND(0x0a24, 0, 2);
	mce_decode(&in, &out);
	tap_is_str(out.model_text, "", "length 0: no syndrome invented");
	tap_ok(strstr(out.decode_note, "no ECC syndrome (MCA_SYND length 0)") != NULL, "length 0 noted: %s", out.decode_note);
	tap_is_int(out.chip_select, 2, "chip select still read");

	in.status = VAL | UC | EN | ADDRV | SYNDV | UECC | 0x011b;
	in.synd = UMC_SYND(0x0a24, 16, 2);
	mce_decode(&in, &out);
	tap_is_str(out.model_text, "", "UECC: no syndrome read (only a corrected error's)");
	in.status = VAL | EN | ADDRV | SYNDV | CECC | DEFERRED | 0x011b;
	mce_decode(&in, &out);
	tap_is_str(out.model_text, "", "deferred: no syndrome read");
}

static void test_hbm(void)
{
	/* MI200-class accelerator node: UMC v2 bank on a family 19h model 30h system, node 4. */
	struct mce_in in = rec(0x19, 0x30, 22, VAL | EN | MISCV | ADDRV | SYNDV | CECC | 0x011b,
			       IPID(0x96, 1, 4, HBM_INST(0x5, 1, 6)));
	struct mce_decoded out;

	in.synd = UMC_SYND(0x33, 8, 5);
	mce_decode(&in, &out);
	tap_is_str(out.bank_name, "UMC_V2", "UMC v2 bank type");
	tap_is_int(out.smca_instance, 0x352000, "InstanceId 0x352000 (UMC 1, channels 4-7, channel 6 mod 4)");
	tap_is_int(out.mem_ctrl, 1, "HBM: UMC = InstanceId[31:20] / 2");
	tap_is_int(out.channel, 6, "HBM: channel = InstanceId[13:12] + 4 * InstanceId[20]");
	tap_is_int(out.chip_select, RAS_DF_NONE, "HBM: SYND[2:0] is not a chip select");
	tap_is_int(out.smca_instance_hi, 4, "node ID from InstanceIdHi");
	tap_is_str(out.model_text, "HBM: UMC 1, channel 6 of 8; ECC syndrome 0x33 (8 bits)", "HBM model text");
	tap_is_str(SAID(out),
		   "Corrected DRAM ECC error on socket 0, memory controller 1, channel 6 (Zen 3/Zen 4 (family 19h), bank 22 UMC_V2): HBM: UMC 1, channel 6 of 8; ECC syndrome 0x33 (8 bits)",
		   "HBM summary sentence");

	int round_trips = 0;

	for (unsigned umc = 0; umc < 4; umc++)
		for (unsigned ch = 0; ch < 8; ch++) {
			in.ipid = IPID(0x96, 1, 4, HBM_INST(0x5, umc, ch));
			mce_decode(&in, &out);
			round_trips += out.mem_ctrl == umc && out.channel == ch;
		}
	tap_is_int(round_trips, 32, "all 32 HBM channels of a node round-trip");

	/* MI300 (family 19h model 90h): UMC McaType 0, HBM layout with base 0x90000. */
	in = rec(0x19, 0x90, 15, VAL | EN | ADDRV | SYNDV | CECC | 0x011b, IPID(0x96, 0, 0, HBM_INST(0x9, 3, 2)));
	in.synd = UMC_SYND(0, 0, 0);
	mce_decode(&in, &out);
	tap_is_str(out.error_text, "DRAM on-die ECC error", "MI300 UMC code table");
	tap_is_int(out.mem_ctrl, 3, "MI300: UMC 3");
	tap_is_int(out.channel, 2, "MI300: channel 2");

	/* A CPU-style InstanceId on a UMC v2 bank: no channel guessed. */
	in = rec(0x19, 0x30, 22, VAL | EN | 0x011b, IPID(0x96, 1, 0, 0x00350f00));
	mce_decode(&in, &out);
	tap_is_int(out.channel, RAS_DF_NONE, "unknown HBM InstanceId: no channel");
	tap_ok(strstr(out.decode_note, "outside the known layout") != NULL, "note: %s", out.decode_note);
}

static void set_vendor_data(struct mce_in *in, uint64_t synd1, uint64_t synd2)
{
	for (int i = 0; i < 8; i++) {
		in->v_data[i] = (uint8_t)(synd1 >> (8 * i));
		in->v_data[8 + i] = (uint8_t)(synd2 >> (8 * i));
	}
	in->v_data_len = 16;
}

static void test_synd12(void)
{
	struct mce_in in = rec(0x19, 0x11, 16, VAL | EN | ADDRV | SYNDV | CECC | 0x011b, IPID(0x96, 0, 0, 0x00150f00));
	struct mce_decoded out;

	mce_decode(&in, &out);
	tap_is_int(out.raw_synd1, RAS_DF_NONE, "no vendor data: SYND1 unknown");
	tap_is_str(out.fru_text, "", "no vendor data: no FRU text");

	/* "P0 DIMM_A1" as the kernel's 16 bytes: SYND1 first, little-endian. */
	set_vendor_data(&in, 0x5f4d4d4944203050ULL, 0x0000000000003141ULL);
	mce_decode(&in, &out);
	tap_is_int(out.raw_synd1, (int64_t)0x5f4d4d4944203050ULL, "SYND1 from v_data[0..7]");
	tap_is_int(out.raw_synd2, 0x3141, "SYND2 from v_data[8..15]");
	tap_is_str(out.fru_text, "P0 DIMM_A1", "FRU text from the 16 bytes");
	tap_ok(strstr(out.decode_note, "MCA_CONFIG not recorded") != NULL, "note says MCA_CONFIG is unknown");
	tap_ok(strstr(SAID(out), "FRU \"P0 DIMM_A1\"") != NULL, "sentence names the FRU: %s", SAID(out));

	/* Binary SYND1/2: registers kept, no text. */
	set_vendor_data(&in, 0x8000000000000001ULL, 0x12);
	mce_decode(&in, &out);
	tap_is_int(out.raw_synd1, (int64_t)0x8000000000000001ULL, "binary SYND1 kept");
	tap_is_str(out.fru_text, "", "binary SYND1/2: no FRU text");

	/* With MCA_CONFIG as a third u64: bit 9 decides. */
	set_vendor_data(&in, 0x3141, 0);
	in.v_data_len = 24;
	in.v_data[17] = 0x02; /* MCA_CONFIG = 0x200: McaFruTextInMca */
	mce_decode(&in, &out);
	tap_is_str(out.fru_text, "A1", "MCA_CONFIG[9] set: FRU text");
	tap_ok(strstr(out.decode_note, "MCA_CONFIG not recorded") == NULL, "no hedge with MCA_CONFIG");
	in.v_data[17] = 0;
	mce_decode(&in, &out);
	tap_is_str(out.fru_text, "", "MCA_CONFIG[9] clear: no FRU text");
	tap_is_int(out.raw_synd1, 0x3141, "registers kept");
}

static void test_legacy_nb(void)
{
	/* Family 10h NB DRAM ECC, corrected, syndrome 0xa1b2: [54:47] = 0xb2, [31:24] = 0xa1. */
	uint64_t st = VAL | EN | MISCV | ADDRV | CECC | (0xb2ULL << 47) | (0xa1ULL << 24) | XEC(8) | 0x011b;
	struct mce_in in = rec(0x10, 4, 4, st, 0);
	struct mce_decoded out;

	in.addr = 0xffff00123456789bULL;
	in.misc = (3ULL << 62) | (1ULL << 48) | (0xfffULL << 32);
	mce_decode(&in, &out);
	tap_is_str(out.model_text,
		   "DRAM ECC error detected by the northbridge; corrected ECC (CECC), ECC syndrome 0xa1b2; DRAM error threshold reached (MC4_MISC Ovrflw)",
		   "NB: ECC kind, 16-bit syndrome, threshold");
	tap_is_int(out.addr, 0x123456789aLL, "MC4_ADDR[47:1]");
	tap_is_int(out.addr_lsb, 1, "address LSB bit 1");
	tap_is_int(out.channel, RAS_DF_NONE, "NB: channel not guessed");
	tap_is_int(out.chip_select, RAS_DF_NONE, "NB: chip select not guessed");
	tap_ok(strstr(out.decode_note, "need the DRAM config (F2x110, F2x40/60, F3x180)") != NULL, "says what is missing: %s", out.decode_note);

	in = rec(0x0f, 0x41, 4, VAL | UC | EN | ADDRV | PCC | UECC | (0x5aULL << 47) | XEC(0) | 0x011b, 0);
	in.addr = 0xff12345678fULL;
	mce_decode(&in, &out);
	tap_ok(strstr(out.model_text, "uncorrected ECC (UECC), ECC syndrome 0x005a") != NULL, "K8 UECC: %s", out.model_text);
	tap_is_int(out.addr, 0xf123456788LL, "K8 MC4_ADDR[39:3]");
	tap_is_str(ras_severity_name(out.severity), "fatal", "pre-SMCA UC: fatal");

	/* Family 15h erratum 637: MC4_ADDR[47:24] = 0xfdf7 is the CC6 save area, not the DRAM address. */
	in = rec(0x15, 2, 4, VAL | EN | ADDRV | CECC | XEC(0) | 0x011b, 0);
	in.addr = 0x000000fdf7001240ULL;
	mce_decode(&in, &out);
	tap_ok(strstr(out.decode_note, "CC6 save area address (erratum 637)") != NULL &&
	       strstr(out.decode_note, "need the DRAM config") != NULL, "erratum 637 noted: %s", out.decode_note);
	in.addr = 0x000000fdf6001240ULL;
	mce_decode(&in, &out);
	tap_ok(strstr(out.decode_note, "CC6") == NULL, "other addresses: no erratum note");

	/* Bank 4 that is not DRAM ECC: nothing DRAM-specific added. */
	in = rec(0x15, 2, 4, VAL | EN | XEC(0x1c) | 0x011b, 0);
	mce_decode(&in, &out);
	tap_is_str(out.model_text, "L3 cache data ECC error", "NB L3 error: no DRAM fields");
	tap_ok(strstr(out.decode_note, "DRAM config") == NULL, "no DRAM note for an L3 error");
}

static void test_unknown_and_contradiction(void)
{
	struct mce_in in = rec(0x19, 0x21, 18, VAL | EN | MISCV | ADDRV | SYNDV | CECC | 0x011b, 0);
	struct mce_decoded out;

	mce_decode(&in, &out);
	tap_is_str(SAID(out),
		   "Corrected error in an SMCA bank of unknown type (no MCA_IPID; code 0x011b reads as generic-level generic cache generic read error) on socket 0 (Zen 3/Zen 4 (family 19h), bank 18)",
		   "no IPID: the sentence says the bank type is unknown");
	tap_is_str(out.bank_name, "", "no bank name invented");

	in = rec(0x19, 0x21, 9, VAL | EN | 0x011b, IPID(0x123, 0, 0, 0));
	mce_decode(&in, &out);
	tap_is_str(out.error_text,
		   "error in an SMCA bank of unknown type (HardwareID/McaType not known; code 0x011b reads as generic-level generic cache generic read error)",
		   "unknown HWID: the sentence says so");

	/* PCC set with UC clear: a corrected error cannot have corrupted processor context. */
	in = rec(0x19, 0x21, 3, VAL | EN | PCC | 0x0136, IPID(0xb0, 7, 0, 0));
	mce_decode(&in, &out);
	tap_is_str(ras_severity_name(out.severity), "fatal", "PCC keeps the fatal severity rule");
	tap_ok(strstr(out.decode_note, "contradictory status: PCC set with UC clear") != NULL,
	       "PCC without UC flagged: %s", out.decode_note);
	in.status |= UC;
	mce_decode(&in, &out);
	tap_ok(strstr(out.decode_note, "contradictory") == NULL, "PCC with UC: no contradiction");
}

int main(void)
{
	test_umc_syndrome();
	test_hbm();
	test_synd12();
	test_legacy_nb();
	test_unknown_and_contradiction();
	return tap_done();
}
