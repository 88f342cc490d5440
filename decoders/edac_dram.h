/* SPDX-License-Identifier: MIT */
/*
 * DRAM coordinates an EDAC driver writes into mc_event's driver_detail, as
 * "name:value" words. Spellings known (Linux drivers/edac/skx_common.c):
 *   skx/i10nm before 6.x: "socket:0 imc:1 rank:1 bg:2 ba:3 row:0x1234 col:0x50"
 *   skx/i10nm since:      "ProcessorSocketId:0x0 MemoryControllerId:0x1
 *                          PhysicalRankId:0x1 Row:0x1234 Column:0x50 Bank:0x3
 *                          BankGroup:0x2"
 *   ACPI ADXL decoding:   the same component names, each "Name:0x..."
 * Pure: no I/O, no allocation.
 */
#ifndef RAS_EDAC_DRAM_H
#define RAS_EDAC_DRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct edac_dram {
	int64_t socket, imc, rank, bank_group, bank, row, column;   /* RAS_DF_NONE: not said */
};

/*
 * Reads the coordinates out of driver_detail (len bytes, NUL not needed).
 * True when it names at least a row and a bank: a DRAM row can be told.
 */
bool edac_dram_of_detail(const char *detail, size_t len, struct edac_dram *out);

#endif
