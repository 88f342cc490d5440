/* SPDX-License-Identifier: MIT */
/*
 * What a decoded record counts against: the subjects of thresholds. A
 * corrected error counts against its physical page, its DIMM, its CPU core
 * or cache, its PCIe device and its DRAM row, as far as the record says.
 * One table (subject.c) lists which event type feeds which kind of subject
 * and how; derived from the decoder's output, never from a second parse.
 */
#ifndef RAS_SUBJECT_H
#define RAS_SUBJECT_H

#include <stdbool.h>
#include <stdint.h>
#include "event_table.h"
#include "decoders/edac.h"
#include "diag/dram.h"

enum ras_subject_kind {
	RAS_SUBJ_PAGE, RAS_SUBJ_DIMM, RAS_SUBJ_CPU, RAS_SUBJ_DEVICE, RAS_SUBJ_ROW,
	RAS_SUBJ_KINDS
};

struct ras_subject {
	enum ras_subject_kind kind;
	char key[128];          /* identity of the subject, stable across restarts */
	int64_t n;              /* errors this record counts (mc_event error_count) */
	bool have_addr;
	uint64_t addr;          /* page: page-aligned physical address; row: its host address */
	int cpu;                /* cpu: the core; -1 none */
	int cache_level;        /* cpu: the sysfs cache level (1, 2, 3) of a cache error; 0 none */
	bool instruction;       /* cpu: the cache error was on the instruction side */
	char device[64];        /* device: PCI name; row: the memory device (CXL memdev) */
	char label[EDAC_LABEL_MAX]; /* DIMM label when the record has one, whole (decoders/edac.h) */
	bool hbm;               /* dimm: an HBM channel (AMD UMC), no DIMM */
	/* row: where in the DRAM (diag/dram.h), what a repair request and the diagnosis need */
	struct diag_dram dram;
	/*
	 * The device says a threshold of its own was crossed (a CXL record's
	 * threshold event): the subject crosses at once, whatever its bucket
	 * holds. rasdaemon offlines the page then too.
	 */
	bool at_once;
	/* With at_once: a recoverable uncorrected error of the CPU itself (cpu_ue_offline). */
	bool uncorrected;
};

#define RAS_SUBJECTS_MAX RAS_SUBJ_KINDS

/* "page", "dimm", "cpu", "device", "row". */
const char *ras_subject_kind_name(enum ras_subject_kind kind);
/*
 * The subjects a decoded corrected record counts against (others count
 * against none), of the kinds whose bit (1u << kind) is set in wanted: a kind
 * nobody counts costs nothing. page_size: the machine's page size. Returns
 * how many were written to out (at most RAS_SUBJECTS_MAX).
 */
int ras_subjects_of(const struct ras_event_type *type, const struct ras_value *values,
		    const void *decoded, uint64_t page_size, unsigned wanted,
		    struct ras_subject *out);
/*
 * The same, whatever the record's severity: the parts an uncorrected error
 * concerns (the diagnosis, rasd/health_attr.c). No threshold counts these.
 */
int ras_subjects_any(const struct ras_event_type *type, const struct ras_value *values,
		     const void *decoded, uint64_t page_size, unsigned wanted,
		     struct ras_subject *out);
/*
 * What a storm of type's records folds under when they name no DIMM, CPU or
 * device: a machine check's MCA bank on its socket (and channel, when the
 * decoder knows it), written to key as "bank socket 0 bank 7 channel 2".
 * Not a threshold subject: EDAC reports the same memory errors to the DIMM
 * thresholds. False for other types, or when the bank is not known.
 */
bool ras_subject_fold_group(const struct ras_event_type *type, const void *decoded, char *key,
			    size_t len);
/*
 * Tests only: off, every EDAC place is built at its record the general way
 * instead of found in the thread's cache (on by default).
 */
void ras_subject_place_cache(bool on);

#endif
