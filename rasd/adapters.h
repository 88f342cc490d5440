/* SPDX-License-Identifier: MIT */
/* Adapters from extracted tracepoint fields to the pure decoders in decoders/. */
#ifndef RAS_ADAPTERS_H
#define RAS_ADAPTERS_H

#include "event_table.h"

#define RAS_DECLARE_ADAPTER(name)                                   \
	extern const struct ras_dfield name##_dfields[];             \
	extern const size_t name##_n_dfields;                        \
	int adapt_##name(const struct ras_event_type *type,          \
			 const struct ras_value *values, void *out)

RAS_DECLARE_ADAPTER(mce);
RAS_DECLARE_ADAPTER(edac);
RAS_DECLARE_ADAPTER(aer);
RAS_DECLARE_ADAPTER(extlog);
RAS_DECLARE_ADAPTER(nonstd);
RAS_DECLARE_ADAPTER(arm);
RAS_DECLARE_ADAPTER(memfail);
RAS_DECLARE_ADAPTER(devlink);
RAS_DECLARE_ADAPTER(blockerr);
RAS_DECLARE_ADAPTER(cxl);

#endif
