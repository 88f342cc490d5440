/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "dram.h"

#define M(member) offsetof(struct diag_dram, member)
#define NO_FIELD ((size_t)-1)

/* Which spelling a name belongs to (a bit each), to tell them apart. */
enum { T_EARLY = 1, T_SKX = 2, T_ADXL = 4, T_GHES = 8, T_AMD = 16, T_SB = 32 };

/*
 * Each name a driver writes and the member it fills. A member takes the
 * value of its highest-priority name (ADXL lists a channel's rank and the
 * DIMM's rank; CPER the raw bank and its split), else the first word.
 * hex: the number is hexadecimal even without "0x" (skx's row and col).
 * find_name looks a word up by a hash of its first, middle and last bytes
 * and its length (name_slot, edac_slot below): one name to compare, not
 * every name of its length. tests/diag/test-dram-golden reads every name.
 */
#define NAME(n, member, prio, hex, tag) { n, sizeof(n) - 1, M(member), prio, hex, tag }
#define SKIP(n, tag) { n, sizeof(n) - 1, NO_FIELD, 0, false, tag }
struct name {
	const char *name;
	size_t len;
	size_t off;
	unsigned char prio;
	bool hex;
	unsigned char tag;
};

/*
 * skx before 2022 (T_EARLY), skx/i10nm since (T_SKX), ADXL's component list
 * (T_ADXL), amd64_edac's DRAM address (T_AMD: the chip select is the rank;
 * "Bank Grp" and "Bank Addr" are names of two words), and sb_edac (Sandy
 * Bridge to Broadwell, Knights Landing: "socket:%d ha:%d channel_mask:%ld
 * rank:%d", then on Broadwell DDR4 "row:0x%x col:0x%x bank_addr:%d
 * bank_group:%d"; its home agent is the controller within the socket, its
 * rank the channel's, the DIMM is rank / 4).
 */
static const struct name edac_names[] = {
	NAME("Cs", rank, 2, true, T_AMD),
	NAME("ba", bank, 2, false, T_EARLY),
	NAME("bg", bank_group, 2, false, T_EARLY),
	NAME("ha", mc, 2, false, T_SB),
	NAME("Row", row, 2, true, T_SKX),
	NAME("col", column, 2, true, T_EARLY),
	NAME("imc", mc, 2, false, T_EARLY),
	NAME("row", row, 2, true, T_EARLY),
	NAME("Bank", bank, 2, true, T_SKX),
	NAME("rank", rank, 3, false, T_EARLY),
	NAME("ChipId", chip_id, 2, true, T_ADXL),
	NAME("Column", column, 2, true, T_SKX),
	NAME("socket", socket, 2, false, T_EARLY),
	NAME("RankMul", chip_id, 2, true, T_AMD),
	NAME("Bank Grp", bank_group, 2, true, T_AMD),
	NAME("Bank Addr", bank, 2, true, T_AMD),
	NAME("BankGroup", bank_group, 2, true, T_SKX),
	NAME("ChannelId", channel, 2, true, T_ADXL),
	NAME("bank_addr", bank, 2, false, T_SB),
	NAME("ChipSelect", rank, 1, true, T_ADXL),
	NAME("DimmRankId", rank, 2, true, T_ADXL),
	NAME("DimmSlotId", dimm, 2, true, T_ADXL),
	NAME("SubChannel", sub_channel, 2, true, T_AMD),
	NAME("bank_group", bank_group, 2, false, T_SB),
	SKIP("RankAddress", T_ADXL),
	SKIP("channel_mask", T_SB),
	SKIP("SystemAddress", T_ADXL),
	SKIP("ChannelAddress", T_ADXL),
	NAME("PhysicalRankId", rank, 3, true, T_SKX),
	NAME("ProcessorSocketId", socket, 2, true, T_SKX),
	NAME("MemoryControllerId", mc, 2, true, T_SKX),
};

/*
 * Where each name sits in edac_names, by name_slot of it: its index plus
 * one, 0 for a slot no name hashes to. Generated from the table above (K in
 * name_slot chosen so no two names of a table share a slot): a name added
 * needs the slots anew, else tests/diag/test-dram-golden, which finds every
 * name, fails.
 */
static const unsigned char edac_slot[64] = {
	29, 0, 5, 0, 14, 0, 8, 16, 0, 9, 23, 19, 0, 13, 0, 0, 0, 7, 0, 0, 0, 0,
	0, 0, 0, 0, 22, 31, 0, 1, 0, 0, 0, 24, 0, 0, 4, 0, 0, 12, 0, 0, 0, 28,
	0, 6, 0, 10, 0, 20, 15, 25, 21, 18, 0, 2, 26, 17, 27, 0, 11, 30, 0, 3,
};

/* The longest name in edac_names ("MemoryControllerId"). */
#define EDAC_LONGEST 18

/* ghes_edac's "APEI location:" text: CPER's names, in decimal. */
static const struct name ghes_names[] = {
	NAME("col", column, 2, false, T_GHES),
	NAME("row", row, 2, false, T_GHES),
	NAME("bank", bank, 1, false, T_GHES),
	NAME("card", mc, 2, false, T_GHES),
	NAME("node", socket, 2, false, T_GHES),
	NAME("rank", rank, 2, false, T_GHES),
	NAME("chipID", chip_id, 2, false, T_GHES),
	NAME("column", column, 2, false, T_GHES),
	NAME("device", device, 2, false, T_GHES),
	NAME("module", dimm, 2, false, T_GHES),
	NAME("bit_pos", bit, 2, false, T_GHES),
	NAME("chip_id", chip_id, 2, false, T_GHES),
	NAME("bank_group", bank_group, 2, false, T_GHES),
	NAME("bank_address", bank, 2, false, T_GHES),
	NAME("bit_position", bit, 2, false, T_GHES),
};

/* As edac_slot, for ghes_names. */
static const unsigned char ghes_slot[64] = {
	0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 15, 3, 0, 0, 0, 0, 0, 0, 12, 0,
	0, 0, 0, 10, 0, 4, 5, 0, 0, 0, 0, 13, 0, 0, 0, 11, 7, 0, 14, 0, 0, 8,
	0, 1, 0, 6, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The longest name in ghes_names ("bank_address", "bit_position"). */
#define GHES_LONGEST 12

static const char *const spelling_names[DIAG_SP_N] = {
	[DIAG_SP_NONE] = "none", [DIAG_SP_SKX_EARLY] = "skx-early", [DIAG_SP_SKX] = "skx",
	[DIAG_SP_ADXL] = "adxl", [DIAG_SP_GHES] = "ghes", [DIAG_SP_AMD] = "amd", [DIAG_SP_SB] = "sb",
};

const char *diag_spelling_name(enum diag_spelling sp)
{
	return (unsigned)sp < DIAG_SP_N ? spelling_names[sp] : "none";
}

void diag_dram_clear(struct diag_dram *d)
{
	d->socket = d->mc = d->channel = d->sub_channel = d->dimm = RAS_DF_NONE;
	d->rank = d->bank_group = d->bank = d->row = d->column = RAS_DF_NONE;
	d->device = d->bit = d->bits = d->nibble_mask = d->chip_id = d->dpa = RAS_DF_NONE;
}

bool diag_dram_known(const struct diag_dram *d)
{
	return d->rank != RAS_DF_NONE || d->bank != RAS_DF_NONE || d->row != RAS_DF_NONE ||
	       d->column != RAS_DF_NONE;
}

/* The largest number a driver's text gives: more is not a coordinate. */
#define NUMBER_MAX (INT64_C(1) << 40)

/* What a byte is as a hex digit: its value plus one, or 0 when it is none. */
static const unsigned char hex_value1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/*
 * A number filling all of [p, end): decimal, or hex with "0x" (or always,
 * with hex). No more than NUMBER_MAX. A loop each: the base is known
 * before the first digit.
 */
static inline bool number(const char *p, const char *end, bool hex, int64_t *out)
{
	int64_t v = 0;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		hex = true;
		p += 2;
	}
	if (p == end)
		return false;
	if (hex) {
		for (; p < end; p++) {
			unsigned d = (unsigned)hex_value1[(unsigned char)*p] - 1;

			if (d > 15)
				return false;
			v = v * 16 + d;
			if (v > NUMBER_MAX)
				return false;
		}
	} else {
		for (; p < end; p++) {
			unsigned d = (unsigned)(unsigned char)*p - '0';

			if (d > 9)
				return false;
			v = v * 10 + d;
			if (v > NUMBER_MAX)
				return false;
		}
	}
	*out = v;
	return true;
}

struct parse {
	const struct name *names;
	const unsigned char *slot;      /* edac_slot or ghes_slot */
	size_t longest;                 /* the longest name's length */
	struct diag_dram *out;
	unsigned char prio[sizeof(struct diag_dram) / sizeof(int64_t)];
	unsigned tags;
};

/*
 * Where a word of len bytes (1 to 255) hashes in a table of 64 slots: its
 * first, middle and last bytes and its length, times an odd constant, the
 * product's top 6 bits.
 */
static inline unsigned name_slot(const char *w, size_t len)
{
	uint32_t x = (uint32_t)(unsigned char)w[0] | (uint32_t)(unsigned char)w[len >> 1] << 8 |
		     (uint32_t)(unsigned char)w[len - 1] << 16 | (uint32_t)len << 24;

	return (x * UINT32_C(0x4882034d)) >> 26;
}

/* Unaligned loads, as one instruction each. */
static inline uint64_t load64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t load32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint16_t load16(const char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Whether the n bytes at a and at b (n at least 1) are the same, read only within them. */
static inline __attribute__((always_inline)) bool
same_bytes(const char *a, const char *b, size_t n)
{
	/* Two loads that overlap in the middle cover n bytes of their size to twice it. */
	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8)
			if (load64(a + i) != load64(b + i))
				return false;
		return load64(a + n - 8) == load64(b + n - 8);
	}
	if (n >= 4)
		return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
	if (n >= 2)
		return load16(a) == load16(b) && load16(a + n - 2) == load16(b + n - 2);
	return a[0] == b[0];
}

/* The name w[0, len) in the table, NULL when none: the one name at its slot, if the same. */
static inline __attribute__((always_inline)) const struct name *
find_name(const struct parse *ps, const char *w, size_t len)
{
	const struct name *nm;
	unsigned i;

	if (!len || len > ps->longest || !(i = ps->slot[name_slot(w, len)]))
		return NULL;
	nm = &ps->names[i - 1];
	return nm->len == len && same_bytes(nm->name, w, len) ? nm : NULL;
}

static inline void take(struct parse *ps, const struct name *nm, const char *v, const char *end)
{
	int64_t value;
	size_t slot;

	ps->tags |= nm->tag;
	if (nm->off == NO_FIELD || !number(v, end, nm->hex, &value))
		return;
	slot = nm->off / sizeof(int64_t);
	if (nm->prio <= ps->prio[slot])
		return;
	ps->prio[slot] = nm->prio;
	*(int64_t *)((char *)ps->out + nm->off) = value;
}

/*
 * What a byte is to the reader: ' ', '\t', ',' and '\n' end a word; ':' ends
 * a name; a NUL ends the text (the copy's sentinel: the text read holds
 * none). The classes that end a word are the odd ones.
 */
enum { B_WORD = 0, B_SEP = 1, B_COLON = 2, B_END = 3 };
static const unsigned char byte_class[256] = {
	[' '] = B_SEP, ['\t'] = B_SEP, [','] = B_SEP, ['\n'] = B_SEP, [':'] = B_COLON,
	['\0'] = B_END,
};

static inline unsigned char class_of(char c)
{
	return byte_class[(unsigned char)c];
}

/*
 * The next word of [*p, end) in [*w, *we), and its first colon in *colon
 * (NULL: none); false at the end. The caller's end is before any NUL.
 * bounded: end is checked at each byte; else a NUL sits at end (the copy
 * diag_dram_from_edac_detail reads), and stops each loop without a check.
 */
static inline __attribute__((always_inline)) bool
next_word(const char **p, const char *end, const char **w, const char **we, const char **colon,
	  bool bounded)
{
	const char *q = *p;

	while ((!bounded || q < end) && class_of(*q) == B_SEP)
		q++;
	*w = q;
	while ((!bounded || q < end) && class_of(*q) == B_WORD)
		q++;
	*colon = (!bounded || q < end) && class_of(*q) == B_COLON ? q : NULL;
	while ((!bounded || q < end) && !(class_of(*q) & 1))
		q++;
	*we = *p = q;
	return *we > *w;
}

/* A name of two words ("Bank Grp:"): the word before, a space, this one. */
static const struct name *find_pair(const struct parse *ps, const char *prev, size_t prev_len,
				    const char *w, size_t len)
{
	char both[24];

	if (!prev || prev_len + 1 + len > sizeof(both))
		return NULL;
	memcpy(both, prev, prev_len);
	both[prev_len] = ' ';
	memcpy(both + prev_len + 1, w, len);
	return find_name(ps, both, prev_len + 1 + len);
}

/* Whether q is inside the word: before end (bounded) and not a separator or the end. */
#define IN_WORD(q) ((!bounded || (q) < end) && !(class_of(*(q)) & 1))

/*
 * The value word at q read as number() reads it, in the pass that finds the
 * word's end (returned): true in *ok with the number in *out when it is one.
 */
static inline __attribute__((always_inline)) const char *
value_word(const char *q, const char *end, bool hex, int64_t *out, bool *ok, bool bounded)
{
	const char *digits;
	int64_t v = 0;
	unsigned d;

	*ok = false;
	/* "0x" and at least a byte more in the word: hexadecimal. 'x' | 0x20 is 'x' for 'X' only. */
	if ((!bounded || end - q > 2) && q[0] == '0' && (q[1] | 0x20) == 'x' && IN_WORD(q + 2)) {
		hex = true;
		q += 2;
	}
	digits = q;
	if (hex) {
		for (; IN_WORD(q) && (d = (unsigned)hex_value1[(unsigned char)*q] - 1) <= 15; q++)
			if ((v = v * 16 + d) > NUMBER_MAX)
				goto rest;
	} else {
		for (; IN_WORD(q) && (d = (unsigned)(unsigned char)*q - '0') <= 9; q++)
			if ((v = v * 10 + d) > NUMBER_MAX)
				goto rest;
	}
	if (q > digits && !IN_WORD(q)) {
		*out = v;
		*ok = true;
		return q;
	}
rest:
	while (IN_WORD(q))
		q++;
	return q;
}

/* take for the value word at q, read as its end is found; returns the word's end. */
static inline __attribute__((always_inline)) const char *
take_word(struct parse *ps, const struct name *nm, const char *q, const char *end, bool bounded)
{
	int64_t value;
	size_t slot;
	bool ok;

	ps->tags |= nm->tag;
	slot = nm->off / sizeof(int64_t);
	/* Nothing to fill, or a name of higher priority filled it: the number does not matter. */
	if (nm->off == NO_FIELD || nm->prio <= ps->prio[slot]) {
		while (IN_WORD(q))
			q++;
		return q;
	}
	q = value_word(q, end, nm->hex, &value, &ok, bounded);
	if (ok) {
		ps->prio[slot] = nm->prio;
		*(int64_t *)((char *)ps->out + nm->off) = value;
	}
	return q;
}

/*
 * One pass over the words: "name:value", CPER's older "name: value", and a
 * word without a colon kept as the first half of a two-word name. A word is
 * read as next_word reads it: a name up to its first colon, the value after
 * it read as number() reads it while its end is found (no second pass).
 */
static inline __attribute__((always_inline)) void
parse_words(struct parse *ps, const char *q, const char *end, bool bounded)
{
	const char *w, *we, *colon, *prev = NULL;
	size_t prev_len = 0;

	for (;;) {
		const struct name *nm;

		while ((!bounded || q < end) && class_of(*q) == B_SEP)
			q++;
		w = q;
		while ((!bounded || q < end) && class_of(*q) == B_WORD)
			q++;
		if (!((!bounded || q < end) && class_of(*q) == B_COLON)) {
			/* Not a separator, a word byte or a colon: the end. */
			if (q == w)
				return;
			prev = w;
			prev_len = (size_t)(q - w);
			continue;
		}
		colon = q++;
		/* Only after a word without a colon (rare): else no call, even out of line. */
		nm = prev ? find_pair(ps, prev, prev_len, w, (size_t)(colon - w)) : NULL;
		prev = NULL;
		if (!nm && !(nm = find_name(ps, w, (size_t)(colon - w)))) {
			while (IN_WORD(q))
				q++;
			continue;
		}
		if (IN_WORD(q)) {
			q = take_word(ps, nm, q, end, bounded);
		} else {
			const char *save = q;

			/* The value is the next word, unless that is a name of its own. */
			if (next_word(&q, end, &w, &we, &colon, bounded) && !colon)
				take(ps, nm, w, we);
			else
				q = save;
		}
	}
}

#undef IN_WORD

/* Whether [s, end) holds "APEI location:": ghes_edac's text, read with CPER's names. */
static bool apei_location(const char *s, const char *end)
{
	static const char what[] = "APEI location:";
	const size_t n = sizeof(what) - 1;

	while ((size_t)(end - s) >= n) {
		const char *a = memchr(s, 'A', (size_t)(end - s) - n + 1);

		if (!a)
			return false;
		if (!memcmp(a, what, n))
			return true;
		s = a + 1;
	}
	return false;
}

/* The reader's start: out cleared, the table the text's spelling reads by. */
static void parse_start(struct parse *ps, bool ghes, struct diag_dram *out)
{
	ps->out = out;
	ps->tags = 0;
	diag_dram_clear(out);
	memset(ps->prio, 0, sizeof(ps->prio));
	ps->names = ghes ? ghes_names : edac_names;
	ps->slot = ghes ? ghes_slot : edac_slot;
	ps->longest = ghes ? GHES_LONGEST : EDAC_LONGEST;
}

/* The spelling of the text parsed; out cleared when nothing of DRAM was in it. */
static enum diag_spelling parse_end(const struct parse *ps, bool ghes, struct diag_dram *out)
{
	if (!diag_dram_known(out)) {
		diag_dram_clear(out);
		return DIAG_SP_NONE;
	}
	if (ghes)
		return DIAG_SP_GHES;
	if (ps->tags & T_AMD)
		return DIAG_SP_AMD;
	if (ps->tags & T_SB)
		return DIAG_SP_SB;
	if (ps->tags & T_ADXL)
		return DIAG_SP_ADXL;
	return ps->tags & T_SKX ? DIAG_SP_SKX : DIAG_SP_SKX_EARLY;
}

enum diag_spelling diag_dram_from_edac_detail(const char *detail, size_t len,
					      struct diag_dram *out)
{
	struct parse ps;
	/* Copied with a NUL after it, when it fits (nearly always): the reader's sentinel. */
	char text[1024];
	/* The text ends at its first NUL within len: nothing past it is read. */
	const char *nul = len ? memchr(detail, '\0', len) : NULL;
	const char *end = nul ? nul : detail + len;
	bool ghes = apei_location(detail, end);

	parse_start(&ps, ghes, out);
	if ((size_t)(end - detail) < sizeof(text)) {
		size_t n = (size_t)(end - detail);

		memcpy(text, detail, n);
		text[n] = '\0';
		parse_words(&ps, text, text + n, false);
	} else {
		parse_words(&ps, detail, end, true);
	}
	return parse_end(&ps, ghes, out);
}

enum diag_spelling diag_dram_from_edac_string(const char *s, size_t len, struct diag_dram *out)
{
	struct parse ps;
	bool ghes = apei_location(s, s + len);

	/* Read in place: the NUL at s[len] is the sentinel the copy above adds. */
	parse_start(&ps, ghes, out);
	parse_words(&ps, s, s + len, false);
	return parse_end(&ps, ghes, out);
}

static unsigned popcount64(uint64_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static int64_t lowest_bit(uint64_t v)
{
	int64_t i = 0;

	while (!(v & 1)) {
		v >>= 1;
		i++;
	}
	return i;
}

/* The correction mask: how many bits were corrected, and which when only one. */
static void correction_mask(const uint8_t *m, size_t len, struct diag_dram *out)
{
	unsigned n = 0;
	int64_t first = RAS_DF_NONE;

	for (size_t i = 0; i < len; i++) {
		if (!m[i])
			continue;
		if (first == RAS_DF_NONE)
			first = (int64_t)i * 8 + lowest_bit(m[i]);
		n += popcount64(m[i]);
	}
	if (!n)
		return;
	out->bits = n;
	if (n == 1)
		out->bit = first;
}

void diag_dram_from_cxl(const struct diag_cxl_dram *in, struct diag_dram *out)
{
	/* A record without validity flags: every field as given. */
	uint64_t v = in->validity == RAS_DF_NONE ? ~0ULL : (uint64_t)in->validity;

	diag_dram_clear(out);
	out->dpa = in->dpa;
	if (v & DIAG_CXL_VALID_CHANNEL)
		out->channel = in->channel;
	if (v & DIAG_CXL_VALID_SUB_CHANNEL)
		out->sub_channel = in->sub_channel;
	if (v & DIAG_CXL_VALID_RANK)
		out->rank = in->rank;
	if (v & DIAG_CXL_VALID_BANK_GROUP)
		out->bank_group = in->bank_group;
	if (v & DIAG_CXL_VALID_BANK)
		out->bank = in->bank;
	if (v & DIAG_CXL_VALID_ROW)
		out->row = in->row;
	if (v & DIAG_CXL_VALID_COLUMN)
		out->column = in->column;
	if ((v & DIAG_CXL_VALID_NIBBLE) && in->nibble_mask != RAS_DF_NONE && in->nibble_mask > 0) {
		out->nibble_mask = in->nibble_mask;
		/* One nibble in error: one x4 device. */
		if (popcount64((uint64_t)in->nibble_mask) == 1)
			out->device = lowest_bit((uint64_t)in->nibble_mask);
	}
	if ((v & DIAG_CXL_VALID_CORRECTION_MASK) && in->cor_mask)
		correction_mask(in->cor_mask, in->cor_mask_len, out);
}

void diag_dram_from_cper(const struct diag_cper_mem *in, struct diag_dram *out)
{
	diag_dram_clear(out);
	out->socket = in->node;
	out->mc = in->card;
	out->dimm = in->module;
	out->rank = in->rank;
	/* The bank split into group and address when the firmware says so, else as one number. */
	out->bank_group = in->bank_group;
	out->bank = in->bank_address != RAS_DF_NONE ? in->bank_address : in->bank;
	out->device = in->device;
	out->row = in->row;
	out->column = in->column;
	out->bit = in->bit_pos;
	out->chip_id = in->chip_id;
}
