/* SPDX-License-Identifier: MIT */
/*
 * Ampere Altra and Altra Max error section e8ed898d-df16-43cc-8ecc-54f060ef157f,
 * and the same record in the vendor data of an ARM Processor Error Section.
 * Layout as Ampere published it with rasdaemon (non-standard-ampere.h/.c):
 * a 4-byte header (byte 0: payload type in bits 7:6, error type in bits
 * 5:0; byte 1: sub-type; u16 at 2: socket in bits 15:14, instance in bits
 * 13:0) and a 44-byte payload, 48 bytes in all:
 *   0 Armv8 RAS error record: ERR<n>STATUS[31:0] u32 at 4, ADDR u64 at 8,
 *     MISC0-3 u64 at 16, 24, 32, 40
 *   1 PCIe AER: uncorrectable status, mask, severity, correctable status,
 *     mask, root error command, root status, source id (u32 from 4)
 *   2 PCIe RAS data path: CE report, location, address, UE report,
 *     location, address (u32 from 4)
 *   3 firmware data: u32 at 4, u64 at 8, 16, 24, 32, 40
 * Error types and sub-types numbered as theirs; the words ours.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "aer.h"
#include "cper_vendor.h"
#include "other_util.h"

#define AMPERE_LEN 48

enum { AMP_CPM = 0, AMP_MCU = 1, AMP_SMMU = 6, AMP_PCIE_AER = 7, AMP_PCIE_RASDP = 8, AMP_BERT = 63 };

static const char *const cpm_sub[] = { "snoop logic", "core 0", "core 1" };
static const char *const mcu_sub[] = { "ERR0", "ERR1", "ERR2", "ERR3", "ERR4", "ERR5", "ERR6",
				       "link error" };
static const char *const mesh_sub[] = { "cross point", "home node (I/O)", "home node (memory)",
					"CCIX node" };
static const char *const err0_3[] = { "ERR0", "ERR1", "ERR2", "ERR3" };
static const char *const gic_sub[] = {
	"ERR0", "ERR1", "ERR2", "ERR3", "ERR4", "ERR5", "ERR6", "ERR7", "ERR8", "ERR9", "ERR10",
	"ERR11", "ERR12", "ITS 0", "ITS 1", "ITS 2", "ITS 3", "ITS 4", "ITS 5", "ITS 6", "ITS 7",
};
static const char *const aer_sub[] = { "root port", "device" };
static const char *const pro_sub[] = { "ERR0", "ERR1", "MPA error" };
static const char *const atf_sub[] = { "EL3", "SPM", "secure partition" };
static const char *const fw_sub[] = { "RAS message error" };
static const char *const bert_sub[] = { "default", "watchdog", "ATF fatal", "SMpro fatal",
					"PMpro fatal" };

static const struct {
	uint8_t id;
	const char *name, *words, *part_class;
	const char *const *sub;
	uint8_t n_sub;
} types[] = {
	{ AMP_CPM, "CPM", "processor module", NULL, cpm_sub, 3 },
	{ AMP_MCU, "MCU", "memory controller", "memory", mcu_sub, 8 },
	{ 2, "mesh", "coherent mesh", NULL, mesh_sub, 4 },
	{ 3, "2P link", "socket-to-socket link (Altra)", NULL, NULL, 0 },
	{ 4, "2P link", "socket-to-socket link (Altra Max)", NULL, err0_3, 4 },
	{ 5, "GIC", "interrupt controller", NULL, gic_sub, 21 },
	{ AMP_SMMU, "SMMU", "I/O MMU", NULL, NULL, 0 },
	{ AMP_PCIE_AER, "PCIe AER", "PCIe port", "pcie", aer_sub, 2 },
	{ AMP_PCIE_RASDP, "PCIe RASDP", "PCIe controller data path", "pcie", NULL, 0 },
	{ 9, "OCM", "on-chip memory", NULL, err0_3, 3 },
	{ 10, "SMpro", "system management processor", NULL, pro_sub, 3 },
	{ 11, "PMpro", "power management processor", NULL, pro_sub, 3 },
	{ 12, "ATF FW", "trusted firmware", NULL, atf_sub, 3 },
	{ 13, "SMpro FW", "system management firmware", NULL, fw_sub, 1 },
	{ 14, "PMpro FW", "power management firmware", NULL, fw_sub, 1 },
	{ AMP_BERT, "BERT", "boot error record", NULL, bert_sub, 5 },
};

static void subtype(struct cper_vendor *v, unsigned type, unsigned sub, size_t t)
{
	if (type == AMP_SMMU && sub <= 9)
		snprintf(v->sub_module, sizeof(v->sub_module), "TBU%u", sub);
	else if (type == AMP_SMMU && sub == 0x64)
		snprintf(v->sub_module, sizeof(v->sub_module), "TCU");
	else if (type == AMP_PCIE_RASDP && (sub == 0 || sub == 1 || sub == 8))
		snprintf(v->sub_module, sizeof(v->sub_module), "%s",
			 sub == 8 ? "RAS data path" : sub ? "RCB HB" : "RCA HB");
	else if (t < OU_ARRAY_SIZE(types) && types[t].sub && sub < types[t].n_sub)
		snprintf(v->sub_module, sizeof(v->sub_module), "%s", types[t].sub[sub]);
	else
		snprintf(v->sub_module, sizeof(v->sub_module), "sub-type %u", sub);
}

/* Error type, sub-type, socket and instance; the part is the instance, not its sub-record. */
static void header(const uint8_t *p, struct cper_vendor *v)
{
	unsigned type = p[0] & 0x3f, sub = p[1], inst = ou_le16(p + 2) & 0x3fff;
	size_t t = 0;

	while (t < OU_ARRAY_SIZE(types) && types[t].id != type)
		t++;
	v->err_type = type;
	v->socket = ou_le16(p + 2) >> 14;
	v->instance = inst;
	if (t < OU_ARRAY_SIZE(types)) {
		snprintf(v->module, sizeof(v->module), "%s %u", types[t].name, inst);
		cper_vendor_detail(v, "%s error", types[t].words);
		if (types[t].part_class)
			snprintf(v->part_class, sizeof(v->part_class), "%s", types[t].part_class);
	} else {
		snprintf(v->module, sizeof(v->module), "error type %u, instance %u", type, inst);
		cper_vendor_detail(v, "error of type %u", type);
	}
	subtype(v, type, sub, t);
	/* A CPM's instance is a pair of cores: sub-types 1 and 2 name one. */
	if (type == AMP_CPM && (sub == 1 || sub == 2)) {
		v->core = inst * 2 + sub - 1;
		v->sub_module[0] = '\0';
	}
	if (v->part_class[0])
		snprintf(v->part, sizeof(v->part), "Ampere Altra socket %lld, %s", (long long)v->socket,
			 v->module);
	cper_vendor_finish(v, NULL);
}

static void payload0(const uint8_t *p, struct cper_vendor *v)
{
	static const char *const misc[] = { "ERR_MISC0", "ERR_MISC1", "ERR_MISC2", "ERR_MISC3" };
	uint32_t status = ou_le32(p + 4);

	cper_vendor_reg(v, "ERR_STATUS", status);
	cper_vendor_reg(v, "ERR_ADDR", ou_le64(p + 8));
	for (unsigned i = 0; i < 4; i++)
		cper_vendor_reg(v, misc[i], ou_le64(p + 16 + 8 * i));
	cper_vendor_armras_status(v, status);
	if (status & (1u << 31))
		cper_vendor_detail(v, "address 0x%llx",
				   (unsigned long long)(ou_le64(p + 8) & 0x00ffffffffffffffULL));
}

static void payload1(const uint8_t *p, struct cper_vendor *v)
{
	static const char *const names[] = {
		"AER_UNCORR_ERR_STATUS", "AER_UNCORR_ERR_MASK", "AER_UNCORR_ERR_SEV",
		"AER_CORR_ERR_STATUS", "AER_CORR_ERR_MASK", "AER_ROOT_ERR_CMD",
		"AER_ROOT_ERR_STATUS", "AER_ERR_SRC_ID",
	};
	char bits[128];

	for (unsigned i = 0; i < 8; i++)
		cper_vendor_reg(v, names[i], ou_le32(p + 4 + 4 * i));
	if (ou_le32(p + 4) && aer_decode_status(ou_le32(p + 4), 0, bits, sizeof(bits)) == 0)
		cper_vendor_detail(v, "uncorrectable: %s", bits);
	if (ou_le32(p + 16) && aer_decode_status(ou_le32(p + 16), 1, bits, sizeof(bits)) == 0)
		cper_vendor_detail(v, "correctable: %s", bits);
}

static void payload2(const uint8_t *p, struct cper_vendor *v)
{
	static const char *const names[] = {
		"CE_REPORT", "CE_LOCATION", "CE_ADDR", "UE_REPORT", "UE_LOCATION", "UE_ADDR",
	};

	for (unsigned i = 0; i < 6; i++)
		cper_vendor_reg(v, names[i], ou_le32(p + 4 + 4 * i));
}

static void payload3(const uint8_t *p, struct cper_vendor *v)
{
	char name[24];

	cper_vendor_reg(v, "FW_DATA0", ou_le32(p + 4));
	for (unsigned i = 1; i <= 5; i++) {
		snprintf(name, sizeof(name), "FW_DATA%u", i);
		cper_vendor_reg(v, name, ou_le64(p + 8 * i));
	}
}

int cper_ampere(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	snprintf(v->vendor, sizeof(v->vendor), "Ampere");
	snprintf(v->platform, sizeof(v->platform), "Altra");
	if (n < 4)
		return cper_vendor_short(v, n, AMPERE_LEN);
	snprintf(v->section, sizeof(v->section), "payload type %u", p[0] >> 6);
	header(p, v);
	if (n < AMPERE_LEN)
		return cper_vendor_short(v, n, AMPERE_LEN);
	switch (p[0] >> 6) {
	case 0: payload0(p, v); break;
	case 1: payload1(p, v); break;
	case 2: payload2(p, v); break;
	default: payload3(p, v); break;
	}
	return 0;
}

/*
 * JEP106 bank 11 (continuation code 0x0a), identity 0x16 is Ampere Computing;
 * SoC 0001 the Altra family (Altra and Altra Max report the same id).
 */
int cper_vendor_arm_oem(const char *soc_id, const uint8_t *p, size_t n, struct cper_vendor *v)
{
	static const char altra[] = "jep106:0a16:0001";

	if (!soc_id || strncmp(soc_id, altra, sizeof(altra) - 1) || !p || !n)
		return -ENOTSUP;
	return cper_ampere(p, n, v);
}
