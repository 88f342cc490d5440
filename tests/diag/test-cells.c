/* SPDX-License-Identifier: MIT */
/*
 * The fault-mode classifier and the verdict rules on hand-made observations:
 * every mode, permanent and transient, two faults on one part, the bounds,
 * the rules of the other kinds of part, and the state kept across restarts.
 */
#include <limits.h>
#include <string.h>
#include "diag/cells.h"
#include "diag/rules.h"
#include "diag/state.h"
#include "tests/rng.h"
#include "tests/tap.h"

#define HOUR (3600LL * 1000000000)
#define T0 (1800000000LL * 1000000000)

static uint64_t seed = 0x9e3779b97f4a7c15ULL;

static unsigned rnd(unsigned n)
{
	return (unsigned)(rng_next_star(&seed) >> 33) % n;
}

struct fixture {
	struct diag_rules rules;
	struct diag_part part;
	struct diag_cells cells;
};

static void start(struct fixture *f)
{
	diag_rules_defaults(&f->rules);
	diag_part_init(&f->part, DIAG_K_DIMM);
	diag_cells_init(&f->cells);
}

/* One corrected error at the place at time t (bit -1: not reported). */
static void error_at(struct fixture *f, int rank, int bg, int bank, int row, int col, int bit, int64_t t)
{
	struct diag_obs o = { .wall_ns = t, .n = 1, .sev = RAS_SEV_CORRECTED, .flags = DIAG_OBS_COORDS };

	diag_dram_clear(&o.dram);
	o.dram.rank = rank;
	o.dram.bank_group = bg;
	o.dram.bank = bank;
	o.dram.row = row;
	o.dram.column = col;
	o.dram.bit = bit < 0 ? RAS_DF_NONE : bit;
	diag_part_count(&f->part, &o);
	diag_rules_observe(&f->rules, &f->part, &o);
	diag_cells_add(&f->cells, &o, f->rules.permanent_after_ns);
}

static void judge(struct fixture *f, struct diag_judgement *j)
{
	if (f->cells.dirty)
		diag_cells_classify(&f->cells, f->rules.wide_cells, f->rules.permanent_after_ns);
	diag_judge(&f->rules, &f->part, &f->cells, j);
}

/* Checks the part's faults: modes and permanence, worst first. */
static void expect(struct fixture *f, const char *what, enum diag_verdict v, const char *rule,
		   unsigned n, const enum diag_mode *modes, const bool *perm)
{
	struct diag_judgement j;
	bool ok;

	judge(f, &j);
	ok = f->cells.n_faults == n;
	for (unsigned i = 0; ok && i < n; i++)
		ok = f->cells.fault[i].mode == modes[i] && (bool)f->cells.fault[i].permanent == perm[i];
	if (!tap_ok(ok, "%s: %u fault(s) as expected", what, n))
		for (unsigned i = 0; i < f->cells.n_faults; i++) {
			char text[200];

			diag_fault_describe(&f->cells.fault[i], text, sizeof(text));
			tap_diag("fault %u: %s", i, text);
		}
	tap_is_str(diag_verdict_name(j.verdict), diag_verdict_name(v), "%s: verdict", what);
	tap_is_str(diag_rule_info(j.rule)->name, rule, "%s: rule (%s)", what, j.why);
}

#define MODES(...) (const enum diag_mode[]){ __VA_ARGS__ }
#define PERM(...) (const bool[]){ __VA_ARGS__ }

static void single_cells(void)
{
	struct fixture f;

	start(&f);
	error_at(&f, 0, 1, 2, 0x100, 0x40, -1, T0);
	expect(&f, "one error", DIAG_OK, "mem-cell", 1, MODES(DIAG_M_BIT), PERM(false));
	error_at(&f, 0, 1, 2, 0x100, 0x40, -1, T0 + HOUR);
	expect(&f, "the same cell an hour later", DIAG_OK, "mem-cell", 1, MODES(DIAG_M_BIT), PERM(false));
	tap_ok(!f.cells.dirty, "classified: clean");
	error_at(&f, 0, 1, 2, 0x100, 0x40, -1, T0 + 25 * HOUR);
	tap_ok(f.cells.dirty, "the cell again a day later: classification due");
	expect(&f, "a day later", DIAG_OK, "mem-cell", 1, MODES(DIAG_M_BIT), PERM(true));

	start(&f);
	error_at(&f, 1, 0, 3, 0x200, 0x80, 3, T0);
	error_at(&f, 1, 0, 3, 0x200, 0x80, 9, T0 + 30 * HOUR);
	expect(&f, "two bits of one word", DIAG_OK, "mem-cell", 1, MODES(DIAG_M_WORD), PERM(true));
	f.rules.r[DIAG_R_MEM_CELL].verdict = DIAG_WATCH;
	expect(&f, "mem-cell configured watch", DIAG_WATCH, "mem-cell", 1, MODES(DIAG_M_WORD), PERM(true));
}

static void lines(void)
{
	struct fixture f;

	start(&f);
	for (int i = 0; i < 40; i++)
		error_at(&f, 1, 2, 3, 0x1a2b, (int)rnd(128) * 8, -1, T0 + i * 2 * HOUR);
	expect(&f, "a row over three days", DIAG_WATCH, "mem-row-column", 1, MODES(DIAG_M_ROW), PERM(true));
	tap_ok(f.cells.n <= DIAG_LINE_CAP, "a row keeps at most %u cells (%u)", DIAG_LINE_CAP, f.cells.n);
	tap_is_int(f.cells.fault[0].errors, 40, "every error counted in the row's fault");
	tap_is_int(f.cells.fault[0].row, 0x1a2b, "the row");

	start(&f);
	for (int i = 0; i < 30; i++)
		error_at(&f, 0, 0, 1, (int)rnd(65536), 0x3f8, -1, T0 + i * HOUR);
	expect(&f, "a column over thirty hours", DIAG_WATCH, "mem-row-column", 1, MODES(DIAG_M_COLUMN),
	       PERM(true));

	start(&f);
	for (int i = 0; i < 30; i++)
		error_at(&f, 0, 0, 1, 0x77, (int)rnd(128) * 8, -1, T0 + i * 60000000000LL);
	expect(&f, "a row within half an hour", DIAG_WATCH, "mem-transient", 1, MODES(DIAG_M_ROW),
	       PERM(false));

	start(&f);
	error_at(&f, 0, 0, 1, 0x77, 0x10, -1, T0);
	error_at(&f, 0, 0, 1, 0x77, 0x18, -1, T0 + 30 * HOUR);
	expect(&f, "two cells of a row", DIAG_WATCH, "mem-row-column", 1, MODES(DIAG_M_ROW), PERM(true));
}

static void wide(void)
{
	struct fixture f;

	start(&f);
	for (int i = 0; i < 24; i++)
		error_at(&f, 1, 2, 1, (int)rnd(65536), (int)rnd(128) * 8, -1, T0 + i * 3 * HOUR);
	expect(&f, "a bank", DIAG_REPLACE, "mem-single-bank", 1, MODES(DIAG_M_BANK), PERM(true));

	start(&f);
	for (int i = 0; i < 30; i++)
		error_at(&f, 1, (int)rnd(4), (int)rnd(4), (int)rnd(65536), (int)rnd(128) * 8, -1,
			 T0 + i * 2 * HOUR);
	expect(&f, "banks of one rank", DIAG_REPLACE, "mem-multi-bank", 1, MODES(DIAG_M_MULTI_BANK),
	       PERM(true));

	start(&f);
	for (int i = 0; i < 40; i++)
		error_at(&f, (int)rnd(4), (int)rnd(4), (int)rnd(4), (int)rnd(65536), (int)rnd(128) * 8, -1,
			 T0 + i * HOUR);
	expect(&f, "ranks", DIAG_REPLACE, "mem-multi-rank", 1, MODES(DIAG_M_MULTI_RANK), PERM(true));
	tap_ok(f.cells.fault[0].ranks >= 2, "in %u ranks", f.cells.fault[0].ranks);

	/* Scattered cells that share a column by chance stay in the bank's fault. */
	start(&f);
	for (int i = 0; i < 20; i++)
		error_at(&f, 0, 1, 1, 0x1000 + i * 37, 0x100 + i * 8, -1, T0 + i * 2 * HOUR);
	error_at(&f, 0, 1, 1, 0x9999, 0x100, -1, T0 + 41 * HOUR);
	error_at(&f, 0, 1, 1, 0x8888, 0x108, -1, T0 + 42 * HOUR);
	expect(&f, "a bank whose cells share two columns by chance", DIAG_REPLACE, "mem-single-bank", 1,
	       MODES(DIAG_M_BANK), PERM(true));
}

/* One data pin (DQ): the same bit at any bank, row and column (classify.c's find_lane). */
static void lanes(void)
{
	struct fixture f;
	char text[200];

	start(&f);
	for (int i = 0; i < 24; i++)
		error_at(&f, 1, (int)rnd(4), (int)rnd(4), (int)rnd(65536), (int)rnd(128) * 8, 19,
			 T0 + i * 3 * HOUR);
	expect(&f, "bit 19 across banks, rows and columns", DIAG_REPLACE, "mem-single-lane", 1,
	       MODES(DIAG_M_LANE), PERM(true));
	diag_fault_describe(&f.cells.fault[0], text, sizeof(text));
	tap_ok(strstr(text, "permanent single-lane fault at rank 1, bit 19: 24 errors at 24 cells") == text,
	       "the lane in words: %s", text);

	/* The same places, no bit named (skx): the banks of one rank. */
	start(&f);
	for (int i = 0; i < 24; i++)
		error_at(&f, 1, (int)rnd(4), (int)rnd(4), (int)rnd(65536), (int)rnd(128) * 8, -1,
			 T0 + i * 3 * HOUR);
	expect(&f, "the same without the bit", DIAG_REPLACE, "mem-multi-bank", 1,
	       MODES(DIAG_M_MULTI_BANK), PERM(true));

	/* Random bits, a few repeated by chance: still the banks' fault, no lane. */
	start(&f);
	for (int i = 0; i < 30; i++)
		error_at(&f, 1, (int)rnd(4), (int)rnd(4), (int)rnd(65536), (int)rnd(128) * 8,
			 i < 5 ? 7 : (int)rnd(64), T0 + i * 2 * HOUR);
	expect(&f, "five of thirty cells on bit 7, the rest random", DIAG_REPLACE, "mem-multi-bank", 1,
	       MODES(DIAG_M_MULTI_BANK), PERM(true));

	/* A row whose cells all flip one bit is a row, not a lane. */
	start(&f);
	for (int i = 0; i < 12; i++)
		error_at(&f, 0, 1, 2, 0x2b4c, i * 8, 3, T0 + i * 6 * HOUR);
	expect(&f, "a row on one bit", DIAG_WATCH, "mem-row-column", 1, MODES(DIAG_M_ROW), PERM(true));

	/* A lane within twenty minutes: transient. */
	start(&f);
	for (int i = 0; i < 8; i++)
		error_at(&f, 0, (int)rnd(4), (int)rnd(4), (int)rnd(65536), (int)rnd(128) * 8, 40,
			 T0 + i * 150 * 1000000000LL);
	expect(&f, "a lane within twenty minutes", DIAG_WATCH, "mem-transient", 1, MODES(DIAG_M_LANE),
	       PERM(false));
}

static void two_faults(void)
{
	struct fixture f;
	char text[200];

	start(&f);
	error_at(&f, 1, 3, 0, 0x4444, 0x200, 5, T0);
	for (int i = 0; i < 25; i++)
		error_at(&f, 0, 1, 2, 0x1a2b, (int)rnd(128) * 8, -1, T0 + i * 2 * HOUR);
	error_at(&f, 1, 3, 0, 0x4444, 0x200, 5, T0 + 48 * HOUR);
	error_at(&f, 0, 2, 0, 0x5555, 0x300, -1, T0 + 49 * HOUR);
	expect(&f, "a row, a stuck bit and a transient bit", DIAG_WATCH, "mem-row-column", 3,
	       MODES(DIAG_M_ROW, DIAG_M_BIT, DIAG_M_BIT), PERM(true, true, false));
	diag_fault_describe(&f.cells.fault[1], text, sizeof(text));
	tap_is_str(text, "permanent single-bit fault at rank 1, bank group 3, bank 0, row 0x4444, "
		   "column 0x200: 2 errors", "the stuck bit in words");
	diag_fault_describe(&f.cells.fault[0], text, sizeof(text));
	tap_ok(!strncmp(text, "permanent single-row fault at rank 0, bank group 1, bank 2, row 0x1a2b: "
			"25 errors at ", 85), "the row in words: %s", text);
}

static void bounds(void)
{
	struct fixture f;
	unsigned rows, banks, ranks;

	start(&f);
	for (int i = 0; i < 20000; i++)
		error_at(&f, (int)rnd(2), (int)rnd(4), (int)rnd(4), (int)rnd(131072), (int)rnd(128) * 8,
			 -1, T0 + i * 1000000000LL);
	tap_is_int(f.cells.n, DIAG_CELLS, "20,000 scattered errors keep %d cells", DIAG_CELLS);
	tap_ok(f.cells.beyond > 19000, "the rest counted beyond (%lld)", (long long)f.cells.beyond);
	tap_is_int(__builtin_popcountll(f.cells.rank_map), 2, "both ranks marked");
	tap_is_int(__builtin_popcountll(f.cells.bank_map), 16, "sixteen banks marked");
	diag_cells_touched(&f.cells, &rows, &banks, &ranks);
	tap_ok(rows == DIAG_CELLS && ranks == 2 && banks <= 32, "touched: %u rows, %u banks, %u ranks",
	       rows, banks, ranks);
	expect(&f, "and it is a transient multi-rank fault", DIAG_WATCH, "mem-transient", 1,
	       MODES(DIAG_M_MULTI_RANK), PERM(false));

	/* A bank group near INT_MAX (fuzz-dram found it): its bank is group * 8 + bank, mod 64. */
	start(&f);
	error_at(&f, 0, 888309016, 3, 10, 8, -1, T0);
	error_at(&f, 0, INT_MAX, 7, 10, 8, -1, T0 + 1);
	tap_is_int((int)(f.cells.bank_map == ((1ULL << ((888309016ULL * 8 + 3) % 64)) |
					    (1ULL << (((uint64_t)INT_MAX * 8 + 7) % 64)))), 1,
		   "huge bank groups: banks marked modulo 64, no overflow");

	start(&f);
	for (int i = 0; i < 20; i++) {
		struct diag_obs o = { .wall_ns = T0 + i, .n = 1, .sev = RAS_SEV_CORRECTED,
				      .flags = DIAG_OBS_COORDS };

		diag_dram_clear(&o.dram);
		o.dram.rank = i % 2;
		diag_part_count(&f.part, &o);
		diag_cells_add(&f.cells, &o, f.rules.permanent_after_ns);
	}
	expect(&f, "ranks known, nothing finer", DIAG_OK, "none", 2, MODES(DIAG_M_NONE, DIAG_M_NONE),
	       PERM(false, false));
}

static bool same_fault(const struct diag_fault *a, const struct diag_fault *b)
{
	return a->mode == b->mode && a->permanent == b->permanent && a->rank == b->rank &&
	       a->bank_group == b->bank_group && a->bank == b->bank && a->row == b->row &&
	       a->column == b->column && a->cells == b->cells && a->ranks == b->ranks &&
	       a->banks == b->banks && a->rows == b->rows && a->columns == b->columns &&
	       a->bit == b->bit && a->device == b->device && a->errors == b->errors &&
	       a->first_ns == b->first_ns && a->last_ns == b->last_ns;
}

/* The faults as kept are those a classification of the same cells gives now. */
static bool as_classified(const struct diag_cells *c, const struct diag_rules *r)
{
	static struct diag_cells again;

	again = *c;
	diag_cells_classify(&again, r->wide_cells, r->permanent_after_ns);
	if (again.n_faults != c->n_faults || again.faults_more != c->faults_more)
		return false;
	for (unsigned i = 0; i < c->n_faults; i++)
		if (!same_fault(&again.fault[i], &c->fault[i]))
			return false;
	for (unsigned i = 0; i < c->n; i++)
		if (again.cell[i].fault != c->cell[i].fault)
			return false;
	return true;
}

/*
 * More errors at known cells leave the cells clean (no classification) and
 * update the faults themselves: errors, times, their order. On random
 * streams over few places (so most errors land on known cells, faults swap
 * places, some turn permanent, bits differ), whenever the cells are clean the
 * faults are those a classification gives; classified at random moments, as
 * rasd's flushes do.
 */
static void recounted(void)
{
	struct fixture f;
	unsigned checked = 0, recounts = 0, bad = 0;

	for (int trial = 0; trial < 300; trial++) {
		int64_t t = T0;

		start(&f);
		for (int i = 0; i < 200; i++) {
			struct diag_obs o = { .n = 1 + (int)rnd(3), .sev = RAS_SEV_CORRECTED,
					      .flags = DIAG_OBS_COORDS };

			t += rnd(50) ? 1000000LL : f.rules.permanent_after_ns / 3;
			o.wall_ns = t - (int64_t)rnd(4) * 1000000LL;
			diag_dram_clear(&o.dram);
			o.dram.rank = (int)rnd(trial % 3 + 1);
			o.dram.bank_group = 0;
			o.dram.bank = (int)rnd(trial % 4 + 1);
			o.dram.row = (int)rnd(3);
			o.dram.column = (int)rnd(5) * 8;
			o.dram.bit = rnd(8) ? 7 : (int)rnd(64);
			if (diag_cells_add(&f.cells, &o, f.rules.permanent_after_ns))
				recounts++;
			if (!f.cells.dirty) {
				checked++;
				bad += !as_classified(&f.cells, &f.rules);
			} else if (!rnd(4)) {
				diag_cells_classify(&f.cells, f.rules.wide_cells, f.rules.permanent_after_ns);
			}
		}
	}
	tap_ok(bad == 0 && checked > 10000 && recounts > 10000,
	       "errors at known cells: the faults kept without classifying are those classifying gives "
	       "(%u of %u clean moments differ; %u recounted)", bad, checked, recounts);
}

static void memory_rules(void)
{
	struct fixture f;
	struct diag_judgement j;
	struct diag_obs o = { .wall_ns = T0, .n = 1, .sev = RAS_SEV_UNCORRECTED };

	start(&f);
	diag_dram_clear(&o.dram);
	diag_part_count(&f.part, &o);
	judge(&f, &j);
	tap_is_str(diag_verdict_name(j.verdict), "replace", "one uncorrected error: replace");
	tap_is_str(diag_rule_info(j.rule)->name, "mem-uncorrected", "by mem-uncorrected");
	tap_ok(strstr(j.why, "coordinates not reported by this driver") != NULL,
	       "and it says the driver named no coordinates: %s", j.why);
	f.rules.r[DIAG_R_MEM_UNCORRECTED].verdict = DIAG_OFF;
	judge(&f, &j);
	tap_is_str(diag_verdict_name(j.verdict), "ok", "mem-uncorrected off: ok");

	start(&f);
	for (int i = 0; i < 999; i++)
		error_at(&f, 0, 0, 0, 5, 8, -1, T0 + i * 1000000LL);
	judge(&f, &j);
	tap_is_str(diag_rule_info(j.rule)->name, "mem-cell", "999 errors in a second: below the storm");
	error_at(&f, 0, 0, 0, 5, 8, -1, T0 + 999000000LL);
	judge(&f, &j);
	tap_ok(j.verdict == DIAG_WATCH && j.rule == DIAG_R_MEM_STORM, "the 1000th: a storm, watch (%s)",
	       j.why);
	for (int i = 0; i < 10; i++)
		error_at(&f, 0, 0, 0, 5, 8, -1, T0 + 48 * HOUR + i);
	judge(&f, &j);
	tap_ok(j.verdict == DIAG_WATCH && j.rule == DIAG_R_MEM_STORM, "a storm stays: fired for good");
}

static struct diag_obs obs(int64_t t, enum ras_severity sev, unsigned flags)
{
	struct diag_obs o = { .wall_ns = t, .n = 1, .sev = sev, .flags = flags };

	diag_dram_clear(&o.dram);
	return o;
}

static void other_parts(void)
{
	struct diag_rules r;
	struct diag_part p;
	struct diag_judgement j;
	struct diag_obs o;

	diag_rules_defaults(&r);
	diag_part_init(&p, DIAG_K_CACHE);
	for (int i = 0; i < 10; i++) {
		o = obs(T0 + i * 60000000000LL, RAS_SEV_CORRECTED, DIAG_OBS_CACHE);
		diag_part_count(&p, &o);
		diag_rules_observe(&r, &p, &o);
		diag_judge(&r, &p, NULL, &j);
		if (i == 8)
			tap_is_str(diag_verdict_name(j.verdict), "ok", "a cache: nine errors in nine minutes, ok");
	}
	tap_ok(j.verdict == DIAG_REPLACE && j.rule == DIAG_R_CACHE_CORRECTED,
	       "the tenth: cache-corrected, replace (%s)", j.why);

	diag_part_init(&p, DIAG_K_CPU);
	o = obs(T0, RAS_SEV_FATAL, 0);
	diag_part_count(&p, &o);
	diag_judge(&r, &p, NULL, &j);
	tap_ok(j.verdict == DIAG_REPLACE && j.rule == DIAG_R_CPU_FATAL, "a fatal machine check: replace");

	diag_part_init(&p, DIAG_K_PCIE);
	p.link = (struct diag_link){ diag_link_speed("8.0 GT/s PCIe"), 4,
				     diag_link_speed("16.0 GT/s PCIe"), 16, T0 };
	diag_judge(&r, &p, NULL, &j);
	tap_ok(j.verdict == DIAG_WATCH && j.rule == DIAG_R_PCIE_LINK, "a link at 8 GT/s x4 of 16 x16: watch");
	tap_is_str(j.why, "link at 8.0 GT/s x4, capable of 16.0 GT/s x16", "in words");
	o = obs(T0, RAS_SEV_FATAL, 0);
	diag_part_count(&p, &o);
	diag_judge(&r, &p, NULL, &j);
	tap_ok(j.verdict == DIAG_REPLACE && j.rule == DIAG_R_PCIE_FATAL, "and a fatal error: replace");
	tap_is_int(diag_link_speed("2.5 GT/s"), 25, "2.5 GT/s");
	tap_is_int(diag_link_speed("Unknown"), 0, "an unknown speed: 0");

	diag_part_init(&p, DIAG_K_DISK);
	o = obs(T0, RAS_SEV_UNCORRECTED, DIAG_OBS_MEDIUM);
	diag_part_count(&p, &o);
	diag_rules_observe(&r, &p, &o);
	diag_judge(&r, &p, NULL, &j);
	tap_ok(j.verdict == DIAG_WATCH && j.rule == DIAG_R_DISK_ERRORS, "a disk's medium error: watch");

	diag_part_init(&p, DIAG_K_NIC);
	for (int i = 0; i < 3; i++) {
		o = obs(T0 + i, RAS_SEV_INFO, 0);
		diag_part_count(&p, &o);
		diag_rules_observe(&r, &p, &o);
	}
	diag_judge(&r, &p, NULL, &j);
	tap_ok(j.verdict == DIAG_WATCH && j.rule == DIAG_R_NIC_REPORTS, "three health reports: watch");
	tap_is_int(diag_rule_find("mem-multi-bank"), DIAG_R_MEM_MULTI_BANK, "rules by name");
	tap_is_int(diag_rule_find("nonsense"), -1, "an unknown rule");
}

static void state(void)
{
	static struct fixture f, g;
	uint8_t buf[DIAG_STATE_MAX];
	size_t n;

	start(&f);
	for (int i = 0; i < 30; i++)
		error_at(&f, 0, 1, 2, 0x33, i * 8, -1, T0 + i * 2 * HOUR);
	n = diag_state_pack(&f.part, &f.cells, buf);
	tap_is_int(diag_state_unpack(buf, n, &g.part, &g.cells), 1, "a state with cells reads back");
	tap_ok(!memcmp(&f.part, &g.part, sizeof(f.part)) && !memcmp(&f.cells, &g.cells, sizeof(f.cells)),
	       "as it was");
	n = diag_state_pack(&f.part, NULL, buf);
	tap_is_int(diag_state_unpack(buf, n, &g.part, &g.cells), 0, "without cells");
	tap_is_int(diag_state_unpack(buf, n - 1, &g.part, &g.cells), -1, "cut short: refused");
	buf[4] = 99;
	tap_is_int(diag_state_unpack(buf, n, &g.part, &g.cells), -1, "another version: refused");
}

int main(void)
{
	single_cells();
	lines();
	wide();
	lanes();
	two_faults();
	bounds();
	recounted();
	memory_rules();
	other_parts();
	state();
	return tap_done();
}
