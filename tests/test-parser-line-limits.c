/* SPDX-License-Identifier: MIT */
/*
 * Every text parser at the edge of its line buffer. Each seed line of a
 * parser's fuzz target (tests/data/decode, tests/data/mcelog, tests/data/fuzz;
 * for lastwords, the lines of the ERST dumps its analysis takes up) is placed
 * so that it ends exactly at the parser's line-length limit (the longest line
 * it keeps whole), one byte before it and one after, padded at its front with
 * spaces; and cut at every byte of its last 64 bytes, each cut placed the
 * same way. Each such line is the last of the input, after the lines before
 * it in its seed (up to CONTEXT: its record's; a dump's header), with no
 * newline after it, in a buffer of exactly its length: a read past the line's
 * end, or past the parser's copy of it, is a read past a buffer, which the
 * sanitizers of CI's ASan build report. Each input goes through the fuzz
 * target itself (fuzz/, included here under a name of its own), so that the
 * targets' own checks hold too (every record decodes, its sentence stays in
 * its buffer, every refusal has a line and a reason; a failure aborts).
 *
 * The limits are the parsers' line buffers less the NUL: AER_LINE_MAX
 * (decoders/aer_text.c), EDAC_LINE_MAX (edac_text.c), GHES_LINE_MAX
 * (ghes_text.c), MCE_TEXT_MAX_LINE (mce_text.h: mce_text.c, mce_text_amd.c),
 * RASD_LINE_MAX (rasd_text.c); ras-fdr-ctl decode (ctl/decode_text.c) runs
 * them all, each limit here on its parsers' seeds. lastwords/cause.c keeps
 * 4000 bytes of a line, and LW_REASON_MAX (lastwords/cause.h) bounds the
 * line it keeps as a reason. That a limit is where this test says: every
 * line of a parser's seeds, padded to end at the limit, gives the records
 * and refusals the same lines give with one space in front (a space moves
 * a line's start, which some rows are anchored to): it was kept whole.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "test_util.h"

/*
 * The fuzz targets, each defining LLVMFuzzerTestOneInput and static helpers
 * of the same names: each included under names of its own.
 */
#define LLVMFuzzerTestOneInput fuzz_aer_text
#define on_record aer_fuzz_on_record
#define on_error aer_fuzz_on_error
#define check_render_aer aer_fuzz_check_render
#include "fuzz/fuzz-aer-text.c"
#undef LLVMFuzzerTestOneInput
#undef on_record
#undef on_error
#undef check_render_aer

#define LLVMFuzzerTestOneInput fuzz_mce_text
#define decode_record mce_fuzz_decode_record
#define note_error mce_fuzz_note_error
#define check_render_mce mce_fuzz_check_render
#include "fuzz/fuzz-mce-text.c"
#undef LLVMFuzzerTestOneInput
#undef decode_record
#undef note_error
#undef check_render_mce

#define LLVMFuzzerTestOneInput fuzz_mce_amd_text
#define decode_record mce_amd_fuzz_decode_record
#define note_error mce_amd_fuzz_note_error
#include "fuzz/fuzz-mce-amd-text.c"
#undef LLVMFuzzerTestOneInput
#undef decode_record
#undef note_error

#define LLVMFuzzerTestOneInput fuzz_edac_text
#define fuzz_text_on_record edac_fuzz_on_record
#include "fuzz/fuzz-edac-text.c"
#undef LLVMFuzzerTestOneInput
#undef fuzz_text_on_record

#define LLVMFuzzerTestOneInput fuzz_ghes_text
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);   /* fuzz_text.h declared edac's */
#define fuzz_text_on_record ghes_fuzz_on_record
#define decode_record ghes_fuzz_decode_record
#include "fuzz/fuzz-ghes-text.c"
#undef LLVMFuzzerTestOneInput
#undef fuzz_text_on_record
#undef decode_record

#define LLVMFuzzerTestOneInput fuzz_rasd_text
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#define fuzz_text_on_record rasd_fuzz_on_record
#define decode_record rasd_fuzz_decode_record
#include "fuzz/fuzz-rasd-text.c"
#undef LLVMFuzzerTestOneInput
#undef fuzz_text_on_record
#undef decode_record

#define LLVMFuzzerTestOneInput fuzz_decode_glue
#include "fuzz/fuzz-decode-glue.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_lastwords
#include "fuzz/fuzz-lastwords.c"
#undef LLVMFuzzerTestOneInput

#define CUTS 64            /* the last bytes of a line, cut at each */
#define CONTEXT 12         /* lines before it, at most: its record's */

/* Records and refusals, counted. */
static int counted(void *ctx)
{
	(*(unsigned *)ctx)++;
	return 0;
}

static void count_error(void *ctx, unsigned line, const char *reason)
{
	(void)line, (void)reason;
	counted(ctx);
}

/* found_<name>(buf, len): the records and refusals parse finds in buf. */
#define FOUND(name, parse, type)                                                      \
	static int count_##name(void *ctx, const type *rec, unsigned line)            \
	{                                                                             \
		(void)rec, (void)line;                                                \
		return counted(ctx);                                                  \
	}                                                                             \
	static unsigned found_##name(const char *buf, size_t len)                     \
	{                                                                             \
		unsigned c = 0;                                                       \
                                                                                      \
		parse(buf, len, count_##name, count_error, &c);                       \
		return c;                                                             \
	}
FOUND(mce, mce_text_parse, struct mce_in)
FOUND(mce_amd, mce_amd_text_parse, struct mce_in)
FOUND(aer, aer_text_parse, struct aer_in)
FOUND(edac, edac_text_parse, struct edac_in)
FOUND(ghes, ghes_text_parse, struct ghes_text_rec)
FOUND(rasd, rasd_text_parse, struct rasd_text_rec)

/* fuzz-lastwords: its first byte 3 (dumps), then one part as long as the rest (up to 255 * 16 bytes). */
static int run_lastwords(const uint8_t *data, size_t size)
{
	uint8_t *in = malloc(size + 2);

	if (!in)
		return -1;
	in[0] = 3;
	in[1] = 255;
	memcpy(in + 2, data, size);
	fuzz_lastwords(in, size + 2);
	free(in);
	return 0;
}

/* The parsers that keep 1023 bytes of a line. */
static unsigned found_1023(const char *b, size_t n)
{
	return found_mce(b, n) + found_mce_amd(b, n) + found_aer(b, n) + found_rasd(b, n);
}

/* A dump's line the analysis takes up: a hardware error, a cause's hint or the panic. */
static bool analysed(const char *line, size_t len)
{
	static struct lw_analysis a;
	struct lw_line l;
	size_t pos = 0;

	lw_analysis_init(&a);
	if (lw_dmesg_next_line(line, len, &pos, &l) == 1)
		lw_analysis_line(&a, &l);
	return a.hw_lines || a.hint != LW_CAUSE_UNKNOWN || a.have_panic;
}

struct limit {
	size_t len;                                      /* the longest line kept whole; 0 ends */
	unsigned (*found)(const char *buf, size_t len); /* its parsers' records and refusals */
	bool (*takes)(const char *line, size_t len);    /* the lines it takes up; NULL: every line */
};

struct target {
	const char *name;
	int (*run)(const uint8_t *data, size_t size);   /* the fuzz target */
	struct limit limits[3];                          /* found NULL: the lastwords dumps */
};

static const struct target targets[] = {
	{ "mce", fuzz_mce_text, { { 1023, found_mce, NULL } } },
	{ "mce-amd", fuzz_mce_amd_text, { { 1023, found_mce_amd, NULL } } },
	{ "aer", fuzz_aer_text, { { 1023, found_aer, NULL } } },
	{ "edac", fuzz_edac_text, { { 1279, found_edac, NULL } } },
	{ "ghes", fuzz_ghes_text, { { 511, found_ghes, NULL } } },
	{ "rasd", fuzz_rasd_text, { { 1023, found_rasd, NULL } } },
	/* ras-fdr-ctl decode: each limit on the seeds of the parsers that have it */
	{ "decode", fuzz_decode_glue,
	  { { 511, found_ghes, NULL }, { 1023, found_1023, NULL }, { 1279, found_edac, NULL } } },
	{ "lastwords", run_lastwords, { { 511, NULL, analysed }, { 4000, NULL, analysed } } },
};

#define MAX_SEEDS 128

struct seed {
	char *text;
	size_t len;
	char name[64];
};

static struct seed seeds[MAX_SEEDS];
static unsigned n_seeds;

static void read_seeds(const char *dir, const char *prefix)
{
	char path[1024];
	struct dirent **names = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/%s", test_srcdir(), dir);
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0)
		tap_diag("%s: cannot be read", path);
	for (int i = 0; i < n; i++) {
		struct seed *s = &seeds[n_seeds];
		FILE *f;
		long size;

		if (names[i]->d_name[0] == '.' || strncmp(names[i]->d_name, prefix, strlen(prefix)) ||
		    n_seeds == MAX_SEEDS) {
			free(names[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/%s", test_srcdir(), dir, names[i]->d_name);
		snprintf(s->name, sizeof(s->name), "%s", names[i]->d_name);
		free(names[i]);
		if (!(f = fopen(path, "rbe")))
			continue;
		if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
		    (s->text = malloc((size_t)size)) && fread(s->text, 1, (size_t)size, f) == (size_t)size) {
			s->len = (size_t)size;
			n_seeds++;
		}
		fclose(f);
	}
	free(names);
}

/* Where each line of a seed starts; the count. */
static unsigned line_starts(const struct seed *s, size_t *start, unsigned max)
{
	unsigned n = 0;

	for (size_t at = 0; at < s->len && n < max;) {
		const char *nl = memchr(s->text + at, '\n', s->len - at);

		start[n++] = at;
		at = nl ? (size_t)(nl - s->text) + 1 : s->len;
	}
	return n;
}

#define MAX_LINES 512

/* What one target's run over the seeds saw. */
struct tally {
	unsigned lines, inputs;
	unsigned padded, at_limit;         /* found with a space in front, and padded to the limit */
};

static size_t line_len(const struct seed *s, const size_t *start, unsigned n, unsigned i)
{
	size_t end = i + 1 < n ? start[i + 1] - 1 : s->len;

	return end - start[i];
}

/*
 * Line i of s, cut by 0..CUTS bytes, each padded to end at place, after
 * ctx bytes of the lines before it: through t's fuzz target.
 */
static void run_placed(const struct target *t, const struct seed *s, size_t from, size_t ctx,
		       const char *line, size_t len, size_t place, struct tally *y)
{
	size_t size = ctx + place;
	char *in = malloc(size ? size : 1);

	if (!in)
		return;
	memcpy(in, s->text + from, ctx);
	for (size_t cut = 0; cut <= CUTS && cut <= len; cut++) {
		size_t keep = len - cut;

		if (keep > place)
			continue;   /* a seed line longer than the limit: only its cuts that fit */
		memset(in + ctx, ' ', place - keep);
		memcpy(in + ctx + place - keep, line, keep);
		t->run((const uint8_t *)in, size);
		y->inputs++;
	}
	free(in);
}

/*
 * The lines before line i that go with it, from *from: up to CONTEXT of
 * them (its record's); in a dump, its header line only, so that the part
 * holds the line whole. Their length.
 */
static size_t context(const struct limit *l, const size_t *start, unsigned i, size_t *from)
{
	if (!l->found) {
		*from = start[0];
		return i ? start[1] - start[0] : 0;
	}
	*from = start[i > CONTEXT ? i - CONTEXT : 0];
	return start[i] - *from;
}

static void run_seed(const struct target *t, const struct limit *l, const struct seed *s, struct tally *y)
{
	static size_t start[MAX_LINES];
	unsigned n = line_starts(s, start, MAX_LINES);

	for (unsigned i = 0; i < n; i++) {
		size_t len = line_len(s, start, n, i), from, ctx = context(l, start, i, &from);

		if (l->takes && !l->takes(s->text + start[i], len))
			continue;
		y->lines++;
		for (size_t place = l->len - 1; place <= l->len + 1; place++)
			run_placed(t, s, from, ctx, s->text + start[i], len, place, y);
	}
}

/*
 * Every line of s with pad spaces in front of it, or (pad 0) padded to end
 * at limit: what l's parsers find in it. -1 when a line is longer.
 */
static int found_padded(const struct limit *l, const struct seed *s, size_t pad)
{
	static size_t start[MAX_LINES];
	unsigned n = line_starts(s, start, MAX_LINES);
	char *in = malloc(n * (l->len + 1) + 1);
	size_t at = 0;
	int found;

	if (!in)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		size_t len = line_len(s, start, n, i), width = pad ? len + pad : l->len;

		if (width > l->len) {
			free(in);
			return -1;
		}
		memset(in + at, ' ', width - len);
		memcpy(in + at + width - len, s->text + start[i], len);
		at += width;
		in[at++] = '\n';
	}
	found = (int)l->found(in, at);
	free(in);
	return found;
}

static bool seed_is_its(const struct limit *l, const struct seed *s)
{
	if (!l->found)
		return strncmp(s->name, "dmesg-erst-", 11) == 0;
	return strncmp(s->name, "dmesg-erst-", 11) != 0 && l->found(s->text, s->len) > 0;
}

static void run_limit(const struct target *t, const struct limit *l)
{
	struct tally y = { 0 };
	unsigned used = 0;

	for (unsigned i = 0; i < n_seeds; i++) {
		int one, whole;

		if (!seed_is_its(l, &seeds[i]))
			continue;
		used++;
		run_seed(t, l, &seeds[i], &y);
		if (!l->found || (one = found_padded(l, &seeds[i], 1)) < 0)
			continue;
		whole = found_padded(l, &seeds[i], 0);
		y.padded += (unsigned)one;
		y.at_limit += whole < 0 ? 0 : (unsigned)whole;
	}
	tap_ok(used > 0 && y.inputs > y.lines, "%s at %zu: %u lines of %u seeds, each ending at %zu, %zu"
	       " and %zu, cut at each of its last %d bytes: %u inputs, none read past its line",
	       t->name, l->len, y.lines, used, l->len - 1, l->len, l->len + 1, CUTS, y.inputs);
	/* A space in front of a line changes what a parser sees (a header row starts a line): the same here. */
	if (l->found)
		tap_ok(y.padded > 0 && y.at_limit == y.padded,
		       "%s at %zu: every line padded to end at the limit, kept whole: %u of the %u records"
		       " and refusals found with a space in front", t->name, l->len, y.at_limit, y.padded);
}

int main(void)
{
	read_seeds("tests/data/decode", "");
	read_seeds("tests/data/mcelog", "");
	read_seeds("tests/data/fuzz", "");
	read_seeds("tests/data/lastwords/linux-6.1-erst", "dmesg-erst-");
	if (!tap_ok(n_seeds > 30, "seeds read (%u)", n_seeds))
		return tap_done();
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		for (unsigned k = 0; k < 3 && targets[i].limits[k].len; k++)
			run_limit(&targets[i], &targets[i].limits[k]);
	for (unsigned i = 0; i < n_seeds; i++)
		free(seeds[i].text);
	return tap_done();
}
