/* SPDX-License-Identifier: MIT */
/*
 * lib/textesc: the one rule for stored text in JSON and HTML. Valid UTF-8 is
 * kept, an invalid byte is the code point of its value, what the language
 * cannot hold is escaped; a report's hostile strings stay text.
 */
#include <stdint.h>
#include <stdlib.h>
#include "lib/textesc.h"
#include "tests/tap.h"

static char *render(void (*fn)(FILE *, const char *, size_t), const char *s, size_t len)
{
	char *out = NULL;
	size_t n;
	FILE *f = open_memstream(&out, &n);

	fn(f, s, len);
	fclose(f);
	return out;
}

static void is(void (*fn)(FILE *, const char *, size_t), const char *in, size_t len, const char *want,
	       const char *what)
{
	char *got = render(fn, in, len);

	tap_ok(!strcmp(got, want), "%s (got '%s', want '%s')", what, got, want);
	free(got);
}

int main(void)
{
	is(ras_html_fputs, "<script>&\"'", SIZE_MAX, "&lt;script&gt;&amp;&quot;&#39;", "HTML: markup as entities");
	is(ras_html_fputs, "a\x01" "b\x7f" "c\td", SIZE_MAX, "a&#x2401;b&#x2421;c\td",
	   "HTML: C0 and DEL as their visible pictures, tab kept");
	is(ras_html_fputs, "DIMM \xc3\xa9\xe2\x82\xac", SIZE_MAX, "DIMM \xc3\xa9\xe2\x82\xac", "HTML: valid UTF-8 kept");
	is(ras_html_fputs, "x\xff\xc3(", SIZE_MAX, "x&#xff;&#xc3;(", "HTML: invalid bytes as U+0080..U+00FF");
	is(ras_html_fputs, "abcdef", 3, "abc", "HTML: stops at len");
	is(ras_json_fputs, "q\"b\\\x01\x7f", SIZE_MAX, "\"q\\\"b\\\\\\u0001\\u007f\"", "JSON: quote, backslash, controls");
	is(ras_json_fputs, "x\xff\xed\xa0\x80", SIZE_MAX, "\"x\\u00ff\\u00ed\\u00a0\\u0080\"",
	   "JSON: invalid bytes (and a UTF-16 surrogate) as U+0080..U+00FF");
	is(ras_json_fputs, "\xf0\x9f\x92\xbe", SIZE_MAX, "\"\xf0\x9f\x92\xbe\"", "JSON: a 4-byte sequence kept");
	tap_plan(tap_count);
	return tap_failed ? 1 : 0;
}
