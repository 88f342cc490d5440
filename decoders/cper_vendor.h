/* SPDX-License-Identifier: MIT */
/*
 * Vendor CPER sections: the error sections that only a vendor's documents
 * explain (HiSilicon Kunpeng, NVIDIA Grace and Vera, Alibaba Yitian,
 * JaguarMicro Corsica, Ampere Altra). Each vendor has a file of its own
 * (cper_hisi.c, cper_nvidia.c, cper_yitian.c, cper_jm.c, cper_ampere.c);
 * decoders/cper.c finds the decoder of a section by its GUID, in the table
 * of section types. A decoder reads the section's bytes into struct
 * cper_vendor, which ras:non_standard_event and ras:arm_event (Ampere's
 * vendor data) both carry. Pure: no I/O, no allocation, no globals.
 */
#ifndef RAS_CPER_VENDOR_H
#define RAS_CPER_VENDOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dfield.h"

/* What a vendor section says, each field named; RAS_DF_NONE / "" where it does not say. */
struct cper_vendor {
	char vendor[16];          /* "HiSilicon", "NVIDIA", "Alibaba", "JaguarMicro", "Ampere" */
	char platform[24];        /* "Kunpeng 920", "Grace", "Yitian 710", "Corsica", "Altra" */
	char section[32];         /* which of the vendor's sections: "HIP08 OEM type 2", "common" */
	char module[40];          /* the failing block: "DDRC", "PCIe local", "MCU", "L3 cache data" */
	char sub_module[40];      /* the instance or sub-block: "TB DDRC 0", "TL layer", "ERR3" */
	char vendor_severity[16]; /* the section's own severity, when it has one */
	int64_t socket, die, instance, core, port;
	int64_t err_type;         /* the vendor's error type code */
	char part[96];            /* what failed, as a threshold subject key; "" when not a part */
	char part_class[16];      /* "memory", "pcie", "cpu": what kind of part */
	char pci_dev[16];         /* "0000:7c:00.0" when the section names a PCIe function */
	char detail[192];         /* what the registers tell in words: "rank 1, bank 3, row 0x1a2b" */
	char registers[1280];     /* every register named: "ERR_MISC0 0x1, ERR_ADDR 0x2000" */
	/* Not a dfield: the event's location (its head) is made of it. */
	char location[RAS_LOCATION_LEN];
};

/*
 * Fills v from a section's bytes. Returns 0, -EBADMSG when the section is
 * shorter than its layout (v keeps what could be read and says so in
 * detail), -ENOTSUP for a payload type the vendor did not publish.
 */
typedef int (*cper_vendor_fn)(const uint8_t *p, size_t n, struct cper_vendor *v);

/* Clears v: strings empty, numbers RAS_DF_NONE. */
void cper_vendor_reset(struct cper_vendor *v);

/* The decoders behind the section types of decoders/cper.c. */
int cper_hisi_oem1(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_hisi_oem2(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_hisi_pcie_local(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_hisi_common(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_nvidia_grace(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_nvidia_vera(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_yitian_ddr(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_jm_payload0(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_jm_payload1(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_jm_payload2(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_jm_payload5(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_jm_payload6(const uint8_t *p, size_t n, struct cper_vendor *v);
int cper_ampere(const uint8_t *p, size_t n, struct cper_vendor *v);

/*
 * The vendor data of an ARM Processor Error Section (ras:arm_event oem_buf).
 * Its layout is the platform's, and the processor's MIDR does not tell the
 * platform (Ampere Altra has Arm's Neoverse-N1 cores): soc_id is the SoC's
 * SMCCC id as Linux shows it (/sys/devices/soc0/soc_id, "jep106:0a16:0001"
 * on Altra, whose firmware puts an Ampere error record there). Returns
 * -ENOTSUP when the platform is not known to put a decodable record there.
 */
int cper_vendor_arm_oem(const char *soc_id, const uint8_t *p, size_t n, struct cper_vendor *v);

/* The platforms whose sections are decoded, for "ras-fdr-ctl vendors". */
struct cper_vendor_platform {
	const char *id;           /* rasdaemon's platform id (ras-mc-ctl --vendor-platforms) */
	const char *vendor, *platform, *sections;
};
extern const struct cper_vendor_platform cper_vendor_platforms[];
extern const size_t cper_n_vendor_platforms;
/*
 * True when v belongs to what name names: a vendor ("hisilicon"), a platform
 * ("kunpeng 920") or a rasdaemon platform id ("KunPeng9xx"), any case.
 */
int cper_vendor_matches(const struct cper_vendor *v, const char *name);

/*
 * The dfields of struct cper_vendor as members of the struct S, at member M.
 * Column names are unique per event table: those the ARM and non-standard
 * decoders already use (detail, part, err_type) are prefixed.
 */
#define CPER_VENDOR_S(S, M, f, name) { name, RAS_DF_STR, offsetof(S, M.f), RAS_DF_MEMBER_SIZE(S, M.f), false, RAS_DJ_NUMBER }
#define CPER_VENDOR_I(S, M, f, name) { name, RAS_DF_INT, offsetof(S, M.f), RAS_DF_MEMBER_SIZE(S, M.f), false, RAS_DJ_NUMBER }
#define CPER_VENDOR_DFIELDS(S, M)                                                              \
	CPER_VENDOR_S(S, M, vendor, "vendor"), CPER_VENDOR_S(S, M, platform, "platform"),      \
	CPER_VENDOR_S(S, M, section, "vendor_section"), CPER_VENDOR_S(S, M, module, "module"), \
	CPER_VENDOR_S(S, M, sub_module, "sub_module"),                                        \
	CPER_VENDOR_S(S, M, vendor_severity, "vendor_severity"),                              \
	CPER_VENDOR_I(S, M, socket, "socket"), CPER_VENDOR_I(S, M, die, "die"),               \
	CPER_VENDOR_I(S, M, instance, "instance"), CPER_VENDOR_I(S, M, core, "core"),         \
	CPER_VENDOR_I(S, M, port, "port"), CPER_VENDOR_I(S, M, err_type, "vendor_err_type"),  \
	CPER_VENDOR_S(S, M, part, "failing_part"),                                            \
	CPER_VENDOR_S(S, M, part_class, "failing_part_class"),                                \
	CPER_VENDOR_S(S, M, pci_dev, "pci_dev"), CPER_VENDOR_S(S, M, detail, "vendor_detail"), \
	CPER_VENDOR_S(S, M, registers, "registers")

/* ---- rasdaemon's vendor tables back to sections (cper_rebuild.c) -------- */

/* One column of a row of rasdaemon's database: text, integer or blob. */
struct cper_rebuild_col {
	const char *name;
	const char *text;         /* NULL when not text */
	int64_t i;
	bool is_int;
	const uint8_t *blob;
	size_t blob_len;
};

/*
 * rasdaemon stores a vendor section already decoded (module names as text,
 * registers as "NAME=0x1 NAME2=0x2"), in one table per section kind. This
 * rebuilds the section's bytes from such a row, by the section's published
 * layout, so today's decoder reads it as rasd would have: table is the
 * source table's name (hip08_oem_type1_event_v2, hip08_oem_type2_event_v2,
 * hip08_pcie_local_event_v2, hisi_common_section_v2,
 * yitian_ddr_reg_dump_event, jm_payload0_event, nvidia_ns_event,
 * nvidia_vera_ns_event, amp_payload0_event ... amp_payload3_event). Sets
 * guid, and *sev to the CPER severity the row implies (0xff: not recorded).
 * Returns the section's length, or -ENOENT for a table it does not know,
 * -EINVAL when the row does not say enough.
 */
int cper_rebuild_rasdaemon(const char *table, const struct cper_rebuild_col *cols, size_t n,
			   uint8_t guid[16], uint8_t *sev, uint8_t *out, size_t cap);
/* Whether a table of rasdaemon's holds vendor sections cper_rebuild_rasdaemon reads. */
bool cper_rebuild_knows(const char *table);
/* Module and sub-module numbers of HiSilicon's names: section 1, 2 (HIP08 OEM) or 0 (common). */
int cper_hisi_module_id(unsigned section, const char *name);
int cper_hisi_sub_id(unsigned section, unsigned module, const char *name);
/* JaguarMicro's subsystem, module, sub-module numbers from names; bit i set when ids[i] was found. */
int cper_jm_ids(const char *subsys, const char *module, const char *sub, uint8_t ids[3]);

/* ---- helpers shared by the vendor files (cper_vendor.c) ------------------ */

/* Appends "NAME 0xVALUE" to v->registers, ", "-separated. */
void cper_vendor_reg(struct cper_vendor *v, const char *name, uint64_t value);
/* Appends a fact in words to v->detail, ", "-separated. */
void cper_vendor_detail(struct cper_vendor *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "recoverable", "fatal", "corrected", "none": HiSilicon's and JaguarMicro's err_severity. */
const char *cper_vendor_hisi_severity(unsigned sev);
/* The section ended before its layout: says so in detail; returns -EBADMSG. */
int cper_vendor_short(struct cper_vendor *v, size_t n, size_t need);
/*
 * The location sentence of the vendor fields: "HiSilicon Kunpeng 920 socket
 * 1, totem 0, TB_DDRC0, core 2, port 1" from vendor, platform, socket, die
 * (named die_name), the PCIe function, module, sub-module, core and port.
 */
void cper_vendor_location(const struct cper_vendor *v, const char *die_name, char *out,
			  size_t len);
/* Sets v->location, and v->part (the same place) when a part class is set and no part. */
void cper_vendor_finish(struct cper_vendor *v, const char *die_name);
/*
 * An Armv8 RAS error record's ERR<n>STATUS (Arm RAS System Architecture,
 * DDI 0587, "ERR<n>STATUS"): its meaning in words appended to detail (valid,
 * corrected or uncorrected and of which type, the primary error code SERR).
 */
void cper_vendor_armras_status(struct cper_vendor *v, uint64_t status);

#endif
