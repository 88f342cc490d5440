/* SPDX-License-Identifier: MIT */
/*
 * The DIMM map as inline SVG, drawn as ras-fdr-ctl layout draws the board:
 * per socket its memory controllers (those whose socket is not known apart,
 * and said so), per controller a grid whose rows are the layers above the last
 * (channel) and whose columns are the last (slot). Each slot says its label,
 * its records and its verdict in words, and its fill and border differ in
 * lightness and dash as well as hue, so the map reads printed in grey.
 */
#include <string.h>
#include "report.h"

#define CW 200                /* a slot's width */
#define CH 54                 /* and height */
#define HEADW 110             /* the row headers' column */
#define HEADH 20              /* the column headers' row */

/* Fill, border, dash and text colour per state: replace, watch, ok, errors (not judged), none. */
static const struct {
	const char *state, *word, *fill, *stroke, *dash, *ink;
	double width;
} looks[] = {
	{ "replace", "REPLACE", "#8e1b12", "#000", "", "#fff", 3 },
	{ "watch", "WATCH", "#f3c14b", "#000", "6 3", "#000", 2.5 },
	{ "ok", "ok", "#d7eed7", "#444", "", "#000", 1 },
	{ "errors", "errors, not judged", "#cfe0f3", "#444", "2 2", "#000", 1.5 },
	{ "", "no errors", "#fff", "#999", "", "#555", 1 },
};

const char *rpt_slot_state(const struct rpt_model *m, const struct rpt_slot *s)
{
	const struct rpt_part *p = s->part >= 0 && (size_t)s->part < m->nparts ? &m->parts[s->part] : NULL;

	if (!p)
		return "";
	if (p->verdict >= 0 && (size_t)p->verdict < m->nverdicts) {
		const char *v = m->verdicts[p->verdict].verdict;

		if (!strcmp(v, "replace") || !strcmp(v, "watch") || !strcmp(v, "ok"))
			return v;
	}
	return "errors";
}

static unsigned look_of(const char *state)
{
	unsigned i = 0;

	while (i + 1 < sizeof(looks) / sizeof(looks[0]) && strcmp(looks[i].state, state))
		i++;
	return i;
}

static const struct rpt_slot *slot_at(const struct rpt_model *m, int mc, const int pos[RPT_LAYERS])
{
	for (size_t i = 0; i < m->map.nslots; i++)
		if (m->map.slots[i].mc == mc && !memcmp(m->map.slots[i].pos, pos, sizeof(int) * RPT_LAYERS))
			return &m->map.slots[i];
	return NULL;
}

/* A slot's box: its label, its records, its verdict in words. */
static void cell(FILE *f, const struct rpt_model *m, const struct rpt_slot *s, int mc,
		 const int pos[RPT_LAYERS], int x, int y)
{
	const char *state = s ? rpt_slot_state(m, s) : "";
	unsigned k = look_of(state);

	fprintf(f, "<g class=\"slot\" data-state=\"%s\" data-layers=\"%d:%d:%d\" data-mc=\"%d\">",
		state[0] ? state : "none", pos[0], pos[1], pos[2], mc);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\" fill=\"%s\" stroke=\"%s\""
		" stroke-width=\"%.1f\"%s%s%s/>", x + 2, y + 2, CW - 4, CH - 4, s ? looks[k].fill : "#fff",
		s ? looks[k].stroke : "#ccc", looks[k].width, looks[k].dash[0] ? " stroke-dasharray=\"" : "",
		looks[k].dash, looks[k].dash[0] ? "\"" : "");
	/* style, not fill=: the page's CSS would win over a presentation attribute. */
	fprintf(f, "<text x=\"%d\" y=\"%d\" style=\"fill:%s;font-weight:bold\">", x + 8, y + 17, looks[k].ink);
	if (s && s->label[0]) {
		size_t len = strlen(s->label);

		/* The end of a long label tells slots apart ("..._Chan#0_DIMM#1"): keep it. */
		if (len > 22)
			fputs("\xe2\x80\xa6", f);
		rpt_html_text(f, len > 22 ? s->label + len - 21 : s->label, SIZE_MAX);
	} else {
		fputs(s ? "(no label)" : "empty", f);
	}
	fprintf(f, "</text><text x=\"%d\" y=\"%d\" style=\"fill:%s\">", x + 8, y + 32, looks[k].ink);
	if (s && s->records)
		fprintf(f, "%lld error%s", (long long)s->records, s->records == 1 ? "" : "s");
	fprintf(f, "</text><text x=\"%d\" y=\"%d\" style=\"fill:%s\" class=\"word\">%s</text>", x + 8, y + 46,
		looks[k].ink, s ? looks[k].word : "");
	if (s && s->label[0]) {
		fputs("<title>", f);
		rpt_html_text(f, s->label, SIZE_MAX);
		fputs("</title>", f);
	}
	fputs("</g>", f);
}

/* "channel 1" of row r's upper layers into head; pos gets them. */
static void row_head(const struct rpt_map_mc *x, unsigned r, int pos[RPT_LAYERS], char *head, size_t len)
{
	unsigned last = x->n_layers - 1;
	size_t n = 0;

	head[0] = 0;
	for (unsigned l = last, rest = r; l-- > 0; rest /= x->layer_size[l] ? x->layer_size[l] : 1)
		pos[l] = (int)(rest % (x->layer_size[l] ? x->layer_size[l] : 1));
	for (unsigned l = 0; l < last && n < len; l++)
		n += (size_t)snprintf(head + n, len - n, "%s%s %d", l ? " " : "", x->layer_name[l], pos[l]);
}

static void controller(FILE *f, const struct rpt_model *m, const struct rpt_map_mc *x)
{
	unsigned last = x->n_layers - 1, rows = 1, cols = x->layer_size[last];
	char head[96];

	for (unsigned l = 0; l < last; l++)
		rows *= x->layer_size[l] ? x->layer_size[l] : 1;
	fprintf(f, "<div class=\"mc\"><b>mc%d</b> ", x->mc);
	rpt_html_text(f, x->name, SIZE_MAX);
	fprintf(f, "<br><svg class=\"dimm-map\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\""
		" role=\"img\">", HEADW + cols * CW, HEADH + rows * CH);
	for (unsigned c = 0; c < cols; c++) {
		fprintf(f, "<text x=\"%u\" y=\"14\">", HEADW + c * CW + 8);
		rpt_html_text(f, x->layer_name[last], SIZE_MAX);
		fprintf(f, " %u</text>", c);
	}
	for (unsigned r = 0; r < rows; r++) {
		int pos[RPT_LAYERS] = { -1, -1, -1 };

		row_head(x, r, pos, head, sizeof(head));
		fprintf(f, "<text x=\"0\" y=\"%u\">", HEADH + r * CH + 30);
		rpt_html_text(f, head, SIZE_MAX);
		fputs("</text>", f);
		for (unsigned c = 0; c < cols; c++) {
			pos[last] = (int)c;
			cell(f, m, slot_at(m, x->mc, pos), x->mc, pos, (int)(HEADW + c * CW), (int)(HEADH + r * CH));
		}
	}
	fputs("</svg></div>", f);
}

static void legend(FILE *f)
{
	fputs("<p class=\"legend\">", f);
	for (size_t i = 0; i < sizeof(looks) / sizeof(looks[0]); i++)
		fprintf(f, "<span><svg width=\"28\" height=\"14\" xmlns=\"http://www.w3.org/2000/svg\">"
			"<rect x=\"1\" y=\"1\" width=\"26\" height=\"12\" fill=\"%s\" stroke=\"%s\""
			" stroke-width=\"%.1f\"%s%s%s/></svg> %s</span>", looks[i].fill, looks[i].stroke,
			looks[i].width, looks[i].dash[0] ? " stroke-dasharray=\"" : "", looks[i].dash,
			looks[i].dash[0] ? "\"" : "", looks[i].word);
	fputs("</p>", f);
}

void rpt_write_dimm_map(FILE *f, const struct rpt_model *m)
{
	if (!m->map.nmcs) {
		fputs("<p class=\"muted\">No DIMM to draw: the database holds no EDAC topology and its"
		      " records name no DIMM slot.</p>", f);
		return;
	}
	if (m->map.from_edac)
		fputs("<p>The memory controllers and slots of the EDAC topology the database holds (as"
		      " <code>ras-fdr-ctl layout</code> draws them), each slot with its errors and its"
		      " verdict.</p>", f);
	else
		fputs("<p><b>The database holds no EDAC topology</b> (an imported database, or a machine"
		      " without EDAC sysfs): drawn are only the slots its records name, by controller and"
		      " EDAC layer; slots without errors are not known and shown empty.</p>", f);
	legend(f);
	/* The controllers come sorted by socket (report_map): a box per socket. */
	for (size_t i = 0; i < m->map.nmcs; i++) {
		const struct rpt_map_mc *x = &m->map.mcs[i];

		if (!i || x->socket != m->map.mcs[i - 1].socket) {
			if (i)
				fputs("</div>", f);
			if (x->socket >= 0)
				fprintf(f, "<div class=\"socket\" data-socket=\"%d\"><h3>socket %d</h3>",
					x->socket, x->socket);
			else
				fputs("<div class=\"socket\" data-socket=\"unknown\"><h3>socket not known</h3>"
				      "<p class=\"muted\">Neither the controllers' names nor their slots' labels"
				      " say which socket they are on.</p>", f);
		}
		if (x->n_layers)
			controller(f, m, x);
	}
	if (m->map.nmcs)
		fputs("</div>", f);
}
