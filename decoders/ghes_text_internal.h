/* SPDX-License-Identifier: MIT */
/* The firmware-first text parser's state, shared by ghes_text.c and ghes_text_arm.c. */
#ifndef RAS_GHES_TEXT_INTERNAL_H
#define RAS_GHES_TEXT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "ghes_text.h"

#define GHES_ARM_ENTRIES 8
#define GHES_OEM_MAX 128
#define GHES_DATA_MAX NONSTD_HEX_MAX

/* Memory Error Section validation bits, UEFI 2.10 N.2.5 (offset 0). */
#define MV_PA_MASK (1u << 2)

/* ARM error information structure (N.2.4.4.1): validation bits and flags. */
#define AV_MULTI 1u
#define AV_FLAGS 2u
#define AV_INFO 4u
#define AV_VA 8u
#define AV_PA 16u

/* Kinds read here but handed over as GHES_TEXT_SECTION records (rebuilt section images). */
enum { GHES_KIND_PROC = 16, GHES_KIND_IA, GHES_KIND_CXL, GHES_KIND_FWREF };

/* DUMP_AT: rows go to data[dump_at..dump_end) of a rebuilt section image. */
enum dump_target { DUMP_NONE, DUMP_DATA, DUMP_OEM, DUMP_AT };

struct ghes_parser {
	int (*on_record)(void *ctx, const struct ghes_text_rec *rec, unsigned line);
	void (*on_error)(void *ctx, unsigned line, const char *reason);
	void *ctx;
	int count, stop;
	unsigned line;
	/* the event */
	int event_sev;               /* CPER severity, -1 if not seen */
	long seq;                    /* the {N} of the open block, -1 if none */
	char source[16];             /* the GHES error source number, "" for BERT */
	bool source_fresh;           /* the source line came right before "event severity" */
	/* the open section */
	bool open, bad;
	int kind;                    /* enum ghes_text_kind, -1 until section_type */
	unsigned first_line;
	int sec_sev;
	uint8_t fru_id[16];
	char fru_text[24];
	/* memory */
	uint8_t compact[CPER_MEM_COMPACT_LEN];
	uint64_t mem_valid, pa, pa_mask;
	bool has_pa, has_pa_mask;
	int etype;
	char status_text[96], dimm[64];
	/* ARM */
	struct arm_in arm;
	uint8_t pei[GHES_ARM_ENTRIES * ARM_ERR_INFO_LEN];
	size_t n_pei;
	uint8_t oem[GHES_OEM_MAX];
	char ctx_names[96];
	/* other sections */
	uint8_t guid[16];
	uint32_t sec_len;
	uint8_t data[GHES_DATA_MAX];
	size_t data_got;
	enum dump_target dump;
	size_t dump_off;             /* the offset the next hex dump row must have */
	size_t dump_at, dump_end;
	/* processor and CXL sections, rebuilt in data[] */
	size_t img_len;              /* the section's length so far (may pass data[]) */
	unsigned n_info, n_ctx;      /* IA32/X64 error information and context structures */
	size_t ctx_at, ctx_size;     /* the open context structure */
	size_t cxl_dvsec_len;
	bool dump_seen;              /* the section's unlabelled dump began */
	char cxl_host[16];           /* a CXL component event's device */
	/* PCIe */
	char bdf[16];
	uint16_t vid, did;
	bool has_pci_id, has_uncor, has_tlp;
	uint32_t uncor_status, uncor_mask, tlp[4];
};

/* A line start ("key") and what it means in a section of one kind. */
#define ANY_SECTION (-1)
#define HEADER (-2)
#define UNTYPED (-3)   /* an open section whose section_type is not known yet */

struct ghes_key {
	const char *key;
	int kind;              /* enum ghes_text_kind, or one of the three above */
	void (*fn)(struct ghes_parser *p, const char *v);
};

/* The lines of ARM processor error sections (ghes_text_arm.c). */
extern const struct ghes_key ghes_arm_keys[];
extern const size_t ghes_n_arm_keys;

/* The lines of processor and CXL protocol error sections (ghes_text_proc.c). */
extern const struct ghes_key ghes_proc_keys[];
extern const size_t ghes_n_proc_keys;
/* True (and a dump started) if body is the first row of a dump no line announced (CXL, firmware reference). */
bool ghes_unlabelled_dump(struct ghes_parser *p, const char *body);
/* Completes the rebuilt image of a processor or CXL section: its length and counts. */
void ghes_proc_finish(struct ghes_parser *p);

/* "ssss:bb:dd.f" and nothing after it: segment, bus, device, function. */
bool ghes_bdf(const char *v, unsigned bdf[4]);
/* Stores v little-endian in bytes bytes at p. */
void ghes_put_le(uint8_t *p, uint64_t v, unsigned bytes);
/* Reports the current line's reason once and drops the open section. */
void ghes_malformed(struct ghes_parser *p, const char *reason);
/* A hex number ("0x" optional) that ends the value or is followed by a space. */
bool ghes_hex_value(const char *v, uint64_t *out);

#endif
