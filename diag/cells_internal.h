/* SPDX-License-Identifier: MIT */
/* Private to diag/cells.c and diag/classify.c: comparing cells. */
#ifndef RAS_DIAG_CELLS_INTERNAL_H
#define RAS_DIAG_CELLS_INTERNAL_H

#include "cells.h"

#define NO_FAULT 0xff

static inline bool same_bank(const struct diag_cell *a, const struct diag_cell *b)
{
	return a->rank == b->rank && a->bank_group == b->bank_group && a->bank == b->bank;
}

static inline bool same_place(const struct diag_cell *a, const struct diag_cell *b)
{
	return same_bank(a, b) && a->row == b->row && a->column == b->column;
}

static inline bool same_row(const struct diag_cell *a, const struct diag_cell *b)
{
	return same_bank(a, b) && a->row == b->row;
}

static inline bool same_column(const struct diag_cell *a, const struct diag_cell *b)
{
	return same_bank(a, b) && a->column == b->column;
}

/* Rank, bank, row and column known: a cell a fault mode can be told from. */
static inline bool full(const struct diag_cell *a)
{
	return a->rank >= 0 && a->bank >= 0 && a->row >= 0 && a->column >= 0;
}

/* Whether fault a goes before b, worst first (classify.c): a total order, so a fault whose
   errors grew can be moved up to where sorting all of them again would put it. */
bool diag_fault_worse(const struct diag_fault *a, const struct diag_fault *b);

#endif
