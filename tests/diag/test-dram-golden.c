/* SPDX-License-Identifier: MIT */
/*
 * diag_dram_from_edac_detail on odd text: missing words, extra separators,
 * numbers past what is taken, text cut anywhere, NULs inside. The expected
 * results are what the first parser (word by word, before the one-pass
 * reader) returned for each, member by member, so a faster reader must read
 * kernel text exactly as it did; whole texts are also cut at every length
 * and a digest of every prefix's result compared.
 */
#include <inttypes.h>
#include <string.h>
#include "diag/dram.h"
#include "tests/tap.h"

#define N RAS_DF_NONE
enum { NONE = DIAG_SP_NONE, EARLY = DIAG_SP_SKX_EARLY, SKX = DIAG_SP_SKX, ADXL = DIAG_SP_ADXL,
       GHES = DIAG_SP_GHES, AMD = DIAG_SP_AMD, SB = DIAG_SP_SB };

/* The members of struct diag_dram in order: socket, mc, channel, sub_channel, dimm, rank,
 * bank_group, bank, row, column, device, bit, bits, nibble_mask, chip_id, dpa. */
#define MEMBERS 16
#define C(what, text) { what, text, sizeof(text) - 1 }
#define CL(what, text, len) { what, text, len }
static const struct {
	const char *what, *text;
	size_t len;
} cases[] = {
	C("empty words: separators only", " \t,\n , "),
	C("a lone colon", ":"),
	C("colons only", ":: ::: :"),
	C("a name without its value at the end", "rank:0 bg:1 ba:2 row:"),
	C("a name without its value, then a name", "row: col:0x5 ba:1"),
	C("a value with a colon in it", "row:0x12:34 ba:1"),
	C("the value's word has a colon: not taken, read as a name", "row: ba:1"),
	C("a name and value two words apart", "Row:   0x1a2b Bank:\t0x3"),
	C("a value after a comma", "Row:,0x1a2b,Bank:,0x3"),
	C("name: then the end", "Row:0x1 Bank:"),
	C("missing row", "rank:0 bg:1 ba:2 col:0x3f8"),
	C("missing bank", "rank:0 bg:1 row:0x1a2b col:0x3f8"),
	C("only a column", "col:0x3f8"),
	C("only a rank", "rank:3"),
	C("extra spaces, tabs, newlines and commas", "  rank:1\t\tbg:2,,ba:3\n row:0x10  col:0x20  \n"),
	C("leading and trailing noise", "xx rank:1 yy bg:2 zz ba:3 row:0x10 col:0x20 ww"),
	C("upper-case hex prefix", "Row:0X1A2B Bank:0XF"),
	C("upper-case hex digits", "row:ABCDEF ba:A"),
	C("mixed-case digits", "Row:0xAbCd Bank:0xeF"),
	C("hex digit in a decimal field", "rank:1a ba:2 row:5"),
	C("2^40 exactly", "row:0x10000000000 ba:1"),
	C("2^40 + 1", "row:0x10000000001 ba:1"),
	C("2^40 in decimal", "APEI location: bank:1 row:1099511627776"),
	C("2^40 + 1 in decimal", "APEI location: bank:1 row:1099511627777"),
	C("twenty nines", "APEI location: bank:1 row:99999999999999999999"),
	C("sixty-four hex digits", "Row:0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff Bank:1"),
	C("leading zeros", "Row:0x00000000000000000000000000001a2b Bank:0x000002"),
	C("0x alone", "Row:0x Bank:0x1"),
	C("0x then garbage", "Row:0xg1 Bank:0x1"),
	C("negative", "rank:-1 ba:-2 row:-3"),
	C("a plus sign", "rank:+1 ba:2 row:3"),
	C("decimal with a dot", "APEI location: bank:1.5 row:2"),
	C("APEI location later in the text", "rank:1 row:10 APEI location: bank:5"),
	C("APEI location without its space", "APEI location:bank:5 row:7"),
	C("APEI without location", "APEI bank:5 row:7"),
	C("APEI location: twice", "APEI location: APEI location: bank:5 row:7"),
	C("ghes names in the edac table", "node:1 card:2 module:3 bank:4 row:5 column:6"),
	C("edac names in ghes", "APEI location: Row:0x5 Bank:0x1 ba:3 bg:2 row:9 bank:8"),
	C("ghes bank and bank_address", "APEI location: bank:1026 bank_address:2 row:1"),
	C("ghes bank_address then bank", "APEI location: bank_address:2 bank:1026 row:1"),
	C("ghes col and column", "APEI location: bank:1 row:1 col:5 column:6"),
	C("ghes bit_pos and bit_position", "APEI location: bank:1 row:1 bit_pos:5 bit_position:6 chipID:2 chip_id:3"),
	C("ADXL ranks by priority", "ChipSelect:0x1 DimmRankId:0x2 Row:0x3 Bank:0x4"),
	C("ADXL ranks reversed", "DimmRankId:0x2 ChipSelect:0x1 Row:0x3 Bank:0x4"),
	C("physical rank over the DIMM rank", "DimmRankId:0x2 PhysicalRankId:0x5 Row:0x3 Bank:0x4"),
	C("rank over PhysicalRankId, the first of two at one priority", "rank:1 PhysicalRankId:0x5 row:3 ba:4"),
	C("repeated names: the first wins", "row:1 row:2 ba:3 ba:4 rank:5 rank:6"),
	C("a name the value failed, then good", "row:zz row:0x7 ba:1"),
	C("SKIP names tag", "SystemAddress:0x1 Row:0x5 Bank:0x1"),
	C("channel_mask tags sb", "channel_mask:1 row:0x5 ba:1"),
	C("amd pairs", "Cs: 0x1 Bank Grp: 0x2 Bank Addr: 0x3 Row: 0x4 Column: 0x5 RankMul: 0x6 SubChannel: 0x7"),
	C("amd pairs, values attached", "Cs:0x1 Bank Grp:0x2 Bank Addr:0x3 Row:0x4"),
	C("amd pair over two spaces", "Bank  Grp: 0x2 Bank\tAddr: 0x3 Row: 0x4"),
	C("amd pair split by a comma", "Bank,Grp: 0x2 Bank,Addr: 0x3 Row: 0x4"),
	C("a pair's first word ends a value", "Cs: Bank Grp: 0x2 Bank Addr: 0x3 Row: 0x4"),
	C("a pair with a long first word", "BankBankBankBankBankBankBank Grp: 0x2 Bank Addr: 0x3 Row: 0x4"),
	C("a pair whose first word is a name with a colon", "Bank: Grp: 0x2 Row: 0x4"),
	C("Grp alone", "Grp: 0x2 Addr: 0x3 Row:0x4 Bank:0x1"),
	C("Bank alone before a value", "Bank 0x3 Row:0x4 Bank:0x1"),
	C("a two-word name in ghes", "APEI location: Bank Grp: 2 bank:1 row:1"),
	C("names' case", "ROW:0x1 BANK:0x2 Rank:1 row:0x3 ba:4"),
	C("a name as a prefix of a longer word", "rowx:1 bax:2 row:0x3 ba:4"),
	C("a name's prefix", "ro:1 b:2 row:0x3 ba:4"),
	C("an empty name", ":5 row:0x3 ba:4"),
	C("sb_edac rank of a second DIMM", "socket:0 ha:1 channel_mask:2 rank:5 row:0x10 col:0x20 bank_addr:1 bank_group:2"),
	C("err_code words before", " err_code:0x0101:0x0091 socket:0 imc:1 rank:0 bg:1 ba:2 row:1a2b col:3f8"),
	C("retry log with names inside", "rank:0 bg:1 ba:2 row:0x1a2b col:0x3f8 retry_rd_err_log[row:5 ba:6] correrrcnt[0001]"),
	C("high bytes", "rank:1 \xff\xfe row:0x5 ba:\x80"),
	C("control bytes as separators?", "rank:1\rrow:0x5\vba:3\fbg:2"),
	C("a long word", "rank:1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:1 row:0x5 ba:1"),
	C("a long name's value", "Row:0x0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000005 Bank:0x1"),
	CL("a NUL inside", "rank:1 ba:2\0row:5", 17),
	CL("a NUL inside APEI location", "APEI\0location: bank:1 row:2", 28),
	CL("APEI location after a NUL", "bank:1 row:2\0APEI location: ", 28),
	CL("a length inside a name", "rank:1 ba:2 row:5", 13),
	CL("a length inside a value", "rank:1 ba:2 row:0x1234", 19),
	CL("a length on a colon", "rank:1 ba:2 row:0x1234", 16),
	CL("a length inside APEI location", "APEI location: bank:1 row:2", 10),
	CL("a length inside a two-word name", "Bank Grp: 0x2 Row:0x4 Bank:0x1", 6),
	CL("zero length", "rank:1 ba:2 row:5", 0),
	C("every name: socket", "socket:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: socket", "socket: 0x13 Row:0x4 Bank:0x5"),
	C("every name: imc", "imc:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: imc", "imc: 0x13 Row:0x4 Bank:0x5"),
	C("every name: rank", "rank:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: rank", "rank: 0x13 Row:0x4 Bank:0x5"),
	C("every name: bg", "bg:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: bg", "bg: 0x13 Row:0x4 Bank:0x5"),
	C("every name: ba", "ba:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: ba", "ba: 0x13 Row:0x4 Bank:0x5"),
	C("every name: row", "row:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: row", "row: 0x13 Row:0x4 Bank:0x5"),
	C("every name: col", "col:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: col", "col: 0x13 Row:0x4 Bank:0x5"),
	C("every name: ha", "ha:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: ha", "ha: 0x13 Row:0x4 Bank:0x5"),
	C("every name: bank_addr", "bank_addr:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: bank_addr", "bank_addr: 0x13 Row:0x4 Bank:0x5"),
	C("every name: bank_group", "bank_group:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: bank_group", "bank_group: 0x13 Row:0x4 Bank:0x5"),
	C("every name: channel_mask", "channel_mask:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: channel_mask", "channel_mask: 0x13 Row:0x4 Bank:0x5"),
	C("every name: ProcessorSocketId", "ProcessorSocketId:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: ProcessorSocketId", "ProcessorSocketId: 0x13 Row:0x4 Bank:0x5"),
	C("every name: MemoryControllerId", "MemoryControllerId:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: MemoryControllerId", "MemoryControllerId: 0x13 Row:0x4 Bank:0x5"),
	C("every name: PhysicalRankId", "PhysicalRankId:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: PhysicalRankId", "PhysicalRankId: 0x13 Row:0x4 Bank:0x5"),
	C("every name: Row", "Row:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: Row", "Row: 0x13 Row:0x4 Bank:0x5"),
	C("every name: Column", "Column:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: Column", "Column: 0x13 Row:0x4 Bank:0x5"),
	C("every name: Bank", "Bank:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: Bank", "Bank: 0x13 Row:0x4 Bank:0x5"),
	C("every name: BankGroup", "BankGroup:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: BankGroup", "BankGroup: 0x13 Row:0x4 Bank:0x5"),
	C("every name: ChannelId", "ChannelId:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: ChannelId", "ChannelId: 0x13 Row:0x4 Bank:0x5"),
	C("every name: DimmSlotId", "DimmSlotId:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: DimmSlotId", "DimmSlotId: 0x13 Row:0x4 Bank:0x5"),
	C("every name: DimmRankId", "DimmRankId:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: DimmRankId", "DimmRankId: 0x13 Row:0x4 Bank:0x5"),
	C("every name: ChipSelect", "ChipSelect:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: ChipSelect", "ChipSelect: 0x13 Row:0x4 Bank:0x5"),
	C("every name: ChipId", "ChipId:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: ChipId", "ChipId: 0x13 Row:0x4 Bank:0x5"),
	C("every name: SystemAddress", "SystemAddress:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: SystemAddress", "SystemAddress: 0x13 Row:0x4 Bank:0x5"),
	C("every name: ChannelAddress", "ChannelAddress:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: ChannelAddress", "ChannelAddress: 0x13 Row:0x4 Bank:0x5"),
	C("every name: RankAddress", "RankAddress:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: RankAddress", "RankAddress: 0x13 Row:0x4 Bank:0x5"),
	C("every name: Cs", "Cs:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: Cs", "Cs: 0x13 Row:0x4 Bank:0x5"),
	C("every name: Bank Grp", "Bank Grp:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: Bank Grp", "Bank Grp: 0x13 Row:0x4 Bank:0x5"),
	C("every name: Bank Addr", "Bank Addr:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: Bank Addr", "Bank Addr: 0x13 Row:0x4 Bank:0x5"),
	C("every name: SubChannel", "SubChannel:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: SubChannel", "SubChannel: 0x13 Row:0x4 Bank:0x5"),
	C("every name: RankMul", "RankMul:0x13 rank:1 ba:2 row:0x3"),
	C("every name, value apart: RankMul", "RankMul: 0x13 Row:0x4 Bank:0x5"),
	C("every CPER name: node", "APEI location: node:19 bank:1 row:2"),
	C("every CPER name, value apart: node", "APEI location: node: 19 rank:3 bank:4 row:5"),
	C("every CPER name: card", "APEI location: card:19 bank:1 row:2"),
	C("every CPER name, value apart: card", "APEI location: card: 19 rank:3 bank:4 row:5"),
	C("every CPER name: module", "APEI location: module:19 bank:1 row:2"),
	C("every CPER name, value apart: module", "APEI location: module: 19 rank:3 bank:4 row:5"),
	C("every CPER name: rank", "APEI location: rank:19 bank:1 row:2"),
	C("every CPER name, value apart: rank", "APEI location: rank: 19 rank:3 bank:4 row:5"),
	C("every CPER name: bank", "APEI location: bank:19 bank:1 row:2"),
	C("every CPER name, value apart: bank", "APEI location: bank: 19 rank:3 bank:4 row:5"),
	C("every CPER name: bank_address", "APEI location: bank_address:19 bank:1 row:2"),
	C("every CPER name, value apart: bank_address", "APEI location: bank_address: 19 rank:3 bank:4 row:5"),
	C("every CPER name: bank_group", "APEI location: bank_group:19 bank:1 row:2"),
	C("every CPER name, value apart: bank_group", "APEI location: bank_group: 19 rank:3 bank:4 row:5"),
	C("every CPER name: device", "APEI location: device:19 bank:1 row:2"),
	C("every CPER name, value apart: device", "APEI location: device: 19 rank:3 bank:4 row:5"),
	C("every CPER name: row", "APEI location: row:19 bank:1 row:2"),
	C("every CPER name, value apart: row", "APEI location: row: 19 rank:3 bank:4 row:5"),
	C("every CPER name: column", "APEI location: column:19 bank:1 row:2"),
	C("every CPER name, value apart: column", "APEI location: column: 19 rank:3 bank:4 row:5"),
	C("every CPER name: col", "APEI location: col:19 bank:1 row:2"),
	C("every CPER name, value apart: col", "APEI location: col: 19 rank:3 bank:4 row:5"),
	C("every CPER name: bit_position", "APEI location: bit_position:19 bank:1 row:2"),
	C("every CPER name, value apart: bit_position", "APEI location: bit_position: 19 rank:3 bank:4 row:5"),
	C("every CPER name: bit_pos", "APEI location: bit_pos:19 bank:1 row:2"),
	C("every CPER name, value apart: bit_pos", "APEI location: bit_pos: 19 rank:3 bank:4 row:5"),
	C("every CPER name: chip_id", "APEI location: chip_id:19 bank:1 row:2"),
	C("every CPER name, value apart: chip_id", "APEI location: chip_id: 19 rank:3 bank:4 row:5"),
	C("every CPER name: chipID", "APEI location: chipID:19 bank:1 row:2"),
	C("every CPER name, value apart: chipID", "APEI location: chipID: 19 rank:3 bank:4 row:5"),
};

static const struct {
	int sp;
	int64_t v[MEMBERS];
} expected[] = {
	{ NONE, { N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N } }, /* empty words: separators only */
	{ NONE, { N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N } }, /* a lone colon */
	{ NONE, { N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N } }, /* colons only */
	{ EARLY, { N, N, N, N, N, 0, 1, 2, N, N, N, N, N, N, N, N } }, /* a name without its value at the end */
	{ EARLY, { N, N, N, N, N, N, N, 1, N, 5, N, N, N, N, N, N } }, /* a name without its value, then a name */
	{ EARLY, { N, N, N, N, N, N, N, 1, N, N, N, N, N, N, N, N } }, /* a value with a colon in it */
	{ EARLY, { N, N, N, N, N, N, N, 1, N, N, N, N, N, N, N, N } }, /* the value's word has a colon: not taken, read as a name */
	{ SKX, { N, N, N, N, N, N, N, 3, 6699, N, N, N, N, N, N, N } }, /* a name and value two words apart */
	{ SKX, { N, N, N, N, N, N, N, 3, 6699, N, N, N, N, N, N, N } }, /* a value after a comma */
	{ SKX, { N, N, N, N, N, N, N, N, 1, N, N, N, N, N, N, N } }, /* name: then the end */
	{ EARLY, { N, N, N, N, N, 0, 1, 2, N, 1016, N, N, N, N, N, N } }, /* missing row */
	{ EARLY, { N, N, N, N, N, 0, 1, N, 6699, 1016, N, N, N, N, N, N } }, /* missing bank */
	{ EARLY, { N, N, N, N, N, N, N, N, N, 1016, N, N, N, N, N, N } }, /* only a column */
	{ EARLY, { N, N, N, N, N, 3, N, N, N, N, N, N, N, N, N, N } }, /* only a rank */
	{ EARLY, { N, N, N, N, N, 1, 2, 3, 16, 32, N, N, N, N, N, N } }, /* extra spaces, tabs, newlines and commas */
	{ EARLY, { N, N, N, N, N, 1, 2, 3, 16, 32, N, N, N, N, N, N } }, /* leading and trailing noise */
	{ SKX, { N, N, N, N, N, N, N, 15, 6699, N, N, N, N, N, N, N } }, /* upper-case hex prefix */
	{ EARLY, { N, N, N, N, N, N, N, N, 11259375, N, N, N, N, N, N, N } }, /* upper-case hex digits */
	{ SKX, { N, N, N, N, N, N, N, 239, 43981, N, N, N, N, N, N, N } }, /* mixed-case digits */
	{ EARLY, { N, N, N, N, N, N, N, 2, 5, N, N, N, N, N, N, N } }, /* hex digit in a decimal field */
	{ EARLY, { N, N, N, N, N, N, N, 1, 1099511627776, N, N, N, N, N, N, N } }, /* 2^40 exactly */
	{ EARLY, { N, N, N, N, N, N, N, 1, N, N, N, N, N, N, N, N } }, /* 2^40 + 1 */
	{ GHES, { N, N, N, N, N, N, N, 1, 1099511627776, N, N, N, N, N, N, N } }, /* 2^40 in decimal */
	{ GHES, { N, N, N, N, N, N, N, 1, N, N, N, N, N, N, N, N } }, /* 2^40 + 1 in decimal */
	{ GHES, { N, N, N, N, N, N, N, 1, N, N, N, N, N, N, N, N } }, /* twenty nines */
	{ SKX, { N, N, N, N, N, N, N, 1, N, N, N, N, N, N, N, N } }, /* sixty-four hex digits */
	{ SKX, { N, N, N, N, N, N, N, 2, 6699, N, N, N, N, N, N, N } }, /* leading zeros */
	{ SKX, { N, N, N, N, N, N, N, 1, N, N, N, N, N, N, N, N } }, /* 0x alone */
	{ SKX, { N, N, N, N, N, N, N, 1, N, N, N, N, N, N, N, N } }, /* 0x then garbage */
	{ NONE, { N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N } }, /* negative */
	{ EARLY, { N, N, N, N, N, N, N, 2, 3, N, N, N, N, N, N, N } }, /* a plus sign */
	{ GHES, { N, N, N, N, N, N, N, N, 2, N, N, N, N, N, N, N } }, /* decimal with a dot */
	{ GHES, { N, N, N, N, N, 1, N, 5, 10, N, N, N, N, N, N, N } }, /* APEI location later in the text */
	{ GHES, { N, N, N, N, N, N, N, N, 7, N, N, N, N, N, N, N } }, /* APEI location without its space */
	{ EARLY, { N, N, N, N, N, N, N, N, 7, N, N, N, N, N, N, N } }, /* APEI without location */
	{ GHES, { N, N, N, N, N, N, N, 5, 7, N, N, N, N, N, N, N } }, /* APEI location: twice */
	{ EARLY, { N, N, N, N, N, N, N, N, 5, N, N, N, N, N, N, N } }, /* ghes names in the edac table */
	{ GHES, { N, N, N, N, N, N, N, 8, 9, N, N, N, N, N, N, N } }, /* edac names in ghes */
	{ GHES, { N, N, N, N, N, N, N, 2, 1, N, N, N, N, N, N, N } }, /* ghes bank and bank_address */
	{ GHES, { N, N, N, N, N, N, N, 2, 1, N, N, N, N, N, N, N } }, /* ghes bank_address then bank */
	{ GHES, { N, N, N, N, N, N, N, 1, 1, 5, N, N, N, N, N, N } }, /* ghes col and column */
	{ GHES, { N, N, N, N, N, N, N, 1, 1, N, N, 5, N, N, 2, N } }, /* ghes bit_pos and bit_position */
	{ ADXL, { N, N, N, N, N, 2, N, 4, 3, N, N, N, N, N, N, N } }, /* ADXL ranks by priority */
	{ ADXL, { N, N, N, N, N, 2, N, 4, 3, N, N, N, N, N, N, N } }, /* ADXL ranks reversed */
	{ ADXL, { N, N, N, N, N, 5, N, 4, 3, N, N, N, N, N, N, N } }, /* physical rank over the DIMM rank */
	{ SKX, { N, N, N, N, N, 1, N, 4, 3, N, N, N, N, N, N, N } }, /* rank over PhysicalRankId, the first of two at one priority */
	{ EARLY, { N, N, N, N, N, 5, N, 3, 1, N, N, N, N, N, N, N } }, /* repeated names: the first wins */
	{ EARLY, { N, N, N, N, N, N, N, 1, 7, N, N, N, N, N, N, N } }, /* a name the value failed, then good */
	{ ADXL, { N, N, N, N, N, N, N, 1, 5, N, N, N, N, N, N, N } }, /* SKIP names tag */
	{ SB, { N, N, N, N, N, N, N, 1, 5, N, N, N, N, N, N, N } }, /* channel_mask tags sb */
	{ AMD, { N, N, N, 7, N, 1, 2, 3, 4, 5, N, N, N, N, 6, N } }, /* amd pairs */
	{ AMD, { N, N, N, N, N, 1, 2, 3, 4, N, N, N, N, N, N, N } }, /* amd pairs, values attached */
	{ AMD, { N, N, N, N, N, N, 2, 3, 4, N, N, N, N, N, N, N } }, /* amd pair over two spaces */
	{ AMD, { N, N, N, N, N, N, 2, 3, 4, N, N, N, N, N, N, N } }, /* amd pair split by a comma */
	{ AMD, { N, N, N, N, N, N, N, 3, 4, N, N, N, N, N, N, N } }, /* a pair's first word ends a value */
	{ AMD, { N, N, N, N, N, N, N, 3, 4, N, N, N, N, N, N, N } }, /* a pair with a long first word */
	{ SKX, { N, N, N, N, N, N, N, N, 4, N, N, N, N, N, N, N } }, /* a pair whose first word is a name with a colon */
	{ SKX, { N, N, N, N, N, N, N, 1, 4, N, N, N, N, N, N, N } }, /* Grp alone */
	{ SKX, { N, N, N, N, N, N, N, 1, 4, N, N, N, N, N, N, N } }, /* Bank alone before a value */
	{ GHES, { N, N, N, N, N, N, N, 1, 1, N, N, N, N, N, N, N } }, /* a two-word name in ghes */
	{ EARLY, { N, N, N, N, N, N, N, 4, 3, N, N, N, N, N, N, N } }, /* names' case */
	{ EARLY, { N, N, N, N, N, N, N, 4, 3, N, N, N, N, N, N, N } }, /* a name as a prefix of a longer word */
	{ EARLY, { N, N, N, N, N, N, N, 4, 3, N, N, N, N, N, N, N } }, /* a name's prefix */
	{ EARLY, { N, N, N, N, N, N, N, 4, 3, N, N, N, N, N, N, N } }, /* an empty name */
	{ SB, { 0, 1, N, N, N, 5, 2, 1, 16, 32, N, N, N, N, N, N } }, /* sb_edac rank of a second DIMM */
	{ EARLY, { 0, 1, N, N, N, 0, 1, 2, 6699, 1016, N, N, N, N, N, N } }, /* err_code words before */
	{ EARLY, { N, N, N, N, N, 0, 1, 2, 6699, 1016, N, N, N, N, N, N } }, /* retry log with names inside */
	{ EARLY, { N, N, N, N, N, 1, N, N, 5, N, N, N, N, N, N, N } }, /* high bytes */
	{ NONE, { N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N } }, /* control bytes as separators? */
	{ EARLY, { N, N, N, N, N, 1, N, 1, 5, N, N, N, N, N, N, N } }, /* a long word */
	{ SKX, { N, N, N, N, N, N, N, 1, 5, N, N, N, N, N, N, N } }, /* a long name's value */
	{ EARLY, { N, N, N, N, N, 1, N, 2, N, N, N, N, N, N, N, N } }, /* a NUL inside */
	{ NONE, { N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N } }, /* a NUL inside APEI location */
	{ EARLY, { N, N, N, N, N, N, N, N, 2, N, N, N, N, N, N, N } }, /* APEI location after a NUL */
	{ EARLY, { N, N, N, N, N, 1, N, 2, N, N, N, N, N, N, N, N } }, /* a length inside a name */
	{ EARLY, { N, N, N, N, N, 1, N, 2, 1, N, N, N, N, N, N, N } }, /* a length inside a value */
	{ EARLY, { N, N, N, N, N, 1, N, 2, N, N, N, N, N, N, N, N } }, /* a length on a colon */
	{ NONE, { N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N } }, /* a length inside APEI location */
	{ NONE, { N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N } }, /* a length inside a two-word name */
	{ NONE, { N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N } }, /* zero length */
	{ EARLY, { 19, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: socket */
	{ SKX, { 19, N, N, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: socket */
	{ EARLY, { N, 19, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: imc */
	{ SKX, { N, 19, N, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: imc */
	{ EARLY, { N, N, N, N, N, 19, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: rank */
	{ SKX, { N, N, N, N, N, 19, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: rank */
	{ EARLY, { N, N, N, N, N, 1, 19, 2, 3, N, N, N, N, N, N, N } }, /* every name: bg */
	{ SKX, { N, N, N, N, N, N, 19, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: bg */
	{ EARLY, { N, N, N, N, N, 1, N, 19, 3, N, N, N, N, N, N, N } }, /* every name: ba */
	{ SKX, { N, N, N, N, N, N, N, 19, 4, N, N, N, N, N, N, N } }, /* every name, value apart: ba */
	{ EARLY, { N, N, N, N, N, 1, N, 2, 19, N, N, N, N, N, N, N } }, /* every name: row */
	{ SKX, { N, N, N, N, N, N, N, 5, 19, N, N, N, N, N, N, N } }, /* every name, value apart: row */
	{ EARLY, { N, N, N, N, N, 1, N, 2, 3, 19, N, N, N, N, N, N } }, /* every name: col */
	{ SKX, { N, N, N, N, N, N, N, 5, 4, 19, N, N, N, N, N, N } }, /* every name, value apart: col */
	{ SB, { N, 19, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: ha */
	{ SB, { N, 19, N, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: ha */
	{ SB, { N, N, N, N, N, 1, N, 19, 3, N, N, N, N, N, N, N } }, /* every name: bank_addr */
	{ SB, { N, N, N, N, N, N, N, 19, 4, N, N, N, N, N, N, N } }, /* every name, value apart: bank_addr */
	{ SB, { N, N, N, N, N, 1, 19, 2, 3, N, N, N, N, N, N, N } }, /* every name: bank_group */
	{ SB, { N, N, N, N, N, N, 19, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: bank_group */
	{ SB, { N, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: channel_mask */
	{ SB, { N, N, N, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: channel_mask */
	{ SKX, { 19, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: ProcessorSocketId */
	{ SKX, { 19, N, N, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: ProcessorSocketId */
	{ SKX, { N, 19, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: MemoryControllerId */
	{ SKX, { N, 19, N, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: MemoryControllerId */
	{ SKX, { N, N, N, N, N, 19, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: PhysicalRankId */
	{ SKX, { N, N, N, N, N, 19, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: PhysicalRankId */
	{ SKX, { N, N, N, N, N, 1, N, 2, 19, N, N, N, N, N, N, N } }, /* every name: Row */
	{ SKX, { N, N, N, N, N, N, N, 5, 19, N, N, N, N, N, N, N } }, /* every name, value apart: Row */
	{ SKX, { N, N, N, N, N, 1, N, 2, 3, 19, N, N, N, N, N, N } }, /* every name: Column */
	{ SKX, { N, N, N, N, N, N, N, 5, 4, 19, N, N, N, N, N, N } }, /* every name, value apart: Column */
	{ SKX, { N, N, N, N, N, 1, N, 19, 3, N, N, N, N, N, N, N } }, /* every name: Bank */
	{ SKX, { N, N, N, N, N, N, N, 19, 4, N, N, N, N, N, N, N } }, /* every name, value apart: Bank */
	{ SKX, { N, N, N, N, N, 1, 19, 2, 3, N, N, N, N, N, N, N } }, /* every name: BankGroup */
	{ SKX, { N, N, N, N, N, N, 19, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: BankGroup */
	{ ADXL, { N, N, 19, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: ChannelId */
	{ ADXL, { N, N, 19, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: ChannelId */
	{ ADXL, { N, N, N, N, 19, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: DimmSlotId */
	{ ADXL, { N, N, N, N, 19, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: DimmSlotId */
	{ ADXL, { N, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: DimmRankId */
	{ ADXL, { N, N, N, N, N, 19, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: DimmRankId */
	{ ADXL, { N, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: ChipSelect */
	{ ADXL, { N, N, N, N, N, 19, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: ChipSelect */
	{ ADXL, { N, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, 19, N } }, /* every name: ChipId */
	{ ADXL, { N, N, N, N, N, N, N, 5, 4, N, N, N, N, N, 19, N } }, /* every name, value apart: ChipId */
	{ ADXL, { N, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: SystemAddress */
	{ ADXL, { N, N, N, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: SystemAddress */
	{ ADXL, { N, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: ChannelAddress */
	{ ADXL, { N, N, N, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: ChannelAddress */
	{ ADXL, { N, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: RankAddress */
	{ ADXL, { N, N, N, N, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: RankAddress */
	{ AMD, { N, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: Cs */
	{ AMD, { N, N, N, N, N, 19, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: Cs */
	{ AMD, { N, N, N, N, N, 1, 19, 2, 3, N, N, N, N, N, N, N } }, /* every name: Bank Grp */
	{ AMD, { N, N, N, N, N, N, 19, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: Bank Grp */
	{ AMD, { N, N, N, N, N, 1, N, 19, 3, N, N, N, N, N, N, N } }, /* every name: Bank Addr */
	{ AMD, { N, N, N, N, N, N, N, 19, 4, N, N, N, N, N, N, N } }, /* every name, value apart: Bank Addr */
	{ AMD, { N, N, N, 19, N, 1, N, 2, 3, N, N, N, N, N, N, N } }, /* every name: SubChannel */
	{ AMD, { N, N, N, 19, N, N, N, 5, 4, N, N, N, N, N, N, N } }, /* every name, value apart: SubChannel */
	{ AMD, { N, N, N, N, N, 1, N, 2, 3, N, N, N, N, N, 19, N } }, /* every name: RankMul */
	{ AMD, { N, N, N, N, N, N, N, 5, 4, N, N, N, N, N, 19, N } }, /* every name, value apart: RankMul */
	{ GHES, { 19, N, N, N, N, N, N, 1, 2, N, N, N, N, N, N, N } }, /* every CPER name: node */
	{ GHES, { 19, N, N, N, N, 3, N, 4, 5, N, N, N, N, N, N, N } }, /* every CPER name, value apart: node */
	{ GHES, { N, 19, N, N, N, N, N, 1, 2, N, N, N, N, N, N, N } }, /* every CPER name: card */
	{ GHES, { N, 19, N, N, N, 3, N, 4, 5, N, N, N, N, N, N, N } }, /* every CPER name, value apart: card */
	{ GHES, { N, N, N, N, 19, N, N, 1, 2, N, N, N, N, N, N, N } }, /* every CPER name: module */
	{ GHES, { N, N, N, N, 19, 3, N, 4, 5, N, N, N, N, N, N, N } }, /* every CPER name, value apart: module */
	{ GHES, { N, N, N, N, N, 19, N, 1, 2, N, N, N, N, N, N, N } }, /* every CPER name: rank */
	{ GHES, { N, N, N, N, N, 19, N, 4, 5, N, N, N, N, N, N, N } }, /* every CPER name, value apart: rank */
	{ GHES, { N, N, N, N, N, N, N, 19, 2, N, N, N, N, N, N, N } }, /* every CPER name: bank */
	{ GHES, { N, N, N, N, N, 3, N, 19, 5, N, N, N, N, N, N, N } }, /* every CPER name, value apart: bank */
	{ GHES, { N, N, N, N, N, N, N, 19, 2, N, N, N, N, N, N, N } }, /* every CPER name: bank_address */
	{ GHES, { N, N, N, N, N, 3, N, 19, 5, N, N, N, N, N, N, N } }, /* every CPER name, value apart: bank_address */
	{ GHES, { N, N, N, N, N, N, 19, 1, 2, N, N, N, N, N, N, N } }, /* every CPER name: bank_group */
	{ GHES, { N, N, N, N, N, 3, 19, 4, 5, N, N, N, N, N, N, N } }, /* every CPER name, value apart: bank_group */
	{ GHES, { N, N, N, N, N, N, N, 1, 2, N, 19, N, N, N, N, N } }, /* every CPER name: device */
	{ GHES, { N, N, N, N, N, 3, N, 4, 5, N, 19, N, N, N, N, N } }, /* every CPER name, value apart: device */
	{ GHES, { N, N, N, N, N, N, N, 1, 19, N, N, N, N, N, N, N } }, /* every CPER name: row */
	{ GHES, { N, N, N, N, N, 3, N, 4, 19, N, N, N, N, N, N, N } }, /* every CPER name, value apart: row */
	{ GHES, { N, N, N, N, N, N, N, 1, 2, 19, N, N, N, N, N, N } }, /* every CPER name: column */
	{ GHES, { N, N, N, N, N, 3, N, 4, 5, 19, N, N, N, N, N, N } }, /* every CPER name, value apart: column */
	{ GHES, { N, N, N, N, N, N, N, 1, 2, 19, N, N, N, N, N, N } }, /* every CPER name: col */
	{ GHES, { N, N, N, N, N, 3, N, 4, 5, 19, N, N, N, N, N, N } }, /* every CPER name, value apart: col */
	{ GHES, { N, N, N, N, N, N, N, 1, 2, N, N, 19, N, N, N, N } }, /* every CPER name: bit_position */
	{ GHES, { N, N, N, N, N, 3, N, 4, 5, N, N, 19, N, N, N, N } }, /* every CPER name, value apart: bit_position */
	{ GHES, { N, N, N, N, N, N, N, 1, 2, N, N, 19, N, N, N, N } }, /* every CPER name: bit_pos */
	{ GHES, { N, N, N, N, N, 3, N, 4, 5, N, N, 19, N, N, N, N } }, /* every CPER name, value apart: bit_pos */
	{ GHES, { N, N, N, N, N, N, N, 1, 2, N, N, N, N, N, 19, N } }, /* every CPER name: chip_id */
	{ GHES, { N, N, N, N, N, 3, N, 4, 5, N, N, N, N, N, 19, N } }, /* every CPER name, value apart: chip_id */
	{ GHES, { N, N, N, N, N, N, N, 1, 2, N, N, N, N, N, 19, N } }, /* every CPER name: chipID */
	{ GHES, { N, N, N, N, N, 3, N, 4, 5, N, N, N, N, N, 19, N } }, /* every CPER name, value apart: chipID */
};

/* Whole texts cut at every length from 0 to all of it. */
static const char *const cut[] = {
	" err_code:0x0101:0x0091 socket:0 imc:1 rank:0 bg:1 ba:2 row:0x1a2b col:0x3f8",
	" err_code:0x0000:0x0091 ProcessorSocketId:0x0 MemoryControllerId:0x1 PhysicalRankId:0x0 "
	"Row:0x1a2b Column:0x3f8 Bank:0x2 BankGroup:0x1 retry_rd_err_log[0001a209 00000000] correrrcnt[0001 0000]",
	" err_code:0x0000:0x0091  SystemAddress:0x42ab3c440 ProcessorSocketId:0x0 MemoryControllerId:0x1 "
	"ChannelAddress:0x8559e20 ChannelId:0x2 RankAddress:0x2153c40 PhysicalRankId:0x1 DimmSlotId:0x0 "
	"DimmRankId:0x1 Row:0x1a2b Column:0x3f8 Bank:0x2 BankGroup:0x1 ChipSelect:0x1 ChipId:0x0",
	"APEI location: node: 0 card:0 module:1 rank:0 bank:258 bank_group:1 bank_address:2 "
	"device:5 row:6699 column:1016 bit_position:17 chip_id:0 status(0x400): Storage error in DRAM memory",
	"Cs: 0x1 Bank Grp: 0x1 Bank Addr: 0x2 Row: 0x1a2b Column: 0x3f8 RankMul: 0x0 SubChannel: 0x1",
	" area:DRAM err_code:0001:0090 socket:1 ha:1 channel_mask:4 rank:0 row:0x1a2b col:0x3f8 bank_addr:2 bank_group:1",
};

static const uint64_t cut_digest[] = {
	UINT64_C(0x09d7012bd284b008),
	UINT64_C(0x42f6a4fa9fbc856e),
	UINT64_C(0xf19ae752e1fc7413),
	UINT64_C(0xdacf71c4a14c9d7b),
	UINT64_C(0x6c86749e310a322a),
	UINT64_C(0x9f4db1365a2d9d92),
};

static uint64_t digest(const struct diag_dram *d, enum diag_spelling sp, uint64_t h)
{
	const int64_t v[MEMBERS] = {
		d->socket, d->mc, d->channel, d->sub_channel, d->dimm, d->rank, d->bank_group, d->bank,
		d->row, d->column, d->device, d->bit, d->bits, d->nibble_mask, d->chip_id, d->dpa,
	};

	h = (h ^ (uint64_t)sp) * 1099511628211ULL;
	for (size_t i = 0; i < MEMBERS; i++)
		for (int b = 0; b < 64; b += 8)
			h = (h ^ (((uint64_t)v[i] >> b) & 0xff)) * 1099511628211ULL;
	return h;
}

static void odd_texts(void)
{
	_Static_assert(sizeof(cases) / sizeof(cases[0]) == sizeof(expected) / sizeof(expected[0]),
		       "a result for every case");
	_Static_assert(sizeof(struct diag_dram) == MEMBERS * sizeof(int64_t), "every member compared");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diag_dram d;
		enum diag_spelling sp = diag_dram_from_edac_detail(cases[i].text, cases[i].len, &d);
		const int64_t got[MEMBERS] = {
			d.socket, d.mc, d.channel, d.sub_channel, d.dimm, d.rank, d.bank_group, d.bank,
			d.row, d.column, d.device, d.bit, d.bits, d.nibble_mask, d.chip_id, d.dpa,
		};
		size_t k = 0;

		while (k < MEMBERS && got[k] == expected[i].v[k])
			k++;
		tap_ok((int)sp == expected[i].sp && k == MEMBERS, "%s: %s%s", cases[i].what,
		       diag_spelling_name(sp), k == MEMBERS ? "" : ", a member differs");
		if (k < MEMBERS)
			tap_diag("member %zu: %" PRId64 ", expected %" PRId64, k, got[k], expected[i].v[k]);
	}
}

static void every_cut(void)
{
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		uint64_t h = 1469598103934665603ULL;

		for (size_t n = 0; n <= strlen(cut[i]); n++) {
			struct diag_dram d;

			h = digest(&d, diag_dram_from_edac_detail(cut[i], n, &d), h);
		}
		tap_ok(h == cut_digest[i], "text %zu cut at each of its %zu lengths reads as before", i,
		       strlen(cut[i]) + 1);
	}
}

int main(void)
{
	odd_texts();
	every_cut();
	return tap_done();
}
