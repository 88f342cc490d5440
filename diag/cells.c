/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cells_internal.h"

void diag_cells_init(struct diag_cells *c)
{
	memset(c, 0, sizeof(*c));
}

/* A coordinate as a cell keeps it: -1 when not known or past what a DRAM has. */
static int32_t coord(int64_t v)
{
	return v == RAS_DF_NONE || v < 0 || v > INT32_MAX ? -1 : (int32_t)v;
}

static unsigned place_hash(const struct diag_cell *a)
{
	uint64_t h = (uint64_t)(uint32_t)a->rank * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)(uint32_t)a->bank_group * 0xbf58476d1ce4e5b9ULL;
	h ^= (uint64_t)(uint32_t)a->bank * 0x94d049bb133111ebULL;
	h ^= (uint64_t)(uint32_t)a->row * 0x2545f4914f6cdd1dULL;
	h ^= (uint64_t)(uint32_t)a->column * 0xd6e8feb86659fd93ULL;
	return (unsigned)(h >> 57) % DIAG_INDEX;
}

/* The kept cell at a's place (its number), or -1 with *slot the free index slot. */
static int lookup(const struct diag_cells *c, const struct diag_cell *a, unsigned *slot)
{
	unsigned i = place_hash(a);

	for (unsigned n = 0; n < DIAG_INDEX; n++, i = (i + 1) % DIAG_INDEX) {
		if (!c->index[i]) {
			*slot = i;
			return -1;
		}
		if (same_place(&c->cell[c->index[i] - 1], a))
			return c->index[i] - 1;
	}
	*slot = DIAG_INDEX;
	return -1;
}

/* The cell taking a's further errors when a lies on a row (or column) already full of cells; -1 none. */
static int saturated_line(const struct diag_cells *c, const struct diag_cell *a)
{
	if (a->row < 0 || a->column < 0)
		return -1;
	for (unsigned i = 0; i < c->n_lines; i++) {
		const struct diag_line *l = &c->line[i];

		if (l->rank == a->rank && l->bank_group == a->bank_group && l->bank == a->bank &&
		    l->value == (l->row ? a->row : a->column))
			return l->cell;
	}
	return -1;
}

/* A new cell at number i: when its row or column now holds DIAG_LINE_CAP cells, that line is full. */
static void note_lines(struct diag_cells *c, unsigned i)
{
	const struct diag_cell *a = &c->cell[i];
	unsigned rows = 0, cols = 0;
	int first_row = -1, first_col = -1;

	if (!full(a))
		return;
	for (unsigned j = 0; j < c->n; j++) {
		const struct diag_cell *b = &c->cell[j];

		if (!full(b) || !same_bank(a, b))
			continue;
		if (b->row == a->row && rows++ == 0)
			first_row = (int)j;
		if (b->column == a->column && cols++ == 0)
			first_col = (int)j;
	}
	if (rows == DIAG_LINE_CAP && c->n_lines < DIAG_LINES)
		c->line[c->n_lines++] = (struct diag_line){ a->rank, a->bank_group, a->bank, a->row, 1,
							    (uint8_t)first_row, { 0, 0 } };
	if (cols == DIAG_LINE_CAP && c->n_lines < DIAG_LINES)
		c->line[c->n_lines++] = (struct diag_line){ a->rank, a->bank_group, a->bank, a->column, 0,
							    (uint8_t)first_col, { 0, 0 } };
}

/* Whether the cell's fault (or the cell, unclassified) now spans permanent_after_ns. */
static bool turns_permanent(const struct diag_cells *c, const struct diag_cell *cell, int64_t t,
			    int64_t gap)
{
	int64_t first = cell->first_ns, last = cell->last_ns;

	if (cell->fault != NO_FAULT && cell->fault < c->n_faults) {
		const struct diag_fault *f = &c->fault[cell->fault];

		if (f->permanent)
			return false;
		first = f->first_ns;
		last = f->last_ns;
	}
	if (t < first)
		first = t;
	if (t > last)
		last = t;
	return last - first >= gap;
}

static void note_error(struct diag_cell *cell, const struct diag_obs *o, const struct diag_cell *a)
{
	int64_t n = o->n > 0 ? o->n : 1;

	cell->count = cell->count + (uint64_t)n > UINT32_MAX ? UINT32_MAX : cell->count + (uint32_t)n;
	if (o->wall_ns < cell->first_ns)
		cell->first_ns = o->wall_ns;
	if (o->wall_ns > cell->last_ns)
		cell->last_ns = o->wall_ns;
	if (a->bit >= 0 && cell->bit >= 0 && a->bit != cell->bit)
		cell->several_bits = 1;
	if (cell->bit < 0)
		cell->bit = a->bit;
	if (a->several_bits)
		cell->several_bits = 1;
	if (a->device != cell->device)
		cell->device = cell->device == -1 ? a->device : -2;
}

static void from_obs(const struct diag_obs *o, struct diag_cell *a)
{
	const struct diag_dram *d = &o->dram;

	memset(a, 0, sizeof(*a));
	a->rank = coord(d->rank);
	a->bank_group = coord(d->bank_group);
	a->bank = coord(d->bank);
	a->row = coord(d->row);
	a->column = coord(d->column);
	a->bit = d->bit != RAS_DF_NONE && d->bit >= 0 && d->bit < INT16_MAX ? (int16_t)d->bit : -1;
	a->several_bits = d->bits != RAS_DF_NONE && d->bits >= 2;
	a->device = d->device != RAS_DF_NONE && d->device >= 0 && d->device < INT16_MAX ? (int16_t)d->device : -1;
	a->fault = NO_FAULT;
	a->first_ns = a->last_ns = o->wall_ns;
}

/*
 * More errors at a kept cell whose grouping they cannot change: its fault's
 * errors and times as classifying again would count them, and the fault moved
 * up to where sorting again would put it (only its errors grew). A cell of a
 * fault past the kept ones (NO_FAULT) may now outweigh a kept one: classified
 * again. False when the faults did not change here.
 */
static bool recount(struct diag_cells *c, const struct diag_cell *cell, const struct diag_cell *was)
{
	unsigned k = cell->fault;
	struct diag_fault *f;

	if (k >= c->n_faults) {
		c->dirty = 1;
		return false;
	}
	f = &c->fault[k];
	f->errors += (int64_t)cell->count - was->count;
	if (cell->first_ns < f->first_ns)
		f->first_ns = cell->first_ns;
	if (cell->last_ns > f->last_ns)
		f->last_ns = cell->last_ns;
	for (; k > 0 && diag_fault_worse(&c->fault[k], &c->fault[k - 1]); k--) {
		struct diag_fault t = c->fault[k];

		c->fault[k] = c->fault[k - 1];
		c->fault[k - 1] = t;
		for (unsigned i = 0; i < c->n; i++)
			if (c->cell[i].fault == k || c->cell[i].fault == k - 1)
				c->cell[i].fault = (uint8_t)(c->cell[i].fault == k ? k - 1 : k);
	}
	return true;
}

/* An error at kept cell i: dirty when its fault's mode or permanence may change, else recounted. */
static bool add_to_cell(struct diag_cells *c, unsigned i, const struct diag_obs *o,
			const struct diag_cell *a, int64_t permanent_after_ns)
{
	struct diag_cell *cell = &c->cell[i];
	struct diag_cell was = *cell;

	if (turns_permanent(c, cell, o->wall_ns, permanent_after_ns))
		c->dirty = 1;
	cell->line |= !same_place(cell, a);
	note_error(cell, o, a);
	/* Its bit, bits and device are what a lane and a word are told by. */
	if (cell->bit != was.bit || cell->several_bits != was.several_bits || cell->device != was.device)
		c->dirty = 1;
	return !c->dirty && recount(c, cell, &was);
}

bool diag_cells_add(struct diag_cells *c, const struct diag_obs *o, int64_t permanent_after_ns)
{
	struct diag_cell a;
	unsigned slot;
	int i;

	from_obs(o, &a);
	if (a.rank >= 0)
		c->rank_map |= 1ULL << (a.rank % 64);
	if (a.bank >= 0)
		/* Unsigned: a decoder's bank group may be any int (a fuzzed 888,309,016 overflowed int). */
		c->bank_map |= 1ULL << (((uint64_t)(a.bank_group >= 0 ? a.bank_group : 0) * 8 +
					 (uint64_t)a.bank) % 64);
	i = lookup(c, &a, &slot);
	if (i < 0)
		i = saturated_line(c, &a);
	if (i >= 0)
		return add_to_cell(c, (unsigned)i, o, &a, permanent_after_ns);
	if (c->n >= DIAG_CELLS || slot >= DIAG_INDEX) {
		c->beyond += o->n > 0 ? o->n : 1;
		return false;
	}
	a.count = o->n > 0 && o->n < UINT32_MAX ? (uint32_t)o->n : 1;
	c->cell[c->n] = a;
	c->index[slot] = (uint8_t)(c->n + 1);
	c->n++;
	note_lines(c, c->n - 1);
	c->dirty = 1;
	return false;
}

const struct diag_fault *diag_cells_worst(const struct diag_cells *c)
{
	return c->n_faults ? &c->fault[0] : NULL;
}

void diag_cells_touched(const struct diag_cells *c, unsigned *rows, unsigned *banks, unsigned *ranks)
{
	*rows = *banks = *ranks = 0;
	for (unsigned i = 0; i < c->n; i++) {
		const struct diag_cell *a = &c->cell[i];
		bool row = a->row >= 0, bank = a->bank >= 0, rank = a->rank >= 0;

		for (unsigned j = 0; j < i; j++) {
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

static void __attribute__((format(printf, 4, 5)))
put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += (size_t)n;
}

void diag_fault_describe(const struct diag_fault *f, char *buf, size_t len)
{
	size_t at = 0;

	if (!len)
		return;
	buf[0] = '\0';
	put(buf, len, &at, "%s %s fault", f->permanent ? "permanent" : "transient",
	    diag_mode_name((enum diag_mode)f->mode));
	if (f->rank >= 0)
		put(buf, len, &at, " at rank %d", f->rank);
	if (f->bank_group >= 0 && f->bank >= 0)
		put(buf, len, &at, ", bank group %d", f->bank_group);
	if (f->bank >= 0)
		put(buf, len, &at, ", bank %d", f->bank);
	if (f->row >= 0)
		put(buf, len, &at, ", row 0x%x", (unsigned)f->row);
	if (f->column >= 0)
		put(buf, len, &at, ", column 0x%x", (unsigned)f->column);
	if (f->mode == DIAG_M_LANE && f->bit >= 0)
		put(buf, len, &at, "%sbit %d", f->rank >= 0 ? ", " : " on ", f->bit);
	if (f->mode == DIAG_M_LANE && f->device >= 0)
		put(buf, len, &at, " of device %d", f->device);
	put(buf, len, &at, ": %lld error%s", (long long)f->errors, f->errors == 1 ? "" : "s");
	if (f->cells > 1)
		put(buf, len, &at, " at %u cells", (unsigned)f->cells);
	if (f->mode == DIAG_M_MULTI_RANK || (f->mode == DIAG_M_LANE && f->ranks > 1))
		put(buf, len, &at, " in %u ranks", (unsigned)f->ranks);
	if (f->mode >= DIAG_M_MULTI_BANK)
		put(buf, len, &at, ", %u banks", (unsigned)f->banks);
	if (f->mode == DIAG_M_BANK || f->mode == DIAG_M_COLUMN || f->mode == DIAG_M_LANE)
		put(buf, len, &at, ", %u rows", (unsigned)f->rows);
	if (f->mode == DIAG_M_BANK || f->mode == DIAG_M_ROW || f->mode == DIAG_M_LANE)
		put(buf, len, &at, ", %u columns", (unsigned)f->columns);
	if (at >= len)
		buf[len - 1] = '\0';
}
