/* SPDX-License-Identifier: MIT */
/*
 * Stored text as HTML, by lib/text.h's one rule of what is data and what
 * could act: a plain character is written as it is, the five that HTML
 * reads as markup as entities; a control character (lib/text.c's list:
 * C0, DEL, C1, the line separators, the bidirectional overrides) and a byte
 * that is not UTF-8 as a numeric reference a reader sees: C0 as its visible
 * picture (U+2400 + c, tab and newline kept), every other one by its code
 * point (an invalid byte by its value), so nothing can reorder or hide what
 * follows it on the page.
 */
#include <string.h>
#include "lib/text.h"
#include "report.h"

static void plain(FILE *f, const char *s, size_t len)
{
	if (len != 1) {
		fwrite(s, 1, len, f);
		return;
	}
	switch (*s) {
	case '&': fputs("&amp;", f); break;
	case '<': fputs("&lt;", f); break;
	case '>': fputs("&gt;", f); break;
	case '"': fputs("&quot;", f); break;
	case '\'': fputs("&#39;", f); break;
	default: fputc(*s, f);
	}
}

/* Printable ASCII that HTML reads as text, by byte. */
static bool text_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '&' && c != '<' && c != '>' && c != '"' && c != '\'';
}

/* How many bytes from s are printable ASCII that HTML reads as text (written as they are). */
static size_t ascii_run(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && text_byte((unsigned char)s[n]))
		n++;
	return n;
}

void rpt_html_text(FILE *f, const char *s, size_t len)
{
	size_t n;
	uint32_t cp;

	for (size_t i = 0; s && i < len && s[i]; i += n) {
		/* A run at once: --part's records are megabytes of it (one fputc each took seconds). */
		if ((n = ascii_run(s + i, len - i)) > 0) {
			fwrite(s + i, 1, n, f);
			continue;
		}
		switch (ras_text_next(s + i, strnlen(s + i, len - i), &n, &cp)) {
		case RAS_TEXT_PLAIN:
			plain(f, s + i, n);
			break;
		case RAS_TEXT_CONTROL:
			if (cp == '\t' || cp == '\n')
				fputc((int)cp, f);
			else
				fprintf(f, "&#x%x;", cp < 0x20 ? 0x2400 + cp : cp == 0x7f ? 0x2421 : cp);
			break;
		default:
			fprintf(f, "&#x%x;", cp);
		}
	}
}
