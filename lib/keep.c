/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "keep.h"

/* Appends s to buf at *at; false once it no longer fits. */
static bool put(char *buf, size_t len, size_t *at, const char *s)
{
	size_t n = strlen(s);

	if (*at + n >= len)
		return false;
	memcpy(buf + *at, s, n + 1);
	*at += n;
	return true;
}

/* "field == a" or "(field == a || field == b)"; negated "field != a && field != b". */
static bool put_term(char *buf, size_t len, size_t *at, const struct ras_keep_term *t, bool alone)
{
	/* && binds tighter than ||: a term of alternatives among others needs them. */
	bool paren = t->n > 1 && !t->negate && !alone;
	bool ok = !paren || put(buf, len, at, "(");

	for (unsigned i = 0; ok && i < t->n; i++) {
		char num[24];

		snprintf(num, sizeof(num), "%" PRId64, t->v[i]);
		ok = (!i || put(buf, len, at, t->negate ? " && " : " || ")) &&
		     put(buf, len, at, t->field) && put(buf, len, at, t->negate ? " != " : " == ") &&
		     put(buf, len, at, num);
	}
	return ok && (!paren || put(buf, len, at, ")"));
}

int ras_keep_filter(const struct ras_event_type *type, char *buf, size_t len)
{
	const struct ras_keep *k = type->keep;
	size_t at = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = 0;
	for (unsigned i = 0; k && i < k->n; i++) {
		if ((i && !put(buf, len, &at, " && ")) ||
		    !put_term(buf, len, &at, &k->t[i], k->n == 1)) {
			buf[0] = 0;
			return -ENOSPC;
		}
	}
	return 0;
}

bool ras_keep_match(const struct ras_event_type *type, const struct ras_value *values)
{
	const struct ras_keep *k = type->keep;

	for (unsigned i = 0; k && i < k->n; i++) {
		const struct ras_keep_term *t = &k->t[i];
		int f = ras_event_field_index(type, t->field);
		bool in = false;

		if (f < 0 || !values[f].present || values[f].p)
			return false;
		for (unsigned j = 0; j < t->n; j++)
			in |= values[f].i == t->v[j];
		if (in == t->negate)
			return false;
	}
	return true;
}
