/* SPDX-License-Identifier: MIT */
/*
 * Intel model-specific error code (MSCOD, MCi_STATUS[31:16]) tables for the
 * server uncore banks. Facts re-expressed from Intel SDM Vol. 3B chapter
 * "Interpreting Machine Check Error Codes" (chapter 17 in 2023+ editions,
 * 16 in older ones), the "Incremental Decoding Information" section of each
 * DisplayFamily_DisplayModel signature. Table titles are quoted rather than
 * numbers, which differ between editions.
 */
#include "mce_intel_models.h"

/*
 * SDM 16.x "Incremental Decoding Information: Processor Family with CPUID
 * DisplayFamily_DisplayModel Signature 06_1AH" (Nehalem), table
 * "Intel IMC MC Error Codes for IA32_MC8_STATUS": STATUS[24:16] bit flags.
 */
static const struct mce_code_text nhm_imc_bits[] = {
	{ 16, "memory read ECC error" },
	{ 17, "memory ECC error during scrub" },
	{ 18, "memory write parity error" },
	{ 19, "error in half of redundant (mirrored) memory" },
	{ 21, "memory access out of range" },
	{ 22, "internal RTID invalid" },
	{ 23, "memory address parity error" },
	{ 24, "memory byte-enable parity error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_nhm_imc[] = {
	{ MS_BITS, 16, 24, nhm_imc_bits },
	{ MS_END, 0, 0, NULL },
};

/*
 * SDM Vol. 3B 16.4.2, 06_2DH (Sandy Bridge-EP) Table 16-15 and 16.5.2,
 * 06_3EH (Ivy Bridge-EP) Table 16-18 "Intel IMC MC Error Codes for
 * IA32_MCi_STATUS": STATUS[24:16] bit flags; Sandy Bridge-EP defines
 * bits 16-22 only.
 */
static const struct mce_code_text ivt_imc_bits[] = {
	{ 16, "memory address parity error" },
	{ 17, "home-agent write buffer data parity error" },
	{ 18, "home-agent write byte-enable parity error" },
	{ 19, "corrected patrol scrub error" },
	{ 20, "uncorrected patrol scrub error" },
	{ 21, "corrected spare error" },
	{ 22, "uncorrected spare error" },
	{ 23, "corrected memory read error" },
	{ 24, "memory controller write data buffer parity error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_snb_ep_imc[] = {
	{ MS_BITS, 16, 22, ivt_imc_bits },
	{ MS_END, 0, 0, NULL },
};
const struct mscod_desc mscod_ivt_imc[] = {
	{ MS_BITS, 16, 24, ivt_imc_bits },
	{ MS_END, 0, 0, NULL },
};

/*
 * SDM 16.x, Haswell-EP "Intel IMC MC Error Codes for IA32_MCi_STATUS
 * (i= 9-16)": STATUS[25:16] bit flags.
 */
static const struct mce_code_text hsx_imc_bits[] = {
	{ 16, "DDR3 address parity error" },
	{ 17, "uncorrected home-agent write data error" },
	{ 18, "uncorrected home-agent byte-enable error" },
	{ 19, "corrected patrol scrub error" },
	{ 20, "uncorrected patrol scrub error" },
	{ 21, "corrected spare error" },
	{ 22, "uncorrected spare error" },
	{ 23, "corrected memory read error" },
	{ 24, "memory controller write data buffer parity error" },
	{ 25, "DDR4 command/address parity error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_hsx_imc[] = {
	{ MS_BITS, 16, 25, hsx_imc_bits },
	{ MS_END, 0, 0, NULL },
};

/* SDM 16.x, Broadwell-EP "Intel IMC MC Error Codes for IA32_MCi_STATUS (i= 9-16)". */
static const struct mce_code_text bdx_imc_bits[] = {
	{ 16, "DDR3 address parity error" },
	{ 17, "uncorrected home-agent write data error" },
	{ 18, "uncorrected home-agent byte-enable error" },
	{ 19, "corrected patrol scrub error" },
	{ 20, "uncorrected patrol scrub error" },
	{ 21, "corrected spare error" },
	{ 22, "uncorrected spare error" },
	{ 24, "memory controller write data buffer parity error" },
	{ 25, "DDR4 command/address parity error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_bdx_imc[] = {
	{ MS_BITS, 16, 25, bdx_imc_bits },
	{ MS_END, 0, 0, NULL },
};

/* SDM 16.x, Haswell-EP/Broadwell-EP "Intel QPI MC Error Codes for IA32_MCi_STATUS (i = 5, 20, 21)". */
static const struct mce_code_text hsx_qpi_codes[] = {
	{ 0x02, "QPI physical layer drift buffer alarm" },
	{ 0x03, "QPI physical layer latency buffer rollover" },
	{ 0x10, "QPI link layer control error from R3QPI" },
	{ 0x11, "receiver entered link-level-retry abort state on CRC error" },
	{ 0x12, "unsupported or undefined packet" },
	{ 0x13, "QPI link layer control error" },
	{ 0x15, "routeback table used an uninitialised value" },
	{ 0x20, "QPI in-band reset detected but initialisation aborted" },
	{ 0x21, "link failover: data self-healing" },
	{ 0x22, "physical layer in-band reset (no width change)" },
	{ 0x23, "link failover: clock failover" },
	{ 0x30, "CRC error corrected by link-level retry after physical re-init" },
	{ 0x31, "CRC error corrected by link-level retry without physical re-init" },
	{ 0, NULL },
};
const struct mscod_desc mscod_hsx_qpi[] = {
	{ MS_FIELD, 16, 21, hsx_qpi_codes },
	{ MS_END, 0, 0, NULL },
};

/*
 * SDM 16.x "Incremental Decoding Information: Processor Family with CPUID
 * DisplayFamily_DisplayModel Signature 06_55H" (Skylake/Cascade Lake server),
 * table "Interconnect MC Error Codes for IA32_MCi_STATUS (i = 5, 12, 19)":
 * STATUS[21:16]. The same codes are listed for Ice Lake and Sapphire Rapids.
 */
static const struct mce_code_text upi_codes[] = {
	{ 0x00, "uncorrected: UPI physical layer initialisation failure" },
	{ 0x01, "uncorrected: physical layer drift buffer alarm" },
	{ 0x02, "uncorrected: physical layer latency buffer rollover" },
	{ 0x10, "uncorrected: CRC error, link-level retry failed (abort state)" },
	{ 0x11, "uncorrected: unsupported or undefined packet received" },
	{ 0x12, "uncorrected: link layer or physical layer control error" },
	{ 0x13, "uncorrected: link parameter exchange exception" },
	{ 0x1f, "uncorrected: link layer control error from the mesh interface" },
	{ 0x20, "corrected: physical layer initialisation aborted" },
	{ 0x21, "corrected: physical layer reset" },
	{ 0x22, "corrected: lane failure, link recovered at x8 width" },
	{ 0x23, "corrected: L0c error corrected without physical reset" },
	{ 0x24, "corrected: L0c error that triggered a physical reset" },
	{ 0x25, "corrected: L0p exit error corrected with reset" },
	{ 0x30, "corrected: CRC error recovered by link-level retry without re-init" },
	{ 0x31, "corrected: CRC error recovered by link-level retry with re-init" },
	{ 0, NULL },
};
const struct mscod_desc mscod_upi[] = {
	{ MS_FIELD, 16, 21, upi_codes },
	{ MS_END, 0, 0, NULL },
};

/* SDM, 06_55H table "M2M MC Error Codes for IA32_MCi_STATUS (i = 7-8)": STATUS[23:16] flags. */
static const struct mce_code_text m2m_bits[] = {
	{ 16, "memory controller read data error" },
	{ 18, "memory controller partial write data error" },
	{ 19, "memory controller full write data error" },
	{ 20, "M2M clock-crossing buffer (BGF) error" },
	{ 21, "M2M timeout" },
	{ 22, "M2M tracker parity error" },
	{ 23, "fatal bucket-1 error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_skx_m2m[] = {
	{ MS_BITS, 16, 23, m2m_bits },
	{ MS_END, 0, 0, NULL },
};

/*
 * SDM, 06_55H table "Intel IMC MC Error Codes for IA32_MCi_STATUS
 * (i = 13-18)": when STATUS[27] is set, STATUS[19:16] is a code (MSCOD
 * 0x08xx); otherwise STATUS[26:16] are flags.
 */
static const struct mce_code_text skx_imc_bits[] = {
	{ 16, "address parity error" },
	{ 17, "home-agent write data parity error" },
	{ 18, "home-agent write byte-enable parity error" },
	{ 19, "corrected patrol scrub error" },
	{ 20, "uncorrected patrol scrub error" },
	{ 21, "corrected spare error" },
	{ 22, "uncorrected spare error" },
	{ 23, "home-agent read error" },
	{ 24, "write data buffer read parity error" },
	{ 25, "DDR4 command/address parity error" },
	{ 26, "uncorrected address parity error" },
	{ 0, NULL },
};
static const struct mce_code_text skx_imc_0x8xx[] = {
	{ 0x800, "unrecognised request type" },
	{ 0x801, "read response to an invalid scoreboard entry" },
	{ 0x802, "unexpected read response" },
	{ 0x803, "DDR4 completion to an invalid scoreboard entry" },
	{ 0x804, "completion to an invalid scoreboard entry" },
	{ 0x805, "completion FIFO overflow" },
	{ 0x806, "correctable parity error" },
	{ 0x807, "uncorrectable error" },
	{ 0x808, "interrupt received while a previous one was not acknowledged" },
	{ 0x809, "ERID FIFO overflow" },
	{ 0x80a, "error on write credits" },
	{ 0x80b, "error on read credits" },
	{ 0x80c, "scheduler error" },
	{ 0x80d, "error event" },
	{ 0, NULL },
};
const struct mscod_desc mscod_skx_imc[] = {
	{ MS_CODE_IF_BIT27, 16, 31, skx_imc_0x8xx },
	{ MS_BITS_UNLESS_BIT27, 16, 26, skx_imc_bits },
	{ MS_END, 0, 0, NULL },
};

/*
 * SDM, 06_6AH/06_6CH (3rd generation Xeon Scalable) table "Intel IMC MC
 * Error Codes for IA32_MCi_STATUS": full 16-bit MSCOD (STATUS[31:24] group,
 * STATUS[23:16] code).
 */
static const struct mce_code_text icx_imc_codes[] = {
	{ 0x0001, "address parity error" },
	{ 0x0002, "data parity error" },
	{ 0x0003, "data ECC error" },
	{ 0x0004, "data byte-enable parity error" },
	{ 0x0005, "received uncorrectable data" },
	{ 0x0006, "received uncorrectable metadata" },
	{ 0x0007, "transaction ID parity error" },
	{ 0x0008, "corrected patrol scrub error" },
	{ 0x0010, "uncorrected patrol scrub error" },
	{ 0x0020, "corrected spare error" },
	{ 0x0040, "uncorrected spare error" },
	{ 0x0080, "corrected read error" },
	{ 0x00a0, "uncorrected read error" },
	{ 0x00c0, "uncorrected metadata error" },
	{ 0x0100, "write data buffer read parity error" },
	{ 0x0103, "RPA parity error" },
	{ 0x0104, "RPA parity error" },
	{ 0x0105, "WPA parity error" },
	{ 0x0106, "DDR-T DPPP data byte-enable error" },
	{ 0x0107, "DDR-T DPPP data error" },
	{ 0x0108, "DDR link failure" },
	{ 0x0111, "PCLS CAM error" },
	{ 0x0112, "PCLS data error" },
	{ 0x0200, "DDR4 command/address parity error" },
	{ 0x0220, "HBM command/address parity error" },
	{ 0x0221, "HBM data parity error" },
	{ 0x0400, "read pending queue parity error (primary)" },
	{ 0x0401, "read pending queue parity error (buddy)" },
	{ 0x0404, "write pending queue parity error (primary)" },
	{ 0x0405, "write pending queue parity error (buddy)" },
	{ 0x0408, "read pending buffer parity error (primary)" },
	{ 0x0409, "read pending buffer parity error (buddy)" },
	{ 0x0800, "DDR-T bad request" },
	{ 0x0801, "DDR data response to an invalid entry" },
	{ 0x0802, "DDR data response to an entry not expecting data" },
	{ 0x0803, "DDR4 completion to an invalid entry" },
	{ 0x0804, "DDR-T completion to an invalid entry" },
	{ 0x0805, "DDR data/completion FIFO overflow" },
	{ 0x0806, "DDR-T ERID correctable parity error" },
	{ 0x0807, "DDR-T ERID uncorrectable error" },
	{ 0x0808, "DDR-T interrupt received while a previous one was not acknowledged" },
	{ 0x0809, "ERID FIFO overflow" },
	{ 0x080a, "DDR-T error on write credits" },
	{ 0x080b, "DDR-T error on read credits" },
	{ 0x080c, "DDR-T scheduler error" },
	{ 0x080d, "DDR-T media controller error event" },
	{ 0x080e, "DDR-T media controller thermal event" },
	{ 0x080f, "CMI packet while idle" },
	{ 0x0810, "DDR-T read pending queue request parity error" },
	{ 0x0811, "DDR-T write pending queue request parity error" },
	{ 0x0812, "2LM near-memory fill write CAM error" },
	{ 0x0813, "CMI credit oversubscription error" },
	{ 0x0814, "CMI total credit count error" },
	{ 0x0815, "CMI reserved credit pool error" },
	{ 0x0816, "DDR-T read error" },
	{ 0x0817, "write data buffer FIFO error" },
	{ 0x0818, "CMI request FIFO overflow" },
	{ 0x0819, "CMI request FIFO underflow" },
	{ 0x081a, "CMI response FIFO overflow" },
	{ 0x081b, "CMI response FIFO underflow" },
	{ 0x081c, "CMI miscellaneous credit errors" },
	{ 0x081d, "CMI miscellaneous arbitration errors" },
	{ 0x081e, "DDR-T write completion FIFO overflow" },
	{ 0x081f, "DDR-T write completion FIFO underflow" },
	{ 0x0820, "CMI read completion FIFO overflow" },
	{ 0x0821, "CMI read completion FIFO underflow" },
	{ 0x0822, "TME key parity error" },
	{ 0x0823, "TME CMI miscellaneous error" },
	{ 0x0824, "TME CMI overflow error" },
	{ 0x0825, "TME CMI underflow error" },
	{ 0x0826, "TME secure-mode error" },
	{ 0x0827, "TME underfill parity error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_icx_imc[] = {
	{ MS_FIELD, 16, 31, icx_imc_codes },
	{ MS_END, 0, 0, NULL },
};

/* ICX M2M: same STATUS[23:16] flags as Skylake-SP (SDM 06_6AH "M2M MC Error Codes"). */
const struct mscod_desc mscod_icx_m2m[] = {
	{ MS_BITS, 16, 23, m2m_bits },
	{ MS_END, 0, 0, NULL },
};

/*
 * SDM, 06_8FH (4th generation Xeon Scalable, Sapphire Rapids; Emerald
 * Rapids 06_CFH shares it) table "Intel IMC MC Error Codes for
 * IA32_MCi_STATUS (i = 13-20)": full 16-bit MSCOD.
 */
static const struct mce_code_text spr_imc_codes[] = {
	{ 0x0001, "address parity error" },
	{ 0x0002, "data parity error" },
	{ 0x0003, "data ECC error" },
	{ 0x0004, "data byte-enable parity error" },
	{ 0x0007, "transaction ID parity error" },
	{ 0x0008, "corrected patrol scrub error" },
	{ 0x0010, "uncorrected patrol scrub error" },
	{ 0x0020, "corrected spare error" },
	{ 0x0040, "uncorrected spare error" },
	{ 0x0080, "corrected read error" },
	{ 0x00a0, "uncorrected read error" },
	{ 0x00c0, "uncorrected metadata error" },
	{ 0x0100, "write data buffer read parity error" },
	{ 0x0108, "DDR link failure" },
	{ 0x0200, "DDR5 command/address parity error" },
	{ 0x0400, "read pending queue parity error (primary)" },
	{ 0x0828, "internal error" },
	{ 0x0829, "internal error" },
	{ 0x082a, "TME integrity error" },
	{ 0x082b, "TME TDX error" },
	{ 0x082c, "TME underfill secure-mode error" },
	{ 0x082d, "TME key poison error" },
	{ 0x082e, "TME security engine error" },
	{ 0x1008, "corrected patrol scrub error on the mirror secondary (CORR_PATSCRUB_MIRR2ND_ERR)" },
	{ 0x1010, "uncorrected patrol scrub error on the mirror secondary (UC_PATSCRUB_MIRR2ND_ERR)" },
	{ 0x1020, "corrected spare error on the mirror secondary (COR_SPARE_MIRR2ND_ERR)" },
	{ 0x1040, "uncorrected spare error on the mirror secondary (UC_SPARE_MIRR2ND_ERR)" },
	{ 0x1080, "read error on the mirror secondary (HA_RD_MIRR2ND_ERR)" },
	{ 0x10a0, "uncorrected read error on the mirror secondary (HA_UNCORR_RD_MIRR2ND_ERR)" },
	{ 0, NULL },
};
const struct mscod_desc mscod_spr_imc[] = {
	{ MS_FIELD, 16, 31, spr_imc_codes },
	/* 0x0800-0x0827 are the same DDR-T/CMI/TME codes as Ice Lake. */
	{ MS_FIELD, 16, 31, icx_imc_codes },
	{ MS_END, 0, 0, NULL },
};

/* SDM, 06_8FH table "M2M MC Error Codes for IA32_MCi_STATUS (i = 12)": STATUS[23:16]. */
static const struct mce_code_text spr_m2m_codes[] = {
	{ 0x01, "read ECC error" },
	{ 0x02, "bucket-1 error" },
	{ 0x03, "read tracker parity error" },
	{ 0x05, "prefetch channel mismatch" },
	{ 0x07, "read completion parity error" },
	{ 0x08, "response parity error" },
	{ 0x09, "timeout" },
	{ 0x0a, "CMI reserved credit pool error" },
	{ 0x0b, "CMI total credit count error" },
	{ 0x0c, "CMI credit oversubscription error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_spr_m2m[] = {
	{ MS_FIELD, 16, 23, spr_m2m_codes },
	{ MS_END, 0, 0, NULL },
};

/* SDM, 06_ADH (Granite Rapids) table "B2CMI MC Error Codes": STATUS[31:16]. */
static const struct mce_code_text gnr_b2cmi_codes[] = {
	{ 0x01, "read ECC error" },
	{ 0x02, "bucket-1 error" },
	{ 0x03, "tracker parity error" },
	{ 0x04, "security mismatch" },
	{ 0x07, "read completion parity error" },
	{ 0x08, "response parity error" },
	{ 0x09, "timeout" },
	{ 0x0a, "address parity error" },
	{ 0x0c, "CMI credit oversubscription error" },
	{ 0x0d, "SAI mismatch error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_gnr_b2cmi[] = {
	{ MS_FIELD, 16, 31, gnr_b2cmi_codes },
	{ MS_END, 0, 0, NULL },
};

/* SDM, 06_ADH table "Memory Controller Channel (MCCHAN) MC Error Codes": STATUS[31:16]. */
static const struct mce_code_text gnr_mcchan_codes[] = {
	{ 0x0001, "address parity error" },
	{ 0x0002, "CMI write data parity error, sub-channel 0" },
	{ 0x0003, "CMI ECC error, sub-channel 0" },
	{ 0x0004, "CMI write byte-enable parity error, sub-channel 0" },
	{ 0x0005, "CMI write MAC parity error, sub-channel 0" },
	{ 0x0008, "corrected patrol scrub error" },
	{ 0x0010, "uncorrected patrol scrub error" },
	{ 0x0020, "corrected spare error" },
	{ 0x0040, "uncorrected spare error" },
	{ 0x0080, "transient or corrected error on a demand or underfill read" },
	{ 0x00a0, "uncorrectable error on a demand or underfill read" },
	{ 0x00b0, "poison read from memory while poison is disabled" },
	{ 0x00c0, "2LM metadata read error" },
	{ 0x0100, "write data buffer read parity error, sub-channel 0" },
	{ 0x0102, "write data buffer read ECC error, sub-channel 0" },
	{ 0x0104, "write data buffer byte-enable parity error, sub-channel 0" },
	{ 0x0106, "write data buffer persistent corrected ECC error, sub-channel 0" },
	{ 0x0108, "DDR link failure" },
	{ 0x0109, "illegal incoming opcode" },
	{ 0x0200, "DDR command/address parity or write CRC error" },
	{ 0x0400, "scheduler address parity error" },
	{ 0x0832, "memory controller internal error" },
	{ 0x0833, "memory controller tracker address parity error" },
	{ 0x2002, "CMI write data parity error, sub-channel 1" },
	{ 0x2003, "CMI ECC error, sub-channel 1" },
	{ 0x2004, "CMI write byte-enable parity error, sub-channel 1" },
	{ 0x2005, "CMI write MAC parity error, sub-channel 1" },
	{ 0x2100, "write data buffer read parity error, sub-channel 1" },
	{ 0x2102, "write data buffer read ECC error, sub-channel 1" },
	{ 0x2104, "write data buffer byte-enable parity error, sub-channel 1" },
	{ 0x2106, "write data buffer persistent corrected ECC error, sub-channel 1" },
	{ 0, NULL },
};
const struct mscod_desc mscod_gnr_mcchan[] = {
	{ MS_FIELD, 16, 31, gnr_mcchan_codes },
	{ MS_END, 0, 0, NULL },
};

/*
 * Diamond Rapids (display family 19, model 01H) MCCHAN codes, STATUS[31:16].
 * No SDM section has been published yet; the values are Intel's own public
 * decode data (Intel-contributed mcelog tables, 2025), re-worded here.
 */
static const struct mce_code_text dmr_mcchan_codes[] = {
	{ 0x0001, "CMI request address parity error" },
	{ 0x0002, "CMI write data parity error" },
	{ 0x0004, "CMI write byte-enable parity error" },
	{ 0x0008, "transient or corrected error on a patrol read" },
	{ 0x0010, "uncorrected patrol scrub error" },
	{ 0x0020, "transient or corrected error on a spare read" },
	{ 0x0040, "uncorrected spare error" },
	{ 0x0080, "transient or corrected error on a demand or underfill read" },
	{ 0x00a0, "uncorrectable error on a demand or underfill read" },
	{ 0x00b0, "poisoned read data while poison is disabled" },
	{ 0x00c0, "2LM metadata read error" },
	{ 0x0102, "write data buffer read ECC error" },
	{ 0x0104, "write data buffer byte-enable parity error" },
	{ 0x0106, "write data buffer persistent ECC error" },
	{ 0x0108, "DDR link failure" },
	{ 0x0109, "illegal incoming opcode" },
	{ 0x0200, "DDR command/address parity or write CRC error" },
	{ 0x0240, "decoder structure error" },
	{ 0x0400, "memory controller internal address parity error" },
	{ 0x0813, "CMI credit oversubscription error" },
	{ 0x0814, "CMI total credit count error" },
	{ 0x0815, "CMI reserved credit pool error" },
	{ 0x0832, "memory controller internal error" },
	{ 0x0834, "memory controller tracker read-completion parity error" },
	{ 0x0836, "memory controller tracker write-completion parity error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_dmr_mcchan[] = {
	{ MS_FIELD, 16, 31, dmr_mcchan_codes },
	{ MS_END, 0, 0, NULL },
};

/*
 * SDM Vol. 3B, "Incremental Decoding Information: Processor Family with
 * CPUID DisplayFamily_DisplayModel Signature 06_5FH" (Intel Atom C3000,
 * Denverton), table "Intel IMC MC Error Codes for IA32_MCi_STATUS (i = 6, 7)"
 * (Table 16-33 in the 2016-2022 editions): STATUS[20:16] flags. The SDM page
 * itself was not in reach here; bank numbers, bit positions and meanings are
 * as Intel's own decoder (mcelog denverton.c, Intel, citing that table)
 * states them, re-worded.
 */
static const struct mce_code_text dnv_imc_bits[] = {
	{ 16, "command/address parity error" },
	{ 17, "corrected error on a demand read or patrol scrub" },
	{ 18, "uncorrected patrol scrub error" },
	{ 19, "uncorrected demand read error" },
	{ 20, "write data buffer read ECC error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_dnv_imc[] = {
	{ MS_BITS, 16, 20, dnv_imc_bits },
	{ MS_END, 0, 0, NULL },
};

/*
 * SDM 06_56H (Intel Xeon D, Broadwell-DE) table "Intel IMC MC Error Codes for
 * IA32_MCi_STATUS (i = 9-10)" (Table 16-25 in the 2016 edition): the
 * Broadwell-EP flags without the spare-error bits 21-23.
 */
static const struct mce_code_text bdx_de_imc_bits[] = {
	{ 16, "DDR3 address parity error" },
	{ 17, "uncorrected home-agent write data error" },
	{ 18, "uncorrected home-agent byte-enable error" },
	{ 19, "corrected patrol scrub error" },
	{ 20, "uncorrected patrol scrub error" },
	{ 24, "memory controller write data buffer parity error" },
	{ 25, "DDR4 command/address parity error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_bdx_de_imc[] = {
	{ MS_BITS, 16, 25, bdx_de_imc_bits },
	{ MS_END, 0, 0, NULL },
};

/* Banks whose MSCOD Intel does not publish: no entry, only the statement so. */
const struct mscod_desc mscod_unpublished[] = {
	{ MS_END, 0, 0, NULL },
};

/*
 * IA32_MC4 (PCU) MCACOD values, SDM 06_55H table "Machine Check Error Codes
 * for IA32_MC4_STATUS" (Table 16-27 in the 2016 edition) and 06_56H
 * (Broadwell-DE, Table 16-24), which list the same four codes; only the
 * wording of 0403H differs ("PCU internal errors" / "internal errors").
 */
const struct mce_code_text pcu_mcacod_texts[] = {
	{ 0x0402, "PCU internal error" },
	{ 0x0403, "PCU internal error" },
	{ 0x0406, "Intel TXT error" },
	{ 0x0407, "other UBOX internal error" },
	{ 0, NULL },
};

/* SDM, 06_3FH/06_4FH table "Machine Check Error Codes for IA32_MC4_STATUS": STATUS[31:24]. */
static const struct mce_code_text hsx_pcu_codes[] = {
	{ 0x09, "MC_MESSAGE_CHANNEL_TIMEOUT" }, { 0x0d, "MC_IMC_FORCE_SR_S3_TIMEOUT" },
	{ 0x0e, "MC_CPD_UNCPD_SD_TIMEOUT" }, { 0x13, "MC_DMI_TRAINING_TIMEOUT" },
	{ 0x15, "MC_DMI_CPU_RESET_ACK_TIMEOUT" }, { 0x1e, "MC_VR_ICC_MAX_LT_FUSED_ICC_MAX" },
	{ 0x25, "MC_SVID_COMMAND_TIMEOUT" }, { 0x29, "MC_VR_VOUT_MAC_LT_FUSED_SVID" },
	{ 0x2b, "MC_PKGC_WATCHDOG_HANG_CBZ_DOWN" }, { 0x2c, "MC_PKGC_WATCHDOG_HANG_CBZ_UP" },
	{ 0x39, "MC_PKGC_WATCHDOG_HANG_C3_UP_SF" }, { 0x44, "MC_CRITICAL_VR_FAILED" },
	{ 0x45, "MC_ICC_MAX_NOTSUPPORTED" }, { 0x46, "MC_VID_RAMP_DOWN_FAILED" },
	{ 0x47, "MC_EXCL_MODE_NO_PMREQ_CMP" }, { 0x48, "MC_SVID_READ_REG_ICC_MAX_FAILED" },
	{ 0x49, "MC_SVID_WRITE_REG_VOUT_MAX_FAILED" }, { 0x4b, "MC_BOOT_VID_TIMEOUT_DRAM_0" },
	{ 0x4c, "MC_BOOT_VID_TIMEOUT_DRAM_1" }, { 0x4d, "MC_BOOT_VID_TIMEOUT_DRAM_2" },
	{ 0x4e, "MC_BOOT_VID_TIMEOUT_DRAM_3" }, { 0x4f, "MC_SVID_COMMAND_ERROR" },
	{ 0x52, "MC_FIVR_CATAS_OVERVOL_FAULT" }, { 0x53, "MC_FIVR_CATAS_OVERCUR_FAULT" },
	{ 0x57, "MC_SVID_PKGC_REQUEST_FAILED" }, { 0x58, "MC_SVID_IMON_REQUEST_FAILED" },
	{ 0x59, "MC_SVID_ALERT_REQUEST_FAILED" }, { 0x60, "MC_INVALID_PKGS_REQ_PCH" },
	{ 0x61, "MC_INVALID_PKGS_REQ_QPI" }, { 0x62, "MC_INVALID_PKGS_RSP_QPI" },
	{ 0x63, "MC_INVALID_PKGS_RSP_PCH" }, { 0x64, "MC_INVALID_PKG_STATE_CONFIG" },
	{ 0x67, "MC_HA_IMC_RW_BLOCK_ACK_TIMEOUT" }, { 0x68, "MC_IMC_RW_SMBUS_TIMEOUT" },
	{ 0x69, "MC_HA_FAILSTS_CHANGE_DETECTED" }, { 0x6a, "MC_MSGCH_PMREQ_CMP_TIMEOUT" },
	{ 0x70, "MC_WATCHDOG_TIMEOUT_PKGC_SLAVE" }, { 0x71, "MC_WATCHDOG_TIMEOUT_PKGC_MASTER" },
	{ 0x72, "MC_WATCHDOG_TIMEOUT_PKGS_MASTER" }, { 0x7c, "MC_BIOS_RST_CPL_INVALID_SEQ" },
	{ 0x7d, "MC_MORE_THAN_ONE_TXT_AGENT" }, { 0x81, "MC_RECOVERABLE_DIE_THERMAL_TOO_HOT" },
	{ 0, NULL },
};
const struct mscod_desc mscod_hsx_pcu[] = {
	{ MS_FIELD, 24, 31, hsx_pcu_codes },
	{ MS_END, 0, 0, NULL },
};

/* SDM, 06_55H table "Machine Check Error Codes for IA32_MC4_STATUS": STATUS[31:24]. */
static const struct mce_code_text skx_pcu_codes[] = {
	{ 0x0d, "MCA_DMI_TRAINING_TIMEOUT" }, { 0x0f, "MCA_DMI_CPU_RESET_ACK_TIMEOUT" },
	{ 0x10, "MCA_MORE_THAN_ONE_LT_AGENT" }, { 0x1e, "MCA_BIOS_RST_CPL_INVALID_SEQ" },
	{ 0x1f, "MCA_BIOS_INVALID_PKG_STATE_CONFIG" }, { 0x25, "MCA_MESSAGE_CHANNEL_TIMEOUT" },
	{ 0x27, "MCA_MSGCH_PMREQ_CMP_TIMEOUT" }, { 0x30, "MCA_PKGC_DIRECT_WAKE_RING_TIMEOUT" },
	{ 0x31, "MCA_PKGC_INVALID_RSP_PCH" }, { 0x33, "MCA_PKGC_WATCHDOG_HANG_CBZ_DOWN" },
	{ 0x34, "MCA_PKGC_WATCHDOG_HANG_CBZ_UP" }, { 0x38, "MCA_PKGC_WATCHDOG_HANG_C3_UP_SF" },
	{ 0x40, "MCA_SVID_VCCIN_VR_ICC_MAX_FAILURE" }, { 0x41, "MCA_SVID_COMMAND_TIMEOUT" },
	{ 0x42, "MCA_SVID_VCCIN_VR_VOUT_FAILURE" }, { 0x43, "MCA_SVID_CPU_VR_CAPABILITY_ERROR" },
	{ 0x44, "MCA_SVID_CRITICAL_VR_FAILED" }, { 0x45, "MCA_SVID_SA_ITD_ERROR" },
	{ 0x46, "MCA_SVID_READ_REG_FAILED" }, { 0x47, "MCA_SVID_WRITE_REG_FAILED" },
	{ 0x48, "MCA_SVID_PKGC_INIT_FAILED" }, { 0x49, "MCA_SVID_PKGC_CONFIG_FAILED" },
	{ 0x4a, "MCA_SVID_PKGC_REQUEST_FAILED" }, { 0x4b, "MCA_SVID_IMON_REQUEST_FAILED" },
	{ 0x4c, "MCA_SVID_ALERT_REQUEST_FAILED" }, { 0x4d, "MCA_SVID_MCP_VR_ABSENT_OR_RAMP_ERROR" },
	{ 0x4e, "MCA_SVID_UNEXPECTED_MCP_VR_DETECTED" }, { 0x51, "MCA_FIVR_CATAS_OVERVOL_FAULT" },
	{ 0x52, "MCA_FIVR_CATAS_OVERCUR_FAULT" }, { 0x58, "MCA_WATCHDOG_TIMEOUT_PKGC_SLAVE" },
	{ 0x59, "MCA_WATCHDOG_TIMEOUT_PKGC_MASTER" }, { 0x5a, "MCA_WATCHDOG_TIMEOUT_PKGS_MASTER" },
	{ 0x61, "MCA_PKGS_CPD_UNCPD_TIMEOUT" }, { 0x63, "MCA_PKGS_INVALID_REQ_PCH" },
	{ 0x64, "MCA_PKGS_INVALID_REQ_INTERNAL" }, { 0x65, "MCA_PKGS_INVALID_RSP_INTERNAL" },
	{ 0x6b, "MCA_PKGS_SMBUS_VPP_PAUSE_TIMEOUT" }, { 0x81, "MCA_RECOVERABLE_DIE_THERMAL_TOO_HOT" },
	{ 0, NULL },
};
const struct mscod_desc mscod_skx_pcu[] = {
	{ MS_FIELD, 24, 31, skx_pcu_codes },
	{ MS_END, 0, 0, NULL },
};

/*
 * SDM, 06_6AH and 06_8FH tables "Machine Check Error Codes for
 * IA32_MC4_STATUS": STATUS[31:24] firmware codes, [23:20] and [19:16]
 * hardware codes (the two generations list the same values).
 */
static const struct mce_code_text i10nm_pcu_fw_codes[] = {
	{ 0x0d, "MCA_LLC_BIST_ACTIVE_TIMEOUT" }, { 0x0e, "MCA_DMI_TRAINING_TIMEOUT" },
	{ 0x0f, "MCA_DMI_STRAP_SET_ARRIVAL_TIMEOUT" }, { 0x10, "MCA_DMI_CPU_RESET_ACK_TIMEOUT" },
	{ 0x11, "MCA_MORE_THAN_ONE_LT_AGENT" }, { 0x14, "MCA_INCOMPATIBLE_PCH_TYPE" },
	{ 0x1e, "MCA_BIOS_RST_CPL_INVALID_SEQ" }, { 0x1f, "MCA_BIOS_INVALID_PKG_STATE_CONFIG" },
	{ 0x2d, "MCA_PCU_PMAX_CALIB_ERROR" }, { 0x2e, "MCA_TSC100_SYNC_TIMEOUT" },
	{ 0x3a, "MCA_GPSB_TIMEOUT" }, { 0x3b, "MCA_PMSB_TIMEOUT" },
	{ 0x3e, "MCA_IOSFSB_PMREQ_CMP_TIMEOUT" }, { 0x40, "MCA_SVID_VCCIN_VR_ICC_MAX_FAILURE" },
	{ 0x42, "MCA_SVID_VCCIN_VR_VOUT_FAILURE" }, { 0x43, "MCA_SVID_CPU_VR_CAPABILITY_ERROR" },
	{ 0x44, "MCA_SVID_CRITICAL_VR_FAILED" }, { 0x45, "MCA_SVID_SA_ITD_ERROR" },
	{ 0x46, "MCA_SVID_READ_REG_FAILED" }, { 0x47, "MCA_SVID_WRITE_REG_FAILED" },
	{ 0x4a, "MCA_SVID_PKGC_REQUEST_FAILED" }, { 0x4b, "MCA_SVID_IMON_REQUEST_FAILED" },
	{ 0x4c, "MCA_SVID_ALERT_REQUEST_FAILED" }, { 0x4d, "MCA_SVID_MCP_VR_RAMP_ERROR" },
	{ 0x56, "MCA_FIVR_PD_HARDERR" }, { 0x58, "MCA_WATCHDOG_TIMEOUT_PKGC_SECONDARY" },
	{ 0x59, "MCA_WATCHDOG_TIMEOUT_PKGC_MAIN" }, { 0x5a, "MCA_WATCHDOG_TIMEOUT_PKGS_MAIN" },
	{ 0x5b, "MCA_WATCHDOG_TIMEOUT_MSG_CH_FSM" }, { 0x5c, "MCA_WATCHDOG_TIMEOUT_BULK_CR_FSM" },
	{ 0x5d, "MCA_WATCHDOG_TIMEOUT_IOSFSB_FSM" }, { 0x60, "MCA_PKGS_SAFE_WP_TIMEOUT" },
	{ 0x61, "MCA_PKGS_CPD_UNCPD_TIMEOUT" }, { 0x62, "MCA_PKGS_INVALID_REQ_PCH" },
	{ 0x63, "MCA_PKGS_INVALID_REQ_INTERNAL" }, { 0x64, "MCA_PKGS_INVALID_RSP_INTERNAL" },
	{ 0x7b, "MCA_PKGS_SMBUS_VPP_PAUSE_TIMEOUT" }, { 0x7c, "MCA_PKGS_SMBUS_MCP_PAUSE_TIMEOUT" },
	{ 0x7d, "MCA_PKGS_SMBUS_SPD_PAUSE_TIMEOUT" }, { 0x80, "MCA_PKGC_DISP_BUSY_TIMEOUT" },
	{ 0x81, "MCA_PKGC_INVALID_RSP_PCH" }, { 0x83, "MCA_PKGC_WATCHDOG_HANG_CBZ_DOWN" },
	{ 0x84, "MCA_PKGC_WATCHDOG_HANG_CBZ_UP" }, { 0x87, "MCA_PKGC_WATCHDOG_HANG_C2_BLKMASTER" },
	{ 0x88, "MCA_PKGC_WATCHDOG_HANG_C2_PSLIMIT" }, { 0x89, "MCA_PKGC_WATCHDOG_HANG_SETDISP" },
	{ 0x8b, "MCA_PKGC_ALLOW_L1_ERROR" }, { 0x90, "MCA_RECOVERABLE_DIE_THERMAL_TOO_HOT" },
	{ 0xa0, "MCA_ADR_SIGNAL_TIMEOUT" }, { 0xa1, "MCA_BCLK_FREQ_OC_ABOVE_THRESHOLD" },
	{ 0xb0, "MCA_DISPATCHER_RUN_BUSY_TIMEOUT" },
	{ 0, NULL },
};
static const struct mce_code_text i10nm_pcu_hw2_codes[] = {
	{ 0x4, "clock/power IP response timeout" }, { 0x5, "SMBus controller raised SMI" },
	{ 0x9, "power-management controller received an invalid transaction" },
	{ 0, NULL },
};
static const struct mce_code_text i10nm_pcu_hw1_codes[] = {
	{ 0x1, "PCU instruction address out of valid space" },
	{ 0x2, "PCU double-bit RAM error on instruction fetch" },
	{ 0x3, "PCU invalid opcode" }, { 0x4, "PCU stack underflow" }, { 0x5, "PCU stack overflow" },
	{ 0x6, "PCU data address out of valid space" },
	{ 0x7, "PCU double-bit RAM error on data fetch" },
	{ 0, NULL },
};
const struct mscod_desc mscod_i10nm_pcu[] = {
	{ MS_FIELD, 24, 31, i10nm_pcu_fw_codes },
	{ MS_FIELD, 20, 23, i10nm_pcu_hw2_codes },
	{ MS_FIELD, 16, 19, i10nm_pcu_hw1_codes },
	{ MS_END, 0, 0, NULL },
};

/*
 * Zhaoxin KH-50000 (family 7, model 7BH). Zhaoxin's own public decode data
 * (Zhaoxin-contributed mcelog/rasdaemon KH-50000 tables, 2026), re-worded.
 * DRAM banks: STATUS[20:16] internal error code.
 */
static const struct mce_code_text kh50000_dram_codes[] = {
	{ 1, "single-bit ECC error" }, { 2, "multi-bit ECC error" },
	{ 3, "command parity error" }, { 4, "CRC error" },
	{ 5, "parity error, retry failed" }, { 6, "CRC error, retry failed" },
	{ 7, "CPU interface channel A0 address decode error" },
	{ 8, "CPU interface channel B0 address decode error" },
	{ 9, "CPU interface channel A1 address decode error" },
	{ 10, "CPU interface channel B1 address decode error" },
	{ 11, "memory controller transfer address decode error" },
	{ 12, "GMINT channel A0 address decode error" }, { 13, "GMINT channel B0 address decode error" },
	{ 14, "GMINT channel A1 address decode error" }, { 15, "GMINT channel B1 address decode error" },
	{ 16, "key not hit" },
	{ 0, NULL },
};
const struct mscod_desc mscod_kh50000_dram[] = {
	{ MS_FIELD, 16, 20, kh50000_dram_codes },
	{ MS_END, 0, 0, NULL },
};

/* KH-50000 SVID banks: STATUS[26:24]. */
static const struct mce_code_text kh50000_svid_codes[] = {
	{ 1, "SVID resend failed" }, { 2, "voltage regulator over-current" },
	{ 3, "voltage regulator over-temperature" }, { 4, "voltage regulator parity error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_kh50000_svid[] = {
	{ MS_FIELD, 24, 26, kh50000_svid_codes },
	{ MS_END, 0, 0, NULL },
};

/* KH-50000 PCIe banks: STATUS[17:16] severity class of the PCIe error. */
static const struct mce_code_text kh50000_pcie_codes[] = {
	{ 0, "PCIe fatal error" }, { 1, "PCIe non-fatal error" }, { 2, "PCIe correctable error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_kh50000_pcie[] = {
	{ MS_FIELD, 16, 17, kh50000_pcie_codes },
	{ MS_END, 0, 0, NULL },
};

/* KH-50000 host interface (HIF) banks: STATUS[18:16]. */
static const struct mce_code_text kh50000_hif_codes[] = {
	{ 1, "HIF address decode error" }, { 2, "snoop table multi-bit ECC error" },
	{ 3, "snoop table single-bit ECC error" }, { 4, "CXL poison (uncorrected)" },
	{ 5, "CXL poison (corrected)" }, { 6, "CXL parity error" },
	{ 0, NULL },
};
const struct mscod_desc mscod_kh50000_hif[] = {
	{ MS_FIELD, 16, 18, kh50000_hif_codes },
	{ MS_END, 0, 0, NULL },
};
