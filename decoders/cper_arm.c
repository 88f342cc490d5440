/* SPDX-License-Identifier: MIT */
/*
 * ras:arm_event: the ARM Processor Error Section of UEFI 2.10 N.2.4.4, as
 * Linux passes it on (MPIDR, MIDR, running state and, since 2025, the raw
 * error information, context and vendor buffers).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cper.h"
#include "other_util.h"

/* MIDR_EL1 implementer codes: Arm ARM (DDI 0487) D23.2 MIDR_EL1, plus Linux arch/arm64/include/asm/cputype.h. */
static const struct ou_name implementers[] = {
	{ 0x41, "Arm" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" },
	{ 0x44, "DEC" }, { 0x46, "Fujitsu" }, { 0x48, "HiSilicon" },
	{ 0x49, "Infineon" }, { 0x4d, "Motorola/Freescale" },
	{ 0x4e, "NVIDIA" }, { 0x50, "Applied Micro" }, { 0x51, "Qualcomm" },
	{ 0x56, "Marvell" }, { 0x61, "Apple" }, { 0x69, "Intel" },
	{ 0x6d, "Microsoft" }, { 0x70, "Phytium" }, { 0xc0, "Ampere" },
};

/* Part numbers: Linux arch/arm64/include/asm/cputype.h (implementer << 12 | part). */
static const struct ou_name parts[] = {
	{ 0x41d03, "Cortex-A53" }, { 0x41d04, "Cortex-A35" },
	{ 0x41d05, "Cortex-A55" }, { 0x41d07, "Cortex-A57" },
	{ 0x41d08, "Cortex-A72" }, { 0x41d09, "Cortex-A73" },
	{ 0x41d0a, "Cortex-A75" }, { 0x41d0b, "Cortex-A76" },
	{ 0x41d0c, "Neoverse-N1" }, { 0x41d0d, "Cortex-A77" },
	{ 0x41d40, "Neoverse-V1" }, { 0x41d41, "Cortex-A78" },
	{ 0x41d44, "Cortex-X1" }, { 0x41d46, "Cortex-A510" },
	{ 0x41d47, "Cortex-A710" }, { 0x41d48, "Cortex-X2" },
	{ 0x41d49, "Neoverse-N2" }, { 0x41d4f, "Neoverse-V2" },
	{ 0x41d84, "Neoverse-V3" }, { 0x41d8e, "Neoverse-N3" },
	{ 0x420516, "Vulcan" }, { 0x430a1, "ThunderX" }, { 0x430af, "ThunderX2" },
	{ 0x46001, "A64FX" }, { 0x48d01, "TSV110 (Kunpeng 920)" },
	{ 0x4e004, "Carmel" }, { 0x51c00, "Falkor" },
	{ 0xc0ac3, "Ampere-1" }, { 0xc0ac4, "Ampere-1A" },
};

const char *arm_implementer_name(unsigned implementer)
{
	return ou_lookup(implementers, OU_ARRAY_SIZE(implementers), implementer);
}

const char *arm_part_name(unsigned implementer, unsigned part)
{
	return ou_lookup(parts, OU_ARRAY_SIZE(parts), (int64_t)implementer << 12 | part);
}

/* ---- error information entries ----------------------------------------- */

int arm_err_info_parse(const uint8_t *buf, size_t len, struct arm_err_info *out,
		       size_t max, size_t *n)
{
	size_t pos = 0;

	*n = 0;
	while (buf && pos < len && *n < max) {
		const uint8_t *p = buf + pos;
		struct arm_err_info *e = &out[*n];

		if (len - pos < ARM_ERR_INFO_LEN)
			return -EBADMSG;
		/* N.2.4.4.1: Version(1) Length(1) Validation(2) Type(1)
		 * Multiple Error(2) Flags(1) Error Info(8) VA(8) PA(8). */
		e->version = p[0];
		e->length = p[1];
		e->validation_bits = ou_le16(p + 2);
		e->type = p[4];
		e->multiple_error = ou_le16(p + 5);
		e->flags = p[7];
		e->error_info = ou_le64(p + 8);
		e->virt_fault_addr = ou_le64(p + 16);
		e->phys_fault_addr = ou_le64(p + 24);
		if (e->length < ARM_ERR_INFO_LEN || e->length > len - pos)
			return -EBADMSG;
		(*n)++;
		pos += e->length;
	}
	return 0;
}

/* Validation bits of the entry (N.2.4.4.1). */
enum {
	ARM_V_MULTI = 1 << 0, ARM_V_FLAGS = 1 << 1, ARM_V_INFO = 1 << 2,
	ARM_V_VA = 1 << 3, ARM_V_PA = 1 << 4,
};

/*
 * Type is a bit mask (UEFI 2.10 N.2.4.4.1: bit 1 cache, 2 TLB, 3 bus, 4
 * micro-architectural; others reserved). Linux printed it as an enumeration
 * (0 cache ... 3 vendor) until a 2025 fix; we follow the specification.
 */
static const char *const arm_type_bits[] = {
	NULL, "cache error", "TLB error", "bus error", "micro-architectural error",
};
static const char *const arm_flag_bits[] = {
	"first", "last", "propagated", "overflow",
};

/* N.2.4.4.1.1 - N.2.4.4.1.3: transaction type and operation names. */
static const char *const arm_transaction[] = { "instruction", "data access", "generic" };
static const char *const arm_cache_ops[] = {
	"generic error", "generic read", "generic write", "data read",
	"data write", "instruction fetch", "prefetch", "eviction", "snooping",
	"snooped", "management",
};
static const char *const arm_tlb_ops[] = {
	"generic error", "generic read", "generic write", "data read",
	"data write", "instruction fetch", "prefetch",
	"local management operation", "external management operation",
};
static const char *const arm_bus_ops[] = {
	"generic error", "generic read", "generic write", "data read",
	"data write", "instruction fetch", "prefetch",
};
static const char *const arm_participation[] = {
	"local processor originated request", "local processor responded to request",
	"local processor observed", "generic",
};
static const char *const arm_addr_space[] = {
	"external memory access", "internal memory access", NULL, "device memory access",
};

static unsigned field(uint64_t v, unsigned shift, unsigned bits)
{
	return (unsigned)((v >> shift) & ((1u << bits) - 1));
}

static void name_or_num(char *out, size_t len, const char *label,
			const char *const *names, size_t n, unsigned v)
{
	if (v < n && names[v])
		ou_appendf(out, len, ", %s%s", label, names[v]);
	else
		ou_appendf(out, len, ", %s%u", label, v);
}

/* Cache, TLB and bus error structures share bits 0-6 / 16-28. */
static void arm_info_common(uint64_t x, const char *const *ops, size_t n_ops,
			    char *out, size_t len)
{
	if (x & (1u << 0))
		name_or_num(out, len, "transaction ", arm_transaction, 3, field(x, 16, 2));
	if (x & (1u << 1))
		name_or_num(out, len, "operation ", ops, n_ops, field(x, 18, 4));
	if (x & (1u << 2))
		ou_appendf(out, len, ", level %u", field(x, 22, 3));
	if ((x & (1u << 3)) && field(x, 25, 1))
		ou_appendf(out, len, ", processor context corrupt");
	if (x & (1u << 4))
		ou_appendf(out, len, field(x, 26, 1) ? ", corrected" : ", not corrected");
	if (x & (1u << 5))
		ou_appendf(out, len, field(x, 27, 1) ? ", precise PC" : ", imprecise PC");
	if (x & (1u << 6))
		ou_appendf(out, len, field(x, 28, 1) ? ", restartable PC" : ", PC not restartable");
}

static void arm_info_bus(uint64_t x, char *out, size_t len)
{
	arm_info_common(x, arm_bus_ops, OU_ARRAY_SIZE(arm_bus_ops), out, len);
	if (x & (1u << 7))
		name_or_num(out, len, "", arm_participation, 4, field(x, 29, 2));
	if ((x & (1u << 8)) && field(x, 31, 1))
		ou_appendf(out, len, ", timed out");
	if (x & (1u << 9))
		name_or_num(out, len, "", arm_addr_space, 4, field(x, 32, 2));
	if (x & (1u << 10))
		ou_appendf(out, len, ", memory attributes 0x%x", field(x, 34, 9));
	if (x & (1u << 11))
		ou_appendf(out, len, field(x, 43, 1) ? ", normal access" : ", secure access");
}

void arm_err_info_format(const struct arm_err_info *e, char *out, size_t len)
{
	char types[96], flags[64];

	ou_bit_names(types, sizeof(types), e->type, arm_type_bits,
		     OU_ARRAY_SIZE(arm_type_bits), " and ");
	snprintf(out, len, "%s", types[0] ? types : "error of no type");
	if (e->validation_bits & ARM_V_INFO) {
		if (e->type & 0x2)
			arm_info_common(e->error_info, arm_cache_ops,
					OU_ARRAY_SIZE(arm_cache_ops), out, len);
		else if (e->type & 0x4)
			arm_info_common(e->error_info, arm_tlb_ops,
					OU_ARRAY_SIZE(arm_tlb_ops), out, len);
		else if (e->type & 0x8)
			arm_info_bus(e->error_info, out, len);
		else
			ou_appendf(out, len, ", error info 0x%llx",
				   (unsigned long long)e->error_info);
	}
	if (e->validation_bits & ARM_V_MULTI && e->multiple_error == 1)
		ou_appendf(out, len, ", multiple errors");
	else if (e->validation_bits & ARM_V_MULTI && e->multiple_error > 1)
		ou_appendf(out, len, ", %u errors", e->multiple_error);
	if (e->validation_bits & ARM_V_FLAGS && e->flags) {
		ou_bit_names(flags, sizeof(flags), e->flags, arm_flag_bits,
			     OU_ARRAY_SIZE(arm_flag_bits), " ");
		ou_appendf(out, len, ", %s", flags);
	}
	if (e->validation_bits & ARM_V_VA)
		ou_appendf(out, len, ", virtual address 0x%llx",
			   (unsigned long long)e->virt_fault_addr);
	if (e->validation_bits & ARM_V_PA)
		ou_appendf(out, len, ", physical address 0x%llx",
			   (unsigned long long)e->phys_fault_addr);
}

/* ---- the event ----------------------------------------------------------- */

#define ARM_F(m) RAS_DF_I(struct arm_decoded, m)
#define ARM_X(m) RAS_DF_X(struct arm_decoded, m)
const struct ras_dfield arm_dfields[] = {
	ARM_F(cpu), ARM_F(mapped_cpu), ARM_X(mpidr), ARM_F(aff0), ARM_F(aff1), ARM_F(aff2),
	ARM_F(aff3), ARM_F(affinity_level), ARM_X(midr),
	RAS_DF_S(struct arm_decoded, implementer),
	RAS_DF_S(struct arm_decoded, part),
	ARM_F(variant), ARM_F(revision), ARM_F(running_state),
	ARM_F(psci_state), ARM_F(cper_severity), ARM_F(n_err_info),
	ARM_F(err_info_truncated), ARM_F(errors), ARM_F(core_errors),
	RAS_DF_S(struct arm_decoded, err_type),
	ARM_X(error_info), ARM_F(multiple_error),
	RAS_DF_S(struct arm_decoded, err_flags),
	ARM_X(virt_fault_addr), ARM_X(phys_fault_addr),
	RAS_DF_S(struct arm_decoded, err_info_text),
	ARM_F(ctx_len),
	RAS_DF_S(struct arm_decoded, ctx_types),
	ARM_F(oem_len),
	RAS_DF_S(struct arm_decoded, oem_hex),
	CPER_VENDOR_DFIELDS(struct arm_decoded, v),
};
const size_t arm_n_dfields = OU_ARRAY_SIZE(arm_dfields);

#define ARM_MAX_ENTRIES 16

/* Register context types, UEFI 2.10 N.2.4.4.2 (ARM Processor Context Information). */
static const char *const arm_ctx_names[] = {
	"AArch32 GPR", "AArch32 EL1", "AArch32 EL2", "AArch32 secure",
	"AArch64 GPR", "AArch64 EL1", "AArch64 EL2", "AArch64 EL3",
	"misc system registers",
};

static const uint8_t *bounded(const uint8_t *buf, size_t avail, uint32_t claimed, size_t *n)
{
	*n = buf ? (avail < claimed ? avail : claimed) : 0;
	return buf;
}

static void arm_contexts(const struct arm_in *in, struct arm_decoded *out)
{
	size_t n, pos = 0;
	const uint8_t *p = bounded(in->ctx_buf, in->ctx_buf_len, in->ctx_len, &n);

	out->ctx_len = in->ctx_len;
	/* Each context: Version(2) Type(2) Size(4) then Size bytes of registers. */
	while (p && n - pos >= 8) {
		uint16_t type = ou_le16(p + pos + 2);
		uint32_t size = ou_le32(p + pos + 4);

		if (type < OU_ARRAY_SIZE(arm_ctx_names))
			ou_appendf(out->ctx_types, sizeof(out->ctx_types), "%s%s",
				   out->ctx_types[0] ? ", " : "", arm_ctx_names[type]);
		else
			ou_appendf(out->ctx_types, sizeof(out->ctx_types), "%stype %u",
				   out->ctx_types[0] ? ", " : "", type);
		if (size > n - pos - 8)
			break;
		pos += 8 + (size_t)size;
	}
}

static void arm_first_entry(const struct arm_err_info *e, struct arm_decoded *out)
{
	ou_bit_names(out->err_type, sizeof(out->err_type), e->type, arm_type_bits,
		     OU_ARRAY_SIZE(arm_type_bits), " and ");
	if (e->validation_bits & ARM_V_INFO)
		out->error_info = (int64_t)e->error_info;
	if (e->validation_bits & ARM_V_MULTI)
		out->multiple_error = e->multiple_error;
	if (e->validation_bits & ARM_V_FLAGS)
		ou_bit_names(out->err_flags, sizeof(out->err_flags), e->flags,
			     arm_flag_bits, OU_ARRAY_SIZE(arm_flag_bits), " ");
	if (e->validation_bits & ARM_V_VA)
		out->virt_fault_addr = (int64_t)e->virt_fault_addr;
	if (e->validation_bits & ARM_V_PA)
		out->phys_fault_addr = (int64_t)e->phys_fault_addr;
}

/* Severity from the entries when the event has none: the Corrected bit (26, valid bit 4). */
static enum ras_severity arm_entries_severity(const struct arm_err_info *e, size_t n)
{
	enum ras_severity sev = RAS_SEV_UNKNOWN;

	for (size_t i = 0; i < n; i++) {
		if (!(e[i].validation_bits & ARM_V_INFO) || !(e[i].error_info & (1u << 4)))
			continue;
		if (!field(e[i].error_info, 26, 1))
			return RAS_SEV_UNCORRECTED;
		sev = RAS_SEV_CORRECTED;
	}
	return sev;
}

/* Errors an entry stands for: Multiple Error 0 is one, 1 "multiple" (two at least), n is n. */
static int64_t arm_entry_errors(const struct arm_err_info *e)
{
	if (!(e->validation_bits & ARM_V_MULTI) || e->multiple_error == 0)
		return 1;
	return e->multiple_error == 1 ? 2 : e->multiple_error;
}

/*
 * A failure of this core (rasdaemon's rule for its CPU isolation): the flags
 * are valid, say first, last or overflow, and not that the error was
 * propagated from elsewhere (N.2.4.4.1 Flags: bit 0 first, 1 last, 2
 * propagated, 3 overflow).
 */
static bool arm_core_failure(const struct arm_err_info *e)
{
	return (e->validation_bits & ARM_V_FLAGS) && (e->flags & 0xb) && !(e->flags & 0x4);
}

static void arm_count(const struct arm_err_info *e, size_t n, struct arm_decoded *out)
{
	out->errors = n ? 0 : 1;
	out->core_errors = 0;
	for (size_t i = 0; i < n; i++) {
		out->errors += arm_entry_errors(&e[i]);
		if (arm_core_failure(&e[i]))
			out->core_errors += arm_entry_errors(&e[i]);
	}
}

static void arm_entries(const struct arm_in *in, struct arm_decoded *out)
{
	struct arm_err_info e[ARM_MAX_ENTRIES];
	size_t n, got = 0;
	const uint8_t *p = bounded(in->pei_buf, in->pei_buf_len, in->pei_len, &n);
	char one[320];

	out->err_info_truncated = arm_err_info_parse(p, n, e, ARM_MAX_ENTRIES, &got) < 0 ||
				  n < in->pei_len;
	out->n_err_info = (int64_t)got;
	arm_count(e, got, out);
	if (got)
		arm_first_entry(&e[0], out);
	for (size_t i = 0; i < got; i++) {
		arm_err_info_format(&e[i], one, sizeof(one));
		ou_appendf(out->err_info_text, sizeof(out->err_info_text), "%s%s",
			   i ? "; " : "", one);
	}
	if (in->has_sev) {
		out->cper_severity = in->sev;
		out->severity = cper_severity_to_ras(in->sev);
	} else {
		out->severity = arm_entries_severity(e, got);
	}
}

static void arm_ids(const struct arm_in *in, struct arm_decoded *out)
{
	unsigned impl = (unsigned)(in->midr >> 24) & 0xff, part = (unsigned)(in->midr >> 4) & 0xfff;
	const char *name;

	out->mpidr = (int64_t)in->mpidr;
	/* MPIDR_EL1: Aff0 7:0, Aff1 15:8, Aff2 23:16, Aff3 39:32 (Arm ARM D23.2). */
	out->aff0 = in->mpidr & 0xff;
	out->aff1 = (in->mpidr >> 8) & 0xff;
	out->aff2 = (in->mpidr >> 16) & 0xff;
	out->aff3 = (in->mpidr >> 32) & 0xff;
	out->affinity_level = in->affinity;
	out->midr = (int64_t)in->midr;
	/* MIDR_EL1: Implementer 31:24, Variant 23:20, PartNum 15:4, Revision 3:0. */
	out->variant = (in->midr >> 20) & 0xf;
	out->revision = in->midr & 0xf;
	if ((name = arm_implementer_name(impl)))
		snprintf(out->implementer, sizeof(out->implementer), "%s", name);
	else
		snprintf(out->implementer, sizeof(out->implementer), "implementer 0x%02x", impl);
	if ((name = arm_part_name(impl, part)))
		snprintf(out->part, sizeof(out->part), "%s", name);
	else
		snprintf(out->part, sizeof(out->part), "part 0x%03x", part);
	out->running_state = in->running_state;
	/* PSCI state is only meaningful when the processor is not running (N.2.4.4). */
	if (!(in->running_state & 1))
		out->psci_state = in->psci_state;
	/* The kernel says -EINVAL when its own map has no CPU of that MPIDR. */
	if (in->has_cpu && in->cpu >= 0)
		out->cpu = in->cpu;
	else if (in->has_mapped_cpu && in->mapped_cpu >= 0)
		out->mapped_cpu = in->mapped_cpu;
}

int64_t arm_decoded_cpu(const struct arm_decoded *d)
{
	if (d->cpu != RAS_DF_NONE && d->cpu >= 0)
		return d->cpu;
	return d->mapped_cpu != RAS_DF_NONE && d->mapped_cpu >= 0 ? d->mapped_cpu : RAS_DF_NONE;
}

static void arm_location(const struct arm_in *in, struct arm_decoded *out)
{
	int64_t cpu = arm_decoded_cpu(out);

	if (cpu != RAS_DF_NONE)
		snprintf(out->location, sizeof(out->location), "CPU %lld, ", (long long)cpu);
	ou_appendf(out->location, sizeof(out->location),
		   "MPIDR 0x%llx (aff3 %lld, aff2 %lld, aff1 %lld, aff0 %lld)",
		   (unsigned long long)in->mpidr, (long long)out->aff3,
		   (long long)out->aff2, (long long)out->aff1, (long long)out->aff0);
}

/*
 * psci_state restates the raw field, which decoding keeps only while the
 * processor is not running; that is also the only time it is read here.
 */
void arm_render(const struct arm_decoded *d, char *buf, size_t len)
{
	const char *sev;
	char where[40];

	if (!buf || !len)
		return;
	buf[0] = '\0';
	/*
	 * Nothing known (no record): the caller says it could not be decoded.
	 * Not judged by mpidr, a 64-bit register whose value may be RAS_DF_NONE.
	 */
	if (!d || d->running_state == RAS_DF_NONE)
		return;
	sev = ras_severity_name(d->severity);
	if (arm_decoded_cpu(d) != RAS_DF_NONE)
		snprintf(where, sizeof(where), "CPU %lld", (long long)arm_decoded_cpu(d));
	else
		snprintf(where, sizeof(where), "MPIDR 0x%llx", (unsigned long long)d->mpidr);
	snprintf(buf, len, "%s ARM processor error on %s (%s %s r%lldp%lld)",
		 d->severity == RAS_SEV_UNKNOWN ? "an" : sev, where,
		 d->implementer, d->part, (long long)d->variant, (long long)d->revision);
	buf[0] = (char)toupper((unsigned char)buf[0]);
	if (d->err_info_text[0])
		ou_appendf(buf, len, ": %s", d->err_info_text);
	if (d->err_info_truncated != RAS_DF_NONE && d->err_info_truncated)
		ou_appendf(buf, len, " (error information truncated)");
	if (!(d->running_state & 1))
		ou_appendf(buf, len, "; processor not running, PSCI state 0x%x",
			   (unsigned)d->psci_state);
	/* The vendor data, decoded when the platform is known (cper_vendor_arm_oem). */
	if (!d->v.vendor[0])
		return;
	ou_appendf(buf, len, "; %s %s vendor data", d->v.vendor, d->v.platform);
	if (d->v.socket != RAS_DF_NONE)
		ou_appendf(buf, len, ", socket %lld", (long long)d->v.socket);
	ou_appendf(buf, len, ", %s%s%s: %s", d->v.module, d->v.sub_module[0] ? " " : "",
		   d->v.sub_module, d->v.detail[0] ? d->v.detail : "error");
	if (d->v.core != RAS_DF_NONE)
		ou_appendf(buf, len, ", core %lld", (long long)d->v.core);
}

int arm_decode(const struct arm_in *in, struct arm_decoded *out)
{
	size_t n;
	const uint8_t *p;

	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), arm_dfields, arm_n_dfields);
	if (!in)
		return -EINVAL;
	arm_ids(in, out);
	if (in->has_buffers) {
		arm_entries(in, out);
		arm_contexts(in, out);
		out->oem_len = in->oem_len;
		p = bounded(in->oem_buf, in->oem_buf_len, in->oem_len, &n);
		ou_hex(out->oem_hex, sizeof(out->oem_hex), p, n);
		cper_vendor_arm_oem(in->soc_id, p, n, &out->v);
	} else if (in->has_sev) {
		out->cper_severity = in->sev;
		out->severity = cper_severity_to_ras(in->sev);
	}
	arm_location(in, out);
	return 0;
}
