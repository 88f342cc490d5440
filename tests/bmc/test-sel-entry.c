/* SPDX-License-Identifier: MIT */
/*
 * Golden vectors of the SEL entry (bmc/sel_entry.h). Each expected byte is
 * from IPMI 2.0's "SEL Event Records" layout: record type 02h, timestamp LS
 * byte first, generator ID 41h (system software ID 20h, bit 0 set), EvM
 * revision 04h, sensor types 0Ch memory / 07h processor / 13h critical
 * interrupt, event dir/type 6Fh (assertion, sensor-specific), event data 1
 * [7:4] 1010b (OEM data in bytes 2 and 3) with the sensor-specific offset:
 * memory 01h uncorrectable ECC, 05h correctable ECC logging limit reached;
 * processor 0Bh machine check exception, 0Ch correctable machine check
 * error; critical interrupt 07h bus correctable, 08h bus uncorrectable, 0Ah
 * bus fatal error.
 */
#include <errno.h>
#include <string.h>
#include "bmc/sel_entry.h"
#include "tests/tap.h"

struct vector {
	struct bmc_sel_event e;
	uint8_t want[BMC_SEL_ENTRY_LEN];
	const char *words;
};

static const struct vector vectors[] = {
	{ { BMC_SEL_MEMORY, BMC_SEL_UNCORRECTED, 0x6543210f, 0x1234 },
	  { 0x00, 0x00, 0x02, 0x0f, 0x21, 0x43, 0x65, 0x41, 0x00, 0x04, 0x0c, 0xff, 0x6f, 0xa1,
	    0x12, 0x34 }, "memory: uncorrectable ECC" },
	{ { BMC_SEL_MEMORY, BMC_SEL_FATAL, 1, 0 },
	  { 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00, 0x41, 0x00, 0x04, 0x0c, 0xff, 0x6f, 0xa1,
	    0x00, 0x00 }, "memory: uncorrectable ECC" },
	{ { BMC_SEL_MEMORY, BMC_SEL_THRESHOLD, 0xffffffff, 0x00ff },
	  { 0x00, 0x00, 0x02, 0xff, 0xff, 0xff, 0xff, 0x41, 0x00, 0x04, 0x0c, 0xff, 0x6f, 0xa5,
	    0x00, 0xff }, "memory: correctable ECC logging limit reached" },
	{ { BMC_SEL_PROCESSOR, BMC_SEL_UNCORRECTED, 0x01020304, 0xff00 },
	  { 0x00, 0x00, 0x02, 0x04, 0x03, 0x02, 0x01, 0x41, 0x00, 0x04, 0x07, 0xff, 0x6f, 0xab,
	    0xff, 0x00 }, "processor: uncorrectable machine check exception" },
	{ { BMC_SEL_PROCESSOR, BMC_SEL_FATAL, 0, 0xffff },
	  { 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x41, 0x00, 0x04, 0x07, 0xff, 0x6f, 0xab,
	    0xff, 0xff }, "processor: uncorrectable machine check exception" },
	{ { BMC_SEL_PROCESSOR, BMC_SEL_THRESHOLD, 0x80000000, 7 },
	  { 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x80, 0x41, 0x00, 0x04, 0x07, 0xff, 0x6f, 0xac,
	    0x00, 0x07 }, "processor: correctable machine check error" },
	{ { BMC_SEL_BUS, BMC_SEL_UNCORRECTED, 0x00010000, 0x0100 },
	  { 0x00, 0x00, 0x02, 0x00, 0x00, 0x01, 0x00, 0x41, 0x00, 0x04, 0x13, 0xff, 0x6f, 0xa8,
	    0x01, 0x00 }, "critical interrupt: bus uncorrectable error" },
	{ { BMC_SEL_BUS, BMC_SEL_FATAL, 0x00000100, 2 },
	  { 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x41, 0x00, 0x04, 0x13, 0xff, 0x6f, 0xaa,
	    0x00, 0x02 }, "critical interrupt: bus fatal error" },
	{ { BMC_SEL_BUS, BMC_SEL_THRESHOLD, 0x5f5e1000, 0xabcd },
	  { 0x00, 0x00, 0x02, 0x00, 0x10, 0x5e, 0x5f, 0x41, 0x00, 0x04, 0x13, 0xff, 0x6f, 0xa7,
	    0xab, 0xcd }, "critical interrupt: bus correctable error" },
};

#define N_VECTORS (sizeof(vectors) / sizeof(vectors[0]))

static void test_vectors(void)
{
	for (size_t i = 0; i < N_VECTORS; i++) {
		uint8_t got[BMC_SEL_ENTRY_LEN];
		char g[64], w[64];

		memset(got, 0xee, sizeof(got));
		tap_is_int(bmc_sel_encode(&vectors[i].e, got), 0, "vector %zu encodes", i);
		bmc_sel_hex(got, g, sizeof(g));
		bmc_sel_hex(vectors[i].want, w, sizeof(w));
		tap_is_str(g, w, "vector %zu: %s", i, vectors[i].words);
		tap_is_str(bmc_sel_words(got), vectors[i].words, "vector %zu reads back", i);
	}
}

static void test_refused(void)
{
	struct bmc_sel_event e = { BMC_SEL_NONE, BMC_SEL_UNCORRECTED, 1, 1 };
	uint8_t got[BMC_SEL_ENTRY_LEN] = { 0 };
	uint8_t other[BMC_SEL_ENTRY_LEN] = { [10] = 0x01, [13] = 0xa1 };  /* temperature */

	tap_is_int(bmc_sel_encode(&e, got), -EINVAL, "a part the BMC is not told of: no entry");
	tap_ok(bmc_sel_words(other) == NULL, "an entry of another sensor type is not ours");
}

static void test_parts(void)
{
	static const struct { const char *table; enum bmc_sel_part part; } t[] = {
		{ "mc_event", BMC_SEL_MEMORY }, { "extlog_mem_event", BMC_SEL_MEMORY },
		{ "memory_failure_event", BMC_SEL_MEMORY }, { "cxl_dram", BMC_SEL_MEMORY },
		{ "mce_record", BMC_SEL_PROCESSOR }, { "arm_event", BMC_SEL_PROCESSOR },
		{ "aer_event", BMC_SEL_BUS }, { "cxl_aer_uncorrectable_error", BMC_SEL_BUS },
		{ "block_rq_error", BMC_SEL_NONE }, { "signal_generate", BMC_SEL_NONE },
		{ "non_standard_event", BMC_SEL_NONE }, { "net_dev_xmit_timeout", BMC_SEL_NONE },
	};
	static const struct { const char *kind; enum bmc_sel_part part; } k[] = {
		{ "page", BMC_SEL_MEMORY }, { "row", BMC_SEL_MEMORY }, { "dimm", BMC_SEL_MEMORY },
		{ "cpu", BMC_SEL_PROCESSOR }, { "device", BMC_SEL_BUS }, { "disk", BMC_SEL_NONE },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		tap_is_int(bmc_sel_part_of_table(t[i].table), t[i].part, "table %s", t[i].table);
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		tap_is_int(bmc_sel_part_of_kind(k[i].kind), k[i].part, "kind %s", k[i].kind);
}

static void test_completion(void)
{
	tap_is_str(bmc_sel_completion_words(0xc1), "invalid command", "C1h");
	tap_is_str(bmc_sel_completion_words(0x81), "SEL erase in progress", "81h (Add SEL Entry's)");
	tap_is_str(bmc_sel_completion_words(0xc4), "out of space", "C4h");
	tap_is_str(bmc_sel_completion_words(0x42), "unknown completion code", "an unknown code");
}

int main(void)
{
	test_vectors();
	test_refused();
	test_parts();
	test_completion();
	return tap_done();
}
