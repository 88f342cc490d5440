/* SPDX-License-Identifier: MIT */
/*
 * Common machine-check decode: MCi_STATUS / MCG_STATUS bits, CPU identity,
 * vendor dispatch, location, and the one-sentence rendering (mce_render).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mce_internal.h"

#define F_I(m) RAS_DF_I(struct mce_decoded, m)
#define F_S(m) RAS_DF_S(struct mce_decoded, m)
#define F_IR(m) RAS_DF_I_REC(struct mce_decoded, m)
#define F_X(m) RAS_DF_X(struct mce_decoded, m)
#define F_XR(m) RAS_DF_X_REC(struct mce_decoded, m)

const struct ras_dfield mce_dfields[] = {
	F_S(vendor), F_S(cpu_model_name), F_I(family), F_I(model), F_I(stepping),
	F_I(cpu), F_I(socket), F_I(apicid), F_I(bank), F_S(bank_name),
	F_I(mcacod), F_I(mscod), F_S(error_class), F_S(error_text),
	F_I(cache_level), F_S(request), F_S(transaction), F_I(filtered),
	F_I(mem_ctrl), F_I(channel), F_I(dimm), F_I(rank), F_I(chip_select), F_S(pcie_device),
	F_I(addr_valid), F_X(addr), F_I(addr_lsb), F_I(addr_mode), F_I(addr_usable),
	F_I(misc_valid), F_IR(corrected_count), F_I(overflow), F_I(pcc), F_I(uc),
	F_I(en), F_I(s), F_I(ar), F_I(poison), F_I(deferred), F_S(threshold),
	F_I(mcg_ripv), F_I(mcg_eipv), F_I(mcg_mcip), F_I(mcg_lmce),
	F_S(smca_bank_type), F_I(smca_hwid), F_I(smca_mcatype), F_I(smca_instance),
	F_I(smca_instance_hi), F_I(xec), F_S(model_text), F_S(decode_note),
	F_X(raw_status), F_X(raw_addr), F_X(raw_misc), F_X(raw_synd), F_X(raw_ipid),
	F_X(raw_mcgstatus), F_X(raw_mcgcap), F_XR(raw_synd1), F_XR(raw_synd2), F_S(fru_text),
};
const size_t mce_n_dfields = MCE_ARRAY_SIZE(mce_dfields);

void mce_copy(char *dst, size_t size, const char *src)
{
	size_t n;

	if (!size)
		return;
	n = src ? strnlen(src, size - 1) : 0;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

void mce_append_item(char *dst, size_t size, const char *sep, const char *item)
{
	if (!item || !*item)
		return;
	if (*dst)
		ou_append(dst, size, sep);
	ou_append(dst, size, item);
}

void mce_append_n(char *dst, size_t size, const char *sep, const char *item, size_t n)
{
	struct ou_buf b;

	if (!n || !size)
		return;
	/* Where dst ends: nearly always empty (a note's first item). */
	b = (struct ou_buf){ .p = dst, .len = size, .at = dst[0] ? strnlen(dst, size) : 0 };
	if (b.at >= size)
		return;
	if (b.at)
		ou_put(&b, sep);
	ou_put_n(&b, item, n);
}

const char *mce_code_lookup(const struct mce_code_text *table, uint32_t code)
{
	for (; table && table->text; table++)
		if (table->code == code)
			return table->text;
	return NULL;
}

/*
 * Kernel arch/x86/include/asm/processor.h X86_VENDOR_* numbering; a name is
 * the size of mce_decoded's vendor member, copied whole (MCE_SET_ROW).
 */
static const char vendor_names[][16] = {
	[MCE_VENDOR_INTEL] = "Intel", [MCE_VENDOR_CYRIX] = "Cyrix",
	[MCE_VENDOR_AMD] = "AMD", [MCE_VENDOR_UMC] = "UMC",
	[MCE_VENDOR_CENTAUR] = "Centaur", [MCE_VENDOR_TRANSMETA] = "Transmeta",
	[MCE_VENDOR_NSC] = "NSC", [MCE_VENDOR_HYGON] = "Hygon",
	[MCE_VENDOR_ZHAOXIN] = "Zhaoxin", [MCE_VENDOR_VORTEX] = "Vortex",
};
static const char vendor_unknown[16] = "unknown";

/* The row naming cpuvendor, "unknown" for a number without a name. */
static const char (*vendor_row(unsigned cpuvendor))[16]
{
	if (cpuvendor < MCE_ARRAY_SIZE(vendor_names) && vendor_names[cpuvendor][0])
		return &vendor_names[cpuvendor];
	return &vendor_unknown;
}

const char *mce_vendor_name(unsigned cpuvendor)
{
	return *vendor_row(cpuvendor);
}

/*
 * Intel SDM Vol. 2A, CPUID leaf 01H, "Version Information": display family
 * adds the extended family only when the base family is 0Fh; display model
 * adds extended model << 4 for base family 06h and above (the SDM names 06h
 * and 0Fh; Linux x86_model() applies it to every family >= 6, which covers
 * Zhaoxin family 07h). AMD APM Vol. 3 (CPUID Fn0000_0001_EAX) agrees for 0Fh.
 */
void mce_cpuid_split(uint32_t eax, unsigned *family, unsigned *model, unsigned *stepping)
{
	unsigned base_family = (eax >> 8) & 0xf;
	unsigned base_model = (eax >> 4) & 0xf;

	*stepping = eax & 0xf;
	*family = base_family;
	if (base_family == 0xf)
		*family += (eax >> 20) & 0xff;
	*model = base_model;
	if (base_family >= 0x6)
		*model |= ((eax >> 16) & 0xf) << 4;
}

uint32_t mce_cpuid_signature(unsigned family, unsigned model, unsigned stepping)
{
	uint32_t eax = stepping & 0xf;
	unsigned base_family = family >= 0xf ? 0xf : family;

	eax |= (uint32_t)base_family << 8;
	if (family >= 0xf)
		eax |= (uint32_t)((family - 0xf) & 0xff) << 20;
	eax |= (uint32_t)(model & 0xf) << 4;
	eax |= (uint32_t)((model >> 4) & 0xf) << 16;
	return eax;
}

/* A decoding before anything is known: every number unknown, every string empty. */
#define NONE RAS_DF_NONE
static const struct mce_decoded blank = {
	.severity = RAS_SEV_UNKNOWN,
	.family = NONE, .model = NONE, .stepping = NONE, .cpu = NONE, .socket = NONE,
	.apicid = NONE, .bank = NONE, .mcacod = NONE, .mscod = NONE, .cache_level = NONE,
	.filtered = NONE, .mem_ctrl = NONE, .channel = NONE, .dimm = NONE, .rank = NONE,
	.chip_select = NONE, .addr_valid = NONE, .addr = NONE, .addr_lsb = NONE,
	.addr_mode = NONE, .addr_usable = NONE, .misc_valid = NONE, .corrected_count = NONE,
	.overflow = NONE, .pcc = NONE, .uc = NONE, .en = NONE, .s = NONE, .ar = NONE,
	.poison = NONE, .deferred = NONE, .mcg_ripv = NONE, .mcg_eipv = NONE, .mcg_mcip = NONE,
	.mcg_lmce = NONE, .smca_hwid = NONE, .smca_mcatype = NONE, .smca_instance = NONE,
	.smca_instance_hi = NONE,
	.xec = NONE, .raw_status = NONE, .raw_addr = NONE, .raw_misc = NONE,
	.raw_synd = NONE, .raw_ipid = NONE, .raw_mcgstatus = NONE, .raw_mcgcap = NONE,
	.raw_synd1 = NONE, .raw_synd2 = NONE,
};
#undef NONE

/*
 * One copy of the blank decoding (padding included: a static object's is
 * zero), at every record; by libc's memcpy (ou_bytes_copy), not gcc's rep movsq.
 */
static void init_out(struct mce_decoded *out)
{
	ou_bytes_copy(out, &blank, sizeof(*out));
}

static void fill_raw_and_identity(const struct mce_in *in, struct mce_decoded *out)
{
	unsigned family, model, stepping;

	out->raw_status = (int64_t)in->status;
	out->raw_addr = (int64_t)in->addr;
	out->raw_misc = (int64_t)in->misc;
	out->raw_mcgstatus = (int64_t)in->mcgstatus;
	out->raw_mcgcap = (int64_t)in->mcgcap;
	if (in->has_synd)
		out->raw_synd = (int64_t)in->synd;
	if (in->has_ipid)
		out->raw_ipid = (int64_t)in->ipid;
	out->cpu = in->cpu;
	out->apicid = in->apicid;
	out->bank = in->bank;
	if (!in->no_socketid)
		out->socket = in->socketid;
	if (in->no_cpuid) {
		MCE_SET_LIT(out->vendor, "unknown");
		return;
	}
	MCE_SET_ROW(out->vendor, *vendor_row(in->cpuvendor));
	mce_cpuid_split(in->cpuid, &family, &model, &stepping);
	out->family = family;
	out->model = model;
	out->stepping = stepping;
}

/* Bits whose meaning is the same for every vendor's MCA (Intel SDM "IA32_MCi_STATUS MSRs"). */
static void decode_common_status(const struct mce_in *in, struct mce_decoded *out)
{
	uint64_t st = in->status;

	out->mcacod = mce_bits(st, 0, 15);
	out->overflow = mce_flag(st, MCI_STATUS_OVER);
	out->uc = mce_flag(st, MCI_STATUS_UC);
	out->en = mce_flag(st, MCI_STATUS_EN);
	out->misc_valid = mce_flag(st, MCI_STATUS_MISCV);
	out->addr_valid = mce_flag(st, MCI_STATUS_ADDRV);
	out->pcc = mce_flag(st, MCI_STATUS_PCC);
	if (st & MCI_STATUS_ADDRV)
		out->addr = (int64_t)in->addr;
	out->addr_usable = 0;   /* until the vendor's rule says it is a physical address */
	out->mcg_ripv = mce_flag(in->mcgstatus, MCG_STATUS_RIPV);
	out->mcg_eipv = mce_flag(in->mcgstatus, MCG_STATUS_EIPV);
	out->mcg_mcip = mce_flag(in->mcgstatus, MCG_STATUS_MCIP);
	out->mcg_lmce = mce_flag(in->mcgstatus, MCG_STATUS_LMCES);
}

typedef void (*vendor_decode_fn)(const struct mce_in *in, struct mce_model_memo *memo,
				 struct mce_decoded *out);

/* Which decoder understands which vendor's banks (facts: kernel mce/core.c vendor init). */
static const struct {
	uint8_t vendor;
	vendor_decode_fn decode;
} vendor_decoders[] = {
	{ MCE_VENDOR_INTEL, mce_intel_decode },
	{ MCE_VENDOR_ZHAOXIN, mce_intel_decode },   /* Intel-compatible MCA */
	{ MCE_VENDOR_CENTAUR, mce_intel_decode },   /* Intel-compatible MCA */
	{ MCE_VENDOR_AMD, mce_amd_decode },
	{ MCE_VENDOR_HYGON, mce_amd_decode },       /* Zen-derived, SMCA */
};

static vendor_decode_fn pick_decoder(const struct mce_in *in, struct mce_decoded *out)
{
	if (in->no_cpuid) {
		mce_copy(out->decode_note, sizeof(out->decode_note),
			 "CPU identity not recorded: architectural decode only");
		return mce_intel_decode;
	}
	for (size_t i = 0; i < MCE_ARRAY_SIZE(vendor_decoders); i++)
		if (vendor_decoders[i].vendor == in->cpuvendor)
			return vendor_decoders[i].decode;
	mce_copy(out->decode_note, sizeof(out->decode_note),
		 "unknown CPU vendor: architectural decode only");
	return mce_intel_decode;
}

/* ", <what> <n>" when n is known; what is a string literal. */
#define put_known(b, what, n) put_known_n((b), (what), sizeof(what) - 1, (n))
static void put_known_n(struct ou_buf *b, const char *what, size_t what_len, int64_t n)
{
	if (n == RAS_DF_NONE)
		return;
	ou_put_n(b, what, what_len);
	ou_put_small(b, (long long)n);
}

/* Built at every record, so without printf. */
static void build_location(struct mce_decoded *out)
{
	struct ou_buf loc = ou_start(out->location, sizeof(out->location));
	char name[24];
	size_t n;

	put_known(&loc, "socket ", out->socket);
	if (loc.at)
		ou_put_lit(&loc, ", CPU ");
	else
		ou_put_lit(&loc, "CPU ");
	ou_put_small(&loc, (long long)out->cpu);
	ou_put_lit(&loc, ", bank ");
	ou_put_small(&loc, (long long)out->bank);
	if (out->bank_name[0]) {
		ou_put_lit(&loc, " (");
		ou_put_member(&loc, out->bank_name);
		ou_put_lit(&loc, ")");
	}
	put_known(&loc, ", memory controller ", out->mem_ctrl);
	put_known(&loc, ", channel ", out->channel);
	put_known(&loc, ", DIMM ", out->dimm);
	put_known(&loc, ", rank ", out->rank);
	put_known(&loc, ", chip select ", out->chip_select);
	if (out->pcie_device[0]) {
		ou_put_lit(&loc, ", PCIe device ");
		ou_put(&loc, out->pcie_device);
	}
	if ((n = mce_cache_name(out, name, sizeof(name)))) {
		ou_put_lit(&loc, ", ");
		ou_put_n(&loc, name, n);
	}
}

size_t mce_cache_name(const struct mce_decoded *m, char *buf, size_t len)
{
	struct ou_buf b = ou_start(buf, len);
	bool cache, tlb;

	_Static_assert(sizeof(m->error_class) >= 6 && sizeof(m->transaction) >= 12, "compared below");
	if (len < 16)
		return 0;
	/* The level first: at every record, and most name none (memory errors). */
	if (m->cache_level == RAS_DF_NONE || m->cache_level < 1 || m->cache_level > 9)
		return 0;
	/* Fixed-size compares of the 16-byte members, NULs included: inlined, no strcmp. */
	cache = !memcmp(m->error_class, "cache", 6);
	tlb = !cache && !memcmp(m->error_class, "tlb", 4);
	if (!cache && !tlb && memcmp(m->error_class, "bus", 4))
		return 0;
	ou_put_lit(&b, "L");
	b.p[b.at++] = (char)('0' + m->cache_level);
	b.p[b.at] = '\0';
	if ((cache || tlb) && !memcmp(m->transaction, "instruction", 12))
		ou_put_lit(&b, "i");
	if (cache)
		ou_put_lit(&b, " cache");
	else if (tlb)
		ou_put_lit(&b, " TLB");
	return b.at;
}

static const char *const severity_words[RAS_SEV_COUNT] = {
	[RAS_SEV_UNKNOWN] = "Unclassified",
	[RAS_SEV_INFO] = "Informational",
	[RAS_SEV_CORRECTED] = "Corrected",
	[RAS_SEV_DEFERRED] = "Deferred (uncorrected, not yet consumed)",
	[RAS_SEV_UCNA] = "Uncorrected, no action required (UCNA)",
	[RAS_SEV_SRAO] = "Uncorrected, software action optional (SRAO)",
	[RAS_SEV_SRAR] = "Uncorrected, software action required (SRAR)",
	[RAS_SEV_UNCORRECTED] = "Uncorrected",
	[RAS_SEV_FATAL] = "Fatal",
};

/* Where-clause of the summary: the most specific memory/socket location. */
static void summary_where(const struct mce_decoded *out, char *buf, size_t n)
{
	buf[0] = '\0';
	if (out->socket != RAS_DF_NONE)
		ou_appendf(buf, n, "socket %lld", (long long)out->socket);
	else
		ou_appendf(buf, n, "CPU %lld", (long long)out->cpu);
	if (out->mem_ctrl != RAS_DF_NONE)
		ou_appendf(buf, n, ", memory controller %lld", (long long)out->mem_ctrl);
	if (out->channel != RAS_DF_NONE)
		ou_appendf(buf, n, ", channel %lld", (long long)out->channel);
	if (out->dimm != RAS_DF_NONE)
		ou_appendf(buf, n, ", DIMM %lld", (long long)out->dimm);
	if (out->rank != RAS_DF_NONE)
		ou_appendf(buf, n, ", rank %lld", (long long)out->rank);
	if (out->chip_select != RAS_DF_NONE)
		ou_appendf(buf, n, ", chip select %lld", (long long)out->chip_select);
	if (out->pcie_device[0])
		ou_appendf(buf, n, ", PCIe device %s", out->pcie_device);
}

static void render_valid(const struct mce_decoded *d, char *buf, size_t len)
{
	char where[RAS_LOCATION_LEN], what[MCE_TEXT_LEN];
	unsigned sev = (unsigned)d->severity < RAS_SEV_COUNT ? d->severity : 0;

	summary_where(d, where, sizeof(where));
	mce_copy(what, sizeof(what), d->error_text[0] ? d->error_text : "machine check");
	snprintf(buf, len, "%s %s on %s (", severity_words[sev], what, where);
	if (d->cpu_model_name[0])
		ou_appendf(buf, len, "%s, ", d->cpu_model_name);
	ou_appendf(buf, len, "bank %lld", (long long)d->bank);
	if (d->bank_name[0])
		ou_appendf(buf, len, " %s", d->bank_name);
	ou_appendf(buf, len, ")");
	if (d->model_text[0])
		ou_appendf(buf, len, ": %s", d->model_text);
}

void mce_render(const struct mce_decoded *d, char *buf, size_t len)
{
	if (!buf || !len)
		return;
	buf[0] = '\0';
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || (d->cpu == RAS_DF_NONE && d->bank == RAS_DF_NONE))
		return;
	/* raw_status restates the record's status register bit for bit. */
	if (d->raw_status != RAS_DF_NONE && !((uint64_t)d->raw_status & MCI_STATUS_VAL)) {
		snprintf(buf, len,
			 "Machine-check bank %lld on CPU %lld holds no valid error (VAL=0); raw registers kept",
			 (long long)d->bank, (long long)d->cpu);
		return;
	}
	render_valid(d, buf, len);
}

static void decode_not_valid(struct mce_decoded *out)
{
	mce_copy(out->decode_note, sizeof(out->decode_note), "not valid (VAL=0)");
	mce_copy(out->error_class, sizeof(out->error_class), "none");
	out->severity = RAS_SEV_UNKNOWN;
	build_location(out);
}

int mce_decode(const struct mce_in *in, struct mce_decoded *out)
{
	return mce_decode_memo(in, NULL, out);
}

int mce_decode_memo(const struct mce_in *in, struct mce_model_memo *memo, struct mce_decoded *out)
{
	vendor_decode_fn decode;

	if (!out)
		return -EINVAL;
	init_out(out);
	if (!in) {
		mce_copy(out->decode_note, sizeof(out->decode_note), "no record");
		return -EINVAL;
	}
	fill_raw_and_identity(in, out);
	decode_common_status(in, out);
	if (!(in->status & MCI_STATUS_VAL)) {
		decode_not_valid(out);
		return 0;
	}
	decode = pick_decoder(in, out);
	decode(in, memo, out);
	/*
	 * PCC means the error corrupted processor context, which an error the
	 * bank reports as corrected (UC clear) cannot have done; seen on some
	 * AMD L3 records. Say so rather than let "fatal" stand unqualified.
	 */
	if ((in->status & MCI_STATUS_PCC) && !(in->status & MCI_STATUS_UC))
		mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
				"contradictory status: PCC set with UC clear");
	build_location(out);
	return 0;
}

void mce_vendor_word_set(struct mce_in *in, unsigned slot, uint64_t v)
{
	if (8 * (slot + 1) > sizeof(in->v_data))
		return;
	for (unsigned i = 0; i < 8; i++)
		in->v_data[8 * slot + i] = (uint8_t)(v >> (8 * i));
	if (in->v_data_len < 8 * (slot + 1))
		in->v_data_len = 8 * (slot + 1);
}
