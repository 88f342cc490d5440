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
#include "lib/text.h"
#include "decoders/aer_text.h"
#include "decoders/edac_text.h"
#include "decoders/ghes_text.h"
#include "decoders/mce_text.h"
#include "decoders/mce_text_amd.h"
#include "decoders/rasd_text.h"

enum item_kind {
	ITEM_MCE, ITEM_AER, ITEM_EDAC, ITEM_EXTLOG, ITEM_ARM, ITEM_NONSTD, ITEM_DEVLINK, ITEM_DISK, ITEM_MEMFAIL,
	ITEM_CXL,
};

#define ITEM_STRINGS 9   /* a devlink record uses the first five */
#define ITEM_NOTE0 6          /* the source's notes: the last TEXT_NOTES string slots */
#define ITEM_BYTES NONSTD_HEX_MAX   /* a section's bytes, an ARM section's entries */
#define ITEM_OEM 128                /* an ARM section's vendor bytes */

struct text_item {
	unsigned line;
	unsigned seq;          /* parse order: ties on a line keep it */
	enum item_kind kind;
	union {
		struct mce_in mce;
		struct aer_in aer;
		struct edac_in edac;
		struct extlog_in extlog;
		struct arm_in arm;
		struct nonstd_in nonstd;
		struct devlink_in devlink;
		struct blockerr_in disk;
		struct memfail_in memfail;   /* symtab: the parser's static table */
		struct cxl_in cxl;
	} in;
	/* The parser's strings, whole (an EDAC line's detail is up to the kernel's 1 KiB): heap copies. */
	char *str[ITEM_STRINGS];
	size_t str_len[ITEM_STRINGS];
	const char *note_key[TEXT_NOTES];   /* static strings of the parser */
	uint8_t bytes[ITEM_BYTES];
	uint8_t oem[ITEM_OEM];
	size_t n_bytes, n_oem;
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

/*
 * Copies a parser string (not necessarily NUL-terminated, may be NULL) into
 * slot i. The copy is made as long as len, so it always holds it; no len is a
 * number read from the text: each is a span of the parser's line (at most its
 * line-length limit) or the strlen of its own buffer (tests/test-text-limits
 * runs them at the limits under ASan).
 */
static void keep_string(struct text_item *it, unsigned i, const char *s, size_t len)
{
	size_t n = s ? len : 0;
	char *copy = malloc(n + 1);

	free(it->str[i]);
	it->str[i] = copy;
	it->str_len[i] = copy ? n : 0;
	if (!copy)
		return;   /* an empty string where memory ran out (slots are read by length) */
	if (n)
		memcpy(copy, s, n);
	copy[n] = '\0';
}

/* A slot's string, "" when none was kept. */
static const char *slot(const struct text_item *it, unsigned i)
{
	return it->str[i] ? it->str[i] : "";
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

/* Copies up to cap bytes of a parser buffer into the item; returns how many. */
static size_t keep_bytes(uint8_t *dst, size_t cap, const uint8_t *src, size_t len)
{
	size_t n = len < cap ? len : cap;

	if (src && n)
		memcpy(dst, src, n);
	return src ? n : 0;
}

static void keep_ghes_input(struct text_item *it, const struct ghes_text_rec *rec)
{
	switch (rec->kind) {
	case GHES_TEXT_MEMORY:
		it->kind = ITEM_EXTLOG;
		it->in.extlog = rec->in.mem;
		it->n_bytes = keep_bytes(it->bytes, sizeof(it->bytes), rec->in.mem.data, rec->in.mem.data_len);
		keep_string(it, 0, rec->in.mem.fru_text, rec->in.mem.fru_text_len);
		break;
	case GHES_TEXT_ARM:
		it->kind = ITEM_ARM;
		it->in.arm = rec->in.arm;
		it->n_bytes = keep_bytes(it->bytes, sizeof(it->bytes), rec->in.arm.pei_buf, rec->in.arm.pei_buf_len);
		it->n_oem = keep_bytes(it->oem, sizeof(it->oem), rec->in.arm.oem_buf, rec->in.arm.oem_buf_len);
		break;
	case GHES_TEXT_SECTION:
		it->kind = ITEM_NONSTD;
		it->in.nonstd = rec->in.section;
		it->n_bytes = keep_bytes(it->bytes, sizeof(it->bytes), rec->in.section.buf, rec->in.section.buf_len);
		keep_string(it, 0, rec->in.section.fru_text, rec->in.section.fru_text_len);
		break;
	case GHES_TEXT_PCIE:
		it->kind = ITEM_AER;
		it->in.aer = rec->in.aer;
		keep_string(it, 0, rec->in.aer.dev_name, rec->in.aer.dev_name_len);
		break;
	case GHES_TEXT_CXL:
		it->kind = ITEM_CXL;
		it->in.cxl = rec->in.cxl;
		keep_string(it, 0, rec->in.cxl.event, rec->in.cxl.event_len);
		keep_string(it, 1, rec->in.cxl.host, rec->in.cxl.host_len);
		break;
	}
}

static void keep_notes(struct text_item *it, const struct text_note *notes)
{
	for (unsigned i = 0; i < TEXT_NOTES; i++) {
		it->note_key[i] = notes[i].key;
		keep_string(it, ITEM_NOTE0 + i, notes[i].value, notes[i].value_len);
	}
}

static int on_ghes(void *ctx, const struct ghes_text_rec *rec, unsigned line)
{
	struct text_item *it = text_add(ctx, ITEM_NONSTD, line);

	if (!it)
		return -ENOMEM;
	keep_ghes_input(it, rec);
	keep_notes(it, rec->notes);
	return 0;
}

/* rasdaemon's extlog, devlink, disk and memory failure records, strings and bytes copied. */
static int on_rasd_other(void *ctx, const struct rasd_text_rec *rec, unsigned line)
{
	static const enum item_kind kinds[] = {
		[RASD_TEXT_EXTLOG] = ITEM_EXTLOG, [RASD_TEXT_DEVLINK] = ITEM_DEVLINK,
		[RASD_TEXT_DISK] = ITEM_DISK, [RASD_TEXT_MEMFAIL] = ITEM_MEMFAIL,
	};
	struct text_item *it = text_add(ctx, kinds[rec->kind], line);
	const struct devlink_in *d = &rec->in.devlink;

	if (!it)
		return -ENOMEM;
	switch (rec->kind) {
	case RASD_TEXT_EXTLOG:
		it->in.extlog = rec->in.extlog;
		it->n_bytes = keep_bytes(it->bytes, sizeof(it->bytes), rec->in.extlog.data, rec->in.extlog.data_len);
		keep_string(it, 0, rec->in.extlog.fru_text, rec->in.extlog.fru_text_len);
		break;
	case RASD_TEXT_DEVLINK:
		keep_string(it, 0, d->bus_name, d->bus_name_len);
		keep_string(it, 1, d->dev_name, d->dev_name_len);
		keep_string(it, 2, d->driver_name, d->driver_name_len);
		keep_string(it, 3, d->reporter_name, d->reporter_name_len);
		keep_string(it, 4, d->msg, d->msg_len);
		break;
	case RASD_TEXT_DISK:
		it->in.disk = rec->in.disk;
		keep_string(it, 0, rec->in.disk.rwbs, rec->in.disk.rwbs_len);
		keep_string(it, 1, rec->in.disk.cmd, rec->in.disk.cmd_len);
		break;
	default:
		it->in.memfail = rec->in.memfail;
		break;
	}
	return 0;
}

/* rasdaemon's records are the decoders' own inputs: kept as the kernel text's are. */
static int on_rasd(void *ctx, const struct rasd_text_rec *rec, unsigned line)
{
	struct text_ctx *t = ctx;
	int rc;

	switch (rec->kind) {
	case RASD_TEXT_EDAC: rc = on_edac(ctx, &rec->in.edac, line); break;
	case RASD_TEXT_AER: rc = on_aer(ctx, &rec->in.aer, line); break;
	case RASD_TEXT_MCE: rc = on_mce(ctx, &rec->in.mce, line); break;
	case RASD_TEXT_EXTLOG:
	case RASD_TEXT_DEVLINK:
	case RASD_TEXT_DISK:
	case RASD_TEXT_MEMFAIL: rc = on_rasd_other(ctx, rec, line); break;
	default: return -EINVAL;
	}
	if (rc == 0)
		keep_notes(&t->items[t->n - 1], rec->notes);
	return rc;
}

static void on_error(void *ctx, unsigned line, const char *reason)
{
	struct text_ctx *t = ctx;

	/* A reason may quote the input (a pasted log is anyone's text). */
	ras_text_write(t->o->err, t->name, strlen(t->name));
	fprintf(t->o->err, ":%u: ", line);
	ras_text_write(t->o->err, reason, strlen(reason));
	fputc('\n', t->o->err);
	t->errors++;
}

static int by_line(const void *a, const void *b)
{
	const struct text_item *x = a, *y = b;

	if (x->line != y->line)
		return (x->line > y->line) - (x->line < y->line);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* attach_strings for the devlink, disk and CXL records (rasdaemon rows, GHES CXL events). */
static void attach_other_strings(struct text_item *it)
{
	switch (it->kind) {
	case ITEM_DEVLINK:
		it->in.devlink = (struct devlink_in){
			.bus_name = slot(it, 0), .bus_name_len = it->str_len[0],
			.dev_name = slot(it, 1), .dev_name_len = it->str_len[1],
			.driver_name = slot(it, 2), .driver_name_len = it->str_len[2],
			.reporter_name = slot(it, 3), .reporter_name_len = it->str_len[3],
			.msg = slot(it, 4), .msg_len = it->str_len[4],
		};
		break;
	case ITEM_DISK:
		it->in.disk.rwbs = slot(it, 0);
		it->in.disk.rwbs_len = it->str_len[0];
		it->in.disk.cmd = slot(it, 1);
		it->in.disk.cmd_len = it->str_len[1];
		break;
	case ITEM_CXL:
		it->in.cxl.event = slot(it, 0);
		it->in.cxl.event_len = it->str_len[0];
		it->in.cxl.host = slot(it, 1);
		it->in.cxl.host_len = it->str_len[1];
		break;
	default:
		break;   /* machine checks and memory failures hold no strings */
	}
}

/* Points the item's decoder input at its own string copies; call once the array is final. */
static void attach_strings(struct text_item *it)
{
	switch (it->kind) {
	case ITEM_AER:
		it->in.aer.dev_name = slot(it, 0);
		it->in.aer.dev_name_len = it->str_len[0];
		it->in.aer.dev_desc = it->str_len[1] ? slot(it, 1) : NULL;
		it->in.aer.dev_desc_len = it->str_len[1];
		it->in.aer.bus_type = it->str_len[2] ? slot(it, 2) : NULL;
		it->in.aer.bus_type_len = it->str_len[2];
		break;
	case ITEM_EDAC:
		it->in.edac.msg = slot(it, 0);
		it->in.edac.msg_len = it->str_len[0];
		it->in.edac.label = slot(it, 1);
		it->in.edac.label_len = it->str_len[1];
		it->in.edac.driver_detail = slot(it, 2);
		it->in.edac.driver_detail_len = it->str_len[2];
		for (unsigned i = 0; i < 3; i++)
			it->in.edac.layer_name[i] = it->str_len[3 + i] ? slot(it, 3 + i) : NULL;
		break;
	case ITEM_EXTLOG:
		it->in.extlog.fru_text = slot(it, 0);
		it->in.extlog.fru_text_len = it->str_len[0];
		it->in.extlog.data = it->bytes;
		it->in.extlog.data_len = it->n_bytes;
		break;
	case ITEM_ARM:
		it->in.arm.pei_buf = it->bytes;
		it->in.arm.pei_buf_len = it->n_bytes;
		it->in.arm.oem_buf = it->oem;
		it->in.arm.oem_buf_len = it->n_oem;
		break;
	case ITEM_NONSTD:
		it->in.nonstd.fru_text = slot(it, 0);
		it->in.nonstd.fru_text_len = it->str_len[0];
		it->in.nonstd.buf = it->bytes;
		it->in.nonstd.buf_len = it->n_bytes;
		break;
	default:
		attach_other_strings(it);
		break;
	}
}

union any_decoded {
	struct mce_decoded mce;
	struct aer_decoded aer;
	struct edac_decoded edac;
	struct extlog_decoded extlog;
	struct arm_decoded arm;
	struct nonstd_decoded nonstd;
	struct devlink_decoded devlink;
	struct blockerr_decoded disk;
	struct memfail_decoded memfail;
	struct cxl_decoded cxl;
};

static struct decoded_view decode_by_kind(struct text_item *it, union any_decoded *d)
{
	switch (it->kind) {
	case ITEM_EXTLOG:
		extlog_decode(&it->in.extlog, &d->extlog);
		return view_extlog(&d->extlog);
	case ITEM_ARM:
		arm_decode(&it->in.arm, &d->arm);
		return view_arm(&d->arm);
	case ITEM_NONSTD:
		nonstd_decode(&it->in.nonstd, &d->nonstd);
		return view_nonstd(&d->nonstd);
	case ITEM_AER:
		aer_decode(&it->in.aer, &d->aer);
		return view_aer(&d->aer);
	case ITEM_EDAC:
		edac_decode(&it->in.edac, &d->edac);
		return view_edac(&d->edac);
	case ITEM_DEVLINK:
		devlink_decode(&it->in.devlink, &d->devlink);
		return view_devlink(&d->devlink);
	case ITEM_DISK:
		blockerr_decode(&it->in.disk, &d->disk);
		return view_blockerr(&d->disk);
	case ITEM_MEMFAIL:
		memfail_decode(&it->in.memfail, &d->memfail);
		return view_memfail(&d->memfail);
	case ITEM_CXL:
		cxl_decode(&it->in.cxl, &d->cxl);
		return view_cxl(&d->cxl);
	case ITEM_MCE:
	default:
		mce_decode(&it->in.mce, &d->mce);
		return view_mce(&d->mce);
	}
}

static struct decoded_view decode_item(struct text_item *it, union any_decoded *d)
{
	struct decoded_view v;

	attach_strings(it);
	v = decode_by_kind(it, d);
	for (unsigned i = 0; i < TEXT_NOTES; i++) {
		v.note_key[i] = it->note_key[i] && it->str_len[ITEM_NOTE0 + i] ? it->note_key[i] : NULL;
		v.note_value[i] = slot(it, ITEM_NOTE0 + i);
	}
	return v;
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

static int run_ghes(const char *buf, size_t len, struct text_ctx *t)
{
	return ghes_text_parse(buf, len, on_ghes, on_error, t);
}

static int run_rasd(const char *buf, size_t len, struct text_ctx *t)
{
	return rasd_text_parse(buf, len, on_rasd, on_error, t);
}

/* Every text form decode reads; each parser skips the lines that are not its own. */
static int (*const parsers[])(const char *buf, size_t len, struct text_ctx *t) = {
	run_mce, run_mce_amd, run_aer, run_edac, run_ghes, run_rasd,
};

int decode_text_buffer(const char *name, const char *buf, size_t len, const struct decode_out *o)
{
	struct text_ctx t = { .name = name, .o = o };
	int status;

	for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++)
		if (parsers[i](buf, len, &t) == -ENOMEM)
			on_error(&t, 0, "out of memory");
	print_items(&t);
	if (!t.n && !t.errors) {
		ras_text_write(o->err, name, strlen(name));
		fputs(": no machine-check, AER, EDAC, firmware (GHES) or rasdaemon record found\n",
		      o->err);
	}
	/* Lines it could not read were reported; the status says whether anything was decoded. */
	status = t.n ? 0 : 1;
	for (size_t i = 0; i < t.n; i++)
		for (unsigned k = 0; k < ITEM_STRINGS; k++)
			free(t.items[i].str[k]);
	free(t.items);
	return status;
}
