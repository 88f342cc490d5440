/* SPDX-License-Identifier: MIT */
/*
 * A part's cells grouped into faults (the rules are in cells.h). Each step
 * compares every cell with every other at most a few times: O(n^2) in the
 * cells kept, 64 at most, and run only when a cell came or a fault may have
 * turned permanent.
 */
#include <string.h>
#include "cells_internal.h"

enum role { LONE, ROW_LINE, COLUMN_LINE };

struct work {
	const struct diag_cells *c;
	unsigned n;
	uint8_t role[DIAG_CELLS];
	uint8_t line[DIAG_CELLS];        /* cells on its line (of its role) */
	int16_t fault_of[DIAG_CELLS];    /* index into faults, -1 none yet */
	struct diag_fault faults[DIAG_CELLS];
	unsigned n_faults;
};

static bool on_line(const struct diag_cell *a, const struct diag_cell *b, enum role r)
{
	return r == ROW_LINE ? same_row(a, b) : same_column(a, b);
}

/* Each full cell goes to its longer line (a row on a tie); a line left with one cell is none. */
static void find_lines(struct work *w)
{
	const struct diag_cell *cell = w->c->cell;
	uint8_t rows[DIAG_CELLS], cols[DIAG_CELLS];

	/* Each pair once: its cells count each other. */
	for (unsigned i = 0; i < w->n; i++)
		rows[i] = cols[i] = full(&cell[i]);
	for (unsigned i = 0; i < w->n; i++) {
		for (unsigned j = i + 1; rows[i] && j < w->n; j++) {
			if (!rows[j] || !same_bank(&cell[i], &cell[j]))
				continue;
			if (cell[i].row == cell[j].row) {
				rows[i]++;
				rows[j]++;
			}
			if (cell[i].column == cell[j].column) {
				cols[i]++;
				cols[j]++;
			}
		}
	}
	for (unsigned i = 0; i < w->n; i++) {
		w->role[i] = rows[i] >= 2 && rows[i] >= cols[i] ? ROW_LINE : cols[i] >= 2 ? COLUMN_LINE : LONE;
		w->line[i] = w->role[i] != LONE;
	}
	for (unsigned i = 0; i < w->n; i++)
		for (unsigned j = i + 1; w->role[i] != LONE && j < w->n; j++)
			if (w->role[j] == w->role[i] && on_line(&cell[i], &cell[j], (enum role)w->role[i])) {
				w->line[i]++;
				w->line[j]++;
			}
	for (unsigned i = 0; i < w->n; i++)
		if (w->role[i] != LONE && w->line[i] < 2)
			w->role[i] = LONE;
}

/* A cell of the pool of wide faults: full, in no fault yet, not on a line of DIAG_STRONG_LINE. */
static bool pooled(const struct work *w, unsigned i)
{
	return full(&w->c->cell[i]) && w->fault_of[i] < 0 &&
	       !(w->role[i] != LONE && w->line[i] >= DIAG_STRONG_LINE);
}

static unsigned new_fault(struct work *w, enum diag_mode m)
{
	unsigned f = w->n_faults++;

	memset(&w->faults[f], 0, sizeof(w->faults[f]));
	w->faults[f].mode = m;
	return f;
}

/* Two cells that name the same one bit of the same device (or both no device). */
static bool same_lane(const struct diag_cell *a, const struct diag_cell *b)
{
	return a->bit >= 0 && a->bit == b->bit && !a->several_bits && !b->several_bits &&
	       a->device == b->device && a->device != -2;
}

/*
 * Single-lane (pin) faults. The field studies classify a fault by what all of
 * its errors share (Sridharan & Liberty, "A study of DRAM failures in the
 * field", SC'12; Sridharan et al., "Memory errors in modern systems",
 * ASPLOS'15; Beigi et al., "A systematic study of DDR4 DRAM faults in the
 * field", HPCA'23). Errors that share no row, column or bank but always flip
 * the same bit of the same device share its data pin (DQ): a lane fault,
 * which the bit position of CPER's memory section, a CXL DRAM record's
 * correction mask (its nibble mask naming the device) or ghes_edac's
 * bit_position let us see. The thresholds (wide_cells of them, over two rows
 * and two columns, more than half of the cells that name a bit: a scattered
 * fault flips random bits) are our judgement.
 */
static void find_lane(struct work *w, unsigned wide)
{
	const struct diag_cell *cell = w->c->cell;
	unsigned named = 0;

	for (unsigned i = 0; i < w->n; i++)
		named += pooled(w, i) && cell[i].bit >= 0;
	for (unsigned i = 0; i < w->n; i++) {
		unsigned k = 0, f;
		bool rows = false, cols = false;

		if (!pooled(w, i) || cell[i].bit < 0 || cell[i].several_bits)
			continue;
		for (unsigned j = 0; j < w->n; j++) {
			if (!pooled(w, j) || !same_lane(&cell[i], &cell[j]))
				continue;
			k++;
			rows = rows || !same_row(&cell[i], &cell[j]);
			cols = cols || cell[i].column != cell[j].column;
		}
		if (k < wide || 2 * k <= named || !rows || !cols)
			continue;
		f = new_fault(w, DIAG_M_LANE);
		for (unsigned j = w->n; j-- > 0;)
			if (pooled(w, j) && same_lane(&cell[i], &cell[j]))
				w->fault_of[j] = (int16_t)f;
		return;   /* more than half: there is one */
	}
}

/* Of the pooled cells: how many share each cell's rank, and each cell's bank (each pair once). */
static void pool_counts(const struct work *w, uint8_t *rank, uint8_t *bank)
{
	const struct diag_cell *cell = w->c->cell;
	bool pool[DIAG_CELLS];

	for (unsigned i = 0; i < w->n; i++)
		rank[i] = bank[i] = pool[i] = pooled(w, i);
	for (unsigned i = 0; i < w->n; i++) {
		for (unsigned j = i + 1; pool[i] && j < w->n; j++) {
			if (!pool[j] || cell[i].rank != cell[j].rank)
				continue;
			rank[i]++;
			rank[j]++;
			if (cell[i].bank == cell[j].bank && cell[i].bank_group == cell[j].bank_group) {
				bank[i]++;
				bank[j]++;
			}
		}
	}
}

/* Multi-rank: wide pooled cells, two or more outside the rank holding most. */
static bool find_multi_rank(struct work *w, unsigned wide, const uint8_t *rank)
{
	unsigned n = 0, busiest = 0, f;

	for (unsigned i = 0; i < w->n; i++) {
		if (!pooled(w, i))
			continue;
		n++;
		busiest = rank[i] > busiest ? rank[i] : busiest;
	}
	if (n < wide || n - busiest < 2)
		return false;
	f = new_fault(w, DIAG_M_MULTI_RANK);
	for (unsigned i = 0; i < w->n; i++)
		if (pooled(w, i))
			w->fault_of[i] = (int16_t)f;
	return true;
}

/* Multi-bank, per rank: wide pooled cells, two or more outside its busiest bank. */
static void find_multi_bank(struct work *w, unsigned wide, const uint8_t *rank, const uint8_t *bank)
{
	const struct diag_cell *cell = w->c->cell;

	for (unsigned i = 0; i < w->n; i++) {
		unsigned busiest = 0, f;

		if (!pooled(w, i) || rank[i] < wide)
			continue;
		for (unsigned j = 0; j < w->n; j++)
			if (pooled(w, j) && cell[j].rank == cell[i].rank && bank[j] > busiest)
				busiest = bank[j];
		if (rank[i] - busiest < 2)
			continue;
		f = new_fault(w, DIAG_M_MULTI_BANK);
		for (unsigned j = w->n; j-- > 0;)
			if (pooled(w, j) && cell[j].rank == cell[i].rank)
				w->fault_of[j] = (int16_t)f;
	}
}

/* Single-bank: wide pooled cells in one bank. */
static void find_single_bank(struct work *w, unsigned wide, const uint8_t *bank)
{
	const struct diag_cell *cell = w->c->cell;

	for (unsigned i = 0; i < w->n; i++) {
		unsigned f;

		if (!pooled(w, i) || bank[i] < wide)
			continue;
		f = new_fault(w, DIAG_M_BANK);
		for (unsigned j = w->n; j-- > 0;)
			if (pooled(w, j) && same_bank(&cell[j], &cell[i]))
				w->fault_of[j] = (int16_t)f;
	}
}

/* Lines become row and column faults; lone cells single-bit or -word faults, or "none". */
static void find_narrow(struct work *w)
{
	const struct diag_cell *cell = w->c->cell;

	for (unsigned i = 0; i < w->n; i++) {
		unsigned f;

		if (w->fault_of[i] >= 0)
			continue;
		if (w->role[i] == LONE) {
			w->fault_of[i] = (int16_t)new_fault(w, !full(&cell[i]) ? DIAG_M_NONE :
							    cell[i].several_bits ? DIAG_M_WORD : DIAG_M_BIT);
			continue;
		}
		f = new_fault(w, w->role[i] == ROW_LINE ? DIAG_M_ROW : DIAG_M_COLUMN);
		for (unsigned j = i; j < w->n; j++)
			if (w->fault_of[j] < 0 && w->role[j] == w->role[i] &&
			    on_line(&cell[i], &cell[j], (enum role)w->role[i]))
				w->fault_of[j] = (int16_t)f;
	}
}

static int32_t shared(int32_t have, int32_t v, bool first)
{
	return first || have == v ? v : -1;
}

/* The places distinct() counts: a rank; a bank; a row or a column of a bank. */
enum place { P_RANK, P_BANK, P_ROW, P_COLUMN, P_N };

static bool same_at(const struct diag_cell *a, const struct diag_cell *b, enum place p)
{
	switch (p) {
	case P_RANK: return a->rank == b->rank;
	case P_BANK: return same_bank(a, b);
	case P_ROW: return same_row(a, b);
	default: return same_column(a, b);
	}
}

/* Of a place: the same place hashes the same (its slot of 2 * DIAG_CELLS). */
static unsigned place_slot(const struct diag_cell *a, enum place p)
{
	uint64_t h = (uint64_t)(uint32_t)a->rank * 0x9e3779b97f4a7c15ULL;

	if (p != P_RANK)
		h ^= ((uint64_t)(uint32_t)a->bank_group << 32 | (uint32_t)a->bank) * 0xbf58476d1ce4e5b9ULL;
	if (p == P_ROW)
		h ^= (uint64_t)(uint32_t)a->row * 0x94d049bb133111ebULL;
	else if (p == P_COLUMN)
		h ^= (uint64_t)(uint32_t)a->column * 0x2545f4914f6cdd1dULL;
	return (unsigned)(h >> 57) % (2 * DIAG_CELLS);
}

/*
 * How many distinct ranks, banks, rows and columns the cells idx[0..k) lie
 * in: each cell looked up in a set of the places seen (at most DIAG_CELLS in
 * twice as many slots), O(k), where comparing each with every earlier one
 * was O(k^2) and a storm's fault holds all DIAG_CELLS.
 */
static void distinct(const struct diag_cell *cell, const uint8_t *idx, unsigned k, uint16_t *out)
{
	uint8_t seen[2 * DIAG_CELLS];

	for (unsigned p = 0; p < P_N; p++) {
		unsigned n = 0;

		if (k > 1)
			memset(seen, 0, sizeof(seen));
		for (unsigned i = 0; i < k && k > 1; i++) {
			const struct diag_cell *a = &cell[idx[i]];
			unsigned s = place_slot(a, (enum place)p);

			while (seen[s] && !same_at(a, &cell[seen[s] - 1], (enum place)p))
				s = (s + 1) % (2 * DIAG_CELLS);
			if (!seen[s]) {
				seen[s] = (uint8_t)(idx[i] + 1);
				n++;
			}
		}
		out[p] = (uint16_t)(k > 1 ? n : k);
	}
}

/* A fault's counts, times and shared coordinates, from its cells. */
static void summarize(struct work *w, unsigned f, int64_t gap)
{
	const struct diag_cell *cell = w->c->cell;
	struct diag_fault *ft = &w->faults[f];
	uint8_t idx[DIAG_CELLS];
	uint16_t n[P_N];
	unsigned k = 0;

	for (unsigned i = 0; i < w->n; i++) {
		const struct diag_cell *a = &cell[i];
		bool first = !k;

		if (w->fault_of[i] != (int)f)
			continue;
		idx[k++] = (uint8_t)i;
		ft->rank = shared(ft->rank, a->rank, first);
		ft->bank_group = shared(ft->bank_group, a->bank_group, first);
		ft->bank = first || (ft->bank == a->bank && ft->bank_group == a->bank_group) ? a->bank : -1;
		ft->row = first || (ft->row == a->row && ft->bank == a->bank) ? a->row : -1;
		ft->column = first || (ft->column == a->column && ft->bank == a->bank) ? a->column : -1;
		ft->bit = first || (ft->bit == a->bit && !a->several_bits) ? (a->several_bits ? -1 : a->bit) : -1;
		ft->device = first || ft->device == a->device ? (a->device < 0 ? -1 : a->device) : -1;
		ft->errors += a->count;
		if (first || a->first_ns < ft->first_ns)
			ft->first_ns = a->first_ns;
		if (first || a->last_ns > ft->last_ns)
			ft->last_ns = a->last_ns;
	}
	ft->cells = (uint16_t)k;
	distinct(cell, idx, k, n);
	ft->ranks = n[P_RANK];
	ft->banks = n[P_BANK];
	ft->rows = n[P_ROW];
	ft->columns = n[P_COLUMN];
	ft->permanent = ft->last_ns - ft->first_ns >= gap;
}

/* How wide a mode is: a lane's errors lie in every bank, but of one bit (after single-bank). */
static unsigned width(uint32_t mode)
{
	return mode == DIAG_M_LANE ? 2 * DIAG_M_BANK + 1 : 2 * mode;
}

/* Worst first: the widest mode, permanent before transient, more errors, then by place. */
bool diag_fault_worse(const struct diag_fault *a, const struct diag_fault *b)
{
	if (a->mode != b->mode)
		return width(a->mode) > width(b->mode);
	if (a->permanent != b->permanent)
		return a->permanent > b->permanent;
	if (a->errors != b->errors)
		return a->errors > b->errors;
	if (a->rank != b->rank)
		return a->rank < b->rank;
	if (a->bank != b->bank)
		return a->bank < b->bank;
	/* Two faults differ in their place: with the bank group, no two tie. */
	if (a->bank_group != b->bank_group)
		return a->bank_group < b->bank_group;
	if (a->row != b->row)
		return a->row < b->row;
	return a->column < b->column;
}

/* Keeps the worst DIAG_FAULTS, in order, and tells each cell where its fault went. */
static void keep_worst(struct diag_cells *c, struct work *w)
{
	uint8_t order[DIAG_CELLS], where[DIAG_CELLS];

	for (unsigned f = 0; f < w->n_faults; f++)
		order[f] = (uint8_t)f;
	/* Insertion sort: at most DIAG_CELLS faults. */
	for (unsigned i = 1; i < w->n_faults; i++)
		for (unsigned j = i;
		     j > 0 && diag_fault_worse(&w->faults[order[j]], &w->faults[order[j - 1]]); j--) {
			uint8_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	memset(where, NO_FAULT, sizeof(where));
	c->n_faults = w->n_faults < DIAG_FAULTS ? w->n_faults : DIAG_FAULTS;
	c->faults_more = w->n_faults - c->n_faults;
	for (unsigned k = 0; k < c->n_faults; k++) {
		c->fault[k] = w->faults[order[k]];
		where[order[k]] = (uint8_t)k;
	}
	for (unsigned i = 0; i < w->n; i++)
		c->cell[i].fault = w->fault_of[i] >= 0 ? where[w->fault_of[i]] : NO_FAULT;
}

void diag_cells_classify(struct diag_cells *c, unsigned wide_cells, int64_t permanent_after_ns)
{
	struct work w;
	uint8_t rank[DIAG_CELLS], bank[DIAG_CELLS];
	unsigned wide = wide_cells < 2 ? 2 : wide_cells;

	memset(&w, 0, sizeof(w));
	w.c = c;
	w.n = c->n;
	for (unsigned i = 0; i < DIAG_CELLS; i++)
		w.fault_of[i] = -1;
	find_lines(&w);
	find_lane(&w, wide);
	pool_counts(&w, rank, bank);
	if (!find_multi_rank(&w, wide, rank)) {
		find_multi_bank(&w, wide, rank, bank);
		pool_counts(&w, rank, bank);
		find_single_bank(&w, wide, bank);
	}
	find_narrow(&w);
	for (unsigned f = 0; f < w.n_faults; f++)
		summarize(&w, f, permanent_after_ns);
	keep_worst(c, &w);
	c->dirty = 0;
}

void diag_cells_touched_since(const struct diag_cells *c, unsigned from, unsigned *rows,
			      unsigned *banks, unsigned *ranks)
{
	for (unsigned i = from; i < c->n; i++) {
		const struct diag_cell *a = &c->cell[i];
		bool row = a->row >= 0, bank = a->bank >= 0, rank = a->rank >= 0;

		for (unsigned j = 0; j < i && (row || bank || rank); j++) {
			const struct diag_cell *b = &c->cell[j];

			row = row && !same_row(a, b);
			bank = bank && !same_bank(a, b);
			rank = rank && a->rank != b->rank;
		}
		*rows += row;
		*banks += bank;
		*ranks += rank;
	}
}
