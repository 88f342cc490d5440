/* SPDX-License-Identifier: MIT */
/*
 * diag_dram_from_edac_detail against the reader it replaced (issue 39,
 * tests/diag/dram_ref.h) on random text: driver names of every spelling,
 * the names cut, grown or with a byte changed, values in either base, past
 * 2^40, malformed, every separator, stray colons, NULs and high bytes, the
 * length cut anywhere, texts past 1,024 bytes too. Both must give the same
 * spelling and every member. diag_dram_from_edac_string, the reader in
 * place, on each text up to its first NUL (copied to a block of its exact
 * size, NUL included: a sanitizer sees any read past it), the same.
 * A fixed seed: the same texts at every run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag/dram.h"
#include "tests/diag/dram_ref.h"
#include "tests/rng.h"
#include "tests/tap.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned below(unsigned n)
{
	return rng_below(&rng, n);
}

/* Every name either table holds, the halves of the two-word ones, and ghes's marker. */
static const char *const words[] = {
	"Cs", "ba", "bg", "ha", "Row", "col", "imc", "row", "Bank", "rank", "ChipId", "Column",
	"socket", "RankMul", "Bank Grp", "Bank Addr", "BankGroup", "ChannelId", "bank_addr",
	"ChipSelect", "DimmRankId", "DimmSlotId", "SubChannel", "bank_group", "RankAddress",
	"channel_mask", "SystemAddress", "ChannelAddress", "PhysicalRankId", "ProcessorSocketId",
	"MemoryControllerId", "bank", "card", "node", "chipID", "column", "device", "module",
	"bit_pos", "chip_id", "bank_address", "bit_position", "Grp", "Addr", "APEI",
	"APEI location:", "location", "err_code", "retry_rd_err_log", "x", "",
};
static const char *const values[] = {
	"0", "1", "7", "12", "0x0", "0x1a2b", "0X3F8", "abc", "ABCDEF", "0x", "0xg1", "-1", "+1",
	"1.5", "1099511627776", "1099511627777", "0x10000000000", "0x10000000001",
	"99999999999999999999", "0xffffffffffffffffffff", "0000000000000000000001", "1a", "ff",
	"0x00000000001a2b", "0:91",
};
static const char seps[] = { ' ', ' ', ' ', '\t', ',', '\n', ':', 'a', '\xe9' };

static void add(char *t, size_t *n, size_t cap, const char *s, size_t len)
{
	if (*n + len > cap)
		len = cap - *n;
	memcpy(t + *n, s, len);
	*n += len;
}

/* A name as written, or cut, grown or with one byte changed. */
static void add_name(char *t, size_t *n, size_t cap)
{
	char w[32];
	size_t len;

	snprintf(w, sizeof(w), "%s", words[below(sizeof(words) / sizeof(words[0]))]);
	len = strlen(w);
	switch (below(8)) {
	case 0:
		if (len)
			len = below((unsigned)len);
		break;
	case 1:
		if (len + 1 < sizeof(w))
			w[len++] = (char)"a_Zd0 "[below(6)];
		break;
	case 2:
		if (len)
			w[below((unsigned)len)] ^= (char)(1 << below(7));
		break;
	default:
		break;
	}
	add(t, n, cap, w, len);
}

/* A text of names, colons, values and separators; or, one time in eight, random bytes. */
static size_t make_text(char *t, size_t cap)
{
	size_t n = 0;
	unsigned tokens = below(14);

	if (!below(8)) {
		n = below((unsigned)cap + 1);
		for (size_t i = 0; i < n; i++)
			t[i] = (char)(below(4) ? " :,0x1abrkBR\t\n"[below(14)] : (int)below(256));
		return n;
	}
	if (!below(6))
		add(t, &n, cap, "APEI location: ", 15);
	for (unsigned k = 0; k < tokens && n < cap; k++) {
		add_name(t, &n, cap);
		if (below(6))
			add(t, &n, cap, ":", 1);
		if (!below(4)) {
			unsigned spaces = 1 + below(3);

			for (unsigned s = 0; s < spaces; s++)
				add(t, &n, cap, &seps[below(6)], 1);
		}
		if (below(5)) {
			const char *v = values[below(sizeof(values) / sizeof(values[0]))];

			add(t, &n, cap, v, strlen(v));
		}
		/* Now and then a NUL: the text ends there whatever len says. */
		add(t, &n, cap, below(40) ? &seps[below(sizeof(seps))] : "", 1);
	}
	return n;
}

/* Whether the reader in place reads text[0, len) up to its first NUL otherwise than sw, want. */
static bool string_differs(const char *text, size_t len, enum diag_spelling sw,
			   const struct diag_dram *want)
{
	size_t n = strnlen(text, len);
	char *s = malloc(n + 1);
	struct diag_dram got;
	bool differs;

	if (!s)
		return true;
	memcpy(s, text, n);
	s[n] = '\0';
	memset(&got, 0x5a, sizeof(got));
	differs = diag_dram_from_edac_string(s, n, &got) != sw || memcmp(&got, want, sizeof(got));
	free(s);
	return differs;
}

int main(void)
{
	enum { ROUNDS = 400000 };
	unsigned bad = 0, bad_string = 0, known = 0, long_texts = 0;
	unsigned per_spelling[DIAG_SP_N] = { 0 };

	for (unsigned r = 0; r < ROUNDS; r++) {
		char text[1600];
		size_t n = make_text(text, 160);

		/* One in 32 past 1,024 bytes: the reader's other path (no copy, bounds checked). */
		if (!below(32)) {
			size_t want = 1000 + below(500);

			while (n < want)
				n += make_text(text + n, want - n);
			/* No NUL, or the text would end before 1,024 bytes. */
			for (size_t i = 0; i < n; i++)
				text[i] = text[i] ? text[i] : ' ';
		}
		/* The whole text, or cut anywhere (the reader must not look past len). */
		size_t len = below(4) ? n : below((unsigned)n + 1);
		struct diag_dram got, want;
		enum diag_spelling sg, sw;

		memset(&got, 0x5a, sizeof(got));
		memset(&want, 0x5a, sizeof(want));
		sg = diag_dram_from_edac_detail(text, len, &got);
		sw = ref_dram_from_edac_detail(text, len, &want);
		if (sg != sw || memcmp(&got, &want, sizeof(got))) {
			if (bad++ < 5)
				tap_diag("round %u differs: \"%.*s\" (%zu bytes): %s, expected %s", r,
					 (int)len, text, len, diag_spelling_name(sg),
					 diag_spelling_name(sw));
		}
		if (string_differs(text, len, sw, &want) && bad_string++ < 5)
			tap_diag("round %u differs in place: \"%.*s\" (%zu bytes)", r, (int)len, text,
				 len);
		if ((unsigned)sw < DIAG_SP_N)
			per_spelling[sw]++;
		known += sw != DIAG_SP_NONE;
		long_texts += strnlen(text, len) >= 1024;
	}
	tap_ok(bad == 0, "%u random texts read as the reader before issue 39 read them (%u differ)",
	       ROUNDS, bad);
	tap_ok(bad_string == 0, "and read in place, up to their first NUL, the same (%u differ)",
	       bad_string);
	/* The texts reach every spelling, so the comparison covers each table and tag. */
	for (unsigned sp = 0; sp < DIAG_SP_N; sp++)
		tap_ok(per_spelling[sp] > 100, "%u texts read as %s", per_spelling[sp],
		       diag_spelling_name((enum diag_spelling)sp));
	tap_ok(known > ROUNDS / 20, "%u of them with coordinates", known);
	tap_ok(long_texts > 1000, "%u of them past 1,024 bytes", long_texts);
	return tap_done();
}
