/* SPDX-License-Identifier: MIT */
/*
 * report/html_text.c: stored text as HTML by lib/text.h's rule. Markup is
 * entities, valid UTF-8 is kept, a control character or an invalid byte is a
 * visible numeric reference; a report's hostile strings stay text.
 */
#include <stdint.h>
#include <stdlib.h>
#include "lib/text.h"
#include "report/report.h"
#include "tests/tap.h"

static void is(const char *in, size_t len, const char *want, const char *what)
{
	char *got = NULL;
	size_t n;
	FILE *f = open_memstream(&got, &n);

	rpt_html_text(f, in, len);
	fclose(f);
	tap_ok(!strcmp(got, want), "%s (got '%s', want '%s')", what, got, want);
	free(got);
}

/* The rule one character at a time (the writer before it went 16 bytes at a time). */
static void reference(FILE *f, const char *s, size_t len)
{
	size_t n;
	uint32_t cp;

	for (size_t i = 0; i < len; i += n) {
		switch (ras_text_next(s + i, len - i, &n, &cp)) {
		case RAS_TEXT_PLAIN:
			if (n == 1 && s[i] == '&')
				fputs("&amp;", f);
			else if (n == 1 && s[i] == '<')
				fputs("&lt;", f);
			else if (n == 1 && s[i] == '>')
				fputs("&gt;", f);
			else if (n == 1 && s[i] == '"')
				fputs("&quot;", f);
			else if (n == 1 && s[i] == '\'')
				fputs("&#39;", f);
			else
				fwrite(s + i, 1, n, f);
			break;
		case RAS_TEXT_CONTROL:
			if (cp == '\t' || cp == '\n')
				fputc(s[i], f);
			else
				fprintf(f, "&#x%x;", cp < 0x20 ? 0x2400 + cp : cp == 0x7f ? 0x2421 : cp);
			break;
		default:
			fprintf(f, "&#x%x;", cp);
		}
	}
}

/* What rpt_html_text and reference write for s[0..len) (no NUL in it). */
static bool same(const char *s, size_t len)
{
	char *a = NULL, *b = NULL;
	size_t na, nb;
	FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb);
	bool ok;

	rpt_html_text(fa, s, len);
	reference(fb, s, len);
	fclose(fa);
	fclose(fb);
	ok = na == nb && !memcmp(a, b, na);
	free(a);
	free(b);
	return ok;
}

/*
 * Each character to write otherwise at each place of a 40-byte text, and
 * runs of them: the blocks of 16 bytes, their edges and the tail after them
 * (a character of UTF-8 across an edge too).
 */
static void places(void)
{
	static const char *const odd[] = {
		"&", "<", ">", "\"", "'", "\t", "\n", "\x01", "\x1b", "\x7f", "\xc3\xa9",
		"\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xe2\x80\xae", "\xc2\x9b", "\xff", "\xc3(",
	};
	char s[64];
	unsigned bad = 0, tried = 0;

	for (size_t k = 0; k < sizeof(odd) / sizeof(odd[0]); k++) {
		size_t w = strlen(odd[k]);

		for (size_t at = 0; at + w <= 40; at++) {
			memset(s, 'a', 40);
			memcpy(s + at, odd[k], w);
			bad += !same(s, 40);
			/* The same character filling the rest of the text from there. */
			for (size_t j = at; j + w <= 40; j += w)
				memcpy(s + j, odd[k], w);
			bad += !same(s, 40);
			tried += 2;
		}
	}
	/* A JSON line's beginnings, cut at every length. */
	static const char line[] = "{\"a\":\"<b>\",\"c\":\"d&e\",\"f'g\":1}\xe2\x82\xac\x01xyz";

	for (size_t len = 0; len < sizeof(line); len++) {
		bad += !same(line, len);
		tried++;
	}
	tap_ok(!bad, "%u texts of 0 to 40 bytes written as one character at a time writes them "
	       "(%u differ)", tried, bad);
}

int main(void)
{
	places();
	is("<script>&\"'", SIZE_MAX, "&lt;script&gt;&amp;&quot;&#39;", "markup as entities");
	is("a\x01" "b\x7f" "c\td\x1b[2J", SIZE_MAX, "a&#x2401;b&#x2421;c\td&#x241b;[2J",
	   "C0 and DEL as their visible pictures, tab kept");
	is("DIMM \xc3\xa9\xe2\x82\xac", SIZE_MAX, "DIMM \xc3\xa9\xe2\x82\xac", "valid UTF-8 kept");
	is("x\xff\xc3(", SIZE_MAX, "x&#xff;&#xc3;(", "invalid bytes as U+0080..U+00FF");
	is("a\xe2\x80\xae" "b\xc2\x9b", SIZE_MAX, "a&#x202e;b&#x9b;",
	   "a bidirectional override and a C1 control as references, not characters");
	is("abcdef", 3, "abc", "stops at len");
	is(NULL, 0, "", "NULL is empty");
	tap_plan(tap_count);
	return tap_failed ? 1 : 0;
}
