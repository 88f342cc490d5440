/* SPDX-License-Identifier: MIT */
/*
 * What the decoder-text tests keep of a parser's callbacks: how many
 * records, the line of each, the line of each refusal, and each record's
 * notes as "key=value". A test's own struct starts with a struct text_got,
 * so that text_got_error can be the parser's on_error as it is.
 */
#ifndef RAS_TEST_TEXT_GOT_H
#define RAS_TEST_TEXT_GOT_H

#include <errno.h>
#include <stdio.h>
#include "decoders/text_note.h"

#define TEXT_GOT_MAX 16

struct text_got {
	int n, n_err;
	unsigned line[TEXT_GOT_MAX], err_line[TEXT_GOT_MAX];
	char note[TEXT_GOT_MAX][TEXT_NOTES][96];
};

/* The slot for a record read at line: its index, or -ENOSPC when the test's arrays are full. */
static inline int text_got_add(struct text_got *g, unsigned line)
{
	if (g->n >= TEXT_GOT_MAX)
		return -ENOSPC;
	g->line[g->n] = line;
	return g->n++;
}

/* Keeps record i's notes (may be NULL: a parser without notes). */
static inline void text_got_notes(struct text_got *g, int i, const struct text_note *notes)
{
	for (int k = 0; notes && k < TEXT_NOTES; k++)
		if (notes[k].key)
			snprintf(g->note[i][k], sizeof(g->note[i][k]), "%s=%.*s", notes[k].key,
				 (int)notes[k].value_len, notes[k].value);
}

/* A parser's on_error: the line of each refusal. */
static inline void text_got_error(void *ctx, unsigned line, const char *reason)
{
	struct text_got *g = ctx;

	(void)reason;
	if (g->n_err < TEXT_GOT_MAX)
		g->err_line[g->n_err] = line;
	g->n_err++;
}

#endif
