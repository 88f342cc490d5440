/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <string.h>
#include "edac_dram.h"
#include "dfield.h"

/*
 * Each name a driver uses, and the member it fills; the first word naming a
 * member wins, but for a word of a higher precedence: ghes_edac's
 * bank_address over its bank (which then holds the group too).
 */
#define NAME(n, member) { n, sizeof(n) - 1, offsetof(struct edac_dram, member), 0 }
#define OVER(n, member) { n, sizeof(n) - 1, offsetof(struct edac_dram, member), 1 }
static const struct {
	const char *name;
	size_t len;
	size_t off;
	int precedence;
} names[] = {
	NAME("socket", socket),
	NAME("ProcessorSocketId", socket),
	NAME("imc", imc),
	NAME("MemoryControllerId", imc),
	NAME("rank", rank),
	NAME("PhysicalRankId", rank),
	NAME("bg", bank_group),
	NAME("BankGroup", bank_group),
	NAME("ba", bank),
	NAME("Bank", bank),
	NAME("row", row),
	NAME("Row", row),
	NAME("col", column),
	NAME("Column", column),
	NAME("node", node),
	NAME("card", card),
	NAME("module", module),
	NAME("device", device),
	NAME("bank", bank),
	OVER("bank_address", bank),
	NAME("bank_group", bank_group),
	NAME("column", column),
};

#define MEMBERS (sizeof(struct edac_dram) / sizeof(int64_t))

/* A decimal or 0x-hexadecimal number filling all of [p, end); false otherwise or past 2^40. */
static bool number(const char *p, const char *end, int64_t *out)
{
	int base = 10;
	int64_t v = 0;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (p == end)
		return false;
	for (; p < end; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			return false;
		v = v * base + d;
		if (v > (INT64_C(1) << 40))
			return false;
	}
	*out = v;
	return true;
}

/* set_by[m]: the precedence of the word that set member m; -1 while unset. */
static void take_word(const char *w, const char *end, struct edac_dram *out, int set_by[MEMBERS])
{
	const char *colon = w;
	int64_t v;

	while (colon < end && *colon != ':')
		colon++;
	if (colon == end || !number(colon + 1, end, &v))
		return;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t m = names[i].off / sizeof(int64_t);

		/* The length first: most names are told apart by it alone. */
		if (names[i].len == (size_t)(colon - w) && !memcmp(w, names[i].name, names[i].len) &&
		    names[i].precedence > set_by[m]) {
			*(int64_t *)((char *)out + names[i].off) = v;
			set_by[m] = names[i].precedence;
		}
	}
}

bool edac_dram_of_detail(const char *detail, size_t len, struct edac_dram *out)
{
	const char *p = detail, *end = detail + len;
	int set_by[MEMBERS];

	for (size_t m = 0; m < MEMBERS; m++)
		set_by[m] = -1;
	out->socket = out->imc = out->rank = out->bank_group = RAS_DF_NONE;
	out->bank = out->row = out->column = RAS_DF_NONE;
	out->node = out->card = out->module = out->device = RAS_DF_NONE;
	while (p < end && *p) {
		const char *w;

		while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
			p++;
		w = p;
		while (p < end && *p && *p != ' ' && *p != '\t' && *p != ',')
			p++;
		if (p > w)
			take_word(w, p, out, set_by);
	}
	return out->row != RAS_DF_NONE && out->bank != RAS_DF_NONE;
}
