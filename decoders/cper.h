/* SPDX-License-Identifier: MIT */
/*
 * UEFI Common Platform Error Record (CPER) pieces carried by the Linux RAS
 * tracepoints: ras:non_standard_event, ras:extlog_mem_event and
 * ras:arm_event. References are to the UEFI Specification 2.10, appendix N.
 */
#ifndef RAS_CPER_H
#define RAS_CPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "severity.h"
#include "dfield.h"
#include "cper_vendor.h"

#define CPER_GUID_STR_LEN 37
/*
 * A generic error data entry's FRU Text is 20 bytes (UEFI 2.10 N.2.2,
 * struct acpi_hest_generic_data fru_text[20]), which extlog_mem_event and
 * non_standard_event hand over as a string; held with room to spare.
 */
#define CPER_FRU_TEXT_MAX 40

/* ---- section types and common tables --------------------------------- */

struct cper_guid_name {
	uint32_t d1;
	uint16_t d2, d3;
	uint8_t d4[8];
	const char *name;
	cper_vendor_fn vendor;   /* the vendor section's decoder (cper_vendor.h), or NULL */
};

extern const struct cper_guid_name cper_section_types[];
extern const size_t cper_n_section_types;

/* Name of a section type GUID (16 bytes, UEFI/guid_t byte order), or NULL. */
const char *cper_section_name(const uint8_t guid[16]);
/* The table row of a section type GUID, or NULL. */
const struct cper_guid_name *cper_section_find(const uint8_t guid[16]);
/* Parses "%pUl" text (8-4-4-4-12 hex digits; more may follow) into guid_t bytes. */
bool cper_guid_parse(const char *s, uint8_t guid[16]);
/* Fills guid[16] from its textual parts; handy for tables and tests. */
void cper_guid_bytes(const struct cper_guid_name *g, uint8_t guid[16]);
/* CPER error severity (N.2.1): "recoverable", "fatal", "corrected", "informational", or NULL. */
const char *cper_severity_name(unsigned sev);
enum ras_severity cper_severity_to_ras(unsigned sev);
/*
 * A GHES severity (Linux include/acpi/ghes.h: 0 none, 1 corrected, 2
 * recoverable, 3 panic; what ghes_severity() makes of a section's CPER
 * severity, and what arm_event's sev field holds since it has one) as the
 * CPER severity it came from; 0xff for a value outside the four.
 */
unsigned cper_severity_of_ghes(unsigned ghes_sev);
/* Memory Error Type (N.2.5, byte offset 72), or NULL. */
const char *cper_mem_err_type_name(unsigned type);

/* Where in memory, from a Memory Error Section or struct cper_mem_err_compact. */
struct cper_mem_loc {
	uint64_t validation_bits;
	int64_t node, card, module, bank, bank_group, bank_address, device;
	int64_t row, column, bit_pos, requestor_id, responder_id, target_id;
	int64_t rank, mem_array_handle, mem_dev_handle, chip_id;
};

/* Size of the kernel's packed struct cper_mem_err_compact, with and without "extended". */
#define CPER_MEM_COMPACT_LEN 55
#define CPER_MEM_COMPACT_LEN_OLD 54
/* Size of the UEFI >= 2.3 Memory Error Section (N.2.5). */
#define CPER_MEM_SECTION_LEN 80

/* The location fields of struct cper_mem_err_compact, whatever a text calls them. */
enum cper_mem_field {
	CPER_MEM_F_NODE, CPER_MEM_F_CARD, CPER_MEM_F_MODULE, CPER_MEM_F_BANK, CPER_MEM_F_DEVICE,
	CPER_MEM_F_ROW, CPER_MEM_F_COLUMN, CPER_MEM_F_BIT_POS, CPER_MEM_F_REQUESTOR,
	CPER_MEM_F_RESPONDER, CPER_MEM_F_TARGET, CPER_MEM_F_RANK, CPER_MEM_F_CARD_HANDLE,
	CPER_MEM_F_MODULE_HANDLE, CPER_MEM_F_BANK_GROUP, CPER_MEM_F_BANK_ADDRESS, CPER_MEM_F_CHIP_ID,
	CPER_MEM_F_N
};
/*
 * Stores v as field f of the CPER_MEM_COMPACT_LEN bytes at compact and sets
 * its validation bits (offset 0); false, with nothing stored, if v does not fit.
 */
bool cper_mem_compact_set(uint8_t *compact, enum cper_mem_field f, uint64_t v);
/* Parses struct cper_mem_err_compact (Linux include/linux/cper.h). 0 or -EBADMSG if short. */
int cper_mem_compact_parse(const uint8_t *p, size_t len, struct cper_mem_loc *out);

struct cper_mem_section {
	uint64_t validation_bits;
	int64_t error_status, physical_addr, physical_addr_mask, error_type;
	struct cper_mem_loc loc;
};

/* Parses a Memory Error Section (N.2.5). 0, or -EBADMSG if too short. */
int cper_mem_section_parse(const uint8_t *p, size_t len, struct cper_mem_section *out);
/* "node 0, card 1, module 2, ..." listing only valid fields; "" if none. */
void cper_mem_loc_format(const struct cper_mem_loc *loc, char *out, size_t len);

/* ---- ras:extlog_mem_event -------------------------------------------- */

struct extlog_in {
	uint32_t err_seq;
	uint8_t etype;          /* CPER memory error type, 0xff if not valid */
	uint8_t sev;            /* CPER severity */
	uint64_t pa;            /* ~0 if not valid */
	uint8_t pa_mask_lsb;
	uint8_t fru_id[16];
	const char *fru_text;
	size_t fru_text_len;
	const uint8_t *data;    /* struct cper_mem_err_compact, 54 or 55 bytes */
	size_t data_len;
};

struct extlog_decoded {
	RAS_DECODED_HEAD;
	int64_t err_seq;
	int64_t etype;
	char etype_name[40];
	int64_t cper_severity;
	char cper_severity_name[16];
	int64_t pa;
	int64_t pa_mask_lsb;
	char fru_guid[CPER_GUID_STR_LEN];
	char fru_text[CPER_FRU_TEXT_MAX];
	int64_t validation_bits;
	int64_t node, card, module, bank, bank_group, bank_address, device;
	int64_t row, column, bit_pos, requestor_id, responder_id, target_id;
	int64_t rank, mem_array_handle, mem_dev_handle, chip_id;
	char mem_location[256];
};
RAS_DECODED_CHECK(struct extlog_decoded);

extern const struct ras_dfield extlog_dfields[];
extern const size_t extlog_n_dfields;
int extlog_decode(const struct extlog_in *in, struct extlog_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in extlog_dfields alone (pure). Always NUL-terminates buf.
 */
void extlog_render(const struct extlog_decoded *d, char *buf, size_t len);

/* ---- ras:non_standard_event ------------------------------------------ */

struct nonstd_in {
	uint8_t sec_type[16];
	uint8_t fru_id[16];
	const char *fru_text;
	size_t fru_text_len;
	uint8_t sev;            /* CPER severity */
	uint32_t len;           /* the event's own length field */
	const uint8_t *buf;
	size_t buf_len;         /* bytes actually available at buf */
};

#define NONSTD_HEX_MAX 512  /* raw bytes kept in hex */

struct nonstd_decoded {
	RAS_DECODED_HEAD;
	char sec_type_guid[CPER_GUID_STR_LEN];
	char sec_type_name[64];
	char fru_guid[CPER_GUID_STR_LEN];
	char fru_text[CPER_FRU_TEXT_MAX];
	int64_t cper_severity;
	int64_t length;
	int64_t data_truncated;   /* 1 if raw_hex lacks some of the data (short buffer or > NONSTD_HEX_MAX) */
	int64_t data_received;    /* bytes of data the record carried, at most length */
	char raw_hex[NONSTD_HEX_MAX * 2 + 1];
	char detail[256];         /* decode of a known section type */
	int64_t pa;               /* memory error sections */
	struct cper_vendor v;     /* a vendor section's fields (cper_vendor.h) */
};
RAS_DECODED_CHECK(struct nonstd_decoded);

extern const struct ras_dfield nonstd_dfields[];
extern const size_t nonstd_n_dfields;
int nonstd_decode(const struct nonstd_in *in, struct nonstd_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in nonstd_dfields alone (pure). Always NUL-terminates buf.
 */
void nonstd_render(const struct nonstd_decoded *d, char *buf, size_t len);

/* ---- ras:arm_event (ARM Processor Error Section, N.2.4.4) ------------ */

struct arm_in {
	uint64_t mpidr;
	uint64_t midr;
	uint32_t running_state;
	uint32_t psci_state;
	uint8_t affinity;
	/* Since the 2025 kernels: raw error info / context / vendor data. */
	unsigned has_buffers : 1, has_sev : 1, has_cpu : 1;
	uint32_t pei_len;
	const uint8_t *pei_buf;
	size_t pei_buf_len;
	uint32_t ctx_len;
	const uint8_t *ctx_buf;
	size_t ctx_buf_len;
	uint32_t oem_len;
	const uint8_t *oem_buf;
	size_t oem_buf_len;
	uint8_t sev;            /* CPER severity (arm_event's own sev is GHES's: cper_severity_of_ghes) */
	int32_t cpu;            /* the kernel's logical CPU of the MPIDR; negative: it found none */
	/* The SoC's id (/sys/devices/soc0/soc_id), which tells whose vendor data oem_buf holds; NULL: unknown. */
	const char *soc_id;
	/* The logical CPU the caller found for the MPIDR (lib/cpu_map.h) when the record names none. */
	unsigned has_mapped_cpu : 1;
	int32_t mapped_cpu;
};

/* ARM Processor Error Information Structure (N.2.4.4.1), 32 bytes. */
#define ARM_ERR_INFO_LEN 32

struct arm_err_info {
	uint8_t version, length;
	uint16_t validation_bits;
	uint8_t type;
	uint16_t multiple_error;
	uint8_t flags;
	uint64_t error_info;
	uint64_t virt_fault_addr;
	uint64_t phys_fault_addr;
};

/*
 * Parses up to max entries from buf. *n gets the number parsed. Returns 0,
 * or -EBADMSG if the buffer ends inside an entry or an entry's length is
 * impossible (the entries before it are still returned).
 */
int arm_err_info_parse(const uint8_t *buf, size_t len, struct arm_err_info *out,
		       size_t max, size_t *n);
/* One line describing an entry: "cache error, level 1 data read, corrected, first". */
void arm_err_info_format(const struct arm_err_info *e, char *out, size_t len);
/* Names from MIDR_EL1 (Arm ARM D23.2 MIDR_EL1; part numbers as in Linux cputype.h). */
const char *arm_implementer_name(unsigned implementer);
const char *arm_part_name(unsigned implementer, unsigned part);

struct arm_decoded {
	RAS_DECODED_HEAD;
	int64_t cpu;
	int64_t mapped_cpu;         /* the MPIDR's logical CPU on this machine when cpu is not known */
	int64_t mpidr;
	int64_t aff0, aff1, aff2, aff3;
	int64_t affinity_level;
	int64_t midr;
	char implementer[40];
	char part[40];
	int64_t variant;
	int64_t revision;
	int64_t running_state;
	int64_t psci_state;
	int64_t cper_severity;
	int64_t n_err_info;
	int64_t err_info_truncated;
	int64_t errors;             /* errors the entries stand for (Multiple Error: 0 one, 1 two or more, n) */
	int64_t core_errors;        /* errors of the entries that are this core's own failures */
	char err_type[48];          /* of the first entry */
	int64_t error_info;
	int64_t multiple_error;
	char err_flags[64];
	int64_t virt_fault_addr;
	int64_t phys_fault_addr;
	char err_info_text[1024];   /* every entry, "; "-separated */
	int64_t ctx_len;
	char ctx_types[160];
	int64_t oem_len;
	char oem_hex[257];
	struct cper_vendor v;       /* the vendor data decoded, when the platform is known */
};
RAS_DECODED_CHECK(struct arm_decoded);

extern const struct ras_dfield arm_dfields[];
extern const size_t arm_n_dfields;
int arm_decode(const struct arm_in *in, struct arm_decoded *out);
/* The logical CPU the record names: its own cpu, else the one found for its MPIDR; RAS_DF_NONE. */
int64_t arm_decoded_cpu(const struct arm_decoded *d);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in arm_dfields alone (pure). Always NUL-terminates buf.
 */
void arm_render(const struct arm_decoded *d, char *buf, size_t len);

#endif
