/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl decode on text (see decode_text.h). Each parser of decoders/
 * hands over records whose strings point into the input or into the
 * parser's own state, valid only during the callback: every string is
 * copied into the item, and the decoder inputs are pointed at those copies
 * only when the item is decoded, after the item array has stopped moving.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "decode_text.h"
#include "decoders/aer_text.h"
#include "decoders/edac_text.h"
#include "decoders/mce_text.h"
#include "decoders/mce_text_amd.h"

enum item_kind { ITEM_MCE, ITEM_AER, ITEM_EDAC };

#define ITEM_STRINGS 6
#define ITEM_STRING_LEN 192

struct text_item {
	unsigned line;
	unsigned seq;          /* parse order: ties on a line keep it */
	enum item_kind kind;
	union {
		struct mce_in mce;
		struct aer_in aer;
		struct edac_in edac;
	} in;
	char str[ITEM_STRINGS][ITEM_STRING_LEN];
	size_t str_len[ITEM_STRINGS];
};

struct text_ctx {
	const char *name;
	const struct decode_out *o;
	struct text_item *items;
	size_t n, cap;
	unsigned errors;
};

static struct text_item *text_add(struct text_ctx *t, enum item_kind kind, unsigned line)
{
	struct text_item *it;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct text_item *p = realloc(t->items, cap * sizeof(*p));

		if (!p)
			return NULL;
		t->items = p;
		t->cap = cap;
	}
	it = &t->items[t->n];
	memset(it, 0, sizeof(*it));
	it->line = line;
	it->seq = (unsigned)t->n++;
	it->kind = kind;
	return it;
}

/* Copies a parser string (not necessarily NUL-terminated, may be NULL) into slot i. */
static void keep_string(struct text_item *it, unsigned i, const char *s, size_t len)
{
	size_t n = len < ITEM_STRING_LEN - 1 ? len : ITEM_STRING_LEN - 1;

	if (s && n)
		memcpy(it->str[i], s, n);
	it->str[i][n] = '\0';
	it->str_len[i] = n;
}

static int on_mce(void *ctx, const struct mce_in *rec, unsigned line)
{
	struct text_item *it = text_add(ctx, ITEM_MCE, line);

	if (!it)
		return -ENOMEM;
	it->in.mce = *rec;
	return 0;
}

static int on_aer(void *ctx, const struct aer_in *rec, unsigned line)
{
	struct text_item *it = text_add(ctx, ITEM_AER, line);

	if (!it)
		return -ENOMEM;
	it->in.aer = *rec;
	keep_string(it, 0, rec->dev_name, rec->dev_name_len);
	keep_string(it, 1, rec->dev_desc, rec->dev_desc_len);
	keep_string(it, 2, rec->bus_type, rec->bus_type_len);
	it->in.aer.dev_name = it->in.aer.dev_desc = it->in.aer.bus_type = NULL;
	return 0;
}

static int on_edac(void *ctx, const struct edac_in *rec, unsigned line)
{
	struct text_item *it = text_add(ctx, ITEM_EDAC, line);

	if (!it)
		return -ENOMEM;
	it->in.edac = *rec;
	keep_string(it, 0, rec->msg, rec->msg_len);
	keep_string(it, 1, rec->label, rec->label_len);
	keep_string(it, 2, rec->driver_detail, rec->driver_detail_len);
	for (unsigned i = 0; i < 3; i++) {
		keep_string(it, 3 + i, rec->layer_name[i], rec->layer_name[i] ? strlen(rec->layer_name[i]) : 0);
		it->in.edac.layer_name[i] = NULL;
	}
	it->in.edac.msg = it->in.edac.label = it->in.edac.driver_detail = NULL;
	return 0;
}

static void on_error(void *ctx, unsigned line, const char *reason)
{
	struct text_ctx *t = ctx;

	fprintf(t->o->err, "%s:%u: %s\n", t->name, line, reason);
	t->errors++;
}

static int by_line(const void *a, const void *b)
{
	const struct text_item *x = a, *y = b;

	if (x->line != y->line)
		return (x->line > y->line) - (x->line < y->line);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Points the item's decoder input at its own string copies; call once the array is final. */
static void attach_strings(struct text_item *it)
{
	switch (it->kind) {
	case ITEM_AER:
		it->in.aer.dev_name = it->str[0];
		it->in.aer.dev_name_len = it->str_len[0];
		it->in.aer.dev_desc = it->str_len[1] ? it->str[1] : NULL;
		it->in.aer.dev_desc_len = it->str_len[1];
		it->in.aer.bus_type = it->str_len[2] ? it->str[2] : NULL;
		it->in.aer.bus_type_len = it->str_len[2];
		break;
	case ITEM_EDAC:
		it->in.edac.msg = it->str[0];
		it->in.edac.msg_len = it->str_len[0];
		it->in.edac.label = it->str[1];
		it->in.edac.label_len = it->str_len[1];
		it->in.edac.driver_detail = it->str[2];
		it->in.edac.driver_detail_len = it->str_len[2];
		for (unsigned i = 0; i < 3; i++)
			it->in.edac.layer_name[i] = it->str_len[3 + i] ? it->str[3 + i] : NULL;
		break;
	case ITEM_MCE:
		break;
	}
}

union any_decoded {
	struct mce_decoded mce;
	struct aer_decoded aer;
	struct edac_decoded edac;
};

static struct decoded_view decode_item(struct text_item *it, union any_decoded *d)
{
	attach_strings(it);
	switch (it->kind) {
	case ITEM_AER:
		aer_decode(&it->in.aer, &d->aer);
		return view_aer(&d->aer);
	case ITEM_EDAC:
		edac_decode(&it->in.edac, &d->edac);
		return view_edac(&d->edac);
	case ITEM_MCE:
	default:
		mce_decode(&it->in.mce, &d->mce);
		return view_mce(&d->mce);
	}
}

static void print_items(struct text_ctx *t)
{
	union any_decoded *d = calloc(1, sizeof(*d));
	char where[300];

	if (!d || !t->n) {
		free(d);
		return;
	}
	qsort(t->items, t->n, sizeof(t->items[0]), by_line);
	for (size_t i = 0; i < t->n; i++) {
		struct decoded_view v = decode_item(&t->items[i], d);

		snprintf(where, sizeof(where), "%s:%u", t->name, t->items[i].line);
		decode_print(t->o, &v, where);
	}
	free(d);
}

static int run_mce(const char *buf, size_t len, struct text_ctx *t)
{
	return mce_text_parse(buf, len, on_mce, on_error, t);
}

static int run_mce_amd(const char *buf, size_t len, struct text_ctx *t)
{
	return mce_amd_text_parse(buf, len, on_mce, on_error, t);
}

static int run_aer(const char *buf, size_t len, struct text_ctx *t)
{
	return aer_text_parse(buf, len, on_aer, on_error, t);
}

static int run_edac(const char *buf, size_t len, struct text_ctx *t)
{
	return edac_text_parse(buf, len, on_edac, on_error, t);
}

/* Every text form decode reads; each parser skips the lines that are not its own. */
static int (*const parsers[])(const char *buf, size_t len, struct text_ctx *t) = {
	run_mce, run_mce_amd, run_aer, run_edac,
};

int decode_text_buffer(const char *name, const char *buf, size_t len, const struct decode_out *o)
{
	struct text_ctx t = { .name = name, .o = o };
	int status;

	for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++)
		if (parsers[i](buf, len, &t) == -ENOMEM)
			on_error(&t, 0, "out of memory");
	print_items(&t);
	if (!t.n && !t.errors)
		fprintf(o->err, "%s: no machine-check, AER or EDAC record found\n", name);
	/* Lines it could not read were reported; the status says whether anything was decoded. */
	status = t.n ? 0 : 1;
	free(t.items);
	return status;
}
