/* SPDX-License-Identifier: MIT */
/*
 * Intel-architecture machine-check decode: the architectural MCA error codes
 * (all 65536 MCACOD values, so all 4096 codes of every form), the Intel
 * status bits, and the SDM's uncorrected-error classification.
 *
 * Source of every table here: Intel SDM Vol. 3B, chapter "Machine-Check
 * Architecture" (chapter 16 in 2023+ editions, 15 in older ones), sections
 * "Machine-Check MSRs", "Interpreting the MCA Error Codes" and "Machine-Check
 * Error Classification" / "UCR Error Classification". Sections are cited by
 * title because their numbers move between editions.
 */
#include <stdio.h>
#include <string.h>
#include "mce_internal.h"

/* SDM "Simple Error Codes", Table "IA32_MCi_STATUS [15:0] Simple Error Code Encoding". */
static const struct mce_code_text simple_codes[] = {
	{ 0x0000, "no error" },
	{ 0x0001, "unclassified error" },
	{ 0x0002, "microcode ROM parity error" },
	{ 0x0003, "external error (BINIT# from another processor)" },
	{ 0x0004, "functional redundancy check (FRC) master/slave error" },
	{ 0x0005, "internal parity error" },
	{ 0x0006, "SMM handler code access violation" },
	{ 0x0400, "internal timer error" },
	{ 0x0e0b, "I/O error (IOMCA)" },
	{ 0, NULL },
};

/*
 * AMD shares the compound forms (APM Vol. 2, "Error Codes" in 9.3) but not
 * Intel's simple codes, so only "no error" is taken over.
 */
static const struct mce_code_text amd_simple_codes[] = {
	{ 0x0000, "no error" },
	{ 0, NULL },
};

/* SDM "Compound Error Codes": Table "Encoding for TT (Transaction Type) Sub-Field". */
/* Rows the size of the request and transaction members, copied whole (MCE_SET_ROW). */
static const char tt_names[4][16] = { "instruction", "data", "generic", "reserved" };
/*
 * The LL field (SDM Vol. 3B 16.9 / 15.9.2, "Level Encoding for LL (Memory
 * Hierarchy Level) Sub-Field": 00 level 0, 01 level 1, 10 level 2, 11
 * generic) as Linux and lscpu number the caches (sysfs cache/indexN/level:
 * L1d, L1i, L2, L3), the one number every view prints. Intel counts from the
 * core's first cache: Linux's MCACOD_DATA 0x0134 "data load" comes from the
 * L1 data cache unit (DCU) with LL 00, and its MCACOD_L3WB 0x017a "L3
 * explicit writeback" has LL 10 (arch/x86/include/asm/mce.h): Intel's level
 * is LL + 1. AMD counts from 1 (APM Vol. 2 9.3.2; Linux
 * drivers/edac/mce_amd.c names LL 00-11 "RESV", "L1", "L2", "L3/GEN"). 11 is
 * "generic" on both, and AMD's 00 reserved: no level. ras-fdr-ctl(8) says so.
 */
int64_t mce_ll_level(unsigned ll, bool amd)
{
	if (ll > 2 || (amd && ll == 0))
		return RAS_DF_NONE;
	return amd ? (int64_t)ll : (int64_t)ll + 1;
}

/* Rows of 16 bytes, NUL padded: written by their length, found sixteen at a time (ou_put_member). */
static const char level_names[5][16] = { "generic-level", "L1", "L2", "L3", "reserved-level" };

/* "L1", "L2", "L3", or "generic-level" ("reserved-level" for AMD's reserved 00). */
static const char (*level_row(unsigned ll, bool amd))[16]
{
	int64_t level = mce_ll_level(ll, amd);

	if (level == RAS_DF_NONE)
		return &level_names[amd && ll == 0 ? 4 : 0];
	return &level_names[level];
}

static const char *level_name(unsigned ll, bool amd)
{
	return *level_row(ll, amd);
}
/* SDM "Encoding of Request (RRRR) Sub-Field": short names and words. */
static const char rrrr_short[16][16] = {
	"err", "rd", "wr", "drd", "dwr", "ird", "prefetch", "evict", "snoop",
	"res9", "res10", "res11", "res12", "res13", "res14", "res15",
};
static const char rrrr_words[16][32] = {
	"generic", "generic read", "generic write", "data read", "data write",
	"instruction fetch", "prefetch", "eviction", "snoop",
	"reserved request 9", "reserved request 10", "reserved request 11",
	"reserved request 12", "reserved request 13", "reserved request 14",
	"reserved request 15",
};
/* SDM "Encodings of PP, T, and II Sub-Fields". */
static const char *const pp_words[4] = {
	"local processor originated request", "local processor responded to request",
	"local processor observed error as third party", "generic participation",
};
static const char *const ii_words[4] = {
	"memory access", "reserved II", "I/O", "other transaction",
};
/* SDM "Memory Controller Errors": Table "Encodings of MMM and CCCC Sub-Fields". */
static const char mmm_short[8][16] = {
	"gen", "rd", "wr", "ac", "ms", "res5", "res6", "res7",
};
static const char mmm_words[8][16] = {
	"generic", "read", "write", "address/command", "scrubbing",
	"reserved-5", "reserved-6", "reserved-7",
};

typedef void (*form_fn)(uint16_t code, bool amd, struct mce_decoded *out);

/* The class, a string literal, into error_class: its first writer, so whole (MCE_SET_LIT). */
#define set_class(out, cls) MCE_SET_LIT((out)->error_class, cls)

static void set_level(struct mce_decoded *out, unsigned ll, bool amd)
{
	out->cache_level = mce_ll_level(ll, amd);
}

static void form_generic_cache(uint16_t code, bool amd, struct mce_decoded *out)
{
	unsigned ll = code & 3;

	set_class(out, "cache");
	set_level(out, ll, amd);
	snprintf(out->error_text, sizeof(out->error_text),
		 "%s generic cache hierarchy error", level_name(ll, amd));
}

static void form_tlb(uint16_t code, bool amd, struct mce_decoded *out)
{
	unsigned ll = code & 3, tt = (code >> 2) & 3;

	set_class(out, "tlb");
	set_level(out, ll, amd);
	MCE_SET_ROW(out->transaction, tt_names[tt]);
	snprintf(out->error_text, sizeof(out->error_text), "%s %s TLB error",
		 level_name(ll, amd), tt_names[tt]);
}

static void form_memory(uint16_t code, bool amd, struct mce_decoded *out)
{
	unsigned ch = code & 0xf, mmm = (code >> 4) & 7;
	struct ou_buf t;

	(void)amd;
	set_class(out, "memory");
	MCE_SET_ROW(out->request, mmm_short[mmm]);
	MCE_SET_ROW(out->transaction, mmm_words[mmm]);
	if (ch != 0xf)
		out->channel = ch;
	t = ou_start(out->error_text, sizeof(out->error_text));
	/* "memory <mmm> error", without printf: the most common machine check of a storm. */
	ou_put_lit(&t, "memory ");
	ou_put_member(&t, mmm_words[mmm]);
	ou_put_lit(&t, " error");
}

/*
 * "Extended Memory Errors", 000F 0010 1MMM CCCC (SDM Vol. 3B, "General Forms
 * of Compound Error Codes"): the memory controller of memory used as a
 * cache for other memory (the near memory of a 2LM system), same MMM/CCCC.
 */
static void form_extended_memory(uint16_t code, bool amd, struct mce_decoded *out)
{
	form_memory(code, amd, out);
	mce_append_item(out->error_text, sizeof(out->error_text), " ", "(memory used as cache, 2LM near memory)");
}

static void form_cache(uint16_t code, bool amd, struct mce_decoded *out)
{
	unsigned ll = code & 3, tt = (code >> 2) & 3, rrrr = (code >> 4) & 0xf;
	struct ou_buf t;

	set_class(out, "cache");
	set_level(out, ll, amd);
	MCE_SET_ROW(out->transaction, tt_names[tt]);
	MCE_SET_ROW(out->request, rrrr_short[rrrr]);
	t = ou_start(out->error_text, sizeof(out->error_text));
	/* "<level> <type> cache <request> error", without printf: a storm's cache errors. */
	ou_put_member(&t, *level_row(ll, amd));
	ou_put_lit(&t, " ");
	ou_put_member(&t, tt_names[tt]);
	ou_put_lit(&t, " cache ");
	ou_put_member(&t, rrrr_words[rrrr]);
	ou_put_lit(&t, " error");
}

static void form_bus(uint16_t code, bool amd, struct mce_decoded *out)
{
	unsigned ll = code & 3, ii = (code >> 2) & 3, rrrr = (code >> 4) & 0xf;
	unsigned timeout = (code >> 8) & 1, pp = (code >> 9) & 3;

	set_class(out, "bus");
	set_level(out, ll, amd);
	MCE_SET_ROW(out->request, rrrr_short[rrrr]);
	if (ii == 2)
		MCE_SET_LIT(out->transaction, "io");
	else if (ii == 0)
		MCE_SET_LIT(out->transaction, "memory");
	else
		MCE_SET_LIT(out->transaction, "other");
	snprintf(out->error_text, sizeof(out->error_text),
		 "bus/interconnect %s error (%s, %s, %s%s)", rrrr_words[rrrr], pp_words[pp],
		 ii_words[ii], level_name(ll, amd), timeout ? ", timed out" : "");
}

static void form_internal(uint16_t code, bool amd, struct mce_decoded *out)
{
	(void)amd;
	set_class(out, "internal");
	snprintf(out->error_text, sizeof(out->error_text),
		 "internal unclassified error (code 0x%03x)", code & 0x3ff);
}

/*
 * SDM "Compound Error Codes", Table "General Forms of Compound Error Codes".
 * F (bit 12) is the corrected-error filtering bit and is masked out of the
 * form test; internal unclassified is "0000 01xx xxxx xxxx".
 */
static const struct {
	uint16_t mask, value;
	form_fn decode;
} compound_forms[] = {
	{ 0xeffc, 0x000c, form_generic_cache },   /* 000F 0000 0000 11LL */
	{ 0xeff0, 0x0010, form_tlb },             /* 000F 0000 0001 TTLL */
	{ 0xef80, 0x0080, form_memory },          /* 000F 0000 1MMM CCCC */
	{ 0xef80, 0x0280, form_extended_memory }, /* 000F 0010 1MMM CCCC */
	{ 0xef00, 0x0100, form_cache },           /* 000F 0001 RRRR TTLL */
	{ 0xe800, 0x0800, form_bus },             /* 000F 1PPT RRRR IILL */
	{ 0xfc00, 0x0400, form_internal },        /* 0000 01xx xxxx xxxx */
};

/* Every bit any simple code sets (simple_codes, amd_simple_codes): a code with another is compound. */
#define SIMPLE_CODE_BITS 0x0e0fu

void mce_arch_decode(uint16_t mcacod, bool amd, struct mce_decoded *out)
{
	const char *simple = (mcacod & ~SIMPLE_CODE_BITS) ? NULL :
			     mce_code_lookup(amd ? amd_simple_codes : simple_codes, mcacod);

	out->mcacod = mcacod;
	if (simple) {
		if (mcacod == 0)
			set_class(out, "none");
		else if (mcacod == 0x0e0b)
			set_class(out, "io");
		else
			set_class(out, "simple");
		mce_copy(out->error_text, sizeof(out->error_text), simple);
		return;
	}
	for (size_t i = 0; i < MCE_ARRAY_SIZE(compound_forms); i++) {
		if ((mcacod & compound_forms[i].mask) != compound_forms[i].value)
			continue;
		compound_forms[i].decode(mcacod, amd, out);
		if (compound_forms[i].decode != form_internal)
			out->filtered = (mcacod >> 12) & 1;
		return;
	}
	set_class(out, "undefined");
	snprintf(out->error_text, sizeof(out->error_text),
		 "undefined architectural error code 0x%04x", mcacod);
}

/* STATUS[54:53] threshold-based error status when MCG_CAP.TES_P (SDM "IA32_MCi_STATUS MSRs"). */
static const char *const threshold_names[4] = { "none", "green", "yellow", "reserved" };
/* MISC[8:6] address mode when MCG_CAP.SER_P (SDM Table "Address Mode in IA32_MCi_MISC[8:6]"). */
static const char *const addr_mode_names[8] = {
	"segment offset", "linear", "physical", "memory", "reserved", "reserved",
	"reserved", "generic",
};

/*
 * True when S/AR are architectural: MCG_CAP.SER_P, or MCG_CAP not recorded
 * (text logs) while S or AR is set, which only SER-capable parts do.
 */
static bool intel_ser(const struct mce_in *in, struct mce_decoded *out)
{
	if (in->mcgcap & MCG_CAP_SER_P)
		return true;
	if (in->mcgcap || !(in->status & (MCI_STATUS_S | MCI_STATUS_AR)))
		return false;
	mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
			"MCG_CAP not recorded: S/AR bits taken as architectural");
	return true;
}

static void decode_intel_status(const struct mce_in *in, struct mce_decoded *out, bool ser)
{
	uint64_t st = in->status;

	if (ser) {
		out->s = mce_flag(st, MCI_STATUS_S);
		out->ar = mce_flag(st, MCI_STATUS_AR);
	}
	if ((in->mcgcap & MCG_CAP_CMCI_P) && !(st & MCI_STATUS_UC))
		out->corrected_count = (int64_t)mce_bits(st, 38, 52);
	if ((in->mcgcap & MCG_CAP_TES_P) && !(st & MCI_STATUS_UC))
		mce_copy(out->threshold, sizeof(out->threshold),
			 threshold_names[mce_bits(st, 53, 54)]);
	if ((in->mcgcap & MCG_CAP_SER_P) && (st & MCI_STATUS_MISCV)) {
		unsigned mode = (unsigned)mce_bits(in->misc, 6, 8);

		out->addr_lsb = (int64_t)mce_bits(in->misc, 0, 5);
		out->addr_mode = mode;
		if (st & MCI_STATUS_ADDRV)
			mce_append_item(out->model_text, sizeof(out->model_text), "; ",
					addr_mode_names[mode]);
	}
}

/*
 * SDM "I/O Machine Check" (IOMCA): for MCACOD 0E0BH with MISCV, MCi_MISC
 * [39:32] is the PCIe segment and [31:16] the requester ID (bus, device,
 * function) of the device that reported the error.
 */
static void decode_iomca_source(const struct mce_in *in, struct mce_decoded *out)
{
	if (mce_bits(in->status, 0, 15) != 0x0e0b || !(in->status & MCI_STATUS_MISCV))
		return;
	snprintf(out->pcie_device, sizeof(out->pcie_device), "%04x:%02x:%02x.%x",
		 (unsigned)mce_bits(in->misc, 32, 39), (unsigned)mce_bits(in->misc, 24, 31),
		 (unsigned)mce_bits(in->misc, 19, 23), (unsigned)mce_bits(in->misc, 16, 18));
}

#define SEV_SER_KEY (1ULL << 0) /* synthetic: S/AR are meaningful */

/*
 * SDM "UCR Error Classification", Tables "MC Error Classifications" and
 * "MCA Error Code Encodings for SRAO/SRAR Errors" (S, AR, PCC, OVER rules):
 * first matching row wins.
 */
static const struct {
	uint64_t mask, value;
	enum ras_severity severity;
} intel_severity_rules[] = {
	{ MCI_STATUS_PCC, MCI_STATUS_PCC, RAS_SEV_FATAL },
	{ MCI_STATUS_UC, 0, RAS_SEV_CORRECTED },
	{ SEV_SER_KEY, 0, RAS_SEV_UNCORRECTED },
	{ MCI_STATUS_S | MCI_STATUS_AR, 0, RAS_SEV_UCNA },
	{ MCI_STATUS_S | MCI_STATUS_AR, MCI_STATUS_AR, RAS_SEV_FATAL }, /* AR without S: illegal */
	{ MCI_STATUS_OVER | MCI_STATUS_S | MCI_STATUS_AR,
	  MCI_STATUS_OVER | MCI_STATUS_S | MCI_STATUS_AR, RAS_SEV_FATAL }, /* SRAR events lost */
	{ MCI_STATUS_S | MCI_STATUS_AR, MCI_STATUS_S | MCI_STATUS_AR, RAS_SEV_SRAR },
	{ MCI_STATUS_S | MCI_STATUS_AR, MCI_STATUS_S, RAS_SEV_SRAO },
};

static enum ras_severity intel_severity(uint64_t status, bool ser)
{
	uint64_t key = (status & ~SEV_SER_KEY) | (ser ? SEV_SER_KEY : 0);

	for (size_t i = 0; i < MCE_ARRAY_SIZE(intel_severity_rules); i++)
		if ((key & intel_severity_rules[i].mask) == intel_severity_rules[i].value)
			return intel_severity_rules[i].severity;
	return RAS_SEV_UNCORRECTED;
}

/*
 * Whether ADDR names a physical address to the byte or page (the kernel's
 * rule for Intel-compatible MCA, mce/core.c): MISC valid, its address mode
 * physical (SDM "IA32_MCi_MISC": mode 010b) and its LSB within a 4 KiB page.
 */
static int64_t intel_addr_usable(const struct mce_in *in)
{
	return (in->status & MCI_STATUS_ADDRV) && (in->status & MCI_STATUS_MISCV) &&
	       mce_bits(in->misc, 6, 8) == 2 && mce_bits(in->misc, 0, 5) <= 12;
}

void mce_intel_decode(const struct mce_in *in, struct mce_model_memo *memo, struct mce_decoded *out)
{
	bool ser = intel_ser(in, out);

	decode_intel_status(in, out, ser);
	if (!in->no_cpuid && (in->cpuvendor == MCE_VENDOR_INTEL || in->cpuvendor == MCE_VENDOR_ZHAOXIN ||
			      in->cpuvendor == MCE_VENDOR_CENTAUR))
		out->addr_usable = intel_addr_usable(in);
	mce_arch_decode((uint16_t)in->status, false, out);
	decode_iomca_source(in, out);
	out->mscod = (int64_t)mce_bits(in->status, 16, 31);
	out->severity = intel_severity(in->status, ser);
	if (in->no_cpuid)
		return; /* identity missing: note already set */
	if (in->cpuvendor != MCE_VENDOR_INTEL && in->cpuvendor != MCE_VENDOR_ZHAOXIN &&
	    in->cpuvendor != MCE_VENDOR_CENTAUR)
		return; /* unknown vendor: note already set */
	if (!mce_intel_model_decode(in, memo, out))
		mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
				"unknown CPU model: architectural decode only");
}
