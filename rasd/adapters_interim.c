/* SPDX-License-Identifier: MIT */
/* Interim adapters until the decoders land: severity unknown, title only. */
#include <stdio.h>
#include <string.h>
#include "adapters.h"

#define INTERIM(name)                                                        \
	const struct ras_dfield name##_dfields[1];                           \
	const size_t name##_n_dfields = 0;                                   \
	int adapt_##name(const struct ras_event_type *type,                  \
			 const struct ras_value *values, void *out)          \
	{                                                                    \
		struct ras_decoded_head *h = out;                            \
		h->severity = RAS_SEV_UNKNOWN;                               \
		snprintf(h->summary, sizeof(h->summary), "%s", type->title); \
		h->location[0] = 0;                                          \
		return 0;                                                    \
	}

INTERIM(mce)
INTERIM(edac)
INTERIM(aer)
INTERIM(extlog)
INTERIM(nonstd)
INTERIM(arm)
INTERIM(memfail)
INTERIM(devlink)
INTERIM(blockerr)
INTERIM(cxl)
