/* SPDX-License-Identifier: MIT */
/*
 * diag/dram.c's EDAC detail reader as it was before issue 39 made it
 * cheaper (binary search of the names, one loop for both bases): kept
 * frozen, as the reference tests/diag/test-dram-ref.c compares the
 * current reader with on random text. Not built on its own.
 */
#ifndef RAS_TEST_DRAM_REF_H
#define RAS_TEST_DRAM_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "diag/dram.h"

#define M(member) offsetof(struct diag_dram, member)
#define NO_FIELD ((size_t)-1)

/* Which spelling a name belongs to (a bit each), to tell them apart. */
enum { T_EARLY = 1, T_SKX = 2, T_ADXL = 4, T_GHES = 8, T_AMD = 16, T_SB = 32 };

/*
 * Each name a driver writes and the member it fills. A member takes the
 * value of its highest-priority name (ADXL lists a channel's rank and the
 * DIMM's rank; CPER the raw bank and its split), else the first word.
 * hex: the number is hexadecimal even without "0x" (skx's row and col).
 * Each table is sorted by the name's length, then its bytes (memcmp's
 * order, so by key too): find_name halves it. tests/diag/test-dram-golden
 * reads every name.
 */
#define KEY(n) ((uint16_t)((sizeof(n) - 1) << 8 | (unsigned char)(n)[0]))
#define NAME(n, member, prio, hex, tag) { n, KEY(n), sizeof(n) - 1, M(member), prio, hex, tag }
#define SKIP(n, tag) { n, KEY(n), sizeof(n) - 1, NO_FIELD, 0, false, tag }
struct name {
	const char *name;
	uint16_t key;           /* the length and the first byte: most names differ in these */
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

/* A number filling all of [p, end): decimal, or hex with "0x" (or always, with hex). No more than 2^40. */
static inline bool number(const char *p, const char *end, bool hex, int64_t *out)
{
	int64_t v = 0;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		hex = true;
		p += 2;
	}
	if (p == end)
		return false;
	for (; p < end; p++) {
		unsigned d = (unsigned)(unsigned char)*p - '0';

		if (d > 9) {
			/* 'a' to 'f' or 'A' to 'F': one bit apart. */
			d = (unsigned)((unsigned char)*p | 0x20) - 'a';
			if (!hex || d > 5)
				return false;
			d += 10;
		}
		v = hex ? v * 16 + d : v * 10 + d;
		if (v > (INT64_C(1) << 40))
			return false;
	}
	*out = v;
	return true;
}

struct parse {
	const struct name *names;
	size_t n_names;
	struct diag_dram *out;
	unsigned char prio[sizeof(struct diag_dram) / sizeof(int64_t)];
	unsigned tags;
};

/* The name w[0, len) in the table, by halves (sorted by key, then bytes); NULL when none. */
static inline const struct name *find_name(const struct parse *ps, const char *w, size_t len)
{
	size_t lo = 0, hi = ps->n_names;
	unsigned key;

	if (!len || len > 255)
		return NULL;
	key = (unsigned)len << 8 | (unsigned char)w[0];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct name *nm = &ps->names[mid];
		int c = key != nm->key ? (key < nm->key ? -1 : 1) : memcmp(w + 1, nm->name + 1, len - 1);

		if (!c)
			return nm;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
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

/* What a byte is to the reader: ' ', '\t', ',' and '\n' end a word; ':' ends a name. */
enum { B_WORD, B_SEP, B_COLON };
static const unsigned char byte_class[256] = {
	[' '] = B_SEP, ['\t'] = B_SEP, [','] = B_SEP, ['\n'] = B_SEP, [':'] = B_COLON,
};

static inline unsigned char class_of(char c)
{
	return byte_class[(unsigned char)c];
}

/*
 * The next word of [*p, end) in [*w, *we), and its first colon in *colon
 * (NULL: none); false at the end. The caller's end is before any NUL.
 */
static inline bool next_word(const char **p, const char *end, const char **w, const char **we,
		      const char **colon)
{
	const char *q = *p;

	while (q < end && class_of(*q) == B_SEP)
		q++;
	*w = q;
	while (q < end && class_of(*q) == B_WORD)
		q++;
	*colon = q < end && class_of(*q) == B_COLON ? q : NULL;
	while (q < end && class_of(*q) != B_SEP)
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

/*
 * One pass over the words: "name:value", CPER's older "name: value", and a
 * word without a colon kept as the first half of a two-word name.
 */
static void parse_words(struct parse *ps, const char *p, const char *end)
{
	const char *w, *we, *colon, *prev = NULL;
	size_t prev_len = 0;

	while (next_word(&p, end, &w, &we, &colon)) {
		const struct name *nm;

		if (!colon) {
			prev = w;
			prev_len = (size_t)(we - w);
			continue;
		}
		nm = find_pair(ps, prev, prev_len, w, (size_t)(colon - w));
		prev = NULL;
		if (!nm && !(nm = find_name(ps, w, (size_t)(colon - w))))
			continue;
		if (colon + 1 < we) {
			take(ps, nm, colon + 1, we);
		} else {
			const char *save = p;

			/* The value is the next word, unless that is a name of its own. */
			if (next_word(&p, end, &w, &we, &colon) && !colon)
				take(ps, nm, w, we);
			else
				p = save;
		}
	}
}

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

static enum diag_spelling ref_dram_from_edac_detail(const char *detail, size_t len,
					      struct diag_dram *out)
{
	struct parse ps = { .out = out };
	/* The text ends at its first NUL within len: nothing past it is read. */
	const char *nul = len ? memchr(detail, '\0', len) : NULL;
	const char *end = nul ? nul : detail + len;
	bool ghes = apei_location(detail, end);

	diag_dram_clear(out);
	memset(ps.prio, 0, sizeof(ps.prio));
	ps.names = ghes ? ghes_names : edac_names;
	ps.n_names = ghes ? sizeof(ghes_names) / sizeof(ghes_names[0])
			  : sizeof(edac_names) / sizeof(edac_names[0]);
	parse_words(&ps, detail, end);
	if (!diag_dram_known(out)) {
		diag_dram_clear(out);
		return DIAG_SP_NONE;
	}
	if (ghes)
		return DIAG_SP_GHES;
	if (ps.tags & T_AMD)
		return DIAG_SP_AMD;
	if (ps.tags & T_SB)
		return DIAG_SP_SB;
	if (ps.tags & T_ADXL)
		return DIAG_SP_ADXL;
	return ps.tags & T_SKX ? DIAG_SP_SKX : DIAG_SP_SKX_EARLY;
}


#endif
