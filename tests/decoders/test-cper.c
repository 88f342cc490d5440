/* SPDX-License-Identifier: MIT */
/* Tests of the CPER helpers and the extlog, non-standard and ARM decoders. */
#include <errno.h>
#include <string.h>
#include "decoders/cper.h"
#include "decoders/other_util.h"
#include "tests/decoders/said.h"
#include "tests/tap.h"

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* Parses "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into guid_t byte order. */
static void guid_from_text(const char *t, uint8_t g[16])
{
	unsigned v[11];

	sscanf(t, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x", &v[0], &v[1], &v[2],
	       &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	put32(g, v[0]);
	put16(g + 4, (uint16_t)v[1]);
	put16(g + 6, (uint16_t)v[2]);
	for (int i = 0; i < 8; i++)
		g[8 + i] = (uint8_t)v[3 + i];
}

/* Section type GUIDs as printed in UEFI Specification 2.10 N.2.2 Table N-6
 * and CXL r3.1 8.2.9.2.1 (event record UUIDs). */
static const struct { const char *text, *name; } guid_golden[] = {
	{ "9876ccad-47b4-4bdb-b65e-16f193c4f3db", "Processor Generic" },
	{ "dc3ea0b0-a144-4797-b95b-53fa242b6e1d", "Processor Specific: IA32/X64" },
	{ "e429faf1-3cb7-11d4-bca7-0080c73c8881", "Processor Specific: IPF" },
	{ "e19e3d16-bc11-11e4-9caa-c2051d5d46b0", "Processor Specific: ARM" },
	{ "a5bc1114-6f64-4ede-b863-3e83ed7c83b1", "Platform Memory" },
	{ "61ec04fc-48e6-d813-25c9-8daa44750b12", "Platform Memory 2" },
	{ "d995e954-bbc1-430f-ad91-b44dcb3c6f35", "PCI Express" },
	{ "81212a96-09ed-4996-9471-8d729c8e69ed", "Firmware Error Record Reference" },
	{ "c5753963-3b84-4095-bf78-eddad3f9c9dd", "PCI/PCI-X Bus" },
	{ "eb5e4685-ca66-4769-b6a2-26068b001326", "PCI Component/Device" },
	{ "5b51fef7-c79d-4434-8f1b-aa62de3e2c64", "DMAr Generic" },
	{ "71761d37-32b2-45cd-a7d0-b0fedd93e8cf", "Intel VT for Directed I/O DMAr" },
	{ "036f84e1-7f37-428c-a79e-575fdfaa84ec", "IOMMU DMAr" },
	{ "91335ef6-ebfb-4478-a6a6-88b728cf75d7", "CCIX PER Log" },
	{ "80b9efb4-52b5-4de3-a777-68784b771048", "CXL Protocol Error" },
	{ "fbcd0a77-c260-417f-85a9-088b1621eba6", "CXL General Media Event" },
	{ "601dcbb3-9c06-4eab-b8af-4e9bfb5c9624", "CXL DRAM Event" },
	{ "fe927475-dd59-4339-a586-79bab113b774", "CXL Memory Module Event" },
};

static void test_guids(void)
{
	uint8_t g[16];
	char text[CPER_GUID_STR_LEN];

	for (size_t i = 0; i < sizeof(guid_golden) / sizeof(guid_golden[0]); i++) {
		guid_from_text(guid_golden[i].text, g);
		tap_is_str(cper_section_name(g), guid_golden[i].name, "GUID %s", guid_golden[i].text);
		ou_guid_format(text, sizeof(text), g);
		tap_is_str(text, guid_golden[i].text, "GUID %s round trip", guid_golden[i].text);
	}
	for (size_t i = 0; i < cper_n_section_types; i++) {
		cper_guid_bytes(&cper_section_types[i], g);
		tap_is_str(cper_section_name(g), cper_section_types[i].name,
			   "table row %zu is found by its bytes", i);
		for (size_t j = 0; j < i; j++) {
			uint8_t h[16];

			cper_guid_bytes(&cper_section_types[j], h);
			if (memcmp(g, h, 16) == 0)
				tap_ok(0, "duplicate GUID rows %zu and %zu", j, i);
		}
	}
	guid_from_text("00112233-4455-6677-8899-aabbccddeeff", g);
	tap_ok(cper_section_name(g) == NULL, "unknown GUID has no name");
	/* UEFI 2.10 N.2.1 Error Severity. */
	tap_is_str(cper_severity_name(0), "recoverable", "sev 0");
	tap_is_str(cper_severity_name(1), "fatal", "sev 1");
	tap_is_str(cper_severity_name(2), "corrected", "sev 2");
	tap_is_str(cper_severity_name(3), "informational", "sev 3");
	tap_ok(cper_severity_name(4) == NULL, "sev 4 unnamed");
	tap_is_int(cper_severity_to_ras(4), RAS_SEV_UNKNOWN, "sev 4 unknown");
	/* UEFI 2.10 N.2.5 Memory Error Type values. */
	tap_is_str(cper_mem_err_type_name(2), "single-bit ECC", "mem type 2");
	tap_is_str(cper_mem_err_type_name(3), "multi-bit ECC", "mem type 3");
	tap_is_str(cper_mem_err_type_name(15), "physical memory map-out event", "mem type 15");
	tap_ok(cper_mem_err_type_name(16) == NULL, "mem type 16 unnamed");
}

/* struct cper_mem_err_compact, Linux include/linux/cper.h (packed, 55 bytes). */
static void build_compact(uint8_t *p)
{
	memset(p, 0, CPER_MEM_COMPACT_LEN);
	/* node, card, module, bank, device, row, column, bit, requestor,
	 * rank, both handles, row-ext, bank group/address, chip id. */
	put64(p, 0x8 | 0x10 | 0x20 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800 |
		 0x8000 | 0x10000 | 0x20000 | 0x40000 | 0x80000 | 0x100000 | 0x200000);
	put16(p + 8, 1);        /* node */
	put16(p + 10, 2);       /* card */
	put16(p + 12, 3);       /* module */
	put16(p + 14, 0x0205);  /* bank: group 2, address 5 */
	put16(p + 16, 4);       /* device */
	put16(p + 18, 0x1234);  /* row 15:0 */
	put16(p + 20, 0x56);    /* column */
	put16(p + 22, 7);       /* bit */
	put64(p + 24, 0xabcdef);
	put64(p + 32, 0x1111);  /* responder: not valid */
	put16(p + 48, 1);       /* rank */
	put16(p + 50, 0x0020);  /* memory array handle */
	put16(p + 52, 0x0022);  /* memory device handle */
	p[54] = (uint8_t)(3 << 5 | 2);  /* chip id 3, row bits 17:16 = 2 */
}

static void test_mem_loc(void)
{
	uint8_t c[CPER_MEM_COMPACT_LEN], sec[CPER_MEM_SECTION_LEN];
	struct cper_mem_loc loc;
	struct cper_mem_section m;
	char text[256];

	build_compact(c);
	tap_is_int(cper_mem_compact_parse(c, sizeof(c), &loc), 0, "compact parse");
	tap_is_int(loc.node, 1, "node");
	tap_is_int(loc.bank, 0x205, "bank raw");
	tap_is_int(loc.bank_group, 2, "bank group");
	tap_is_int(loc.bank_address, 5, "bank address");
	tap_is_int(loc.row, 0x21234, "row with extension");
	tap_is_int(loc.chip_id, 3, "chip id");
	tap_is_int(loc.requestor_id, 0xabcdef, "requestor");
	tap_is_int(loc.responder_id, RAS_DF_NONE, "responder not valid");
	tap_is_int(loc.mem_dev_handle, 0x22, "memory device handle");
	cper_mem_loc_format(&loc, text, sizeof(text));
	tap_is_str(text, "node 1, card 2, module 3, rank 1, bank 517, bank group 2, bank address 5, "
		   "device 4, chip 3, row 135732, column 86, bit 7, requestor 0xabcdef, "
		   "memory array handle 0x20, memory device handle 0x22", "location text");
	tap_is_int(cper_mem_compact_parse(c, CPER_MEM_COMPACT_LEN_OLD, &loc), 0, "54-byte compact");
	tap_is_int(loc.row, 0x1234, "no extension byte, no row extension");
	tap_is_int(loc.chip_id, RAS_DF_NONE, "no extension byte, no chip id");
	tap_is_int(cper_mem_compact_parse(c, 20, &loc), -EBADMSG, "short compact");
	tap_is_int(loc.node, RAS_DF_NONE, "short compact leaves fields unknown");

	/* UEFI 2.10 N.2.5 Memory Error Section, 80 bytes. */
	memset(sec, 0, sizeof(sec));
	put64(sec, 0x2 | 0x8 | 0x4000);
	put64(sec + 16, 0x7f001000);
	put16(sec + 32, 1);
	sec[72] = 2;
	tap_is_int(cper_mem_section_parse(sec, sizeof(sec), &m), 0, "section parse");
	tap_is_int(m.physical_addr, 0x7f001000, "section PA");
	tap_is_int(m.error_type, 2, "section error type");
	tap_is_int(m.loc.node, 1, "section node");
	tap_is_int(m.physical_addr_mask, RAS_DF_NONE, "section mask not valid");
	tap_is_int(cper_mem_section_parse(sec, 79, &m), -EBADMSG, "short section");
}

static void test_extlog(void)
{
	uint8_t c[CPER_MEM_COMPACT_LEN];
	struct extlog_decoded d;
	struct extlog_in in = {
		.err_seq = 7, .etype = 2, .sev = 2, .pa = 0x12345000,
		.pa_mask_lsb = 12, .fru_text = "DIMM_B2", .fru_text_len = 7,
		.data = c, .data_len = sizeof(c),
	};

	build_compact(c);
	guid_from_text("01020304-0506-0708-090a-0b0c0d0e0f10", in.fru_id);
	tap_is_int(extlog_decode(&in, &d), 0, "extlog decode");
	tap_is_int(d.severity, RAS_SEV_CORRECTED, "extlog corrected");
	tap_is_str(d.etype_name, "single-bit ECC", "extlog type");
	tap_is_int(d.pa, 0x12345000, "extlog pa");
	tap_is_str(d.fru_guid, "01020304-0506-0708-090a-0b0c0d0e0f10", "extlog FRU id");
	tap_is_int(d.rank, 1, "extlog rank");
	tap_ok(strncmp(SAID(d), "Corrected memory error (single-bit ECC) at physical address 0x12345000 (mask lsb 12): node 1,", 91) == 0,
	       "extlog summary: %s", SAID(d));
	tap_is_str(d.location, "DIMM_B2, node 1, card 2, module 3, rank 1, device 4", "extlog location");
	in.etype = 0xff;
	in.pa = UINT64_MAX;
	in.pa_mask_lsb = 0xff;
	in.sev = 9;
	in.data_len = 3;
	tap_is_int(extlog_decode(&in, &d), 0, "extlog with invalid fields");
	tap_is_int(d.etype, RAS_DF_NONE, "etype ~0 is unknown");
	tap_is_int(d.pa, RAS_DF_NONE, "pa ~0 is unknown");
	tap_is_int(d.cper_severity, 9, "raw bad severity kept");
	tap_is_int(d.severity, RAS_SEV_UNKNOWN, "bad severity unknown");
	tap_is_int(d.node, RAS_DF_NONE, "short data leaves location unknown");
	in.etype = 77;
	extlog_decode(&in, &d);
	tap_is_int(d.etype, 77, "undefined etype kept raw");
	tap_ok(strstr(SAID(d), "(type 77)") != NULL, "undefined etype shown as a number");
}

static void test_nonstd(void)
{
	uint8_t buf[CPER_MEM_SECTION_LEN] = { 0xde, 0xad, 0xbe, 0xef };
	struct nonstd_decoded d;
	struct nonstd_in in = { .sev = 0, .len = 4, .buf = buf, .buf_len = 4 };

	guid_from_text("00112233-4455-6677-8899-aabbccddeeff", in.sec_type);
	tap_is_int(nonstd_decode(&in, &d), 0, "nonstd decode");
	tap_is_str(d.raw_hex, "deadbeef", "unknown section kept in hex");
	tap_is_str(d.sec_type_guid, "00112233-4455-6677-8899-aabbccddeeff", "section GUID text");
	tap_is_str(d.sec_type_name, "", "no name for unknown GUID");
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "recoverable is uncorrected");
	tap_is_str(d.fru_guid, "", "zero FRU id is absent");
	in.len = 100;
	nonstd_decode(&in, &d);
	tap_is_int(d.data_truncated, 1, "len beyond buffer flagged");
	tap_is_str(d.raw_hex, "deadbeef", "only available bytes read");
	/* A Platform Memory section (UEFI 2.10 N.2.5) is decoded. */
	guid_from_text("a5bc1114-6f64-4ede-b863-3e83ed7c83b1", in.sec_type);
	memset(buf, 0, sizeof(buf));
	put64(buf, 0x2 | 0x4000);
	put64(buf + 16, 0xabc000);
	buf[72] = 3;
	in.len = in.buf_len = sizeof(buf);
	in.sev = 1;
	nonstd_decode(&in, &d);
	tap_is_str(d.detail, "multi-bit ECC at 0xabc000", "memory section detail");
	tap_is_int(d.pa, 0xabc000, "memory section pa");
	tap_is_int(d.severity, RAS_SEV_FATAL, "fatal");
	{
		static uint8_t big[NONSTD_HEX_MAX + 88];

		in.buf = big;
		in.len = in.buf_len = sizeof(big);
		guid_from_text("00112233-4455-6677-8899-aabbccddeeff", in.sec_type);
		nonstd_decode(&in, &d);
		tap_is_int(strlen(d.raw_hex), NONSTD_HEX_MAX * 2, "hex capped");
		tap_is_int(d.data_truncated, 1, "capped hex flagged");
		guid_from_text("a5bc1114-6f64-4ede-b863-3e83ed7c83b1", in.sec_type);
	}
	in.buf = NULL;
	tap_is_int(nonstd_decode(&in, &d), 0, "NULL buffer is safe");
	tap_is_str(d.detail, "memory error section too short (0 bytes)", "short section noted");
}

/*
 * Processor and CXL sections as ras:non_standard_event carries them (binary,
 * UEFI 2.10 N.2.4.1, N.2.4.2, N.2.13): the detail names what is valid.
 */
static void test_proc_sections(void)
{
	static uint8_t buf[400];
	struct nonstd_decoded d;
	struct nonstd_in in = { .sev = 2, .buf = buf };

	/* Generic: type, ISA, error type cache|bus, flags corrected, level 2, IP. */
	guid_from_text("9876ccad-47b4-4bdb-b65e-16f193c4f3db", in.sec_type);
	put64(buf, 0x1 | 0x2 | 0x4 | 0x10 | 0x20 | 0x1000);
	buf[8] = 0, buf[9] = 2, buf[10] = 0x5, buf[12] = 0x8, buf[13] = 2;
	put64(buf + 184, 0xffffffff81000000ULL);
	in.len = in.buf_len = 192;
	nonstd_decode(&in, &d);
	tap_is_str(d.detail, "processor_type IA32/X64, processor_isa X64, error_type cache error|bus error, "
		   "flags corrected, level 2, IP 0xffffffff81000000", "generic processor: valid fields only");
	in.len = in.buf_len = 100;
	nonstd_decode(&in, &d);
	tap_is_str(d.detail, "processor error section too short (100 bytes)", "generic processor: short");
	/* IA32/X64: one TLB structure (check: level 1, uncorrected), one MSR context at legacy MC2. */
	memset(buf, 0, sizeof(buf));
	guid_from_text("dc3ea0b0-a144-4797-b95b-53fa242b6e1d", in.sec_type);
	put64(buf, 1 | 1 << 2 | 1 << 8);
	put64(buf + 8, 4);
	guid_from_text("fc06b535-5e1f-4562-9f25-0a3b9adb63c3", buf + 64);
	put64(buf + 80, 1);
	put64(buf + 88, 0x4 | 0x10 | 1ULL << 22 | 1ULL << 26);
	put16(buf + 128, 1);
	put16(buf + 130, 16);
	put32(buf + 132, 0x408);
	put64(buf + 144 + 8, 0xbe00000000800400ULL);
	in.len = in.buf_len = 160;
	nonstd_decode(&in, &d);
	tap_is_str(d.detail, "Local APIC_ID 0x4: TLB error (Level 1, Uncorrected); context MSR Registers "
		   "from MSR 0x408 (MC2_STATUS 0xbe00000000800400)", "IA32/X64: structures and the bank's STATUS");
	put64(buf, 1 | 3 << 2);
	nonstd_decode(&in, &d);
	tap_ok(strstr(d.detail, "error information structure missing") != NULL, "IA32/X64: counts past the data said");
	/* CXL: an RCH downstream port by its RCRB, uncorrectable bits masked off. */
	memset(buf, 0, sizeof(buf));
	guid_from_text("80b9efb4-52b5-4de3-a777-68784b771048", in.sec_type);
	put64(buf, 1 | 2 | 64);
	buf[8] = 1;
	put64(buf + 16, 0xfed80000);
	put16(buf + 110, 88);
	put32(buf + 116, 0x3);
	put32(buf + 120, 0x1);
	in.sev = 0;
	in.len = in.buf_len = 116 + 88;
	nonstd_decode(&in, &d);
	tap_is_str(d.detail, "Restricted CXL Host Downstream Port at RCRB 0xfed80000; uncorrectable: "
		   "Cache Address Parity Error", "CXL: RCRB agent, masked bit left out");
	in.len = in.buf_len = 120;
	nonstd_decode(&in, &d);
	tap_ok(strstr(d.detail, "error log too short") != NULL, "CXL: a log past the data is said");
}

/* One ARM Processor Error Information entry, UEFI 2.10 N.2.4.4.1. */
static void arm_entry(uint8_t *p, uint8_t len, uint16_t valid, uint8_t type,
		      uint16_t multi, uint8_t flags, uint64_t info, uint64_t va, uint64_t pa)
{
	memset(p, 0, 32);
	p[0] = 0;
	p[1] = len;
	put16(p + 2, valid);
	p[4] = type;
	put16(p + 5, multi);
	p[7] = flags;
	put64(p + 8, info);
	put64(p + 16, va);
	put64(p + 24, pa);
}

static void test_arm(void)
{
	uint8_t pei[96], ctx[24] = { 0 }, oem[3] = { 1, 2, 3 };
	struct arm_err_info e[4];
	struct arm_decoded d;
	size_t n;
	/* Cache error info: transaction data access (1), operation data read (3),
	 * level 1, corrected, with validity bits 0, 1, 2, 4 (N.2.4.4.1.1). */
	uint64_t cache_info = 0x17 | 1ull << 16 | 3ull << 18 | 1ull << 22 | 1ull << 26;
	/* Bus error: validity 0,1,7,9; transaction generic, op data write,
	 * participation observed (2), device memory access (3) (N.2.4.4.1.3). */
	uint64_t bus_info = 0x283 | 2ull << 16 | 4ull << 18 | 2ull << 29 | 3ull << 32;
	struct arm_in in = {
		.mpidr = 0x81000100, .midr = 0x413fd0c1, .running_state = 1,
		.affinity = 1, .has_buffers = 1, .has_sev = 1, .has_cpu = 1,
		.pei_buf = pei, .ctx_buf = ctx, .ctx_len = sizeof(ctx),
		.ctx_buf_len = sizeof(ctx), .oem_buf = oem, .oem_len = 3,
		.oem_buf_len = 3, .sev = 2, .cpu = 3,
	};

	arm_entry(pei, 32, 0x1f, 0x2, 0, 0x1, cache_info, 0xffff0000, 0x8000f000);
	arm_entry(pei + 32, 32, 0x15, 0x8, 2, 0, bus_info, 0, 0x9000);
	arm_entry(pei + 64, 32, 0x04, 0x10, 0, 0, 0x1234, 0, 0);
	tap_is_int(arm_err_info_parse(pei, 96, e, 4, &n), 0, "parse three entries");
	tap_is_int(n, 3, "three entries");
	tap_is_int(e[0].phys_fault_addr, 0x8000f000, "entry 0 PA");
	tap_is_int(e[1].multiple_error, 2, "entry 1 count");
	tap_is_int(arm_err_info_parse(pei, 80, e, 4, &n), -EBADMSG, "truncated third entry");
	tap_is_int(n, 2, "entries before the cut kept");
	pei[33] = 8;
	tap_is_int(arm_err_info_parse(pei, 96, e, 4, &n), -EBADMSG, "entry length too small");
	tap_is_int(n, 1, "entries before bad length kept");
	pei[33] = 200;
	tap_is_int(arm_err_info_parse(pei, 96, e, 4, &n), -EBADMSG, "entry length past buffer");
	pei[33] = 32;
	tap_is_int(arm_err_info_parse(pei, 96, e, 2, &n), 0, "max entries respected");
	tap_is_int(n, 2, "two of three");

	/* Context: AArch64 GPR (type 4) with 16 bytes of registers (N.2.4.4.2). */
	put16(ctx + 2, 4);
	put32(ctx + 4, 16);
	in.pei_len = 96;
	in.pei_buf_len = 96;
	tap_is_int(arm_decode(&in, &d), 0, "arm decode");
	tap_is_int(d.severity, RAS_SEV_CORRECTED, "arm corrected");
	tap_is_str(d.implementer, "Arm", "implementer");
	tap_is_str(d.part, "Neoverse-N1", "part");
	tap_is_int(d.variant, 3, "variant");
	tap_is_int(d.revision, 1, "revision");
	tap_is_int(d.aff2, 0, "aff2");
	tap_is_int(d.aff1, 1, "aff1");
	tap_is_int(d.aff3, 0, "aff3");
	tap_is_int(d.n_err_info, 3, "three entries decoded");
	tap_is_str(d.err_type, "cache error", "first entry type");
	tap_is_str(d.err_flags, "first", "first entry flags");
	tap_is_int(d.phys_fault_addr, 0x8000f000, "first entry PA");
	tap_is_int(d.psci_state, RAS_DF_NONE, "PSCI state unused when running");
	tap_is_str(d.ctx_types, "AArch64 GPR", "context type");
	tap_is_str(d.oem_hex, "010203", "vendor bytes in hex");
	tap_is_str(d.err_info_text,
		   "cache error, transaction data access, operation data read, level 1, corrected, "
		   "first, virtual address 0xffff0000, physical address 0x8000f000; "
		   "bus error, transaction generic, operation data write, local processor observed, "
		   "device memory access, 2 errors, physical address 0x9000; "
		   "micro-architectural error, error info 0x1234", "all entries described");
	tap_ok(strstr(SAID(d), "Corrected ARM processor error on CPU 3 (Arm Neoverse-N1 r3p1): cache error") == SAID(d),
	       "summary: %s", SAID(d));
	tap_is_str(d.location, "CPU 3, MPIDR 0x81000100 (aff3 0, aff2 0, aff1 1, aff0 0)", "location");

	in.pei_len = 96;
	in.pei_buf_len = 40;    /* the kernel said 96 but only 40 arrived */
	in.has_sev = 0;
	arm_decode(&in, &d);
	tap_is_int(d.n_err_info, 1, "truncated buffer: one entry");
	tap_is_int(d.err_info_truncated, 1, "truncation flagged");
	tap_is_int(d.severity, RAS_SEV_CORRECTED, "severity from corrected bit");

	/* linux-6.1 arm_event: no buffers (tests/formats/linux-6.1/ras/arm_event). */
	memset(&in, 0, sizeof(in));
	in.mpidr = 0x100;
	in.midr = 0x12345678;
	in.running_state = 0;
	in.psci_state = 2;
	tap_is_int(arm_decode(&in, &d), 0, "old arm_event");
	tap_is_int(d.severity, RAS_SEV_UNKNOWN, "old event has no severity");
	tap_is_str(d.implementer, "implementer 0x12", "unknown implementer raw");
	tap_is_str(d.part, "part 0x567", "unknown part raw");
	tap_is_int(d.psci_state, 2, "PSCI state when not running");
	tap_is_int(d.cpu, RAS_DF_NONE, "no cpu");
	tap_ok(strstr(SAID(d), "processor not running, PSCI state 0x2") != NULL, "not running noted");
	/* MIDR 0x12345678: implementer 0x12, variant 3, part 0x567, revision 8 (Arm ARM D23.2). */
	tap_is_str(SAID(d), "An ARM processor error on MPIDR 0x100 (implementer 0x12 part 0x567 r3p8); "
		   "processor not running, PSCI state 0x2",
		   "old event: no error information is not called truncated");
	/* An MPIDR whose bits equal RAS_DF_NONE is still a record (found by fuzz-arm). */
	in.mpidr = UINT64_C(0x8000000000000000);
	arm_decode(&in, &d);
	tap_ok(strstr(SAID(d), "on MPIDR 0x8000000000000000 (") != NULL, "MPIDR bit 63 alone: %s",
	       SAID(d));
	tap_is_int(arm_decode(NULL, &d), -EINVAL, "NULL input");
}

int main(void)
{
	test_guids();
	test_mem_loc();
	test_extlog();
	test_nonstd();
	test_proc_sections();
	test_arm();
	return tap_done();
}
