/* SPDX-License-Identifier: MIT */
/*
 * report/html_text.c: stored text as HTML by lib/text.h's rule. Markup is
 * entities, valid UTF-8 is kept, a control character or an invalid byte is a
 * visible numeric reference; a report's hostile strings stay text.
 */
#include <stdint.h>
#include <stdlib.h>
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

int main(void)
{
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
