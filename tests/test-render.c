/* SPDX-License-Identifier: MIT */
/*
 * Rendering reads only what the database keeps. For every event type,
 * records with field values of the widths in the shipped formats are decoded;
 * a second struct is then rebuilt the way a reader of a database row does it
 * (zeroed, the head, every stored dfield, and each dfield that restates a raw
 * field taken from the raw value instead), and both must render the same
 * sentence. A dfield restates a raw field when it has the raw field's name
 * (unless it is the type's keep_decoded) or is named raw_<name>; those are
 * not stored (db/db_columns.c).
 */
#include <string.h>
#include <event-parse.h>
#include "lib/decode.h"
#include "lib/formats.h"
#include "decoders/cper.h"
#include "rng.h"
#include "tap.h"
#include "test_util.h"

#define ROUNDS 3000

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	return rng_next_star(&rng_state);
}

/* The raw field a dfield restates, or -1 when the dfield is stored itself. */
static int restated_raw(const struct ras_event_type *t, const char *name)
{
	for (unsigned i = 0; i < t->n_fields; i++) {
		const char *raw = t->fields[i].name;

		if (!strcmp(name, raw) && !(t->keep_decoded && !strcmp(t->keep_decoded, name)))
			return (int)i;
		if (!strncmp(name, "raw_", 4) && !strcmp(name + 4, raw))
			return (int)i;
	}
	return -1;
}

/*
 * Small values and all-ones are where decoders branch; bit 63 alone is
 * RAS_DF_NONE in a 64-bit register; the rest is noise.
 */
static int64_t random_int(const struct tep_format_field *f)
{
	static const uint64_t picks[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 0x7f, 0x80, ~0ULL,
					  0x8000000000000000ULL };
	unsigned bits = f ? (unsigned)f->size * 8 : 64;
	uint64_t v = rnd() % 3 ? picks[rnd() % (sizeof(picks) / sizeof(picks[0]))] : rnd();

	if (bits < 64) {
		v &= (1ULL << bits) - 1;
		if (f && (f->flags & TEP_FIELD_IS_SIGNED) && (v >> (bits - 1)) & 1)
			v |= ~0ULL << bits;
	}
	return (int64_t)v;
}

static const char *const texts[] = {
	"", "mem0", "0000:0d:00.0", "0000:00:1c.0", "fw_fatal", "tx", "mlx5_core", "pci", "RS",
	"FWS", "WS", "D", "sdb", "DIMM_A1", "any memory", "read error", "region3",
	"control\x01" "char\x7f" "s and \xc3\xa9", "PCIe",
	"a very long piece of text that a driver might send in a message field, longer than the "
	"member it is copied into: it keeps going well past one hundred and twenty-eight bytes so "
	"that every fixed-size member of every decoder truncates it somewhere along the way, and "
	"then it goes on for a little while more to pass three hundred.",
};

static uint8_t blob[8][512];

static void random_value(const struct ras_event_type *t, unsigned i, const struct tep_format_field *f,
			 struct ras_value *v)
{
	const struct ras_field *rf = &t->fields[i];

	memset(v, 0, sizeof(*v));
	if (!f || ((rf->flags & RAS_F_OPTIONAL) && rnd() % 8 == 0))
		return;
	v->present = true;
	if (rf->type == RAS_FT_INT) {
		v->i = random_int(f);
	} else if (rf->type == RAS_FT_TEXT) {
		const char *s = texts[rnd() % (sizeof(texts) / sizeof(texts[0]))];

		v->p = s;
		v->len = (uint32_t)strlen(s) + (uint32_t)(rnd() % 2);   /* with or without its NUL */
	} else {
		uint8_t *b = blob[i % 8];

		for (size_t k = 0; k < sizeof(blob[0]); k++)
			b[k] = rnd() % 4 ? (uint8_t)rnd() : (uint8_t)(rnd() % 2 ? 0xff : 0);
		/* Half the section types are Platform Memory, whose body is decoded. */
		if (!strcmp(rf->name, "sec_type") && rnd() % 2)
			cper_guid_bytes(&cper_section_types[4], b);
		v->p = b;
		v->len = (f->flags & TEP_FIELD_IS_DYNAMIC) ? (uint32_t)(rnd() % sizeof(blob[0]))
							   : (uint32_t)f->size;
		if (v->len > sizeof(blob[0]))
			v->len = sizeof(blob[0]);
	}
}

/* What a database reader puts in a restated member: the raw value as stored. */
static void load_raw(const struct ras_dfield *df, const struct ras_value *v, void *out)
{
	char *m = (char *)out + df->offset;

	if (df->type == RAS_DF_INT) {
		*(int64_t *)m = v->present ? v->i : RAS_DF_NONE;
		return;
	}
	m[0] = '\0';
	if (v->present && v->p) {
		size_t n = strnlen(v->p, v->len);

		if (n > df->size - 1)
			n = df->size - 1;
		memcpy(m, v->p, n);
		m[n] = '\0';
	}
}

static void rebuild(const struct ras_event_type *t, const struct ras_value *v, const void *decoded,
		    void *out)
{
	memset(out, 0, RAS_DECODED_MAX);
	memcpy(out, decoded, sizeof(struct ras_decoded_head));
	for (size_t i = 0; i < *t->n_dfields; i++) {
		const struct ras_dfield *df = &t->dfields[i];
		int raw = restated_raw(t, df->name);

		if (raw >= 0)
			load_raw(df, &v[raw], out);
		else
			memcpy((char *)out + df->offset, (const char *)decoded + df->offset, df->size);
	}
}

/* A restated dfield must have its raw field's type, or the reader cannot fill it. */
static void test_restated_types(const struct ras_event_type *t)
{
	int bad = 0;

	for (size_t i = 0; i < *t->n_dfields; i++) {
		const struct ras_dfield *df = &t->dfields[i];
		int raw = restated_raw(t, df->name);

		if (raw < 0)
			continue;
		if ((df->type == RAS_DF_INT) != (t->fields[raw].type == RAS_FT_INT) ||
		    (df->type == RAS_DF_STR && t->fields[raw].type != RAS_FT_TEXT)) {
			tap_diag("%s: %s restates a raw field of another type", t->table, df->name);
			bad++;
		}
	}
	tap_is_int(bad, 0, "%s: every restated dfield has its raw field's type", t->table);
}

/* The end of the last member a type's dfields name: the bytes a decoding must fill. */
static size_t decoded_end(const struct ras_event_type *t)
{
	size_t end = sizeof(struct ras_decoded_head);

	for (size_t i = 0; i < *t->n_dfields; i++)
		if (t->dfields[i].offset + t->dfields[i].size > end)
			end = t->dfields[i].offset + t->dfields[i].size;
	return end;
}

static void test_type(const struct ras_event_type *t, const struct ras_type_format *tf)
{
	static _Alignas(16) uint8_t decoded[RAS_DECODED_MAX], rebuilt[RAS_DECODED_MAX];
	static _Alignas(16) uint8_t dirty[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS];
	char a[RAS_SUMMARY_LEN], b[RAS_SUMMARY_LEN], empty[RAS_SUMMARY_LEN + 64];
	int differ = 0, said = 0, stale = 0;

	for (int round = 0; round < ROUNDS; round++) {
		for (unsigned i = 0; i < t->n_fields; i++)
			random_value(t, i, tf->field[i], &v[i]);
		ras_decode_values(t, v, NULL, decoded);
		/* ras_decode_values clears nothing: each decoder clears its whole struct first. */
		/* Junk, or (every third round) the previous record's decoding, as rasd reuses it. */
		if (round % 3)
			memset(dirty, round & 1 ? 0xa5 : 0xff, sizeof(dirty));
		ras_decode_values(t, v, NULL, dirty);
		if (memcmp(decoded, dirty, decoded_end(t)) && stale++ == 0)
			tap_diag("%s: a decoding kept bytes of what its buffer held", t->table);
		rebuild(t, v, decoded, rebuilt);
		ras_render(t, decoded, a, sizeof(a));
		ras_render(t, rebuilt, b, sizeof(b));
		said += strstr(a, "could not be decoded") == NULL;
		if (strcmp(a, b) != 0 && differ++ == 0)
			tap_diag("%s:\n  decoded: %s\n  rebuilt: %s", t->table, a, b);
	}
	tap_is_int(differ, 0, "%s: %d records render the same from the stored fields", t->table,
		   ROUNDS);
	tap_is_int(said, ROUNDS, "%s: every decoded record has its own sentence", t->table);
	tap_is_int(stale, 0, "%s: a decoding does not depend on what its buffer held", t->table);

	/* A head with nothing known: what ras_decode_values leaves before decoding. */
	memset(rebuilt, 0, sizeof(rebuilt));
	for (size_t i = 0; i < *t->n_dfields; i++)
		if (t->dfields[i].type == RAS_DF_INT)
			*(int64_t *)(rebuilt + t->dfields[i].offset) = RAS_DF_NONE;
	ras_render(t, rebuilt, a, sizeof(a));
	snprintf(empty, sizeof(empty), "%s (could not be decoded)", t->title);
	tap_is_str(a, empty, "%s: nothing known renders as not decoded", t->table);
}

int main(void)
{
	struct ras_formats *fmt;
	char dir[1024];

	snprintf(dir, sizeof(dir), "%s/formats", test_srcdir());
	if (!tap_ok(ras_formats_load(&fmt, "/nonexistent", NULL, dir) == 0, "shipped formats load"))
		return tap_done();
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];

		test_restated_types(t);
		if (!tap_ok(fmt->type[i].event != NULL, "%s: shipped format", t->table))
			continue;
		test_type(t, &fmt->type[i]);
	}
	ras_formats_free(fmt);
	return tap_done();
}
