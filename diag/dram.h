/* SPDX-License-Identifier: MIT */
/*
 * Where in a DRAM an error was: one normalized struct, whatever the source
 * called the coordinates. The EDAC text of skx/i10nm and ghes_edac
 * (mc_event's driver_detail) in every kernel spelling, the CXL DRAM event
 * record's fields, and the CPER memory error section's fields all land here.
 * Pure: no I/O, no allocation, no globals.
 *
 * Spellings of driver_detail (Linux drivers/edac/skx_common.c, ghes_edac.c,
 * drivers/firmware/efi/cper.c):
 *   skx before 2022:  "... socket:0 imc:1 rank:1 bg:2 ba:3 row:0x1234 col:0x50"
 *                     (the first skx_edac wrote row and col in hex without 0x)
 *   skx/i10nm since:  "... ProcessorSocketId:0x0 MemoryControllerId:0x1
 *                     PhysicalRankId:0x1 Row:0x1234 Column:0x50 Bank:0x3 BankGroup:0x2"
 *   ADXL (firmware):  " Name:0x..." per component the firmware lists
 *                     (ChannelId, DimmSlotId, DimmRankId, ChipSelect, ...)
 *   amd64_edac (the AMD address translation's DRAM address, posted 2025, as
 *                     driver_detail after any "err_code:0x..:0x.."):
 *                     "Cs: 0x1 Bank Grp: 0x2 Bank Addr: 0x3 Row: 0x1234
 *                     Column: 0x50 RankMul: 0x0 SubChannel: 0x1"; without it
 *                     amd64_edac gives no coordinates in the text, only its
 *                     layers (chip select, channel: rasd/health_attr.c)
 *   ghes_edac:        "APEI location: node:0 card:0 module:1 rank:0 bank:13
 *                     bank_group:3 bank_address:1 device:5 row:4660 column:80
 *                     bit_position:12 ..." (decimal; older kernels wrote col: and bit_pos:)
 * Any of them may be followed by retry_rd_err_log[...] and correrrcnt[...].
 */
#ifndef RAS_DIAG_DRAM_H
#define RAS_DIAG_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "decoders/dfield.h"

/* Every member RAS_DF_NONE when the source did not say. */
struct diag_dram {
	/* Where the DIMM sits, as the source names it. */
	int64_t socket, mc, channel, sub_channel, dimm;
	/* Inside it. bank is the bank address within its bank group when the group is known. */
	int64_t rank, bank_group, bank, row, column;
	int64_t device;        /* DRAM device (chip) position: CPER device, CXL's one nibble in error */
	int64_t bit;           /* the one bit in error: CPER bit position, CXL's one corrected bit */
	int64_t bits;          /* how many bits were corrected (CXL correction mask) */
	int64_t nibble_mask;   /* CXL: the nibbles in error */
	int64_t chip_id;       /* 3DS stack position (CPER chip id, ADXL ChipId) */
	int64_t dpa;           /* CXL device physical address */
};

/* Which kernel spelling driver_detail was in. */
enum diag_spelling {
	DIAG_SP_NONE,          /* no DRAM coordinates */
	DIAG_SP_SKX_EARLY,     /* rank: bg: ba: row: col: */
	DIAG_SP_SKX,           /* PhysicalRankId: Row: Column: Bank: BankGroup: (2022+) */
	DIAG_SP_ADXL,          /* the firmware's component list */
	DIAG_SP_GHES,          /* APEI location: node: card: module: rank: bank: ... */
	DIAG_SP_AMD,           /* Cs: Bank Grp: Bank Addr: Row: Column: RankMul: SubChannel: */
	DIAG_SP_SB,            /* sb_edac: socket: ha: channel_mask: rank: row: col: bank_addr: bank_group: */
	DIAG_SP_N
};

/* "skx-early", "skx", "adxl", "ghes", "amd", "sb", "none". */
const char *diag_spelling_name(enum diag_spelling sp);

void diag_dram_clear(struct diag_dram *d);
/* True when it names anything inside a DIMM: a rank, bank, row or column. */
bool diag_dram_known(const struct diag_dram *d);

/*
 * Reads mc_event's driver_detail: len bytes at detail (no NUL needed, the
 * whole string as the kernel wrote it). Fills out and returns the spelling;
 * DIAG_SP_NONE (out cleared) when it names no DRAM coordinate.
 */
enum diag_spelling diag_dram_from_edac_detail(const char *detail, size_t len,
					      struct diag_dram *out);
/*
 * The same for a string whose length is known: len bytes without a NUL at
 * s, and a NUL at s[len]. Read in place, without the copy the above makes.
 */
enum diag_spelling diag_dram_from_edac_string(const char *s, size_t len, struct diag_dram *out);

/* The CXL DRAM event record's validity flags (CXL r3.1 Table 8-46). */
#define DIAG_CXL_VALID_CHANNEL (1u << 0)
#define DIAG_CXL_VALID_RANK (1u << 1)
#define DIAG_CXL_VALID_NIBBLE (1u << 2)
#define DIAG_CXL_VALID_BANK_GROUP (1u << 3)
#define DIAG_CXL_VALID_BANK (1u << 4)
#define DIAG_CXL_VALID_ROW (1u << 5)
#define DIAG_CXL_VALID_COLUMN (1u << 6)
#define DIAG_CXL_VALID_CORRECTION_MASK (1u << 7)
#define DIAG_CXL_VALID_SUB_CHANNEL (1u << 10)

/* The fields of a cxl_dram record as the tracepoint has them (cor_mask: 32 bytes, may be NULL). */
struct diag_cxl_dram {
	int64_t validity;      /* RAS_DF_NONE: no flags in this kernel's record, all taken as valid */
	int64_t channel, sub_channel, rank, nibble_mask, bank_group, bank, row, column, dpa;
	const uint8_t *cor_mask;
	size_t cor_mask_len;
};

/* Coordinates of a CXL DRAM event record, the fields its validity flags vouch for. */
void diag_dram_from_cxl(const struct diag_cxl_dram *in, struct diag_dram *out);

/* The location fields of a CPER memory error section (UEFI 2.10 N.2.5), RAS_DF_NONE when not valid. */
struct diag_cper_mem {
	int64_t node, card, module, rank, bank, bank_group, bank_address, device, row, column;
	int64_t bit_pos, chip_id;
};

void diag_dram_from_cper(const struct diag_cper_mem *in, struct diag_dram *out);

#endif
