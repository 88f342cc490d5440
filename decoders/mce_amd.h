/* SPDX-License-Identifier: MIT */
/* Internal AMD tables shared by mce_amd.c and mce_amd_smca.c. */
#ifndef RAS_MCE_AMD_H
#define RAS_MCE_AMD_H

#include "mce_internal.h"

struct smca_type {
	uint16_t hwid, mcatype;
	const char *short_name;  /* e.g. "UMC" */
	const char *long_name;   /* e.g. "unified memory controller" */
	const char *error_class; /* fallback when the error code does not say */
	const char *const *xec;  /* index: MCA_STATUS[21:16]; NULL entries are reserved */
	size_t n_xec;
};

/* On family/model range, bank type (hwid, mcatype) uses the table of (to_hwid, to_mcatype). */
struct smca_quirk {
	uint8_t family, model_lo, model_hi;
	uint16_t hwid, mcatype, to_hwid, to_mcatype;
};

extern const struct smca_type smca_types[];
extern const size_t smca_n_types;
extern const struct smca_quirk smca_quirks[];
extern const size_t smca_n_quirks;

/* mce_amd_mem.c: the memory facts the registers carry. */
/* UMC channel (CPU node) or HBM controller and channel (hbm), chip select, ECC syndrome. */
void amd_umc_location(const struct mce_in *in, bool hbm, struct mce_decoded *out);
/* MCA_SYND1/MCA_SYND2 from the record's vendor data, and FRU text. */
void amd_vendor_data(const struct mce_in *in, struct mce_decoded *out);
/* Pre-SMCA northbridge DRAM ECC: CECC/UECC, syndrome, address bits, threshold. */
void amd_nb_dram_ecc(const struct mce_in *in, struct mce_decoded *out);

#endif
