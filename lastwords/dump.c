/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include "dump.h"
#include "mce_layout.h"

static int cmp_int(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

/* Same dump key: everything but the time and the part number. */
static int cmp_key(const struct lw_part *a, const struct lw_part *b)
{
	int c = cmp_int(a->pn.kind, b->pn.kind);

	if (!c)
		c = cmp_int(a->dir, b->dir);
	if (!c)
		c = strcmp(a->pn.backend, b->pn.backend);
	if (!c)
		c = cmp_int(a->hdr.present, b->hdr.present);
	if (!c)
		c = strcmp(a->hdr.reason, b->hdr.reason);
	if (!c)
		c = cmp_int(a->hdr.count, b->hdr.count);
	return c;
}

static int cmp_parts(const void *x, const void *y)
{
	const struct lw_part *a = x, *b = y;
	int c = cmp_key(a, b);

	if (!c)
		c = cmp_int(a->mtime_s, b->mtime_s);
	if (!c)
		c = cmp_int(b->hdr.part, a->hdr.part);     /* the highest part, the oldest log, first */
	if (!c)
		c = a->pn.id < b->pn.id ? -1 : a->pn.id > b->pn.id;
	if (!c)
		c = strcmp(a->name, b->name);
	return c;
}

/* Whether b, sorted after a, starts another dump. */
static bool starts_dump(const struct lw_part *a, const struct lw_part *b)
{
	if (cmp_key(a, b) || !b->hdr.present || b->pn.kind != LW_KIND_DMESG)
		return true;
	if (a->mtime_s && b->mtime_s && b->mtime_s - a->mtime_s > LW_DUMP_SLACK_S)
		return true;
	/* A part number again: another dump with the same header (another boot's). */
	return b->hdr.part >= a->hdr.part;
}

unsigned lw_dump_group(struct lw_part *parts, unsigned n)
{
	unsigned groups = 0;

	for (unsigned i = 0; i < n; i++) {
		memset(&parts[i].hdr, 0, sizeof(parts[i].hdr));
		parts[i].body = 0;
		if (parts[i].pn.kind == LW_KIND_DMESG)
			lw_dmesg_header_parse((const char *)parts[i].data, parts[i].len, &parts[i].hdr,
					      &parts[i].body);
	}
	if (n > 1)
		qsort(parts, n, sizeof(*parts), cmp_parts);
	for (unsigned i = 0; i < n; i++) {
		if (i == 0 || starts_dump(&parts[i - 1], &parts[i]))
			groups++;
		parts[i].group = groups - 1;
	}
	return groups;
}

unsigned lw_dump_parts(const struct lw_part *parts, unsigned n, unsigned g, unsigned *first)
{
	unsigned count = 0;

	*first = 0;
	for (unsigned i = 0; i < n; i++) {
		if (parts[i].group != g)
			continue;
		if (!count)
			*first = i;
		count++;
	}
	return count;
}

void lw_dump_analyze(const struct lw_part *p, unsigned n, struct lw_analysis *a)
{
	lw_analysis_init(a);
	for (unsigned i = 0; i < n; i++) {
		size_t pos = p[i].body;
		struct lw_line l;

		while (lw_dmesg_next_line((const char *)p[i].data, p[i].len, &pos, &l))
			lw_analysis_line(a, &l);
	}
	lw_analysis_finish(a, n && p[0].hdr.present ? p[0].hdr.reason : "");
}

unsigned lw_dump_missing(const struct lw_part *p, unsigned n)
{
	unsigned high = 0;

	if (!n || !p[0].hdr.present)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (p[i].hdr.part > high)
			high = p[i].hdr.part;
	/* Parts run from 1 to the highest; each one present once (starts_dump). */
	return high > n ? high - n : 0;
}

uint64_t lw_dump_identity(const struct lw_part *p, unsigned n)
{
	uint64_t h = LW_HASH_INIT;

	for (unsigned i = 0; i < n; i++) {
		uint8_t kind = (uint8_t)p[i].pn.kind;

		h = lw_hash(h, &kind, 1);
		h = lw_hash(h, p[i].pn.backend, strlen(p[i].pn.backend) + 1);
		h = lw_hash(h, p[i].data, p[i].len);
	}
	return h ? h : 1;
}
