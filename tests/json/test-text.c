/* SPDX-License-Identifier: MIT */
/*
 * lib/text.c and lib/json.c: the terminal-safe form of record text and the
 * one JSON encoder. Escape sequences, C1 controls, bidirectional overrides,
 * line separators, NULs and invalid UTF-8 come out visible (text) or escaped
 * (JSON); valid UTF-8 passes through; a decoded field keeps one JSON type
 * whatever its value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/edac.h"
#include "decoders/mce.h"
#include "lib/json.h"
#include "lib/text.h"
#include "tests/tap.h"

#define S(lit) lit, sizeof(lit) - 1

static void check_safe(const char *s, size_t len, const char *want, const char *what)
{
	char got[256], *written = NULL;
	size_t need = ras_text_safe(got, sizeof(got), s, len), n = 0;
	FILE *f = open_memstream(&written, &n);

	tap_is_str(got, want, "text %s", what);
	/* What the log writes (ras_text_write, with its fast path for printable ASCII) is the same. */
	ras_text_write(f, s, len);
	fclose(f);
	tap_is_str(written, want, "text %s: written", what);
	free(written);
	tap_is_int(need, strlen(want), "text %s: length", what);
	tap_is_int(ras_text_plain(s, len), !strcmp(want, s) && strlen(s) == len, "text %s: plain", what);
}

static char *json_of(const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ras_json_string(f, s, len);
	fclose(f);
	return buf;
}

static void check_json(const char *s, size_t len, const char *want, const char *what)
{
	char *got = json_of(s, len);

	tap_is_str(got, want, "json %s", what);
	free(got);
}

/* Cut to fit: never inside a character or an escape, always terminated. */
static void check_cut(void)
{
	char small[8];
	size_t need;

	need = ras_text_safe(small, 5, S("ab\x1b[2J"));
	tap_is_str(small, "ab", "a cut falls before an escape that does not fit whole");
	ras_text_safe(small, sizeof(small), S("ab\x1b[2J"));
	tap_is_str(small, "ab\\x1b[", "and after what fits");
	tap_is_int(need, 2 + 4 + 3, "the whole length is still returned");
	need = ras_text_safe(small, 4, S("a\xc3\xa9z"));
	tap_is_str(small, "a\xc3\xa9", "a cut keeps a whole UTF-8 character");
	ras_text_safe(small, 3, S("a\xc3\xa9z"));
	tap_is_str(small, "a", "and drops one that does not fit");
	tap_is_int(ras_text_safe(NULL, 0, S("\x1b")), 4, "size 0 only measures");
}

static void check_text(void)
{
	check_safe(S("DIMM_A1 \xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
		   "DIMM_A1 \xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "valid UTF-8 is kept");
	check_safe(S("\x1b]0;pwned\x07\x1b[2J"), "\\x1b]0;pwned\\x07\\x1b[2J", "OSC title and clear screen");
	check_safe(S("a\nb\rc\td"), "a\\x0ab\\x0dc\\x09d", "newline, return and tab");
	check_safe(S("x\0y"), "x\\x00y", "a NUL inside the length");
	check_safe(S("del\x7f"), "del\\x7f", "DEL");
	check_safe(S("\x9b" "31m"), "\\x9b31m", "a raw C1 CSI byte (not UTF-8)");
	check_safe(S("\xc2\x9b" "31m"), "\\xc2\\x9b31m", "U+009B CSI in UTF-8");
	check_safe(S("\xe2\x80\xae" "evil"), "\\xe2\\x80\\xaeevil", "U+202E right-to-left override");
	check_safe(S("\xe2\x81\xa6x"), "\\xe2\\x81\\xa6x", "U+2066 isolate");
	check_safe(S("a\xe2\x80\xa8" "b"), "a\\xe2\\x80\\xa8b", "U+2028 line separator");
	check_safe(S("\xc0\xaf"), "\\xc0\\xaf", "an overlong form");
	check_safe(S("\xed\xa0\x80"), "\\xed\\xa0\\x80", "a UTF-16 surrogate");
	check_safe(S("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80", "past U+10FFFF");
	check_safe(S("\xe2\x82"), "\\xe2\\x82", "a sequence cut short");
	check_safe(S("\xff\xfe"), "\\xff\\xfe", "bytes that never begin UTF-8");
	check_safe(S("back\\slash \"quoted\""), "back\\slash \"quoted\"", "backslashes and quotes stay");
	check_cut();
}

static void check_json_strings(void)
{
	char *got;

	check_json(S("plain \xc3\xa9"), "\"plain \xc3\xa9\"", "keeps UTF-8");
	check_json(S("q\"b\\"), "\"q\\\"b\\\\\"", "quote and backslash");
	check_json(S("l1\nl2\r"), "\"l1\\u000al2\\u000d\"", "a newline cannot split a line");
	check_json(S("\x1b[2J\x07"), "\"\\u001b[2J\\u0007\"", "ESC and BEL");
	check_json(S("a\0b"), "\"a\\u0000b\"", "a NUL is kept, escaped");
	check_json(S("\xc2\x9b\xe2\x80\xae\xe2\x80\xa8"), "\"\\u009b\\u202e\\u2028\"",
		   "C1, bidi override and line separator as \\u escapes");
	check_json(S("\xff"), "\"\\u00ff\"", "an invalid byte as \\u00XX");
	check_json(NULL, 0, "\"\"", "NULL is the empty string");
	{
		char *buf = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&buf, &n);

		ras_json_key(f, "col\"},\"forged\":\"1");
		fclose(f);
		tap_is_str(buf, "\"col\\\"},\\\"forged\\\":\\\"1\":", "a key from a column name is escaped");
		free(buf);
	}
	got = json_of(S("\x80"));
	tap_is_str(got, "\"\\u0080\"", "a lone continuation byte");
	free(got);
}

static char *dfield_json(const struct ras_dfield *df, const void *d)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ras_json_dfield(f, df, d);
	fclose(f);
	return buf;
}

static const struct ras_dfield *find(const struct ras_dfield *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

/* A register is "0x..." of its 64 bits whatever its value: never a number, never negative. */
static void check_dfields(void)
{
	struct edac_decoded e = { 0 };
	struct mce_decoded m = { 0 };
	const struct ras_dfield *addr = find(edac_dfields, edac_n_dfields, "address");
	const struct ras_dfield *synd = find(edac_dfields, edac_n_dfields, "syndrome");
	const struct ras_dfield *mc = find(edac_dfields, edac_n_dfields, "mc_index");
	const struct ras_dfield *maddr = find(mce_dfields, mce_n_dfields, "addr");
	char *got;

	e.address = 0x1000;
	e.syndrome = (int64_t)0xfffffffffffff000ULL;
	e.mc_index = 3;
	m.addr = 0x1234;
	got = dfield_json(addr, &e);
	tap_is_str(got, "\"0x1000\"", "edac address 0x1000 is a hex string, not 4096");
	free(got);
	got = dfield_json(synd, &e);
	tap_is_str(got, "\"0xfffffffffffff000\"", "a syndrome of -4096 reads 0xfffffffffffff000");
	free(got);
	got = dfield_json(mc, &e);
	tap_is_str(got, "3", "a controller index is a number");
	free(got);
	got = dfield_json(maddr, &m);
	tap_is_str(got, "\"0x1234\"", "decoded.addr of a machine check is a hex string");
	free(got);
	e.address = RAS_DF_NONE;
	got = dfield_json(addr, &e);
	tap_is_str(got, "null", "an unknown address is null");
	free(got);
}

int main(void)
{
	check_text();
	check_json_strings();
	check_dfields();
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
