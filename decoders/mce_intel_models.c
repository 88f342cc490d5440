/* SPDX-License-Identifier: MIT */
/*
 * Intel per-model layer: which CPU model uses which bank layout, bank names,
 * memory controller / channel / DIMM location, and model-specific codes.
 *
 * Bank layouts: Intel SDM Vol. 3B chapter "Interpreting Machine Check Error
 * Codes" (17 in 2023+ editions, 16 before), the "Incremental Decoding
 * Information" section of each DisplayFamily_DisplayModel signature (bank
 * ranges named in the table titles, e.g. "IA32_MCi_STATUS (i = 13-18)").
 * Memory location: same SDM sections, and Linux drivers/edac/i10nm_base.c
 * (i10nm_mc_decode) for the Ice Lake / Sapphire Rapids MISC rank fields.
 */
#include <stdio.h>
#include <string.h>
#include "mce_intel_models.h"

static void add_model_text(struct mce_decoded *out, const char *text)
{
	mce_append_item(out->model_text, sizeof(out->model_text), "; ", text);
}

static bool is_memory_error(const struct mce_decoded *out)
{
	return out->error_class[0] == 'm'; /* "memory" */
}

/* SDM 06_1AH "Intel IMC MC Error Codes for IA32_MC8_MISC": [17:16] DIMM, [19:18] channel. */
static void misc_nhm_memory(const struct mce_in *in, struct mce_decoded *out)
{
	if (!is_memory_error(out) || !(in->status & MCI_STATUS_MISCV))
		return;
	out->channel = (int64_t)mce_bits(in->misc, 18, 19);
	out->dimm = (int64_t)mce_bits(in->misc, 16, 17);
}

/* SDM 06_2DH "Intel IMC MC Error Codes for IA32_MCi_MISC (i = 8-11)": failing rank [50:46], valid [62]. */
static void misc_snb_imc(const struct mce_in *in, struct mce_decoded *out)
{
	if (!is_memory_error(out) || !(in->status & MCI_STATUS_MISCV) || !mce_bits(in->misc, 62, 62))
		return;
	out->rank = (int64_t)mce_bits(in->misc, 46, 50);
}

/* Home agent MISC mirroring outcome, Haswell-EP/Broadwell-EP (SDM HA MISC table; mcelog bdw_mirror inputs). */
static void misc_hsx_mirror(const struct mce_in *in, struct mce_decoded *out)
{
	if (!(in->status & MCI_STATUS_MISCV))
		return;
	if (mce_bits(in->misc, 41, 41))
		mce_append_lit(out->model_text, sizeof(out->model_text), "; ",
			       "corrected by mirroring with channel failover");
	if (mce_bits(in->misc, 42, 42))
		mce_append_lit(out->model_text, sizeof(out->model_text), "; ",
			       "corrected by mirroring, primary channel scrubbed");
}

/* M2M MISC mirroring outcome, Skylake-SP and Ice Lake-SP: [63] failover, [62] scrubbed. */
static void misc_skx_mirror(const struct mce_in *in, struct mce_decoded *out)
{
	if (!(in->status & MCI_STATUS_MISCV))
		return;
	if (mce_bits(in->misc, 63, 63))
		mce_append_lit(out->model_text, sizeof(out->model_text), "; ",
			       "corrected by mirroring with channel failover");
	if (mce_bits(in->misc, 62, 62))
		mce_append_lit(out->model_text, sizeof(out->model_text), "; ",
			       "corrected by mirroring, primary channel scrubbed");
}

#define MISC_ECC_MODE_DDRT 8 /* MISC[62:59]: DDR-T (persistent memory), rank fields differ */

/* Ice Lake-SP IMC MISC: [58:56] rank (DIMM = rank / 4), unless ECC mode is DDR-T. */
static void misc_icx_imc(const struct mce_in *in, struct mce_decoded *out)
{
	uint64_t r;

	if (!is_memory_error(out) || !(in->status & MCI_STATUS_MISCV) ||
	    mce_bits(in->misc, 59, 62) == MISC_ECC_MODE_DDRT)
		return;
	r = mce_bits(in->misc, 56, 58);
	out->dimm = (int64_t)(r >> 2);
	out->rank = (int64_t)(r & 3);
}

/* Sapphire Rapids IMC MISC: [57] rank, [58] DIMM, unless ECC mode is DDR-T. */
static void misc_spr_imc(const struct mce_in *in, struct mce_decoded *out)
{
	if (!is_memory_error(out) || !(in->status & MCI_STATUS_MISCV) ||
	    mce_bits(in->misc, 59, 62) == MISC_ECC_MODE_DDRT)
		return;
	out->rank = (int64_t)mce_bits(in->misc, 57, 57);
	out->dimm = (int64_t)mce_bits(in->misc, 58, 58);
}

/* Granite Rapids MCCHAN MISC, valid with MISCV and STATUS[33]; [57:55] chip select. */
static void misc_gnr_mcchan(const struct mce_in *in, struct mce_decoded *out)
{
	uint64_t mscod = mce_bits(in->status, 16, 31);

	if (!(in->status & MCI_STATUS_MISCV) || !mce_bits(in->status, 33, 33) ||
	    (mscod >= 0x800 && mscod <= 0x82f))
		return;
	out->chip_select = (int64_t)mce_bits(in->misc, 55, 57);
}

/* Diamond Rapids MCCHAN MISC, valid with MISCV and STATUS[33], MSCOD below 0x800; [56:55] chip select. */
static void misc_dmr_mcchan(const struct mce_in *in, struct mce_decoded *out)
{
	if (!(in->status & MCI_STATUS_MISCV) || !mce_bits(in->status, 33, 33) ||
	    mce_bits(in->status, 16, 31) >= 0x800)
		return;
	out->chip_select = (int64_t)mce_bits(in->misc, 55, 56);
}

/*
 * SDM 06_55H and 06_56H "Machine Check Error Codes for IA32_MC4_STATUS": on
 * an IERR caused by a core 3-strike, the MLC's IA32_MC3_STATUS is copied to
 * IA32_MC4_STATUS. The PCU itself logs internal (0000 01xx) codes only, so a
 * cache, TLB or bus code in MC4 is that copy.
 */
static bool is_core_error_class(const struct mce_decoded *out)
{
	return !strcmp(out->error_class, "cache") || !strcmp(out->error_class, "tlb") ||
	       !strcmp(out->error_class, "bus");
}

static void misc_pcu_copied_mlc(const struct mce_in *in, struct mce_decoded *out)
{
	(void)in;
	if (is_core_error_class(out))
		add_model_text(out, "MLC status copied to the PCU bank after a core 3-strike (IERR)");
}

#define PCU_3STRIKE(ms) { 4, 4, "PCU", -1, -1, ms, misc_pcu_copied_mlc, pcu_mcacod_texts }

/* SDM 06_1AH: QPI in IA32_MC0-1, internal errors in MC7, the memory controller in MC8. */
static const struct bank_row nhm_banks[] = {
	BANK(0, 1, "QPI"), BANK(7, 7, "internal"), BANK_MS(8, 8, "IMC", mscod_nhm_imc),
};

/* SDM 06_2DH: MC4 PCU, MC6-7 QPI, MC8-11 IMC channels 0-3. */
static const struct bank_row snb_ep_banks[] = {
	BANK(4, 4, "PCU"), BANK(6, 7, "QPI"),
	MEMBANK(8, "IMC", 0, 0, mscod_snb_ep_imc, misc_snb_imc),
	MEMBANK(9, "IMC", 0, 1, mscod_snb_ep_imc, misc_snb_imc),
	MEMBANK(10, "IMC", 0, 2, mscod_snb_ep_imc, misc_snb_imc),
	MEMBANK(11, "IMC", 0, 3, mscod_snb_ep_imc, misc_snb_imc),
};

/* SDM 06_3EH/06_3FH/06_4FH: MC4 PCU, MC5/20/21 QPI, MC7-8 home agents, MC9-16 IMC channels. */
#define HSX_LIKE_BANKS(imc_ms, qpi_ms, ha_misc, pcu_ms)                                \
	BANK_MS(4, 4, "PCU", pcu_ms), BANK_MS(5, 5, "QPI", qpi_ms), BANK_MS(20, 21, "QPI", qpi_ms), \
	MEMBANK(7, "HA", 0, -1, NULL, ha_misc), MEMBANK(8, "HA", 1, -1, NULL, ha_misc),  \
	MEMBANK(9, "IMC", 0, 0, imc_ms, NULL), MEMBANK(10, "IMC", 0, 1, imc_ms, NULL),   \
	MEMBANK(11, "IMC", 0, 2, imc_ms, NULL), MEMBANK(12, "IMC", 0, 3, imc_ms, NULL),  \
	MEMBANK(13, "IMC", 1, 0, imc_ms, NULL), MEMBANK(14, "IMC", 1, 1, imc_ms, NULL),  \
	MEMBANK(15, "IMC", 1, 2, imc_ms, NULL), MEMBANK(16, "IMC", 1, 3, imc_ms, NULL)

static const struct bank_row ivt_banks[] = { HSX_LIKE_BANKS(mscod_ivt_imc, NULL, NULL, NULL) };
static const struct bank_row hsx_banks[] = { HSX_LIKE_BANKS(mscod_hsx_imc, mscod_hsx_qpi, misc_hsx_mirror, mscod_hsx_pcu) };
static const struct bank_row bdx_banks[] = { HSX_LIKE_BANKS(mscod_bdx_imc, mscod_hsx_qpi, misc_hsx_mirror, mscod_hsx_pcu) };

/*
 * Core (IFU, DCU, DTLB, MLC), IIO and CHA banks of the Xeon Scalable
 * generations 06_55H, 06_6AH/06_6CH and 06_8FH/06_CFH. The SDM Vol. 4 MSR
 * tables name what each bank reports ("Bank MC6 reports MC error from the
 * integrated I/O module", MC9-11 the CHA), but SDM Vol. 3B "Interpreting
 * Machine Check Error Codes" publishes MSCOD tables only for their PCU,
 * interconnect, M2M and IMC banks. These banks get the architectural decode
 * and a plain statement that their MSCOD has no public meaning.
 */
#define BANK_UNPUBLISHED(f, l, n) BANK_MS(f, l, n, mscod_unpublished)
#define XEON_CORE_BANKS                                                      \
	BANK_UNPUBLISHED(0, 0, "IFU"), BANK_UNPUBLISHED(1, 1, "DCU"),        \
	BANK_UNPUBLISHED(2, 2, "DTLB"), BANK_UNPUBLISHED(3, 3, "MLC")

/*
 * SDM 06_55H: MC4 PCU, MC5/12/19 UPI, MC6 IIO, MC7-8 M2M, MC9-11 CHA,
 * MC13-18 IMC. Channel of each IMC bank: 13,14,17 are controller 0
 * channels 0,1,2; 15,16,18 are controller 1 channels 0,1,2.
 */
static const struct bank_row skx_banks[] = {
	XEON_CORE_BANKS, PCU_3STRIKE(mscod_skx_pcu), BANK_MS(5, 5, "UPI", mscod_upi),
	BANK_UNPUBLISHED(6, 6, "IIO"), BANK_UNPUBLISHED(9, 11, "CHA"), BANK_MS(12, 12, "UPI", mscod_upi),
	BANK_MS(19, 19, "UPI", mscod_upi),
	MEMBANK(7, "M2M", 0, -1, mscod_skx_m2m, misc_skx_mirror),
	MEMBANK(8, "M2M", 1, -1, mscod_skx_m2m, misc_skx_mirror),
	MEMBANK(13, "IMC", 0, 0, mscod_skx_imc, NULL), MEMBANK(14, "IMC", 0, 1, mscod_skx_imc, NULL),
	MEMBANK(15, "IMC", 1, 0, mscod_skx_imc, NULL), MEMBANK(16, "IMC", 1, 1, mscod_skx_imc, NULL),
	MEMBANK(17, "IMC", 0, 2, mscod_skx_imc, NULL), MEMBANK(18, "IMC", 1, 2, mscod_skx_imc, NULL),
};

/* SDM 06_6AH: M2M at 12 + 4n, IMC n channels at 13 + 4n + c (i10nm_base.c agrees). */
#define ICX_IMC(n)                                                                   \
	MEMBANK(12 + 4 * (n), "M2M", n, -1, mscod_icx_m2m, misc_skx_mirror),         \
	MEMBANK(13 + 4 * (n), "IMC", n, 0, mscod_icx_imc, misc_icx_imc),              \
	MEMBANK(14 + 4 * (n), "IMC", n, 1, mscod_icx_imc, misc_icx_imc),              \
	MEMBANK(15 + 4 * (n), "IMC", n, 2, mscod_icx_imc, misc_icx_imc)

static const struct bank_row icx_banks[] = {
	XEON_CORE_BANKS, BANK_MS(4, 4, "PCU", mscod_i10nm_pcu), BANK_MS(5, 5, "UPI", mscod_upi),
	BANK_UNPUBLISHED(6, 6, "IIO"), BANK_MS(7, 8, "UPI", mscod_upi), BANK_UNPUBLISHED(9, 11, "CHA"),
	ICX_IMC(0), ICX_IMC(1), ICX_IMC(2), ICX_IMC(3),
};

/*
 * Ice Lake-D (06_6CH): two memory controllers and no UPI. Banks as Intel's
 * mcelog i10nm decoder gives them: MC4 PCU, MC12/16 M2M, MC13-15/17-19 IMC.
 */
static const struct bank_row icx_d_banks[] = {
	XEON_CORE_BANKS, BANK_MS(4, 4, "PCU", mscod_i10nm_pcu), ICX_IMC(0), ICX_IMC(1),
};

/* SDM 06_8FH: MC12 M2M, MC13-20 IMC (two channels per controller), MC29 HBM M2M, MC30-31 HBM IMC. */
#define SPR_IMC(b) MEMBANK(b, "IMC", ((b) - 13) / 2, ((b) - 13) % 2, mscod_spr_imc, misc_spr_imc)

static const struct bank_row spr_banks[] = {
	XEON_CORE_BANKS, BANK_MS(4, 4, "PCU", mscod_i10nm_pcu), BANK_MS(5, 5, "UPI", mscod_upi),
	BANK_UNPUBLISHED(6, 6, "IIO"), BANK_UNPUBLISHED(9, 11, "CHA"),
	MEMBANK(12, "M2M", -1, -1, mscod_spr_m2m, NULL),
	SPR_IMC(13), SPR_IMC(14), SPR_IMC(15), SPR_IMC(16),
	SPR_IMC(17), SPR_IMC(18), SPR_IMC(19), SPR_IMC(20),
	BANK_MS(29, 29, "HBM M2M", mscod_spr_m2m),
	BANK_MS(30, 31, "HBM IMC", mscod_spr_imc),
};

/*
 * SDM 06_56H (Broadwell-DE): MC4 PCU, MC9-10 IMC. Its MC4 MSCOD table was
 * not in reach, so only the MCACOD meanings and the IMC flags are decoded.
 */
static const struct bank_row bdx_de_banks[] = {
	PCU_3STRIKE(NULL), BANK_MS(9, 10, "IMC", mscod_bdx_de_imc),
};

/*
 * SDM 06_5FH (Denverton): the integrated memory controllers report in MC6
 * and MC7. No public source maps either bank to a controller or channel;
 * the channel comes from MCACOD CCCC alone.
 */
static const struct bank_row dnv_banks[] = {
	BANK_MS(6, 7, "IMC", mscod_dnv_imc),
};

/*
 * Snow Ridge / Tremont-D (06_86H) has the 10 nm server memory controller of
 * Ice Lake-SP: Linux i10nm_base.c decodes it as the same type (I10NM), its
 * MSCOD check names "ICX/Tremont" and the SDM's Ice Lake IMC table; Intel's
 * mcelog i10nm decoder gives the banks: MC4 PCU, MC12 M2M, MC13-15 IMC.
 * No public table names its core or other uncore banks.
 */
static const struct bank_row snr_banks[] = {
	BANK_MS(4, 4, "PCU", mscod_i10nm_pcu), ICX_IMC(0),
};

/* SDM 06_ADH: MC5 UPI, MC6 Punit, MC12 B2CMI, MC13-24 memory controller channels. */
#define GNR_CH(b) MEMBANK(b, "MCCHAN", -1, (b) - 13, mscod_gnr_mcchan, misc_gnr_mcchan)

static const struct bank_row gnr_banks[] = {
	BANK(5, 5, "UPI"), BANK(6, 6, "Punit"), BANK_MS(12, 12, "B2CMI", mscod_gnr_b2cmi),
	GNR_CH(13), GNR_CH(14), GNR_CH(15), GNR_CH(16), GNR_CH(17), GNR_CH(18),
	GNR_CH(19), GNR_CH(20), GNR_CH(21), GNR_CH(22), GNR_CH(23), GNR_CH(24),
};

/* Diamond Rapids (Intel public decode data): MC1 DCU, MC4 CBB Punit, MC11 IMH Punit, MC18 UPI, MC19-26 MCCHAN. */
#define DMR_CH(b) MEMBANK(b, "MCCHAN", -1, (b) - 19, mscod_dmr_mcchan, misc_dmr_mcchan)

static const struct bank_row dmr_banks[] = {
	BANK(1, 1, "DCU"), BANK(4, 4, "CBB Punit"), BANK(11, 11, "IMH Punit"), BANK(18, 18, "UPI"),
	DMR_CH(19), DMR_CH(20), DMR_CH(21), DMR_CH(22),
	DMR_CH(23), DMR_CH(24), DMR_CH(25), DMR_CH(26),
};

/* KH-50000 DRAM channel names by MCACOD CCCC (Zhaoxin public decode data). */
static const char *const kh50000_channel_names[] = {
	"A0", "B0", "A1", "B1", "C0", "C1", "A2", "B2", "C2", "A3", "B3", "C3",
};

/* KH-50000 model-specific MMM values 5-7 (same source). */
static const char *const kh50000_mmm_texts[8] = {
	[5] = "data poison from the DRAM controller on a normal read",
	[6] = "data poison from the DRAM controller on a patrol read",
	[7] = "key hit error",
};

/* KH-50000 DRAM bank MISC: [26:25] rank; MCACOD CCCC names the channel. */
static void misc_kh50000_dram(const struct mce_in *in, struct mce_decoded *out)
{
	unsigned ch = (unsigned)mce_bits(in->status, 0, 3), mmm = (unsigned)mce_bits(in->status, 4, 6);

	if (!is_memory_error(out))
		return;
	if (ch < MCE_ARRAY_SIZE(kh50000_channel_names))
		ou_appendf(out->model_text, sizeof(out->model_text), "%schannel %s",
			    out->model_text[0] ? "; " : "", kh50000_channel_names[ch]);
	mce_append_item(out->model_text, sizeof(out->model_text), "; ", kh50000_mmm_texts[mmm]);
	if (in->status & MCI_STATUS_MISCV)
		out->rank = (int64_t)mce_bits(in->misc, 25, 26);
}

/* KH-50000 PL2 (bank 1, STATUS[25:24]) and LLC (bank 17, STATUS[26:25]) codes, valid when STATUS[31:30]=01. */
static void misc_kh50000_cache(const struct mce_in *in, struct mce_decoded *out)
{
	static const char *const texts[4] = {
		NULL, "single-bit ECC error in the data of the same line",
		"single-bit ECC error in a different line", "multi-bit ECC error in data",
	};
	unsigned lo = in->bank == 1 ? 24 : 25;

	if (mce_bits(in->status, 30, 31) != 1)
		return;
	mce_append_item(out->model_text, sizeof(out->model_text), "; ",
			texts[mce_bits(in->status, lo, lo + 1)]);
}

#define KH_DRAM(f, l) { f, l, "DRAM", -1, -1, mscod_kh50000_dram, misc_kh50000_dram, NULL }

static const struct bank_row kh50000_banks[] = {
	BANK(0, 0, "CPU"), { 1, 1, "PL2 cache", -1, -1, NULL, misc_kh50000_cache, NULL },
	BANK_MS(2, 2, "CRMCA0 PCIe", mscod_kh50000_pcie), BANK(3, 3, "CRMCA0 IOD ZDI"),
	BANK_MS(4, 4, "SVID0", mscod_kh50000_svid), BANK(5, 5, "CRMCA1 IOD ZDI"),
	BANK_MS(6, 6, "CRMCA1 PCIe", mscod_kh50000_pcie), BANK(7, 7, "CCD ZDI"),
	KH_DRAM(9, 16), { 17, 17, "LLC", -1, -1, NULL, misc_kh50000_cache, NULL }, KH_DRAM(18, 21),
	BANK_MS(22, 22, "SVID2", mscod_kh50000_svid), BANK(26, 26, "ZPI"),
	BANK_MS(27, 27, "SVID1", mscod_kh50000_svid), BANK_MS(28, 31, "HIF", mscod_kh50000_hif),
};

static const struct platform kh50000_platform = PLATFORM(kh50000_banks, NULL);
static const struct platform nhm_platform = PLATFORM(nhm_banks, misc_nhm_memory);
static const struct platform snb_ep_platform = PLATFORM(snb_ep_banks, NULL);
static const struct platform ivt_platform = PLATFORM(ivt_banks, NULL);
static const struct platform hsx_platform = PLATFORM(hsx_banks, NULL);
static const struct platform bdx_platform = PLATFORM(bdx_banks, NULL);
static const struct platform skx_platform = PLATFORM(skx_banks, NULL);
static const struct platform icx_platform = PLATFORM(icx_banks, NULL);
static const struct platform icx_d_platform = PLATFORM(icx_d_banks, NULL);
static const struct platform spr_platform = PLATFORM(spr_banks, NULL);
static const struct platform gnr_platform = PLATFORM(gnr_banks, NULL);
static const struct platform dmr_platform = PLATFORM(dmr_banks, NULL);
static const struct platform bdx_de_platform = PLATFORM(bdx_de_banks, NULL);
static const struct platform dnv_platform = PLATFORM(dnv_banks, NULL);
static const struct platform snr_platform = PLATFORM(snr_banks, NULL);

/*
 * CPU model -> table choice. Intel model numbers: Intel SDM Vol. 4 "Model-Specific
 * Registers" (DisplayFamily_DisplayModel list, Table 2-1) and Linux
 * arch/x86/include/asm/intel-family.h.
 */
#define P6_OLD(m, name) { 0, 6, m, 0, 15, name, &p6old_platform, false }

static const struct model_row cpu_models[] = {
	{ 0, 6, 0x1a, 0, 15, "Nehalem-EP", &nhm_platform, true },
	{ 0, 6, 0x1e, 0, 15, "Nehalem", &nhm_platform, true },
	{ 0, 6, 0x1f, 0, 15, "Nehalem", &nhm_platform, true },
	{ 0, 6, 0x25, 0, 15, "Westmere", &nhm_platform, true },
	{ 0, 6, 0x2c, 0, 15, "Westmere-EP", &nhm_platform, true },
	{ 0, 6, 0x2e, 0, 15, "Nehalem-EX", NULL, true },
	{ 0, 6, 0x2f, 0, 15, "Westmere-EX", NULL, true },
	{ 0, 6, 0x2a, 0, 15, "Sandy Bridge", NULL, true },
	{ 0, 6, 0x2d, 0, 15, "Sandy Bridge-EP", &snb_ep_platform, true },
	{ 0, 6, 0x3a, 0, 15, "Ivy Bridge", NULL, true },
	{ 0, 6, 0x3e, 0, 15, "Ivy Bridge-EP", &ivt_platform, true },
	{ 0, 6, 0x3c, 0, 15, "Haswell", NULL, true },
	{ 0, 6, 0x45, 0, 15, "Haswell", NULL, true },
	{ 0, 6, 0x46, 0, 15, "Haswell", NULL, true },
	{ 0, 6, 0x3f, 0, 15, "Haswell-EP", &hsx_platform, true },
	{ 0, 6, 0x3d, 0, 15, "Broadwell", NULL, true },
	{ 0, 6, 0x47, 0, 15, "Broadwell", NULL, true },
	{ 0, 6, 0x4f, 0, 15, "Broadwell-EP", &bdx_platform, true },
	{ 0, 6, 0x56, 0, 15, "Broadwell-DE", &bdx_de_platform, true },
	{ 0, 6, 0x4d, 0, 15, "Avoton (Atom C2000)", NULL, false },
	{ 0, 6, 0x5f, 0, 15, "Denverton (Atom C3000)", &dnv_platform, false },
	{ 0, 6, 0x86, 0, 15, "Snow Ridge (Atom P5900)", &snr_platform, false },
	{ 0, 6, 0x57, 0, 15, "Knights Landing", &knl_platform, false },
	{ 0, 6, 0x85, 0, 15, "Knights Mill", &knl_platform, false },
	{ 0, 6, 0x4e, 0, 15, "Skylake", NULL, true },
	{ 0, 6, 0x5e, 0, 15, "Skylake", NULL, true },
	{ 0, 6, 0x55, 0, 4, "Skylake-SP", &skx_platform, true },
	{ 0, 6, 0x55, 5, 7, "Cascade Lake-SP", &skx_platform, true },
	{ 0, 6, 0x55, 10, 11, "Cooper Lake-SP", &skx_platform, true },
	{ 0, 6, 0x6a, 0, 15, "Ice Lake-SP", &icx_platform, true },
	{ 0, 6, 0x6c, 0, 15, "Ice Lake-D", &icx_d_platform, true },
	{ 0, 6, 0x8f, 0, 15, "Sapphire Rapids", &spr_platform, true },
	{ 0, 6, 0xcf, 0, 15, "Emerald Rapids", &spr_platform, true },
	{ 0, 6, 0xad, 0, 15, "Granite Rapids", &gnr_platform, true },
	{ 0, 6, 0xae, 0, 15, "Granite Rapids-D", &gnr_platform, true },
	{ 0, 6, 0xaf, 0, 15, "Sierra Forest", &gnr_platform, false },
	/* Linux i10nm_base.c decodes Grand Ridge and Clearwater Forest as Granite Rapids (gnr_cfg). */
	{ 0, 6, 0xb6, 0, 15, "Grand Ridge", &gnr_platform, false },
	{ 0, 6, 0xdd, 0, 15, "Clearwater Forest", &gnr_platform, false },
	/* The P6 family before Core 2 (Pentium Pro, II, III, M): SDM "Processor Family 06H". */
	P6_OLD(0x01, "Pentium Pro"), P6_OLD(0x03, "Pentium II"), P6_OLD(0x05, "Pentium II"),
	P6_OLD(0x06, "Celeron"), P6_OLD(0x07, "Pentium III"), P6_OLD(0x08, "Pentium III"),
	P6_OLD(0x09, "Pentium M"), P6_OLD(0x0a, "Pentium III Xeon"), P6_OLD(0x0b, "Pentium III"),
	P6_OLD(0x0d, "Pentium M"), P6_OLD(0x0e, "Core Duo"),
	/* Intel Core microarchitecture: SDM "Incremental Bus Error Codes ... Intel Core Microarchitecture". */
	{ 0, 6, 0x0f, 0, 15, "Core 2", &core2_platform, false },
	{ 0, 6, 0x16, 0, 15, "Core 2", &core2_platform, false },
	{ 0, 6, 0x17, 0, 15, "Core 2 (Penryn)", &core2_platform, false },
	{ 0, 6, 0x1d, 0, 15, "Xeon 7400 (Dunnington)", &dunnington_platform, false },
	/* Family 0FH: NetBurst. Model 6 is the Xeon MP 7100 (Tulsa) tables (mcelog's choice too). */
	{ 0, 15, 0x00, 0, 15, "Pentium 4", &p4_platform, false },
	{ 0, 15, 0x01, 0, 15, "Pentium 4", &p4_platform, false },
	{ 0, 15, 0x02, 0, 15, "Pentium 4", &p4_platform, false },
	{ 0, 15, 0x03, 0, 15, "Pentium 4", &p4_platform, false },
	{ 0, 15, 0x04, 0, 15, "Pentium 4", &p4_platform, false },
	{ 0, 15, 0x06, 0, 15, "Xeon 7100 (Tulsa)", &tulsa_platform, false },
	{ 0, 19, 0x01, 0, 15, "Diamond Rapids", &dmr_platform, true },
	/* Zhaoxin parts report vendor Zhaoxin or, on some firmware, Centaur. */
	{ MCE_VENDOR_ZHAOXIN, 7, 0x7b, 0, 15, "Zhaoxin KH-50000", &kh50000_platform, false },
	{ MCE_VENDOR_CENTAUR, 7, 0x7b, 0, 15, "Zhaoxin KH-50000", &kh50000_platform, false },
};

static const struct model_row *find_model(unsigned vendor, int64_t family, int64_t model,
					  int64_t stepping)
{
	for (size_t i = 0; i < MCE_ARRAY_SIZE(cpu_models); i++) {
		const struct model_row *m = &cpu_models[i];

		if (m->model == model && m->family == family && m->vendor == vendor &&
		    stepping >= m->step_lo && stepping <= m->step_hi)
			return m;
	}
	return NULL;
}

static const struct bank_row *find_bank(const struct platform *p, unsigned bank)
{
	for (size_t i = 0; i < p->n_banks; i++)
		if (bank >= p->banks[i].first && bank <= p->banks[i].last)
			return &p->banks[i];
	return NULL;
}

/* find_model for in's CPU, asked of memo first (the same CPU as the record before). */
static const struct model_row *model_of(const struct mce_in *in, struct mce_model_memo *memo,
					const struct mce_decoded *out)
{
	const struct model_row *m;

	if (memo && memo->set && memo->cpuid == in->cpuid && memo->cpuvendor == in->cpuvendor)
		return memo->model;
	/* family, model and stepping come from cpuid alone (fill_raw_and_identity). */
	m = find_model(in->cpuvendor, out->family, out->model, out->stepping);
	if (memo) {
		memo->set = true;
		memo->cpuvendor = in->cpuvendor;
		memo->cpuid = in->cpuid;
		memo->model = m;
		memo->banks_known = 0;
	}
	return m;
}

/* find_bank on the platform of model_of's row, asked of memo first. */
static const struct bank_row *bank_of(const struct mce_in *in, struct mce_model_memo *memo,
				      const struct platform *p)
{
	const struct bank_row *b;
	unsigned bank = in->bank;

	if (memo && bank < 64 && (memo->banks_known >> bank & 1))
		return memo->bank[bank];
	b = find_bank(p, bank);
	if (memo && bank < 64) {
		memo->bank[bank] = b;
		memo->banks_known |= 1ULL << bank;
	}
	return b;
}

static bool decode_bit_list(uint64_t status, const struct mscod_desc *d, struct mce_decoded *out)
{
	bool any = false;

	for (unsigned bit = d->lo; bit <= d->hi; bit++) {
		const char *text;

		if (!((status >> bit) & 1))
			continue;
		text = mce_code_lookup(d->table, bit);
		if (text) {
			add_model_text(out, text);
			any = true;
		}
	}
	return any;
}

static bool desc_applies(const struct mscod_desc *d, uint64_t status)
{
	bool bit27 = (status >> 27) & 1;

	if (d->kind == MS_CODE_IF_BIT27)
		return bit27;
	if (d->kind == MS_BITS_UNLESS_BIT27)
		return !bit27;
	return true;
}

static bool desc_is_bit_list(const struct mscod_desc *d)
{
	return d->kind == MS_BITS || d->kind == MS_BITS_UNLESS_BIT27;
}

/* Applies a bank's MSCOD descriptors; the first one that explains the code wins. */
static void decode_mscod(uint64_t status, const struct mscod_desc *d, struct mce_decoded *out)
{
	for (; d && d->kind != MS_END; d++) {
		const char *text;

		if (!desc_applies(d, status))
			continue;
		if (desc_is_bit_list(d)) {
			if (decode_bit_list(status, d, out))
				return;
			continue;
		}
		text = mce_code_lookup(d->table, (uint32_t)mce_bits(status, d->lo, d->hi));
		if (text) {
			add_model_text(out, text);
			return;
		}
	}
}

static void apply_bank(const struct bank_row *b, const struct mce_in *in, struct mce_decoded *out)
{
	const struct mscod_desc *mscod = b->mscod;
	size_t before;

	MCE_SET_PREFIX(out->bank_name, b->name);
	if (b->mem_ctrl >= 0)
		out->mem_ctrl = b->mem_ctrl;
	if (b->channel >= 0)
		out->channel = b->channel;
	before = ou_member_len(out->model_text, sizeof(out->model_text));
	if (b->misc == misc_pcu_copied_mlc && is_core_error_class(out))
		mscod = NULL; /* the MLC's own MSCOD: the PCU table does not apply */
	decode_mscod(in->status, mscod, out);
	if (mscod && ou_member_len(out->model_text, sizeof(out->model_text)) == before &&
	    mce_bits(in->status, 16, 31)) {
		/* "%sMSCOD 0x%04llx %s" without printf: a storm's records of such a bank all say it. */
		struct ou_buf t = { .p = out->model_text, .len = sizeof(out->model_text), .at = before };

		if (before)
			ou_put_lit(&t, "; ");
		ou_put_lit(&t, "MSCOD 0x");
		ou_put_hex_pad(&t, mce_bits(in->status, 16, 31), 4);
		if (mscod == mscod_unpublished)
			ou_put_lit(&t, " has no public meaning for this bank");
		else
			ou_put_lit(&t, " not in the documented table");
	}
	if (b->mcacod)
		add_model_text(out, mce_code_lookup(b->mcacod, (uint32_t)mce_bits(in->status, 0, 15)));
	if (b->misc)
		b->misc(in, out);
}

/*
 * SDM "IA32_MCi_STATUS MSRs": STATUS[52:38] is the corrected-error count when
 * MCG_CAP[10] (CMCI_P) is set, and CMCI is present on every big core from
 * 06_1AH (Nehalem) on. Text logs (kernel lines, mcelog without MCGCAP) do not
 * carry MCG_CAP, so the model stands in for it; a recorded MCG_CAP wins.
 */
static void count_without_mcgcap(const struct model_row *m, const struct mce_in *in,
				 struct mce_decoded *out)
{
	if (!m->cmci || in->mcgcap || (in->status & MCI_STATUS_UC))
		return;
	out->corrected_count = (int64_t)mce_bits(in->status, 38, 52);
	mce_append_lit(out->decode_note, sizeof(out->decode_note), "; ",
		       "MCG_CAP not recorded: STATUS[52:38] read as the corrected-error count (CMCI on this model)");
}

bool mce_intel_model_decode(const struct mce_in *in, struct mce_model_memo *memo,
			    struct mce_decoded *out)
{
	const struct model_row *m = model_of(in, memo, out);
	const struct bank_row *b;

	if (!m)
		return false;
	MCE_SET_ROW(out->cpu_model_name, m->name);
	count_without_mcgcap(m, in, out);
	if (!m->platform) {
		mce_append_lit(out->decode_note, sizeof(out->decode_note), "; ",
			       "no model-specific tables for this CPU model: architectural decode only");
		return true;
	}
	b = bank_of(in, memo, m->platform);
	if (b)
		apply_bank(b, in, out);
	if (m->platform->every_bank_misc)
		m->platform->every_bank_misc(in, out);
	return true;
}
