/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl decode: one decoded record as text or JSON (see decode_print.h). */
#include <string.h>
#include "decode_print.h"

static struct decoded_view make_view(const char *kind, const void *d, const struct ras_dfield *f,
				     size_t n, enum ras_severity severity, const char *location)
{
	struct decoded_view v = { .kind = kind, .decoded = d, .dfields = f, .n_dfields = n,
				  .severity = severity, .location = location };

	return v;
}

/* view_<name>(d): the decoder's dfields, severity and location, its sentence rendered. */
#define VIEW_FN(name, kind)                                                                   \
	struct decoded_view view_##name(const struct name##_decoded *d)                       \
	{                                                                                     \
		struct decoded_view v = make_view(kind, d, name##_dfields, name##_n_dfields,  \
						  d->severity, d->location);                  \
                                                                                              \
		name##_render(d, v.sentence, sizeof(v.sentence));                             \
		return v;                                                                     \
	}

VIEW_FN(mce, "mce")
VIEW_FN(aer, "aer")
VIEW_FN(edac, "edac")
VIEW_FN(extlog, "extlog")
VIEW_FN(arm, "arm")
VIEW_FN(nonstd, "nonstd")
VIEW_FN(devlink, "devlink")
VIEW_FN(blockerr, "blockerr")
VIEW_FN(memfail, "memfail")
VIEW_FN(cxl, "cxl")

/*
 * Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), 0 if there is none. Stops
 * at a NUL, which is never a continuation byte.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0], cp, min;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Valid UTF-8 passes through; a byte that is not part of it becomes \u00XX. */
static void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		size_t n = *p >= 0x80 ? utf8_len(p) : 1;

		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f || !n)
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

/*
 * Registers and addresses are unsigned 64-bit values that the decoders keep
 * bit-for-bit in int64_t: printed as hex, never as a (negative) number.
 */
static bool is_register(const char *name)
{
	static const char *const regs[] = {
		"addr", "address", "tlp_address", "status", "mask", "syndrome", "pa",
	};

	if (!strncmp(name, "raw_", 4))
		return true;
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		if (!strcmp(name, regs[i]))
			return true;
	return false;
}

/* JSON numbers are doubles for most readers: exact only up to 2^53. */
#define JSON_EXACT_MAX (INT64_C(1) << 53)

static void json_int(FILE *f, const char *name, int64_t v)
{
	if (v == RAS_DF_NONE)
		fputs("null", f);
	else if (is_register(name) || v > JSON_EXACT_MAX || v < -JSON_EXACT_MAX)
		fprintf(f, "\"0x%llx\"", (unsigned long long)v);
	else
		fprintf(f, "%lld", (long long)v);
}

/* The source's own words the decoder has no field for, as "source":{...}. */
static void print_json_notes(FILE *f, const struct decoded_view *v)
{
	size_t n = 0;

	for (size_t i = 0; i < 3; i++) {
		if (!v->note_key[i])
			continue;
		fprintf(f, "%s\"%s\":", n++ ? "," : ",\"source\":{", v->note_key[i]);
		json_string(f, v->note_value[i]);
	}
	if (n)
		fputc('}', f);
}

static void print_json(const struct decode_out *o, const struct decoded_view *v, const char *where)
{
	FILE *f = o->out;

	/* The version of ras-fdr-ctl's JSON formats (CTL_JSON_VERSION). */
	fprintf(f, "{\"version\":1,\"type\":\"%s\",", v->kind);
	if (where) {
		fputs("\"input\":", f);
		json_string(f, where);
		fputc(',', f);
	}
	fprintf(f, "\"severity\":\"%s\",\"summary\":", ras_severity_name(v->severity));
	json_string(f, v->sentence);
	fputs(",\"location\":", f);
	json_string(f, v->location);
	fputs(",\"decoded\":{", f);
	for (size_t i = 0; i < v->n_dfields; i++) {
		const struct ras_dfield *df = &v->dfields[i];

		fprintf(f, "%s\"%s\":", i ? "," : "", df->name);
		if (df->type == RAS_DF_STR)
			json_string(f, ras_dfield_str(v->decoded, df));
		else
			json_int(f, df->name, ras_dfield_int(v->decoded, df));
	}
	fputc('}', f);
	print_json_notes(f, v);
	fputs("}\n", f);
}

void decode_print(const struct decode_out *o, const struct decoded_view *v, const char *where)
{
	FILE *f = o->out;

	if (o->json) {
		print_json(o, v, where);
		return;
	}
	if (where)
		fprintf(f, "%s: ", where);
	fprintf(f, "%s: %s\n", ras_severity_name(v->severity), v->sentence);
	if (v->location[0])
		fprintf(f, "  %-20s %s\n", "location", v->location);
	for (size_t i = 0; i < v->n_dfields; i++) {
		const struct ras_dfield *df = &v->dfields[i];
		int64_t n;

		if (df->type == RAS_DF_STR) {
			if (*ras_dfield_str(v->decoded, df))
				fprintf(f, "  %-20s %s\n", df->name, ras_dfield_str(v->decoded, df));
			continue;
		}
		n = ras_dfield_int(v->decoded, df);
		if (n == RAS_DF_NONE)
			continue;
		if (is_register(df->name))
			fprintf(f, "  %-20s 0x%llx\n", df->name, (unsigned long long)n);
		else
			fprintf(f, "  %-20s %lld (0x%llx)\n", df->name, (long long)n, (unsigned long long)n);
	}
	for (size_t i = 0; i < 3; i++)
		if (v->note_key[i])
			fprintf(f, "  %-20s %s\n", v->note_key[i], v->note_value[i]);
}
