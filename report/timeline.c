/* SPDX-License-Identifier: MIT */
/*
 * A part's timeline as inline SVG: one column per span of the report's time
 * line, corrected errors up from the axis, uncorrected down, the actions on
 * the part as marks above. Heights grow with the logarithm of the count, so
 * one uncorrected error stays visible beside a storm of corrected ones; each
 * column's <title> gives the exact counts (a tooltip, no script).
 */
#include <math.h>
#include "lib/clock.h"
#include "report.h"

#define W 640
#define H 96
#define AXIS 52               /* y of the axis */
#define HALF 36               /* tallest bar each way */
#define LEFT 4
#define COLW ((W - 2 * LEFT) / RPT_BINS)

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

static void column(FILE *f, const struct rpt_model *m, const struct rpt_part *p, unsigned i,
		   int64_t max)
{
	int64_t ce = p->bins[0][i], ue = p->bins[1][i], other = p->bins[2][i];
	int64_t span = (m->t1 - m->t0) / RPT_BINS;
	char from[40];
	int x = LEFT + (int)i * COLW, h;

	if (!ce && !ue && !other)
		return;
	ras_format_time(m->t0 + span * i, from, sizeof(from));
	fprintf(f, "<g class=\"col\"><title>from %.19sZ: %lld corrected, %lld uncorrected, %lld other</title>",
		from, (long long)ce, (long long)ue, (long long)other);
	if ((h = height(ce + other, max)))
		fprintf(f, "<rect class=\"ce\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", x,
			AXIS - h, COLW - 2, h);
	if ((h = height(ue, max)))
		fprintf(f, "<rect class=\"ue\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", x,
			AXIS + 1, COLW - 2, h);
	fputs("</g>", f);
}

static void action_marks(FILE *f, const struct rpt_model *m, size_t part)
{
	for (size_t i = 0; i < m->nactions; i++) {
		const struct rpt_action *a = &m->actions[i];
		int b = rpt_bin_of(m, a->wall_ns);
		int x = LEFT + b * COLW + COLW / 2 - 1;

		if (a->part != (int)part || b < 0)
			continue;
		fprintf(f, "<path class=\"act\" d=\"M%d 2 l4 8 l-8 0 z\"><title>", x);
		rpt_html_text(f, a->action, SIZE_MAX);
		fputs(": ", f);
		rpt_html_text(f, a->result, SIZE_MAX);
		fputs("</title></path>", f);
	}
}

void rpt_write_timeline(FILE *f, const struct rpt_model *m, size_t part)
{
	const struct rpt_part *p = &m->parts[part];
	int64_t max = max_of(p);
	char from[40], until[40];

	fprintf(f, "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\""
		" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"timeline of ", W, H + 14, W, H + 14);
	rpt_html_text(f, p->name, SIZE_MAX);
	fputs("\">", f);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", LEFT, AXIS,
		W - LEFT, AXIS);
	if (m->t1 > m->t0) {
		for (unsigned i = 0; i < RPT_BINS; i++)
			column(f, m, p, i, max);
		action_marks(f, m, part);
		ras_format_time(m->t0, from, sizeof(from));
		ras_format_time(m->t1, until, sizeof(until));
		fprintf(f, "<text x=\"%d\" y=\"%d\">%.16sZ</text>", LEFT, H + 10, from);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.16sZ</text>", W - LEFT,
			H + 10, until);
	}
	fputs("</svg>", f);
}
