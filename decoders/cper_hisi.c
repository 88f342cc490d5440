/* SPDX-License-Identifier: MIT */
/*
 * HiSilicon Kunpeng error sections. Layouts (byte offsets, little-endian,
 * the validation bits, module and sub-module numbering, the severity codes)
 * as HiSilicon published them with rasdaemon (non-standard-hisi_hip08.c,
 * non-standard-hisilicon.c and non-standard-hisilicon.h); the words are ours.
 *
 *   HIP08 OEM type 1  1f8161e1-55d6-41e6-bd10-7afd1dc5f7c5  40 bytes
 *   HIP08 OEM type 2  45534ea6-ce23-4115-8535-e07ab3aef91d  60 bytes
 *   HIP08 PCIe local  b2889fc9-e7d7-4f9d-a867-af42e98be772  152 bytes
 *   common            c8b328a8-9917-4af6-9a13-2e08ab2e7586  32 bytes + registers
 *
 * HIP08 is the Kunpeng 920. Its dies: TA and TB the two compute dies (each
 * with its L3 partitions, home agents and DDR controllers), nimbus the I/O
 * die. OEM type 2 carries an Armv8 RAS error record (ERR<n>FR, CTLR, STATUS,
 * ADDR, MISC0, MISC1 as 32-bit halves), decoded by cper_vendor_armras_status.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "cper_vendor.h"
#include "other_util.h"

/* Sub-module names of a module, as HiSilicon's tables number them. */
struct hisi_module {
	uint8_t id;
	const char *name;
	const char *words;              /* what it is, NULL when the name is all we know */
	const char *part_class;         /* "memory", "pcie", "cache" or NULL */
	const char *const *sub;
	uint8_t n_sub;
};

#define SUBS(a) a, (uint8_t)OU_ARRAY_SIZE(a)

static const char *const pll_sub[] = {
	"TB_PLL0", "TB_PLL1", "TB_PLL2", "TB_PLL3", "TA_PLL0", "TA_PLL1", "TA_PLL2", "TA_PLL3",
	"NIMBUS_PLL0", "NIMBUS_PLL1", "NIMBUS_PLL2", "NIMBUS_PLL3", "NIMBUS_PLL4",
};
static const char *const sllc_sub[] = {
	"TB_SLLC0", "TB_SLLC1", "TB_SLLC2", "TA_SLLC0", "TA_SLLC1", "TA_SLLC2",
	"NIMBUS_SLLC0", "NIMBUS_SLLC1",
};
static const char *const sioe_sub[] = {
	"TB_SIOE0", "TB_SIOE1", "TB_SIOE2", "TB_SIOE3", "TA_SIOE0", "TA_SIOE1", "TA_SIOE2",
	"TA_SIOE3", "NIMBUS_SIOE0", "NIMBUS_SIOE1",
};
static const char *const poe_sub[] = { "TB_POE", "TA_POE" };
static const char *const disp_sub[] = {
	"TB_PERI_DISP", "TB_POE_DISP", "TB_GIC_DISP", "TA_PERI_DISP", "TA_POE_DISP",
	"TA_GIC_DISP", "HAC_DISP", "PCIE_DISP", "IO_MGMT_DISP", "NETWORK_DISP",
};
static const char *const sas_sub[] = { "SAS0", "SAS1" };

/* OEM type 1: the I/O and system blocks. */
static const struct hisi_module oem1_modules[] = {
	{ 0, "MN", "miscellaneous node", NULL, NULL, 0 },
	{ 1, "PLL", "clock PLL", NULL, SUBS(pll_sub) },
	{ 2, "SLLC", "inter-die link", NULL, SUBS(sllc_sub) },
	{ 3, "AA", NULL, NULL, NULL, 0 },
	{ 4, "SIOE", NULL, NULL, SUBS(sioe_sub) },
	{ 5, "POE", NULL, NULL, SUBS(poe_sub) },
	{ 8, "DISP", NULL, NULL, SUBS(disp_sub) },
	{ 9, "LPC", "LPC bus controller", NULL, NULL, 0 },
	{ 13, "GIC", "interrupt controller", NULL, NULL, 0 },
	{ 14, "RDE", "RAID accelerator", NULL, NULL, 0 },
	{ 15, "SAS", "SAS controller", NULL, SUBS(sas_sub) },
	{ 16, "SATA", "SATA controller", NULL, NULL, 0 },
	{ 17, "USB", "USB controller", NULL, NULL, 0 },
};

static const char *const smmu_sub[] = { "HAC_SMMU", "PCIE_SMMU", "MGMT_SMMU", "NIC_SMMU" };
static const char *const hha_sub[] = { "TB_HHA0", "TB_HHA1", "TA_HHA0", "TA_HHA1" };
static const char *const hllc_sub[] = { "HLLC0", "HLLC1", "HLLC2" };
static const char *const ddrc_sub[] = {
	"TB_DDRC0", "TB_DDRC1", "TB_DDRC2", "TB_DDRC3", "TA_DDRC0", "TA_DDRC1", "TA_DDRC2",
	"TA_DDRC3",
};
static const char *const l3t_sub[] = {
	"TB_PARTITION0", "TB_PARTITION1", "TB_PARTITION2", "TB_PARTITION3", "TB_PARTITION4",
	"TB_PARTITION5", "TB_PARTITION6", "TB_PARTITION7", "TA_PARTITION0", "TA_PARTITION1",
	"TA_PARTITION2", "TA_PARTITION3", "TA_PARTITION4", "TA_PARTITION5", "TA_PARTITION6",
	"TA_PARTITION7",
};
static const char *const l3d_sub[] = {
	"TB_BANK0", "TB_BANK1", "TB_BANK2", "TB_BANK3", "TA_BANK0", "TA_BANK1", "TA_BANK2",
	"TA_BANK3",
};

/* OEM type 2: the memory system, each an Armv8 RAS error record. */
static const struct hisi_module oem2_modules[] = {
	{ 0, "SMMU", "I/O MMU", NULL, SUBS(smmu_sub) },
	{ 1, "HHA", "home agent", "cache", SUBS(hha_sub) },
	{ 2, "PA", NULL, NULL, NULL, 0 },
	{ 3, "HLLC", "inter-socket link", NULL, SUBS(hllc_sub) },
	{ 4, "DDRC", "DDR memory controller", "memory", SUBS(ddrc_sub) },
	{ 5, "L3TAG", "L3 cache tag", "cache", SUBS(l3t_sub) },
	{ 6, "L3DATA", "L3 cache data", "cache", SUBS(l3d_sub) },
};

/* The common section numbers modules on its own (0-59, in order). */
static const struct hisi_module common_modules[] = {
	{ 0, "MN", "miscellaneous node", NULL, NULL, 0 }, { 1, "PLL", "clock PLL", NULL, NULL, 0 },
	{ 2, "SLLC", "inter-die link", NULL, NULL, 0 }, { 3, "AA", NULL, NULL, NULL, 0 },
	{ 4, "SIOE", NULL, NULL, NULL, 0 }, { 5, "POE", NULL, NULL, NULL, 0 },
	{ 6, "CPA", NULL, NULL, NULL, 0 }, { 7, "DISP", NULL, NULL, NULL, 0 },
	{ 8, "GIC", "interrupt controller", NULL, NULL, 0 },
	{ 9, "ITS", "interrupt translation service", NULL, NULL, 0 },
	{ 10, "AVSBUS", "adaptive voltage scaling bus", NULL, NULL, 0 },
	{ 11, "CS", NULL, NULL, NULL, 0 }, { 12, "PPU", NULL, NULL, NULL, 0 },
	{ 13, "SMMU", "I/O MMU", NULL, NULL, 0 }, { 14, "PA", NULL, NULL, NULL, 0 },
	{ 15, "HLLC", "inter-socket link", NULL, NULL, 0 },
	{ 16, "DDRC", "DDR memory controller", "memory", NULL, 0 },
	{ 17, "L3TAG", "L3 cache tag", "cache", NULL, 0 },
	{ 18, "L3DATA", "L3 cache data", "cache", NULL, 0 },
	{ 19, "PCS", NULL, NULL, NULL, 0 }, { 20, "HHA", "home agent", "cache", NULL, 0 },
	{ 21, "PCIe Local", "PCIe controller", "pcie", NULL, 0 },
	{ 22, "SAS", "SAS controller", NULL, NULL, 0 },
	{ 23, "SATA", "SATA controller", NULL, NULL, 0 },
	{ 24, "NIC", "network controller", NULL, NULL, 0 },
	{ 25, "RoCE", "RDMA engine", NULL, NULL, 0 }, { 26, "USB", "USB controller", NULL, NULL, 0 },
	{ 27, "ZIP", "compression accelerator", NULL, NULL, 0 },
	{ 28, "HPRE", "public-key accelerator", NULL, NULL, 0 },
	{ 29, "SEC", "crypto accelerator", NULL, NULL, 0 },
	{ 30, "RDE", "RAID accelerator", NULL, NULL, 0 }, { 31, "MEE", NULL, NULL, NULL, 0 },
	{ 32, "L4D", NULL, NULL, NULL, 0 }, { 33, "Tsensor", "temperature sensor", NULL, NULL, 0 },
	{ 34, "ROH", NULL, NULL, NULL, 0 }, { 35, "BTC", NULL, NULL, NULL, 0 },
	{ 36, "HILINK", "SerDes", NULL, NULL, 0 }, { 37, "STARS", NULL, NULL, NULL, 0 },
	{ 38, "SDMA", "system DMA engine", NULL, NULL, 0 }, { 39, "UC", NULL, NULL, NULL, 0 },
	{ 40, "HBMC", "HBM memory controller", "memory", NULL, 0 },
	{ 41, "PMC", NULL, NULL, NULL, 0 }, { 42, "SCHE", NULL, NULL, NULL, 0 },
	{ 43, "ASMB_DFS", NULL, NULL, NULL, 0 }, { 44, "ASMB_NTU", NULL, NULL, NULL, 0 },
	{ 45, "UB", NULL, NULL, NULL, 0 }, { 46, "UMMU", NULL, NULL, NULL, 0 },
	{ 47, "PCU", NULL, NULL, NULL, 0 }, { 48, "UCMI", NULL, NULL, NULL, 0 },
	{ 49, "DJTAGM", NULL, NULL, NULL, 0 }, { 50, "CFGBUS", NULL, NULL, NULL, 0 },
	{ 51, "MPU", NULL, NULL, NULL, 0 }, { 52, "CRG", NULL, NULL, NULL, 0 },
	{ 53, "ACG3", NULL, NULL, NULL, 0 }, { 54, "DCIP", NULL, NULL, NULL, 0 },
	{ 55, "UMAU", NULL, NULL, NULL, 0 }, { 56, "UPA", NULL, NULL, NULL, 0 },
	{ 57, "AXI_MSTR_OOO", NULL, NULL, NULL, 0 }, { 58, "RBIST", NULL, NULL, NULL, 0 },
	{ 59, "LC300", NULL, NULL, NULL, 0 },
};

/* soc_id of the common section. */
static const char *const soc_names[] = { "Kunpeng 916", "Kunpeng 920", "Kunpeng 930" };

static const struct hisi_module *find_module(const struct hisi_module *t, size_t n, unsigned id)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].id == id)
			return &t[i];
	return NULL;
}

/* Module and sub-module names, the module's words first in detail, its part class. */
static void set_module(struct cper_vendor *v, const struct hisi_module *m, unsigned id,
		       int sub_valid, unsigned sub)
{
	if (!m) {
		snprintf(v->module, sizeof(v->module), "module %u", id);
		cper_vendor_detail(v, "module %u error", id);
		return;
	}
	snprintf(v->module, sizeof(v->module), "%s", m->name);
	cper_vendor_detail(v, "%s error", m->words ? m->words : m->name);
	if (m->part_class)
		snprintf(v->part_class, sizeof(v->part_class), "%s", m->part_class);
	if (!sub_valid)
		return;
	v->instance = sub;
	if (m->sub && sub < m->n_sub)
		snprintf(v->sub_module, sizeof(v->sub_module), "%s", m->sub[sub]);
	else
		snprintf(v->sub_module, sizeof(v->sub_module), "%u", sub);
}

/* Bytes 0-11 of both HIP08 OEM sections: val_bits, version, ids, severity. */
static void oem_header(const uint8_t *p, struct cper_vendor *v, const struct hisi_module *mods,
		       size_t n_mods)
{
	uint32_t valid = ou_le32(p);

	snprintf(v->vendor, sizeof(v->vendor), "HiSilicon");
	snprintf(v->platform, sizeof(v->platform), "Kunpeng 920");
	cper_vendor_reg(v, "version", p[4]);
	if (valid & (1u << 0))
		cper_vendor_reg(v, "SOC_ID", p[5]);
	if (valid & (1u << 1))
		v->socket = p[6];
	if (valid & (1u << 2))
		v->die = p[7];
	if (valid & (1u << 3))
		set_module(v, find_module(mods, n_mods, p[8]), p[8], (valid >> 4) & 1, p[9]);
	else
		cper_vendor_detail(v, "error");
	if (valid & (1u << 5))
		snprintf(v->vendor_severity, sizeof(v->vendor_severity), "%s",
			 cper_vendor_hisi_severity(p[10]));
}

#define OEM1_LEN 40
#define OEM2_LEN 60

int cper_hisi_oem1(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	static const char *const misc[] = { "ERR_MISC0", "ERR_MISC1", "ERR_MISC2", "ERR_MISC3",
					    "ERR_MISC4" };
	uint32_t valid;

	snprintf(v->section, sizeof(v->section), "HIP08 OEM type 1");
	if (n < 12)
		return cper_vendor_short(v, n, OEM1_LEN);
	oem_header(p, v, oem1_modules, OU_ARRAY_SIZE(oem1_modules));
	cper_vendor_finish(v, "nimbus");
	if (n < OEM1_LEN)
		return cper_vendor_short(v, n, OEM1_LEN);
	valid = ou_le32(p);
	for (unsigned i = 0; i < 5; i++)
		if (valid & (1u << (6 + i)))
			cper_vendor_reg(v, misc[i], ou_le32(p + 12 + 4 * i));
	if (valid & (1u << 11)) {
		cper_vendor_reg(v, "ERR_ADDR", ou_le64(p + 32));
		cper_vendor_detail(v, "address 0x%llx", (unsigned long long)ou_le64(p + 32));
	}
	return 0;
}

static uint64_t pair64(const uint8_t *p)
{
	return (uint64_t)ou_le32(p) | (uint64_t)ou_le32(p + 4) << 32;
}

int cper_hisi_oem2(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	static const char *const regs[] = { "ERR_FR", "ERR_CTLR", "ERR_STATUS", "ERR_ADDR",
					    "ERR_MISC0", "ERR_MISC1" };
	uint32_t valid;

	snprintf(v->section, sizeof(v->section), "HIP08 OEM type 2");
	if (n < 12)
		return cper_vendor_short(v, n, OEM2_LEN);
	oem_header(p, v, oem2_modules, OU_ARRAY_SIZE(oem2_modules));
	cper_vendor_finish(v, "nimbus");
	if (n < OEM2_LEN)
		return cper_vendor_short(v, n, OEM2_LEN);
	valid = ou_le32(p);
	/* Each register as its low then high 32 bits, from byte 12. */
	for (unsigned i = 0; i < 6; i++)
		if (valid & (1u << (6 + i)))
			cper_vendor_reg(v, regs[i], pair64(p + 12 + 8 * i));
	if (valid & (1u << 8))
		cper_vendor_armras_status(v, pair64(p + 28));
	/* ERR<n>ADDR[55:0], when STATUS.AV says it is valid. */
	if ((valid & (1u << 9)) && (valid & (1u << 8)) && (pair64(p + 28) & (1u << 31)))
		cper_vendor_detail(v, "address 0x%llx",
				   (unsigned long long)(pair64(p + 36) & 0x00ffffffffffffffULL));
	return 0;
}

#define PCIE_LOCAL_LEN 152

/* PCIe local sub-modules: the layers of a PCIe port. */
static const char *const pcie_layers[] = {
	"AP layer", "transaction layer", "MAC layer", "data link layer", "SDI layer",
};

int cper_hisi_pcie_local(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	uint64_t valid;
	char name[16];

	snprintf(v->section, sizeof(v->section), "HIP08 PCIe local");
	snprintf(v->vendor, sizeof(v->vendor), "HiSilicon");
	snprintf(v->platform, sizeof(v->platform), "Kunpeng 920");
	snprintf(v->module, sizeof(v->module), "PCIe local");
	if (n < 20)
		return cper_vendor_short(v, n, PCIE_LOCAL_LEN);
	valid = ou_le64(p);
	if (valid & (1u << 0))
		cper_vendor_reg(v, "version", p[8]);
	if (valid & (1u << 1))
		cper_vendor_reg(v, "SOC_ID", p[9]);
	if (valid & (1u << 2))
		v->socket = p[10];
	if (valid & (1u << 3))
		v->die = p[11];
	if (valid & (1u << 4)) {
		v->instance = p[12];
		snprintf(v->sub_module, sizeof(v->sub_module), "%s",
			 p[12] < OU_ARRAY_SIZE(pcie_layers) ? pcie_layers[p[12]] : "unknown layer");
	}
	if (valid & (1u << 5))
		v->core = p[13];
	if (valid & (1u << 6))
		v->port = p[14];
	if (valid & (1u << 8))
		snprintf(v->vendor_severity, sizeof(v->vendor_severity), "%s",
			 cper_vendor_hisi_severity(p[15]));
	if (valid & (1u << 7))
		v->err_type = ou_le16(p + 16);
	cper_vendor_detail(v, "PCIe controller error");
	snprintf(v->part_class, sizeof(v->part_class), "pcie");
	/* The port, not its layer: the layer is in the detail of each error. */
	snprintf(v->part, sizeof(v->part), "HiSilicon socket %lld nimbus %lld PCIe core %lld port %lld",
		 v->socket == RAS_DF_NONE ? -1LL : (long long)v->socket,
		 v->die == RAS_DF_NONE ? -1LL : (long long)v->die,
		 v->core == RAS_DF_NONE ? -1LL : (long long)v->core,
		 v->port == RAS_DF_NONE ? -1LL : (long long)v->port);
	cper_vendor_finish(v, "nimbus");
	if (n < PCIE_LOCAL_LEN)
		return cper_vendor_short(v, n, PCIE_LOCAL_LEN);
	for (unsigned i = 0; i < 33; i++) {
		if (!(valid & (1ULL << (9 + i))))
			continue;
		snprintf(name, sizeof(name), "ERR_MISC_%u", i);
		cper_vendor_reg(v, name, ou_le32(p + 20 + 4 * i));
	}
	return 0;
}

#define COMMON_LEN 32

/* Bytes 16-23 of the common section: function, device, segment (16 bits), bus. */
static void common_pcie(const uint8_t *p, struct cper_vendor *v)
{
	snprintf(v->pci_dev, sizeof(v->pci_dev), "%04x:%02x:%02x.%x", ou_le16(p + 18), p[20],
		 p[17] & 0x1f, p[16] & 7);
}

/* The ids; returns the die the location names: the compute die (totem) over the I/O die. */
static const char *common_ids(const uint8_t *p, uint32_t valid, struct cper_vendor *v)
{
	const char *die_name = "nimbus";
	const struct hisi_module *m;

	snprintf(v->vendor, sizeof(v->vendor), "HiSilicon");
	snprintf(v->platform, sizeof(v->platform), "%s", (valid & 1) && p[5] < OU_ARRAY_SIZE(soc_names) ?
		 soc_names[p[5]] : "Kunpeng");
	cper_vendor_reg(v, "version", p[4]);
	if (valid & (1u << 1))
		v->socket = p[6];
	if (valid & (1u << 3)) {
		v->die = p[8];
		cper_vendor_reg(v, "nimbus", p[8]);
	}
	if (valid & (1u << 2)) {
		v->die = p[7];
		die_name = "totem";
		cper_vendor_reg(v, "totem", p[7]);
	}
	if (valid & (1u << 4))
		cper_vendor_reg(v, "subsystem", p[9]);
	if (valid & (1u << 5)) {
		m = find_module(common_modules, OU_ARRAY_SIZE(common_modules), p[10]);
		set_module(v, m, p[10], (valid >> 6) & 1, p[11]);
	} else {
		cper_vendor_detail(v, "error");
	}
	if (valid & (1u << 7))
		v->core = p[12];
	if (valid & (1u << 8))
		v->port = p[13];
	if (valid & (1u << 9))
		v->err_type = ou_le16(p + 14);
	if (valid & (1u << 10))
		common_pcie(p, v);
	if (valid & (1u << 11))
		snprintf(v->vendor_severity, sizeof(v->vendor_severity), "%s",
			 cper_vendor_hisi_severity(p[24]));
	return die_name;
}

int cper_hisi_common(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	uint32_t valid, size;
	char name[16];

	snprintf(v->section, sizeof(v->section), "common");
	snprintf(v->vendor, sizeof(v->vendor), "HiSilicon");
	if (n < COMMON_LEN)
		return cper_vendor_short(v, n, COMMON_LEN);
	valid = ou_le32(p);
	cper_vendor_finish(v, common_ids(p, valid, v));
	if (!(valid & (1u << 12)))
		return 0;
	/* reg_array_size counts bytes of 32-bit registers. */
	size = ou_le32(p + 28);
	for (uint32_t i = 0; i < size / 4; i++) {
		if (COMMON_LEN + 4 * (size_t)i + 4 > n)
			return cper_vendor_short(v, n, COMMON_LEN + (size_t)size);
		snprintf(name, sizeof(name), "reg%02u", (unsigned)i);
		cper_vendor_reg(v, name, ou_le32(p + COMMON_LEN + 4 * i));
	}
	return 0;
}

/* ---- names back to numbers, for rasdaemon's tables (cper_rebuild.c) ---- */

static const struct hisi_module *module_table(unsigned section, size_t *n)
{
	if (section == 1) {
		*n = OU_ARRAY_SIZE(oem1_modules);
		return oem1_modules;
	}
	if (section == 2) {
		*n = OU_ARRAY_SIZE(oem2_modules);
		return oem2_modules;
	}
	*n = OU_ARRAY_SIZE(common_modules);
	return common_modules;
}

int cper_hisi_module_id(unsigned section, const char *name)
{
	size_t n;
	const struct hisi_module *t = module_table(section, &n);

	for (size_t i = 0; name && i < n; i++)
		if (!strcasecmp(t[i].name, name))
			return t[i].id;
	return -1;
}

int cper_hisi_sub_id(unsigned section, unsigned module, const char *name)
{
	size_t n;
	const struct hisi_module *t = module_table(section, &n), *m = find_module(t, n, module);

	for (unsigned i = 0; name && m && m->sub && i < m->n_sub; i++)
		if (!strcasecmp(m->sub[i], name))
			return (int)i;
	return -1;
}
