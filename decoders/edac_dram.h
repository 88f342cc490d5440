/* SPDX-License-Identifier: MIT */
/*
 * DRAM coordinates an EDAC driver writes into mc_event's driver_detail, as
 * "name:value" words. Spellings known (Linux drivers/edac/skx_common.c):
 *   skx/i10nm before 6.x: "socket:0 imc:1 rank:1 bg:2 ba:3 row:0x1234 col:0x50"
 *   skx/i10nm since:      "ProcessorSocketId:0x0 MemoryControllerId:0x1
 *                          PhysicalRankId:0x1 Row:0x1234 Column:0x50 Bank:0x3
 *                          BankGroup:0x2"
 *   ACPI ADXL decoding:   the same component names, each "Name:0x..."
 * and the firmware-first one, ghes_edac's "APEI location: " (decimal):
 *   before 5.17: node:0 card:0 module:1 rank:0 bank:1026 bank_group:4
 *                bank_address:2 row:6749 col:8 bit_pos:0 DIMM location:...
 *   since (the location from cper_mem_err_location, drivers/firmware/efi/
 *   cper.c): ... bank_address:2 device:0 row:6749 column:8 bit_position:0
 *                requestor_id:0x... responder_id:0x... target_id:0x...
 * where bank holds the group in its high byte when bank_group is there, so
 * bank_address names the bank within the group.
 * Pure: no I/O, no allocation.
 */
#ifndef RAS_EDAC_DRAM_H
#define RAS_EDAC_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct edac_dram {
	int64_t socket, imc, rank, bank_group, bank, row, column;   /* RAS_DF_NONE: not said */
	int64_t node, card, module, device;   /* ghes_edac's CPER location; RAS_DF_NONE elsewhere */
};

/*
 * Reads the coordinates out of driver_detail (len bytes, NUL not needed).
 * True when it names at least a row and a bank: a DRAM row can be told.
 */
bool edac_dram_of_detail(const char *detail, size_t len, struct edac_dram *out);

#endif
