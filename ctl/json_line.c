/* SPDX-License-Identifier: MIT */
/* errors --json's lines built in memory (json_line.h). */
#include <stdlib.h>
#include <string.h>
#include "json_line.h"
#include "decoders/other_util.h"
#include "decoders/severity.h"
#include "lib/clock.h"
#include "lib/event_table.h"
#include "lib/json.h"
#include "lib/text.h"

/* The slow side of room(): the buffer doubled until n more bytes fit. */
static char *grow(struct ctl_jbuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *p;

	if (b->failed)
		return NULL;
	while (cap - b->len < n)
		cap *= 2;
	if (!(p = realloc(b->p, cap))) {
		b->failed = true;
		return NULL;
	}
	b->p = p;
	b->cap = cap;
	return b->p + b->len;
}

/* Room for n more bytes; NULL (and failed set) when there is none. */
static inline char *room(struct ctl_jbuf *b, size_t n)
{
	if (__builtin_expect(!b->failed && b->cap - b->len >= n, 1))
		return b->p + b->len;
	return grow(b, n);
}

void ctl_jbuf_reset(struct ctl_jbuf *b)
{
	b->len = 0;
	b->failed = false;
}

void ctl_jbuf_free(struct ctl_jbuf *b)
{
	free(b->p);
	free(b->keys);
	*b = (struct ctl_jbuf){ 0 };
}

/*
 * decoders/other_util.h's short copy (a key, a number or a short word: most
 * of a line) as a plain inline function: gcc guesses a function's branches
 * before it inlines a plain inline one, and this file's writers are laid out
 * best guessed so (ou_copy_short called directly, always inlined, cost 1 to
 * 12 more instructions a record in report --part --json under callgrind).
 */
static inline void copy_short(char *d, const char *s, size_t n)
{
	ou_copy_short(d, s, n);
}

static inline void put_raw(struct ctl_jbuf *b, const char *s, size_t len)
{
	char *d = room(b, len);

	if (d) {  /* s may be NULL when len is 0: nothing is read */
		copy_short(d, s, len);
		b->len += len;
	}
}

void ctl_jbuf_raw(struct ctl_jbuf *b, const char *s, size_t len)
{
	put_raw(b, s, len);
}

static inline void put_char(struct ctl_jbuf *b, char c)
{
	char *d = room(b, 1);

	if (d) {
		*d = c;
		b->len++;
	}
}

static void put_lit_html(struct ctl_jbuf *b, const char *s, size_t len);

/*
 * A literal of this file (static, never changed: its address says which), in
 * HTML mode as HTML text: its quotes as entities, kept by its address.
 */
static inline void put_lit(struct ctl_jbuf *b, const char *s, size_t len)
{
	if (__builtin_expect(b->html, 0))
		put_lit_html(b, s, len);
	else
		put_raw(b, s, len);
}

#define LIT(b, s) put_lit(b, s, sizeof(s) - 1)

/* A JSON string's quote: in HTML mode its entity. */
static inline void put_quote(struct ctl_jbuf *b)
{
	if (b->html)
		put_raw(b, "&quot;", 6);
	else
		put_char(b, '"');
}

/* s[0..n) (plain: digits, hex, a string without markup) between quotes' entities. */
static __attribute__((noinline)) void put_quoted_html(struct ctl_jbuf *b, const char *s, size_t n)
{
	char *d = room(b, n + 12);

	if (d) {
		memcpy(d, "&quot;", 6);
		copy_short(d + 6, s, n);   /* s may be NULL, the empty string */
		memcpy(d + 6 + n, "&quot;", 6);
		b->len += n + 12;
	}
}

/* s[0..n), quoted already ("0x1f", "-5"): in HTML mode its quotes as entities. */
static inline void put_quoted(struct ctl_jbuf *b, const char *s, size_t n)
{
	if (__builtin_expect(b->html, 0))
		put_quoted_html(b, s + 1, n - 2);
	else
		put_raw(b, s, n);
}

static const char hexdig[] = "0123456789abcdef";

/* "\u" and at least four lowercase hex digits, as "\\u%04x" prints cp. */
static void put_u_escape(struct ctl_jbuf *b, uint32_t cp)
{
	char tmp[16], *end = tmp + sizeof(tmp), *s = ou_hex_digits(end, cp, 4);

	*--s = 'u';
	*--s = '\\';
	put_raw(b, s, (size_t)(end - s));
}

/*
 * Printable ASCII a JSON string holds as it is, a bit per byte: 0x20..0x7e
 * less '"' (0x22) and '\\' (0x5c); [1] in HTML mode, less '&', '\'', '<' and
 * '>' (0x26, 0x27, 0x3c, 0x3e) too, the markup rpt_html_text writes as entities.
 */
static const uint64_t plain_bits[2][2] = {
	{ 0xfffffffb00000000ull, 0x7fffffffefffffffull },
	{ 0xafffff3b00000000ull, 0x7fffffffefffffffull },
};

static inline bool plain_byte(unsigned char u, bool html)
{
	return u < 128 && (plain_bits[html][u >> 6] >> (u & 63) & 1);
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Whether any byte of w is below n (n <= 128), or zero. */
static inline uint64_t any_below(uint64_t w, uint64_t n)
{
	return (w - ONES * n) & ~w & HIGHS;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* A bit for each of the 16 bytes at p to escape (plain_byte false). */
static inline unsigned escapes16(const char *p, bool html)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	/* Signed: the bytes of UTF-8 (0x80 and above) are below 0x20 too. */
	__m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));

	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
	if (html) {
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('&')));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
		m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
	}
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/*
 * How many bytes from s[i] are plain ASCII, tested sixteen (SSE2) or eight
 * at a time while a block has none to escape (a control, DEL, a quote, a
 * backslash or a byte of UTF-8; in HTML mode the markup too).
 */
#if defined(__SSE2__)
static inline __attribute__((always_inline)) size_t plain_run(const char *s, size_t i, size_t len, bool html)
{
	size_t start = i;
	unsigned m;

	if (len - i < 16) {
		/* A short string (a key, a word) padded to one block, the padding masked off. */
		char blk[16] = { 0 };

		copy_short(blk, s + i, len - i);
		m = escapes16(blk, html) & ((1u << (len - i)) - 1);
		return m ? (unsigned)__builtin_ctz(m) : len - i;
	}
	for (; len - i >= 16; i += 16)
		if ((m = escapes16(s + i, html)))
			return i + (unsigned)__builtin_ctz(m) - start;
	if (i == len)
		return i - start;
	/* The last 16 bytes, overlapping some found plain: the first to escape is at i or after. */
	m = escapes16(s + len - 16, html);
	return m ? len - 16 + (unsigned)__builtin_ctz(m) - start : len - start;
}
#else
static inline size_t plain_run(const char *s, size_t i, size_t len, bool html)
{
	size_t start = i;
	uint64_t w;

	while (!html && len - i >= 8) {
		memcpy(&w, s + i, 8);
		if ((w & HIGHS) || any_below(w, 0x20) || any_below(w ^ (ONES * 0x7f), 1) ||
		    any_below(w ^ (ONES * '"'), 1) || any_below(w ^ (ONES * '\\'), 1))
			break;
		i += 8;
	}
	while (i < len && plain_byte((unsigned char)s[i], html))
		i++;
	return i - start;
}
#endif

/* The five characters HTML reads as markup, by byte: rpt_html_text's entities, padded to 8 bytes. */
static const struct {
	char text[8];
	size_t len;
} entities[128] = {
	['&'] = { "&amp;", 5 }, ['<'] = { "&lt;", 4 }, ['>'] = { "&gt;", 4 },
	['"'] = { "&quot;", 6 }, ['\''] = { "&#39;", 5 },
};

/* s[0..len) (ASCII or plain UTF-8: a literal) as HTML text, its markup as entities. */
static void put_html_plain(struct ctl_jbuf *b, const char *s, size_t len)
{
	char *d = room(b, 6 * len + 8), *start = d;

	if (!d)
		return;
	for (size_t i = 0; i < len; i++) {
		unsigned char u = (unsigned char)s[i];

		if (u < 128 && entities[u].len) {
			memcpy(d, entities[u].text, 8);   /* room has 8 to spare */
			d += entities[u].len;
		} else {
			*d++ = s[i];
		}
	}
	b->len += (size_t)(d - start);
}

/* The escaping string, from its first byte that is not plain ASCII at s[i]. */
static void string_rest(struct ctl_jbuf *b, const char *s, size_t i, size_t len, bool html)
{
	size_t n, start;
	uint32_t cp;

	while (i < len) {
		/* Plain characters go out in runs, as ras_json_string writes them. */
		for (start = i; i < len; i += n) {
			n = plain_run(s, i, len, html);
			if (n)
				continue;
			if ((unsigned char)s[i] < 0x80 ||
			    ras_text_next(s + i, len - i, &n, &cp) != RAS_TEXT_PLAIN)
				break;
		}
		put_raw(b, s + start, i - start);
		if (i == len)
			break;
		if (ras_text_next(s + i, len - i, &n, &cp) == RAS_TEXT_PLAIN) {
			char esc[2] = { '\\', s[i] };   /* '"' or '\\'; in HTML mode the markup too */

			if (!html)
				put_raw(b, esc, 2);
			else if (s[i] == '"' || s[i] == '\\')
				put_html_plain(b, esc, 2);   /* \&quot; and \\ */
			else
				put_html_plain(b, s + i, 1);   /* JSON keeps it, HTML writes its entity */
		} else {
			/* A control character is in the BMP, an invalid byte a value: one \u escape. */
			put_u_escape(b, cp);
		}
		i += n;
	}
}

/* ctl_jbuf_string in HTML mode: the same string, its quotes and markup as entities. */
static void html_string(struct ctl_jbuf *b, const char *s, size_t len)
{
	size_t i = plain_run(s, 0, len, true);

	if (i == len) {
		put_quoted_html(b, s, len);
		return;
	}
	put_quote(b);
	put_raw(b, s, i);
	string_rest(b, s, i, len, true);
	put_quote(b);
}

void ctl_jbuf_string(struct ctl_jbuf *b, const char *s, size_t len)
{
	size_t i;
	char *d;

	if (__builtin_expect(b->html, 0)) {
		html_string(b, s, len);
		return;
	}
	i = plain_run(s, 0, len, false);
	/* The common case, plain ASCII throughout: one copy between its quotes. */
	if (i == len) {
		if ((d = room(b, len + 2))) {
			d[0] = '"';
			copy_short(d + 1, s, len);   /* s may be NULL, the empty string */
			d[len + 1] = '"';
			b->len += len + 2;
		}
		return;
	}
	put_char(b, '"');
	put_raw(b, s, i);
	string_rest(b, s, i, len, false);
	put_char(b, '"');
}

void ctl_jbuf_key(struct ctl_jbuf *b, const char *name)
{
	ctl_jbuf_string(b, name, strlen(name));
	put_char(b, ':');
}

static void put_signed(struct ctl_jbuf *b, int64_t v, bool quoted)
{
	char tmp[24], *end = tmp + sizeof(tmp), *s;
	/* The magnitude without negating INT64_MIN. */
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	if (quoted)
		*--end = '"';
	s = ou_decimal_digits(end, u);
	if (v < 0)
		*--s = '-';
	if (!quoted) {
		put_raw(b, s, (size_t)(tmp + sizeof(tmp) - s));
		return;
	}
	*--s = '"';
	put_quoted(b, s, (size_t)(tmp + sizeof(tmp) - s));
}

void ctl_jbuf_int(struct ctl_jbuf *b, int64_t v)
{
	put_signed(b, v, false);
}

void ctl_jbuf_i64(struct ctl_jbuf *b, int64_t v)
{
	put_signed(b, v, true);
}

void ctl_jbuf_u64(struct ctl_jbuf *b, uint64_t v)
{
	char tmp[24], *end = tmp + sizeof(tmp) - 1, *s;

	*end = '"';
	s = ou_decimal_digits(end, v);
	*--s = '"';
	put_quoted(b, s, (size_t)(tmp + sizeof(tmp) - s));
}

void ctl_jbuf_hex(struct ctl_jbuf *b, uint64_t v)
{
	char tmp[24], *s = tmp + sizeof(tmp) - 1;

	*s = '"';
	s = ou_hex_digits(s, v, 0);
	*--s = 'x';
	*--s = '0';
	*--s = '"';
	put_quoted(b, s, (size_t)(tmp + sizeof(tmp) - s));
}

void ctl_jbuf_dfield(struct ctl_jbuf *b, const struct ras_dfield *df, const void *decoded)
{
	int64_t v;

	if (df->type == RAS_DF_STR) {
		const char *s = ras_dfield_str(decoded, df);

		ctl_jbuf_string(b, s, strnlen(s, df->size));
		return;
	}
	v = ras_dfield_int(decoded, df);
	if (v == RAS_DF_NONE)
		LIT(b, "null");
	else if (df->json == RAS_DJ_HEX)
		ctl_jbuf_hex(b, (uint64_t)v);
	else if (df->json == RAS_DJ_U64)
		ctl_jbuf_u64(b, (uint64_t)v);
	else
		ctl_jbuf_int(b, v);
}

static void two(char *d, unsigned v)
{
	d[0] = (char)('0' + v / 10 % 10);
	d[1] = (char)('0' + v % 10);
}

/* The second sec (>= 0) as "2026-11-29T14:03:40" in t[0..19). */
static void civil_second(char *t, int64_t sec)
{
	/* The civil date of a day count (proleptic Gregorian, eras of 400 years). */
	int64_t days = sec / 86400, rem = sec % 86400;
	int64_t z = days + 719468, era = z / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
	unsigned day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9;
	unsigned year = (unsigned)(yoe + era * 400) + (month <= 2);

	/* Every int64_t of nanoseconds from 0 is before the year 2263: four digits. */
	two(t, year / 100);
	two(t + 2, year % 100);
	t[4] = '-';
	two(t + 5, month);
	t[7] = '-';
	two(t + 8, day);
	t[10] = 'T';
	two(t + 11, (unsigned)(rem / 3600));
	t[13] = ':';
	two(t + 14, (unsigned)(rem / 60 % 60));
	t[16] = ':';
	two(t + 17, (unsigned)(rem % 60));
}

void ctl_jbuf_time(struct ctl_jbuf *b, int64_t wall_ns)
{
	char t[40];
	int64_t sec = wall_ns / 1000000000;
	uint32_t usec = (uint32_t)(wall_ns % 1000000000 / 1000);

	if (wall_ns < 0) {
		/* Before 1970: gmtime_r's way, as ras_format_time prints it. */
		ras_format_time(wall_ns, t, sizeof(t));
		put_raw(b, t, strlen(t));
		return;
	}
	/* The date and time of day kept for the next line: a storm's lines share the second. */
	if (!b->second_kept || b->second != sec) {
		civil_second(b->second_text, sec);
		b->second = sec;
		b->second_kept = true;
	}
	memcpy(t, b->second_text, 19);
	t[19] = '.';
	for (int i = 25; i > 19; i--, usec /= 10)
		t[i] = (char)('0' + usec % 10);
	t[26] = 'Z';
	put_raw(b, t, 27);
}

/* "time", "wall_s" and "wall_ns", as ctl_fprint_json_wall writes them. */
static void put_wall(struct ctl_jbuf *b, int64_t wall_ns)
{
	LIT(b, "\"time\":\"");
	ctl_jbuf_time(b, wall_ns);
	LIT(b, "\",\"wall_s\":");
	ctl_jbuf_int(b, wall_ns / 1000000000);
	LIT(b, ",\"wall_ns\":");
	ctl_jbuf_i64(b, wall_ns);
}

static void put_cstr(struct ctl_jbuf *b, const char *s)
{
	put_raw(b, s, strlen(s));
}

/* A NULL string as "", else the string. */
static void put_string0(struct ctl_jbuf *b, const char *s)
{
	ctl_jbuf_string(b, s, s ? strlen(s) : 0);
}

/* A raw field by its event-table flags: one JSON type per key, whatever the row holds. */
static void put_value(struct ctl_jbuf *b, const struct ras_field *f, const struct ras_value *v)
{
	if (!v->present) {
		LIT(b, "null");
	} else if (f->type == RAS_FT_INT && (f->flags & RAS_F_HEX)) {
		ctl_jbuf_hex(b, (uint64_t)v->i);
	} else if (f->type == RAS_FT_INT && (f->flags & RAS_F_WIDE)) {
		ctl_jbuf_u64(b, (uint64_t)v->i);
	} else if (f->type == RAS_FT_INT) {
		ctl_jbuf_int(b, v->i);
	} else if (f->type == RAS_FT_TEXT) {
		ctl_jbuf_string(b, v->p, v->p ? v->len : 0);
	} else {
		const uint8_t *p = v->p;
		char *d;

		put_quote(b);
		if (p && (d = room(b, 2 * (size_t)v->len))) {
			for (uint32_t i = 0; i < v->len; i++) {
				d[2 * i] = hexdig[p[i] >> 4];
				d[2 * i + 1] = hexdig[p[i] & 0xf];
			}
			b->len += 2 * (size_t)v->len;
		}
		put_quote(b);
	}
}

/* The keys every record line and folded-period line shares after its time. */
static void put_origin(struct ctl_jbuf *b, const struct ras_db_row *row)
{
	LIT(b, ",\"boot_id\":");
	put_string0(b, row->boot_id);
	LIT(b, ",\"source\":");
	put_string0(b, row->source);
	if (row->synthetic)
		LIT(b, ",\"synthetic\":true");
	else
		LIT(b, ",\"synthetic\":false");
}

/* "memory_failure": the linked record, or null when none was found. */
static void put_link(struct ctl_jbuf *b, const struct ctl_json_link *l)
{
	if (!l || !l->applies)
		return;
	LIT(b, ",\"memory_failure\":");
	if (!l->found) {
		LIT(b, "null");
		return;
	}
	LIT(b, "{\"id\":");
	ctl_jbuf_int(b, l->mf->id);
	put_char(b, ',');
	put_wall(b, l->mf->wall_ns);
	LIT(b, ",\"pfn\":");
	ctl_jbuf_hex(b, (uint64_t)l->mf->pfn);
	LIT(b, ",\"page_type\":");
	put_string0(b, l->mf->page_type);
	LIT(b, ",\"recovery\":");
	put_string0(b, l->mf->recovery);
	put_char(b, '}');
}

/* The line's start: the version, the type (a table name: plain) and the id. */
static void put_head(struct ctl_jbuf *b, const char *kind, const char *table, int64_t id)
{
	LIT(b, "{\"version\":");
	ctl_jbuf_int(b, RAS_JSON_VERSION);
	put_lit(b, kind, strlen(kind));   /* a literal */
	LIT(b, ",\"type\":\"");
	put_cstr(b, table);
	LIT(b, "\",\"id\":");
	ctl_jbuf_int(b, id);
}

/*
 * A record line's keys are its type's field names, the same 25 or so at each
 * of 100,000 lines (--part): each is escaped once and kept by its name's
 * address, in a table of JKEY_SLOTS. Only names of the event table come
 * here (static, never changed), so the address says which name it is. In
 * HTML mode this file's literals are kept the same way, in a second table.
 */
#define JKEY_SLOTS 256
#define JKEY_MAX 56

enum { KEPT_KEY, KEPT_LITERAL };

struct ctl_jkey {
	const char *name;
	size_t len;
	char text[JKEY_MAX];   /* "name": (a literal: as HTML text) */
};

static inline struct ctl_jkey *slot_of(struct ctl_jkey *keys, const char *src, unsigned kind)
{
	return &keys[kind * JKEY_SLOTS + ((uintptr_t)src * 0x9e3779b97f4a7c15ull >> 56)];
}

/* What was written for src kept in its table: written again, true; else false. */
static inline bool put_kept(struct ctl_jbuf *b, const char *src, unsigned kind)
{
	struct ctl_jkey *k;
	char *d;

	if (__builtin_expect(!b->keys, 0))
		return false;
	k = slot_of(b->keys, src, kind);
	if (k->name != src)
		return false;
	/* All JKEY_MAX bytes stored, a copy of fixed size without a call; k->len of them kept. */
	if ((d = room(b, JKEY_MAX))) {
		memcpy(d, k->text, JKEY_MAX);
		b->len += k->len;
	}
	return true;
}

/* What was written for src from at, kept in its slot if it fits (the tables made first). */
static void keep(struct ctl_jbuf *b, const char *src, unsigned kind, size_t at)
{
	struct ctl_jkey *k;

	if (!b->keys && !b->failed)
		b->keys = calloc(2 * JKEY_SLOTS, sizeof(*b->keys));   /* NULL: written every time */
	if (b->keys && !b->failed && b->len - at <= JKEY_MAX) {
		k = slot_of(b->keys, src, kind);
		k->name = src;
		k->len = b->len - at;
		memcpy(k->text, b->p + at, k->len);
	}
}

/* The slow side of put_table_key: escaped and kept. */
static void put_key_once(struct ctl_jbuf *b, const char *name)
{
	size_t at = b->len;

	ctl_jbuf_key(b, name);
	keep(b, name, KEPT_KEY, at);
}

static inline void put_table_key(struct ctl_jbuf *b, const char *name)
{
	if (!put_kept(b, name, KEPT_KEY))
		put_key_once(b, name);
}

static void put_lit_html(struct ctl_jbuf *b, const char *s, size_t len)
{
	size_t at = b->len;

	if (put_kept(b, s, KEPT_LITERAL))
		return;
	put_html_plain(b, s, len);
	keep(b, s, KEPT_LITERAL, at);
}

void ctl_jbuf_html(struct ctl_jbuf *b, bool html)
{
	if (b->html != html) {
		free(b->keys);   /* kept as the other mode wrote them */
		b->keys = NULL;
		b->html = html;
	}
}

void ctl_json_row(struct ctl_jbuf *b, const struct ras_db_row *row, const void *decoded,
		  const char *summary, const struct ctl_json_link *l)
{
	const struct ras_event_type *t = &ras_event_types[row->type_idx];
	const struct ras_decoded_head *h = decoded;

	put_head(b, "", t->table, row->id);
	put_char(b, ',');
	put_wall(b, row->wall_ns);
	LIT(b, ",\"trace_ts\":");
	ctl_jbuf_u64(b, (uint64_t)row->trace_ts);
	LIT(b, ",\"trace_cpu\":");
	ctl_jbuf_int(b, row->trace_cpu);
	put_origin(b, row);
	LIT(b, ",\"severity\":\"");
	put_cstr(b, ras_severity_name(h->severity));
	LIT(b, "\",\"location\":");
	ctl_jbuf_string(b, h->location, strnlen(h->location, sizeof(h->location)));
	LIT(b, ",\"summary\":");
	put_string0(b, summary);
	put_link(b, l);
	LIT(b, ",\"fields\":{");
	for (unsigned i = 0; i < t->n_fields; i++) {
		if (i)
			put_char(b, ',');
		put_table_key(b, t->fields[i].name);
		put_value(b, &t->fields[i], &row->values[i]);
	}
	LIT(b, "},\"decoded\":{");
	for (size_t i = 0; i < *t->n_dfields; i++) {
		if (i)
			put_char(b, ',');
		put_table_key(b, t->dfields[i].name);
		ctl_jbuf_dfield(b, &t->dfields[i], h);
	}
	LIT(b, "}}\n");
}

void ctl_json_fold(struct ctl_jbuf *b, const struct ras_db_row *row)
{
	const struct ras_db_fold_info *fi = row->fold;

	put_head(b, ",\"kind\":\"folded\"", ras_event_types[row->type_idx].table, row->id);
	LIT(b, ",\"subject\":");
	put_string0(b, fi->subject);
	LIT(b, ",\"records\":");
	ctl_jbuf_int(b, fi->records);
	LIT(b, ",\"errors\":");
	ctl_jbuf_int(b, fi->errors);
	LIT(b, ",\"first\":\"");
	ctl_jbuf_time(b, fi->first_ns);
	LIT(b, "\",\"last\":\"");
	ctl_jbuf_time(b, fi->last_ns);
	LIT(b, "\",\"first_ns\":");
	ctl_jbuf_i64(b, fi->first_ns);
	LIT(b, ",\"last_ns\":");
	ctl_jbuf_i64(b, fi->last_ns);
	put_origin(b, row);
	LIT(b, ",\"severity\":");
	put_string0(b, row->severity ? row->severity : "unknown");
	LIT(b, ",\"location\":");
	put_string0(b, row->location);
	if (fi->have_addr) {
		LIT(b, ",\"address_min\":");
		ctl_jbuf_hex(b, fi->addr_lo);
		LIT(b, ",\"address_max\":");
		ctl_jbuf_hex(b, fi->addr_hi);
	}
	LIT(b, ",\"detail\":");
	put_string0(b, fi->detail_name);
	LIT(b, ",\"distinct\":[");
	for (unsigned i = 0; i < fi->ndetails; i++) {
		if (i)
			put_char(b, ',');
		ctl_jbuf_hex(b, fi->details[i]);
	}
	if (fi->details_more)
		LIT(b, "],\"more_distinct\":true}\n");
	else
		LIT(b, "],\"more_distinct\":false}\n");
}
