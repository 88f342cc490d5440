/* SPDX-License-Identifier: MIT */
/* Memory-error streams with a known truth: see fault_stream.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fault_stream.h"
#include "decoders/cper.h"

#define HOUR (3600ULL * 1000000000ULL)
#define MINUTE (60ULL * 1000000000ULL)
#define MAX_ERRORS 512

/* One error of the plan: where and when, before it is spelled. */
struct err {
	uint64_t ts;
	unsigned part;
	int rank, bg, bank, row, col, bit;
	bool ue;
};

struct plan {
	struct err v[MAX_ERRORS];
	unsigned n;
	uint64_t seed;
};

static unsigned rnd(struct plan *p, unsigned n)
{
	p->seed ^= p->seed >> 12;
	p->seed ^= p->seed << 25;
	p->seed ^= p->seed >> 27;
	return (unsigned)((p->seed * 0x2545f4914f6cdd1dULL) >> 33) % n;
}

/* n errors of a part spread over span from start: evenly, each a little late. */
static uint64_t when(struct plan *p, uint64_t start, uint64_t span, unsigned i, unsigned n)
{
	uint64_t step = n > 1 ? span / (n - 1) : 0;
	unsigned late_ms = (unsigned)(step / 4 / 1000000);

	return start + i * step + (late_ms ? rnd(p, late_ms) * 1000000ULL : 0);
}

static struct err *add_err(struct plan *p, unsigned part, uint64_t ts, int rank, int bg, int bank,
			   int row, int col, int bit)
{
	struct err *e;

	if (p->n >= MAX_ERRORS)
		return NULL;
	e = &p->v[p->n++];
	*e = (struct err){ ts, part, rank, bg, bank, row, col, bit, false };
	return e;
}

static int rnd_col(struct plan *p)
{
	return (int)rnd(p, 128) * 8;
}

/*
 * A part's error with its random coordinates drawn in one fixed order: the
 * last argument first (the order GCC happened to evaluate add_err's calls in
 * on x86-64, which the stored streams and tests were made with). C leaves
 * the order of a call's arguments unspecified: drawn inside the call, GCC for
 * arm64 made another stream (tests/arm64, test-prometheus-rules).
 */
struct draw {
	bool rank, bg, bank, row, col, bit;   /* which coordinates are drawn, not given */
};

static void add_drawn(struct plan *p, unsigned part, uint64_t start, uint64_t span, unsigned i, unsigned n,
		      struct draw d, int rank, int bg, int bank, int row, int col, int bit)
{
	if (d.bit)
		bit = (int)rnd(p, 64);
	if (d.col)
		col = rnd_col(p);
	if (d.row)
		row = (int)rnd(p, 65536);
	if (d.bank)
		bank = (int)rnd(p, 4);
	if (d.bg)
		bg = (int)rnd(p, 4);
	if (d.rank)
		rank = (int)rnd(p, 2);
	add_err(p, part, when(p, start, span, i, n), rank, bg, bank, row, col, bit);
}

/* The faults, one part each (fault_stream.h); times from base, spans of three days or minutes. */
static void plan_faults(struct plan *p, uint64_t base)
{
	static const int word_bits[] = { 5, 9, 22 };
	uint64_t days = 72 * HOUR;

	for (unsigned i = 0; i < 10; i++)          /* 0: a stuck bit */
		add_err(p, 0, when(p, base, days, i, 10), 0, 1, 2, 0x1a2b, 0x3f8, 13);
	for (unsigned i = 0; i < 10; i++)          /* 1: one word, its bits vary */
		add_err(p, 1, when(p, base + 5 * MINUTE, days, i, 10), 1, 0, 3, 0x0777, 0x120, word_bits[i % 3]);
	for (unsigned i = 0; i < 30; i++)          /* 2: a column */
		add_drawn(p, 2, base + 7 * MINUTE, days, i, 30, (struct draw){ .row = true }, 1, 0, 3, 0, 0x1f8, 3);
	for (unsigned i = 0; i < 30; i++)          /* 3: a row */
		add_drawn(p, 3, base + 11 * MINUTE, days, i, 30, (struct draw){ .col = true }, 0, 1, 2, 0x2b4c, 0, 7);
	for (unsigned i = 0; i < 24; i++)          /* 4: a bank */
		add_drawn(p, 4, base + 13 * MINUTE, days, i, 24,
			  (struct draw){ .row = true, .col = true, .bit = true }, 0, 2, 1, 0, 0, 0);
	for (unsigned i = 0; i < 30; i++)          /* 5: banks of one rank */
		add_drawn(p, 5, base + 17 * MINUTE, days, i, 30,
			  (struct draw){ .bg = true, .bank = true, .row = true, .col = true, .bit = true },
			  1, 0, 0, 0, 0, 0);
	for (unsigned i = 0; i < 40; i++)          /* 6: ranks */
		add_drawn(p, 6, base + 19 * MINUTE, days, i, 40,
			  (struct draw){ true, true, true, true, true, true }, 0, 0, 0, 0, 0, 0);
	for (unsigned i = 0; i < 30; i++)          /* 7: a row, and a stuck bit elsewhere */
		add_drawn(p, 7, base + 23 * MINUTE, days, i, 30, (struct draw){ .col = true }, 1, 3, 0, 0x0c0d, 0, 1);
	for (unsigned i = 0; i < 6; i++)
		add_err(p, 7, when(p, base + 29 * MINUTE, days, i, 6), 0, 0, 1, 0x4444, 0x200, 40);
	for (unsigned i = 0; i < 3; i++) {         /* 8: two corrected errors, then uncorrected */
		struct err *e = add_err(p, 8, base + 31 * MINUTE + i * 10 * MINUTE, 0, 2, 2, 0x5150,
					0x88, 17);

		if (e && i == 2)
			e->ue = true;
	}
	for (unsigned i = 0; i < 20; i++)          /* 9: a row, within twenty minutes */
		add_drawn(p, 9, base + 37 * MINUTE, 20 * MINUTE, i, 20, (struct draw){ .col = true }, 1, 1, 1,
			  0x3030, 0, 2);
	for (unsigned part = 10; part < FS_LANE_PART; part++) {   /* 10-17: one cosmic-ray error each */
		int bit = (int)rnd(p, 64), col = rnd_col(p), row = (int)rnd(p, 65536);
		int bank = (int)rnd(p, 4), bg = (int)rnd(p, 4), rank = (int)rnd(p, 2);
		uint64_t hour = rnd(p, 72) * HOUR, minute = rnd(p, 60) * MINUTE;

		add_err(p, part, base + hour + minute, rank, bg, bank, row, col, bit);
	}
	/*
	 * 18: a failing data pin (DQ 19 of one device): every bank of the rank, any
	 * row and column, always the same bit. Last, so the others' draws stay.
	 */
	for (unsigned i = 0; i < 24; i++)
		add_drawn(p, FS_LANE_PART, base + 41 * MINUTE, days, i, 24,
			  (struct draw){ .bg = true, .bank = true, .row = true, .col = true }, 1, 0, 0, 0, 0, 19);
}

static int by_time(const void *a, const void *b)
{
	const struct err *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->part < y->part ? -1 : x->part > y->part;
}

/* ---- spelling ------------------------------------------------------------ */

static const char *const names[FS_N] = {
	"skx-4.14", "skx-early", "skx", "adxl", "adxl-full", "ghes", "ghes-old", "extlog",
	"non-standard", "cxl",
};

const char *fs_spelling_name(enum fs_spelling sp)
{
	return (unsigned)sp < FS_N ? names[sp] : "?";
}

bool fs_spelling_bits(enum fs_spelling sp)
{
	return sp >= FS_GHES;
}

/* An assignment holds a driver_detail as long as skx_edac writes one (decoders/edac.h). */
struct rec {
	char text[28][1100];
	char *assign[28];
	int n;
};

static void __attribute__((format(printf, 2, 3))) set(struct rec *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n >= 28)
		return;
	va_start(ap, fmt);
	vsnprintf(r->text[r->n], sizeof(r->text[0]), fmt, ap);
	va_end(ap);
	r->assign[r->n] = r->text[r->n];
	r->n++;
}

static void hex(char *out, size_t len, const uint8_t *b, size_t n)
{
	size_t at = (size_t)snprintf(out, len, "0x");

	for (size_t i = 0; i < n && at + 2 < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%02x", b[i]);
}

/* Where the part sits under EDAC: controller d / 6, channel (d % 6) / 2, slot d % 2. */
static void layers(unsigned d, unsigned *mc, unsigned *ch, unsigned *slot)
{
	*mc = d / 6;
	*ch = (d % 6) / 2;
	*slot = d % 2;
}

static void detail(enum fs_spelling sp, const struct err *e, char *out, size_t len)
{
	unsigned mc, ch, slot;

	layers(e->part, &mc, &ch, &slot);
	switch (sp) {
	case FS_SKX_4_14:
		snprintf(out, len, " err_code:0000:0091 socket:%u imc:%u rank:%d bg:%d ba:%d row:%x col:%x",
			 mc / 2, mc % 2, e->rank, e->bg, e->bank, e->row, e->col);
		break;
	case FS_SKX_EARLY:
		snprintf(out, len, " err_code:0x0000:0x0091 socket:%u imc:%u rank:%d bg:%d ba:%d row:0x%x "
			 "col:0x%x", mc / 2, mc % 2, e->rank, e->bg, e->bank, e->row, e->col);
		break;
	case FS_SKX:
		snprintf(out, len, " err_code:0x0000:0x0091 ProcessorSocketId:0x%x MemoryControllerId:0x%x "
			 "PhysicalRankId:0x%x Row:0x%x Column:0x%x Bank:0x%x BankGroup:0x%x", mc / 2, mc % 2,
			 e->rank, e->row, e->col, e->bank, e->bg);
		break;
	case FS_ADXL:
		snprintf(out, len, " err_code:0x0000:0x0091 ProcessorSocketId:0x%x MemoryControllerId:0x%x "
			 "ChannelId:0x%x DimmSlotId:0x%x PhysicalRankId:0x%x Row:0x%x Column:0x%x Bank:0x%x "
			 "BankGroup:0x%x", mc / 2, mc % 2, ch, slot, e->rank, e->row, e->col, e->bank, e->bg);
		break;
	case FS_ADXL_FULL:
		snprintf(out, len, " err_code:0x0000:0x0091  SystemAddress:0x%llx NmSystemAddress:0x0 "
			 "ProcessorSocketId:0x%x MemoryControllerId:0x%x ChannelAddress:0x%llx ChannelId:0x%x "
			 "RankAddress:0x%llx PhysicalRankId:0x%x DimmSlotId:0x%x DimmRankId:0x%x Row:0x%x "
			 "Column:0x%x Bank:0x%x BankGroup:0x%x ChipSelect:0x%x ChipId:0x0",
			 0x40000000ULL + (unsigned long long)e->row * 4096, mc / 2, mc % 2,
			 (unsigned long long)e->row * 1024, ch, (unsigned long long)e->row * 512, e->rank, slot,
			 e->rank, e->row, e->col, e->bank, e->bg, e->rank);
		break;
	case FS_GHES:
		snprintf(out, len, "APEI location: node:0 card:0 module:%u rank:%d bank_group:%d "
			 "bank_address:%d device:5 row:%d column:%d bit_position:%d "
			 "status(0x0000000000000400): Storage error in DRAM memory", e->part, e->rank, e->bg,
			 e->bank, e->row, e->col, e->bit);
		break;
	default:
		snprintf(out, len, "APEI location: node:0 card:0 module:%u rank:%d bank_group:%d "
			 "bank_address:%d device:5 row:%d col:%d bit_pos:%d DIMM location:CPU0 DIMM%u",
			 e->part, e->rank, e->bg, e->bank, e->row, e->col, e->bit, e->part);
		break;
	}
}

static void mc_event(enum fs_spelling sp, const struct err *e, struct rec *r)
{
	char text[600];
	unsigned mc, ch, slot;
	bool ghes = sp == FS_GHES || sp == FS_GHES_OLD;

	layers(e->part, &mc, &ch, &slot);
	set(r, "error_type=%d", e->ue ? 1 : 0);
	set(r, "msg=memory read error");
	if (ghes)
		set(r, "label=DIMM%u", e->part);
	else
		set(r, "label=CPU_SrcID#%u_MC#%u_Chan#%u_DIMM#%u", mc / 2, mc % 2, ch, slot);
	set(r, "error_count=1");
	set(r, "mc_index=%u", ghes ? 0 : mc);
	set(r, "top_layer=%u", ghes ? e->part : ch);
	set(r, "middle_layer=%d", ghes ? -1 : (int)slot);
	set(r, "lower_layer=-1");
	set(r, "address=0x%llx", 0x100000000ULL + ((unsigned long long)e->part << 30) +
	    ((unsigned long long)e->row << 12) + (unsigned long long)e->col * 8);
	set(r, "grain_bits=6");
	set(r, "syndrome=0");
	detail(sp, e, text, sizeof(text));
	set(r, "driver_detail=%s", text);
}

static void extlog(const struct err *e, struct rec *r, unsigned seq)
{
	uint8_t c[CPER_MEM_COMPACT_LEN] = { 0 };
	char h[2 * CPER_MEM_COMPACT_LEN + 4];

	cper_mem_compact_set(c, CPER_MEM_F_NODE, 0);
	cper_mem_compact_set(c, CPER_MEM_F_CARD, 0);
	cper_mem_compact_set(c, CPER_MEM_F_MODULE, e->part);
	cper_mem_compact_set(c, CPER_MEM_F_RANK, (uint64_t)e->rank);
	cper_mem_compact_set(c, CPER_MEM_F_BANK, (uint64_t)(e->bg << 8 | e->bank));
	cper_mem_compact_set(c, CPER_MEM_F_BANK_GROUP, (uint64_t)e->bg);
	cper_mem_compact_set(c, CPER_MEM_F_BANK_ADDRESS, (uint64_t)e->bank);
	cper_mem_compact_set(c, CPER_MEM_F_DEVICE, 5);
	cper_mem_compact_set(c, CPER_MEM_F_ROW, (uint64_t)e->row);
	cper_mem_compact_set(c, CPER_MEM_F_COLUMN, (uint64_t)e->col);
	cper_mem_compact_set(c, CPER_MEM_F_BIT_POS, (uint64_t)e->bit);
	hex(h, sizeof(h), c, sizeof(c));
	set(r, "err_seq=%u", seq);
	set(r, "etype=%d", e->ue ? 3 : 2);
	/* CPER severities: 0 recoverable, 2 corrected. */
	set(r, "sev=%d", e->ue ? 0 : 2);
	set(r, "pa=0x%llx", 0x100000000ULL + ((unsigned long long)e->part << 30) +
	    ((unsigned long long)e->row << 12));
	set(r, "pa_mask_lsb=6");
	set(r, "fru_text=DIMM%u", e->part);
	set(r, "data=%s", h);
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* A UEFI 2.10 N.2.5 Memory Error Section: node, card, module, bank (group, address), device, row, column, bit, rank. */
static void nonstd(const struct err *e, struct rec *r)
{
	static const uint8_t platform_memory[16] = { 0x14, 0x11, 0xbc, 0xa5, 0x64, 0x6f, 0xde, 0x4e,
						     0xb8, 0x63, 0x3e, 0x83, 0xed, 0x7c, 0x83, 0xb1 };
	uint8_t s[CPER_MEM_SECTION_LEN] = { 0 };
	/* Validation: node 3, card 4, module 5, bank 6, device 7, row 8, column 9, bit 10, rank 15, group 19, address 20. */
	uint32_t valid = 1u << 3 | 1u << 4 | 1u << 5 | 1u << 6 | 1u << 7 | 1u << 8 | 1u << 9 |
			 1u << 10 | 1u << 15 | 1u << 19 | 1u << 20;
	char g[40], h[2 * CPER_MEM_SECTION_LEN + 4];

	memcpy(s, &valid, 4);
	put16(s + 36, e->part);
	put16(s + 38, (unsigned)(e->bg << 8 | e->bank));
	put16(s + 40, 5);
	put16(s + 42, (unsigned)e->row);
	put16(s + 44, (unsigned)e->col);
	put16(s + 46, (unsigned)e->bit);
	put16(s + 74, (unsigned)e->rank);
	hex(g, sizeof(g), platform_memory, sizeof(platform_memory));
	hex(h, sizeof(h), s, sizeof(s));
	set(r, "sec_type=%s", g);
	set(r, "fru_text=DIMM%u", e->part);
	set(r, "sev=%d", e->ue ? 0 : 2);
	set(r, "len=%u", CPER_MEM_SECTION_LEN);
	set(r, "buf=%s", h);
}

static void cxl_dram(const struct err *e, struct rec *r, unsigned seq)
{
	uint8_t mask[32] = { 0 };
	char h[80];

	mask[e->bit / 8] = (uint8_t)(1u << (e->bit % 8));
	hex(h, sizeof(h), mask, sizeof(mask));
	set(r, "memdev=mem%u", e->part);
	set(r, "host=0000:0d:00.0");
	/* CXL event logs: 1 warning (corrected), 2 failure. */
	set(r, "log=%d", e->ue ? 2 : 1);
	set(r, "serial=%u", 1000 + e->part);
	set(r, "hdr_handle=%u", seq);
	set(r, "hdr_timestamp=%llu", (unsigned long long)e->ts);
	set(r, "hdr_length=128");
	set(r, "dpa=0x%llx", ((unsigned long long)e->row << 12) + (unsigned long long)e->col * 8);
	set(r, "descriptor=%d", e->ue ? 1 : 0);
	set(r, "transaction_type=1");
	set(r, "channel=0");
	set(r, "rank=%d", e->rank);
	set(r, "validity_flags=0xff");
	set(r, "nibble_mask=0x%x", 1u << 5);
	set(r, "bank_group=%d", e->bg);
	set(r, "bank=%d", e->bank);
	set(r, "row=%d", e->row);
	set(r, "column=%d", e->col);
	set(r, "cor_mask=%s", h);
}

static int emit(struct fake_tree *t, enum fs_spelling sp, const struct err *e, unsigned seq)
{
	static const char *const event[FS_N] = {
		[FS_EXTLOG] = "ras:extlog_mem_event", [FS_NONSTD] = "ras:non_standard_event",
		[FS_CXL] = "cxl:cxl_dram",
	};
	struct rec *r = calloc(1, sizeof(*r));
	uint8_t buf[4096];
	int len;

	if (!r)
		return -ENOMEM;
	if (sp == FS_EXTLOG)
		extlog(e, r, seq);
	else if (sp == FS_NONSTD)
		nonstd(e, r);
	else if (sp == FS_CXL)
		cxl_dram(e, r, seq);
	else
		mc_event(sp, e, r);
	len = fake_record(t, event[sp] ? event[sp] : "ras:mc_event", r->assign, r->n, buf, sizeof(buf));
	free(r);
	if (len < 0)
		return len;
	/* A gap longer than a record header's time delta starts a new sub-buffer. */
	if (t->cpu[0].used && e->ts - t->cpu[0].last_ts >= (1u << 27))
		fake_mark_missed(t, 0, 0);
	return fake_add(t, 0, e->ts, buf, (uint32_t)len);
}

/* ---- truth --------------------------------------------------------------- */

static void key_of(enum fs_spelling sp, unsigned d, struct fs_part_truth *p)
{
	unsigned mc, ch, slot;

	layers(d, &mc, &ch, &slot);
	snprintf(p->kind, sizeof(p->kind), "%s", sp == FS_CXL ? "cxl" : "dimm");
	if (sp == FS_CXL)
		snprintf(p->part, sizeof(p->part), "mem%u", d);
	else if (sp == FS_GHES || sp == FS_GHES_OLD)
		snprintf(p->part, sizeof(p->part), "mc0 %u:-1:-1", d);
	else if (sp == FS_EXTLOG || sp == FS_NONSTD)
		snprintf(p->part, sizeof(p->part), "node 0 card 0 module %u", d);
	else
		snprintf(p->part, sizeof(p->part), "mc%u %u:%u:-1", mc, ch, slot);
}

static void truth_of(enum fs_spelling sp, struct fs_truth *t)
{
	static const struct {
		const char *verdict, *rule;
		unsigned n;
		const char *mode[2];
		bool perm[2];
	} want[FS_PARTS] = {
		{ "ok", "mem-cell", 1, { "single-bit" }, { true } },
		{ "ok", "mem-cell", 1, { "single-word" }, { true } },
		{ "watch", "mem-row-column", 1, { "single-column" }, { true } },
		{ "watch", "mem-row-column", 1, { "single-row" }, { true } },
		{ "replace", "mem-single-bank", 1, { "single-bank" }, { true } },
		{ "replace", "mem-multi-bank", 1, { "multi-bank" }, { true } },
		{ "replace", "mem-multi-rank", 1, { "multi-rank" }, { true } },
		{ "watch", "mem-row-column", 2, { "single-row", "single-bit" }, { true, true } },
		{ "replace", "mem-uncorrected", 1, { "single-bit" }, { false } },
		{ "watch", "mem-transient", 1, { "single-row" }, { false } },
	};

	t->n = FS_PARTS;
	for (unsigned d = 0; d < FS_PARTS; d++) {
		struct fs_part_truth *p = &t->part[d];
		bool background = d >= 10 && d != FS_LANE_PART;

		memset(p, 0, sizeof(*p));
		key_of(sp, d, p);
		p->verdict = background ? "ok" : want[d].verdict;
		p->rule = background ? "mem-cell" : want[d].rule;
		p->n_faults = background ? 1 : want[d].n;
		for (unsigned f = 0; f < p->n_faults; f++) {
			p->fault[f].mode = background ? "single-bit" : want[d].mode[f];
			p->fault[f].permanent = background ? false : want[d].perm[f];
		}
		/* Without the bit in error, one word's errors are one cell's: single-bit. */
		if (d == 1 && !fs_spelling_bits(sp))
			p->fault[0].mode = "single-bit";
		/* A pin's errors: one lane where the bit is named, else banks of one rank. */
		if (d == FS_LANE_PART) {
			bool bits = fs_spelling_bits(sp);

			p->verdict = "replace";
			p->rule = bits ? "mem-single-lane" : "mem-multi-bank";
			p->n_faults = 1;
			p->fault[0].mode = bits ? "single-lane" : "multi-bank";
			p->fault[0].permanent = true;
		}
	}
}

int fs_write_range(struct fake_tree *t, enum fs_spelling sp, uint64_t seed, uint64_t base_ts,
		   unsigned from, unsigned to, struct fs_truth *truth)
{
	struct plan *p = calloc(1, sizeof(*p));
	int r = 0;
	unsigned n;

	if (!p)
		return -ENOMEM;
	p->seed = seed ? seed : 0x9e3779b97f4a7c15ULL;
	plan_faults(p, base_ts);
	qsort(p->v, p->n, sizeof(p->v[0]), by_time);
	for (unsigned i = from; i < p->n && i < to && r == 0; i++)
		r = emit(t, sp, &p->v[i], i + 1);
	if (truth)
		truth_of(sp, truth);
	n = p->n;
	free(p);
	return r < 0 ? r : (int)n;
}

int fs_write(struct fake_tree *t, enum fs_spelling sp, uint64_t seed, uint64_t base_ts,
	     struct fs_truth *truth)
{
	int r = fs_write_range(t, sp, seed, base_ts, 0, MAX_ERRORS, truth);

	return r < 0 ? r : 0;
}
