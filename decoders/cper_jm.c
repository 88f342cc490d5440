/* SPDX-License-Identifier: MIT */
/*
 * JaguarMicro Corsica DPU error sections, one GUID per payload type:
 *   0 82d78ba3-fa14-407a-ba0e-f3ba8170013c  RAS CSR (15 x u32)
 *   1 f9723053-2558-49b1-b58a-1c1a82492a62  SMMU (5 x u32)
 *   2 2d31de54-3037-4f24-a283-f69ca1ec0b9a  HAC SRAM ECC (4 x u32)
 *   5 dac80d69-0a72-4eba-8114-148ee344af06  CMN (14 x u64)
 *   6 746f06fe-405e-451f-8d09-02e802ed984a  GIC (8 x u64)
 * Layouts as JaguarMicro published them with rasdaemon
 * (non-standard-jaguarmicro.h/.c): a 16-byte common head (val_bits u32,
 * version, soc, subsystem, module, sub-module and device ids, err_type u16
 * at 10, err_severity at 12), the payload's registers from byte 16, then
 * reg_array_size (a count of u32) and that many extra registers. The
 * subsystem, module and sub-module numbering is theirs; words ours. The
 * *_STATUS registers are Armv8 RAS ERR<n>STATUS (cper_vendor_armras_status).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "cper_vendor.h"
#include "other_util.h"

#define JM_HEAD_LEN 16

enum { JM_AP, JM_CMN, JM_DDRH, JM_DDRV, JM_GIC, JM_IOSUB, JM_SCP, JM_MCP, JM_IMU0, JM_DPE,
       JM_RPE, JM_PSUB, JM_HAC, JM_TCM, JM_IMU1 };

static const char *const subsystems[] = {
	"AP", "CMN", "DDRH", "DDRV", "GIC", "IOSUB", "SCP", "MCP", "IMU0", "DPE", "RPE", "PSUB",
	"HAC", "TCM", "IMU1",
};

static const char *const ap_mods[] = { "CORE" };
static const char *const cmn_mods[] = { "MXP", "HNI", "HNF", "SBSX", "CCG", "HND" };
static const char *const ddr_mods[] = { "DDRCtrl", "DDRPHY", "SRAM" };
static const char *const gic_mods[] = { "GICIP", "GICSRAM" };
static const char *const iosub_mods[] = { "SMMU", "NIC450", "OTHER" };
static const char *const scp_mods[] = { "SRAM", "WDT", "PLL" };
static const char *const sram_wdt[] = { "SRAM", "WDT" };
static const char *const dpe_mods[] = {
	"EPG", "PIPE", "EMEP", "IMEP", "EPAE", "IPAE", "ETH", "TPG", "MIG", "HIG", "DPETOP", "SMMU",
};
static const char *const rpe_mods[] = { "TOP", "TXP_RXP", "SMMU" };
static const char *const psub_mods[] = {
	"PCIE0", "UP_MIX", "PCIE1", "PTOP", "N2IF", "VPE0_RAS", "VPE1_RAS", "X2RC_SMMU",
	"X16RC_SMMU", "SDMA_SMMU",
};
static const char *const hac_mods[] = { "SRAM", "SMMU" };
static const char *const tcm_mods[] = { "SRAM", "SMMU", "IP" };

static const struct { const char *const *names; unsigned n; } modules[] = {
	[JM_AP] = { ap_mods, 1 }, [JM_CMN] = { cmn_mods, 6 }, [JM_DDRH] = { ddr_mods, 3 },
	[JM_DDRV] = { ddr_mods, 3 }, [JM_GIC] = { gic_mods, 2 }, [JM_IOSUB] = { iosub_mods, 3 },
	[JM_SCP] = { scp_mods, 3 }, [JM_MCP] = { sram_wdt, 2 }, [JM_IMU0] = { sram_wdt, 2 },
	[JM_DPE] = { dpe_mods, 12 }, [JM_RPE] = { rpe_mods, 3 }, [JM_PSUB] = { psub_mods, 10 },
	[JM_HAC] = { hac_mods, 2 }, [JM_TCM] = { tcm_mods, 3 }, [JM_IMU1] = { sram_wdt, 2 },
};

/* Sub-modules: an SMMU's translation units, the IOSUB RAM, PCIE0's two RAS nodes. */
static const char *submodule(unsigned subsys, unsigned mod, unsigned sub)
{
	static const char *const smmu[] = { "TCU", "TBU" }, *const iosub_smmu[] = { "TBU", "TCU" };
	static const char *const pcie0[] = { "RAS0", "RAS1" };
	const char *const *t = NULL;

	if (subsys == JM_IOSUB && mod == 0)
		t = iosub_smmu;
	else if (subsys == JM_IOSUB && mod == 2)
		return sub == 0 ? "RAM" : NULL;
	else if (subsys == JM_PSUB && mod == 0)
		t = pcie0;
	else if ((subsys == JM_DPE && mod == 11) || (subsys == JM_RPE && mod == 2) ||
		 (subsys == JM_PSUB && mod >= 7) || (subsys == JM_TCM && mod == 1))
		t = smmu;
	return t && sub < 2 ? t[sub] : NULL;
}

/* The device id names a core, a DDR channel or a mesh node. */
static const char *device_word(unsigned subsys)
{
	if (subsys == JM_AP)
		return "core";
	if (subsys == JM_DDRH || subsys == JM_DDRV)
		return "channel";
	return subsys == JM_CMN ? "node" : "device";
}

static void jm_names(const uint8_t *p, uint32_t valid, struct cper_vendor *v)
{
	unsigned subsys = p[6], mod = p[7];
	const char *s;

	if (valid & (1u << 2))
		snprintf(v->module, sizeof(v->module), "%s",
			 subsys < OU_ARRAY_SIZE(subsystems) ? subsystems[subsys] : "subsystem ?");
	if ((valid & (1u << 3)) && subsys < OU_ARRAY_SIZE(modules))
		ou_appendf(v->module, sizeof(v->module), "%s%s", v->module[0] ? " " : "",
			   mod < modules[subsys].n ? modules[subsys].names[mod] : "module ?");
	cper_vendor_detail(v, "%s%serror", v->module, v->module[0] ? " " : "");
	if ((valid & (1u << 4)) && (s = submodule(subsys, mod, p[8])))
		snprintf(v->sub_module, sizeof(v->sub_module), "%s", s);
	if (valid & (1u << 5)) {
		v->instance = p[9];
		ou_appendf(v->sub_module, sizeof(v->sub_module), "%s%s %u", v->sub_module[0] ? " " : "",
			   device_word(subsys), p[9]);
	}
	if ((subsys == JM_DDRH || subsys == JM_DDRV) && mod <= 1)
		snprintf(v->part_class, sizeof(v->part_class), "memory");
	else if (subsys == JM_PSUB && (mod == 0 || mod == 2))
		snprintf(v->part_class, sizeof(v->part_class), "pcie");
}

static void jm_head(const uint8_t *p, struct cper_vendor *v)
{
	uint32_t valid = ou_le32(p);

	if (valid & (1u << 0))
		cper_vendor_reg(v, "version", p[4]);
	if (valid & (1u << 1))
		snprintf(v->platform, sizeof(v->platform), "%s", p[5] == 0 ? "Corsica 1.0" : "Corsica");
	jm_names(p, valid, v);
	if (valid & (1u << 6))
		v->err_type = ou_le16(p + 10);
	if (valid & (1u << 7))
		snprintf(v->vendor_severity, sizeof(v->vendor_severity), "%s",
			 cper_vendor_hisi_severity(p[12]));
}

/* The extra registers after a payload: reg_array_size counts 32-bit registers. */
static int jm_tail(const uint8_t *p, size_t n, size_t at, struct cper_vendor *v)
{
	uint32_t count;
	char name[16];

	if (!(ou_le32(p) & (1u << 11)))
		return 0;
	if (n < at + 4)
		return cper_vendor_short(v, n, at + 4);
	count = ou_le32(p + at);
	for (uint32_t i = 0; i < count; i++) {
		if (at + 4 + 4 * (size_t)i + 4 > n)
			return cper_vendor_short(v, n, at + 4 + 4 * (size_t)count);
		snprintf(name, sizeof(name), "reg%02u", (unsigned)i);
		cper_vendor_reg(v, name, ou_le32(p + at + 4 + 4 * (size_t)i));
	}
	return 0;
}

/* A payload: head, then registers of width 4 or 8 named by names, then the tail. */
static int jm_payload(const uint8_t *p, size_t n, struct cper_vendor *v, unsigned type,
		      const char *const *names, unsigned count, unsigned width, int status_reg)
{
	size_t len = JM_HEAD_LEN + (size_t)count * width;

	snprintf(v->vendor, sizeof(v->vendor), "JaguarMicro");
	snprintf(v->platform, sizeof(v->platform), "Corsica");
	snprintf(v->section, sizeof(v->section), "payload type %u", type);
	if (n < JM_HEAD_LEN)
		return cper_vendor_short(v, n, len);
	jm_head(p, v);
	cper_vendor_finish(v, NULL);
	if (n < len)
		return cper_vendor_short(v, n, len);
	for (unsigned i = 0; i < count; i++)
		cper_vendor_reg(v, names[i], width == 8 ? ou_le64(p + JM_HEAD_LEN + 8 * i)
							 : ou_le32(p + JM_HEAD_LEN + 4 * i));
	if (status_reg >= 0)
		cper_vendor_armras_status(v, width == 8 ? ou_le64(p + JM_HEAD_LEN + 8 * status_reg)
							: ou_le32(p + JM_HEAD_LEN + 4 * status_reg));
	return jm_tail(p, n, len, v);
}

int cper_jm_payload0(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	static const char *const names[] = {
		"LOCK_CONTROL", "LOCK_FUNCTION", "CFG_RAM_ID", "ERR_FR_LOW32", "ERR_FR_HIGH32",
		"ERR_CTLR_LOW32", "ECC_STATUS_LOW32", "ECC_ADDR_LOW32", "ECC_ADDR_HIGH32",
		"ECC_MISC0_LOW32", "ECC_MISC0_HIGH32", "ECC_MISC1_LOW32", "ECC_MISC1_HIGH32",
		"ECC_MISC2_LOW32", "ECC_MISC2_HIGH32",
	};

	return jm_payload(p, n, v, 0, names, 15, 4, 6);
}

int cper_jm_payload1(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	static const char *const names[] = {
		"CSR_INT_STATUS", "ERR_FR", "ERR_CTLR", "ERR_STATUS", "ERR_GEN",
	};

	return jm_payload(p, n, v, 1, names, 5, 4, 3);
}

int cper_jm_payload2(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	static const char *const names[] = {
		"ECC_1BIT_INFO_LOW32", "ECC_1BIT_INFO_HIGH32", "ECC_2BIT_INFO_LOW32",
		"ECC_2BIT_INFO_HIGH32",
	};
	int r = jm_payload(p, n, v, 2, names, 4, 4, -1);

	if (r == 0 && (ou_le32(p + 24) || ou_le32(p + 28)))
		cper_vendor_detail(v, "double-bit SRAM ECC error");
	else if (r == 0 && (ou_le32(p + 16) || ou_le32(p + 20)))
		cper_vendor_detail(v, "single-bit SRAM ECC error");
	return r;
}

int cper_jm_payload5(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	static const char *const names[] = {
		"CFGM_MXP_0", "CFGM_HNF_0", "CFGM_HNI_0", "CFGM_SBSX_0", "ERR_FR_NS", "ERR_CTLR_NS",
		"ERR_STATUS_NS", "ERR_ADDR_NS", "ERR_MISC_NS", "ERR_FR", "ERR_CTLR", "ERR_STATUS",
		"ERR_ADDR", "ERR_MISC",
	};
	/* The secure record when it holds an error, else the non-secure one. */
	int status = n >= JM_HEAD_LEN + 14 * 8 && (ou_le64(p + JM_HEAD_LEN + 8 * 11) & (1u << 30))
		     ? 11 : 6;

	return jm_payload(p, n, v, 5, names, 14, 8, status);
}

int cper_jm_payload6(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	static const char *const names[] = {
		"RECORD_ID", "GICT_ERR_FR", "GICT_ERR_CTLR", "GICT_ERR_STATUS", "GICT_ERR_ADDR",
		"GICT_ERR_MISC0", "GICT_ERR_MISC1", "GICT_ERRGSR",
	};

	return jm_payload(p, n, v, 6, names, 8, 8, 3);
}

/* ---- names back to numbers, for rasdaemon's table (cper_rebuild.c) ---- */

int cper_jm_ids(const char *subsys, const char *module, const char *sub, uint8_t ids[3])
{
	int found = 0;

	for (unsigned s = 0; subsys && s < OU_ARRAY_SIZE(subsystems); s++) {
		if (strcasecmp(subsys, subsystems[s]))
			continue;
		ids[0] = (uint8_t)s;
		found |= 1;
		for (unsigned m = 0; module && m < modules[s].n; m++) {
			if (strcasecmp(module, modules[s].names[m]))
				continue;
			ids[1] = (uint8_t)m;
			found |= 2;
			for (unsigned i = 0; sub && i < 2; i++) {
				const char *name = submodule(s, m, i);

				if (name && !strcasecmp(name, sub)) {
					ids[2] = (uint8_t)i;
					found |= 4;
				}
			}
		}
		break;
	}
	return found;
}
