/* SPDX-License-Identifier: MIT */
/*
 * AMD and Hygon machine-check decode: Scalable MCA (family 17h and later,
 * Hygon 18h) via MCA_IPID bank types, and the pre-SMCA families (K8, 10h,
 * 11h, 12h, 14h, 15h, 16h) via fixed bank numbers.
 *
 * Register layout: AMD64 Architecture Programmer's Manual Vol. 2, 9.3
 * "Machine-Check Architecture MSRs", and the family 17h/19h PPRs
 * (MCA_STATUS: [44] Deferred, [43] Poison, [53] SyndV, [55] TCC,
 * [21:16] ErrorCodeExt; MCA_IPID: [63:48] McaType, [47:44] InstanceIdHi,
 * [43:32] HardwareID, [31:0] InstanceId).
 */
#include <stdio.h>
#include <string.h>
#include "mce_amd.h"

#define AMD_SEV_SMCA_KEY (1ULL << 0) /* synthetic: bank is Scalable MCA */

/*
 * Severity: AMD APM Vol. 2 9.3 (UC, PCC, Deferred) and the recovery rules
 * of Linux mce/severity.c (mce_severity_amd): first matching row wins.
 * Pre-SMCA parts have no software-recovery support (no SUCCOR), so an
 * uncorrected error there is fatal.
 */
static const struct {
	uint64_t mask, value;
	enum ras_severity severity;
} amd_severity_rules[] = {
	{ MCI_STATUS_PCC, MCI_STATUS_PCC, RAS_SEV_FATAL },
	{ MCI_STATUS_DEFERRED | MCI_STATUS_UC, MCI_STATUS_DEFERRED, RAS_SEV_DEFERRED },
	{ MCI_STATUS_UC, 0, RAS_SEV_CORRECTED },
	{ AMD_SEV_SMCA_KEY, 0, RAS_SEV_FATAL },
	{ 0, 0, RAS_SEV_SRAR }, /* SMCA, UC, context intact or task context corrupt */
};

static enum ras_severity amd_severity(uint64_t status, bool smca)
{
	uint64_t key = (status & ~AMD_SEV_SMCA_KEY) | (smca ? AMD_SEV_SMCA_KEY : 0);

	for (size_t i = 0; i < MCE_ARRAY_SIZE(amd_severity_rules); i++)
		if ((key & amd_severity_rules[i].mask) == amd_severity_rules[i].value)
			return amd_severity_rules[i].severity;
	return RAS_SEV_UNCORRECTED;
}

/* Marketing-neutral family names (AMD PPR/BKDG titles). */
static const struct {
	uint8_t vendor, family;
	const char *name;
} amd_family_names[] = {
	{ MCE_VENDOR_AMD, 0x0f, "K8 (family 0Fh)" },
	{ MCE_VENDOR_AMD, 0x10, "family 10h" },
	{ MCE_VENDOR_AMD, 0x11, "family 11h" },
	{ MCE_VENDOR_AMD, 0x12, "family 12h" },
	{ MCE_VENDOR_AMD, 0x14, "family 14h" },
	{ MCE_VENDOR_AMD, 0x15, "family 15h" },
	{ MCE_VENDOR_AMD, 0x16, "family 16h" },
	{ MCE_VENDOR_AMD, 0x17, "Zen/Zen 2 (family 17h)" },
	{ MCE_VENDOR_AMD, 0x19, "Zen 3/Zen 4 (family 19h)" },
	{ MCE_VENDOR_AMD, 0x1a, "Zen 5 (family 1Ah)" },
	{ MCE_VENDOR_HYGON, 0x18, "Hygon Dhyana (family 18h)" },
};

static void set_family_name(const struct mce_in *in, struct mce_decoded *out)
{
	for (size_t i = 0; i < MCE_ARRAY_SIZE(amd_family_names); i++)
		if (amd_family_names[i].vendor == in->cpuvendor &&
		    amd_family_names[i].family == out->family)
			mce_copy(out->cpu_model_name, sizeof(out->cpu_model_name),
				 amd_family_names[i].name);
}

static const struct smca_type *find_smca_type(unsigned hwid, unsigned mcatype, int64_t family,
					      int64_t model)
{
	for (size_t i = 0; i < smca_n_quirks; i++) {
		const struct smca_quirk *q = &smca_quirks[i];

		if (q->family == family && model >= q->model_lo && model <= q->model_hi &&
		    q->hwid == hwid && q->mcatype == mcatype) {
			hwid = q->to_hwid;
			mcatype = q->to_mcatype;
			break;
		}
	}
	for (size_t i = 0; i < smca_n_types; i++)
		if (smca_types[i].hwid == hwid && smca_types[i].mcatype == mcatype)
			return &smca_types[i];
	return NULL;
}

static void set_xec_text(const char *const *table, size_t n, const char *bank, struct mce_decoded *out)
{
	size_t xec = (size_t)out->xec;

	if (xec < n && table[xec]) {
		mce_copy(out->error_text, sizeof(out->error_text), table[xec]);
		return;
	}
	/* Keep the architectural meaning; do not invent one for the extended code. */
	ou_appendf(out->error_text, sizeof(out->error_text),
		    " (extended error code %zu not documented for %s)", xec, bank);
}

static bool is_umc(const struct smca_type *t)
{
	return t->hwid == 0x96 || (t->hwid == 0 && t->mcatype == 2);
}

/*
 * UMC banks of HBM: UMC v2 (MI200-class accelerator nodes; Linux mce/amd.c
 * SMCA_UMC_V2, the bank type amd64_edac re-maps to GPU nodes) and the MI300
 * UMC (family 19h models 90h-9Fh, whose UMCs amd64_edac reads with the GPU
 * layout), here the synthetic type of its code-table quirk.
 */
static bool is_hbm_umc(const struct smca_type *t)
{
	return (t->hwid == 0x96 && t->mcatype == 0x01) || (t->hwid == 0 && t->mcatype == 2);
}

/*
 * Without a bank type the compound code's architectural reading ("generic
 * cache read" for a UMC DRAM ECC error) would name the wrong unit: the
 * sentence says the bank type is unknown and keeps that reading in brackets.
 */
static void unknown_bank_text(const char *why, struct mce_decoded *out)
{
	char arch[MCE_TEXT_LEN];

	mce_copy(arch, sizeof(arch), out->error_text);
	snprintf(out->error_text, sizeof(out->error_text),
		 "error in an SMCA bank of unknown type (%s; code 0x%04llx reads as %s)", why,
		 (unsigned long long)out->mcacod, arch[0] ? arch : "undefined");
}

static void decode_smca(const struct mce_in *in, struct mce_decoded *out)
{
	unsigned hwid = (unsigned)mce_bits(in->ipid, 32, 43);
	unsigned mcatype = (unsigned)mce_bits(in->ipid, 48, 63);
	const struct smca_type *t;

	out->xec = (int64_t)mce_bits(in->status, 16, 21);
	if (!in->has_ipid && !in->ipid) {
		mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
				"SMCA record without MCA_IPID: bank type unknown");
		unknown_bank_text("no MCA_IPID", out);
		return;
	}
	out->smca_hwid = hwid;
	out->smca_mcatype = mcatype;
	if (in->ipid_type_only) {
		mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
				"no MCA_IPID: bank type from the kernel's text, instance and channel unknown");
	} else {
		out->smca_instance = (int64_t)mce_bits(in->ipid, 0, 31);
		/* Linux EDAC (mce_amd.c, "Extract node id from MCA_IPID"): GPU node ID, not a socket. */
		out->smca_instance_hi = (int64_t)mce_bits(in->ipid, 44, 47);
	}
	t = find_smca_type(hwid, mcatype, out->family, out->model);
	if (!t) {
		ou_appendf(out->decode_note, sizeof(out->decode_note),
			    "%sunknown SMCA bank type (HardwareID 0x%03x, McaType 0x%04x)",
			    out->decode_note[0] ? "; " : "", hwid, mcatype);
		unknown_bank_text("HardwareID/McaType not known", out);
		return;
	}
	mce_copy(out->smca_bank_type, sizeof(out->smca_bank_type), t->long_name);
	mce_copy(out->bank_name, sizeof(out->bank_name), t->short_name);
	set_xec_text(t->xec, t->n_xec, t->short_name, out);
	if (is_umc(t) || strcmp(out->error_class, "undefined") == 0 ||
	    strcmp(out->error_class, "simple") == 0 || strcmp(out->error_class, "none") == 0)
		mce_copy(out->error_class, sizeof(out->error_class), t->error_class);
	if (is_umc(t))
		amd_umc_location(in, is_hbm_umc(t), out);
}

/* SMCA MCA_ADDR[61:56] holds the least significant valid address bit (family 17h+ PPR). */
static void smca_address(const struct mce_in *in, struct mce_decoded *out)
{
	uint64_t lsb = mce_bits(in->addr, 56, 61);

	if (!(in->status & MCI_STATUS_ADDRV))
		return;
	if (lsb)
		out->addr_lsb = (int64_t)lsb;
	out->addr = (int64_t)mce_bits(in->addr, 0, 55);
}

/* Pre-SMCA bank numbering: BKDGs for families 0Fh/10h (DC, IC, BU, LS, NB) and 15h/16h. */
static const struct {
	uint8_t fam_lo, fam_hi, bank;
	const char *name;
} legacy_banks[] = {
	{ 0x0f, 0x14, 0, "DC" }, { 0x0f, 0x14, 1, "IC" }, { 0x0f, 0x14, 2, "BU" },
	{ 0x0f, 0x14, 3, "LS" }, { 0x0f, 0x16, 4, "NB" },
	{ 0x15, 0x16, 0, "LS" }, { 0x15, 0x16, 1, "IF" }, { 0x15, 0x15, 2, "CU" },
	{ 0x16, 0x16, 2, "L2" }, { 0x15, 0x16, 5, "EX" }, { 0x15, 0x16, 6, "FP" },
};

/* Northbridge (MC4) extended error codes, STATUS[20:16]: BKDG family 10h/15h "MC4_STATUS". */
static const struct mce_code_text nb_xec[] = {
	{ 0x00, "DRAM ECC error detected by the northbridge" },
	{ 0x01, "CRC error on a HyperTransport link" },
	{ 0x02, "sync error packets on a HyperTransport link" },
	{ 0x03, "HyperTransport master abort" },
	{ 0x04, "HyperTransport target abort" },
	{ 0x05, "invalid GART PTE during table walk" },
	{ 0x06, "unsupported atomic read-modify-write from an I/O link" },
	{ 0x07, "watchdog timeout (no forward progress)" },
	{ 0x08, "DRAM ECC error detected by the northbridge" },
	{ 0x09, "SVM DMA exclusion vector error" },
	{ 0x0a, "HyperTransport data error" },
	{ 0x0b, "protocol error (link, L3 or probe filter)" },
	{ 0x0c, "northbridge internal array parity error" },
	{ 0x0d, "DRAM address/control parity error" },
	{ 0x0e, "I/O link transmission error" },
	{ 0x1c, "L3 cache data ECC error" },
	{ 0x1d, "L3 cache tag error" },
	{ 0x1e, "L3 cache LRU parity error" },
	{ 0x1f, "probe filter directory ECC error" },
	{ 0, NULL },
};

static void decode_legacy(const struct mce_in *in, struct mce_decoded *out)
{
	const char *text;

	out->xec = (int64_t)mce_bits(in->status, 16, 20);
	for (size_t i = 0; i < MCE_ARRAY_SIZE(legacy_banks); i++)
		if (out->family >= legacy_banks[i].fam_lo && out->family <= legacy_banks[i].fam_hi &&
		    legacy_banks[i].bank == in->bank)
			mce_copy(out->bank_name, sizeof(out->bank_name), legacy_banks[i].name);
	if (strcmp(out->bank_name, "NB") != 0)
		return;
	text = mce_code_lookup(nb_xec, (uint32_t)out->xec);
	if (!text)
		return;
	mce_copy(out->model_text, sizeof(out->model_text), text);
	if (out->xec == 0x00 || out->xec == 0x08) {
		/* The compound code (a generic cache read) does not name DRAM; the NB's code does. */
		mce_copy(out->error_class, sizeof(out->error_class), "memory");
		mce_copy(out->error_text, sizeof(out->error_text), "DRAM ECC error");
		amd_nb_dram_ecc(in, out);
	}
}

/*
 * Whether ADDR is a system physical address (the kernel's rule, mce/amd.c):
 * a pre-SMCA northbridge DRAM ECC error (bank 4, XEC 8) is; any other bank 4
 * error is not; elsewhere only a poison consumption is. A UMC's DRAM error
 * holds a normalized address in the memory controller's own space: a page
 * action on it would take the wrong page (EDAC's mc_event has the system one).
 */
static int64_t amd_addr_usable(const struct mce_in *in, bool smca)
{
	if (!(in->status & MCI_STATUS_ADDRV))
		return 0;
	if (!smca && in->bank == 4)
		return mce_bits(in->status, 16, 20) == 8;
	return mce_flag(in->status, MCI_STATUS_POISON);
}

void mce_amd_decode(const struct mce_in *in, struct mce_model_memo *memo, struct mce_decoded *out)
{
	(void)memo;
	bool smca = out->family >= 0x17;

	set_family_name(in, out);
	mce_arch_decode((uint16_t)in->status, true, out);
	if (smca || out->family >= 0x15) {
		out->deferred = mce_flag(in->status, MCI_STATUS_DEFERRED);
		out->poison = mce_flag(in->status, MCI_STATUS_POISON);
	}
	if (smca) {
		decode_smca(in, out);
		smca_address(in, out);
		amd_vendor_data(in, out);
	} else if (out->family >= 0x0f) {
		decode_legacy(in, out);
	} else {
		mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
				"unknown CPU family: architectural decode only");
	}
	out->severity = amd_severity(in->status, smca);
	out->addr_usable = amd_addr_usable(in, smca);
}
