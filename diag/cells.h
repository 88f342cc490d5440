/* SPDX-License-Identifier: MIT */
/*
 * The DRAM fault modes of one memory part (a DIMM, an HBM channel, a CXL
 * device), updated record by record in bounded memory.
 *
 * A cell is one (rank, bank group, bank, row, column) an error named. Up to
 * DIAG_CELLS distinct cells are kept, each with its count, first and last
 * time, bit and device; a row or column that already holds DIAG_LINE_CAP
 * cells takes further cells of its line into them (a row fault's thousand
 * columns keep eight cells, and leave room for another fault). Errors at a
 * cell past the bound are counted (beyond) and mark their rank and bank.
 * A known cell costs one hash probe; a new one a look at the full lines,
 * and, when kept, a scan of the kept cells. The classification is O(n^2) in
 * the cells kept (classify.c).
 *
 * Classification (diag_cells_classify) groups the cells into faults, as the
 * field studies define them: what all of a fault's errors share decides its
 * mode (Sridharan & Liberty, SC'12; Sridharan et al., ASPLOS'15):
 *   - cells of one row (rank, bank, row) or one column form a line; a line
 *     of DIAG_STRONG_LINE cells or more is a single-row or single-column
 *     fault, always;
 *   - of the other cells, those that name one and the same bit (and
 *     device) form a single-lane fault when there are wide_cells of them or
 *     more, on two rows and two columns at least, and they are more than
 *     half of the cells that name a bit (scattered faults flip a random bit
 *     of the word; a failing data pin flips its own at any address);
 *   - the other cells (alone, or on a line of two or three: a scattered
 *     fault's cells share a column now and then) are taken together when
 *     there are wide_cells of them or more: across ranks, with at least two
 *     outside the rank holding most, they are one multi-rank fault; else in
 *     one rank, with two outside its busiest bank, one multi-bank fault; else
 *     in one bank, one single-bank fault;
 *   - what is left: each short line a single-row or single-column fault,
 *     each lone cell a single-bit fault (single-word when the record named
 *     two bits or more there; a cell whose record names no bit is counted
 *     single-bit), and a cell without a row or column a fault of mode
 *     "none" (coordinates too coarse to tell).
 * A fault is permanent when its errors came at least permanent_after_ns
 * apart (the same place failing again after a scrub), else transient.
 */
#ifndef RAS_DIAG_CELLS_H
#define RAS_DIAG_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "part.h"

#define DIAG_CELLS 64
#define DIAG_FAULTS 8
#define DIAG_LINE_CAP 8
#define DIAG_STRONG_LINE 4
#define DIAG_INDEX 128
#define DIAG_LINES (2 * DIAG_CELLS / DIAG_LINE_CAP)

struct diag_cell {
	int32_t rank, bank_group, bank, row, column;   /* -1: not known */
	int16_t bit;               /* -1 not known, else the first bit seen */
	int16_t device;            /* -1 not known, -2 several */
	uint8_t several_bits;      /* two bits or more seen here */
	uint8_t line;              /* it stands for its line's further cells too */
	uint8_t fault;             /* index of its fault at the last classification */
	uint8_t pad;
	uint32_t count;            /* errors, saturating */
	int64_t first_ns, last_ns;
};

/* A row (or column) of a bank that holds DIAG_LINE_CAP cells: its further cells go to cell. */
struct diag_line {
	int32_t rank, bank_group, bank, value;
	uint8_t row, cell, pad[2];
};

struct diag_fault {
	uint32_t mode;             /* enum diag_mode */
	uint32_t permanent;
	int32_t rank, bank_group, bank, row, column;   /* what its cells share; -1 when they differ */
	uint16_t cells, ranks, banks, rows, columns;   /* distinct ones among its cells */
	int16_t bit, device;       /* the bit (and device) all its cells name; -1 when not one */
	int64_t errors, first_ns, last_ns;
};

struct diag_cells {
	uint32_t n;                /* cells kept */
	uint32_t n_faults;
	uint32_t faults_more;      /* faults past DIAG_FAULTS, the least of them */
	uint32_t dirty;            /* a cell was added, or a fault may have turned permanent */
	int64_t beyond;            /* errors at cells not kept */
	uint64_t rank_map, bank_map;   /* ranks (mod 64) and banks (group * 8 + bank, mod 64) seen */
	uint8_t index[DIAG_INDEX]; /* hash of a cell's place -> its number + 1 */
	uint32_t n_lines;
	struct diag_line line[DIAG_LINES];
	struct diag_cell cell[DIAG_CELLS];
	struct diag_fault fault[DIAG_FAULTS];
};

/* No cells, no faults. */
void diag_cells_init(struct diag_cells *c);
/*
 * Counts an observation with coordinates into the cells; sets c->dirty when
 * the classification may have changed (a new cell, or a transient fault's
 * place seen again permanent_after_ns after it started, or a cell's bit or
 * device changed, or a cell of a fault not kept). More errors at a kept cell
 * change no grouping: unless dirty, its fault's errors, times and rank among
 * the faults are updated here as diag_cells_classify would make them, and it
 * returns true (the faults changed without a classification).
 */
bool diag_cells_add(struct diag_cells *c, const struct diag_obs *o, int64_t permanent_after_ns);
/* Groups the cells into faults, worst first (mode, then permanent, then errors); clears dirty. */
void diag_cells_classify(struct diag_cells *c, unsigned wide_cells, int64_t permanent_after_ns);
/* The worst fault, or NULL when none. */
const struct diag_fault *diag_cells_worst(const struct diag_cells *c);
/* Distinct rows, banks and ranks among the kept cells. */
void diag_cells_touched(const struct diag_cells *c, unsigned *rows, unsigned *banks, unsigned *ranks);
/*
 * As diag_cells_touched, for cells appended since: adds to *rows, *banks and
 * *ranks what cells [from, n) add to the counts of cells [0, from).
 */
void diag_cells_touched_since(const struct diag_cells *c, unsigned from, unsigned *rows,
			      unsigned *banks, unsigned *ranks);
/*
 * One fault in words: "permanent single-row fault at rank 1, bank group 2,
 * bank 3, row 0x1a2b: 40 errors at 8 cells". Always NUL-terminates.
 */
void diag_fault_describe(const struct diag_fault *f, char *buf, size_t len);

#endif
