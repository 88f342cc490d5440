/* SPDX-License-Identifier: MIT */
/*
 * SAID(d): the sentence a decoder's renderer builds for the decoded struct d
 * (any of the decoders' output structs), in a buffer that the next SAID()
 * of the same type overwrites.
 */
#ifndef RAS_TEST_SAID_H
#define RAS_TEST_SAID_H

#include "decoders/aer.h"
#include "decoders/blockerr.h"
#include "decoders/cper.h"
#include "decoders/cxl.h"
#include "decoders/devlink.h"
#include "decoders/edac.h"
#include "decoders/mce.h"
#include "decoders/memfail.h"

#define SAID_FN(name)                                                          \
	static inline const char *said_##name(const struct name##_decoded *d)  \
	{                                                                      \
		static char buf[RAS_SUMMARY_LEN];                              \
		name##_render(d, buf, sizeof(buf));                            \
		return buf;                                                    \
	}

SAID_FN(mce)
SAID_FN(edac)
SAID_FN(aer)
SAID_FN(extlog)
SAID_FN(nonstd)
SAID_FN(arm)
SAID_FN(memfail)
SAID_FN(devlink)
SAID_FN(blockerr)
SAID_FN(cxl)

#define SAID(d) _Generic(&(d),                                                 \
	struct mce_decoded *: said_mce, struct edac_decoded *: said_edac,      \
	struct aer_decoded *: said_aer, struct extlog_decoded *: said_extlog,  \
	struct nonstd_decoded *: said_nonstd, struct arm_decoded *: said_arm,  \
	struct memfail_decoded *: said_memfail,                                \
	struct devlink_decoded *: said_devlink,                                \
	struct blockerr_decoded *: said_blockerr, struct cxl_decoded *: said_cxl)(&(d))

#endif
