/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include "severity.h"

static const char *const severity_names[RAS_SEV_COUNT] = {
	[RAS_SEV_UNKNOWN] = "unknown",
	[RAS_SEV_INFO] = "info",
	[RAS_SEV_CORRECTED] = "corrected",
	[RAS_SEV_DEFERRED] = "deferred",
	[RAS_SEV_UCNA] = "ucna",
	[RAS_SEV_SRAO] = "srao",
	[RAS_SEV_SRAR] = "srar",
	[RAS_SEV_UNCORRECTED] = "uncorrected",
	[RAS_SEV_FATAL] = "fatal",
};

const char *ras_severity_name(enum ras_severity sev)
{
	if ((unsigned)sev >= RAS_SEV_COUNT)
		return "unknown";
	return severity_names[sev];
}

int ras_severity_parse(const char *name, enum ras_severity *out)
{
	for (unsigned i = 0; i < RAS_SEV_COUNT; i++) {
		if (strcmp(name, severity_names[i]) == 0) {
			*out = (enum ras_severity)i;
			return 0;
		}
	}
	return -EINVAL;
}
