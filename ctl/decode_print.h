/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl decode: printing one decoded record as text or JSON. Kept
 * free of ctl.h and of lib/ but for the text and JSON encoders (lib/text.c,
 * lib/json.c: libc only), so the fuzz target for the decode glue can build it
 * against decoders/ and those two files.
 */
#ifndef RAS_CTL_DECODE_PRINT_H
#define RAS_CTL_DECODE_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include "decoders/aer.h"
#include "decoders/blockerr.h"
#include "decoders/cper.h"
#include "decoders/cxl.h"
#include "decoders/devlink.h"
#include "decoders/edac.h"
#include "decoders/mce.h"
#include "decoders/memfail.h"

struct decode_out {
	FILE *out;   /* decoded records */
	FILE *err;   /* file:line: reason */
	bool json;
};

/* What the printer needs of one decoded record, whatever its type. */
struct decoded_view {
	const char *kind;           /* "mce", "aer", "edac", "extlog", "arm", "nonstd", "devlink", "blockerr", "memfail", "cxl" */
	const void *decoded;        /* the decoder's output struct, for its dfields */
	const struct ras_dfield *dfields;
	size_t n_dfields;
	enum ras_severity severity;
	char sentence[RAS_SUMMARY_LEN];   /* rendered by the decoder's renderer */
	const char *location;
	/* What the source text said that the decoder has no field for ("source" in JSON). */
	const char *note_key[3];
	const char *note_value[3];
};

/*
 * The one place per decoder that reads its severity and location and
 * renders its sentence.
 */
struct decoded_view view_mce(const struct mce_decoded *d);
struct decoded_view view_aer(const struct aer_decoded *d);
struct decoded_view view_edac(const struct edac_decoded *d);
struct decoded_view view_extlog(const struct extlog_decoded *d);
struct decoded_view view_arm(const struct arm_decoded *d);
struct decoded_view view_nonstd(const struct nonstd_decoded *d);
struct decoded_view view_devlink(const struct devlink_decoded *d);
struct decoded_view view_blockerr(const struct blockerr_decoded *d);
struct decoded_view view_memfail(const struct memfail_decoded *d);
struct decoded_view view_cxl(const struct cxl_decoded *d);

/* Prints one record; where ("file:line") may be NULL. */
void decode_print(const struct decode_out *o, const struct decoded_view *v, const char *where);

#endif
