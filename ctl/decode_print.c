/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl decode: one decoded record as text or JSON (see decode_print.h). */
#include <string.h>
#include "decode_print.h"
#include "lib/json.h"
#include "lib/text.h"

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

/* The source's own words the decoder has no field for, as "source":{...}. */
static void print_json_notes(FILE *f, const struct decoded_view *v)
{
	size_t n = 0;

	for (size_t i = 0; i < 3; i++) {
		if (!v->note_key[i])
			continue;
		fputs(n++ ? "," : ",\"source\":{", f);
		ras_json_key(f, v->note_key[i]);
		ras_json_string(f, v->note_value[i], strlen(v->note_value[i]));
	}
	if (n)
		fputc('}', f);
}

static void print_json(const struct decode_out *o, const struct decoded_view *v, const char *where)
{
	FILE *f = o->out;

	fprintf(f, "{\"version\":%d,\"type\":\"%s\",", RAS_JSON_VERSION, v->kind);
	if (where) {
		fputs("\"input\":", f);
		ras_json_string(f, where, strlen(where));
		fputc(',', f);
	}
	fprintf(f, "\"severity\":\"%s\",\"summary\":", ras_severity_name(v->severity));
	ras_json_string(f, v->sentence, strlen(v->sentence));
	fputs(",\"location\":", f);
	ras_json_string(f, v->location, strlen(v->location));
	fputs(",\"decoded\":{", f);
	for (size_t i = 0; i < v->n_dfields; i++) {
		if (i)
			fputc(',', f);
		ras_json_key(f, v->dfields[i].name);
		ras_json_dfield(f, &v->dfields[i], v->decoded);
	}
	fputc('}', f);
	print_json_notes(f, v);
	fputs("}\n", f);
}

/* Text from the input, shown as a terminal may print it (lib/text.h). */
static void put_text(FILE *f, const char *s)
{
	ras_text_write(f, s, strlen(s));
}

static void print_int(FILE *f, const struct ras_dfield *df, int64_t n)
{
	if (df->json == RAS_DJ_HEX)
		fprintf(f, "  %-20s 0x%llx\n", df->name, (unsigned long long)n);
	else if (df->json == RAS_DJ_U64)
		fprintf(f, "  %-20s %llu (0x%llx)\n", df->name, (unsigned long long)n,
			(unsigned long long)n);
	else
		fprintf(f, "  %-20s %lld (0x%llx)\n", df->name, (long long)n, (unsigned long long)n);
}

void decode_print(const struct decode_out *o, const struct decoded_view *v, const char *where)
{
	FILE *f = o->out;

	if (o->json) {
		print_json(o, v, where);
		return;
	}
	if (where) {
		put_text(f, where);
		fputs(": ", f);
	}
	fprintf(f, "%s: ", ras_severity_name(v->severity));
	put_text(f, v->sentence);
	fputc('\n', f);
	if (v->location[0]) {
		fprintf(f, "  %-20s ", "location");
		put_text(f, v->location);
		fputc('\n', f);
	}
	for (size_t i = 0; i < v->n_dfields; i++) {
		const struct ras_dfield *df = &v->dfields[i];
		int64_t n;

		if (df->type == RAS_DF_STR) {
			if (*ras_dfield_str(v->decoded, df)) {
				fprintf(f, "  %-20s ", df->name);
				put_text(f, ras_dfield_str(v->decoded, df));
				fputc('\n', f);
			}
			continue;
		}
		n = ras_dfield_int(v->decoded, df);
		if (n != RAS_DF_NONE)
			print_int(f, df, n);
	}
	for (size_t i = 0; i < 3; i++) {
		if (!v->note_key[i])
			continue;
		fprintf(f, "  %-20s ", v->note_key[i]);
		put_text(f, v->note_value[i]);
		fputc('\n', f);
	}
}
