/* SPDX-License-Identifier: MIT */
/* Internal types of the Intel per-model tables (mce_intel_models.c, mce_intel_mscod.c). */
#ifndef RAS_MCE_INTEL_MODELS_H
#define RAS_MCE_INTEL_MODELS_H

#include "mce_internal.h"

enum mscod_kind {
	MS_END = 0,
	MS_FIELD,             /* STATUS[hi:lo] is a code looked up in the table */
	MS_BITS,              /* each set bit n of STATUS[hi:lo] is looked up as code n */
	MS_CODE_IF_BIT27,     /* like MS_FIELD, only when STATUS[27] is set */
	MS_BITS_UNLESS_BIT27, /* like MS_BITS, only when STATUS[27] is clear */
};

struct mscod_desc {
	enum mscod_kind kind;
	uint8_t lo, hi;
	const struct mce_code_text *table;
};

extern const struct mscod_desc mscod_nhm_imc[], mscod_hsx_imc[], mscod_bdx_imc[];
extern const struct mscod_desc mscod_snb_ep_imc[], mscod_ivt_imc[];
extern const struct mscod_desc mscod_hsx_qpi[], mscod_upi[];
extern const struct mscod_desc mscod_skx_m2m[], mscod_skx_imc[];
extern const struct mscod_desc mscod_icx_imc[], mscod_icx_m2m[];
extern const struct mscod_desc mscod_spr_imc[], mscod_spr_m2m[];
extern const struct mscod_desc mscod_gnr_b2cmi[], mscod_gnr_mcchan[], mscod_dmr_mcchan[];
extern const struct mscod_desc mscod_hsx_pcu[], mscod_skx_pcu[], mscod_i10nm_pcu[];
extern const struct mscod_desc mscod_kh50000_dram[], mscod_kh50000_svid[];
extern const struct mscod_desc mscod_kh50000_pcie[], mscod_kh50000_hif[];
extern const struct mscod_desc mscod_dnv_imc[], mscod_bdx_de_imc[], mscod_unpublished[];
extern const struct mce_code_text pcu_mcacod_texts[];

typedef void (*misc_fn)(const struct mce_in *in, struct mce_decoded *out);

struct bank_row {
	uint8_t first, last;
	char name[24];     /* at most 23 characters: copied whole into bank_name (MCE_SET_PREFIX) */
	int8_t mem_ctrl;   /* -1: not a memory-controller bank */
	int8_t channel;    /* -1: channel not implied by the bank (MCACOD may give it) */
	const struct mscod_desc *mscod;
	misc_fn misc;
	const struct mce_code_text *mcacod; /* model-specific meanings of STATUS[15:0] in this bank */
};

struct platform {
	const struct bank_row *banks;
	size_t n_banks;
	misc_fn every_bank_misc; /* MISC layout that applies to any bank */
};

struct model_row {
	uint8_t vendor, family, model, step_lo, step_hi;
	char name[40];     /* cpu_model_name's size: copied whole (MCE_SET_ROW) */
	const struct platform *platform; /* NULL: known model, no public tables */
	bool cmci; /* big core from 06_1AH on: CMCI, so STATUS[52:38] is a corrected count */
};

#define BANK(f, l, n) { f, l, n, -1, -1, NULL, NULL, NULL }
#define BANK_MS(f, l, n, ms) { f, l, n, -1, -1, ms, NULL, NULL }
#define MEMBANK(b, n, imc, ch, ms, misc) { b, b, n, imc, ch, ms, misc, NULL }
#define PLATFORM(b, every) { b, MCE_ARRAY_SIZE(b), every }

/* The older and the Xeon Phi parts (mce_intel_legacy.c). */
extern const struct platform knl_platform, p6old_platform, core2_platform, dunnington_platform,
	p4_platform, tulsa_platform;

#endif
