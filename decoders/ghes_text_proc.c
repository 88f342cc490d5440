/* SPDX-License-Identifier: MIT */
/*
 * The general processor, IA32/X64 processor and CXL protocol error section
 * lines of the firmware-first text parser (see ghes_text.h). Linux prints
 * them from drivers/firmware/efi/cper.c (cper_print_proc_generic),
 * cper-x86.c (cper_print_proc_ia) and cper_cxl.c (cxl_cper_print_prot_err);
 * each printed field is written back where UEFI 2.10 N.2.4.1, N.2.4.2 and
 * N.2.13 keep it, with its validation bit, so that nonstd_decode reads the
 * rebuilt section as it reads one from ras:non_standard_event. Lines the
 * kernel derives from a printed value (the names after "error_type: 0x01",
 * the check information's "Level: 1", ...) are not needed and skipped.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cper_proc.h"
#include "ghes_text_internal.h"
#include "text_num.h"

/* Marks bytes [off, off + n) as part of the section image; NULL if past what data[] keeps. */
static uint8_t *image_at(struct ghes_parser *p, size_t off, size_t n)
{
	if (off + n > p->img_len)
		p->img_len = off + n;
	return off + n <= sizeof(p->data) ? p->data + off : NULL;   /* beyond: counted, not kept */
}

static void put_at(struct ghes_parser *p, size_t off, uint64_t v, unsigned bytes)
{
	uint8_t *at = image_at(p, off, bytes);

	if (at)
		ghes_put_le(at, v, bytes);
}

static void set_valid(struct ghes_parser *p, size_t off, unsigned bit)
{
	uint8_t *v = image_at(p, off, 8);

	if (v)
		v[bit / 8] |= (uint8_t)(1u << (bit % 8));
}

#define NO_VALID SIZE_MAX   /* a field without a validation bit of its own */

/* A hex value that fits bytes bytes, stored at off; sets validation bit bit of the word at valid_off. */
static void hex_field(struct ghes_parser *p, const char *v, size_t off, unsigned bytes,
		      size_t valid_off, unsigned bit)
{
	uint64_t x;

	if (!ghes_hex_value(v, &x) || (bytes < 8 && x >> (8 * bytes))) {
		ghes_malformed(p, "malformed hex value in a processor or CXL error section");
		return;
	}
	put_at(p, off, x, bytes);
	if (valid_off != NO_VALID)
		set_valid(p, valid_off, bit);
}

/* "N, name" (the number is what counts) or a bare number of at most max. */
static bool index_value(struct ghes_parser *p, const char *v, uint64_t max, uint64_t *n)
{
	const char *end;

	if (text_num_prefix(v, 10, n, &end) && *n <= max && (*end == '\0' || *end == ','))
		return true;
	ghes_malformed(p, "malformed numbered value in a processor or CXL error section");
	return false;
}

static void byte_index(struct ghes_parser *p, const char *v, size_t off, unsigned bit)
{
	uint64_t n;

	if (index_value(p, v, 0xff, &n)) {
		put_at(p, off, n, 1);
		set_valid(p, 0, bit);
	}
}

static void start_dump(struct ghes_parser *p, size_t at, size_t len)
{
	p->dump = DUMP_AT;
	p->dump_off = 0;
	p->dump_at = at;
	p->dump_end = at + len;
	image_at(p, at, len);
}

/* ---- general processor error (N.2.4.1) ---------------------------------- */

static void on_proc_type(struct ghes_parser *p, const char *v) { byte_index(p, v, 8, 0); }
static void on_proc_isa(struct ghes_parser *p, const char *v) { byte_index(p, v, 9, 1); }
static void on_proc_err(struct ghes_parser *p, const char *v) { hex_field(p, v, 10, 1, 0, 2); }
static void on_proc_op(struct ghes_parser *p, const char *v) { byte_index(p, v, 11, 3); }
static void on_proc_flags(struct ghes_parser *p, const char *v) { hex_field(p, v, 12, 1, 0, 4); }
static void on_proc_level(struct ghes_parser *p, const char *v) { byte_index(p, v, 13, 5); }
static void on_proc_version(struct ghes_parser *p, const char *v) { hex_field(p, v, 16, 8, 0, 6); }
static void on_proc_id(struct ghes_parser *p, const char *v) { hex_field(p, v, 152, 8, 0, 8); }
static void on_proc_target(struct ghes_parser *p, const char *v) { hex_field(p, v, 160, 8, 0, 9); }
static void on_proc_requestor(struct ghes_parser *p, const char *v) { hex_field(p, v, 168, 8, 0, 10); }
static void on_proc_responder(struct ghes_parser *p, const char *v) { hex_field(p, v, 176, 8, 0, 11); }
static void on_proc_ip(struct ghes_parser *p, const char *v) { hex_field(p, v, 184, 8, 0, 12); }

/* ---- IA32/X64 processor error (N.2.4.2) ---------------------------------- */

static void on_ia_apic(struct ghes_parser *p, const char *v) { hex_field(p, v, 8, 8, 0, 0); }

static void on_ia_cpuid(struct ghes_parser *p, const char *v)
{
	(void)v;
	set_valid(p, 0, 1);
	start_dump(p, 16, 48);
}

/* The open error information structure's offset, or 0 (and a refusal) if none. */
static size_t ia_info(struct ghes_parser *p)
{
	if (!p->n_info || p->n_ctx) {
		ghes_malformed(p, "IA32/X64 error information line outside an error information structure");
		return 0;
	}
	return CPER_IA_LEN + (p->n_info - 1) * (size_t)CPER_IA_ERR_INFO_LEN;
}

static void on_ia_info_start(struct ghes_parser *p, const char *v)
{
	(void)v;
	if (p->n_ctx || p->n_info == 63) {
		ghes_malformed(p, "IA32/X64 error information structure out of place");
		return;
	}
	p->n_info++;
	image_at(p, ia_info(p), CPER_IA_ERR_INFO_LEN);
}

static void on_ia_info_type(struct ghes_parser *p, const char *v)
{
	size_t e = ia_info(p);
	uint8_t guid[16], *at;
	bool known = false;

	if (!e)
		return;
	for (unsigned i = 0; i < 4; i++)
		if (strcmp(v, cper_ia_err_type_name(i)) == 0) {
			cper_ia_err_type_guid(i, guid);
			known = true;
		}
	/* A type the kernel does not know is printed twice: "unknown", then its GUID. */
	if (!known && strcmp(v, "unknown") == 0)
		return;
	if (!known && !cper_guid_parse(v, guid)) {
		ghes_malformed(p, "malformed IA32/X64 Error Structure Type");
		return;
	}
	if ((at = image_at(p, e, 16)))
		memcpy(at, guid, 16);
}

static void ia_info_u64(struct ghes_parser *p, const char *v, unsigned field, unsigned bit)
{
	size_t e = ia_info(p);

	if (e)
		hex_field(p, v, e + 24 + 8 * field, 8, e + 16, bit);
}

static void on_ia_check(struct ghes_parser *p, const char *v) { ia_info_u64(p, v, 0, 0); }
static void on_ia_target(struct ghes_parser *p, const char *v) { ia_info_u64(p, v, 1, 1); }
static void on_ia_requestor(struct ghes_parser *p, const char *v) { ia_info_u64(p, v, 2, 2); }
static void on_ia_responder(struct ghes_parser *p, const char *v) { ia_info_u64(p, v, 3, 3); }
static void on_ia_ip(struct ghes_parser *p, const char *v) { ia_info_u64(p, v, 4, 4); }

/* The register context types as Linux cper-x86.c prints them (N.2.4.2.3 Table N-21). */
static const char *const ia_ctx_names[] = {
	"Unclassified Data", "MSR Registers (Machine Check and other MSRs)",
	"32-bit Mode Execution Context", "64-bit Mode Execution Context", "FXSAVE Context",
	"32-bit Mode Debug Registers (DR0-DR7)", "64-bit Mode Debug Registers (DR0-DR7)",
	"Memory Mapped Registers",
};

static void on_ia_ctx_start(struct ghes_parser *p, const char *v)
{
	(void)v;
	if (p->n_ctx == 63) {
		ghes_malformed(p, "more IA32/X64 context structures than a section holds");
		return;
	}
	/* The next structure follows the previous one's register array. */
	p->ctx_at = p->n_ctx ? p->ctx_at + CPER_IA_CTX_LEN + p->ctx_size
			     : CPER_IA_LEN + p->n_info * (size_t)CPER_IA_ERR_INFO_LEN;
	p->ctx_size = 0;
	p->n_ctx++;
	image_at(p, p->ctx_at, CPER_IA_CTX_LEN);
}

static bool ia_in_ctx(struct ghes_parser *p)
{
	if (!p->n_ctx)
		ghes_malformed(p, "IA32/X64 context line outside a context information structure");
	return p->n_ctx != 0;
}

static void on_ia_ctx_type(struct ghes_parser *p, const char *v)
{
	unsigned t = 0xffff;   /* "unknown": a type past the kernel's table */

	if (!ia_in_ctx(p))
		return;
	for (unsigned i = 0; i < sizeof(ia_ctx_names) / sizeof(ia_ctx_names[0]); i++)
		if (strcmp(v, ia_ctx_names[i]) == 0)
			t = i;
	if (t == 0xffff && strcmp(v, "unknown") != 0)
		ghes_malformed(p, "malformed IA32/X64 Register Context Type");
	put_at(p, p->ctx_at, t, 2);
}

static void on_ia_ctx_size(struct ghes_parser *p, const char *v)
{
	uint64_t n;

	if (!ia_in_ctx(p))
		return;
	if (!ghes_hex_value(v, &n) || n > UINT16_MAX) {
		ghes_malformed(p, "malformed IA32/X64 Register Array Size");
		return;
	}
	p->ctx_size = (size_t)n;
	put_at(p, p->ctx_at + 2, n, 2);
	image_at(p, p->ctx_at + CPER_IA_CTX_LEN, p->ctx_size);
}

static void on_ia_msr(struct ghes_parser *p, const char *v)
{
	if (ia_in_ctx(p))
		hex_field(p, v, p->ctx_at + 4, 4, NO_VALID, 0);
}

static void on_ia_mmreg(struct ghes_parser *p, const char *v)
{
	if (ia_in_ctx(p))
		hex_field(p, v, p->ctx_at + 8, 8, NO_VALID, 0);
}

static void on_ia_regs(struct ghes_parser *p, const char *v)
{
	(void)v;
	if (ia_in_ctx(p))
		start_dump(p, p->ctx_at + CPER_IA_CTX_LEN, p->ctx_size);
}

/* ---- CXL protocol error (N.2.13) ----------------------------------------- */

static void on_cxl_agent(struct ghes_parser *p, const char *v) { byte_index(p, v, 8, 0); }

static void on_cxl_addr(struct ghes_parser *p, const char *v)
{
	unsigned bdf[4];

	if (!ghes_bdf(v, bdf)) {
		ghes_malformed(p, "malformed CXL agent_address");
		return;
	}
	/* N.2.13 CXL Agent Address: function, device, bus, then the 16-bit segment. */
	put_at(p, 16, bdf[3], 1);
	put_at(p, 17, bdf[2], 1);
	put_at(p, 18, bdf[1], 1);
	put_at(p, 19, bdf[0], 2);
	set_valid(p, 0, 1);
}

static void on_cxl_rcrb(struct ghes_parser *p, const char *v) { hex_field(p, v, 16, 8, 0, 1); }

static void on_cxl_slot(struct ghes_parser *p, const char *v)
{
	uint64_t n;

	/* The kernel prints the slot number, bits 15:3 of the field (CPER_PCIE_SLOT_SHIFT). */
	if (index_value(p, v, 0x1fff, &n))
		put_at(p, 38, n << 3, 2);
}

/* "0x%04x, <second>: 0x%04x" into two 16-bit fields at off. */
static void id_pair(struct ghes_parser *p, const char *v, const char *second, size_t off)
{
	uint64_t a, b;
	const char *end;
	size_t n = strlen(second);

	if (!text_num_prefix(v, 16, &a, &end) || a > UINT16_MAX || strncmp(end, ", ", 2) != 0 ||
	    strncmp(end + 2, second, n) != 0 || !ghes_hex_value(end + 2 + n, &b) || b > UINT16_MAX) {
		ghes_malformed(p, "malformed CXL device identifier line");
		return;
	}
	put_at(p, off, a, 2);
	put_at(p, off + 2, b, 2);
	set_valid(p, 0, 2);
}

static void on_cxl_ids(struct ghes_parser *p, const char *v) { id_pair(p, v, "device_id: ", 24); }
static void on_cxl_sub_ids(struct ghes_parser *p, const char *v) { id_pair(p, v, "sub_device_id: ", 28); }

static void on_cxl_class(struct ghes_parser *p, const char *v)
{
	uint64_t c;

	/* "%02x%02x" of class_code[1], class_code[0]. */
	if (strlen(v) != 4 || !text_num_whole(v, 16, &c)) {
		ghes_malformed(p, "malformed CXL class_code");
		return;
	}
	put_at(p, 32, c, 2);
}

static void on_cxl_serial(struct ghes_parser *p, const char *v)
{
	unsigned lo, hi;
	char tail;

	if (sscanf(v, "0x%8x, upper_dw: 0x%8x%c", &lo, &hi, &tail) != 2) {
		ghes_malformed(p, "malformed CXL serial number line");
		return;
	}
	put_at(p, 40, (uint64_t)hi << 32 | lo, 8);
	set_valid(p, 0, 3);
}

static void on_cxl_dvsec_len(struct ghes_parser *p, const char *v)
{
	hex_field(p, v, 108, 2, 0, 5);
	p->cxl_dvsec_len = (size_t)(p->data[108] | p->data[109] << 8);
}

static void on_cxl_dvsec(struct ghes_parser *p, const char *v)
{
	(void)v;
	start_dump(p, CPER_CXL_PROT_LEN, p->cxl_dvsec_len);
}

static void on_cxl_log_len(struct ghes_parser *p, const char *v)
{
	hex_field(p, v, 110, 2, 0, 6);
	image_at(p, CPER_CXL_PROT_LEN + p->cxl_dvsec_len, (size_t)(p->data[110] | p->data[111] << 8));
}

static void cxl_ras(struct ghes_parser *p, const char *v, unsigned reg)
{
	uint64_t x;

	if (!ghes_hex_value(v, &x) || x > UINT32_MAX) {
		ghes_malformed(p, "malformed CXL RAS capability register");
		return;
	}
	put_at(p, CPER_CXL_PROT_LEN + p->cxl_dvsec_len + 4 * reg, x, 4);
}

static void on_cxl_uc(struct ghes_parser *p, const char *v) { cxl_ras(p, v, 0); }
static void on_cxl_uc_mask(struct ghes_parser *p, const char *v) { cxl_ras(p, v, 1); }
static void on_cxl_uc_sev(struct ghes_parser *p, const char *v) { cxl_ras(p, v, 2); }
static void on_cxl_ce(struct ghes_parser *p, const char *v) { cxl_ras(p, v, 3); }
static void on_cxl_ce_mask(struct ghes_parser *p, const char *v) { cxl_ras(p, v, 4); }
static void on_cxl_cap(struct ghes_parser *p, const char *v) { cxl_ras(p, v, 5); }

static void on_cxl_header_log(struct ghes_parser *p, const char *v)
{
	(void)v;
	start_dump(p, CPER_CXL_PROT_LEN + p->cxl_dvsec_len + 24, 64);
}

bool ghes_unlabelled_dump(struct ghes_parser *p, const char *body)
{
	/*
	 * A CXL section's PCIe capability structure and a firmware record
	 * reference's own data are dumped with no line of their own before them.
	 */
	if (p->dump_seen || strncmp(body, "00000000: ", 10) != 0)
		return false;
	if (p->kind == GHES_KIND_CXL) {
		set_valid(p, 0, 4);
		start_dump(p, 48, 60);
	} else if (p->kind == GHES_KIND_FWREF) {
		/* As long as the rows go on: the image grows with them (ghes_proc_finish). */
		p->dump = DUMP_AT;
		p->dump_off = 0;
		p->dump_at = cper_fw_ref_data_offset(p->data[1]);
		p->dump_end = sizeof(p->data);
	} else {
		return false;
	}
	p->dump_seen = true;
	return true;
}

/* ---- Firmware Error Record Reference (N.2.10) ------------------------------- */

static void on_fw_type(struct ghes_parser *p, const char *v)
{
	unsigned t = 0xff;   /* "unknown": past the kernel's table */

	for (unsigned i = 0; cper_fw_record_type_name(i); i++)
		if (strcmp(v, cper_fw_record_type_name(i)) == 0)
			t = i;
	if (t == 0xff && strcmp(v, "unknown") != 0)
		ghes_malformed(p, "malformed Firmware Error Record Type");
	put_at(p, 0, t, 1);
}

static void on_fw_revision(struct ghes_parser *p, const char *v)
{
	uint64_t n;

	if (index_value(p, v, 0xff, &n))
		put_at(p, 1, n, 1);
}

/* "%08llx" for revision 0, "%pUl" for revision 2. */
static void on_fw_identifier(struct ghes_parser *p, const char *v)
{
	uint8_t guid[16], *at;
	uint64_t id;

	if (strlen(v) == 36 && cper_guid_parse(v, guid)) {
		if ((at = image_at(p, 16, 16)))
			memcpy(at, guid, 16);
	} else if (text_num_whole(v, 16, &id)) {
		put_at(p, 8, id, 8);
	} else {
		ghes_malformed(p, "malformed Record Identifier");
	}
}

const struct ghes_key ghes_proc_keys[] = {
	{ "Firmware Error Record Type: ", GHES_KIND_FWREF, on_fw_type },
	{ "Revision: ", GHES_KIND_FWREF, on_fw_revision },
	{ "Record Identifier: ", GHES_KIND_FWREF, on_fw_identifier },
	{ "processor_type: ", GHES_KIND_PROC, on_proc_type },
	{ "processor_isa: ", GHES_KIND_PROC, on_proc_isa },
	{ "error_type: ", GHES_KIND_PROC, on_proc_err },
	{ "operation: ", GHES_KIND_PROC, on_proc_op },
	{ "flags: ", GHES_KIND_PROC, on_proc_flags },
	{ "level: ", GHES_KIND_PROC, on_proc_level },
	{ "version_info: ", GHES_KIND_PROC, on_proc_version },
	{ "processor_id: ", GHES_KIND_PROC, on_proc_id },
	{ "target_address: ", GHES_KIND_PROC, on_proc_target },
	{ "requestor_id: ", GHES_KIND_PROC, on_proc_requestor },
	{ "responder_id: ", GHES_KIND_PROC, on_proc_responder },
	{ "IP: ", GHES_KIND_PROC, on_proc_ip },
	{ "Local APIC_ID: ", GHES_KIND_IA, on_ia_apic },
	{ "CPUID Info:", GHES_KIND_IA, on_ia_cpuid },
	{ "Error Information Structure ", GHES_KIND_IA, on_ia_info_start },
	{ "Error Structure Type: ", GHES_KIND_IA, on_ia_info_type },
	{ "Check Information: ", GHES_KIND_IA, on_ia_check },
	{ "Target Identifier: ", GHES_KIND_IA, on_ia_target },
	{ "Requestor Identifier: ", GHES_KIND_IA, on_ia_requestor },
	{ "Responder Identifier: ", GHES_KIND_IA, on_ia_responder },
	{ "Instruction Pointer: ", GHES_KIND_IA, on_ia_ip },
	{ "Context Information Structure ", GHES_KIND_IA, on_ia_ctx_start },
	{ "Register Context Type: ", GHES_KIND_IA, on_ia_ctx_type },
	{ "Register Array Size: ", GHES_KIND_IA, on_ia_ctx_size },
	{ "MSR Address: ", GHES_KIND_IA, on_ia_msr },
	{ "MM Register Address: ", GHES_KIND_IA, on_ia_mmreg },
	{ "Register Array:", GHES_KIND_IA, on_ia_regs },
	{ "agent_type: ", GHES_KIND_CXL, on_cxl_agent },
	{ "agent_address: ", GHES_KIND_CXL, on_cxl_addr },
	{ "rcrb_base_address: ", GHES_KIND_CXL, on_cxl_rcrb },
	{ "slot: ", GHES_KIND_CXL, on_cxl_slot },
	{ "vendor_id: ", GHES_KIND_CXL, on_cxl_ids },
	{ "sub_vendor_id: ", GHES_KIND_CXL, on_cxl_sub_ids },
	{ "class_code: ", GHES_KIND_CXL, on_cxl_class },
	{ "lower_dw: ", GHES_KIND_CXL, on_cxl_serial },
	{ "DVSEC length: ", GHES_KIND_CXL, on_cxl_dvsec_len },
	{ "CXL DVSEC:", GHES_KIND_CXL, on_cxl_dvsec },
	{ "Error log length: ", GHES_KIND_CXL, on_cxl_log_len },
	{ "cxl_ras_uncor_status: ", GHES_KIND_CXL, on_cxl_uc },
	{ "cxl_ras_uncor_mask: ", GHES_KIND_CXL, on_cxl_uc_mask },
	{ "cxl_ras_uncor_severity: ", GHES_KIND_CXL, on_cxl_uc_sev },
	{ "cxl_ras_uncor_sev: ", GHES_KIND_CXL, on_cxl_uc_sev },
	{ "cxl_ras_cor_status: ", GHES_KIND_CXL, on_cxl_ce },
	{ "cxl_ras_cor_mask: ", GHES_KIND_CXL, on_cxl_ce_mask },
	{ "cap_control: ", GHES_KIND_CXL, on_cxl_cap },
	{ "Header Log Registers:", GHES_KIND_CXL, on_cxl_header_log },
};
const size_t ghes_n_proc_keys = sizeof(ghes_proc_keys) / sizeof(ghes_proc_keys[0]);

void ghes_proc_finish(struct ghes_parser *p)
{
	size_t min = p->kind == GHES_KIND_PROC ? CPER_PROC_GENERIC_LEN
		   : p->kind == GHES_KIND_IA ? CPER_IA_LEN
		   : p->kind == GHES_KIND_FWREF ? cper_fw_ref_data_offset(p->data[1]) : CPER_CXL_PROT_LEN;

	image_at(p, 0, min);
	if (p->kind == GHES_KIND_FWREF && p->dump_seen)
		image_at(p, min, p->dump_off);
	if (p->kind == GHES_KIND_IA) {
		/* The structure counts live in validation bits 7:2 and 13:8. */
		p->data[0] = (uint8_t)((p->data[0] & 3) | p->n_info << 2);
		p->data[1] = (uint8_t)((p->data[1] & ~0x3fu) | p->n_ctx);
	}
	p->sec_len = (uint32_t)p->img_len;
	p->data_got = p->img_len < sizeof(p->data) ? p->img_len : sizeof(p->data);
}
