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

#endif
