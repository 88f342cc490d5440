/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cper.h"
#include "cper_proc.h"
#include "other_util.h"
#include "text_num.h"

/*
 * Section type GUIDs. UEFI Specification 2.10, N.2.2 "Section Descriptor",
 * Table N-6 (section types) and the section definitions N.2.4 - N.2.13;
 * CXL component events: CXL Specification r3.1, 8.2.9.2.1 (event record
 * UUIDs); vendors: the public Linux and firmware sources named per row.
 */
const struct cper_guid_name cper_section_types[] = {
	{ 0x9876ccad, 0x47b4, 0x4bdb, { 0xb6, 0x5e, 0x16, 0xf1, 0x93, 0xc4, 0xf3, 0xdb }, "Processor Generic", NULL },
	{ 0xdc3ea0b0, 0xa144, 0x4797, { 0xb9, 0x5b, 0x53, 0xfa, 0x24, 0x2b, 0x6e, 0x1d }, "Processor Specific: IA32/X64", NULL },
	{ 0xe429faf1, 0x3cb7, 0x11d4, { 0xbc, 0xa7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 }, "Processor Specific: IPF", NULL },
	{ 0xe19e3d16, 0xbc11, 0x11e4, { 0x9c, 0xaa, 0xc2, 0x05, 0x1d, 0x5d, 0x46, 0xb0 }, "Processor Specific: ARM", NULL },
	{ 0xa5bc1114, 0x6f64, 0x4ede, { 0xb8, 0x63, 0x3e, 0x83, 0xed, 0x7c, 0x83, 0xb1 }, "Platform Memory", NULL },
	{ 0x61ec04fc, 0x48e6, 0xd813, { 0x25, 0xc9, 0x8d, 0xaa, 0x44, 0x75, 0x0b, 0x12 }, "Platform Memory 2", NULL },
	{ 0xd995e954, 0xbbc1, 0x430f, { 0xad, 0x91, 0xb4, 0x4d, 0xcb, 0x3c, 0x6f, 0x35 }, "PCI Express", NULL },
	{ 0x81212a96, 0x09ed, 0x4996, { 0x94, 0x71, 0x8d, 0x72, 0x9c, 0x8e, 0x69, 0xed }, "Firmware Error Record Reference", NULL },
	{ 0xc5753963, 0x3b84, 0x4095, { 0xbf, 0x78, 0xed, 0xda, 0xd3, 0xf9, 0xc9, 0xdd }, "PCI/PCI-X Bus", NULL },
	{ 0xeb5e4685, 0xca66, 0x4769, { 0xb6, 0xa2, 0x26, 0x06, 0x8b, 0x00, 0x13, 0x26 }, "PCI Component/Device", NULL },
	{ 0x5b51fef7, 0xc79d, 0x4434, { 0x8f, 0x1b, 0xaa, 0x62, 0xde, 0x3e, 0x2c, 0x64 }, "DMAr Generic", NULL },
	{ 0x71761d37, 0x32b2, 0x45cd, { 0xa7, 0xd0, 0xb0, 0xfe, 0xdd, 0x93, 0xe8, 0xcf }, "Intel VT for Directed I/O DMAr", NULL },
	{ 0x036f84e1, 0x7f37, 0x428c, { 0xa7, 0x9e, 0x57, 0x5f, 0xdf, 0xaa, 0x84, 0xec }, "IOMMU DMAr", NULL },
	{ 0x91335ef6, 0xebfb, 0x4478, { 0xa6, 0xa6, 0x88, 0xb7, 0x28, 0xcf, 0x75, 0xd7 }, "CCIX PER Log", NULL },
	{ 0x80b9efb4, 0x52b5, 0x4de3, { 0xa7, 0x77, 0x68, 0x78, 0x4b, 0x77, 0x10, 0x48 }, "CXL Protocol Error", NULL },
	/* CXL r3.1 8.2.9.2.1.1 - 8.2.9.2.1.6, also used as CPER section types (UEFI N.2.14). */
	{ 0xfbcd0a77, 0xc260, 0x417f, { 0x85, 0xa9, 0x08, 0x8b, 0x16, 0x21, 0xeb, 0xa6 }, "CXL General Media Event", NULL },
	{ 0x601dcbb3, 0x9c06, 0x4eab, { 0xb8, 0xaf, 0x4e, 0x9b, 0xfb, 0x5c, 0x96, 0x24 }, "CXL DRAM Event", NULL },
	{ 0xfe927475, 0xdd59, 0x4339, { 0xa5, 0x86, 0x79, 0xba, 0xb1, 0x13, 0xb7, 0x74 }, "CXL Memory Module Event", NULL },
	{ 0xe71f3a40, 0x2d29, 0x4092, { 0x8a, 0x39, 0x4d, 0x1c, 0x96, 0x6c, 0x7c, 0x65 }, "CXL Memory Sparing Event", NULL },
	{ 0xca95afa7, 0xf183, 0x4018, { 0x8c, 0x2f, 0x95, 0x26, 0x8e, 0x10, 0x1a, 0x2a }, "CXL Dynamic Capacity Event", NULL },
	/* Vendor sections with public definitions. */
	/* AMD FRU Memory Poison, Linux drivers/ras/amd/fmpm.c */
	{ 0x5e4706c1, 0x5356, 0x48c6, { 0x93, 0x0b, 0x52, 0xf2, 0x12, 0x0a, 0x44, 0x58 }, "AMD FRU Memory Poison", NULL },
	/*
	 * Vendor sections, decoded by decoders/cper_<vendor>.c: GUIDs as the
	 * vendors published them with rasdaemon (events-arch-arm/non-standard-*.c)
	 * and, for NVIDIA, Linux drivers/acpi/apei/ghes-nvidia.c.
	 */
	{ 0x1f8161e1, 0x55d6, 0x41e6, { 0xbd, 0x10, 0x7a, 0xfd, 0x1d, 0xc5, 0xf7, 0xc5 }, "HiSilicon OEM Type 1", cper_hisi_oem1 },
	{ 0x45534ea6, 0xce23, 0x4115, { 0x85, 0x35, 0xe0, 0x7a, 0xb3, 0xae, 0xf9, 0x1d }, "HiSilicon OEM Type 2", cper_hisi_oem2 },
	{ 0xb2889fc9, 0xe7d7, 0x4f9d, { 0xa8, 0x67, 0xaf, 0x42, 0xe9, 0x8b, 0xe7, 0x72 }, "HiSilicon PCIe Local", cper_hisi_pcie_local },
	{ 0xc8b328a8, 0x9917, 0x4af6, { 0x9a, 0x13, 0x2e, 0x08, 0xab, 0x2e, 0x75, 0x86 }, "HiSilicon Common", cper_hisi_common },
	{ 0x6d5244f2, 0x2712, 0x11ec, { 0xbe, 0xa7, 0xcb, 0x3f, 0xdb, 0x95, 0xc7, 0x86 }, "NVIDIA Grace", cper_nvidia_grace },
	{ 0x9068e568, 0x6ca0, 0x11f0, { 0xae, 0xaf, 0x15, 0x93, 0x43, 0x59, 0x1e, 0xac }, "NVIDIA Vera", cper_nvidia_vera },
	{ 0xa6980811, 0x16ea, 0x4e4d, { 0xb9, 0x36, 0xfb, 0x00, 0xa2, 0x3f, 0xf2, 0x9c }, "Alibaba Yitian", cper_yitian_ddr },
	{ 0x82d78ba3, 0xfa14, 0x407a, { 0xba, 0x0e, 0xf3, 0xba, 0x81, 0x70, 0x01, 0x3c }, "JaguarMicro Payload 0", cper_jm_payload0 },
	{ 0xf9723053, 0x2558, 0x49b1, { 0xb5, 0x8a, 0x1c, 0x1a, 0x82, 0x49, 0x2a, 0x62 }, "JaguarMicro Payload 1", cper_jm_payload1 },
	{ 0x2d31de54, 0x3037, 0x4f24, { 0xa2, 0x83, 0xf6, 0x9c, 0xa1, 0xec, 0x0b, 0x9a }, "JaguarMicro Payload 2", cper_jm_payload2 },
	{ 0xdac80d69, 0x0a72, 0x4eba, { 0x81, 0x14, 0x14, 0x8e, 0xe3, 0x44, 0xaf, 0x06 }, "JaguarMicro Payload 5", cper_jm_payload5 },
	{ 0x746f06fe, 0x405e, 0x451f, { 0x8d, 0x09, 0x02, 0xe8, 0x02, 0xed, 0x98, 0x4a }, "JaguarMicro Payload 6", cper_jm_payload6 },
	{ 0xe8ed898d, 0xdf16, 0x43cc, { 0x8e, 0xcc, 0x54, 0xf0, 0x60, 0xef, 0x15, 0x7f }, "Ampere Altra", cper_ampere },
	/* AmpereOne, OpenBMC libcper (its layout differs from Altra's: not decoded) */
	{ 0x2826cc9f, 0x448c, 0x4c2b, { 0x86, 0xb6, 0xa9, 0x53, 0x94, 0xb7, 0xef, 0x33 }, "Ampere Specific", NULL },
};
const size_t cper_n_section_types = OU_ARRAY_SIZE(cper_section_types);

void cper_guid_bytes(const struct cper_guid_name *g, uint8_t guid[16])
{
	/* guid_t / EFI_GUID: the first three parts little-endian. */
	guid[0] = (uint8_t)g->d1;
	guid[1] = (uint8_t)(g->d1 >> 8);
	guid[2] = (uint8_t)(g->d1 >> 16);
	guid[3] = (uint8_t)(g->d1 >> 24);
	guid[4] = (uint8_t)g->d2;
	guid[5] = (uint8_t)(g->d2 >> 8);
	guid[6] = (uint8_t)g->d3;
	guid[7] = (uint8_t)(g->d3 >> 8);
	memcpy(guid + 8, g->d4, 8);
}

bool cper_guid_parse(const char *s, uint8_t guid[16])
{
	static const unsigned widths[5] = { 8, 4, 4, 4, 12 };
	struct cper_guid_name g = { 0 };
	uint64_t part[5];
	char tok[16];

	for (unsigned i = 0; i < 5; i++) {
		size_t n = strspn(s, "0123456789abcdefABCDEF");

		if (n != widths[i])
			return false;
		memcpy(tok, s, n);
		tok[n] = '\0';
		if (!text_num_whole(tok, 16, &part[i]))
			return false;
		s += n;
		if (i < 4 && *s++ != '-')
			return false;
	}
	g.d1 = (uint32_t)part[0];
	g.d2 = (uint16_t)part[1];
	g.d3 = (uint16_t)part[2];
	for (unsigned i = 0; i < 2; i++)
		g.d4[i] = (uint8_t)(part[3] >> (8 * (1 - i)));
	for (unsigned i = 0; i < 6; i++)
		g.d4[2 + i] = (uint8_t)(part[4] >> (8 * (5 - i)));
	cper_guid_bytes(&g, guid);
	return true;
}

const struct cper_guid_name *cper_section_find(const uint8_t guid[16])
{
	uint8_t b[16];

	for (size_t i = 0; i < cper_n_section_types; i++) {
		cper_guid_bytes(&cper_section_types[i], b);
		if (memcmp(b, guid, 16) == 0)
			return &cper_section_types[i];
	}
	return NULL;
}

const char *cper_section_name(const uint8_t guid[16])
{
	const struct cper_guid_name *g = cper_section_find(guid);

	return g ? g->name : NULL;
}

/* UEFI 2.10 N.2.1 Record Header, Error Severity. */
static const char *const cper_sev_names[] = {
	"recoverable", "fatal", "corrected", "informational",
};

const char *cper_severity_name(unsigned sev)
{
	return sev < OU_ARRAY_SIZE(cper_sev_names) ? cper_sev_names[sev] : NULL;
}

enum ras_severity cper_severity_to_ras(unsigned sev)
{
	static const enum ras_severity map[] = {
		RAS_SEV_UNCORRECTED, RAS_SEV_FATAL, RAS_SEV_CORRECTED, RAS_SEV_INFO,
	};

	return sev < OU_ARRAY_SIZE(map) ? map[sev] : RAS_SEV_UNKNOWN;
}

unsigned cper_severity_of_ghes(unsigned ghes_sev)
{
	/* ghes_severity(): CPER recoverable 0 -> 2, fatal 1 -> 3, corrected 2 -> 1, info 3 -> 0. */
	static const unsigned char cper_of[] = { 3, 2, 0, 1 };

	return ghes_sev < sizeof(cper_of) ? cper_of[ghes_sev] : 0xff;
}

/* UEFI 2.10 N.2.5 Memory Error Section, Memory Error Type (offset 72). */
static const char *const mem_err_types[] = {
	"unknown", "no error", "single-bit ECC", "multi-bit ECC",
	"single-symbol ChipKill ECC", "multi-symbol ChipKill ECC",
	"master abort", "target abort", "parity error", "watchdog timeout",
	"invalid address", "mirror broken", "memory sparing",
	"scrub corrected error", "scrub uncorrected error",
	"physical memory map-out event",
};

const char *cper_mem_err_type_name(unsigned type)
{
	return type < OU_ARRAY_SIZE(mem_err_types) ? mem_err_types[type] : NULL;
}

/* Validation bits of the memory error section (UEFI 2.10 N.2.5, offset 0). */
enum {
	MEM_V_ERROR_STATUS = 1u << 0, MEM_V_PA = 1u << 1, MEM_V_PA_MASK = 1u << 2,
	MEM_V_NODE = 1u << 3, MEM_V_CARD = 1u << 4, MEM_V_MODULE = 1u << 5,
	MEM_V_BANK = 1u << 6, MEM_V_DEVICE = 1u << 7, MEM_V_ROW = 1u << 8,
	MEM_V_COLUMN = 1u << 9, MEM_V_BIT_POS = 1u << 10,
	MEM_V_REQUESTOR = 1u << 11, MEM_V_RESPONDER = 1u << 12,
	MEM_V_TARGET = 1u << 13, MEM_V_ERROR_TYPE = 1u << 14,
	MEM_V_RANK = 1u << 15, MEM_V_CARD_HANDLE = 1u << 16,
	MEM_V_MODULE_HANDLE = 1u << 17, MEM_V_ROW_EXT = 1u << 18,
	MEM_V_BANK_GROUP = 1u << 19, MEM_V_BANK_ADDRESS = 1u << 20,
	MEM_V_CHIP_ID = 1u << 21,
};

/* Byte offsets of the location fields shared by both layouts. */
struct mem_layout {
	size_t node, requestor, rank, extended;
};

static int64_t opt16(uint64_t v, uint64_t bit, const uint8_t *p)
{
	return (v & bit) ? ou_le16(p) : RAS_DF_NONE;
}

static int64_t opt64(uint64_t v, uint64_t bit, const uint8_t *p)
{
	return (v & bit) ? (int64_t)ou_le64(p) : RAS_DF_NONE;
}

static void mem_loc_parse(const uint8_t *p, const struct mem_layout *l,
			  uint64_t v, int has_extended, struct cper_mem_loc *out)
{
	const uint8_t *n = p + l->node;
	uint8_t ext = has_extended ? p[l->extended] : 0;
	uint16_t bank = ou_le16(n + 6);

	out->validation_bits = v;
	out->node = opt16(v, MEM_V_NODE, n);
	out->card = opt16(v, MEM_V_CARD, n + 2);
	out->module = opt16(v, MEM_V_MODULE, n + 4);
	out->bank = opt16(v, MEM_V_BANK, n + 6);
	out->bank_group = (v & MEM_V_BANK_GROUP) ? bank >> 8 : RAS_DF_NONE;
	out->bank_address = (v & MEM_V_BANK_ADDRESS) ? bank & 0xff : RAS_DF_NONE;
	out->device = opt16(v, MEM_V_DEVICE, n + 8);
	out->row = opt16(v, MEM_V_ROW, n + 10);
	/* Row bits 17:16 live in "extended" bits 1:0 (UEFI 2.10 N.2.5). */
	if (out->row != RAS_DF_NONE && has_extended && (v & MEM_V_ROW_EXT))
		out->row |= (int64_t)(ext & 3) << 16;
	out->column = opt16(v, MEM_V_COLUMN, n + 12);
	out->bit_pos = opt16(v, MEM_V_BIT_POS, n + 14);
	out->requestor_id = opt64(v, MEM_V_REQUESTOR, p + l->requestor);
	out->responder_id = opt64(v, MEM_V_RESPONDER, p + l->requestor + 8);
	out->target_id = opt64(v, MEM_V_TARGET, p + l->requestor + 16);
	out->rank = opt16(v, MEM_V_RANK, p + l->rank);
	out->mem_array_handle = opt16(v, MEM_V_CARD_HANDLE, p + l->rank + 2);
	out->mem_dev_handle = opt16(v, MEM_V_MODULE_HANDLE, p + l->rank + 4);
	out->chip_id = has_extended && (v & MEM_V_CHIP_ID) ? ext >> 5 : RAS_DF_NONE;
}

int cper_mem_compact_parse(const uint8_t *p, size_t len, struct cper_mem_loc *out)
{
	/* Linux include/linux/cper.h struct cper_mem_err_compact (packed). */
	static const struct mem_layout compact = { 8, 24, 48, 54 };
	static const uint8_t zero[CPER_MEM_COMPACT_LEN];

	/* With no validation bit set every field comes out RAS_DF_NONE. */
	mem_loc_parse(zero, &compact, 0, 0, out);
	if (!p || len < CPER_MEM_COMPACT_LEN_OLD)
		return -EBADMSG;
	mem_loc_parse(p, &compact, ou_le64(p), len >= CPER_MEM_COMPACT_LEN, out);
	return 0;
}

int cper_mem_section_parse(const uint8_t *p, size_t len, struct cper_mem_section *out)
{
	/* UEFI 2.10 N.2.5 Memory Error Section byte offsets. */
	static const struct mem_layout section = { 32, 48, 74, 73 };
	static const uint8_t zero[CPER_MEM_SECTION_LEN];
	uint64_t v;

	if (!p || len < CPER_MEM_SECTION_LEN) {
		out->validation_bits = 0;
		out->error_status = out->physical_addr = RAS_DF_NONE;
		out->physical_addr_mask = out->error_type = RAS_DF_NONE;
		mem_loc_parse(zero, &section, 0, 0, &out->loc);
		return -EBADMSG;
	}
	v = ou_le64(p);
	out->validation_bits = v;
	out->error_status = opt64(v, MEM_V_ERROR_STATUS, p + 8);
	out->physical_addr = opt64(v, MEM_V_PA, p + 16);
	out->physical_addr_mask = opt64(v, MEM_V_PA_MASK, p + 24);
	out->error_type = (v & MEM_V_ERROR_TYPE) ? p[72] : RAS_DF_NONE;
	mem_loc_parse(p, &section, v, 1, &out->loc);
	return 0;
}

void cper_mem_loc_format(const struct cper_mem_loc *loc, char *out, size_t len)
{
	static const struct { const char *label; size_t off; int hex; } parts[] = {
		{ "node", offsetof(struct cper_mem_loc, node), 0 },
		{ "card", offsetof(struct cper_mem_loc, card), 0 },
		{ "module", offsetof(struct cper_mem_loc, module), 0 },
		{ "rank", offsetof(struct cper_mem_loc, rank), 0 },
		{ "bank", offsetof(struct cper_mem_loc, bank), 0 },
		{ "bank group", offsetof(struct cper_mem_loc, bank_group), 0 },
		{ "bank address", offsetof(struct cper_mem_loc, bank_address), 0 },
		{ "device", offsetof(struct cper_mem_loc, device), 0 },
		{ "chip", offsetof(struct cper_mem_loc, chip_id), 0 },
		{ "row", offsetof(struct cper_mem_loc, row), 0 },
		{ "column", offsetof(struct cper_mem_loc, column), 0 },
		{ "bit", offsetof(struct cper_mem_loc, bit_pos), 0 },
		{ "requestor", offsetof(struct cper_mem_loc, requestor_id), 1 },
		{ "responder", offsetof(struct cper_mem_loc, responder_id), 1 },
		{ "target", offsetof(struct cper_mem_loc, target_id), 1 },
		{ "memory array handle", offsetof(struct cper_mem_loc, mem_array_handle), 1 },
		{ "memory device handle", offsetof(struct cper_mem_loc, mem_dev_handle), 1 },
	};

	out[0] = '\0';
	for (size_t i = 0; i < OU_ARRAY_SIZE(parts); i++) {
		int64_t v = *(const int64_t *)((const char *)loc + parts[i].off);

		if (v == RAS_DF_NONE)
			continue;
		if (parts[i].hex)
			ou_appendf(out, len, "%s%s 0x%llx", out[0] ? ", " : "",
				   parts[i].label, (unsigned long long)v);
		else
			ou_appendf(out, len, "%s%s %lld", out[0] ? ", " : "",
				   parts[i].label, (long long)v);
	}
}

/*
 * Where struct cper_mem_err_compact (Linux include/linux/cper.h) keeps each
 * location field, and the validation bit (UEFI 2.10 N.2.5) that says it is
 * valid. Bank group and address share the bank's two bytes; row bits 17:16
 * and the chip id live in the "extended" byte.
 */
static const struct { uint8_t off, bytes; uint32_t valid; } compact_fields[CPER_MEM_F_N] = {
	[CPER_MEM_F_NODE] = { 8, 2, MEM_V_NODE }, [CPER_MEM_F_CARD] = { 10, 2, MEM_V_CARD },
	[CPER_MEM_F_MODULE] = { 12, 2, MEM_V_MODULE }, [CPER_MEM_F_BANK] = { 14, 2, MEM_V_BANK },
	[CPER_MEM_F_DEVICE] = { 16, 2, MEM_V_DEVICE }, [CPER_MEM_F_ROW] = { 18, 2, MEM_V_ROW },
	[CPER_MEM_F_COLUMN] = { 20, 2, MEM_V_COLUMN }, [CPER_MEM_F_BIT_POS] = { 22, 2, MEM_V_BIT_POS },
	[CPER_MEM_F_REQUESTOR] = { 24, 8, MEM_V_REQUESTOR },
	[CPER_MEM_F_RESPONDER] = { 32, 8, MEM_V_RESPONDER },
	[CPER_MEM_F_TARGET] = { 40, 8, MEM_V_TARGET }, [CPER_MEM_F_RANK] = { 48, 2, MEM_V_RANK },
	[CPER_MEM_F_CARD_HANDLE] = { 50, 2, MEM_V_CARD_HANDLE },
	[CPER_MEM_F_MODULE_HANDLE] = { 52, 2, MEM_V_MODULE_HANDLE },
	[CPER_MEM_F_BANK_GROUP] = { 15, 1, MEM_V_BANK_GROUP },
	[CPER_MEM_F_BANK_ADDRESS] = { 14, 1, MEM_V_BANK_ADDRESS },
	[CPER_MEM_F_CHIP_ID] = { 54, 1, MEM_V_CHIP_ID },
};

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

bool cper_mem_compact_set(uint8_t *c, enum cper_mem_field f, uint64_t v)
{
	uint32_t valid;

	if ((unsigned)f >= CPER_MEM_F_N)
		return false;
	valid = compact_fields[f].valid;
	if (f == CPER_MEM_F_ROW && v > 0x3ffff)
		return false;
	if (f == CPER_MEM_F_ROW && v > 0xffff) {
		/* Row bits 17:16 go to "extended" bits 1:0. */
		c[54] = (uint8_t)((c[54] & ~3u) | (v >> 16));
		valid |= MEM_V_ROW_EXT;
		v &= 0xffff;
	}
	if (f == CPER_MEM_F_CHIP_ID) {
		if (v > 7)
			return false;
		c[54] = (uint8_t)((c[54] & 0x1f) | v << 5);
	} else {
		if (compact_fields[f].bytes < 8 && v >> (8 * compact_fields[f].bytes))
			return false;
		put_le(c + compact_fields[f].off, v, compact_fields[f].bytes);
	}
	put_le(c, ou_le64(c) | valid, 8);
	return true;
}

/* ---- shared event helpers -------------------------------------------- */

static int guid_is_zero(const uint8_t g[16])
{
	for (int i = 0; i < 16; i++)
		if (g[i])
			return 0;
	return 1;
}

static void copy_loc_fields(const struct cper_mem_loc *loc, struct extlog_decoded *out)
{
	out->validation_bits = (int64_t)loc->validation_bits;
	out->node = loc->node;
	out->card = loc->card;
	out->module = loc->module;
	out->bank = loc->bank;
	out->bank_group = loc->bank_group;
	out->bank_address = loc->bank_address;
	out->device = loc->device;
	out->row = loc->row;
	out->column = loc->column;
	out->bit_pos = loc->bit_pos;
	out->requestor_id = loc->requestor_id;
	out->responder_id = loc->responder_id;
	out->target_id = loc->target_id;
	out->rank = loc->rank;
	out->mem_array_handle = loc->mem_array_handle;
	out->mem_dev_handle = loc->mem_dev_handle;
	out->chip_id = loc->chip_id;
}

/* "Corrected" from "corrected" for the start of a sentence. */
static void sentence_start(char *s, size_t len, const char *word)
{
	snprintf(s, len, "%s", word);
	if (s[0] >= 'a' && s[0] <= 'z')
		s[0] = (char)(s[0] - 'a' + 'A');
}

/* ---- ras:extlog_mem_event -------------------------------------------- */

#define EXTLOG_F(m) RAS_DF_I(struct extlog_decoded, m)
#define EXTLOG_X(m) RAS_DF_X(struct extlog_decoded, m)
const struct ras_dfield extlog_dfields[] = {
	EXTLOG_F(err_seq), EXTLOG_F(etype),
	RAS_DF_S(struct extlog_decoded, etype_name),
	EXTLOG_F(cper_severity),
	RAS_DF_S(struct extlog_decoded, cper_severity_name),
	EXTLOG_X(pa), EXTLOG_F(pa_mask_lsb),
	RAS_DF_S(struct extlog_decoded, fru_guid),
	RAS_DF_S(struct extlog_decoded, fru_text),
	EXTLOG_X(validation_bits), EXTLOG_F(node), EXTLOG_F(card),
	EXTLOG_F(module), EXTLOG_F(bank), EXTLOG_F(bank_group),
	EXTLOG_F(bank_address), EXTLOG_F(device), EXTLOG_F(row),
	EXTLOG_F(column), EXTLOG_F(bit_pos), EXTLOG_X(requestor_id),
	EXTLOG_X(responder_id), EXTLOG_X(target_id), EXTLOG_F(rank),
	EXTLOG_F(mem_array_handle), EXTLOG_F(mem_dev_handle), EXTLOG_F(chip_id),
	RAS_DF_S(struct extlog_decoded, mem_location),
};
const size_t extlog_n_dfields = OU_ARRAY_SIZE(extlog_dfields);

/* The FRU and the coarse part of the location; the full one is mem_location. */
static void extlog_location(struct extlog_decoded *out)
{
	static const struct { const char *label; size_t off; } parts[] = {
		{ "node", offsetof(struct extlog_decoded, node) },
		{ "card", offsetof(struct extlog_decoded, card) },
		{ "module", offsetof(struct extlog_decoded, module) },
		{ "rank", offsetof(struct extlog_decoded, rank) },
		{ "device", offsetof(struct extlog_decoded, device) },
	};

	snprintf(out->location, sizeof(out->location), "%s",
		 out->fru_text[0] ? out->fru_text : "memory");
	for (size_t i = 0; i < OU_ARRAY_SIZE(parts); i++) {
		int64_t v = *(const int64_t *)((const char *)out + parts[i].off);

		if (v != RAS_DF_NONE)
			ou_appendf(out->location, sizeof(out->location), ", %s %lld",
				   parts[i].label, (long long)v);
	}
}

/*
 * etype, pa and pa_mask_lsb restate raw fields whose all-ones value means
 * "not valid"; decoding stores that as RAS_DF_NONE, a database row keeps the
 * raw value. Both read as absent here.
 */
void extlog_render(const struct extlog_decoded *d, char *buf, size_t len)
{
	char fru[sizeof(d->fru_text)];

	if (!buf || !len)
		return;
	buf[0] = '\0';
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || d->cper_severity == RAS_DF_NONE)
		return;
	sentence_start(buf, len, d->cper_severity_name[0] ? d->cper_severity_name
							  : "unknown-severity");
	ou_appendf(buf, len, " memory error");
	if (d->etype_name[0])
		ou_appendf(buf, len, " (%s)", d->etype_name);
	else if (d->etype != RAS_DF_NONE && d->etype != 0xff)
		ou_appendf(buf, len, " (type %lld)", (long long)d->etype);
	if (d->pa != RAS_DF_NONE && d->pa != -1)
		ou_appendf(buf, len, " at physical address 0x%llx", (unsigned long long)d->pa);
	if (d->pa_mask_lsb != RAS_DF_NONE && d->pa_mask_lsb != 0xff)
		ou_appendf(buf, len, " (mask lsb %u)", (unsigned)d->pa_mask_lsb);
	if (d->mem_location[0])
		ou_appendf(buf, len, ": %s", d->mem_location);
	ou_copy(fru, sizeof(fru), d->fru_text, sizeof(d->fru_text));
	if (fru[0])
		ou_appendf(buf, len, "; FRU %s", fru);
	if (d->severity >= RAS_SEV_UNCORRECTED)
		ou_appendf(buf, len, "; replace the memory module");
}

int extlog_decode(const struct extlog_in *in, struct extlog_decoded *out)
{
	struct cper_mem_loc loc;
	const char *name;

	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), extlog_dfields, extlog_n_dfields);
	if (!in)
		return -EINVAL;
	out->err_seq = in->err_seq;
	/* ~0 marks "not valid" (Linux drivers/acpi/acpi_extlog.c). */
	if (in->etype != 0xff) {
		out->etype = in->etype;
		if ((name = cper_mem_err_type_name(in->etype)))
			snprintf(out->etype_name, sizeof(out->etype_name), "%s", name);
	}
	out->cper_severity = in->sev;
	out->severity = cper_severity_to_ras(in->sev);
	if ((name = cper_severity_name(in->sev)))
		snprintf(out->cper_severity_name, sizeof(out->cper_severity_name), "%s", name);
	if (in->pa != UINT64_MAX)
		out->pa = (int64_t)in->pa;
	if (in->pa_mask_lsb != 0xff)
		out->pa_mask_lsb = in->pa_mask_lsb;
	if (!guid_is_zero(in->fru_id))
		ou_guid_format(out->fru_guid, sizeof(out->fru_guid), in->fru_id);
	ou_copy(out->fru_text, sizeof(out->fru_text), in->fru_text, in->fru_text_len);
	/* A short or missing location leaves its fields unknown; not an error. */
	cper_mem_compact_parse(in->data, in->data_len, &loc);
	copy_loc_fields(&loc, out);
	cper_mem_loc_format(&loc, out->mem_location, sizeof(out->mem_location));
	extlog_location(out);
	return 0;
}

/* ---- ras:non_standard_event ------------------------------------------ */

const struct ras_dfield nonstd_dfields[] = {
	RAS_DF_S(struct nonstd_decoded, sec_type_guid),
	RAS_DF_S(struct nonstd_decoded, sec_type_name),
	RAS_DF_S(struct nonstd_decoded, fru_guid),
	RAS_DF_S(struct nonstd_decoded, fru_text),
	RAS_DF_I(struct nonstd_decoded, cper_severity),
	RAS_DF_I(struct nonstd_decoded, length),
	RAS_DF_I(struct nonstd_decoded, data_truncated),
	RAS_DF_S(struct nonstd_decoded, raw_hex),
	RAS_DF_S(struct nonstd_decoded, detail),
	RAS_DF_X(struct nonstd_decoded, pa),
	RAS_DF_I(struct nonstd_decoded, data_received),   /* JSON keys: new ones go last */
	CPER_VENDOR_DFIELDS(struct nonstd_decoded, v),
};
const size_t nonstd_n_dfields = OU_ARRAY_SIZE(nonstd_dfields);

/* Decodes the known section bodies worth a sentence; others stay in hex. */
static void nonstd_detail(const uint8_t *data, size_t n, struct nonstd_decoded *out)
{
	struct cper_mem_section m;
	const char *tname;
	char loc[200];

	if (strcmp(out->sec_type_name, "Processor Generic") == 0) {
		cper_proc_generic_detail(data, n, out->detail, sizeof(out->detail));
		return;
	}
	if (strcmp(out->sec_type_name, "Processor Specific: IA32/X64") == 0) {
		cper_ia_detail(data, n, out->detail, sizeof(out->detail));
		return;
	}
	if (strcmp(out->sec_type_name, "Firmware Error Record Reference") == 0) {
		cper_fw_ref_detail(data, n, out->detail, sizeof(out->detail));
		return;
	}
	if (strcmp(out->sec_type_name, "CXL Protocol Error") == 0) {
		/* As the kernel: a corrected section reports the correctable registers. */
		cper_cxl_prot_detail(data, n, out->cper_severity == 2, out->detail, sizeof(out->detail));
		return;
	}
	if (strcmp(out->sec_type_name, "Platform Memory") != 0)
		return;
	if (cper_mem_section_parse(data, n, &m) < 0) {
		snprintf(out->detail, sizeof(out->detail),
			 "memory error section too short (%zu bytes)", n);
		return;
	}
	out->pa = m.physical_addr;
	tname = m.error_type != RAS_DF_NONE ? cper_mem_err_type_name((unsigned)m.error_type) : NULL;
	snprintf(out->detail, sizeof(out->detail), "%s", tname ? tname : "memory error");
	if (m.physical_addr != RAS_DF_NONE)
		ou_appendf(out->detail, sizeof(out->detail), " at 0x%llx",
			   (unsigned long long)m.physical_addr);
	cper_mem_loc_format(&m.loc, loc, sizeof(loc));
	if (loc[0])
		ou_appendf(out->detail, sizeof(out->detail), ", %s", loc);
}

int nonstd_decode(const struct nonstd_in *in, struct nonstd_decoded *out)
{
	const struct cper_guid_name *type;
	size_t n;

	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), nonstd_dfields, nonstd_n_dfields);
	if (!in)
		return -EINVAL;
	ou_guid_format(out->sec_type_guid, sizeof(out->sec_type_guid), in->sec_type);
	if ((type = cper_section_find(in->sec_type)))
		snprintf(out->sec_type_name, sizeof(out->sec_type_name), "%s", type->name);
	if (!guid_is_zero(in->fru_id))
		ou_guid_format(out->fru_guid, sizeof(out->fru_guid), in->fru_id);
	ou_copy(out->fru_text, sizeof(out->fru_text), in->fru_text, in->fru_text_len);
	out->cper_severity = in->sev;
	out->severity = cper_severity_to_ras(in->sev);
	out->length = in->len;
	n = in->buf ? in->buf_len : 0;
	if (in->len < n)
		n = in->len;
	out->data_received = (int64_t)n;
	out->data_truncated = in->len > n || n > NONSTD_HEX_MAX;
	ou_hex(out->raw_hex, sizeof(out->raw_hex), in->buf, n);
	nonstd_detail(in->buf, n, out);
	/* A vendor's section reads as far as it is whole: its raw bytes stay in raw_hex. */
	if (type && type->vendor && in->buf)
		type->vendor(in->buf, n, &out->v);
	snprintf(out->location, sizeof(out->location), "%s",
		 out->v.location[0] ? out->v.location : out->fru_text[0] ? out->fru_text :
		 out->fru_guid[0] ? out->fru_guid : "platform");
	return 0;
}

/*
 * "HiSilicon Kunpeng 920 socket 1, ...: corrected DDR memory controller
 * error, ...". The registers are not part of the sentence: they are in the
 * stored fields, --json and "errors --vendor".
 */
static void vendor_render(const struct nonstd_decoded *d, const char *sev, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %s %s (%s %s section)", d->location, sev,
		 d->v.detail[0] ? d->v.detail : "error", d->v.vendor, d->v.section);
	if (d->length > d->data_received)
		ou_appendf(buf, len, ", only %lld of %lld bytes received",
			   (long long)d->data_received, (long long)d->length);
}

/* fru_text restates raw tracepoint text: filtered again as decoding did. */
void nonstd_render(const struct nonstd_decoded *d, char *buf, size_t len)
{
	const char *sev;
	char fru[sizeof(d->fru_text)];

	if (!buf || !len)
		return;
	buf[0] = '\0';
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || d->cper_severity == RAS_DF_NONE)
		return;
	sev = cper_severity_name((unsigned)d->cper_severity);
	if (d->v.vendor[0]) {
		vendor_render(d, sev ? sev : "unknown-severity", buf, len);
		return;
	}
	sentence_start(buf, len, sev ? sev : "unknown-severity");
	ou_appendf(buf, len, " platform error in a %s section",
		   d->sec_type_name[0] ? d->sec_type_name : "vendor-specific");
	if (!d->sec_type_name[0])
		ou_appendf(buf, len, " (%s)", d->sec_type_guid);
	if (d->detail[0])
		ou_appendf(buf, len, ": %s", d->detail);
	ou_appendf(buf, len, ", %u bytes of data%s", (unsigned)d->length,
		   d->length > d->data_received ? " (only partly received)" : "");
	ou_copy(fru, sizeof(fru), d->fru_text, sizeof(d->fru_text));
	if (fru[0])
		ou_appendf(buf, len, "; FRU %s", fru);
}
