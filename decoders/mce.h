/* SPDX-License-Identifier: MIT */
/*
 * x86 machine-check (MCE) record decoder: Intel and Zhaoxin (architectural
 * MCA plus per-model tables), AMD and Hygon (SMCA and pre-SMCA families).
 *
 * Pure functions: no I/O, no allocation, no global state. The CPU identity
 * always comes from the record (cpuvendor, cpuid), never from the host.
 */
#ifndef RAS_MCE_H
#define RAS_MCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "severity.h"
#include "dfield.h"

/* Kernel X86_VENDOR_* numbers as found in mce:mce_record's cpuvendor. */
enum mce_x86_vendor {
	MCE_VENDOR_INTEL = 0,
	MCE_VENDOR_CYRIX = 1,
	MCE_VENDOR_AMD = 2,
	MCE_VENDOR_UMC = 3,
	MCE_VENDOR_CENTAUR = 5,
	MCE_VENDOR_TRANSMETA = 7,
	MCE_VENDOR_NSC = 8,
	MCE_VENDOR_HYGON = 9,
	MCE_VENDOR_ZHAOXIN = 10,
	MCE_VENDOR_VORTEX = 11,
};

/*
 * What the Intel model layer looked up for a record's CPU, kept by the
 * caller from one record to the next (a storm's records come from one or
 * two CPU models): the model row of (cpuvendor, cpuid), and the bank rows
 * of its banks looked up so far. All zero: nothing kept. The decoder keeps
 * no state of its own: the caller owns this, one for each thread.
 */
struct mce_model_memo {
	bool set;
	uint8_t cpuvendor;
	uint32_t cpuid;
	const void *model;          /* its model row, or NULL: no such model */
	uint64_t banks_known;       /* bit b set: bank[b] is bank b's row, or NULL: none */
	const void *bank[64];
};

/* Raw machine-check record: field names = the mce:mce_record tracepoint's. */
struct mce_in {
	uint64_t mcgcap, mcgstatus, status, addr, misc, synd, ipid, ip, tsc, ppin, walltime;
	uint32_t cpu, cpuid, apicid, socketid, microcode;
	uint8_t cs, bank, cpuvendor;          /* cpuvendor: kernel X86_VENDOR_* */
	uint8_t v_data[32]; uint32_t v_data_len; /* AMD SMCA vendor data: synd1, synd2, config */
	unsigned has_synd:1, has_ipid:1, has_ppin:1, has_microcode:1; /* optional fields present */
	/*
	 * Set by sources that may lack a field (text logs); a tracepoint record
	 * always has them, so the zero default means "present".
	 */
	unsigned no_cpuid:1;    /* no PROCESSOR line: vendor and model unknown */
	unsigned no_socketid:1; /* no SOCKETID/SOCKET field */
	/*
	 * ipid holds only HardwareID and McaType, named by a text source (the
	 * kernel's "<bank type> Ext. Error Code" line); the instance is unknown.
	 */
	unsigned ipid_type_only:1;
};

#define MCE_NAME_LEN 64
#define MCE_TEXT_LEN 160

/*
 * Decoded record. int64_t members hold RAS_DF_NONE when unknown, strings are
 * empty when unknown. 64-bit registers are stored bit-for-bit in int64_t.
 */
struct mce_decoded {
	RAS_DECODED_HEAD;

	char vendor[16];                  /* "Intel", "AMD", "Hygon", "Zhaoxin", ... */
	char cpu_model_name[40];          /* e.g. "Skylake-SP", "Zen (family 19h)" */
	int64_t family, model, stepping;
	int64_t cpu, socket, apicid, bank;
	char bank_name[MCE_NAME_LEN];

	int64_t mcacod;                   /* MCi_STATUS[15:0] */
	int64_t mscod;                    /* MCi_STATUS[31:16] (Intel model-specific code) */
	char error_class[16];             /* memory|cache|tlb|bus|io|internal|simple|none|undefined */
	char error_text[MCE_TEXT_LEN];    /* meaning of the compound/extended error code */
	int64_t cache_level;              /* the LL field as Linux numbers caches (sysfs level,
					   * lscpu's L1d/L2/L3): 1, 2, 3; none for "generic" */
	char request[16];                 /* RRRR: rd, wr, drd, dwr, ird, prefetch, evict, snoop, err */
	char transaction[16];             /* TT: instruction, data, generic; MMM for memory */
	int64_t filtered;                 /* compound code bit 12 (corrected error filtering) */

	int64_t mem_ctrl, channel, dimm, rank, chip_select;
	char pcie_device[24];             /* IOMCA requester, "segment:bus:device.function" */

	int64_t addr_valid, addr, addr_lsb, addr_mode;
	int64_t addr_usable;        /* 1: ADDR is a system physical address a page action may use */
	int64_t misc_valid, corrected_count, overflow, pcc, uc, en, s, ar;
	int64_t poison, deferred;
	char threshold[16];               /* Intel STATUS[54:53]: none, green, yellow */

	int64_t mcg_ripv, mcg_eipv, mcg_mcip, mcg_lmce;

	char smca_bank_type[MCE_NAME_LEN];
	int64_t smca_hwid, smca_mcatype, smca_instance, xec;
	int64_t smca_instance_hi;         /* IPID[47:44]: node ID on accelerator nodes, not a CPU socket */

	char model_text[MCE_TEXT_LEN];    /* model-specific meaning (MSCOD, MISC bits) */
	char decode_note[MCE_TEXT_LEN];   /* why the decode is partial */

	int64_t raw_status, raw_addr, raw_misc, raw_synd, raw_ipid, raw_mcgstatus, raw_mcgcap;
	int64_t raw_synd1, raw_synd2;     /* AMD SMCA MCA_SYND1/MCA_SYND2 (mce_record vendor data) */
	char fru_text[20];                /* AMD "FRU Text in MCA": SYND1..SYND2 as a string,
					   * 16 bytes (mce_record's v_data) */
};
RAS_DECODED_CHECK(struct mce_decoded);

extern const struct ras_dfield mce_dfields[];
extern const size_t mce_n_dfields;

/* Decodes in into out. Returns 0 or -errno; always fills out (raw-safe). */
int mce_decode(const struct mce_in *in, struct mce_decoded *out);
/*
 * mce_decode, asking memo (NULL: none) for the lookups of the records
 * before and keeping this record's there: the same decoding.
 */
int mce_decode_memo(const struct mce_in *in, struct mce_model_memo *memo, struct mce_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in mce_dfields alone (pure). Always NUL-terminates buf.
 */
void mce_render(const struct mce_decoded *d, char *buf, size_t len);

/* Builds CPUID.1.EAX from a display family/model/stepping. */
uint32_t mce_cpuid_signature(unsigned family, unsigned model, unsigned stepping);
/* Stores v as the little-endian u64 at v_data[8 * slot] (slot 0 SYND1, 1 SYND2, 2 MCA_CONFIG),
 * as the mce_record tracepoint carries it; slots past the buffer are ignored. */
void mce_vendor_word_set(struct mce_in *in, unsigned slot, uint64_t v);

/* Splits CPUID.1.EAX into display family, model, stepping (Intel SDM Vol. 2A CPUID). */
void mce_cpuid_split(uint32_t eax, unsigned *family, unsigned *model, unsigned *stepping);

/*
 * The level a compound error code's LL field (0-3) names, as Linux and lscpu
 * number the caches (1: L1d/L1i, 2: L2, 3: L3): Intel's LL + 1, AMD's (and
 * Hygon's) LL as is; RAS_DF_NONE for "generic" (3) and AMD's reserved 0.
 * decoders/mce_intel.c gives the sources.
 */
int64_t mce_ll_level(unsigned ll, bool amd);
/*
 * The cache (or TLB) a cache, TLB or bus error names, as every view names it:
 * "L1 cache", "L1i cache" (instruction side), "L2 cache", "L1 TLB", "L2" (a
 * bus error's level). Writes it to buf and returns its length; 0 (buf empty)
 * when the error names no level (generic, memory and other classes), or buf
 * is shorter than 16 bytes (the longest name is 9).
 */
size_t mce_cache_name(const struct mce_decoded *m, char *buf, size_t len);

/* Stable name of a kernel X86_VENDOR_* number ("Intel", "AMD", ...; "unknown"). */
const char *mce_vendor_name(unsigned cpuvendor);

#endif
