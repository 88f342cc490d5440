/* SPDX-License-Identifier: MIT */
/* Minimal TAP producer for the automake TAP driver. Header-only. */
#ifndef RAS_TAP_H
#define RAS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The format strings come from the callers; clang -Wformat=2 would flag vprintf. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static int tap_count;
static int tap_failed;

static inline void tap_plan(int n) { printf("1..%d\n", n); }

static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

#define tap_is_int(got, want, ...) do {                                          \
	long long tap_g_ = (long long)(got), tap_w_ = (long long)(want);         \
	if (!tap_ok(tap_g_ == tap_w_, __VA_ARGS__))                              \
		printf("#   got %lld (0x%llx), want %lld (0x%llx)\n",                \
		       tap_g_, tap_g_, tap_w_, tap_w_);                              \
} while (0)

#define tap_is_str(got, want, ...) do {                                          \
	const char *tap_g_ = (got), *tap_w_ = (want);                            \
	int tap_c_ = tap_g_ && tap_w_ ? strcmp(tap_g_, tap_w_) == 0 : tap_g_ == tap_w_; \
	if (!tap_ok(tap_c_, __VA_ARGS__))                                        \
		printf("#   got \"%s\"\n#  want \"%s\"\n",                         \
		       tap_g_ ? tap_g_ : "(null)", tap_w_ ? tap_w_ : "(null)"); \
} while (0)

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline void tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(77);
}

/* Ends a test without a plan printed up front. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
