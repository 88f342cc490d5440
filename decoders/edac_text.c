/* SPDX-License-Identifier: MIT */
/*
 * EDAC core error line parser (see edac_text.h). Facts from Linux
 * drivers/edac/edac_mc.c: edac_mc_printk() prefixes "EDAC MC<n>: "; the
 * message is "<count> CE <msg> on <label> (<layers> page:0x<pfn>
 * offset:0x<off> grain:<bytes> syndrome:0x<synd> - <detail>)", the UE form
 * the same without syndrome; each layer prints as "<name>:<index> " with
 * names from edac_layer_name[] (csrow, channel, slot, branch, memory).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "edac_text.h"

/*
 * printk keeps a record's text to PRINTKRB_RECORD_MAX 1024 bytes
 * (kernel/printk/internal.h); a dmesg, syslog or journal line puts a time
 * stamp, host and tag before it.
 */
#define EDAC_LINE_MAX 1280
#define EDAC_LAYERS 3

struct edac_line {
	struct edac_in rec;
	char names[EDAC_LAYERS][16];
	char detail[EDAC_LINE_MAX];   /* a location that is not layers, then the driver's detail */
	const char *reason;
};

static bool read_u64(const char *s, int base, uint64_t *v, const char **end)
{
	char *e;

	if (base == 16 && s[0] == '0' && s[1] == 'x')
		s += 2;
	if (!(*s >= '0' && *s <= '9') && !(base == 16 && ((*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F'))))
		return false;
	errno = 0;
	*v = strtoull(s, &e, base);
	*end = e;
	return errno == 0;
}

static const struct { const char *word; uint32_t type; } error_types[] = {
	{ "CE ", EDAC_ERR_CORRECTED }, { "UE ", EDAC_ERR_UNCORRECTED },
};

/* "<count> CE " after the prefix: the line is an EDAC error record. Returns the text after it. */
static const char *record_start(const char *s, struct edac_in *rec)
{
	uint64_t count;

	if (!read_u64(s, 10, &count, &s) || *s++ != ' ' || count > UINT16_MAX)
		return NULL;
	for (size_t i = 0; i < sizeof(error_types) / sizeof(error_types[0]); i++)
		if (strncmp(s, error_types[i].word, 3) == 0) {
			rec->error_type = error_types[i].type;
			rec->error_count = (uint16_t)count;
			return s + 3;
		}
	return NULL;
}

/* "name:index " pairs from s up to end: the controller's layers, in order. */
static bool parse_layers(struct edac_line *l, const char *s, const char *end)
{
	int8_t *slot[EDAC_LAYERS] = { &l->rec.top_layer, &l->rec.middle_layer, &l->rec.lower_layer };
	int n = 0;

	while (s < end) {
		const char *colon = memchr(s, ':', (size_t)(end - s));
		char *e;
		long v;

		if (!colon || n == EDAC_LAYERS || colon - s >= (long)sizeof(l->names[0]))
			return false;
		memcpy(l->names[n], s, (size_t)(colon - s));
		l->names[n][colon - s] = '\0';
		v = strtol(colon + 1, &e, 10);
		if (e == colon + 1 || v < -1 || v > 127 || (*e != ' ' && e != end))
			return false;
		*slot[n] = (int8_t)v;
		l->rec.layer_name[n] = l->names[n];
		n++;
		s = e;
		while (s < end && *s == ' ')
			s++;
	}
	return true;
}

static uint8_t grain_bits(uint64_t grain)
{
	uint8_t b = 0;

	while (b < 63 && (UINT64_C(1) << b) < grain)
		b++;
	return b;
}

/* "page:0x.. offset:0x.. grain:N[ syndrome:0x..][ - detail])" */
static bool parse_tail(struct edac_line *l, const char *s, const char *close)
{
	uint64_t page, offset, grain, synd = 0;

	if (strncmp(s, "page:", 5) || !read_u64(s + 5, 16, &page, &s) ||
	    strncmp(s, " offset:", 8) || !read_u64(s + 8, 16, &offset, &s) ||
	    strncmp(s, " grain:", 7) || !read_u64(s + 7, 10, &grain, &s))
		return false;
	if (strncmp(s, " syndrome:", 10) == 0 && !read_u64(s + 10, 16, &synd, &s))
		return false;
	l->rec.address = (int64_t)(page << 12 | offset);
	l->rec.grain_bits = grain_bits(grain);
	l->rec.syndrome = (int64_t)synd;
	if (strncmp(s, " - ", 3) == 0) {
		s += 3;
		while (*s == ' ')
			s++;
		l->rec.driver_detail = s;
		l->rec.driver_detail_len = (size_t)(close - s);
	} else if (s != close) {
		return false;
	}
	return true;
}

/*
 * A location that is not up to three "layer:index" pairs (ghes_edac prints
 * the firmware's "node:0 card:0 module:0 rank:1 bank:3 ..."): kept as text
 * in front of the driver's detail, and no layer is claimed.
 */
static void keep_location(struct edac_line *l, const char *s, const char *end)
{
	size_t n = (size_t)(end - s);

	while (n && s[n - 1] == ' ')
		n--;
	l->rec.top_layer = l->rec.middle_layer = l->rec.lower_layer = -1;
	memset(l->rec.layer_name, 0, sizeof(l->rec.layer_name));
	snprintf(l->detail, sizeof(l->detail), "location %.*s%s%.*s", (int)n, s,
		 l->rec.driver_detail_len ? "; " : "", (int)l->rec.driver_detail_len,
		 l->rec.driver_detail ? l->rec.driver_detail : "");
	l->rec.driver_detail = l->detail;
	l->rec.driver_detail_len = strlen(l->detail);
}

/* After "<count> CE ": "[msg ]on <label> (<layers> page:... )". */
static bool parse_body(struct edac_line *l, const char *s)
{
	const char *on = strncmp(s, "on ", 3) == 0 ? s : strstr(s, " on ");
	const char *page, *open, *close, *label;

	if (!on || !strchr(s, ')'))
		return !(l->reason = "EDAC error line without \"on <label> (...)\"");
	l->rec.msg = s;
	l->rec.msg_len = (size_t)(on - s);
	label = on + (on == s ? 3 : 4);
	page = strstr(label, "page:0x");
	for (open = page; open && open > label && *open != '('; open--)
		;
	if (!page || !open || *open != '(' || open == label)
		return !(l->reason = "EDAC error line without page:/offset: location");
	/* The location's ')' follows page:; one only before it (a label's) ends nothing. */
	close = strrchr(page, ')');
	if (!close)
		return !(l->reason = "EDAC error line without \"on <label> (...)\"");
	l->rec.label = label;
	l->rec.label_len = (size_t)(open - label);
	while (l->rec.label_len && label[l->rec.label_len - 1] == ' ')
		l->rec.label_len--;
	if (!parse_tail(l, page, close))
		return !(l->reason = "bad page/offset/grain/syndrome in EDAC error line");
	if (!parse_layers(l, open + 1, page))
		keep_location(l, open + 1, page);
	return true;
}

/* Returns 1 for a record, 0 for a line that is not one, -1 for a malformed record. */
static int parse_line(struct edac_line *l, const char *text)
{
	const char *s = strstr(text, "EDAC MC");
	uint64_t mc;

	if (!s || !read_u64(s + 7, 10, &mc, &s) || strncmp(s, ": ", 2) != 0 || mc > UINT8_MAX)
		return 0;
	memset(l, 0, sizeof(*l));
	l->rec.top_layer = l->rec.middle_layer = l->rec.lower_layer = -1;
	l->rec.mc_index = (uint8_t)mc;
	s = record_start(s + 2, &l->rec);
	if (!s)
		return 0;
	return parse_body(l, s) ? 1 : -1;
}

int edac_text_parse(const char *buf, size_t len,
		    int (*on_record)(void *ctx, const struct edac_in *rec, unsigned line),
		    void (*on_error)(void *ctx, unsigned line, const char *reason),
		    void *ctx)
{
	struct edac_line l;
	char text[EDAC_LINE_MAX];
	unsigned line = 0;
	size_t pos = 0;
	int count = 0;

	if ((!buf && len) || !on_record)
		return -EINVAL;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos, keep;
		int rc;

		line++;
		keep = n < sizeof(text) ? n : sizeof(text) - 1;
		memcpy(text, buf + pos, keep);
		text[keep] = '\0';
		for (size_t i = 0; i < keep; i++)
			if (!text[i] || text[i] == '\r')
				text[i] = ' ';
		pos += n + (nl ? 1 : 0);
		rc = parse_line(&l, text);
		if (rc < 0 && on_error)
			on_error(ctx, line, l.reason);
		if (rc <= 0)
			continue;
		rc = on_record(ctx, &l.rec, line);
		if (rc < 0)
			return rc;
		count++;
	}
	return count;
}
