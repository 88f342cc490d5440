/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl decode: one decoded record as text or JSON (see decode_print.h). */
#include <string.h>
#include "decode_print.h"

struct decoded_view view_mce(const struct mce_decoded *d)
{
	struct decoded_view v = { "mce", d, mce_dfields, mce_n_dfields, d->severity, "", d->location };

	mce_render(d, v.sentence, sizeof(v.sentence));
	return v;
}

struct decoded_view view_aer(const struct aer_decoded *d)
{
	struct decoded_view v = { "aer", d, aer_dfields, aer_n_dfields, d->severity, "", d->location };

	aer_render(d, v.sentence, sizeof(v.sentence));
	return v;
}

struct decoded_view view_edac(const struct edac_decoded *d)
{
	struct decoded_view v = { "edac", d, edac_dfields, edac_n_dfields, d->severity, "", d->location };

	edac_render(d, v.sentence, sizeof(v.sentence));
	return v;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
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
	fputs("}}\n", f);
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
}
