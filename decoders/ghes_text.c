/* SPDX-License-Identifier: MIT */
/*
 * Firmware-first error block parser (see ghes_text.h). Facts about the
 * format, from Linux drivers/acpi/apei/ghes.c (ghes_print_estatus: the
 * "{seq}[Hardware Error]: " prefix and the error source line),
 * drivers/firmware/efi/cper.c (cper_estatus_print, the section printers,
 * cper_mem_err_location) and cper-arm.c (cper_print_proc_arm):
 *  - severities are "recoverable", "fatal", "corrected", "info" (UEFI
 *    N.2.1 values 0-3), for the event and again per section;
 *  - the memory location is "name:value " pairs on one line (before 5.x
 *    "name: value ", and in the oldest kernels one pair per line);
 *  - error_status is printed as "text (0x...)" since 5.x, bare hex before;
 *  - the ARM error_type is "N, name" (an index) before 6.x, "0xNN: a|b"
 *    (the UEFI 2.9A bit mask) since;
 *  - print_hex_dump with 4-byte groups prints each group as a
 *    little-endian 32-bit value, a short last row byte by byte.
 */
#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "ghes_text.h"
#include "ghes_text_internal.h"
#include "text_num.h"

#define GHES_LINE_MAX 512

void ghes_put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void ghes_malformed(struct ghes_parser *p, const char *reason)
{
	if (!p->bad && p->on_error)
		p->on_error(p->ctx, p->line, reason);
	p->bad = true;
}

static const char *const cper_sevs[] = { "recoverable", "fatal", "corrected", "info" };

/* CPER severity from the kernel's word; -1 if unknown. */
static int parse_sev(const char *s)
{
	for (int i = 0; i < 4; i++) {
		size_t n = strlen(cper_sevs[i]);

		if (strncmp(s, cper_sevs[i], n) == 0 && (s[n] == '\0' || s[n] == ' ' || s[n] == 'r'))
			return i;   /* 'r': "informational" in some kernels */
	}
	return -1;
}

/* ---- records ------------------------------------------------------------ */

static void note(struct ghes_text_rec *r, unsigned i, const char *key, const char *value)
{
	if (!value[0])
		return;
	r->notes[i].key = key;
	r->notes[i].value = value;
	r->notes[i].value_len = strlen(value);
}

static unsigned lowest_set_bit(uint64_t v)
{
	unsigned n = 0;

	while (!(v & 1)) {
		v >>= 1;
		n++;
	}
	return n;
}

static void build_memory(struct ghes_parser *p, struct ghes_text_rec *r)
{
	struct extlog_in *m = &r->in.mem;

	/* The location's own bits are already there (cper_mem_compact_set). */
	for (unsigned i = 0; i < 8; i++)
		p->compact[i] |= (uint8_t)(p->mem_valid >> (8 * i));
	m->err_seq = p->seq >= 0 ? (uint32_t)p->seq : 0;
	m->etype = p->etype >= 0 ? (uint8_t)p->etype : 0xff;
	m->sev = (uint8_t)p->sec_sev;
	m->pa = p->has_pa ? p->pa : UINT64_MAX;
	/* As acpi_extlog: the lowest set bit of the mask; "not valid" if none. */
	m->pa_mask_lsb = p->has_pa_mask && p->pa_mask ? (uint8_t)lowest_set_bit(p->pa_mask) : 0xff;
	memcpy(m->fru_id, p->fru_id, 16);
	/* The firmware's FRU text, else the DIMM it names through SMBIOS. */
	m->fru_text = p->fru_text[0] ? p->fru_text : p->dimm;
	m->fru_text_len = strlen(m->fru_text);
	m->data = p->compact;
	m->data_len = sizeof(p->compact);
	note(r, 0, "error_status", p->status_text);
	note(r, 1, "dimm_location", p->dimm);
}

static void build_arm(struct ghes_parser *p, struct ghes_text_rec *r)
{
	r->in.arm = p->arm;
	r->in.arm.has_buffers = r->in.arm.has_sev = 1;
	r->in.arm.sev = (uint8_t)p->sec_sev;
	r->in.arm.pei_buf = p->pei;
	r->in.arm.pei_len = (uint32_t)(p->n_pei * ARM_ERR_INFO_LEN);
	r->in.arm.pei_buf_len = p->n_pei * ARM_ERR_INFO_LEN;
	r->in.arm.oem_buf = p->oem;
	r->in.arm.oem_buf_len = p->data_got < GHES_OEM_MAX ? p->data_got : GHES_OEM_MAX;
	note(r, 0, "context_info", p->ctx_names);
}

static void build_section(struct ghes_parser *p, struct ghes_text_rec *r)
{
	struct nonstd_in *s = &r->in.section;

	memcpy(s->sec_type, p->guid, 16);
	memcpy(s->fru_id, p->fru_id, 16);
	s->fru_text = p->fru_text;
	s->fru_text_len = strlen(p->fru_text);
	s->sev = (uint8_t)p->sec_sev;
	s->len = p->sec_len;
	s->buf = p->data;
	s->buf_len = p->data_got;
	if (!p->sec_len)
		note(r, 0, "section_text", "printed as fields by the kernel; not decoded here");
}

static void build_pcie(struct ghes_parser *p, struct ghes_text_rec *r)
{
	struct aer_in *a = &r->in.aer;

	a->dev_name = p->bdf;
	a->dev_name_len = strlen(p->bdf);
	a->status = p->uncor_status;
	a->mask = p->uncor_mask;
	a->has_mask = 1;
	a->severity = AER_TP_FATAL;
	a->tlp_header_valid = p->has_tlp;
	memcpy(a->tlp_header, p->tlp, sizeof(a->tlp_header));
	a->has_pci_id = p->has_pci_id;
	a->vendor_id = p->vid;
	a->device_id = p->did;
}

static void emit(struct ghes_parser *p)
{
	static struct ghes_text_rec zero;
	struct ghes_text_rec r = zero;
	int rc;

	r.kind = (enum ghes_text_kind)p->kind;
	if (p->kind == GHES_KIND_PROC || p->kind == GHES_KIND_IA || p->kind == GHES_KIND_CXL ||
	    p->kind == GHES_KIND_FWREF) {
		ghes_proc_finish(p);
		r.kind = GHES_TEXT_SECTION;
	}
	/* A CXL component event goes to the decoder of its tracepoint; a short one stays a section. */
	if (r.kind == GHES_TEXT_SECTION &&
	    cxl_cper_event_in(p->guid, p->data, p->data_got, &r.in.cxl, p->cxl_host, sizeof(p->cxl_host)) == 0)
		r.kind = GHES_TEXT_CXL;
	switch (r.kind) {
	case GHES_TEXT_MEMORY: build_memory(p, &r); break;
	case GHES_TEXT_ARM: build_arm(p, &r); break;
	case GHES_TEXT_SECTION: build_section(p, &r); break;
	case GHES_TEXT_PCIE: build_pcie(p, &r); break;
	case GHES_TEXT_CXL: break;
	default: return;
	}
	note(&r, 2, "error_source", p->source);
	rc = p->on_record(p->ctx, &r, p->first_line);
	if (rc < 0)
		p->stop = rc;
	else
		p->count++;
}

/* Emits the open section if it is complete and sound, and closes it. */
static void flush(struct ghes_parser *p)
{
	if (p->open && !p->bad && p->sec_sev >= 0) {
		/* Only a fatal PCIe section carries registers the AER lines will not repeat. */
		if (p->kind != GHES_TEXT_PCIE || (p->sec_sev == 1 && p->has_uncor && p->bdf[0]))
			emit(p);
	}
	p->open = false;
	p->dump = DUMP_NONE;
}

/* ---- the event and section headers ------------------------------------- */

static void on_source(struct ghes_parser *p, const char *v)
{
	flush(p);
	p->event_sev = -1;
	snprintf(p->source, sizeof(p->source), "%.15s", v);
	p->source_fresh = true;
}

static void on_event_sev(struct ghes_parser *p, const char *v)
{
	flush(p);
	p->event_sev = parse_sev(v);
	if (!p->source_fresh)
		p->source[0] = '\0';   /* BERT prints no source line */
	p->source_fresh = false;
}

static void on_section(struct ghes_parser *p, const char *v)
{
	const char *type = strstr(v, ", type: ");
	uint64_t n;

	flush(p);
	memset(&p->open, 0, sizeof(*p) - offsetof(struct ghes_parser, open));
	p->open = true;
	p->kind = p->etype = -1;
	p->first_line = p->line;
	p->arm.affinity = 0xff;
	p->arm.mpidr = UINT64_MAX;
	p->arm.running_state = p->arm.psci_state = UINT32_MAX;
	if (!text_num_prefix(v, 10, &n, NULL) || !type)
		ghes_malformed(p, "malformed 'Error N, type:' line");
	else if ((p->sec_sev = parse_sev(type + 8)) < 0 && (p->sec_sev = p->event_sev) < 0)
		ghes_malformed(p, "firmware error section without a severity");
}

/* Kernel section_type words -> the section type table's names. */
static const struct { const char *kernel, *table; int kind; } section_names[] = {
	{ "memory error", NULL, GHES_TEXT_MEMORY },
	{ "ARM processor error", NULL, GHES_TEXT_ARM },
	{ "PCIe error", NULL, GHES_TEXT_PCIE },
	{ "general processor error", "Processor Generic", GHES_KIND_PROC },
	{ "IA32/X64 processor error", "Processor Specific: IA32/X64", GHES_KIND_IA },
	{ "Firmware Error Record Reference", "Firmware Error Record Reference", GHES_KIND_FWREF },
	{ "CXL Protocol Error", "CXL Protocol Error", GHES_KIND_CXL },
};

static bool guid_of_name(const char *name, uint8_t guid[16])
{
	for (size_t i = 0; i < cper_n_section_types; i++) {
		if (strcmp(cper_section_types[i].name, name) == 0) {
			cper_guid_bytes(&cper_section_types[i], guid);
			return true;
		}
	}
	return false;
}

static void on_section_type(struct ghes_parser *p, const char *v)
{
	for (size_t i = 0; i < sizeof(section_names) / sizeof(section_names[0]); i++) {
		if (strcmp(v, section_names[i].kernel) != 0)
			continue;
		p->kind = section_names[i].kind;
		if (section_names[i].table && !guid_of_name(section_names[i].table, p->guid))
			p->kind = -1;
		return;
	}
	ghes_malformed(p, "firmware error section of a type decode does not read");
}

/* "section type: unknown, <guid>" (note: a space, not an underscore). */
static void on_unknown_type(struct ghes_parser *p, const char *v)
{
	if (strncmp(v, "unknown, ", 9) != 0 || !cper_guid_parse(v + 9, p->guid)) {
		ghes_malformed(p, "malformed 'section type: unknown' line");
		return;
	}
	p->kind = GHES_TEXT_SECTION;
}

static void on_section_len(struct ghes_parser *p, const char *v)
{
	uint64_t n;

	if (!text_num_whole(v, 10, &n) || n > UINT32_MAX) {
		ghes_malformed(p, "malformed section length");
		return;
	}
	p->sec_len = (uint32_t)n;
	p->dump = DUMP_DATA;
	p->dump_off = 0;
}

static void on_fru_id(struct ghes_parser *p, const char *v)
{
	if (!cper_guid_parse(v, p->fru_id))
		ghes_malformed(p, "malformed fru_id");
}

static void on_fru_text(struct ghes_parser *p, const char *v)
{
	snprintf(p->fru_text, sizeof(p->fru_text), "%.20s", v);
}

/* ---- memory error sections ---------------------------------------------- */

bool ghes_hex_value(const char *v, uint64_t *out)
{
	const char *end;

	return text_num_prefix(v, 16, out, &end) && (*end == '\0' || *end == ' ');
}

static void on_phys_addr(struct ghes_parser *p, const char *v)
{
	if (!ghes_hex_value(v, &p->pa))
		ghes_malformed(p, "malformed physical_address");
	p->has_pa = true;
}

static void on_phys_mask(struct ghes_parser *p, const char *v)
{
	if (!ghes_hex_value(v, &p->pa_mask))
		ghes_malformed(p, "malformed physical_address_mask");
	p->has_pa_mask = true;
	p->mem_valid |= MV_PA_MASK;
}

/* "text (0x...)" since 5.x, "0x..." before: kept as printed, checked for its value. */
static void on_error_status(struct ghes_parser *p, const char *v)
{
	const char *open = strrchr(v, '('), *end;
	uint64_t st;

	if (!text_num_prefix(open ? open + 1 : v, 16, &st, &end) || strcmp(end, open ? ")" : "") != 0)
		ghes_malformed(p, "malformed error_status");
	snprintf(p->status_text, sizeof(p->status_text), "%s", v);
}

static void on_mem_error_type(struct ghes_parser *p, const char *v)
{
	uint64_t t;
	const char *end;

	if (!text_num_prefix(v, 10, &t, &end) || t > 0xfe || (*end && *end != ','))
		ghes_malformed(p, "malformed memory error_type");
	else
		p->etype = (int)t;
}

static void on_dimm(struct ghes_parser *p, const char *v)
{
	const char *h = strstr(v, "DMI handle: ");
	uint64_t handle;

	if (strncmp(v, "not present.", 12) != 0) {
		snprintf(p->dimm, sizeof(p->dimm), "%s", v);
		return;
	}
	/* No SMBIOS name for it: the handle is all the kernel knew. */
	if (!h || !ghes_hex_value(h + 12, &handle) || handle > UINT16_MAX) {
		ghes_malformed(p, "malformed DIMM location");
		return;
	}
	cper_mem_compact_set(p->compact, CPER_MEM_F_MODULE_HANDLE, handle);
}

/* The location pairs of cper_mem_err_location(), by the names the kernel prints. */
static const struct mem_field {
	const char *name;
	enum cper_mem_field field;
} mem_fields[] = {
	{ "node", CPER_MEM_F_NODE }, { "card", CPER_MEM_F_CARD }, { "module", CPER_MEM_F_MODULE },
	{ "bank", CPER_MEM_F_BANK }, { "device", CPER_MEM_F_DEVICE }, { "row", CPER_MEM_F_ROW },
	{ "column", CPER_MEM_F_COLUMN }, { "bit_position", CPER_MEM_F_BIT_POS },
	{ "requestor_id", CPER_MEM_F_REQUESTOR }, { "responder_id", CPER_MEM_F_RESPONDER },
	{ "target_id", CPER_MEM_F_TARGET }, { "rank", CPER_MEM_F_RANK },
	{ "bank_group", CPER_MEM_F_BANK_GROUP }, { "bank_address", CPER_MEM_F_BANK_ADDRESS },
	{ "chip_id", CPER_MEM_F_CHIP_ID },
};

static const struct mem_field *mem_field_named(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(mem_fields) / sizeof(mem_fields[0]); i++)
		if (strlen(mem_fields[i].name) == n && strncmp(s, mem_fields[i].name, n) == 0)
			return &mem_fields[i];
	return NULL;
}

/* True if the line is a location line: it starts with a known "name:". */
static bool is_mem_location(const char *s)
{
	const char *colon = strchr(s, ':');

	return colon && mem_field_named(s, (size_t)(colon - s));
}

static void on_mem_location(struct ghes_parser *p, const char *s)
{
	while (*s) {
		const char *colon = strchr(s, ':');
		const struct mem_field *f = colon ? mem_field_named(s, (size_t)(colon - s)) : NULL;
		uint64_t v;

		if (!f) {
			ghes_malformed(p, "unknown field in a memory error location");
			return;
		}
		s = colon + 1;
		while (*s == ' ')
			s++;
		if (!text_num_prefix(s, 10, &v, &s) || (*s && *s != ' ') || !cper_mem_compact_set(p->compact, f->field, v)) {
			ghes_malformed(p, "malformed value in a memory error location");
			return;
		}
		while (*s == ' ')
			s++;
	}
}

/* ---- PCIe error sections -------------------------------------------------- */

bool ghes_bdf(const char *v, unsigned bdf[4])
{
	char tail;

	return sscanf(v, "%4x:%2x:%2x.%1x%c", &bdf[0], &bdf[1], &bdf[2], &bdf[3], &tail) == 4 && bdf[3] <= 7;
}

static void on_pcie_device(struct ghes_parser *p, const char *v)
{
	unsigned bdf[4];

	/* "device_id: ssss:bb:dd.f"; the "vendor_id: ..., device_id: 0x..." line is not this one. */
	if (!ghes_bdf(v, bdf)) {
		ghes_malformed(p, "malformed PCIe device_id");
		return;
	}
	snprintf(p->bdf, sizeof(p->bdf), "%04x:%02x:%02x.%x", bdf[0], bdf[1], bdf[2], bdf[3]);
}

static void on_pcie_ids(struct ghes_parser *p, const char *v)
{
	unsigned vid, did;
	char tail;

	if (sscanf(v, "0x%4x, device_id: 0x%4x%c", &vid, &did, &tail) != 2) {
		ghes_malformed(p, "malformed PCIe vendor_id/device_id line");
		return;
	}
	p->vid = (uint16_t)vid;
	p->did = (uint16_t)did;
	p->has_pci_id = true;
}

static void on_pcie_uncor(struct ghes_parser *p, const char *v)
{
	char tail;

	if (sscanf(v, "0x%8x, aer_uncor_mask: 0x%8x%c", &p->uncor_status, &p->uncor_mask, &tail) != 2) {
		ghes_malformed(p, "malformed aer_uncor_status line");
		return;
	}
	p->has_uncor = true;
}

static void on_pcie_tlp(struct ghes_parser *p, const char *v)
{
	char tail;

	if (sscanf(v, "%8x %8x %8x %8x%c", &p->tlp[0], &p->tlp[1], &p->tlp[2], &p->tlp[3], &tail) != 4) {
		ghes_malformed(p, "malformed TLP Header line");
		return;
	}
	p->has_tlp = true;
}

/* ---- hex dumps ------------------------------------------------------------ */

/* One "%08x: " row of print_hex_dump; the ASCII column after two spaces is skipped. */
static void on_dump_row(struct ghes_parser *p, const char *s)
{
	uint8_t *dst = p->dump == DUMP_OEM ? p->oem : p->data;
	size_t cap = p->dump == DUMP_OEM ? sizeof(p->oem) : sizeof(p->data);
	size_t *at = p->dump == DUMP_AT ? &p->dump_at : &p->data_got;

	if (p->dump == DUMP_AT && p->dump_end < cap)
		cap = p->dump_end;   /* a rebuilt section: this dump's own bytes only */
	uint64_t off, v;
	const char *end;

	if (!text_num_prefix(s, 16, &off, &end) || end - s != 8 || strncmp(end, ": ", 2) != 0)
		return;
	if (off != p->dump_off) {
		ghes_malformed(p, "hex dump row missing or out of order");
		return;
	}
	for (s = end + 2; *s && *s != ' '; s = *end ? end + 1 : end) {
		size_t digits;

		if (!text_num_prefix(s, 16, &v, &end) || (*end && *end != ' ') ||
		    ((digits = (size_t)(end - s)) != 16 && digits != 8 && digits != 2)) {
			ghes_malformed(p, "malformed hex dump row");
			return;
		}
		for (size_t i = 0; i < digits / 2; i++, p->dump_off++)
			if (*at < cap)
				dst[(*at)++] = (uint8_t)(v >> (8 * i));
	}
}

/* ---- lines ---------------------------------------------------------------- */

static const struct ghes_key keys[] = {
	{ "Hardware error from APEI Generic Hardware Error Source: ", HEADER, on_source },
	{ "event severity: ", HEADER, on_event_sev },
	{ "fru_id: ", ANY_SECTION, on_fru_id },
	{ "fru_text: ", ANY_SECTION, on_fru_text },
	{ "section_type: ", UNTYPED, on_section_type },
	{ "section type: ", UNTYPED, on_unknown_type },
	{ "error_status: ", GHES_TEXT_MEMORY, on_error_status },
	{ "physical_address: ", GHES_TEXT_MEMORY, on_phys_addr },
	{ "physical_address_mask: ", GHES_TEXT_MEMORY, on_phys_mask },
	{ "error_type: ", GHES_TEXT_MEMORY, on_mem_error_type },
	{ "DIMM location: ", GHES_TEXT_MEMORY, on_dimm },
	{ "section length: ", GHES_TEXT_SECTION, on_section_len },
	{ "device_id: ", GHES_TEXT_PCIE, on_pcie_device },
	{ "vendor_id: ", GHES_TEXT_PCIE, on_pcie_ids },
	{ "aer_uncor_status: ", GHES_TEXT_PCIE, on_pcie_uncor },
	{ "TLP Header: ", GHES_TEXT_PCIE, on_pcie_tlp },
};

static bool key_applies(const struct ghes_parser *p, int kind)
{
	if (kind == HEADER)
		return true;
	if (!p->open)
		return false;
	if (kind == ANY_SECTION)
		return true;
	if (kind == UNTYPED)
		return p->kind < 0;
	return p->kind == kind;
}

/* Runs the handler of the first key of tab that body starts with and that applies. */
static bool run_key(struct ghes_parser *p, const struct ghes_key *tab, size_t n_tab, const char *body)
{
	for (size_t i = 0; i < n_tab; i++) {
		size_t n = strlen(tab[i].key);

		if (strncmp(body, tab[i].key, n) == 0 && key_applies(p, tab[i].kind)) {
			p->dump = DUMP_NONE;   /* a key ends any hex dump; two keys start one */
			tab[i].fn(p, body + n);
			return true;
		}
	}
	return false;
}

static void handle_body(struct ghes_parser *p, const char *body)
{
	if (strncmp(body, "Error ", 6) == 0 && body[6] >= '0' && body[6] <= '9') {
		on_section(p, body + 6);
		return;
	}
	if (p->open && p->kind == GHES_TEXT_MEMORY && is_mem_location(body)) {
		on_mem_location(p, body);
		return;
	}
	if (run_key(p, keys, sizeof(keys) / sizeof(keys[0]), body) ||
	    run_key(p, ghes_arm_keys, ghes_n_arm_keys, body) ||
	    run_key(p, ghes_proc_keys, ghes_n_proc_keys, body))
		return;
	if (p->open && p->dump == DUMP_NONE)
		ghes_unlabelled_dump(p, body);
	if (p->open && p->dump != DUMP_NONE)
		on_dump_row(p, body);
}

/* The {N} before "[Hardware Error]:", -1 if none. */
static long block_seq(const char *line, const char *marker)
{
	const char *open;
	uint64_t n;
	const char *end;

	if (marker == line || marker[-1] != '}')
		return -1;
	for (open = marker - 1; open > line && open[-1] != '{'; open--)
		;
	if (open == line || !text_num_prefix(open, 10, &n, &end) || end != marker - 1 || n > 0xffffff)
		return -1;
	return (long)n;
}

static void handle_line(struct ghes_parser *p, char *text)
{
	static const char marker[] = "[Hardware Error]:";
	char *m = strstr(text, marker), *body, *end;
	long seq;

	if (!m)
		return;
	seq = block_seq(text, m);
	if (p->open && seq != p->seq)
		flush(p);   /* another block's line: this one ended */
	body = m + sizeof(marker) - 1;
	while (*body == ' ')
		body++;
	for (end = body + strlen(body); end > body && (end[-1] == ' ' || end[-1] == '\r'); end--)
		;
	*end = '\0';
	if (!p->open)
		p->seq = seq;
	handle_body(p, body);
}

int ghes_text_parse(const char *buf, size_t len,
		    int (*on_record)(void *ctx, const struct ghes_text_rec *rec, unsigned line),
		    void (*on_error)(void *ctx, unsigned line, const char *reason),
		    void *ctx)
{
	static struct ghes_parser zero;
	struct ghes_parser *p, state;
	char text[GHES_LINE_MAX];
	size_t pos = 0;

	if (!buf || !on_record)
		return -EINVAL;
	state = zero;
	p = &state;
	p->on_record = on_record;
	p->on_error = on_error;
	p->ctx = ctx;
	p->event_sev = -1;
	p->seq = -1;
	while (pos < len && !p->stop) {
		size_t n = 0, start = pos;

		while (pos < len && buf[pos] != '\n')
			pos++;
		p->line++;
		for (size_t i = start; i < pos && n + 1 < sizeof(text); i++)
			text[n++] = buf[i] ? buf[i] : ' ';
		text[n] = '\0';
		pos++;
		handle_line(p, text);
	}
	if (!p->stop)
		flush(p);
	return p->stop ? p->stop : p->count;
}
