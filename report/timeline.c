/* SPDX-License-Identifier: MIT */
/*
 * A part's timeline as inline SVG: one column per span of the report's time
 * line, corrected errors up from the axis, uncorrected down, the actions on
 * the part as marks above. Heights grow with the logarithm of the count, so
 * one uncorrected error stays visible beside a storm of corrected ones; each
 * column's <title> gives the exact counts (a tooltip, no script).
 */
#include <math.h>
#include <string.h>
#include "lib/clock.h"
#include "lib/str.h"
#include "report.h"

#define W 640
#define H 96
#define SVG_H 110            /* H + 14: the times below the axis */
#define AXIS 52               /* y of the axis */
#define HALF 36               /* tallest bar each way */
#define LEFT 4
#define COLW ((W - 2 * LEFT) / RPT_BINS)
_Static_assert(SVG_H == H + 14, "the SVG's height holds the times below it");

static int64_t max_of(const struct rpt_part *p)
{
	int64_t m = 0;

	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < RPT_BINS; i++)
			if (p->bins[k][i] > m)
				m = p->bins[k][i];
	return m;
}

static int height(int64_t n, int64_t max)
{
	if (n <= 0)
		return 0;
	/* At least 3 px: a single error is seen. */
	int h = (int)lround(HALF * log1p((double)n) / log1p((double)max));
	return h < 3 ? 3 : h;
}

/*
 * Appending to a line of fixed room without printf (a machine's report draws
 * thousands of timelines, 40 columns each); cut at the room, as snprintf
 * would, though every line here is far shorter.
 */
struct line {
	char *p;
	size_t at, cap;
};

static void put_n(struct line *l, const char *s, size_t n)
{
	if (n > l->cap - l->at)
		n = l->cap - l->at;
	memcpy(l->p + l->at, s, n);
	l->at += n;
}

#define put_lit(l, lit) put_n((l), (lit), sizeof(lit) - 1)

static void put_int(struct line *l, long long v)
{
	char d[24];

	put_n(l, d, ras_str_int(d, v));
}

void rpt_timeline_texts(const struct rpt_model *m, struct rpt_timeline_texts *t)
{
	int64_t span = (m->t1 - m->t0) / RPT_BINS;

	ras_format_time(m->t0, t->from, sizeof(t->from));
	ras_format_time(m->t1, t->until, sizeof(t->until));
	for (unsigned i = 0; i < RPT_BINS; i++)
		ras_format_time(m->t0 + span * i, t->start[i], sizeof(t->start[i]));
}

/* The first n bytes of s at most, as "%.<n>s" writes them. */
static void put_prefix(struct line *b, const char *s, size_t n)
{
	put_n(b, s, strnlen(s, n));
}

/* <rect class="CLASS" x="X" y="Y" width="W" height="H"/> */
static void put_rect(struct line *b, const char *open, int x, int y, int w, int h)
{
	put_n(b, open, strlen(open));
	put_int(b, x);
	put_lit(b, "\" y=\"");
	put_int(b, y);
	put_lit(b, "\" width=\"");
	put_int(b, w);
	put_lit(b, "\" height=\"");
	put_int(b, h);
	put_lit(b, "\"/>");
}

/* A column's bars and counts, built in a buffer (no printf: one a part at least). */
static void column(FILE *f, const struct rpt_timeline_texts *t, const struct rpt_part *p, unsigned i,
		   int64_t max)
{
	int64_t ce = p->bins[0][i], ue = p->bins[1][i], other = p->bins[2][i];
	char line[512];
	struct line b = { line, 0, sizeof(line) };
	int x = LEFT + (int)i * COLW, h;

	if (!ce && !ue && !other)
		return;
	put_lit(&b, "<g class=\"col\"><title>from ");
	put_prefix(&b, t->start[i], 19);
	put_lit(&b, "Z: ");
	put_int(&b, ce);
	put_lit(&b, " corrected, ");
	put_int(&b, ue);
	put_lit(&b, " uncorrected, ");
	put_int(&b, other);
	put_lit(&b, " other</title>");
	if ((h = height(ce + other, max)))
		put_rect(&b, "<rect class=\"ce\" x=\"", x, AXIS - h, COLW - 2, h);
	if ((h = height(ue, max)))
		put_rect(&b, "<rect class=\"ue\" x=\"", x, AXIS + 1, COLW - 2, h);
	put_lit(&b, "</g>");
	fwrite(line, 1, b.at, f);
}

static void action_marks(FILE *f, const struct rpt_model *m, size_t part)
{
	for (size_t i = 0; i < m->nactions; i++) {
		const struct rpt_action *a = &m->actions[i];
		int b, x;

		/* The part first: every part's timeline walks every action. */
		if (a->part != (int)part || (b = rpt_bin_of(m, a->wall_ns)) < 0)
			continue;
		x = LEFT + b * COLW + COLW / 2 - 1;
		fprintf(f, "<path class=\"act\" d=\"M%d 2 l4 8 l-8 0 z\"><title>", x);
		rpt_html_text(f, a->action, SIZE_MAX);
		fputs(": ", f);
		rpt_html_text(f, a->result, SIZE_MAX);
		fputs("</title></path>", f);
	}
}

/* Its opening and axis: the same for every part, but for its name. */
#define STR_(x) #x
#define STR(x) STR_(x)
#define SVG_OPEN "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " STR(W) " " \
	STR(SVG_H) "\" width=\"" STR(W) "\" height=\"" STR(SVG_H) "\" role=\"img\" aria-label=\"timeline of "

void rpt_write_timeline(FILE *f, const struct rpt_model *m, const struct rpt_timeline_texts *t,
			size_t part)
{
	const struct rpt_part *p = &m->parts[part];
	int64_t max = max_of(p);
	char line[256];
	struct line b = { line, 0, sizeof(line) };

	fputs(SVG_OPEN, f);
	rpt_html_text(f, p->name, SIZE_MAX);
	put_lit(&b, "\">");
	put_lit(&b, "<line class=\"axis\" x1=\"");
	put_int(&b, LEFT);
	put_lit(&b, "\" y1=\"");
	put_int(&b, AXIS);
	put_lit(&b, "\" x2=\"");
	put_int(&b, W - LEFT);
	put_lit(&b, "\" y2=\"");
	put_int(&b, AXIS);
	put_lit(&b, "\"/>");
	fwrite(line, 1, b.at, f);
	if (m->t1 > m->t0) {
		for (unsigned i = 0; i < RPT_BINS; i++)
			column(f, t, p, i, max);
		action_marks(f, m, part);
		b = (struct line){ line, 0, sizeof(line) };
		put_lit(&b, "<text x=\"");
		put_int(&b, LEFT);
		put_lit(&b, "\" y=\"");
		put_int(&b, H + 10);
		put_lit(&b, "\">");
		put_prefix(&b, t->from, 16);
		put_lit(&b, "Z</text><text x=\"");
		put_int(&b, W - LEFT);
		put_lit(&b, "\" y=\"");
		put_int(&b, H + 10);
		put_lit(&b, "\" text-anchor=\"end\">");
		put_prefix(&b, t->until, 16);
		put_lit(&b, "Z</text>");
		fwrite(line, 1, b.at, f);
	}
	fputs("</svg>", f);
}

void rpt_write_timeline_peak(FILE *f, const struct rpt_part *p)
{
	int64_t up = 0, down = 0;

	for (unsigned i = 0; i < RPT_BINS; i++) {
		if (p->bins[0][i] + p->bins[2][i] > up)
			up = p->bins[0][i] + p->bins[2][i];
		if (p->bins[1][i] > down)
			down = p->bins[1][i];
	}
	fprintf(f, "<span class=\"peak\">tallest column: %lld corrected, %lld uncorrected</span>",
		(long long)up, (long long)down);
}

void rpt_write_timeline_scale(FILE *f, const struct rpt_model *m)
{
	int64_t s = (m->t1 - m->t0) / RPT_BINS / 1000000000, n = s > 1 ? s : 1;
	static const struct { int64_t unit; const char *one, *many; } units[] = {
		{ 86400, "day", "days" }, { 3600, "hour", "hours" }, { 60, "minute", "minutes" },
	};
	const char *one = "second", *many = "seconds";

	if (m->t1 <= m->t0)
		return;
	/* The largest unit it is a whole number of, or two at least (rounded: "17 days"). */
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (s >= 2 * units[i].unit || (s >= units[i].unit && s % units[i].unit == 0)) {
			n = (s + units[i].unit / 2) / units[i].unit;
			one = units[i].one;
			many = units[i].many;
			break;
		}
	fprintf(f, "<p id=\"columns\">Each column spans %lld %s; bar heights grow with the logarithm"
		" of the count (each column's counts are in its tooltip, the tallest beside the part's"
		" name).</p>", (long long)n, n == 1 ? one : many);
}
