/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cells.h"

#define NO_FAULT 0xff

void diag_cells_init(struct diag_cells *c)
{
	memset(c, 0, sizeof(*c));
}

/* A coordinate as a cell keeps it: -1 when not known or past what a DRAM has. */
static int32_t coord(int64_t v)
{
	return v == RAS_DF_NONE || v < 0 || v > INT32_MAX ? -1 : (int32_t)v;
}

static bool same_place(const struct diag_cell *a, const struct diag_cell *b)
{
	return a->rank == b->rank && a->bank_group == b->bank_group && a->bank == b->bank &&
	       a->row == b->row && a->column == b->column;
}

static bool same_bank(const struct diag_cell *a, const struct diag_cell *b)
{
	return a->rank == b->rank && a->bank_group == b->bank_group && a->bank == b->bank;
}

/* Rank, bank, row and column known: a cell a fault mode can be told from. */
static bool full(const struct diag_cell *a)
{
	return a->rank >= 0 && a->bank >= 0 && a->row >= 0 && a->column >= 0;
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

/* The first kept cell of a's row (column: false) when that line already holds DIAG_LINE_CAP cells. */
static int saturated_line(const struct diag_cells *c, const struct diag_cell *a, bool row)
{
	int first = -1;
	unsigned n = 0;

	if (!full(a))
		return -1;
	for (unsigned i = 0; i < c->n; i++) {
		const struct diag_cell *b = &c->cell[i];

		if (!full(b) || !same_bank(a, b) || (row ? b->row != a->row : b->column != a->column))
			continue;
		if (first < 0)
			first = (int)i;
		n++;
	}
	return n >= DIAG_LINE_CAP ? first : -1;
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

void diag_cells_add(struct diag_cells *c, const struct diag_obs *o, int64_t permanent_after_ns)
{
	struct diag_cell a;
	unsigned slot;
	int i;

	from_obs(o, &a);
	if (a.rank >= 0)
		c->rank_map |= 1ULL << (a.rank % 64);
	if (a.bank >= 0)
		c->bank_map |= 1ULL << (((a.bank_group >= 0 ? a.bank_group : 0) * 8 + a.bank) % 64);
	i = lookup(c, &a, &slot);
	if (i < 0)
		i = saturated_line(c, &a, true);
	if (i < 0)
		i = saturated_line(c, &a, false);
	if (i >= 0) {
		struct diag_cell *cell = &c->cell[i];

		if (turns_permanent(c, cell, o->wall_ns, permanent_after_ns))
			c->dirty = 1;
		cell->line |= !same_place(cell, &a);
		note_error(cell, o, &a);
		return;
	}
	if (c->n >= DIAG_CELLS || slot >= DIAG_INDEX) {
		c->beyond += o->n > 0 ? o->n : 1;
		return;
	}
	a.count = o->n > 0 && o->n < UINT32_MAX ? (uint32_t)o->n : 1;
	c->cell[c->n] = a;
	c->index[slot] = (uint8_t)(c->n + 1);
	c->n++;
	c->dirty = 1;
}

/* ---- classification ---------------------------------------------------- */

enum role { LONE, ROW_LINE, COLUMN_LINE };

struct work {
	const struct diag_cells *c;
	uint8_t role[DIAG_CELLS];
	uint8_t strong[DIAG_CELLS];
	int16_t fault_of[DIAG_CELLS];   /* index into faults, -1 none yet */
	struct diag_fault faults[DIAG_CELLS];
	unsigned n_faults;
};

static bool same_line(const struct diag_cell *a, const struct diag_cell *b, enum role r)
{
	return full(a) && full(b) && same_bank(a, b) &&
	       (r == ROW_LINE ? a->row == b->row : a->column == b->column);
}

/* How many cells share i's row (or column), i included; cells already given a role only when of role r. */
static unsigned line_len(const struct work *w, unsigned i, enum role r, bool assigned)
{
	const struct diag_cells *c = w->c;
	unsigned n = 0;

	for (unsigned j = 0; j < c->n; j++)
		if (same_line(&c->cell[i], &c->cell[j], r) && (!assigned || w->role[j] == r))
			n++;
	return n;
}

/* Each full cell goes to its longer line (a row on a tie); a line left with one cell is none. */
static void find_lines(struct work *w)
{
	const struct diag_cells *c = w->c;

	for (unsigned i = 0; i < c->n; i++) {
		unsigned rows = full(&c->cell[i]) ? line_len(w, i, ROW_LINE, false) : 0;
		unsigned cols = full(&c->cell[i]) ? line_len(w, i, COLUMN_LINE, false) : 0;

		w->role[i] = rows >= 2 && rows >= cols ? ROW_LINE : cols >= 2 ? COLUMN_LINE : LONE;
	}
	for (unsigned i = 0; i < c->n; i++) {
		unsigned len = w->role[i] == LONE ? 0 : line_len(w, i, (enum role)w->role[i], true);

		if (w->role[i] != LONE && len < 2)
			w->role[i] = LONE;
	}
	for (unsigned i = 0; i < c->n; i++)
		w->strong[i] = w->role[i] != LONE &&
			       line_len(w, i, (enum role)w->role[i], true) >= DIAG_STRONG_LINE;
}

/* Cells in the pool of a wide fault: full, not yet in a fault, not on a strong line. */
static bool pooled(const struct work *w, unsigned i)
{
	return full(&w->c->cell[i]) && !w->strong[i] && w->fault_of[i] < 0;
}

/* Opens a fault of mode m holding every pooled cell that sel accepts (key: a cell to compare with). */
typedef bool (*cell_sel)(const struct diag_cell *a, const struct diag_cell *key);

static void take_cells(struct work *w, enum diag_mode m, cell_sel sel, const struct diag_cell *key,
		       bool pool_only)
{
	unsigned f = w->n_faults++;

	memset(&w->faults[f], 0, sizeof(w->faults[f]));
	w->faults[f].mode = m;
	for (unsigned i = 0; i < w->c->n; i++)
		if ((pool_only ? pooled(w, i) : w->fault_of[i] < 0) && sel(&w->c->cell[i], key))
			w->fault_of[i] = (int16_t)f;
}

static bool sel_any(const struct diag_cell *a, const struct diag_cell *key)
{
	(void)a;
	(void)key;
	return true;
}

static bool sel_rank(const struct diag_cell *a, const struct diag_cell *key)
{
	return a->rank == key->rank;
}

static bool sel_bank(const struct diag_cell *a, const struct diag_cell *key)
{
	return same_bank(a, key);
}

static bool sel_same(const struct diag_cell *a, const struct diag_cell *key)
{
	return a == key;
}

/* Pooled cells sel accepts, and how many of them the busiest group (by grp) holds. */
static unsigned pool_count(const struct work *w, cell_sel sel, const struct diag_cell *key,
			   cell_sel grp, unsigned *busiest)
{
	unsigned n = 0;

	*busiest = 0;
	for (unsigned i = 0; i < w->c->n; i++) {
		unsigned same = 0;

		if (!pooled(w, i) || !sel(&w->c->cell[i], key))
			continue;
		n++;
		for (unsigned j = 0; j < w->c->n; j++)
			same += pooled(w, j) && sel(&w->c->cell[j], key) &&
				grp(&w->c->cell[j], &w->c->cell[i]);
		if (same > *busiest)
			*busiest = same;
	}
	return n;
}

/* The wide faults: multi-rank, else multi-bank per rank, else single-bank per bank. */
static void find_wide(struct work *w, unsigned wide)
{
	const struct diag_cells *c = w->c;
	unsigned busiest, n = pool_count(w, sel_any, NULL, sel_rank, &busiest);

	if (n >= wide && n - busiest >= 2) {
		take_cells(w, DIAG_M_MULTI_RANK, sel_any, NULL, true);
		return;
	}
	for (unsigned i = 0; i < c->n; i++) {
		if (!pooled(w, i))
			continue;
		n = pool_count(w, sel_rank, &c->cell[i], sel_bank, &busiest);
		if (n >= wide && n - busiest >= 2)
			take_cells(w, DIAG_M_MULTI_BANK, sel_rank, &c->cell[i], true);
	}
	for (unsigned i = 0; i < c->n; i++) {
		if (!pooled(w, i))
			continue;
		n = pool_count(w, sel_bank, &c->cell[i], sel_bank, &busiest);
		if (n >= wide)
			take_cells(w, DIAG_M_BANK, sel_bank, &c->cell[i], true);
	}
}

static bool sel_row(const struct diag_cell *a, const struct diag_cell *key)
{
	return same_line(a, key, ROW_LINE);
}

static bool sel_column(const struct diag_cell *a, const struct diag_cell *key)
{
	return same_line(a, key, COLUMN_LINE);
}

/* Lines become row and column faults; lone cells single-bit or -word faults, or "none". */
static void find_narrow(struct work *w)
{
	const struct diag_cells *c = w->c;

	for (unsigned i = 0; i < c->n; i++) {
		const struct diag_cell *a = &c->cell[i];

		if (w->fault_of[i] >= 0)
			continue;
		if (w->role[i] == ROW_LINE)
			take_cells(w, DIAG_M_ROW, sel_row, a, false);
		else if (w->role[i] == COLUMN_LINE)
			take_cells(w, DIAG_M_COLUMN, sel_column, a, false);
		else
			take_cells(w, !full(a) ? DIAG_M_NONE : a->several_bits ? DIAG_M_WORD : DIAG_M_BIT,
				   sel_same, a, false);
	}
}

/* Distinct values among the fault's cells of one member, by comparing with each earlier one. */
static uint16_t distinct(const struct work *w, unsigned f, bool (*same)(const struct diag_cell *,
									  const struct diag_cell *))
{
	unsigned n = 0;

	for (unsigned i = 0; i < w->c->n; i++) {
		bool seen = false;

		if (w->fault_of[i] != (int)f)
			continue;
		for (unsigned j = 0; j < i && !seen; j++)
			seen = w->fault_of[j] == (int)f && same(&w->c->cell[i], &w->c->cell[j]);
		n += !seen;
	}
	return (uint16_t)n;
}

static bool same_rank_only(const struct diag_cell *a, const struct diag_cell *b)
{
	return a->rank == b->rank;
}

static bool same_row(const struct diag_cell *a, const struct diag_cell *b)
{
	return same_bank(a, b) && a->row == b->row;
}

static bool same_column(const struct diag_cell *a, const struct diag_cell *b)
{
	return same_bank(a, b) && a->column == b->column;
}

static int32_t shared(int32_t have, int32_t v, bool first)
{
	return first || have == v ? v : -1;
}

/* A fault's counts, times and shared coordinates, from its cells. */
static void summarize(struct work *w, unsigned f, int64_t gap)
{
	struct diag_fault *ft = &w->faults[f];
	bool first = true;

	for (unsigned i = 0; i < w->c->n; i++) {
		const struct diag_cell *a = &w->c->cell[i];

		if (w->fault_of[i] != (int)f)
			continue;
		ft->rank = shared(ft->rank, a->rank, first);
		ft->bank_group = shared(ft->bank_group, a->bank_group, first);
		ft->bank = first || (ft->bank == a->bank && ft->bank_group == a->bank_group) ? a->bank : -1;
		ft->row = first || (ft->row == a->row && ft->bank == a->bank) ? a->row : -1;
		ft->column = first || (ft->column == a->column && ft->bank == a->bank) ? a->column : -1;
		ft->errors += a->count;
		if (first || a->first_ns < ft->first_ns)
			ft->first_ns = a->first_ns;
		if (first || a->last_ns > ft->last_ns)
			ft->last_ns = a->last_ns;
		ft->cells++;
		first = false;
	}
	ft->ranks = distinct(w, f, same_rank_only);
	ft->banks = distinct(w, f, same_bank);
	ft->rows = distinct(w, f, same_row);
	ft->columns = distinct(w, f, same_column);
	ft->permanent = ft->last_ns - ft->first_ns >= gap;
}

/* Worst first: the widest mode, permanent before transient, more errors, then by place. */
static bool worse(const struct diag_fault *a, const struct diag_fault *b)
{
	if (a->mode != b->mode)
		return a->mode > b->mode;
	if (a->permanent != b->permanent)
		return a->permanent > b->permanent;
	if (a->errors != b->errors)
		return a->errors > b->errors;
	if (a->rank != b->rank)
		return a->rank < b->rank;
	if (a->bank != b->bank)
		return a->bank < b->bank;
	if (a->row != b->row)
		return a->row < b->row;
	return a->column < b->column;
}

void diag_cells_classify(struct diag_cells *c, unsigned wide_cells, int64_t permanent_after_ns)
{
	struct work w;
	unsigned order[DIAG_CELLS];

	memset(&w, 0, sizeof(w));
	w.c = c;
	for (unsigned i = 0; i < DIAG_CELLS; i++)
		w.fault_of[i] = -1;
	find_lines(&w);
	find_wide(&w, wide_cells < 2 ? 2 : wide_cells);
	find_narrow(&w);
	for (unsigned f = 0; f < w.n_faults; f++) {
		summarize(&w, f, permanent_after_ns);
		order[f] = f;
	}
	/* Insertion sort: at most DIAG_CELLS faults, classified only when a cell comes. */
	for (unsigned i = 1; i < w.n_faults; i++)
		for (unsigned j = i; j > 0 && worse(&w.faults[order[j]], &w.faults[order[j - 1]]); j--) {
			unsigned t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	c->n_faults = w.n_faults < DIAG_FAULTS ? w.n_faults : DIAG_FAULTS;
	c->faults_more = w.n_faults - c->n_faults;
	for (unsigned k = 0; k < c->n_faults; k++)
		c->fault[k] = w.faults[order[k]];
	for (unsigned i = 0; i < c->n; i++) {
		c->cell[i].fault = NO_FAULT;
		for (unsigned k = 0; k < c->n_faults; k++)
			if (w.fault_of[i] == (int)order[k])
				c->cell[i].fault = (uint8_t)k;
	}
	c->dirty = 0;
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
	put(buf, len, &at, ": %lld error%s", (long long)f->errors, f->errors == 1 ? "" : "s");
	if (f->cells > 1)
		put(buf, len, &at, " at %u cells", (unsigned)f->cells);
	if (f->mode == DIAG_M_MULTI_RANK)
		put(buf, len, &at, " in %u ranks", (unsigned)f->ranks);
	if (f->mode >= DIAG_M_MULTI_BANK)
		put(buf, len, &at, ", %u banks", (unsigned)f->banks);
	if (f->mode == DIAG_M_BANK || f->mode == DIAG_M_COLUMN)
		put(buf, len, &at, ", %u rows", (unsigned)f->rows);
	if (f->mode == DIAG_M_BANK || f->mode == DIAG_M_ROW)
		put(buf, len, &at, ", %u columns", (unsigned)f->columns);
	if (at >= len)
		buf[len - 1] = '\0';
}
