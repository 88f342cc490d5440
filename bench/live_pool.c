/* SPDX-License-Identifier: MIT */
/*
 * make bench-live's records. The pool holds make bench's varied stream
 * (bench/stream.c, its seed) wrapped for trace_marker_raw once, so a write
 * costs one write(2). A step at a high rate writes more records than the
 * pool holds: cycled as they are, the same pages, rows and syndromes would
 * come back every pool's length, and rasd's per-subject caches would hit far
 * more often than in a real storm. So a record past the pool is the pool's
 * record i % n with every field a storm varies rewritten in place from a
 * generator seeded by i (same lengths, so no layout changes): the address,
 * syndrome, rank, bank group, bank and row of an EDAC record; the CPU (with
 * its socket and APIC id), bank, address, MISC and corrected count of a
 * machine check; the device of a PCIe record; the page of a platform one.
 * A copy and a dozen draws: far cheaper than the write itself.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/event_table.h"
#include "lib/formats.h"
#include "live_pool.h"
#include "stream.h"

enum { LIVE_NONE, LIVE_MC, LIVE_MCE, LIVE_AER, LIVE_MF, LIVE_EXTLOG };

/* Which fields each kind rewrites, in its live_kind.f[] order. */
static const struct {
	const char *name;
	int kind;
	const char *fields[8];
} kind_fields[] = {
	{ "ras:mc_event", LIVE_MC, { "address", "syndrome", "driver_detail" } },
	{ "mce:mce_record", LIVE_MCE,
	  { "status", "addr", "misc", "bank", "cpu", "socketid", "apicid", "walltime" } },
	{ "ras:aer_event", LIVE_AER, { "dev_name" } },
	{ "ras:memory_failure_event", LIVE_MF, { "pfn" } },
	{ "ras:extlog_mem_event", LIVE_EXTLOG, { "err_seq", "pa" } },
};
#define N_KINDS (sizeof(kind_fields) / sizeof(kind_fields[0]))

/* bench/stream.c's PCIe devices: all 12 characters, so one replaces another in place. */
static const char *const aer_devices[] = {
	"0000:00:1c.0", "0000:00:1d.0", "0000:3a:00.0", "0000:3b:00.0", "0000:5e:00.0",
	"0000:5e:00.1", "0000:86:00.0", "0000:af:00.0", "0000:d8:00.0", "0000:d8:00.1",
};

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned draw(uint64_t *s, unsigned n)
{
	return (unsigned)(splitmix(s) % n);
}

/* Resolves kind k's fields in event ev; the pool's kinds[k]. */
static void kind_resolve(struct live_kind *lk, struct tep_event *ev, size_t k)
{
	memset(lk, 0, sizeof(*lk));
	lk->kind = kind_fields[k].kind;
	for (int j = 0; j < 8 && kind_fields[k].fields[j]; j++) {
		struct tep_format_field *fd = tep_find_field(ev, kind_fields[k].fields[j]);

		if (!fd)
			continue;
		/* A __rel_loc's offset counts from the end of its own 4 bytes: kept as a data_loc's. */
		lk->f[j].off = (uint16_t)fd->offset;
		lk->f[j].size = (uint16_t)(fd->flags & TEP_FIELD_IS_RELATIVE ? 0x8000 | fd->size : fd->size);
	}
}

static int kind_of(struct live_pool *p, struct ras_formats *fmt, const char *name)
{
	for (size_t k = 0; k < N_KINDS; k++) {
		const struct ras_event_type *t;

		if (strcmp(kind_fields[k].name, name))
			continue;
		if (p->kinds[k + 1].kind == LIVE_NONE && (t = ras_event_type_find(name)))
			kind_resolve(&p->kinds[k + 1], fmt->type[t - ras_event_types].event, k);
		return (int)k + 1;
	}
	return 0;
}

static int pool_add(struct live_pool *p, struct ras_formats *fmt, long i, uint64_t *seed, size_t *cap)
{
	struct bench_fields f;
	const struct ras_event_type *t;
	char err[256];
	unsigned idx;
	int len;

	bench_stream_fields(&f, i, seed);
	t = ras_event_type_find(f.name);
	if (!t || !fmt->type[(idx = (unsigned)(t - ras_event_types))].event) {
		fprintf(stderr, "bench-live: no format for %s\n", f.name);
		return -1;
	}
	if (p->bytes + RAS_SYNTH_MAX > *cap) {
		uint8_t *d = realloc(p->data, *cap * 2);

		if (!d)
			return -1;
		p->data = d;
		*cap *= 2;
	}
	len = ras_synth_build(fmt->type[idx].event, fmt->type[idx].system, f.assign, f.n,
			      p->data + p->bytes, RAS_SYNTH_MAX, err, sizeof(err));
	if (len < 0) {
		fprintf(stderr, "bench-live: %s\n", err);
		return -1;
	}
	p->off[i] = p->bytes;
	p->len[i] = (uint16_t)len;
	/* u32 id, u16 version, u16 name_len, u32 rec_len, the name, then the record. */
	p->rec[i] = (uint16_t)(12 + strlen(f.name));
	p->kind[i] = (uint8_t)kind_of(p, fmt, f.name);
	p->bytes += (size_t)len;
	if ((size_t)len > p->max_len)
		p->max_len = (size_t)len;
	return 0;
}

int live_pool_build(struct live_pool *p, long n, const char *tracing_dir, const char *formats_dir)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;   /* make bench's seed: the same stream */
	struct ras_formats *fmt;
	size_t cap = 1 << 20;
	int r = 0;

	memset(p, 0, sizeof(*p));
	if (n < 1 || ras_formats_load(&fmt, tracing_dir, NULL, formats_dir) < 0)
		return -1;
	p->data = malloc(cap);
	p->off = calloc((size_t)n, sizeof(*p->off));
	p->len = calloc((size_t)n, sizeof(*p->len));
	p->rec = calloc((size_t)n, sizeof(*p->rec));
	p->kind = calloc((size_t)n, 1);
	if (!p->data || !p->off || !p->len || !p->rec || !p->kind)
		r = -1;
	for (long i = 0; i < n && r == 0; i++)
		r = pool_add(p, fmt, i, &seed, &cap);
	p->n = r == 0 ? n : 0;
	ras_formats_free(fmt);
	return r;
}

void live_pool_free(struct live_pool *p)
{
	free(p->data);
	free(p->off);
	free(p->len);
	free(p->rec);
	free(p->kind);
	memset(p, 0, sizeof(*p));
}

static void put(uint8_t *rec, struct live_field f, uint64_t v)
{
	uint8_t b8 = (uint8_t)v;
	uint16_t b16 = (uint16_t)v;
	uint32_t b32 = (uint32_t)v;

	switch (f.size) {
	case 1: memcpy(rec + f.off, &b8, 1); break;
	case 2: memcpy(rec + f.off, &b16, 2); break;
	case 4: memcpy(rec + f.off, &b32, 4); break;
	case 8: memcpy(rec + f.off, &v, 8); break;
	default: break;   /* not there in this kernel's format: left as built */
	}
}

/* A string field's text and length (its NUL included), or NULL. */
static char *string_of(uint8_t *rec, size_t rec_len, struct live_field f, size_t *len)
{
	uint32_t loc;
	size_t at;

	if ((f.size & 0x7fff) != 4 || f.off + 4u > rec_len)
		return NULL;
	memcpy(&loc, rec + f.off, 4);
	at = (loc & 0xffff) + (f.size & 0x8000 ? f.off + 4u : 0);
	*len = loc >> 16;
	return at + *len <= rec_len && *len > 0 ? (char *)rec + at : NULL;
}

/* The single digit after word in s (0 to n-1), drawn afresh. */
static void redraw_digit(char *s, size_t len, const char *word, unsigned n, uint64_t *seed)
{
	size_t w = strlen(word);

	for (size_t i = 0; i + w + 1 < len; i++)
		if (!memcmp(s + i, word, w)) {
			if (s[i + w] >= '0' && s[i + w] <= '9' && (s[i + w + 1] == ' ' || !s[i + w + 1]))
				s[i + w] = (char)('0' + draw(seed, n));
			return;
		}
}

/* The row's hex digits after its first one, drawn afresh (the row stays below 0x20000). */
static void redraw_row(char *s, size_t len, uint64_t *seed)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i + 7 < len; i++)
		if (!memcmp(s + i, "row:0x", 6)) {
			for (size_t j = i + 7; j < len && s[j] && s[j] != ' '; j++)
				s[j] = hex[draw(seed, 16)];
			return;
		}
}

static void vary_mc(uint8_t *rec, size_t rec_len, const struct live_kind *k, uint64_t *seed)
{
	size_t len;
	char *detail;

	put(rec, k->f[0], splitmix(seed) & 0x3fffffffc0ULL);
	put(rec, k->f[1], splitmix(seed) & 0xffffffffULL);
	if ((detail = string_of(rec, rec_len, k->f[2], &len))) {
		redraw_digit(detail, len, "rank:", 4, seed);
		redraw_digit(detail, len, "bg:", 4, seed);
		redraw_digit(detail, len, "ba:", 4, seed);
		redraw_row(detail, len, seed);
	}
}

static void vary_mce(uint8_t *rec, const struct live_kind *k, long i, uint64_t *seed)
{
	uint64_t status;
	unsigned cpu = draw(seed, 64);

	/* The template's status code kept; its corrected count (STATUS[52:38]) drawn. */
	if (k->f[0].size == 8) {
		memcpy(&status, rec + k->f[0].off, 8);
		status = (status & ~(0x7fffULL << 38)) | ((uint64_t)(1 + draw(seed, 0x7ffe)) << 38);
		put(rec, k->f[0], status);
	}
	put(rec, k->f[1], splitmix(seed) & 0x3fffffffc0ULL);
	put(rec, k->f[2], 0x8cULL | (splitmix(seed) & 0xff00ULL));
	put(rec, k->f[3], draw(seed, 23));
	put(rec, k->f[4], cpu);
	put(rec, k->f[5], cpu / 32);
	put(rec, k->f[6], cpu * 2);
	put(rec, k->f[7], (uint64_t)(1795000000L + i / 1000));
}

static void vary(uint8_t *rec, size_t rec_len, const struct live_kind *k, long i)
{
	uint64_t seed = (uint64_t)i * 0xd1342543de82ef95ULL;
	size_t len;
	char *dev;

	switch (k->kind) {
	case LIVE_MC:
		vary_mc(rec, rec_len, k, &seed);
		break;
	case LIVE_MCE:
		vary_mce(rec, k, i, &seed);
		break;
	case LIVE_AER:
		if ((dev = string_of(rec, rec_len, k->f[0], &len)) && len == 13)
			memcpy(dev, aer_devices[draw(&seed, 10)], 12);
		break;
	case LIVE_MF:
		put(rec, k->f[0], splitmix(&seed) & 0x3ffffffULL);
		break;
	case LIVE_EXTLOG:
		put(rec, k->f[0], (uint64_t)i);
		put(rec, k->f[1], splitmix(&seed) & 0x3fffffffc0ULL);
		break;
	default:
		break;
	}
}

const uint8_t *live_pool_record(const struct live_pool *p, long i, uint8_t *buf, size_t *len)
{
	long t = i % p->n;
	const uint8_t *src = p->data + p->off[t];

	*len = p->len[t];
	if (i < p->n)
		return src;
	memcpy(buf, src, *len);
	vary(buf + p->rec[t], *len - p->rec[t], &p->kinds[p->kind[t]], i);
	return buf;
}
