/* SPDX-License-Identifier: MIT */
/* The one JSON encoder (json.h). */
#include <string.h>
#include "json.h"
#include "text.h"

/* Whether s[0..len) is printable ASCII a JSON string holds as it is. */
static bool plain_ascii(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char u = (unsigned char)s[i];

		if (u < 0x20 || u >= 0x7f || u == '"' || u == '\\')
			return false;
	}
	return true;
}

/*
 * A short plain string quoted, and its suffix ("" or ":"), in one write: a
 * report's attachment writes 25 keys and 13 values a record, 100,000 records.
 * Returns false (nothing written) when it is not one.
 */
static bool plain_quoted(FILE *f, const char *s, size_t len, const char *suffix)
{
	char buf[256];
	size_t sl = strlen(suffix);

	if (len + sl + 2 > sizeof(buf) || !plain_ascii(s, len))
		return false;
	buf[0] = '"';
	if (len)  /* s may be NULL, the empty string */
		memcpy(buf + 1, s, len);
	buf[len + 1] = '"';
	memcpy(buf + len + 2, suffix, sl);
	fwrite(buf, 1, len + 2 + sl, f);
	return true;
}

void ras_json_string(FILE *f, const char *s, size_t len)
{
	size_t n, run = 0;
	uint32_t cp;

	if (plain_quoted(f, s, len, ""))
		return;
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
	size_t len = strlen(name);

	if (plain_quoted(f, name, len, ":"))
		return;
	ras_json_string(f, name, len);
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
