/* SPDX-License-Identifier: MIT */
/*
 * The field-replaceable parts rasd sees, and what it knows of each: counts,
 * times, the rates its rules watch, the PCIe link, and (for memory) the DRAM
 * cells its errors touched (cells.h). A part's state is a fixed-size struct
 * without pointers, so the caller can keep it anywhere and store it as it
 * is. One record is one observation (struct diag_obs) of one part; the
 * caller attributes records to parts (rasd/health_attr.c). Pure: no I/O, no
 * allocation, no globals.
 */
#ifndef RAS_DIAG_PART_H
#define RAS_DIAG_PART_H

#include <stdbool.h>
#include <stdint.h>
#include "dram.h"
#include "decoders/severity.h"

enum diag_kind {
	DIAG_K_DIMM,           /* a DIMM, by its EDAC location or CPER node/card/module */
	DIAG_K_HBM,            /* an HBM channel (no DIMM to name) */
	DIAG_K_CXL,            /* a CXL memory device */
	DIAG_K_CPU,            /* a CPU core (its core-scope machine-check banks) */
	DIAG_K_CACHE,          /* a CPU cache bank */
	DIAG_K_SOCKET,         /* a processor socket's uncore (other machine-check banks) */
	DIAG_K_PCIE,           /* a PCIe device and its link */
	DIAG_K_DISK,           /* a block device */
	DIAG_K_NIC,            /* a network device (devlink) */
	DIAG_K_N
};

enum diag_verdict { DIAG_OK, DIAG_WATCH, DIAG_REPLACE, DIAG_V_N };

/* DRAM fault modes (Sridharan & Liberty, SC'12), ordered from narrowest to widest; the lane
   (pin) mode came later and is last, so stored states and metrics keep their numbers. */
enum diag_mode {
	DIAG_M_NONE,           /* no fault classified (no coordinates, or too coarse to tell) */
	DIAG_M_BIT, DIAG_M_WORD, DIAG_M_COLUMN, DIAG_M_ROW, DIAG_M_BANK,
	DIAG_M_MULTI_BANK, DIAG_M_MULTI_RANK,
	DIAG_M_LANE,           /* one data bit (DQ) of a device at many rows and columns (cells.h) */
	DIAG_M_N
};

/* "dimm", "hbm", "cxl", "cpu", "cache", "socket", "pcie", "disk", "nic". */
const char *diag_kind_name(enum diag_kind k);
int diag_kind_parse(const char *name);          /* the kind, or -1 */
/* Whether the kind is memory whose errors name DRAM cells. */
bool diag_kind_dram(enum diag_kind k);
const char *diag_verdict_name(enum diag_verdict v);   /* "ok", "watch", "replace" */
int diag_verdict_parse(const char *name);       /* the verdict, or -1 */
/* "none", "single-bit", "single-word", "single-column", "single-row", "single-bank", ... */
const char *diag_mode_name(enum diag_mode m);
int diag_mode_parse(const char *name);          /* the mode, or -1 */

/* What a record says about the part, beyond its severity. */
#define DIAG_OBS_COORDS 0x1        /* dram holds the error's coordinates */
#define DIAG_OBS_MEDIUM 0x2        /* a disk's medium or target error */
#define DIAG_OBS_REPLACE 0x4       /* the device says it needs replacing (CXL health status) */
#define DIAG_OBS_CACHE 0x8         /* a cache error (a cache bank part) */

/* One record's observation of one part. */
struct diag_obs {
	int64_t wall_ns;
	int64_t n;                 /* errors the record stands for, at least 1 */
	enum ras_severity sev;
	unsigned flags;            /* DIAG_OBS_* */
	struct diag_dram dram;     /* with DIAG_OBS_COORDS */
};

/* A leaky bucket: "count/period", count errors leaking out per period (as lib/threshold.h). */
struct diag_rate {
	int64_t level;             /* errors held now */
	int64_t last_ns;           /* the leak is applied up to here; 0: never fed */
};

#define DIAG_RATES 2

/* The link a PCIe device trained to and what it can do; speeds in tenths of GT/s, 0: not known. */
struct diag_link {
	int32_t speed, width, max_speed, max_width;
	int64_t read_ns;           /* when it was read (sysfs, live); 0: never */
};

struct diag_part {
	uint32_t kind;             /* enum diag_kind */
	uint32_t fired;            /* bit per rule (verdict.h) that has fired, sticky */
	int64_t first_ns, last_ns; /* the part's first and last record */
	int64_t records;
	int64_t corrected, uncorrected, fatal;   /* errors: corrected, any uncorrected, fatal ones */
	int64_t coord_records;     /* records that named DRAM coordinates */
	int64_t medium;            /* disk: medium and target errors */
	int64_t replace_events;    /* CXL: events saying the device needs replacing */
	struct diag_rate rate[DIAG_RATES];
	int64_t fired_ns[DIAG_RATES];  /* when each rate rule first fired (record time) */
	struct diag_link link;
	/* The verdict and the rule that decided it (verdict.h), since the record at since_ns. */
	uint32_t verdict, rule;
	int64_t since_ns;
};

/* A part of kind that has seen nothing. */
void diag_part_init(struct diag_part *p, enum diag_kind kind);
/*
 * Counts one observation into p's counters (not its cells: diag_cells_add).
 * The rate buckets are the verdict rules' (diag_rules_observe).
 */
void diag_part_count(struct diag_part *p, const struct diag_obs *o);
/* Speeds as sysfs writes them ("8.0 GT/s PCIe", "2.5 GT/s"): tenths of GT/s, 0 when not read. */
int32_t diag_link_speed(const char *text);

#endif
