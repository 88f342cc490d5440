/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "dmesg.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits at buf[*i..len) into *v (at most 19 of them); false when none. */
static bool read_number(const char *buf, size_t len, size_t *i, uint64_t *v)
{
	size_t start = *i;

	*v = 0;
	while (*i < len && is_digit(buf[*i]) && *i - start < 19)
		*v = *v * 10 + (uint64_t)(buf[(*i)++] - '0');
	return *i > start;
}

void lw_dmesg_header_parse(const char *buf, size_t len, struct lw_dmesg_header *h, size_t *body)
{
	const char *nl = memchr(buf, '\n', len < 64 ? len : 64);
	size_t end = nl ? (size_t)(nl - buf) : 0, i = 0, r = 0;
	uint64_t count, part;

	memset(h, 0, sizeof(*h));
	*body = 0;
	if (!nl)
		return;
	/* REASON: letters only, then '#'. */
	while (i < end && ((buf[i] >= 'A' && buf[i] <= 'Z') || (buf[i] >= 'a' && buf[i] <= 'z')))
		i++;
	if (!i || i >= sizeof(h->reason) || i >= end || buf[i] != '#')
		return;
	r = i++;
	if (!read_number(buf, end, &i, &count) || i + 5 > end || memcmp(buf + i, " Part", 5))
		return;
	i += 5;
	if (!read_number(buf, end, &i, &part) || i != end || count > 0xffffffffu || part > 0xffffffffu)
		return;
	memcpy(h->reason, buf, r);
	h->reason[r] = 0;
	h->count = (unsigned)count;
	h->part = (unsigned)part;
	h->present = true;
	*body = end + 1;
}

/* "<N>" at the start: the syslog priority, whose low three bits are the level. */
static void take_level(struct lw_line *l)
{
	size_t i = 1;
	uint64_t prio;

	if (l->len < 3 || l->text[0] != '<' || !read_number(l->text, l->len, &i, &prio) ||
	    i >= l->len || l->text[i] != '>')
		return;
	l->level = (int)(prio & 7);
	l->text += i + 1;
	l->len -= i + 1;
}

/* CONFIG_PRINTK_CALLER's "[    T1]" or "[   C0]": exactly that shape, not "[Firmware Bug]". */
static void take_caller(struct lw_line *l)
{
	size_t i = 1;
	uint64_t id;

	if (l->len < 4 || l->text[0] != '[')
		return;
	while (i < l->len && l->text[i] == ' ')
		i++;
	if (i >= l->len || (l->text[i] != 'T' && l->text[i] != 'C'))
		return;
	i++;
	if (!read_number(l->text, l->len, &i, &id) || i >= l->len || l->text[i] != ']')
		return;
	l->text += i + 1;
	l->len -= i + 1;
}

/* "[  123.456789]" (any number of spaces, digits, '.', digits), then an optional caller id. */
static void take_time(struct lw_line *l)
{
	size_t i = 1, frac_start;
	uint64_t sec, frac;

	if (!l->len || l->text[0] != '[')
		return;
	while (i < l->len && l->text[i] == ' ')
		i++;
	if (!read_number(l->text, l->len, &i, &sec) || i >= l->len || l->text[i] != '.')
		return;
	frac_start = ++i;
	if (!read_number(l->text, l->len, &i, &frac) || i >= l->len || l->text[i] != ']' ||
	    i - frac_start > 9 || sec > 9000000000ULL)
		return;
	for (size_t d = i - frac_start; d < 9; d++)
		frac *= 10;
	l->uptime_ns = (int64_t)(sec * 1000000000ULL + frac);
	l->text += i + 1;
	l->len -= i + 1;
	take_caller(l);
	if (l->len && l->text[0] == ' ') {
		l->text++;
		l->len--;
	}
}

int lw_dmesg_next_line(const char *buf, size_t len, size_t *pos, struct lw_line *l)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	nl = memchr(buf + *pos, '\n', len - *pos);
	l->text = buf + *pos;
	l->len = nl ? (size_t)(nl - l->text) : len - *pos;
	*pos += l->len + (nl ? 1 : 0);
	l->level = -1;
	l->uptime_ns = -1;
	take_level(l);
	take_time(l);
	return 1;
}
