/* SPDX-License-Identifier: MIT */
/*
 * ctl/json_line.c against the writer it replaced: the fprintf-per-field
 * record and folded-period lines of errors --json (kept below, as they were
 * in ctl/query.c, as the oracle) and lib/json.c's encoder, byte for byte, on
 * edge values: empty and NULL strings, control characters, invalid and valid
 * UTF-8, quotes and backslashes, 0 and UINT64_MAX registers, negative
 * integers, absent fields, times from 1970 to 2262 and before 1970, every
 * event type's fields and decoding. And its HTML mode against the reference,
 * report/html_text.c's rpt_html_text of the JSON line, on all of them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/tap.h"
#include "ctl/json_line.h"
#include "decoders/severity.h"
#include "lib/clock.h"
#include "lib/event_table.h"
#include "lib/json.h"
#include "report/report.h"

/* ---- the oracle: the writer before json_line.c (ctl/query.c, ctl/ctl.c) ---- */

static void old_wall(FILE *o, int64_t wall_ns)
{
	char when[40];

	ras_format_time(wall_ns, when, sizeof(when));
	fprintf(o, "\"time\":\"%s\",\"wall_s\":%lld,\"wall_ns\":\"%lld\"", when,
		(long long)(wall_ns / 1000000000), (long long)wall_ns);
}

static void old_value(FILE *o, const struct ras_field *f, const struct ras_value *v)
{
	if (!v->present) {
		fprintf(o, "null");
	} else if (f->type == RAS_FT_INT && (f->flags & RAS_F_HEX)) {
		ras_json_hex(o, (uint64_t)v->i);
	} else if (f->type == RAS_FT_INT && (f->flags & RAS_F_WIDE)) {
		ras_json_u64(o, (uint64_t)v->i);
	} else if (f->type == RAS_FT_INT) {
		fprintf(o, "%lld", (long long)v->i);
	} else if (f->type == RAS_FT_TEXT) {
		ras_json_string(o, v->p, v->p ? v->len : 0);
	} else {
		fputc('"', o);
		for (uint32_t i = 0; v->p && i < v->len; i++)
			fprintf(o, "%02x", ((const uint8_t *)v->p)[i]);
		fputc('"', o);
	}
}

static void old_origin(FILE *o, const struct ras_db_row *row)
{
	fprintf(o, ",\"boot_id\":");
	ras_json_string(o, row->boot_id, row->boot_id ? strlen(row->boot_id) : 0);
	fprintf(o, ",\"source\":");
	ras_json_string(o, row->source, row->source ? strlen(row->source) : 0);
	fprintf(o, ",\"synthetic\":%s", row->synthetic ? "true" : "false");
}

static void old_link(FILE *o, const struct ctl_json_link *l)
{
	if (!l || !l->applies)
		return;
	fprintf(o, ",\"memory_failure\":");
	if (!l->found) {
		fprintf(o, "null");
		return;
	}
	fprintf(o, "{\"id\":%lld,", (long long)l->mf->id);
	old_wall(o, l->mf->wall_ns);
	fprintf(o, ",\"pfn\":\"0x%llx\",\"page_type\":", (unsigned long long)l->mf->pfn);
	ras_json_string(o, l->mf->page_type, strlen(l->mf->page_type));
	fprintf(o, ",\"recovery\":");
	ras_json_string(o, l->mf->recovery, strlen(l->mf->recovery));
	fprintf(o, "}");
}

static void old_row(FILE *o, const struct ras_db_row *row, const void *decoded, const char *text,
		    const struct ctl_json_link *l)
{
	const struct ras_event_type *t = &ras_event_types[row->type_idx];
	const struct ras_decoded_head *h = decoded;

	fprintf(o, "{\"version\":%d,\"type\":\"%s\",\"id\":%lld,", RAS_JSON_VERSION, t->table,
		(long long)row->id);
	old_wall(o, row->wall_ns);
	fprintf(o, ",\"trace_ts\":\"%llu\",\"trace_cpu\":%d", (unsigned long long)row->trace_ts,
		row->trace_cpu);
	old_origin(o, row);
	fprintf(o, ",\"severity\":\"%s\",\"location\":", ras_severity_name(h->severity));
	ras_json_string(o, h->location, strnlen(h->location, sizeof(h->location)));
	fprintf(o, ",\"summary\":");
	ras_json_string(o, text, strlen(text));
	old_link(o, l);
	fprintf(o, ",\"fields\":{");
	for (unsigned i = 0; i < t->n_fields; i++) {
		if (i)
			fputc(',', o);
		ras_json_key(o, t->fields[i].name);
		old_value(o, &t->fields[i], &row->values[i]);
	}
	fprintf(o, "}");
	fprintf(o, ",\"decoded\":{");
	for (size_t i = 0; i < *t->n_dfields; i++) {
		if (i)
			fputc(',', o);
		ras_json_key(o, t->dfields[i].name);
		ras_json_dfield(o, &t->dfields[i], h);
	}
	fprintf(o, "}");
	fprintf(o, "}\n");
}

static void old_fold(FILE *o, const struct ras_db_row *row)
{
	const struct ras_db_fold_info *fi = row->fold;
	const char *table = ras_event_types[row->type_idx].table;
	char first[40], last[40];

	ras_format_time(fi->first_ns, first, sizeof(first));
	ras_format_time(fi->last_ns, last, sizeof(last));
	fprintf(o, "{\"version\":%d,\"kind\":\"folded\",\"type\":\"%s\",\"id\":%lld,\"subject\":",
		RAS_JSON_VERSION, table, (long long)row->id);
	ras_json_string(o, fi->subject, strlen(fi->subject));
	fprintf(o, ",\"records\":%lld,\"errors\":%lld,\"first\":\"%s\",\"last\":\"%s\","
		"\"first_ns\":", (long long)fi->records, (long long)fi->errors, first, last);
	ras_json_i64(o, fi->first_ns);
	fprintf(o, ",\"last_ns\":");
	ras_json_i64(o, fi->last_ns);
	old_origin(o, row);
	fprintf(o, ",\"severity\":");
	ras_json_string(o, row->severity ? row->severity : "unknown",
			strlen(row->severity ? row->severity : "unknown"));
	fprintf(o, ",\"location\":");
	ras_json_string(o, row->location, strlen(row->location));
	if (fi->have_addr) {
		fprintf(o, ",\"address_min\":");
		ras_json_hex(o, fi->addr_lo);
		fprintf(o, ",\"address_max\":");
		ras_json_hex(o, fi->addr_hi);
	}
	fprintf(o, ",\"detail\":");
	ras_json_string(o, fi->detail_name, strlen(fi->detail_name));
	fprintf(o, ",\"distinct\":[");
	for (unsigned i = 0; i < fi->ndetails; i++) {
		if (i)
			fputc(',', o);
		ras_json_hex(o, fi->details[i]);
	}
	fprintf(o, "],\"more_distinct\":%s}\n", fi->details_more ? "true" : "false");
}

/* ---- the comparisons ---- */

struct out {
	FILE *f;
	char *p;
	size_t len;
};

static void out_open(struct out *o)
{
	o->p = NULL;
	o->len = 0;
	o->f = open_memstream(&o->p, &o->len);
}

static void out_close(struct out *o)
{
	fclose(o->f);
}

/* want[0..len) and b's bytes the same; says where they part (quiet: false, no diagnosis). */
static bool same_bytes(const char *want, size_t len, const struct ctl_jbuf *b, const char *what,
		       bool quiet)
{
	size_t i = 0;
	bool ok;

	while (i < len && i < b->len && want[i] == b->p[i])
		i++;
	ok = !b->failed && len == b->len && i == len;
	if (!ok && !quiet)
		tap_diag("%s: want %zu bytes, got %zu, first difference at %zu: want '%.60s' got '%.60s'",
			 what, len, b->len, i, want + (i < len ? i : len),
			 b->p ? b->p + (i < b->len ? i : b->len) : "");
	return ok;
}

/*
 * h (HTML mode) holds the HTML text of the JSON json[0..len): what
 * rpt_html_text writes of it, the reference.
 */
static bool same_html(const char *json, size_t len, const struct ctl_jbuf *h, const char *what,
		      bool quiet)
{
	char *ref = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&ref, &n);
	bool ok;

	rpt_html_text(f, json, len);
	fclose(f);
	ok = h->html && same_bytes(ref, n, h, what, quiet);
	free(ref);
	return ok;
}

/* The HTML-mode buffer, built by each call as b is (BOTH). */
static struct ctl_jbuf hb;

/* The call fn(buffer, ...) into b (JSON) and hb (HTML mode), both emptied first. */
#define BOTH(b, fn, ...)                                                                         \
	do {                                                                                     \
		ctl_jbuf_reset(b);                                                               \
		fn(b, __VA_ARGS__);                                                              \
		ctl_jbuf_reset(&hb);                                                             \
		fn(&hb, __VA_ARGS__);                                                            \
	} while (0)

/* The old bytes (o, closed) and the new (b) the same, and hb their HTML text. */
static int same(struct out *o, const struct ctl_jbuf *b, const char *what)
{
	bool ok;

	out_close(o);
	ok = same_bytes(o->p, o->len, b, what, false);
	ok = same_html(o->p, o->len, &hb, what, false) && ok;
	tap_ok(ok, "%s (and as HTML text)", what);
	free(o->p);
	return ok;
}

/* Strings an attacker or a firmware could put in a record. */
static const struct { const char *s; size_t len; } strings[] = {
	{ NULL, 0 }, { "", 0 }, { "plain", 5 }, { "\"", 1 }, { "\\", 1 }, { "a\"b\\c", 5 },
	{ "\n\r\t\x1b[31m", 9 }, { "nul\0inside", 10 }, { "\x7f", 1 },
	{ "\xc2\x9b", 2 },                      /* C1 CSI */
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14 },   /* é, €, an emoji */
	{ "\xe2\x80\xa8\xe2\x80\xae", 6 },      /* U+2028, U+202E */
	{ "\xff\xfe bad \xc3", 9 },            /* invalid bytes, a cut sequence */
	{ "\xed\xa0\x80", 3 },                  /* a surrogate */
	{ "\xc0\xaf", 2 },                      /* overlong */
	{ "<b>&amp;'x'</b> \"<\\>\"", 21 },      /* HTML's markup */
};

static const uint64_t numbers[] = {
	0, 1, 9, 10, 15, 16, 0x7fffffffffffffffull, 0x8000000000000000ull, UINT64_MAX,
	(uint64_t)-1000, 1795882428575984220ull, 0xdeadbeef,
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void primitives(void)
{
	struct ctl_jbuf b = { 0 };
	struct out o;
	int bad = 0;

	for (size_t i = 0; i < N(strings); i++) {
		out_open(&o);
		ras_json_string(o.f, strings[i].s, strings[i].len);
		BOTH(&b, ctl_jbuf_string, strings[i].s, strings[i].len);
		same(&o, &b, "a string as ras_json_string writes it");
	}
	/* A long string: runs longer than any small buffer, an escape near its end. */
	char longs[5000];

	memset(longs, 'x', sizeof(longs));
	longs[4990] = '\n';
	longs[10] = '"';
	longs[2000] = '<';
	longs[4000] = '&';
	out_open(&o);
	ras_json_string(o.f, longs, sizeof(longs));
	BOTH(&b, ctl_jbuf_string, longs, sizeof(longs));
	same(&o, &b, "a 5,000-byte string with escapes");
	/* Each byte to escape at each place of a word and past it. */
	static const char special[] = { '"', '\\', '\n', 0x1f, 0x7f, 0x01, (char)0x80, (char)0xc3, 0,
					'&', '<', '>', '\'' };
	int bad_run = 0;

	for (size_t c = 0; c < sizeof(special); c++) {
		for (size_t at = 0; at < 20; at++) {
			char s[24];

			memset(s, 'a' + (char)at, sizeof(s));
			s[at] = special[c];
			if (special[c] == (char)0xc3)
				s[at + 1] = (char)0xa9;   /* é across a word's edge */
			out_open(&o);
			ras_json_string(o.f, s, sizeof(s));
			out_close(&o);
			BOTH(&b, ctl_jbuf_string, s, sizeof(s));
			bad_run += !same_bytes(o.p, o.len, &b, "", true) ||
				   !same_html(o.p, o.len, &hb, "", true);
			free(o.p);
		}
	}
	tap_ok(!bad_run, "each byte to escape at each place of a 24-byte string (and as HTML text)");
	out_open(&o);
	ras_json_key(o.f, "key\"1");
	BOTH(&b, ctl_jbuf_key, "key\"1");
	same(&o, &b, "a key with a quote");
	for (size_t i = 0; i < N(numbers); i++) {
		out_open(&o);
		ras_json_hex(o.f, numbers[i]);
		ras_json_u64(o.f, numbers[i]);
		ras_json_i64(o.f, (int64_t)numbers[i]);
		fprintf(o.f, "%lld", (long long)numbers[i]);
		ctl_jbuf_reset(&b);
		ctl_jbuf_reset(&hb);
		for (int k = 0; k < 2; k++) {
			struct ctl_jbuf *x = k ? &hb : &b;

			ctl_jbuf_hex(x, numbers[i]);
			ctl_jbuf_u64(x, numbers[i]);
			ctl_jbuf_i64(x, (int64_t)numbers[i]);
			ctl_jbuf_int(x, (int64_t)numbers[i]);
		}
		bad += !same(&o, &b, "a number as hex, unsigned, signed string and JSON number");
	}
	/* Times: every day from 1970 to 2262 at a moving time of day, and before 1970. */
	for (int64_t s = -86400LL * 800; s < 9223372036LL; s += 86400 * 3 + 3607) {
		/* And later in the same second, or the next (the buffer keeps its last second). */
		static const int64_t after[] = { 0, 1000, 999999, 1000000000, 86400000000000LL };

		for (size_t k = 0; k < N(after); k++) {
			int64_t ns = s * 1000000000 + (s % 1000000) * 997 + after[k];
			char t[40];

			ras_format_time(ns, t, sizeof(t));
			BOTH(&b, ctl_jbuf_time, ns);
			if (!same_bytes(t, strlen(t), &b, "", true) ||
			    !same_html(t, strlen(t), &hb, "", true)) {
				if (!bad++)
					tap_diag("time %lld: '%s' against '%.*s'", (long long)ns, t,
						 (int)b.len, b.p);
			}
		}
	}
	const int64_t edges[] = { 0, 1, 999, 1000, -1, -1000, INT64_MAX, 951782400000000000LL,
				  4107542399999999999LL };

	for (size_t i = 0; i < N(edges); i++) {
		char t[40];

		ras_format_time(edges[i], t, sizeof(t));
		BOTH(&b, ctl_jbuf_time, edges[i]);
		if (!same_bytes(t, strlen(t), &b, "", true) ||
		    !same_html(t, strlen(t), &hb, "", true)) {
			if (!bad++)
				tap_diag("time %lld: '%s' against '%.*s'", (long long)edges[i], t, (int)b.len, b.p);
		}
	}
	tap_ok(!bad, "times as ras_format_time writes them (1900 to 2262, the edges)");
	ctl_jbuf_free(&b);
}

/* A decoding of type t filled with edge values, round by round. */
static void fill_decoded(const struct ras_event_type *t, unsigned round, void *d)
{
	struct ras_decoded_head *h = d;
	const char *s = strings[round % N(strings)].s;
	size_t len = strings[round % N(strings)].len;

	memset(d, 0, RAS_DECODED_MAX);
	h->severity = (enum ras_severity)(round % 4);
	snprintf(h->location, sizeof(h->location), "mc%u, \"layers\" 0:0\x1b", round);
	for (size_t i = 0; i < *t->n_dfields; i++) {
		const struct ras_dfield *df = &t->dfields[i];
		char *m = (char *)d + df->offset;

		if (df->type == RAS_DF_STR) {
			size_t n = len < df->size ? len : df->size;   /* full: no NUL, strnlen's edge */

			if (s && n)
				memcpy(m, s, n);
		} else {
			int64_t v = round % 3 == 0 ? RAS_DF_NONE : (int64_t)numbers[(round + i) % N(numbers)];

			memcpy(m, &v, sizeof(v));
		}
	}
}

static void fill_values(const struct ras_event_type *t, unsigned round, struct ras_value *v)
{
	static const uint8_t blob[] = { 0x00, 0x01, 0x7f, 0x80, 0xff, 0x22, 0x5c };

	for (unsigned i = 0; i < t->n_fields; i++) {
		unsigned k = round + i;

		v[i] = (struct ras_value){ .present = k % 5 != 0 };
		if (t->fields[i].type == RAS_FT_INT) {
			v[i].i = (int64_t)numbers[k % N(numbers)];
		} else if (t->fields[i].type == RAS_FT_TEXT) {
			v[i].p = strings[k % N(strings)].s;
			v[i].len = (uint32_t)strings[k % N(strings)].len;
		} else {
			v[i].p = k % 2 ? blob : NULL;
			v[i].len = k % 2 ? sizeof(blob) : 0;
		}
	}
}

static void lines(void)
{
	static _Alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_db_memfail_link mf = { .id = -3, .wall_ns = 1795882428575984220LL,
					  .pfn = -1, .page_type = "free \"buddy\"",
					  .recovery = "\n" };
	struct ctl_jbuf b = { 0 };
	unsigned bad = 0, n = 0;
	struct out o;

	for (unsigned ti = 0; ti < ras_n_event_types; ti++) {
		const struct ras_event_type *t = &ras_event_types[ti];

		for (unsigned round = 0; round < 12; round++) {
			struct ras_db_row row = {
				.type_idx = ti, .id = round % 2 ? INT64_MAX : -(int64_t)round,
				.wall_ns = round == 5 ? -1500 : 1795882428575984220LL + round * 86400000000000LL,
				.trace_ts = round == 4 ? -1 : (int64_t)round * 1000, .trace_cpu = -(int)round,
				.boot_id = round % 3 ? "68edb443-0acd" : NULL,
				.source = strings[round % N(strings)].s, .synthetic = round % 2,
			};
			struct ctl_json_link l = { .applies = round % 3 != 0, .found = round % 2, .mf = &mf };
			const char *summary = round % 4 ? "Corrected \"error\"\x1b[0m caf\xc3\xa9 <&>'" : "";

			if (row.source && strlen(row.source) != strings[round % N(strings)].len)
				row.source = "live";   /* a C string: no NUL inside */
			fill_values(t, round, row.values);
			fill_decoded(t, round, decoded);
			out_open(&o);
			old_row(o.f, &row, decoded, summary, round == 7 ? NULL : &l);
			BOTH(&b, ctl_json_row, &row, decoded, summary, round == 7 ? NULL : &l);
			n++;
			if (!same(&o, &b, t->table))
				bad++;
		}
	}
	tap_ok(n && !bad, "%u record lines of every event type as the old writer wrote them", n);

	uint64_t details[RAS_DB_FOLD_DETAILS];

	for (unsigned i = 0; i < RAS_DB_FOLD_DETAILS; i++)
		details[i] = numbers[i % N(numbers)];
	for (unsigned round = 0; round < 8; round++) {
		struct ras_db_fold_info fi = {
			.subject = round % 2 ? "dimm mc0 1:0:-1" : "", .records = INT64_MAX - round,
			.errors = -(int64_t)round, .first_ns = round == 3 ? -5 : 0,
			.last_ns = INT64_MAX, .have_addr = round % 2, .details_more = round % 3 == 0,
			.addr_lo = 0, .addr_hi = UINT64_MAX,
			.detail_name = round % 4 ? "syndrome" : "\"\x01",
			.ndetails = round % (RAS_DB_FOLD_DETAILS + 1),
		};
		struct ras_db_row row = {
			.type_idx = round % ras_n_event_types, .id = round, .boot_id = "b",
			.source = round % 2 ? NULL : "import \xff", .synthetic = round % 2,
			.severity = round % 3 ? "corrected" : NULL,
			.location = round % 2 ? "" : "mc0, layers 0:0 \xe2\x80\xae", .fold = &fi,
		};

		memcpy(fi.details, details, sizeof(details));
		out_open(&o);
		old_fold(o.f, &row);
		BOTH(&b, ctl_json_fold, &row);
		same(&o, &b, "a folded period's line");
	}
	ctl_jbuf_free(&b);
}

int main(void)
{
	ctl_jbuf_html(&hb, true);
	primitives();
	lines();
	ctl_jbuf_free(&hb);
	return tap_done();
}
