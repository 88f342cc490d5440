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

/*
 * The text gathered and written in pieces of 4 KiB: a --part's records are
 * 190 MB of HTML with an entity every few bytes (a JSON line's quotes), one
 * stdio call each took a fifth of the report.
 */
struct out {
	FILE *f;
	size_t n;
	char b[4096];
};

static void put(struct out *o, const char *s, size_t len)
{
	if (o->n + len > sizeof(o->b)) {
		fwrite(o->b, 1, o->n, o->f);
		o->n = 0;
		if (len > sizeof(o->b)) {
			fwrite(s, 1, len, o->f);
			return;
		}
	}
	memcpy(o->b + o->n, s, len);
	o->n += len;
}

/* "&#x2400;": a numeric reference in lowercase hex. */
static void put_ref(struct out *o, uint32_t cp)
{
	char tmp[16], *e = tmp + sizeof(tmp), *p = e;

	*--p = ';';
	do {
		*--p = "0123456789abcdef"[cp & 0xf];
		cp >>= 4;
	} while (cp);
	*--p = 'x';
	*--p = '#';
	*--p = '&';
	put(o, p, (size_t)(e - p));
}

#define PUT_LIT(o, s) put(o, s, sizeof(s) - 1)

static void plain(struct out *o, const char *s, size_t len)
{
	if (len != 1) {
		put(o, s, len);
		return;
	}
	switch (*s) {
	case '&': PUT_LIT(o, "&amp;"); break;
	case '<': PUT_LIT(o, "&lt;"); break;
	case '>': PUT_LIT(o, "&gt;"); break;
	case '"': PUT_LIT(o, "&quot;"); break;
	case '\'': PUT_LIT(o, "&#39;"); break;
	default: put(o, s, 1);
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
	struct out o = { .f = f };
	size_t n;
	uint32_t cp;

	/* The text ends at its first NUL, if any: found once, not at every character. */
	len = s ? strnlen(s, len) : 0;
	for (size_t i = 0; i < len; i += n) {
		/* A run at once: --part's records are megabytes of it. */
		if ((n = ascii_run(s + i, len - i)) > 0) {
			put(&o, s + i, n);
			continue;
		}
		switch (ras_text_next(s + i, len - i, &n, &cp)) {
		case RAS_TEXT_PLAIN:
			plain(&o, s + i, n);
			break;
		case RAS_TEXT_CONTROL:
			if (cp == '\t' || cp == '\n')
				put(&o, s + i, 1);
			else
				put_ref(&o, cp < 0x20 ? 0x2400 + cp : cp == 0x7f ? 0x2421 : cp);
			break;
		default:
			put_ref(&o, cp);
		}
	}
	if (o.n)
		fwrite(o.b, 1, o.n, f);
}
