/* SPDX-License-Identifier: MIT */
/* The one JSON encoder (json.h). */
#include <string.h>
#include "json.h"
#include "text.h"

void ras_json_string(FILE *f, const char *s, size_t len)
{
	size_t n;
	uint32_t cp;

	putc('"', f);
	for (size_t i = 0; i < len; i += n) {
		switch (ras_text_next(s + i, len - i, &n, &cp)) {
		case RAS_TEXT_PLAIN:
			if (s[i] == '"' || s[i] == '\\')
				putc('\\', f);
			fwrite(s + i, 1, n, f);
			break;
		case RAS_TEXT_CONTROL:
			/* Every control character is in the BMP: one \u escape. */
			fprintf(f, "\\u%04x", (unsigned)cp);
			break;
		case RAS_TEXT_INVALID:
			fprintf(f, "\\u%04x", (unsigned)cp);
			break;
		}
	}
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
