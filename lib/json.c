/* SPDX-License-Identifier: MIT */
/* The one JSON encoder (json.h). */
#include <string.h>
#include "json.h"
#include "text.h"

void ras_json_string(FILE *f, const char *s, size_t len)
{
	size_t n, run = 0;
	uint32_t cp;

	putc('"', f);
	for (size_t i = 0; i < len; i += n) {
		unsigned char u = (unsigned char)s[i];
		enum ras_text_class c;

		/* Printable ASCII, the common case, without the UTF-8 decoder. */
		if (u >= 0x20 && u < 0x7f && u != '"' && u != '\\') {
			n = 1;
			run++;
			continue;
		}
		c = ras_text_next(s + i, len - i, &n, &cp);

		/* Plain characters go out in runs: export writes millions of these. */
		if (c == RAS_TEXT_PLAIN && s[i] != '"' && s[i] != '\\') {
			run += n;
			continue;
		}
		if (run)
			fwrite(s + i - run, 1, run, f);
		run = 0;
		if (c == RAS_TEXT_PLAIN)
			fprintf(f, "\\%c", s[i]);
		else
			/* A control character is in the BMP, an invalid byte a value: one \u escape. */
			fprintf(f, "\\u%04x", (unsigned)cp);
	}
	if (run)
		fwrite(s + len - run, 1, run, f);
	putc('"', f);
}

void ras_json_key(FILE *f, const char *name)
{
	ras_json_string(f, name, strlen(name));
	putc(':', f);
}

void ras_json_hex(FILE *f, uint64_t v)
{
	fprintf(f, "\"0x%llx\"", (unsigned long long)v);
}

void ras_json_u64(FILE *f, uint64_t v)
{
	fprintf(f, "\"%llu\"", (unsigned long long)v);
}

void ras_json_i64(FILE *f, int64_t v)
{
	fprintf(f, "\"%lld\"", (long long)v);
}

void ras_json_dfield(FILE *f, const struct ras_dfield *df, const void *decoded)
{
	int64_t v;

	if (df->type == RAS_DF_STR) {
		const char *s = ras_dfield_str(decoded, df);

		ras_json_string(f, s, strnlen(s, df->size));
		return;
	}
	v = ras_dfield_int(decoded, df);
	if (v == RAS_DF_NONE)
		fputs("null", f);
	else if (df->json == RAS_DJ_HEX)
		ras_json_hex(f, (uint64_t)v);
	else if (df->json == RAS_DJ_U64)
		ras_json_u64(f, (uint64_t)v);
	else
		fprintf(f, "%lld", (long long)v);
}
