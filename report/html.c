/* SPDX-License-Identifier: MIT */
/*
 * The report as one HTML page: inline CSS and SVG, no script, nothing
 * fetched; it reads offline and prints to PDF (the print rules keep tables
 * and timelines whole on a page). Each section has an id the browser test
 * looks for: machine, verdicts, parts, timelines, dimm-map, actions, crashes, losses, config,
 * records, redacted.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "lib/clock.h"
#include "report.h"

static const char css[] =
	"body{font:14px/1.4 sans-serif;color:#111;margin:2em auto;max-width:72em;padding:0 1em}"
	"h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;border-bottom:1px solid #999;"
	"margin-top:1.6em}table{border-collapse:collapse;width:100%;margin:.5em 0}"
	"th,td{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top}"
	"th{background:#eee}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"table{font-size:12px}"
	".ue{fill:#c0392b}.ce{fill:#2e6db4}.act{fill:#e67e22}.axis{stroke:#555;stroke-width:1}"
	"svg text{font:10px sans-serif;fill:#333}.muted{color:#666}.bad{color:#c0392b;font-weight:bold}"
	"pre{white-space:pre-wrap;word-break:break-all;font-size:11px;background:#f6f6f6;padding:.5em}"
	".part{break-inside:avoid;margin:.8em 0}.legend span{margin-right:1.5em}"
	".peak{font-size:12px;color:#444;margin-left:.8em}.smbios{font-size:11px;font-weight:normal;color:#333}.smbios .muted,.smbios.muted{color:#666}.sw{display:inline-block;width:.8em;height:.8em;margin-right:.3em}"
	"svg.dimm-map text{font-size:11px}.mc{break-inside:avoid;margin:.6em 0}"
	".socket{border:1px solid #999;border-radius:6px;padding:0 .8em;margin:.8em 0}"
	".socket h3{font-size:1.05em;margin:.4em 0}"
	/* Printed, the parts table's eleven columns fit the page's width: smaller, times wrapped. */
	"@media print{body{margin:0;max-width:none}h2{break-after:avoid}tr,.part{break-inside:avoid}"
	"table{font-size:10px}td.t{white-space:normal}svg{max-width:100%;height:auto}"
	/* A socket's box whole on a page when it fits, never its heading alone at a page's foot. */
	".socket{break-inside:avoid}h3,.socket h3,.mc b{break-after:avoid}}";

/* Text of the page: NULL is an empty string. */
static void h(FILE *f, const char *s)
{
	if (s)
		rpt_html_text(f, s, SIZE_MAX);
}

static void when(FILE *f, int64_t ns)
{
	char t[40];

	if (!ns) {
		fputs("<span class=\"muted\">-</span>", f);
		return;
	}
	ras_format_time(ns, t, sizeof(t));
	fprintf(f, "%.19sZ", t);
}

static void cell(FILE *f, const char *s)
{
	fputs("<td>", f);
	h(f, s);
	fputs("</td>", f);
}

static void num(FILE *f, int64_t n)
{
	fprintf(f, "<td class=\"n\">%lld</td>", (long long)n);
}

static void head(FILE *f, const struct rpt_model *m)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">"
	      "<title>ras-fdr hardware report", f);
	if (m->part_filter) {
		fputs(": ", f);
		h(f, m->part_filter);
	}
	fprintf(f, "</title><style>%s</style></head><body>\n<h1>Hardware error report</h1>\n", css);
	fputs("<p id=\"about\">Made by ras-fdr ", f);
	h(f, m->version);
	fputs(" from the database <code>", f);
	h(f, m->database);
	fprintf(f, "</code> (schema %d)", m->schema_version);
	if (m->generated_ns) {
		fputs(" at ", f);
		when(f, m->generated_ns);
	}
	fputs(". Window: ", f);
	if (m->since_ns || m->until_ns) {
		when(f, m->since_ns);
		fputs(" to ", f);
		when(f, m->until_ns);
	} else {
		fputs("every record stored", f);
	}
	fputs(m->synthetic_included ? "; synthetic records included" : "; synthetic records left out", f);
	if (m->part_filter) {
		fputs(". Part: <b>", f);
		h(f, m->part_filter);
		fputs("</b>", f);
	}
	fputs(".</p>\n", f);
}

/* The machine's CPUs, a row a socket. */
static void machine_cpus(FILE *f, const struct rpt_machine *mc)
{
	fputs("<table><tr><th>socket</th><th>CPU model</th><th>stepping</th>"
	      "<th>microcode</th><th>PPIN</th></tr>", f);
	for (size_t i = 0; i < mc->ncpus; i++) {
		fprintf(f, "<tr><td class=\"n\">%u</td>", mc->cpus[i].socket);
		cell(f, mc->cpus[i].model);
		cell(f, mc->cpus[i].stepping);
		cell(f, mc->cpus[i].microcode);
		cell(f, mc->cpus[i].ppin);
		fputs("</tr>", f);
	}
	fputs("</table>", f);
}

/* The machine's DIMM inventory (SMBIOS), a row a DIMM. */
static void machine_dimms(FILE *f, const struct rpt_machine *mc)
{
	fputs("<table><tr><th>locator</th><th>bank</th><th>manufacturer</th><th>part number"
	      "</th><th>serial</th><th>size (MB)</th><th>speed (MT/s)</th><th>type</th></tr>", f);
	for (size_t i = 0; i < mc->ndimms; i++) {
		const struct rpt_dimm *d = &mc->dimms[i];

		fputs("<tr>", f);
		cell(f, d->locator);
		cell(f, d->bank_locator);
		cell(f, d->manufacturer);
		cell(f, d->part_number);
		cell(f, d->serial);
		if (d->size_mb == UINT64_MAX)
			cell(f, "unknown");
		else
			num(f, (int64_t)d->size_mb);
		num(f, d->speed_mts);
		cell(f, d->memory_type);
		fputs("</tr>", f);
	}
	fputs("</table>", f);
}

static void machine(FILE *f, const struct rpt_model *m)
{
	const struct rpt_machine *mc = m->machine;
	const struct rpt_machine_why *why = rpt_machine_why(m);

	fputs("<section id=\"machine\"><h2>Machine</h2>", f);
	/* The program's own words (rpt_machine_why), written as they are. */
	fprintf(f, "<p class=\"muted\">%s", why->text);
	if (why->option)
		fprintf(f, "<code>%s</code>", why->option);
	fprintf(f, "%s</p>", why->rest);
	if (mc) {
		fputs("<table><tr><th>host name</th>", f);
		cell(f, mc->hostname);
		fputs("</tr><tr><th>kernel</th>", f);
		cell(f, mc->kernel);
		fputs("</tr>", f);
		for (size_t i = 0; i < mc->ndmi; i++) {
			fputs("<tr><th>", f);
			h(f, mc->dmi[i].key);
			fputs("</th>", f);
			cell(f, mc->dmi[i].value);
			fputs("</tr>", f);
		}
		fputs("</table>", f);
		if (mc->ncpus)
			machine_cpus(f, mc);
		if (mc->ndimms)
			machine_dimms(f, mc);
	}
	fprintf(f, "<p>Boots recorded: %zu.</p>", m->nboots);
	if (m->nboots) {
		fputs("<table><tr><th>#</th><th>boot id</th><th>first seen</th></tr>", f);
		for (size_t i = 0; i < m->nboots; i++) {
			fprintf(f, "<tr><td class=\"n\">%zu</td>", i + 1);
			cell(f, m->boots[i].boot_id);
			fputs("<td>", f);
			when(f, m->boots[i].first_seen_ns);
			fputs("</td></tr>", f);
		}
		fputs("</table>", f);
	}
	fputs("</section>\n", f);
}

/*
 * A DIMM's SMBIOS device as health's text says it: "DIMM_A1 (bank P0), Samsung,
 * part M393A2K43BB1-CTD, serial S0A1; SMBIOS: how", or "locator not known (why)".
 */
static void locator(FILE *f, const struct rpt_locator *s)
{
	if (!s)
		return;
	fprintf(f, "<span class=\"smbios%s\">socket: ", s->known ? "" : " muted");
	if (!s->known) {
		fputs("locator not known (", f);
		h(f, s->how);
		fputs(")</span>", f);
		return;
	}
	h(f, s->locator[0] ? s->locator : "(no locator)");
	if (s->bank_locator[0]) {
		fputs(" (bank ", f);
		h(f, s->bank_locator);
		fputc(')', f);
	}
	if (s->manufacturer[0]) {
		fputs(", ", f);
		h(f, s->manufacturer);
	}
	if (s->part_number[0]) {
		fputs(", part ", f);
		h(f, s->part_number);
	}
	if (s->serial[0]) {
		fputs(", serial ", f);
		h(f, s->serial);
	}
	fputs("; <span class=\"muted\">SMBIOS: ", f);
	h(f, s->how);
	fputs("</span></span>", f);
}

/* The verdict, fault mode and evidence health gives the part (report_join), or "not judged". */
static void part_verdict(FILE *f, const struct rpt_model *m, const struct rpt_part *p)
{
	const struct rpt_verdict *v;

	if (p->verdict < 0 || (size_t)p->verdict >= m->nverdicts) {
		fputs("<td class=\"verdict muted\">not judged</td><td></td><td></td>", f);
		return;
	}
	v = &m->verdicts[p->verdict];
	fprintf(f, "<td class=\"verdict v-%s\">", !strcmp(v->verdict, "replace") ? "replace" :
		!strcmp(v->verdict, "watch") ? "watch" : "ok");
	h(f, v->verdict);
	fputs("</td>", f);
	cell(f, v->mode && v->mode[0] ? v->mode : "-");
	fputs("<td>", f);
	h(f, v->why);
	fputs(" <span class=\"muted\">(rule ", f);
	h(f, v->rule);
	fputs(")</span></td>", f);
}

static void parts(FILE *f, const struct rpt_model *m)
{
	struct rpt_timeline_texts texts;

	fprintf(f, "<section id=\"parts\"><h2>Parts with errors and their verdicts</h2><p>%zu part%s, %lld records in all"
		" (folded storm records counted, as <code>summary</code> counts them).</p>",
		m->nparts, m->nparts == 1 ? "" : "s", (long long)m->total);
	if (m->nparts) {
		/* A head of its own: printed, it is repeated on each page the table runs on. */
		fputs("<table><thead><tr><th>kind</th><th>part</th><th>type</th><th>corrected</th>"
		      "<th>uncorrected</th><th>other</th><th>first (UTC)</th><th>last (UTC)</th>"
		      "<th>verdict</th><th>fault mode</th><th>evidence</th></tr></thead><tbody>", f);
		for (size_t i = 0; i < m->nparts; i++) {
			const struct rpt_part *p = &m->parts[i];

			fprintf(f, "<tr%s>", p->uncorrected ? " class=\"bad\"" : "");
			cell(f, p->kind);
			fputs("<td>", f);
			h(f, p->name[0] ? p->name : "(no location)");
			if (rpt_part_locator(m, p))
				fputs("<br>", f);
			locator(f, rpt_part_locator(m, p));
			fputs("</td>", f);
			cell(f, p->type);
			num(f, p->corrected);
			num(f, p->uncorrected);
			num(f, p->other);
			fputs("<td class=\"t\">", f);
			when(f, p->first_ns);
			fputs("</td><td class=\"t\">", f);
			when(f, p->last_ns);
			fputs("</td>", f);
			part_verdict(f, m, p);
			fputs("</tr>", f);
		}
		fputs("</tbody></table>", f);
	}
	fputs("</section>\n<section id=\"timelines\"><h2>Timelines</h2>"
	      "<p class=\"legend\"><span><i class=\"sw\" style=\"background:#2e6db4\"></i>corrected "
	      "(and informational), up</span><span><i class=\"sw\" style=\"background:#c0392b\"></i>"
	      "uncorrected, down</span><span><i class=\"sw\" style=\"background:#e67e22\"></i>action"
	      "</span></p>", f);
	if (m->whole_hours)
		fprintf(f, "<p class=\"muted\" id=\"whole-hours\">Each column is %lld whole hour%s: the"
			" window holds more than 250,000 records, so the columns are counted from the hourly"
			" roll-ups, not placed record by record.</p>",
			(long long)((m->t1 - m->t0) / RPT_BINS / 3600000000000LL),
			(m->t1 - m->t0) / RPT_BINS == 3600000000000LL ? "" : "s");
	if (!m->nparts)
		fputs("<p class=\"muted\" id=\"no-timeline\">No records in the window: no timeline to draw.</p>", f);
	rpt_write_timeline_scale(f, m);
	rpt_timeline_texts(m, &texts);
	for (size_t i = 0; i < m->nparts; i++) {
		fputs("<div class=\"part\"><b>", f);
		h(f, m->parts[i].name[0] ? m->parts[i].name : "(no location)");
		fputs("</b> <span class=\"muted\">", f);
		h(f, m->parts[i].type);
		fputs("</span> ", f);
		rpt_write_timeline_peak(f, &m->parts[i]);
		fputs("<br>", f);
		rpt_write_timeline(f, m, &texts, i);
		fputs("</div>", f);
	}
	fputs("</section>\n", f);
}

/* How the part's verdict changed, a row a change. */
static void verdict_history(FILE *f, const struct rpt_verdict *v)
{
	fputs("<table><tr><th>at (UTC)</th><th>was</th><th>became</th><th>rule</th><th>why</th></tr>", f);
	for (size_t i = 0; i < v->nhistory; i++) {
		fputs("<tr><td>", f);
		when(f, v->history[i].at_ns);
		fputs("</td>", f);
		cell(f, v->history[i].was);
		cell(f, v->history[i].verdict);
		cell(f, v->history[i].rule);
		cell(f, v->history[i].why);
		fputs("</tr>", f);
	}
	fputs("</table>", f);
}

static void verdict(FILE *f, const struct rpt_verdict *v)
{
	bool bad = !strcmp(v->verdict, "replace");

	fprintf(f, "<div class=\"part\"><p><b class=\"%s\">", bad ? "bad" : "");
	h(f, v->verdict);
	fputs("</b>: ", f);
	h(f, v->kind);
	fputs(" <b>", f);
	h(f, v->part);
	fputs("</b>", f);
	if (v->label && v->label[0]) {
		fputs(" (", f);
		h(f, v->label);
		fputs(")", f);
	}
	if (v->synthetic)
		fputs(" <span class=\"muted\">(synthetic)</span>", f);
	fputs(" since ", f);
	when(f, v->since_ns);
	fputs(", rule <code>", f);
	h(f, v->rule);
	fputs("</code>: ", f);
	h(f, v->why);
	if (v->advice && v->advice[0]) {
		fputs(" <i>", f);
		h(f, v->advice);
		fputs("</i>", f);
	}
	fprintf(f, "</p><p class=\"muted\">%lld records (%lld corrected, %lld uncorrected, %lld fatal) from ",
		(long long)v->records, (long long)v->corrected, (long long)v->uncorrected,
		(long long)v->fatal);
	when(f, v->first_ns);
	fputs(" to ", f);
	when(f, v->last_ns);
	if (v->link && v->link[0]) {
		fputs("; link ", f);
		h(f, v->link);
	}
	fputs(".</p>", f);
	if (v->smbios) {
		fputs("<p>", f);
		locator(f, v->smbios);
		fputs("</p>", f);
	}
	if (v->nfaults) {
		fputs("<ul>", f);
		for (size_t i = 0; i < v->nfaults; i++) {
			fputs("<li>", f);
			h(f, v->faults[i].description);
			fputs("</li>", f);
		}
		fputs("</ul>", f);
	}
	if (v->nhistory)
		verdict_history(f, v);
	fputs("</div>", f);
}

static void verdicts(FILE *f, const struct rpt_model *m)
{
	fputs("<section id=\"verdicts\"><h2>Verdicts</h2>", f);
	if (!m->verdicts_known) {
		fputs("<p class=\"muted\">This database keeps no diagnosis (made before ras-fdr judged"
		      " parts).</p></section>\n", f);
		return;
	}
	fprintf(f, "<p>%zu part%s judged, as <code>ras-fdr-ctl health</code> shows them.</p>", m->nverdicts,
		m->nverdicts == 1 ? "" : "s");
	for (size_t i = 0; i < m->nverdicts; i++)
		verdict(f, &m->verdicts[i]);
	fputs("</section>\n", f);
}

static void action_rows(FILE *f, const struct rpt_model *m, bool done)
{
	fputs("<table><tr><th>first (UTC)</th><th>last</th><th>decisions</th><th>subject</th>"
	      "<th>action</th><th>result</th><th>errors / threshold</th><th>target</th></tr>", f);
	for (size_t i = 0; i < m->nactions; i++) {
		const struct rpt_action *a = &m->actions[i];

		if (rpt_action_taken(a) != done)
			continue;
		fputs("<tr><td>", f);
		when(f, a->wall_ns);
		fputs("</td><td>", f);
		when(f, a->last_ns);
		fputs("</td>", f);
		num(f, a->repeats);
		fputs("<td>", f);
		h(f, a->kind);
		fputs(" ", f);
		h(f, a->subject);
		fputs("</td>", f);
		cell(f, a->action);
		fputs("<td>", f);
		h(f, a->result);
		if (a->error)
			fprintf(f, " (errno %d)", a->error);
		if (a->synthetic)
			fputs(" (synthetic)", f);
		fprintf(f, "</td><td>%lld / ", (long long)a->count);
		h(f, a->threshold);
		fputs("</td>", f);
		cell(f, a->target);
		fputs("</tr>", f);
	}
	fputs("</table>", f);
}

static void actions(FILE *f, const struct rpt_model *m)
{
	size_t ndone = 0;

	for (size_t i = 0; i < m->nactions; i++)
		ndone += rpt_action_taken(&m->actions[i]);
	fprintf(f, "<section id=\"actions\"><h2>Actions</h2><h3>Taken</h3><p>%zu decision%s changed"
		" the machine.</p>", ndone, ndone == 1 ? "" : "s");
	if (ndone)
		action_rows(f, m, true);
	fprintf(f, "<h3>Refused or not done</h3><p>%zu decision%s changed nothing (dry run, account,"
		" rate-limited, capped, unsupported, failed).</p>", m->nactions - ndone,
		m->nactions - ndone == 1 ? "" : "s");
	if (m->nactions > ndone)
		action_rows(f, m, false);
	fputs("</section>\n", f);
}

static void crashes(FILE *f, const struct rpt_model *m)
{
	fputs("<section id=\"crashes\"><h2>Crashes</h2>", f);
	if (!m->crashes_known) {
		fputs("<p class=\"muted\">This database keeps no crashes (made before ras-fdr read"
		      " them).</p></section>\n", f);
		return;
	}
	fprintf(f, "<p>%zu %s.</p>", m->ncrashes, m->ncrashes == 1 ? "crash of an earlier boot" :
		"crashes of earlier boots");
	for (size_t i = 0; i < m->ncrashes; i++) {
		const struct rpt_crash *c = &m->crashes[i];

		fputs("<div class=\"part\"><p class=\"bad\">", f);
		h(f, c->summary);
		fputs("</p><p>Boot ", f);
		h(f, c->boot_id);
		fputs(", cause <code>", f);
		h(f, c->cause);
		fputs("</code>, from ", f);
		h(f, c->backend);
		fputs(" (", f);
		h(f, c->kind);
		fputs("), found ", f);
		when(f, c->found_ns);
		fputs(".</p>", f);
		if (c->reason) {
			fputs("<pre>", f);
			h(f, c->reason);
			if (c->detail) {
				fputs("\n", f);
				h(f, c->detail);
			}
			if (c->hw_lines) {
				fputs("\n", f);
				h(f, c->hw_lines);
			}
			fputs("</pre>", f);
		}
		fputs("</div>", f);
	}
	fputs("</section>\n", f);
}

static void losses(FILE *f, const struct rpt_model *m)
{
	fprintf(f, "<section id=\"losses\"><h2>What was lost</h2><p>%lld records lost, and %lld gaps of"
		" unknown size.</p><table><tr><th>origin</th><th>records</th><th>gaps of unknown size"
		"</th><th>rows</th><th>in the total</th><th>why</th></tr>", (long long)m->lost_records,
		(long long)m->lost_gaps);
	for (size_t i = 0; i < m->nlosses; i++) {
		const struct rpt_loss *l = &m->losses[i];

		fputs("<tr>", f);
		cell(f, l->origin);
		num(f, l->records);
		num(f, l->gaps);
		num(f, l->rows);
		cell(f, l->in_total ? "yes" : "no (the kernel's drop counters count them)");
		cell(f, rpt_loss_why(l->origin));
		fputs("</tr>", f);
	}
	fputs("</table></section>\n", f);
}

/* The configuration, the records attached and what --redact took out. 0 or -EIO. */
static int tail(FILE *f, const struct rpt_model *m)
{
	fputs("<section id=\"config\"><h2>Configuration</h2><p>", f);
	if (m->nconfig) {
		fputs("The settings of <code>", f);
		h(f, m->config_path);
		fputs("</code>; every other setting is its default.</p><table>", f);
		for (size_t i = 0; i < m->nconfig; i++) {
			fputs("<tr><th>", f);
			h(f, m->config[i].key);
			fputs("</th>", f);
			cell(f, m->config[i].value);
			fputs("</tr>", f);
		}
		fputs("</table>", f);
	} else {
		fputs("Every setting is its default (<code>", f);
		h(f, m->config_path);
		fputs("</code> sets none).</p>", f);
	}
	fputs("</section>\n", f);
	if (m->part_filter)
		fprintf(f, "<section id=\"records\"><h2>Records of the part</h2><details open><summary>"
			"%zu lines, each as <code>errors --json</code> writes it</summary><pre>", m->nrecords);
	else
		fprintf(f, "<section id=\"records\"><h2>Records</h2><details><summary>The newest %zu records"
			" (at most %zu; a folded storm period is one line), each as <code>errors --json</code>"
			" writes it; <code>report --part PART</code> attaches every one of a part's.</summary><pre>",
			m->nrecords, m->records_limit);
	if (rpt_write_records(f, m, true) < 0)
		return -EIO;
	fputs("</pre></details></section>\n", f);
	if (m->redacted) {
		fputs("<section id=\"redacted\"><h2>Redacted</h2><p>Taken out of this report:</p><ul>", f);
		for (size_t i = 0; i < m->nredactions; i++) {
			fprintf(f, "<li>%lld &times; ", (long long)m->redactions[i].count);
			h(f, m->redactions[i].what);
			fputs("</li>", f);
		}
		fputs("</ul>", f);
		if (m->serials_unread_why) {
			fputs("<p id=\"serials-unread\">", f);
			h(f, m->serials_unread_why);
			fputs("</p>", f);
		}
		fputs("</section>\n", f);
	}
	return 0;
}

int rpt_write_html(FILE *f, const struct rpt_model *m)
{
	head(f, m);
	machine(f, m);
	verdicts(f, m);
	parts(f, m);
	fputs("<section id=\"dimm-map\"><h2>DIMM map</h2>", f);
	rpt_write_dimm_map(f, m);
	fputs("</section>\n", f);
	actions(f, m);
	crashes(f, m);
	losses(f, m);
	if (tail(f, m) < 0)
		return -EIO;
	fputs("</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
