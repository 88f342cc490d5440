/* SPDX-License-Identifier: MIT */
/* lib/str.h: the per-record copies and integers print what snprintf prints, cut alike. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "lib/str.h"
#include "tap.h"

static void check_int(long long v)
{
	char got[32], want[32];
	size_t n = ras_str_int(got, v);

	got[n] = '\0';
	snprintf(want, sizeof(want), "%lld", v);
	tap_ok(!strcmp(got, want) && n == strlen(want), "ras_str_int(%s) = \"%s\"", want, got);
}

static void check_copy(const char *src, size_t size)
{
	char got[16], want[16];

	memset(got, 'x', sizeof(got));
	ras_str_copy(got, size, src);
	snprintf(want, size, "%s", src);
	tap_ok(!strcmp(got, want) && got[size] == 'x', "ras_str_copy(\"%s\", %zu) = \"%s\"", src,
	       size, got);
}

static void check_join(const char *a, const char *b, size_t size)
{
	char got[16], want[16];
	size_t n = ras_str_join(got, size, a, b);

	snprintf(want, size, "%s %s", a, b);
	tap_ok(!strcmp(got, want) && n == strlen(want), "ras_str_join(\"%s\", \"%s\", %zu) = \"%s\"",
	       a, b, size, got);
}

int main(void)
{
	static const long long ints[] = { 0, 1, -1, 9, 10, -10, 1234567890123LL, LLONG_MAX, LLONG_MIN };

	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		check_int(ints[i]);
	check_copy("", 1);
	check_copy("abc", 1);
	check_copy("abc", 3);
	check_copy("abc", 4);
	check_copy("abcdefgh", 8);
	check_join("dimm", "mc0", 16);
	check_join("dimm", "mc0", 5);
	check_join("dimm", "mc0", 6);
	check_join("dimm", "mc0", 4);
	check_join("", "", 2);
	return tap_done();
}
