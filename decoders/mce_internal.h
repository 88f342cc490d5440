/* SPDX-License-Identifier: MIT */
/* Helpers shared by the mce_*.c decoder files; not part of the public API. */
#ifndef RAS_MCE_INTERNAL_H
#define RAS_MCE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "mce.h"
#include "other_util.h"

#define MCE_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Architectural MCi_STATUS bits (Intel SDM Vol. 3B "IA32_MCi_STATUS MSRs", AMD APM Vol. 2 9.3). */
#define MCI_STATUS_VAL   (1ULL << 63)
#define MCI_STATUS_OVER  (1ULL << 62)
#define MCI_STATUS_UC    (1ULL << 61)
#define MCI_STATUS_EN    (1ULL << 60)
#define MCI_STATUS_MISCV (1ULL << 59)
#define MCI_STATUS_ADDRV (1ULL << 58)
#define MCI_STATUS_PCC   (1ULL << 57)
#define MCI_STATUS_S     (1ULL << 56)  /* Intel, when MCG_CAP.SER_P */
#define MCI_STATUS_AR    (1ULL << 55)  /* Intel, when MCG_CAP.SER_P */
#define MCI_STATUS_TCC   (1ULL << 55)  /* AMD: task context corrupt */
#define MCI_STATUS_SYNDV (1ULL << 53)  /* AMD SMCA */
#define MCI_STATUS_DEFERRED (1ULL << 44) /* AMD */
#define MCI_STATUS_POISON (1ULL << 43) /* AMD */

/* IA32_MCG_CAP bits (Intel SDM Vol. 3B "IA32_MCG_CAP MSR"). */
#define MCG_CAP_CMCI_P (1ULL << 10)
#define MCG_CAP_TES_P  (1ULL << 11)
#define MCG_CAP_SER_P  (1ULL << 24)

/* IA32_MCG_STATUS bits (Intel SDM Vol. 3B "IA32_MCG_STATUS MSR"). */
#define MCG_STATUS_RIPV  (1ULL << 0)
#define MCG_STATUS_EIPV  (1ULL << 1)
#define MCG_STATUS_MCIP  (1ULL << 2)
#define MCG_STATUS_LMCES (1ULL << 3)

/* Bits lo..hi (inclusive) of v. */
static inline uint64_t mce_bits(uint64_t v, unsigned lo, unsigned hi)
{
	unsigned width = hi - lo + 1;

	if (width >= 64)
		return v >> lo;
	return (v >> lo) & ((1ULL << width) - 1);
}

static inline int64_t mce_flag(uint64_t v, uint64_t mask)
{
	return (v & mask) ? 1 : 0;
}

/* One code -> text row; tables end with a NULL text. */
struct mce_code_text {
	uint32_t code;
	const char *text;
};

const char *mce_code_lookup(const struct mce_code_text *table, uint32_t code);

/* Bounded string helpers; always NUL-terminate, never overflow. */
void mce_copy(char *dst, size_t size, const char *src);
/* Appends "sep" first when dst is not empty. */
void mce_append_item(char *dst, size_t size, const char *sep, const char *item);
/* mce_append_item of an item of known length n (no NUL among its bytes). */
void mce_append_n(char *dst, size_t size, const char *sep, const char *item, size_t n);
/* mce_append_item of a string literal: its length known, no strlen. */
#define mce_append_lit(dst, size, sep, lit) mce_append_n((dst), (size), (sep), (lit), sizeof(lit) - 1)

/*
 * A name into a string member whole: a row of a table of char arrays the
 * member's size (its NUL padding included), or a string literal and its
 * NUL. Only where the member is still as init_out left it (all zero), so
 * that it holds the same bytes mce_copy would have written, without a
 * strnlen or a call. The sizes are checked when compiled.
 */
#define MCE_SET_ROW(member, row)                                                    \
	do {                                                                        \
		_Static_assert(sizeof(member) == sizeof(row), "a row the member's size"); \
		memcpy((member), (row), sizeof(member));                            \
	} while (0)
/* A row shorter than the member: the member's rest stays as init_out left it, zero. */
#define MCE_SET_PREFIX(member, row)                                                 \
	do {                                                                        \
		_Static_assert(sizeof(row) <= sizeof(member), "a row that fits");      \
		memcpy((member), (row), sizeof(row));                               \
	} while (0)
#define MCE_SET_LIT(member, lit)                                                    \
	do {                                                                        \
		_Static_assert(sizeof(lit) <= sizeof(member), "a literal that fits");    \
		memcpy((member), (lit), sizeof(lit));                               \
	} while (0)

/* Architectural compound error code decode (mce_intel.c); amd selects AMD's variant. */
void mce_arch_decode(uint16_t mcacod, bool amd, struct mce_decoded *out);

/* Vendor decoders: fill bank, model and error fields, and severity. */
/* memo: the caller's (mce_decode_memo), or NULL; AMD's decoder has none to keep. */
void mce_intel_decode(const struct mce_in *in, struct mce_model_memo *memo, struct mce_decoded *out);
void mce_amd_decode(const struct mce_in *in, struct mce_model_memo *memo, struct mce_decoded *out);

/* Intel per-model layer (mce_intel_models.c). Returns false for unknown models. */
bool mce_intel_model_decode(const struct mce_in *in, struct mce_model_memo *memo,
			    struct mce_decoded *out);

#endif
