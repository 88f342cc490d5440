/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "rules.h"

#define K(k) (1u << DIAG_K_##k)
#define MEM (K(DIMM) | K(HBM) | K(CXL))
#define CPUS (K(CPU) | K(CACHE) | K(SOCKET))
#define H (3600LL * 1000000000)
#define MODE "mode: SC'12, ASPLOS'15, HPCA'23; verdict: our judgement"

/* In order of priority: of two rules giving the same verdict, the first decides. */
static const struct diag_rule_info rules[DIAG_R_N] = {
	[DIAG_R_NONE] = { "none", ~0u, DIAG_OK, 0, 0, -1, DIAG_C_NONE, "", "nothing fired",
		"nothing to do" },
	[DIAG_R_MEM_UNCORRECTED] = { "mem-uncorrected", MEM, DIAG_REPLACE, 0, 0, -1, DIAG_C_NONE,
		"our judgement (vendors' return practice)", "any uncorrected error",
		"replace the memory: it lost data once already" },
	[DIAG_R_CXL_REPLACE] = { "cxl-replace", K(CXL), DIAG_REPLACE, 0, 0, -1, DIAG_C_NONE,
		"the device (CXL health status)", "the device says it needs replacing",
		"replace the CXL memory device, as it asks" },
	[DIAG_R_MEM_MULTI_RANK] = { "mem-multi-rank", MEM, DIAG_REPLACE, 0, 0, -1, DIAG_C_NONE, MODE,
		"a permanent multi-rank fault",
		"replace the memory: the fault spans ranks, more than offlining pages can retire" },
	[DIAG_R_MEM_MULTI_BANK] = { "mem-multi-bank", MEM, DIAG_REPLACE, 0, 0, -1, DIAG_C_NONE, MODE,
		"a permanent multi-bank fault",
		"replace the memory: the fault spans banks, more than offlining pages can retire" },
	[DIAG_R_MEM_BANK] = { "mem-single-bank", MEM, DIAG_REPLACE, 0, 0, -1, DIAG_C_NONE, MODE,
		"a permanent single-bank fault",
		"replace the memory: a failing bank holds more pages than can be offlined" },
	[DIAG_R_MEM_ROW_COLUMN] = { "mem-row-column", MEM, DIAG_WATCH, 0, 0, -1, DIAG_C_NONE, MODE,
		"a permanent single-row or single-column fault",
		"keep its pages offline (page_ce_action) or its row repaired (memory_repair); "
		"replace it if the fault widens" },
	[DIAG_R_MEM_TRANSIENT] = { "mem-transient", MEM, DIAG_WATCH, 0, 0, -1, DIAG_C_NONE, MODE,
		"a transient fault wider than one word",
		"watch it: a wide burst that did not come back; if it does, the fault is permanent" },
	[DIAG_R_MEM_STORM] = { "mem-storm", MEM, DIAG_WATCH, 1000, 1 * H, 0, DIAG_C_CORRECTED,
		"our judgement", "a corrected-error storm (errors past count/period)",
		"find what drives the storm: look at its faults and its errors" },
	[DIAG_R_MEM_CELL] = { "mem-cell", MEM, DIAG_OK, 0, 0, -1, DIAG_C_NONE,
		"mode: SC'12; verdict: Linux RAS CEC practice (offline the page)",
		"a single-bit or single-word fault",
		"nothing to replace: offline its page if the cell keeps failing (page_ce_action)" },
	[DIAG_R_CPU_FATAL] = { "cpu-fatal", CPUS, DIAG_REPLACE, 0, 0, -1, DIAG_C_NONE,
		"our judgement (vendors' return practice)", "a fatal machine check",
		"replace the processor, once its microcode and firmware are known current" },
	[DIAG_R_CACHE_CORRECTED] = { "cache-corrected", K(CACHE), DIAG_REPLACE, 10, 24 * H, 0,
		DIAG_C_CORRECTED, "our judgement", "repeated corrected errors of one cache",
		"replace the processor: one cache keeps failing (offline its cores meanwhile: cpu_ce_action)" },
	[DIAG_R_CPU_CORRECTED] = { "cpu-corrected", K(CPU), DIAG_WATCH, 18, 24 * H, 0,
		DIAG_C_CORRECTED, "our judgement (rasdaemon's CPU isolation threshold)",
		"repeated corrected errors of one core",
		"watch the core; offline it if the errors go on (cpu_ce_action)" },
	[DIAG_R_PCIE_FATAL] = { "pcie-fatal", K(PCIE), DIAG_REPLACE, 0, 0, -1, DIAG_C_NONE,
		"our judgement", "an uncorrectable fatal error",
		"replace the device, or the riser or slot it sits in; update its firmware" },
	[DIAG_R_PCIE_UNCORRECTED] = { "pcie-uncorrected", K(PCIE), DIAG_WATCH, 0, 0, -1, DIAG_C_NONE,
		"our judgement", "an uncorrectable non-fatal error",
		"reseat the device and update its firmware; replace it if it happens again" },
	[DIAG_R_PCIE_LINK] = { "pcie-link", K(PCIE), DIAG_WATCH, 0, 0, -1, DIAG_C_NONE,
		"our judgement", "the link trained below its capability",
		"reseat the device; check the slot, riser and cable: the link runs below what it can" },
	[DIAG_R_PCIE_CORRECTED] = { "pcie-corrected", K(PCIE), DIAG_WATCH, 100, 24 * H, 0,
		DIAG_C_CORRECTED, "our judgement", "correctable errors past count/period",
		"check the link: reseat the device, check the riser and cable" },
	[DIAG_R_DISK_MEDIUM] = { "disk-medium", K(DISK), DIAG_REPLACE, 10, 24 * H, 0, DIAG_C_MEDIUM,
		"our judgement", "medium or target errors past count/period",
		"replace the disk: its medium keeps failing (check its SMART data)" },
	[DIAG_R_DISK_ERRORS] = { "disk-errors", K(DISK), DIAG_WATCH, 1, 24 * H, 1, DIAG_C_RECORDS,
		"our judgement", "I/O errors past count/period",
		"check the disk, its cable and controller (SMART data, dmesg)" },
	[DIAG_R_NIC_REPORTS] = { "nic-reports", K(NIC), DIAG_WATCH, 3, 24 * H, 0, DIAG_C_RECORDS,
		"our judgement", "health reports past count/period",
		"look at the health reporters of the device (devlink health show) and its firmware" },
	[DIAG_R_MEM_LANE] = { "mem-single-lane", MEM, DIAG_REPLACE, 0, 0, -1, DIAG_C_NONE,
		"mode: SC'12, ASPLOS'15, HPCA'23 (one bit across rows and columns: our reading); "
		"verdict: our judgement", "a permanent single-lane (data pin) fault",
		"replace the memory: one data pin fails at any address, no page offlining retires it, "
		"and it uses up the ECC's margin for a second fault" },
};

const struct diag_rule_info *diag_rule_info(enum diag_rule r)
{
	return &rules[(unsigned)r < DIAG_R_N ? r : DIAG_R_NONE];
}

int diag_rule_find(const char *name)
{
	for (int i = 1; i < DIAG_R_N; i++)
		if (!strcmp(rules[i].name, name))
			return i;
	return -1;
}

void diag_rules_defaults(struct diag_rules *r)
{
	memset(r->rates, 0, sizeof(r->rates));
	for (int i = 0; i < DIAG_R_N; i++) {
		r->r[i] = (struct diag_rule_conf){ rules[i].verdict, rules[i].count, rules[i].period_ns };
		for (unsigned k = 0; rules[i].count && k < DIAG_K_N; k++) {
			unsigned n = 0;

			while (n < 3 && r->rates[k][n])
				n++;
			if ((rules[i].kinds >> k) & 1 && n < 3)
				r->rates[k][n] = (uint8_t)i;
		}
	}
	r->permanent_after_ns = DIAG_PERMANENT_AFTER_NS;
	r->wide_cells = DIAG_WIDE_CELLS;
}

/* a * b / c for a >= 0, b > 0, c > 0: in 64 bits when the product fits (the 128-bit division is a call). */
static __int128 mul_div(int64_t a, int64_t b, int64_t c)
{
	int64_t ab;

	if (!__builtin_mul_overflow(a, b, &ab))
		return ab / c;
	return (__int128)a * b / c;
}

/* The leaky bucket of lib/threshold.c: count errors leak out per period, evenly. */
static bool rate_add(struct diag_rate *b, const struct diag_rule_conf *t, int64_t now, int64_t n)
{
	if (!b->last_ns || now > b->last_ns) {
		__int128 leaked = b->last_ns ? mul_div(now - b->last_ns, t->count, t->period_ns) : 0;

		if (!b->last_ns || leaked >= b->level) {
			b->level = 0;
			b->last_ns = now;
		} else if (leaked) {
			b->level -= (int64_t)leaked;
			b->last_ns += (int64_t)mul_div((int64_t)leaked, t->period_ns, t->count);
		}
	}
	if (n > 0 && b->level <= INT64_MAX - n)
		b->level += n;
	return b->level >= (int64_t)t->count;
}

static int64_t counted(enum diag_counts what, const struct diag_obs *o)
{
	int64_t n = o->n > 0 ? o->n : 1;

	switch (what) {
	case DIAG_C_CORRECTED: return o->sev == RAS_SEV_CORRECTED ? n : 0;
	case DIAG_C_MEDIUM: return (o->flags & DIAG_OBS_MEDIUM) ? n : 0;
	case DIAG_C_RECORDS: return 1;
	default: return 0;
	}
}

void diag_rules_observe(const struct diag_rules *r, struct diag_part *p, const struct diag_obs *o)
{
	if (p->kind >= DIAG_K_N)
		return;
	for (const uint8_t *rate = r->rates[p->kind]; *rate; rate++) {
		int i = *rate;
		const struct diag_rule_info *in = &rules[i];
		const struct diag_rule_conf *c = &r->r[i];
		int64_t n;

		if (!in->count || !(in->kinds & (1u << p->kind)) || in->slot < 0 ||
		    in->slot >= DIAG_RATES || c->verdict == DIAG_OFF || !c->count || c->period_ns <= 0)
			continue;
		if (!(n = counted(in->counts, o)))
			continue;
		if (rate_add(&p->rate[in->slot], c, o->wall_ns, n) && !(p->fired & (1u << i))) {
			p->fired |= 1u << i;
			p->fired_ns[in->slot] = o->wall_ns;
		}
	}
}

/* What judging found so far: the best candidate, without its words. */
struct judging {
	const struct diag_rules *rules;
	const struct diag_part *p;
	struct diag_decision *out;
	int fault;              /* the best candidate's fault (a fault rule), else -1 */
	bool any;
};

/* Rule r fires (of fault, or -1): taken when it gives more than the best so far. */
static void fire(struct judging *j, enum diag_rule r, int fault)
{
	int v = j->rules->r[r].verdict;

	if (v == DIAG_OFF || !(rules[r].kinds & (1u << j->p->kind)))
		return;
	if (j->any && v <= (int)j->out->verdict)
		return;
	j->any = true;
	j->out->verdict = (enum diag_verdict)v;
	j->out->rule = r;
	j->fault = fault;
}

/* The rule a fault's mode fires, DIAG_R_NONE when none. */
static enum diag_rule fault_rule(const struct diag_fault *f)
{
	if (f->mode == DIAG_M_BIT || f->mode == DIAG_M_WORD)
		return DIAG_R_MEM_CELL;
	if (f->mode != DIAG_M_NONE && !f->permanent)
		return DIAG_R_MEM_TRANSIENT;
	if (f->mode == DIAG_M_MULTI_RANK)
		return DIAG_R_MEM_MULTI_RANK;
	if (f->mode == DIAG_M_MULTI_BANK)
		return DIAG_R_MEM_MULTI_BANK;
	if (f->mode == DIAG_M_BANK)
		return DIAG_R_MEM_BANK;
	if (f->mode == DIAG_M_LANE)
		return DIAG_R_MEM_LANE;
	if (f->mode == DIAG_M_ROW || f->mode == DIAG_M_COLUMN)
		return DIAG_R_MEM_ROW_COLUMN;
	return DIAG_R_NONE;
}

static void judge_faults(struct judging *j, const struct diag_cells *c)
{
	for (unsigned i = 0; c && i < c->n_faults; i++) {
		enum diag_rule r = fault_rule(&c->fault[i]);

		if (r != DIAG_R_NONE)
			fire(j, r, (int)i);
	}
}

static void threshold_text(const struct diag_rule_conf *c, char *out, size_t len)
{
	static const struct { const char *unit; int64_t ns; } units[] = {
		{ "w", 7 * 24 * H }, { "d", 24 * H }, { "h", H }, { "m", 60000000000LL }, { "s", 1000000000LL },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (c->period_ns % units[i].ns == 0) {
			snprintf(out, len, "%u/%lld%s", c->count, (long long)(c->period_ns / units[i].ns),
				 units[i].unit);
			return;
		}
	snprintf(out, len, "%u/%llds", c->count, (long long)(c->period_ns / 1000000000LL));
}

static void judge_rates(struct judging *j)
{
	for (int i = 1; i < DIAG_R_N; i++)
		if (rules[i].count && (j->p->fired & (1u << i)))
			fire(j, (enum diag_rule)i, -1);
}

/* The link trained below what it can (speeds and widths known). */
static bool link_short(const struct diag_link *l)
{
	return l->speed && l->max_speed && l->width && l->max_width &&
	       (l->speed < l->max_speed || l->width < l->max_width);
}

static void judge_counts(struct judging *j)
{
	const struct diag_part *p = j->p;

	if (p->uncorrected && diag_kind_dram(p->kind))
		fire(j, DIAG_R_MEM_UNCORRECTED, -1);
	if (p->replace_events)
		fire(j, DIAG_R_CXL_REPLACE, -1);
	if (p->fatal) {
		fire(j, DIAG_R_CPU_FATAL, -1);
		fire(j, DIAG_R_PCIE_FATAL, -1);
	}
	if (p->uncorrected > p->fatal)
		fire(j, DIAG_R_PCIE_UNCORRECTED, -1);
	if (link_short(&p->link))
		fire(j, DIAG_R_PCIE_LINK, -1);
}

/* Whether any fault has a mode (its cells named a row and a column). */
static bool any_cell(const struct diag_cells *c)
{
	for (unsigned i = 0; i < c->n_faults; i++)
		if (c->fault[i].mode != DIAG_M_NONE)
			return true;
	return false;
}

/* The coordinates no cell named: bit 0 rank, 1 bank, 2 row, 3 column. */
static uint8_t missing_of(const struct diag_cells *c)
{
	uint8_t has = 0;

	for (unsigned i = 0; i < c->n && has != 0xf; i++)
		has |= (uint8_t)((c->cell[i].rank >= 0) | (c->cell[i].bank >= 0) << 1 |
				 (c->cell[i].row >= 0) << 2 | (c->cell[i].column >= 0) << 3);
	return (uint8_t)(~has & 0xf);
}

/* "bank, row and column not reported by this driver": the coordinates no cell named. */
static void not_reported(uint8_t mask, char *out, size_t len)
{
	static const char *const names[4] = { "rank", "bank", "row", "column" };
	const char *missing[4];
	unsigned k = 0;

	for (unsigned i = 0; i < 4; i++)
		if (mask & (1u << i))
			missing[k++] = names[i];
	if (!k) {
		snprintf(out, len, "no fault mode told");
		return;
	}
	snprintf(out, len, "%s%s%s%s%s%s%s not reported by this driver", missing[0],
		 k > 2 ? ", " : k == 2 ? " and " : "", k > 1 ? missing[1] : "",
		 k > 3 ? ", " : k == 3 ? " and " : "", k > 2 ? missing[2] : "",
		 k == 4 ? " and " : "", k > 3 ? missing[3] : "");
}

void diag_decide(const struct diag_rules *rules_conf, const struct diag_part *p,
		 const struct diag_cells *cells, struct diag_decision *out)
{
	struct judging j = { .rules = rules_conf, .p = p, .out = out, .fault = -1 };
	bool dram = diag_kind_dram(p->kind);

	out->verdict = DIAG_OK;
	out->rule = DIAG_R_NONE;
	out->note = DIAG_NOTE_NONE;
	out->missing = 0;
	judge_counts(&j);
	judge_faults(&j, dram ? cells : NULL);
	judge_rates(&j);
	out->has_fault = j.fault >= 0;
	if (out->has_fault)
		out->fault = cells->fault[j.fault];
	/* Memory whose records never named a cell: the verdict stands on counts alone. */
	if (dram && p->records && !p->coord_records) {
		out->note = DIAG_NOTE_NO_COORDS;
	} else if (dram && p->records && cells && !any_cell(cells)) {
		/* A rank (amd64_edac's chip select) at most: no mode can be told; it says what is missing. */
		out->note = DIAG_NOTE_MISSING;
		out->missing = missing_of(cells);
	}
	out->p = *p;
}

/* The evidence of the rule that decided, in words. */
static void rule_text(const struct diag_rules *rules_conf, const struct diag_decision *d,
		      char *out, size_t len)
{
	const struct diag_part *p = &d->p;
	const struct diag_link *l = &p->link;
	char th[32];

	out[0] = '\0';
	if (d->has_fault) {
		diag_fault_describe(&d->fault, out, len);
		return;
	}
	switch (d->rule) {
	case DIAG_R_NONE:
		return;
	case DIAG_R_MEM_UNCORRECTED:
		snprintf(out, len, "%lld uncorrected error%s", (long long)p->uncorrected,
			 p->uncorrected == 1 ? "" : "s");
		return;
	case DIAG_R_CXL_REPLACE:
		snprintf(out, len, "the device reported it needs replacing (%lld event%s)",
			 (long long)p->replace_events, p->replace_events == 1 ? "" : "s");
		return;
	case DIAG_R_CPU_FATAL:
	case DIAG_R_PCIE_FATAL:
		snprintf(out, len, "%lld fatal error%s", (long long)p->fatal, p->fatal == 1 ? "" : "s");
		return;
	case DIAG_R_PCIE_UNCORRECTED:
		snprintf(out, len, "%lld uncorrectable non-fatal error%s",
			 (long long)(p->uncorrected - p->fatal), p->uncorrected - p->fatal == 1 ? "" : "s");
		return;
	case DIAG_R_PCIE_LINK:
		snprintf(out, len, "link at %d.%d GT/s x%d, capable of %d.%d GT/s x%d",
			 l->speed / 10, l->speed % 10, l->width, l->max_speed / 10, l->max_speed % 10,
			 l->max_width);
		return;
	default:
		/* A rate rule (the only others that fire without a fault). */
		threshold_text(&rules_conf->r[d->rule], th, sizeof(th));
		snprintf(out, len, "%s: %s (%lld errors in all)", rules[d->rule].when, th,
			 (long long)(p->corrected + p->uncorrected));
	}
}

void diag_why(const struct diag_rules *rules_conf, const struct diag_decision *d, char *why,
	      size_t len)
{
	const struct diag_part *p = &d->p;
	size_t n;
	/* Each piece is cut at the size diag_judge always gave it. */
	char text[200];

	rule_text(rules_conf, d, text, d->has_fault ? 200 : 160);
	snprintf(why, len, "%s", text);
	if (d->note == DIAG_NOTE_NO_COORDS) {
		n = strlen(why);
		snprintf(why + n, len - n, "%scoordinates not reported by this driver", n ? "; " : "");
	} else if (d->note == DIAG_NOTE_MISSING) {
		n = strlen(why);
		snprintf(why + n, len - n, "%s", n ? "; " : "");
		n = strlen(why);
		not_reported(d->missing, why + n, len - n);
	}
	if (!why[0])
		snprintf(why, len, "%lld error%s, no rule fired",
			 (long long)(p->corrected + p->uncorrected),
			 p->corrected + p->uncorrected == 1 ? "" : "s");
}

void diag_judge(const struct diag_rules *rules_conf, const struct diag_part *p,
		const struct diag_cells *cells, struct diag_judgement *out)
{
	struct diag_decision d;

	diag_decide(rules_conf, p, cells, &d);
	out->verdict = d.verdict;
	out->rule = d.rule;
	diag_why(rules_conf, &d, out->why, sizeof(out->why));
}
