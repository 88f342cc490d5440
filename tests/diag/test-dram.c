/* SPDX-License-Identifier: MIT */
/*
 * DRAM coordinates from every source spelling, on whole strings as the
 * kernel writes them (formats: Linux drivers/edac/skx_edac.c 4.14,
 * skx_common.c before and after the 2022 "make output format similar"
 * change, with ADXL and retry_rd_err_log; ghes_edac.c before and after it
 * used drivers/firmware/efi/cper.c's cper_mem_err_location; amd64_edac's
 * DRAM address as the AMD address translation patch writes it), the CXL DRAM
 * event record (CXL r3.1 Table 8-46) and the CPER memory section.
 */
#include <string.h>
#include "diag/dram.h"
#include "tests/tap.h"

/* Every string names rank 0 (or 1), bank group 1, bank 2, row 0x1a2b (6699), column 0x3f8 (1016). */
static const struct {
	const char *what, *detail;
	enum diag_spelling sp;
	int64_t rank, socket, mc, channel, dimm, device, bit;
} vectors[] = {
	{ "skx_edac 4.14, row and col in hex without 0x",
	  " err_code:0101:0091 socket:0 imc:1 rank:0 bg:1 ba:2 row:1a2b col:3f8",
	  DIAG_SP_SKX_EARLY, 0, 0, 1, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE },
	{ "skx_common before 2022",
	  " err_code:0x0101:0x0091 socket:0 imc:1 rank:0 bg:1 ba:2 row:0x1a2b col:0x3f8",
	  DIAG_SP_SKX_EARLY, 0, 0, 1, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE },
	{ "i10nm before 2022, OVERFLOW, with its retry_rd_err_log",
	  " OVERFLOW err_code:0x0000:0x009f socket:1 imc:2 rank:0 bg:1 ba:2 row:0x1a2b col:0x3f8 "
	  "retry_rd_err_log[0001a209 00000000 00180400 00000000 00000000] "
	  "correrrcnt[0001 0000 0000 0000 0000 0000 0000 0000]",
	  DIAG_SP_SKX_EARLY, 0, 1, 2, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE },
	{ "skx_common since 2022",
	  " err_code:0x0000:0x0091 ProcessorSocketId:0x0 MemoryControllerId:0x1 PhysicalRankId:0x0 "
	  "Row:0x1a2b Column:0x3f8 Bank:0x2 BankGroup:0x1",
	  DIAG_SP_SKX, 0, 0, 1, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE },
	{ "i10nm since 2022, scrub, retry log",
	  " recoverable err_code:0x0000:0x00c2 ProcessorSocketId:0x1 MemoryControllerId:0x3 "
	  "PhysicalRankId:0x0 Row:0x1a2b Column:0x3f8 Bank:0x2 BankGroup:0x1 "
	  "retry_rd_err_log[0001a209 00000000 00180400 00000000 00000000 00000000 00000000 "
	  "00000000 00000000 00000000 00000000] correrrcnt[0001 0000 0000 0000 0000 0000 0000 0000]",
	  DIAG_SP_SKX, 0, 1, 3, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE },
	{ "ADXL component list (row and bank past 192 characters)",
	  " err_code:0x0000:0x0091  SystemAddress:0x42ab3c440 NmSystemAddress:0x0 "
	  "SpareSystemAddress:0x0 DevicePhysicalAddress:0x0 ProcessorSocketId:0x0 "
	  "MemoryControllerId:0x1 NmMemoryControllerId:0x0 TargetId:0x0 LogicalChannelId:0x0 "
	  "ChannelAddress:0x8559e20 ChannelId:0x2 NmChannelId:0x0 RankAddress:0x2153c40 "
	  "PhysicalRankId:0x1 DimmSlotId:0x0 NmDimmSlotId:0x0 DimmRankId:0x1 Row:0x1a2b "
	  "Column:0x3f8 Bank:0x2 BankGroup:0x1 ChipSelect:0x1 ChipId:0x0",
	  DIAG_SP_ADXL, 1, 0, 1, 2, 0, RAS_DF_NONE, RAS_DF_NONE },
	{ "ghes_edac since 5.17 (cper_mem_err_location)",
	  "APEI location: node:0 card:0 module:1 rank:0 bank:258 bank_group:1 bank_address:2 "
	  "device:5 row:6699 column:1016 bit_position:17 chip_id:0 "
	  "status(0x0000000000000400): Storage error in DRAM memory",
	  DIAG_SP_GHES, 0, 0, 0, RAS_DF_NONE, 1, 5, 17 },
	{ "ghes_edac before, col: bit_pos: and the DIMM location",
	  "APEI location: node:0 card:0 module:1 rank:0 bank_group:1 bank_address:2 device:5 "
	  "row:6699 col:1016 bit_pos:17 DIMM location:CPU0 DIMM_A1 "
	  "status(0x0000000000000400): Storage error in DRAM memory requestorID: 0x0000000000000000",
	  DIAG_SP_GHES, 0, 0, 0, RAS_DF_NONE, 1, 5, 17 },
	{ "cper with a space after the colon",
	  "APEI location: node: 0 card: 0 module: 1 rank: 0 bank_group: 1 bank_address: 2 device: 5 "
	  "row: 6699 column: 1016 bit_position: 17",
	  DIAG_SP_GHES, 0, 0, 0, RAS_DF_NONE, 1, 5, 17 },
	/*
	 * sb_edac's own (drivers/edac/sb_edac.c, sbridge_mce_output_error's
	 * format and, since 5.0, Broadwell DDR4's sb_decode_ddr4 after it):
	 * socket, home agent, channel mask, the channel's rank, then the row.
	 */
	{ "sb_edac Broadwell DDR4 (ha, channel_mask, bank_addr, bank_group)",
	  " area:DRAM err_code:0001:0090 socket:1 ha:1 channel_mask:4 rank:0 row:0x1a2b col:0x3f8"
	  " bank_addr:2 bank_group:1",
	  DIAG_SP_SB, 0, 1, 1, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE },
	{ "sb_edac OVERFLOW recoverable, a second DIMM's rank (5: DIMM 1)",
	  " OVERFLOW recoverable area:DRAM err_code:0001:0091 socket:0 ha:0 channel_mask:1 rank:5"
	  " row:0x1a2b col:0x3f8 bank_addr:2 bank_group:1",
	  DIAG_SP_SB, 5, 0, 0, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE },
	{ "amd64_edac's DRAM address from the AMD address translation (the 2025 patch, v3: "
	  "\"Cs: 0x%x Bank Grp: 0x%x Bank Addr: 0x%x Row: 0x%x Column: 0x%x RankMul: 0x%x SubChannel: 0x%x\")",
	  "Cs: 0x1 Bank Grp: 0x1 Bank Addr: 0x2 Row: 0x1a2b Column: 0x3f8 RankMul: 0x0 SubChannel: 0x1",
	  DIAG_SP_AMD, 1, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE },
};

static void spellings(void)
{
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		struct diag_dram d;
		enum diag_spelling sp = diag_dram_from_edac_detail(vectors[i].detail,
								   strlen(vectors[i].detail), &d);

		tap_is_str(diag_spelling_name(sp), diag_spelling_name(vectors[i].sp), "%s: spelling",
			   vectors[i].what);
		tap_ok(d.rank == vectors[i].rank && d.bank_group == 1 && d.bank == 2 && d.row == 0x1a2b &&
		       d.column == 0x3f8, "%s: rank %lld, bank group 1, bank 2, row 0x1a2b, column 0x3f8 "
		       "(got %lld %lld %lld 0x%llx 0x%llx)", vectors[i].what, (long long)vectors[i].rank,
		       (long long)d.rank, (long long)d.bank_group, (long long)d.bank,
		       (unsigned long long)d.row, (unsigned long long)d.column);
		tap_ok(d.socket == vectors[i].socket && d.mc == vectors[i].mc &&
		       d.channel == vectors[i].channel && d.dimm == vectors[i].dimm,
		       "%s: socket, controller, channel and slot as written", vectors[i].what);
		tap_ok(d.device == vectors[i].device && d.bit == vectors[i].bit,
		       "%s: device and bit as written", vectors[i].what);
	}
	tap_ok(strlen(vectors[5].detail) > 192 && strstr(vectors[5].detail, "Row:") - vectors[5].detail > 192,
	       "the ADXL vector's row lies past 192 characters");
}

static void edges(void)
{
	struct diag_dram d;
	const char *s = " err_code:0x0000:0x0091 socket:0 imc:1 rank:0 bg:1 ba:2 row:0x1a2b col:0x3f8";

	tap_is_int(diag_dram_from_edac_detail("memory read error", 17, &d), DIAG_SP_NONE,
		   "a message without coordinates: none");
	tap_ok(d.rank == RAS_DF_NONE && d.row == RAS_DF_NONE, "and nothing is guessed");
	tap_is_int(diag_dram_from_edac_detail("", 0, &d), DIAG_SP_NONE, "empty: none");
	/* The length bounds what is read: cut inside "row:0x1a2b", the row is "0x1a". */
	diag_dram_from_edac_detail(s, strlen(s) - 12, &d);
	tap_ok(d.row == 0x1a && d.column == RAS_DF_NONE, "the length bounds the text read");
	tap_is_int(diag_dram_from_edac_detail("Row:0x5 Bank:0x1 Row:0x6", 24, &d), DIAG_SP_SKX,
		   "a repeated name: the first wins");
	tap_is_int(d.row, 5, "row 5");
	tap_is_int(diag_dram_from_edac_detail("rank:x row:zz col:0x ba:-1", 26, &d), DIAG_SP_NONE,
		   "numbers that are not: nothing");
	tap_is_int(diag_dram_from_edac_detail("row:0x10000000000000", 20, &d), DIAG_SP_NONE,
		   "a number past 2^40: not taken");
	tap_is_int(diag_dram_from_edac_detail("rank:1 row:10", 13, &d), DIAG_SP_SKX_EARLY,
		   "skx's row is hexadecimal without 0x");
	tap_is_int(d.row, 0x10, "row 0x10");
	tap_is_int(diag_dram_from_edac_detail("APEI location: rank:1 row:10", 28, &d), DIAG_SP_GHES,
		   "the same words after APEI location:");
	tap_is_int(d.row, 10, "are decimal there");
	tap_is_int(diag_dram_from_edac_detail("APEI location: node:0 bank:5", 28, &d), DIAG_SP_GHES,
		   "a CPER bank not split into group and address");
	tap_ok(d.bank == 5 && d.bank_group == RAS_DF_NONE, "is the bank, group unknown");
	/* sb_edac before Broadwell DDR4's decoding: the rank alone (no row for a row's threshold). */
	s = " area:DRAM err_code:0001:0090 socket:0 ha:1 channel_mask:2 rank:4 ";
	tap_is_int(diag_dram_from_edac_detail(s, strlen(s), &d), DIAG_SP_SB, "sb_edac without a row: sb");
	tap_ok(d.rank == 4 && d.mc == 1 && d.socket == 0 && d.row == RAS_DF_NONE && d.bank == RAS_DF_NONE,
	       "its rank 4, home agent 1 as the controller, socket 0; no row, no bank");
	/* A NUL inside the length ends the text. */
	tap_is_int(diag_dram_from_edac_detail("rank:1\0row:5", 12, &d), DIAG_SP_SKX_EARLY, "NUL ends it");
	tap_is_int(d.row, RAS_DF_NONE, "nothing read past the NUL");
}

static void cxl(void)
{
	uint8_t mask[32] = { 0 };
	struct diag_cxl_dram in = {
		.validity = DIAG_CXL_VALID_CHANNEL | DIAG_CXL_VALID_RANK | DIAG_CXL_VALID_BANK_GROUP |
			    DIAG_CXL_VALID_BANK | DIAG_CXL_VALID_ROW | DIAG_CXL_VALID_NIBBLE |
			    DIAG_CXL_VALID_CORRECTION_MASK,
		.channel = 1, .sub_channel = 1, .rank = 3, .nibble_mask = 0x40, .bank_group = 2,
		.bank = 1, .row = 0x1234, .column = 0x88, .dpa = 0x4000, .cor_mask = mask,
		.cor_mask_len = sizeof(mask),
	};
	struct diag_dram d;

	mask[9] = 0x10;
	diag_dram_from_cxl(&in, &d);
	tap_ok(d.channel == 1 && d.rank == 3 && d.bank_group == 2 && d.bank == 1 && d.row == 0x1234,
	       "cxl_dram: the fields its validity flags vouch for");
	tap_ok(d.column == RAS_DF_NONE && d.sub_channel == RAS_DF_NONE,
	       "cxl_dram: column and sub-channel not valid, not taken");
	tap_ok(d.nibble_mask == 0x40 && d.device == 6, "cxl_dram: one nibble in error is device 6");
	tap_ok(d.bits == 1 && d.bit == 76, "cxl_dram: one corrected bit, bit 76");
	mask[0] = 0x3;
	in.nibble_mask = 0x41;
	diag_dram_from_cxl(&in, &d);
	tap_ok(d.bits == 3 && d.bit == RAS_DF_NONE && d.device == RAS_DF_NONE,
	       "cxl_dram: three bits in two nibbles: neither one bit nor one device");
	in.validity = RAS_DF_NONE;
	diag_dram_from_cxl(&in, &d);
	tap_ok(d.column == 0x88 && d.sub_channel == 1, "cxl_dram without validity flags: all taken");
}

static void cper(void)
{
	struct diag_cper_mem m = {
		.node = 1, .card = 0, .module = 3, .rank = 1, .bank = 0x0102, .bank_group = 1,
		.bank_address = 2, .device = 7, .row = 0x1a2b, .column = 0x3f8, .bit_pos = 9,
		.chip_id = RAS_DF_NONE,
	};
	struct diag_dram d;

	diag_dram_from_cper(&m, &d);
	tap_ok(d.socket == 1 && d.mc == 0 && d.dimm == 3 && d.rank == 1 && d.bank_group == 1 &&
	       d.bank == 2 && d.device == 7 && d.row == 0x1a2b && d.column == 0x3f8 && d.bit == 9,
	       "CPER memory section: the bank's group and address, device and bit");
	m.bank_address = m.bank_group = RAS_DF_NONE;
	diag_dram_from_cper(&m, &d);
	tap_ok(d.bank == 0x0102 && d.bank_group == RAS_DF_NONE, "CPER bank not split: as one number");
	tap_ok(diag_dram_known(&d), "known");
	diag_dram_clear(&d);
	tap_ok(!diag_dram_known(&d), "cleared: unknown");
}

int main(void)
{
	spellings();
	edges();
	cxl();
	cper();
	return tap_done();
}
