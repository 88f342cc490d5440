/* SPDX-License-Identifier: MIT */
/*
 * The 16 bytes of an IPMI System Event Log entry (IPMI 2.0, "SEL Event
 * Records", record type 02h) for what rasd tells the BMC: an uncorrected
 * error or a corrected-error threshold crossed. Pure: an event in, 16 bytes
 * out, no I/O, no allocation, no globals (the layout rule of decoders/).
 *
 *  bytes  field            what ras-fdr puts there
 *  1-2    record ID        0000h: the BMC assigns it (Add SEL Entry returns it)
 *  3      record type      02h, system event record
 *  4-7    timestamp        the record's UTC seconds, LS byte first (a BMC
 *                          may put its own clock's time instead)
 *  8-9    generator ID     41h 00h: system software ID 20h (system management
 *                          software) with bit 0 set, channel 0, LUN 0
 *  10     EvM revision     04h (IPMI 1.5 and 2.0 event messages)
 *  11     sensor type      0Ch memory, 07h processor, 13h critical interrupt
 *  12     sensor number    FFh: no sensor of the BMC's SDR
 *  13     event dir/type   6Fh: assertion (bit 7 clear), sensor-specific
 *  14     event data 1     A0h | offset: [7:6] 10b OEM byte 2, [5:4] 10b OEM
 *                          byte 3, [3:0] the sensor type's offset
 *  15-16  event data 2, 3  the ras-fdr row id's low 16 bits, high byte first
 *                          (the row of `ras-fdr-ctl errors`, or of the record
 *                          that crossed the threshold)
 *
 * Offsets (IPMI 2.0 sensor-specific offsets): memory 00h correctable ECC,
 * 01h uncorrectable ECC, 05h correctable ECC logging limit reached;
 * processor 0Bh machine check exception (uncorrectable), 0Ch correctable
 * machine check error; critical interrupt 07h bus correctable error, 08h bus
 * uncorrectable error, 0Ah bus fatal error.
 */
#ifndef BMC_SEL_ENTRY_H
#define BMC_SEL_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#define BMC_SEL_ENTRY_LEN 16

#define BMC_SEL_RECORD_SYSTEM 0x02
#define BMC_SEL_GENERATOR_SOFTWARE 0x41  /* system software ID 20h << 1 | 1 */
#define BMC_SEL_EVM_REV 0x04
#define BMC_SEL_NO_SENSOR 0xff
#define BMC_SEL_SENSOR_SPECIFIC 0x6f
#define BMC_SEL_DATA1_OEM23 0xa0

#define BMC_SEL_TYPE_PROCESSOR 0x07
#define BMC_SEL_TYPE_MEMORY 0x0c
#define BMC_SEL_TYPE_CRITICAL_INTERRUPT 0x13

/* Which part the error is in: chooses the sensor type. */
enum bmc_sel_part {
	BMC_SEL_NONE = 0,      /* not told to the BMC */
	BMC_SEL_MEMORY,
	BMC_SEL_PROCESSOR,
	BMC_SEL_BUS,           /* PCIe, CXL links */
};

/* What happened: chooses the offset. */
enum bmc_sel_what {
	BMC_SEL_UNCORRECTED,
	BMC_SEL_FATAL,
	BMC_SEL_THRESHOLD,     /* corrected errors crossed their threshold */
};

struct bmc_sel_event {
	enum bmc_sel_part part;
	enum bmc_sel_what what;
	uint32_t time_s;       /* UTC seconds */
	uint16_t ref;          /* low 16 bits of the ras-fdr row id */
};

/* The entry's 16 bytes; 0, or -EINVAL for BMC_SEL_NONE. */
int bmc_sel_encode(const struct bmc_sel_event *e, uint8_t out[BMC_SEL_ENTRY_LEN]);
/* The part a ras-fdr event table's record is in (BMC_SEL_NONE: not told). */
enum bmc_sel_part bmc_sel_part_of_table(const char *table);
/* The part of a threshold subject's kind (page, row, dimm, cpu, device). */
enum bmc_sel_part bmc_sel_part_of_kind(const char *kind);
/* "memory: uncorrectable ECC" for an entry's sensor type and offset, or NULL when not ours. */
const char *bmc_sel_words(const uint8_t entry[BMC_SEL_ENTRY_LEN]);
/* The entry as 32 hex digits, a space between fields' bytes groups; len >= 48. */
void bmc_sel_hex(const uint8_t entry[BMC_SEL_ENTRY_LEN], char *out, size_t len);
/* Words for an IPMI completion code (C0h node busy, C1h invalid command...). */
const char *bmc_sel_completion_words(unsigned code);

#endif
