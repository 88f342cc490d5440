/* SPDX-License-Identifier: MIT */
/*
 * Threshold subjects from golden records: DRAM rows named by EDAC drivers in
 * mc_event's driver_detail (skx/i10nm in both spellings the kernel has used,
 * ACPI ADXL decoding, ghes_edac's CPER location before and since 5.17),
 * records that name no row, and AMD UMC machine checks
 * (a rank: channel and chip select). A machine check's address names a page
 * only when the kernel's rule says it is physical: never a UMC's normalized
 * address, an Intel address in another mode or of a coarser grain.
 */
#include <stdio.h>
#include <string.h>
#include "rng.h"
#include "tap.h"
#include "decoders/cper.h"
#include "decoders/dfield.h"
#include "decoders/edac.h"
#include "diag/dram.h"
#include "decoders/mce.h"
#include "lib/event_table.h"
#include "lib/subject.h"
#include "tests/decoders/vendor_vectors.h"

static struct ras_subject subj[RAS_SUBJECTS_MAX];
static int nsubj;

static const struct ras_subject *find(enum ras_subject_kind kind)
{
	for (int i = 0; i < nsubj; i++)
		if (subj[i].kind == kind)
			return &subj[i];
	return NULL;
}

/* A corrected mc_event as skx_edac/i10nm_edac report one: layers channel, DIMM. */
static void mc_event(const char *detail, uint16_t count)
{
	struct edac_in in = {
		.error_type = EDAC_ERR_CORRECTED, .msg = "memory read error", .msg_len = 17,
		.label = "CPU_SrcID#0_MC#1_Chan#2_DIMM#0", .label_len = 30, .error_count = count,
		.mc_index = 1, .top_layer = 2, .middle_layer = 0, .lower_layer = -1,
		.address = 0x12345678, .grain_bits = 6, .syndrome = 0, .driver_detail = detail,
		.driver_detail_len = strlen(detail),
	};
	static struct edac_decoded d;

	edac_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("ras:mc_event"), NULL, &d, 4096, ~0u, subj);
}

static void expect_row(const char *detail, const char *spelling)
{
	const struct ras_subject *s;

	mc_event(detail, 1);
	s = find(RAS_SUBJ_ROW);
	if (!tap_ok(s != NULL, "%s: a row subject", spelling))
		return;
	tap_is_str(s->key, "mc1 2:0:-1 rank 1 bank group 2 bank 3 row 0x1a2b", "%s: its key", spelling);
	tap_ok(s->dram.rank == 1 && s->dram.bank_group == 2 && s->dram.bank == 3 &&
	       s->dram.row == 0x1a2b && s->dram.column == 0x3f8, "%s: rank, bank group, bank, row, column",
	       spelling);
	tap_is_str(s->device, "mc1", "%s: the EDAC device", spelling);
	tap_ok(s->have_addr && s->addr == 0x12345678, "%s: the address, for the page fallback", spelling);
	tap_is_str(s->label, "CPU_SrcID#0_MC#1_Chan#2_DIMM#0", "%s: the DIMM label", spelling);
	tap_ok(find(RAS_SUBJ_PAGE) && find(RAS_SUBJ_DIMM), "%s: page and DIMM subjects too", spelling);
}

static void test_edac_rows(void)
{
	const struct ras_subject *s;
	struct diag_dram c;

	/* skx_common.c before and after the kernel renamed its fields */
	expect_row(" err_code:0x0000:0x009f socket:0 imc:1 rank:1 bg:2 ba:3 row:0x1a2b col:0x3f8",
		   "skx, short names");
	expect_row(" err_code:0x0000:0x009f ProcessorSocketId:0x0 MemoryControllerId:0x1 "
		   "PhysicalRankId:0x1 Row:0x1a2b Column:0x3f8 Bank:0x3 BankGroup:0x2", "skx/i10nm, long names");
	expect_row(" OVERFLOW err_code:0x0000:0x009f ProcessorSocketId:0x0 MemoryControllerId:0x1 "
		   "PhysicalRankId:0x1 Row:0x1a2b Column:0x3f8 Bank:0x3 BankGroup:0x2 "
		   "retry_rd_err_log[0001a209 00000000 00000000 00000000 00000000] "
		   "correrrcnt[0000 0000 0000 0000 0000 0000 0000 0000]", "i10nm with the retry log");
	expect_row(" err_code:0x0000:0x009f ProcessorSocketId:0x0 MemoryControllerId:0x1 ChannelId:0x2 "
		   "DimmSlotId:0x0 PhysicalRankId:0x1 ChipSelect:0x1 BankGroup:0x2 Bank:0x3 Row:0x1a2b "
		   "Column:0x3f8", "ADXL");

	mc_event(" err_code:0x0000:0x009f Row:0x1a2b Bank:0x3", 4);
	s = find(RAS_SUBJ_ROW);
	tap_ok(s && !strcmp(s->key, "mc1 2:0:-1 rank -1 bank group -1 bank 3 row 0x1a2b") && s->n == 4,
	       "row and bank alone: a row, rank and bank group unknown; error_count 4 counts 4 (%s)",
	       s ? s->key : "none");

	/* No row said, or not a number: no row subject, the others as before. */
	mc_event("rasfdr_testmod", 1);
	tap_ok(!find(RAS_SUBJ_ROW) && find(RAS_SUBJ_PAGE) && find(RAS_SUBJ_DIMM),
	       "a detail without a row: page and DIMM only");
	mc_event("area:DRAM err_code:0001:0090 socket:0 channel_mask:1 rank:0", 1);
	tap_ok(!find(RAS_SUBJ_ROW), "sb_edac's detail (rank, no row): no row subject");
	mc_event(" socket:0 imc:1 rank:1 bg:2 ba:3 row:0x1z2b col:0x3f8", 1);
	tap_ok(!find(RAS_SUBJ_ROW), "a row that is not a number: no row subject");
	mc_event(" Row:0x10000000000000 Bank:0x3", 1);
	tap_ok(!find(RAS_SUBJ_ROW), "a row past 2^40: no row subject");
	tap_ok(diag_dram_from_edac_detail("Row:0x5 Bank:0x1", 5, &c) && c.bank == RAS_DF_NONE,
	       "the length bounds the text read");
	tap_ok(diag_dram_from_edac_detail("Row:0x5 Bank:0x1 Row:0x6", 24, &c) && c.row == 5,
	       "the first word naming a field wins");
}

/* A corrected mc_event as ghes_edac reports one: controller 0, one layer of DIMMs (here the fourth). */
static void ghes_event(const char *detail)
{
	struct edac_in in = {
		.error_type = EDAC_ERR_CORRECTED, .msg = "Single-bit ECC", .msg_len = 14,
		.label = "DIMM_B1", .label_len = 7, .error_count = 1, .mc_index = 0,
		.top_layer = 3, .middle_layer = -1, .lower_layer = -1, .address = 0x8badf00c0,
		.grain_bits = 6, .driver_detail = detail, .driver_detail_len = strlen(detail),
	};
	static struct edac_decoded d;

	edac_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("ras:mc_event"), NULL, &d, 4096, ~0u, subj);
}

static void test_ghes_rows(void)
{
	const struct ras_subject *s;
	struct diag_dram c;

	/* Before 5.17: ghes_edac's own words (col, bit_pos), bank holding the group in its high byte. */
	ghes_event("APEI location: node:0 card:1 module:2 rank:1 bank:1026 bank_group:4 "
		   "bank_address:2 row:6749 col:8 bit_pos:0 DIMM location: Node 0 DIMM_B1 "
		   "status(0x0000000000000400): Unknown");
	s = find(RAS_SUBJ_ROW);
	tap_ok(s && !strcmp(s->key, "mc0 3:-1:-1 node 0 card 1 module 2 rank 1 bank group 4 bank 2 row 0x1a5d"),
	       "ghes_edac before 5.17: a row placed by node, card, module; bank_address is the bank (%s)",
	       s ? s->key : "none");
	tap_ok(s && s->dram.rank == 1 && s->dram.bank_group == 4 && s->dram.bank == 2 &&
	       s->dram.row == 6749 && s->dram.column == 8, "  rank, bank group, bank, row, column");
	tap_ok(s && s->have_addr && s->addr == 0x8badf00c0, "  its address, for the page fallback");
	/* Since 5.17: cper_mem_err_location's words (device, column, bit_position, ids). */
	ghes_event("APEI location: node:0 card:1 module:2 rank:1 bank:1026 bank_group:4 "
		   "bank_address:2 device:5 row:6749 column:8 bit_position:0 "
		   "requestor_id:0x0000000000000000 responder_id:0x0000000000000000 "
		   "target_id:0x0000000000000000 DIMM location: Node 0 DIMM_B1 ");
	s = find(RAS_SUBJ_ROW);
	tap_ok(s && !strcmp(s->key, "mc0 3:-1:-1 node 0 card 1 module 2 rank 1 bank group 4 bank 2 row 0x1a5d"),
	       "ghes_edac since 5.17: the same row, the same key (%s)", s ? s->key : "none");
	tap_ok(s && s->dram.column == 8, "  column from the long name");
	/* Firmware that gives no bank group: bank is the bank. */
	ghes_event("APEI location: node:1 card:0 module:0 bank:3 row:100 column:2 ");
	s = find(RAS_SUBJ_ROW);
	tap_ok(s && !strcmp(s->key, "mc0 3:-1:-1 node 1 card 0 module 0 rank -1 bank group -1 bank 3 row 0x64"),
	       "no bank group: bank as said, rank unknown (%s)", s ? s->key : "none");
	ghes_event("APEI location: node:0 card:0 module:1 rank:0 device:0 ");
	tap_ok(!find(RAS_SUBJ_ROW) && find(RAS_SUBJ_DIMM), "no row or bank in the location: no row subject");
	tap_ok(diag_dram_from_edac_detail("APEI location: bank_address:2 bank:1026 row:1", 45, &c) ==
	       DIAG_SP_GHES && c.bank == 2,
	       "bank_address wins over bank in either order");
	tap_ok(diag_dram_from_edac_detail("APEI location: node:1 card:2 module:3 device:4 bank:5 row:6", 59,
					  &c) == DIAG_SP_GHES &&
	       c.socket == 1 && c.mc == 2 && c.dimm == 3 && c.device == 4,
	       "node, card, module and device are read (as socket, controller, DIMM, device)");
}

/*
 * sb_edac's records as drivers/edac/sb_edac.c writes them: the layers are
 * channel and slot, the label "CPU_SrcID#%u_Ha#%u_Chan#%u_DIMM#%u", the
 * detail its "socket: ha: channel_mask: rank:" and, on Broadwell DDR4, the
 * row, column, bank_addr and bank_group: a row subject, as skx's records give.
 */
static void test_sb_rows(void)
{
	static const char detail[] = " area:DRAM err_code:0001:0090 socket:0 ha:1 channel_mask:4 rank:5"
				     " row:0x1a2b col:0x3f8 bank_addr:2 bank_group:1";
	static const char older[] = " area:DRAM err_code:0001:0090 socket:0 ha:1 channel_mask:4 rank:5 ";
	struct edac_in in = {
		.error_type = EDAC_ERR_CORRECTED, .msg = "memory read error", .msg_len = 17,
		.label = "CPU_SrcID#0_Ha#1_Chan#2_DIMM#1", .label_len = 30, .error_count = 1,
		.mc_index = 1, .top_layer = 2, .middle_layer = 1, .lower_layer = -1,
		.address = 0x12b4c0c0, .grain_bits = 5, .driver_detail = detail,
		.driver_detail_len = sizeof(detail) - 1,
	};
	static struct edac_decoded d;
	const struct ras_subject *s;

	edac_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("ras:mc_event"), NULL, &d, 4096, ~0u, subj);
	s = find(RAS_SUBJ_ROW);
	tap_ok(s && !strcmp(s->key, "mc1 2:1:-1 rank 5 bank group 1 bank 2 row 0x1a2b"),
	       "sb_edac Broadwell DDR4: a row of its channel and slot, rank, bank group, bank (%s)",
	       s ? s->key : "none");
	tap_ok(s && s->dram.column == 0x3f8 && s->dram.mc == 1 && s->dram.socket == 0,
	       "  its column, home agent and socket");
	in.driver_detail = older;
	in.driver_detail_len = sizeof(older) - 1;
	edac_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("ras:mc_event"), NULL, &d, 4096, ~0u, subj);
	tap_ok(!find(RAS_SUBJ_ROW) && find(RAS_SUBJ_DIMM),
	       "sb_edac before Broadwell's decoding (rank only): the DIMM, no row");
}

#define VAL   (1ULL << 63)
#define EN    (1ULL << 60)
#define MISCV (1ULL << 59)
#define ADDRV (1ULL << 58)
#define SYNDV (1ULL << 53)
#define CECC  (1ULL << 46)
#define POISON (1ULL << 43)

/* Zen 3 UMC corrected DRAM ECC error (bank 16, UMC instance 0x00350f00: channel 3). */
static void umc(uint64_t status)
{
	struct mce_in in;
	static struct mce_decoded d;

	memset(&in, 0, sizeof(in));
	in.cpuvendor = 2;
	in.cpuid = 0xa00f11;
	in.bank = 16;
	in.status = status;
	in.ipid = (0x96ULL << 32) | 0x00350f00;
	in.has_ipid = in.has_synd = 1;
	in.synd = 0x5a000002;
	in.addr = (12ULL << 56) | 0x1234567000ULL;
	in.socketid = 1;
	mce_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("mce:mce_record"), NULL, &d, 4096, ~0u, subj);
}

static void test_amd_umc(void)
{
	const struct ras_subject *s;

	umc(VAL | EN | MISCV | ADDRV | SYNDV | CECC | 0x011b);
	s = find(RAS_SUBJ_DIMM);
	tap_ok(s && !strcmp(s->key, "socket 1 umc channel 3 chip select 2"),
	       "AMD UMC: a rank subject from channel and chip select (%s)", s ? s->key : "none");
	tap_ok(s && s->dram.channel == 3 && s->dram.rank == 2, "with channel 3 and rank (chip select) 2");
	tap_ok(!find(RAS_SUBJ_ROW), "no row: the UMC's registers do not name one");
	tap_ok(!find(RAS_SUBJ_PAGE), "no page: a UMC's address is normalized, not a system address");
	umc(VAL | EN | MISCV | ADDRV | CECC | 0x011b);
	tap_ok(!find(RAS_SUBJ_DIMM), "without SyndV no chip select: no rank subject");
	umc(VAL | EN | MISCV | ADDRV | POISON | 0x011b);
	tap_ok(find(RAS_SUBJ_PAGE) != NULL, "a poison consumption's address is physical: its page");
}

/* An MI200-class accelerator's HBM corrected error: UMC v2 bank, node 4, UMC 1, channel 6. */
static void test_amd_hbm(void)
{
	const struct ras_subject *s;
	struct mce_in in;
	static struct mce_decoded d;

	memset(&in, 0, sizeof(in));
	in.cpuvendor = 2;
	in.cpuid = 0xa00f31;        /* family 19h model 30h */
	in.bank = 22;
	in.status = VAL | EN | MISCV | ADDRV | SYNDV | CECC | 0x011b;
	in.ipid = (1ULL << 48) | (4ULL << 44) | (0x96ULL << 32) | 0x352000;
	in.has_ipid = in.has_synd = 1;
	in.synd = 0x33ULL << 32 | 8 << 18 | 5;
	mce_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("mce:mce_record"), NULL, &d, 4096, ~0u, subj);
	s = find(RAS_SUBJ_DIMM);
	tap_ok(s && !strcmp(s->key, "socket 0 node 4 hbm umc 1 channel 6"),
	       "AMD HBM: the channel counts as a DIMM (%s)", s ? s->key : "none");
	tap_ok(!find(RAS_SUBJ_PAGE), "and its normalized address names no page");
}

/* An Intel memory-controller error; misc's [5:0] address LSB and [8:6] address mode. */
static void intel(uint64_t status, uint64_t misc)
{
	struct mce_in in;
	static struct mce_decoded d;

	memset(&in, 0, sizeof(in));
	in.cpuvendor = 0;
	in.cpuid = 0x606a6;            /* Ice Lake-SP */
	in.mcgcap = 0x1000c14;          /* SER_P, CMCI_P */
	in.bank = 13;
	in.status = status;
	in.misc = misc;
	in.addr = 0x2345678c0ULL;
	mce_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("mce:mce_record"), NULL, &d, 4096, ~0u, subj);
}

static void test_intel_address(void)
{
	const uint64_t ce = VAL | EN | MISCV | ADDRV | 0x009f;

	intel(ce, 2 << 6 | 6);
	tap_ok(find(RAS_SUBJ_PAGE) != NULL, "Intel: a physical address to the cache line names a page");
	intel(ce, 1 << 6 | 6);
	tap_ok(!find(RAS_SUBJ_PAGE), "Intel: a linear address names no page");
	intel(ce, 2 << 6 | 21);
	tap_ok(!find(RAS_SUBJ_PAGE), "Intel: an address valid only to 2 MiB names no 4 KiB page");
	intel(ce & ~MISCV, 2 << 6 | 6);
	tap_ok(!find(RAS_SUBJ_PAGE), "Intel: without MISC the address mode is unknown: no page");
}

/* A family 10h northbridge error: bank 4, extended error code in status[20:16]. */
static void test_amd_northbridge(void)
{
	struct mce_in in;
	static struct mce_decoded d;

	memset(&in, 0, sizeof(in));
	in.cpuvendor = 2;
	in.cpuid = 0x100f42;
	in.bank = 4;
	in.addr = 0x12345678ULL;
	in.status = VAL | EN | ADDRV | 8ULL << 16 | 0x011b;
	mce_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("mce:mce_record"), NULL, &d, 4096, ~0u, subj);
	tap_ok(find(RAS_SUBJ_PAGE) != NULL, "AMD northbridge DRAM ECC (XEC 8): its address names a page");
	in.status = VAL | EN | ADDRV | 0xcULL << 16 | 0x0c0f;
	mce_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("mce:mce_record"), NULL, &d, 4096, ~0u, subj);
	tap_ok(!find(RAS_SUBJ_PAGE), "another northbridge error's address names none");
}

/* A machine check naming no DIMM or CPU folds under its MCA bank on its socket, and channel. */
static void test_fold_group(void)
{
	const struct ras_event_type *mce = ras_event_type_find("mce:mce_record");
	struct mce_in in;
	static struct mce_decoded d;
	char key[160];

	memset(&in, 0, sizeof(in));
	in.cpuid = 0x606a6;            /* Ice Lake-SP */
	in.mcgcap = 0x1000c14;
	in.bank = 12;                  /* M2M 0: the bank implies no channel */
	in.socketid = 1;
	in.status = VAL | EN | MISCV | ADDRV | 0x0091;
	in.misc = 2 << 6 | 6;
	in.addr = 0x2345678c0ULL;
	mce_decode(&in, &d);
	tap_ok(ras_subject_fold_group(mce, &d, key, sizeof(key)), "a memory read error has a fold group");
	tap_is_str(key, "bank socket 1 bank 12 channel 1", "its bank on its socket and its channel");
	in.status = VAL | EN | MISCV | ADDRV | 0x009f;
	mce_decode(&in, &d);
	ras_subject_fold_group(mce, &d, key, sizeof(key));
	tap_is_str(key, "bank socket 1 bank 12", "channel 0xf (not known): the bank alone");
	tap_ok(!ras_subject_fold_group(ras_event_type_find("ras:mc_event"), &d, key, sizeof(key)),
	       "EDAC records name their DIMM: no fold group");
}

/* A vendor section names its failing part: a memory controller is the DIMM subject, a PCIe port the device. */
static void vendor_section(const char *guid, uint8_t sev, const uint8_t *b, size_t n)
{
	static struct nonstd_decoded d;
	struct nonstd_in in = { .sev = sev, .len = (uint32_t)n, .buf = b, .buf_len = n };

	vv_guid(guid, in.sec_type);
	nonstd_decode(&in, &d);
	nsubj = ras_subjects_of(ras_event_type_find("ras:non_standard_event"), NULL, &d, 4096, ~0u, subj);
}

static void test_vendor_parts(void)
{
	static struct arm_decoded a;
	uint8_t b[160] = { 0 }, pei[32];
	const struct ras_subject *s;
	size_t n = vv_hisi_oem2(b);
	struct arm_in in = { .midr = 0x413fd0c1, .running_state = 1, .has_buffers = 1, .has_sev = 1,
			     .sev = 2, .has_cpu = 1, .cpu = 12, .soc_id = "jep106:0a16:0001" };

	vendor_section(VV_HISI_OEM2, 2, b, n);
	s = find(RAS_SUBJ_DIMM);
	tap_ok(nsubj == 1 && s, "HiSilicon DDRC: one subject, the DIMM kind");
	tap_is_str(s ? s->key : "", "HiSilicon Kunpeng 920 socket 1, nimbus 0, TA_DDRC1", "its key is the DDRC");
	vendor_section(VV_HISI_OEM2, 0, b, n);
	tap_is_int(nsubj, 0, "an uncorrected one counts against nothing");
	n = vv_yitian(b);
	vendor_section(VV_YITIAN, 2, b, n);
	s = find(RAS_SUBJ_DIMM);
	tap_is_str(s ? s->key : "", "Alibaba Yitian 710, DDRC 3", "Yitian: the DDR controller");
	/* HiSilicon PCIe local (validity: socket, nimbus, core, port): the port is the device. */
	memset(b, 0, sizeof(b));
	vv_put64(b, 0x6c);
	b[10] = 1, b[13] = 2, b[14] = 3;
	vendor_section(VV_HISI_PCIE, 2, b, 152);
	s = find(RAS_SUBJ_DEVICE);
	tap_is_str(s ? s->key : "", "HiSilicon socket 1 nimbus 0 PCIe core 2 port 3", "PCIe local: the port");
	n = vv_grace(b);
	vendor_section(VV_NVIDIA_GRACE, 2, b, n);
	tap_is_int(nsubj, 0, "Grace: the section names no part");
	/*
	 * ARM processor error on CPU 12, with Altra's MCU record as its vendor
	 * data, and one error information entry (N.2.4.4.1: version, length 32,
	 * valid multiple error and flags, a cache error) flagged first: the
	 * core's own failure, which is what counts against a CPU.
	 */
	n = vv_ampere_mcu(b);
	in.oem_len = (uint32_t)n, in.oem_buf = b, in.oem_buf_len = n;
	memset(pei, 0, sizeof(pei));
	pei[1] = 32, pei[2] = 0x7, pei[4] = 0x2, pei[7] = 0x1;
	in.pei_len = sizeof(pei), in.pei_buf = pei, in.pei_buf_len = sizeof(pei);
	arm_decode(&in, &a);
	nsubj = ras_subjects_of(ras_event_type_find("ras:arm_event"), NULL, &a, 4096, ~0u, subj);
	s = find(RAS_SUBJ_CPU);
	tap_ok(s && s->cpu == 12 && !strcmp(s->key, "cpu 12"), "ARM: the CPU the event names");
	s = find(RAS_SUBJ_DIMM);
	tap_is_str(s ? s->key : "", "Ampere Altra socket 1, MCU 3", "ARM: Altra's MCU from its vendor data");
}

/*
 * A machine check's CPU subject names a core's error: the classes cache, tlb,
 * internal and bus, compared as strcmp compares them. Every class, near misses
 * (cut, grown, a byte changed, other case) and random bytes after the NUL,
 * against strcmp.
 */
static void test_cpu_classes(void)
{
	static const char *const classes[] = {
		"cache", "tlb", "internal", "bus", "memory", "io", "simple", "none", "undefined", "",
	};
	static const char *const core[] = { "cache", "tlb", "internal", "bus" };
	static struct mce_decoded d;
	uint64_t rng = 0x2545f4914f6cdd1dULL;
	unsigned bad = 0, cores = 0;

	for (unsigned r = 0; r < 20000; r++) {
		bool want = false;
		size_t n;

		rng_next(&rng);
		memset(&d, 0, sizeof(d));
		d.severity = RAS_SEV_CORRECTED;
		d.cpu = 3;
		d.cache_level = RAS_DF_NONE;
		/* Bytes after the text as a record may leave them. */
		for (size_t i = 0; i < sizeof(d.error_class); i++)
			d.error_class[i] = (char)(rng >> (i % 8 * 8));
		snprintf(d.error_class, sizeof(d.error_class), "%s", classes[rng % 10]);
		n = strlen(d.error_class);
		switch ((rng >> 8) % 6) {
		case 0: /* cut */
			if (n)
				d.error_class[(rng >> 16) % n] = '\0';
			break;
		case 1: /* grown */
			if (n + 1 < sizeof(d.error_class)) {
				d.error_class[n] = (char)('a' + (rng >> 16) % 26);
				d.error_class[n + 1] = '\0';
			}
			break;
		case 2: /* a byte changed */
			if (n)
				d.error_class[(rng >> 16) % n] ^= (char)(1 + (rng >> 24) % 0x7f);
			break;
		default:
			break;
		}
		d.error_class[sizeof(d.error_class) - 1] = '\0';
		for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++)
			want |= !strcmp(d.error_class, core[i]);
		nsubj = ras_subjects_of(ras_event_type_find("mce:mce_record"), NULL, &d, 4096,
					1u << RAS_SUBJ_CPU, subj);
		bad += (find(RAS_SUBJ_CPU) != NULL) != want;
		cores += want;
	}
	tap_ok(bad == 0 && cores > 1000, "a CPU subject for a core's classes only, as strcmp says "
	       "(%u of 20000 differ, %u core)", bad, cores);
}

int main(void)
{
	test_vendor_parts();
	test_edac_rows();
	test_ghes_rows();
	test_sb_rows();
	test_amd_umc();
	test_amd_hbm();
	test_intel_address();
	test_amd_northbridge();
	test_fold_group();
	test_cpu_classes();
	return tap_done();
}
