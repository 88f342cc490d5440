/* SPDX-License-Identifier: MIT */
/* Severity classes shared by every decoder, ordered from least to most severe. */
#ifndef RAS_SEVERITY_H
#define RAS_SEVERITY_H

enum ras_severity {
	RAS_SEV_UNKNOWN = 0,
	RAS_SEV_INFO,        /* informational, no error */
	RAS_SEV_CORRECTED,   /* corrected by hardware */
	RAS_SEV_DEFERRED,    /* uncorrected, deferred (AMD) / poison created, not consumed */
	RAS_SEV_UCNA,        /* uncorrected, no action required (Intel SDM) */
	RAS_SEV_SRAO,        /* software recoverable, action optional */
	RAS_SEV_SRAR,        /* software recoverable, action required */
	RAS_SEV_UNCORRECTED, /* uncorrected, not further classified (non-fatal) */
	RAS_SEV_FATAL,       /* processor context corrupt / fatal */
};

#define RAS_SEV_COUNT (RAS_SEV_FATAL + 1)

/* Stable lower-case name ("corrected", "srao", ...); never NULL. */
const char *ras_severity_name(enum ras_severity sev);
/* Parses a name as printed by ras_severity_name(); returns -EINVAL if unknown. */
int ras_severity_parse(const char *name, enum ras_severity *out);

#endif
