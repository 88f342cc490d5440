/* SPDX-License-Identifier: MIT */
/*
 * Streams of memory errors with a known truth, for the diagnosis's tests:
 * one part (a DIMM, or a CXL device) per DRAM fault mode of the field
 * studies, its errors spread as such a fault spreads them (a row's over its
 * columns, a bank's over its rows and columns, a multi-rank fault's over
 * ranks and banks) over three days, or twenty minutes for a transient one;
 * a part with two faults; a part with an uncorrected error; a failing data
 * pin (single-lane where the spelling names the bit); and background
 * parts with one transient single-bit error each. The same stream can be
 * written in every spelling a kernel gives coordinates in.
 */
#ifndef RAS_BENCH_FAULT_STREAM_H
#define RAS_BENCH_FAULT_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include "tests/fake_tree.h"

enum fs_spelling {
	FS_SKX_4_14,       /* mc_event, skx_edac 4.14: "rank: bg: ba: row:%x col:%x" */
	FS_SKX_EARLY,      /* mc_event, skx_common before 2022: "row:0x.. col:0x.." */
	FS_SKX,            /* mc_event, since 2022: "PhysicalRankId: Row: Column: Bank: BankGroup:" */
	FS_ADXL,           /* mc_event, a firmware's short ADXL component list */
	FS_ADXL_FULL,      /* mc_event, a long ADXL list: the row lies past 192 characters */
	FS_GHES,           /* mc_event from ghes_edac: "APEI location: ... bit_position:" */
	FS_GHES_OLD,       /* the same before 5.17: "col:", "bit_pos:" */
	FS_EXTLOG,         /* extlog_mem_event, its CPER memory record */
	FS_NONSTD,         /* non_standard_event, a CPER Platform Memory section */
	FS_CXL,            /* cxl_dram, one CXL device per part */
	FS_N
};

const char *fs_spelling_name(enum fs_spelling sp);
/* Whether the spelling names the bit in error (else a single-word fault reads as single-bit). */
bool fs_spelling_bits(enum fs_spelling sp);

#define FS_PARTS 19
#define FS_LANE_PART 18      /* the data pin: after the background parts 10-17 */
#define FS_FAULTS 3

struct fs_part_truth {
	char kind[8];              /* "dimm" or "cxl" */
	char part[64];             /* the part's key as rasd names it */
	const char *verdict, *rule;
	unsigned n_faults;
	struct { const char *mode; bool permanent; } fault[FS_FAULTS];
};

struct fs_truth {
	unsigned n;
	struct fs_part_truth part[FS_PARTS];
};

/*
 * Writes the stream into t (CPU 0, in time order from base_ts on t's clock)
 * and what the diagnosis must find into truth. 0 or -errno.
 */
int fs_write(struct fake_tree *t, enum fs_spelling sp, uint64_t seed, uint64_t base_ts,
	     struct fs_truth *truth);
/* The stream's errors [from, to) in time order only (a run cut in two); how many in all, or -errno. */
int fs_write_range(struct fake_tree *t, enum fs_spelling sp, uint64_t seed, uint64_t base_ts,
		   unsigned from, unsigned to, struct fs_truth *truth);

#endif
