/* SPDX-License-Identifier: MIT */
#include "text_num.h"

static int digit_value(char c, unsigned base)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool text_num_prefix(const char *s, unsigned base, uint64_t *v, const char **end)
{
	uint64_t x = 0;
	const char *p;
	int d;

	if (!s)
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (p = s; (d = digit_value(*p, base)) >= 0; p++) {
		if (x > (UINT64_MAX - (unsigned)d) / base)
			return false;
		x = x * base + (unsigned)d;
	}
	if (p == s)
		return false;
	*v = x;
	if (end)
		*end = p;
	return true;
}

bool text_num_whole(const char *s, unsigned base, uint64_t *v)
{
	const char *end;
	uint64_t x;

	if (!text_num_prefix(s, base, &x, &end) || *end)
		return false;
	*v = x;
	return true;
}
