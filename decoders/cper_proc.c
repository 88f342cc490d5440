/* SPDX-License-Identifier: MIT */
/*
 * The bodies of three CPER sections that reach ras:non_standard_event (the
 * kernel has no tracepoint of their own): Processor Generic (UEFI 2.10
 * N.2.4.1), IA32/X64 Processor (N.2.4.2, with its error information
 * N.2.4.2.1-2 and context structures N.2.4.2.3) and CXL Protocol Error
 * (N.2.13, with the CXL r3.1 8.2.4.17 RAS capability registers as its error
 * log). Each becomes one detail sentence whose words are the names Linux
 * prints for the same fields (drivers/firmware/efi/cper.c, cper-x86.c,
 * cper_cxl.c).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cper_proc.h"
#include "cxl.h"
#include "other_util.h"

/* ---- Processor Generic (N.2.4.1) ----------------------------------------- */

static const char *const proc_types[] = { "IA32/X64", "IA64", "ARM" };
static const char *const proc_isas[] = { "IA32", "IA64", "X64", "ARM A32/T32", "ARM A64" };
static const char *const proc_error_bits[] = {
	"cache error", "TLB error", "bus error", "micro-architectural error",
};
static const char *const proc_ops[] = {
	"unknown or generic", "data read", "data write", "instruction execution",
};
static const char *const proc_flag_bits[] = { "restartable", "precise IP", "overflow", "corrected" };

static const char *name_of(const char *const *tab, size_t n, unsigned v)
{
	return v < n && tab[v] ? tab[v] : "unknown";
}

/* The 64-bit fields after the brand string, with their validation bits (8-12). */
static const struct { unsigned off, bit; const char *name; } proc_u64s[] = {
	{ 16, 6, "version_info" }, { 152, 8, "processor_id" }, { 160, 9, "target_address" },
	{ 168, 10, "requestor_id" }, { 176, 11, "responder_id" }, { 184, 12, "IP" },
};

/* The byte fields of N.2.4.1 (offset 8 on): each an index into names, or bits of it (bits). */
static const struct {
	unsigned off, bit;
	const char *name;
	const char *const *names;
	size_t n_names;
	bool bits;
} proc_bytes[] = {
	{ 8, 0, "processor_type", proc_types, OU_ARRAY_SIZE(proc_types), false },
	{ 9, 1, "processor_isa", proc_isas, OU_ARRAY_SIZE(proc_isas), false },
	{ 10, 2, "error_type", proc_error_bits, OU_ARRAY_SIZE(proc_error_bits), true },
	{ 11, 3, "operation", proc_ops, OU_ARRAY_SIZE(proc_ops), false },
	{ 12, 4, "flags", proc_flag_bits, OU_ARRAY_SIZE(proc_flag_bits), true },
	{ 13, 5, "level", NULL, 0, false },
};

void cper_proc_generic_detail(const uint8_t *p, size_t n, char *out, size_t len)
{
	uint64_t v;
	char word[96];

	out[0] = '\0';
	if (n < CPER_PROC_GENERIC_LEN) {
		snprintf(out, len, "processor error section too short (%zu bytes)", n);
		return;
	}
	v = ou_le64(p);
	for (size_t i = 0; i < OU_ARRAY_SIZE(proc_bytes); i++) {
		unsigned b = p[proc_bytes[i].off];

		if (!(v >> proc_bytes[i].bit & 1))
			continue;
		if (proc_bytes[i].bits)
			ou_bit_names(word, sizeof(word), b, proc_bytes[i].names, proc_bytes[i].n_names, "|");
		else if (proc_bytes[i].names)
			snprintf(word, sizeof(word), "%s", name_of(proc_bytes[i].names, proc_bytes[i].n_names, b));
		else
			snprintf(word, sizeof(word), "%u", b);
		ou_appendf(out, len, "%s%s %s", out[0] ? ", " : "", proc_bytes[i].name, word[0] ? word : "none");
	}
	for (size_t i = 0; i < OU_ARRAY_SIZE(proc_u64s); i++)
		if (v >> proc_u64s[i].bit & 1)
			ou_appendf(out, len, "%s%s 0x%llx", out[0] ? ", " : "", proc_u64s[i].name,
				   (unsigned long long)ou_le64(p + proc_u64s[i].off));
}

/* ---- IA32/X64 (N.2.4.2) ---------------------------------------------------- */

/* Error structure types, N.2.4.2.1 Table N-16 (the GUIDs Linux cper-x86.c compares). */
static const struct cper_guid_name ia_err_types[] = {
	{ 0xa55701f5, 0xe3ef, 0x43de, { 0xac, 0x72, 0x24, 0x9b, 0x57, 0x3f, 0xad, 0x2c }, "cache error", NULL },
	{ 0xfc06b535, 0x5e1f, 0x4562, { 0x9f, 0x25, 0x0a, 0x3b, 0x9a, 0xdb, 0x63, 0xc3 }, "TLB error", NULL },
	{ 0x1cf3f8b3, 0xc5b1, 0x49a2, { 0xaa, 0x59, 0x5e, 0xef, 0x92, 0xff, 0xa6, 0x3c }, "bus error", NULL },
	{ 0x48ab7f57, 0xdc34, 0x4f6c, { 0xa7, 0xd3, 0xb0, 0xb5, 0xb0, 0xa7, 0x43, 0x14 }, "micro-architectural error", NULL },
};

int cper_ia_err_type(const uint8_t guid[16])
{
	uint8_t b[16];

	for (size_t i = 0; i < OU_ARRAY_SIZE(ia_err_types); i++) {
		cper_guid_bytes(&ia_err_types[i], b);
		if (memcmp(b, guid, 16) == 0)
			return (int)i;
	}
	return -1;
}

const char *cper_ia_err_type_name(unsigned i)
{
	return i < OU_ARRAY_SIZE(ia_err_types) ? ia_err_types[i].name : NULL;
}

void cper_ia_err_type_guid(unsigned i, uint8_t guid[16])
{
	if (i < OU_ARRAY_SIZE(ia_err_types))
		cper_guid_bytes(&ia_err_types[i], guid);
}

/* Check information, N.2.4.2.2 Tables N-17 (cache/TLB/bus) and N-20 (MS). */
static const char *const ia_trans[] = { "Instruction", "Data Access", "Generic" };
static const char *const ia_ops[] = {
	"generic error", "generic read", "generic write", "data read", "data write",
	"instruction fetch", "prefetch", "eviction", "snoop",
};
static const char *const ia_part[] = {
	"Local Processor originated request", "Local Processor responded to request",
	"Local Processor observed", "Generic",
};
static const char *const ia_space[] = { "Memory Access", "Reserved", "I/O", "Other Transaction" };
static const char *const ia_ms_types[] = {
	"No Error", "Unclassified", "Microcode ROM Parity Error", "External Error",
	"FRC Error", "Internal Unclassified",
};

/* The flag bits (validation bit, value bit, word) shared by both layouts. */
struct ia_flag { unsigned valid, bit; const char *word; };
static const struct ia_flag ia_flags[] = {
	{ 3, 25, "Processor Context Corrupt" }, { 4, 26, "Uncorrected" }, { 5, 27, "Precise IP" },
	{ 6, 28, "Restartable IP" }, { 7, 29, "Overflow" }, { 9, 32, "Time Out" },
};
static const struct ia_flag ia_ms_flags[] = {
	{ 1, 19, "Processor Context Corrupt" }, { 2, 20, "Uncorrected" }, { 3, 21, "Precise IP" },
	{ 4, 22, "Restartable IP" }, { 5, 23, "Overflow" },
};

static void ia_put_flags(struct ou_buf *b, uint64_t c, const struct ia_flag *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((c >> f[i].valid & 1) && (c >> f[i].bit & 1)) {
			ou_put(b, ", ");
			ou_put(b, f[i].word);
		}
}

void cper_ia_check_format(int type, uint64_t c, char *out, size_t len)
{
	struct ou_buf b = ou_start(out, len);

	if (type == 3) {
		if (c & 1) {
			ou_put(&b, "Error Type ");
			ou_put(&b, name_of(ia_ms_types, OU_ARRAY_SIZE(ia_ms_types), (unsigned)(c >> 16 & 7)));
		}
		ia_put_flags(&b, c, ia_ms_flags, OU_ARRAY_SIZE(ia_ms_flags));
	} else {
		if (c & 1) {
			ou_put(&b, "Transaction Type ");
			ou_put(&b, name_of(ia_trans, OU_ARRAY_SIZE(ia_trans), (unsigned)(c >> 16 & 3)));
		}
		if (c & 2) {
			unsigned op = (unsigned)(c >> 18 & 15);

			/* Only cache errors have the last two operations (Linux cper-x86.c). */
			ou_put(&b, ", Operation ");
			ou_put(&b, name_of(ia_ops, type == 0 ? 9 : 7, op));
		}
		if (c & 4) {
			ou_put(&b, ", Level ");
			ou_put_int(&b, (long long)(c >> 22 & 7));
		}
		ia_put_flags(&b, c, ia_flags, type == 2 ? OU_ARRAY_SIZE(ia_flags) : 5);
		if (type == 2 && (c & 0x100)) {
			ou_put(&b, ", Participation Type ");
			ou_put(&b, name_of(ia_part, OU_ARRAY_SIZE(ia_part), (unsigned)(c >> 30 & 3)));
		}
		if (type == 2 && (c & 0x400)) {
			ou_put(&b, ", Address Space ");
			ou_put(&b, name_of(ia_space, OU_ARRAY_SIZE(ia_space), (unsigned)(c >> 33 & 3)));
		}
	}
	if (out[0] == ',')
		memmove(out, out + 2, strlen(out + 2) + 1);
}

static void ia_err_info(const uint8_t *e, struct ou_buf *b)
{
	int type = cper_ia_err_type(e);
	uint64_t v = ou_le64(e + 16);
	char check[200];

	ou_put(b, type >= 0 ? ia_err_types[type].name : "unknown error structure");
	if (v & 1) {
		cper_ia_check_format(type, ou_le64(e + 24), check, sizeof(check));
		ou_put(b, " (");
		ou_put(b, type >= 0 && check[0] ? check : "check ");
		if (type < 0 || !check[0])
			ou_put_hex(b, ou_le64(e + 24));
		ou_put(b, ")");
	}
	if (v & 2) {
		ou_put(b, ", Target Identifier ");
		ou_put_hex(b, ou_le64(e + 32));
	}
	if (v & 16) {
		ou_put(b, ", IP ");
		ou_put_hex(b, ou_le64(e + 56));
	}
}

static const char *const ia_ctx_types[] = {
	"Unclassified Data", "MSR Registers", "32-bit Mode Execution Context",
	"64-bit Mode Execution Context", "FXSAVE Context", "32-bit Mode Debug Registers",
	"64-bit Mode Debug Registers", "Memory Mapped Registers",
};

/*
 * A machine-check bank's registers in an MSR context: the array holds the
 * consecutive MSRs from its address on. SMCA banks are 16 MSRs from
 * 0xc0002000 (STATUS +1, IPID +5; AMD PPR "MCA Registers"), legacy banks 4
 * from 0x400 (STATUS +1; Intel SDM vol. 3B 16.3.2).
 */
static void ia_msr_bank(uint32_t msr, const uint8_t *regs, size_t size, struct ou_buf *b)
{
	bool smca = msr >= 0xc0002000 && msr < 0xc0003000;
	uint32_t base = smca ? 0xc0002000 : 0x400, stride = smca ? 16 : 4;
	uint32_t bank = (msr - base) / stride, status = base + bank * stride + 1;
	char what[48];

	if ((!smca && (msr < 0x400 || msr >= 0x480)) || msr > status || (status - msr + 1) * 8 > size)
		return;
	snprintf(what, sizeof(what), smca ? " (bank %u: MCA_STATUS " : " (MC%u_STATUS ", bank);
	ou_put(b, what);
	ou_put_hex(b, ou_le64(regs + (status - msr) * 8));
	if (smca && (status + 4 - msr + 1) * 8 <= size) {
		ou_put(b, ", MCA_IPID ");
		ou_put_hex(b, ou_le64(regs + (status + 4 - msr) * 8));
	}
	ou_put(b, ")");
}

/* Context structures: their types and, for MSRs, the first MSR's address. */
static void ia_contexts(const uint8_t *c, size_t left, unsigned n, struct ou_buf *b)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned type, size;

		if (left < CPER_IA_CTX_LEN) {
			ou_put(b, "; context structure missing");
			return;
		}
		type = ou_le16(c);
		size = ou_le16(c + 2);
		ou_put(b, i ? ", " : "; context ");
		ou_put(b, name_of(ia_ctx_types, OU_ARRAY_SIZE(ia_ctx_types), type));
		if (type == 1) {
			ou_put(b, " from MSR ");
			ou_put_hex(b, ou_le32(c + 4));
		}
		if (left - CPER_IA_CTX_LEN < size)
			return;
		if (type == 1)
			ia_msr_bank(ou_le32(c + 4), c + CPER_IA_CTX_LEN, size, b);
		left -= CPER_IA_CTX_LEN + size;
		c += CPER_IA_CTX_LEN + size;
	}
}

void cper_ia_detail(const uint8_t *p, size_t n, char *out, size_t len)
{
	struct ou_buf b = ou_start(out, len);
	uint64_t v;
	unsigned n_err, n_ctx, i;

	out[0] = '\0';
	if (n < CPER_IA_LEN) {
		snprintf(out, len, "IA32/X64 section too short (%zu bytes)", n);
		return;
	}
	v = ou_le64(p);
	n_err = (unsigned)(v >> 2 & 63);
	n_ctx = (unsigned)(v >> 8 & 63);
	if (v & 1) {
		ou_put(&b, "Local APIC_ID ");
		ou_put_hex(&b, ou_le64(p + 8));
		ou_put(&b, ": ");
	}
	if (!n_err)
		ou_put(&b, "no error information structure");
	for (i = 0; i < n_err; i++) {
		if (n < CPER_IA_LEN + (i + 1) * CPER_IA_ERR_INFO_LEN) {
			ou_put(&b, i ? "; " : "");
			ou_put(&b, "error information structure missing");
			return;
		}
		if (i)
			ou_put(&b, "; ");
		ia_err_info(p + CPER_IA_LEN + i * CPER_IA_ERR_INFO_LEN, &b);
	}
	ia_contexts(p + CPER_IA_LEN + n_err * CPER_IA_ERR_INFO_LEN,
		    n - CPER_IA_LEN - n_err * CPER_IA_ERR_INFO_LEN, n_ctx, &b);
}

/* ---- CXL Protocol Error (N.2.13) --------------------------------------------- */

static const char *const cxl_agents[] = {
	"Restricted CXL Device", "Restricted CXL Host Downstream Port", "CXL Device",
	"CXL Logical Device", "CXL Fabric Manager managed Logical Device", "CXL Root Port",
	"CXL Downstream Switch Port", "CXL Upstream Switch Port",
};

/* The RAS capability registers: which errors are unmasked, and the first one. */
static void cxl_errors(const uint8_t *ras, bool correctable, struct ou_buf *b)
{
	uint32_t status = correctable ? ou_le32(ras + 12) & ~ou_le32(ras + 16)
				      : ou_le32(ras) & ~ou_le32(ras + 4);
	unsigned first = ou_le32(ras + 20) & 63;
	char names[200];

	cxl_decode_status(status, correctable, names, sizeof(names));
	ou_put(b, correctable ? "; correctable: " : "; uncorrectable: ");
	ou_put(b, names[0] ? names : status ? "unnamed status bits" : "no unmasked status bit set");
	/* The pointer is six bits wide but names a bit of a 32-bit register: larger values name none. */
	if (!correctable && first < 32 && status >> first & 1) {
		cxl_decode_status(1u << first, 0, names, sizeof(names));
		if (names[0]) {
			ou_put(b, " (first: ");
			ou_put(b, names);
			ou_put(b, ")");
		}
	}
}

void cper_cxl_prot_detail(const uint8_t *p, size_t n, bool correctable, char *out, size_t len)
{
	struct ou_buf b = ou_start(out, len);
	uint64_t v;
	unsigned agent;
	size_t log;

	out[0] = '\0';
	if (n < CPER_CXL_PROT_LEN) {
		snprintf(out, len, "CXL protocol error section too short (%zu bytes)", n);
		return;
	}
	v = ou_le64(p);
	agent = p[8];
	ou_put(&b, v & 1 ? name_of(cxl_agents, OU_ARRAY_SIZE(cxl_agents), agent) : "CXL agent");
	if ((v & 2) && agent == 1) {
		ou_put(&b, " at RCRB ");
		ou_put_hex(&b, ou_le64(p + 16));
	} else if (v & 2) {
		char bdf[16];

		snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", ou_le16(p + 19), p[18], p[17], p[16] & 7);
		ou_put(&b, " ");
		ou_put(&b, bdf);
	}
	if (v & 4) {
		char ids[48];

		snprintf(ids, sizeof(ids), " [%04x:%04x]", ou_le16(p + 24), ou_le16(p + 26));
		ou_put(&b, ids);
	}
	if ((v & 8) && agent != 1) {
		ou_put(&b, ", serial ");
		ou_put_hex(&b, ou_le64(p + 40));
	}
	log = CPER_CXL_PROT_LEN + ou_le16(p + 108);
	if (!(v & 64))
		ou_put(&b, "; no error log");
	else if (ou_le16(p + 110) < CPER_CXL_RAS_LEN || n < log + CPER_CXL_RAS_LEN)
		ou_put(&b, "; error log too short");
	else
		cxl_errors(p + log, correctable, &b);
}

/* ---- Firmware Error Record Reference (N.2.10) ---------------------------------- */

/* Record types as Linux cper.c names them (UEFI 2.10 Table N-33). */
static const char *const fw_record_types[] = {
	"IPF SAL Error Record", "SOC Firmware Error Record Type1 (Legacy CrashLog Support)",
	"SOC Firmware Error Record Type2",
};

const char *cper_fw_record_type_name(unsigned t)
{
	return t < OU_ARRAY_SIZE(fw_record_types) ? fw_record_types[t] : NULL;
}

size_t cper_fw_ref_data_offset(unsigned revision)
{
	/* What each revision defines: 0 an 8-byte identifier, 1 none, 2 the identifier GUID too. */
	return revision == 0 ? 16 : revision == 1 ? 8 : CPER_FW_REF_LEN;
}

void cper_fw_ref_detail(const uint8_t *p, size_t n, char *out, size_t len)
{
	struct ou_buf b = ou_start(out, len);

	out[0] = '\0';
	if (n < 8) {
		snprintf(out, len, "firmware error record reference too short (%zu bytes)", n);
		return;
	}
	ou_put(&b, name_of(fw_record_types, OU_ARRAY_SIZE(fw_record_types), p[0]));
	ou_put(&b, ", revision ");
	ou_put_int(&b, p[1]);
	if (p[1] == 0 && n >= 16) {
		ou_put(&b, ", record identifier ");
		ou_put_hex(&b, ou_le64(p + 8));
	} else if (p[1] == 2 && n >= CPER_FW_REF_LEN) {
		char guid[CPER_GUID_STR_LEN];

		ou_guid_format(guid, sizeof(guid), p + 16);
		ou_put(&b, ", record identifier ");
		ou_put(&b, guid);
	}
}
