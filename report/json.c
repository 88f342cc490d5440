/* SPDX-License-Identifier: MIT */
/* The report as a JSON bundle: doc/schema/report.schema.json describes every member. */
#include <errno.h>
#include <string.h>
#include "lib/clock.h"
#include "lib/json.h"
#include "lib/str.h"
#include "report.h"

static void jstr(FILE *f, const char *s)
{
	if (s)
		ras_json_string(f, s, strlen(s));
	else
		fputs("null", f);
}

/* A time as ISO 8601 UTC, or null for 0 (not known, unbounded). */
static void jtime(FILE *f, int64_t ns)
{
	char when[40];

	if (!ns) {
		fputs("null", f);
		return;
	}
	ras_format_time(ns, when, sizeof(when));
	fprintf(f, "\"%s\"", when);
}

static void jkv(FILE *f, const char *name, const struct rpt_kv *kv, size_t n)
{
	fprintf(f, "\"%s\":{", name);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? "," : "", f);
		jstr(f, kv[i].key);
		fputc(':', f);
		jstr(f, kv[i].value);
	}
	fputc('}', f);
}

static void machine(FILE *f, const struct rpt_machine *mc)
{
	fputs(",\"machine\":", f);
	if (!mc) {
		fputs("null", f);
		return;
	}
	fputs("{\"hostname\":", f);
	jstr(f, mc->hostname);
	fputs(",\"kernel\":", f);
	jstr(f, mc->kernel);
	fputc(',', f);
	jkv(f, "dmi", mc->dmi, mc->ndmi);
	fputs(",\"cpus\":[", f);
	for (size_t i = 0; i < mc->ncpus; i++) {
		const struct rpt_cpu *c = &mc->cpus[i];

		fprintf(f, "%s{\"socket\":%u,\"model\":", i ? "," : "", c->socket);
		jstr(f, c->model);
		fputs(",\"stepping\":", f);
		jstr(f, c->stepping);
		fputs(",\"microcode\":", f);
		jstr(f, c->microcode);
		fputs(",\"ppin\":", f);
		jstr(f, c->ppin);
		fputc('}', f);
	}
	fputs("],\"dimms\":[", f);
	for (size_t i = 0; i < mc->ndimms; i++) {
		const struct rpt_dimm *d = &mc->dimms[i];

		fprintf(f, "%s{\"locator\":", i ? "," : "");
		jstr(f, d->locator);
		fputs(",\"bank_locator\":", f);
		jstr(f, d->bank_locator);
		fputs(",\"manufacturer\":", f);
		jstr(f, d->manufacturer);
		fputs(",\"part_number\":", f);
		jstr(f, d->part_number);
		fputs(",\"serial\":", f);
		jstr(f, d->serial);
		fputs(",\"size_mb\":", f);
		if (d->size_mb == UINT64_MAX)
			fputs("null", f);
		else
			fprintf(f, "%llu", (unsigned long long)d->size_mb);
		fprintf(f, ",\"speed_mts\":%u,\"memory_type\":", d->speed_mts);
		jstr(f, d->memory_type);
		fputc('}', f);
	}
	fputs("]}", f);
}

/* Why the identity was read or not: the reason and the page's sentence, the same words. */
static void machine_read(FILE *f, const struct rpt_model *m)
{
	const struct rpt_machine_why *why = rpt_machine_why(m);
	char text[512];

	fprintf(f, ",\"machine_read\":{\"reason\":\"%s\",\"why\":", why->reason);
	snprintf(text, sizeof(text), "%s%s%s", why->text, why->option ? why->option : "", why->rest);
	jstr(f, text);
	fputc('}', f);
}

/*
 * A timeline's counts, `key` then "n,n,...]": built in one buffer and written
 * at once (an fprintf per number was a fifth of the whole machine's report:
 * 3 x 40 numbers a part).
 */
static void bins(FILE *f, const char *key, const int64_t *b)
{
	char line[RPT_BINS * 22 + 2], *at = line;

	fputs(key, f);
	for (unsigned i = 0; i < RPT_BINS; i++) {
		if (i)
			*at++ = ',';
		at += ras_str_int(at, b[i]);
	}
	*at++ = ']';
	fwrite(line, 1, (size_t)(at - line), f);
}

/* A DIMM's SMBIOS device as health --json writes it ("smbios"), null when not a DIMM. */
static void smbios(FILE *f, const struct rpt_locator *s)
{
	fputs(",\"smbios\":", f);
	if (!s) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"known\":%s", s->known ? "true" : "false");
	if (s->known) {
		fputs(",\"locator\":", f);
		jstr(f, s->locator);
		fputs(",\"bank_locator\":", f);
		jstr(f, s->bank_locator);
		fputs(",\"manufacturer\":", f);
		jstr(f, s->manufacturer);
		fputs(",\"part_number\":", f);
		jstr(f, s->part_number);
		fputs(",\"serial\":", f);
		jstr(f, s->serial);
		fprintf(f, ",\"handle\":\"0x%04x\"", s->handle);
	}
	fputs(s->known ? ",\"matched_by\":" : ",\"why\":", f);
	jstr(f, s->how);
	fputc('}', f);
}

/* The part's verdict joined (ctl's report_join): what health says of it, or null. */
static void part_verdict(FILE *f, const struct rpt_model *m, const struct rpt_part *p)
{
	const struct rpt_verdict *v;

	fputs(",\"verdict\":", f);
	if (p->verdict < 0 || (size_t)p->verdict >= m->nverdicts) {
		fputs("null", f);
		return;
	}
	v = &m->verdicts[p->verdict];
	fputs("{\"part\":", f);
	jstr(f, v->part);
	fputs(",\"label\":", f);
	jstr(f, v->label);
	fputs(",\"verdict\":", f);
	jstr(f, v->verdict);
	fputs(",\"rule\":", f);
	jstr(f, v->rule);
	fputs(",\"mode\":", f);
	jstr(f, v->mode && v->mode[0] ? v->mode : NULL);
	fputs(",\"evidence\":", f);
	jstr(f, v->why);
	fputs(",\"advice\":", f);
	jstr(f, v->advice);
	fputc('}', f);
}

static void parts(FILE *f, const struct rpt_model *m)
{
	fputs(",\"timeline\":{\"from\":", f);
	jtime(f, m->t1 > m->t0 ? m->t0 : 0);
	fputs(",\"until\":", f);
	jtime(f, m->t1 > m->t0 ? m->t1 : 0);
	fprintf(f, ",\"columns\":%d,\"whole_hours\":%s},\"parts\":[", RPT_BINS,
		m->whole_hours ? "true" : "false");
	for (size_t i = 0; i < m->nparts; i++) {
		const struct rpt_part *p = &m->parts[i];

		fprintf(f, "%s{\"kind\":", i ? "," : "");
		jstr(f, p->kind);
		fputs(",\"type\":", f);
		jstr(f, p->type);
		fputs(",\"name\":", f);
		jstr(f, p->name);
		fprintf(f, ",\"records\":%lld,\"corrected\":%lld,\"uncorrected\":%lld,\"other\":%lld,"
			"\"first\":", (long long)(p->corrected + p->uncorrected + p->other),
			(long long)p->corrected, (long long)p->uncorrected, (long long)p->other);
		jtime(f, p->first_ns);
		fputs(",\"last\":", f);
		jtime(f, p->last_ns);
		fputc(',', f);
		fputs("\"by_severity\":{", f);
		for (size_t s = 0; s < p->nsev; s++) {
			fputs(s ? "," : "", f);
			jstr(f, p->by_severity[s].key);
			fprintf(f, ":%s", p->by_severity[s].value);
		}
		fputc('}', f);
		bins(f, ",\"timeline_corrected\":[", p->bins[0]);
		bins(f, ",\"timeline_uncorrected\":[", p->bins[1]);
		bins(f, ",\"timeline_other\":[", p->bins[2]);
		part_verdict(f, m, p);
		smbios(f, rpt_part_locator(m, p));
		fputc('}', f);
	}
	fprintf(f, "],\"total\":%lld", (long long)m->total);
}

/* The DIMM map's controllers and slots, each slot's state as the HTML colours it. */
static void dimm_map(FILE *f, const struct rpt_model *m)
{
	const struct rpt_dimm_map *d = &m->map;

	fprintf(f, ",\"dimm_map\":{\"source\":\"%s\",\"controllers\":[", d->from_edac ? "edac" : "records");
	for (size_t i = 0; i < d->nmcs; i++) {
		fprintf(f, "%s{\"mc\":%d,\"socket\":", i ? "," : "", d->mcs[i].mc);
		if (d->mcs[i].socket < 0)
			fputs("null", f);
		else
			fprintf(f, "%d", d->mcs[i].socket);
		fputs(",\"name\":", f);
		jstr(f, d->mcs[i].name);
		fputs(",\"layers\":[", f);
		for (unsigned l = 0; l < d->mcs[i].n_layers; l++) {
			fputs(l ? ",{\"name\":" : "{\"name\":", f);
			jstr(f, d->mcs[i].layer_name[l]);
			fprintf(f, ",\"size\":%u}", d->mcs[i].layer_size[l]);
		}
		fputs("]}", f);
	}
	fputs("],\"slots\":[", f);
	for (size_t i = 0; i < d->nslots; i++) {
		const struct rpt_slot *s = &d->slots[i];
		const char *state = rpt_slot_state(m, s);

		fprintf(f, "%s{\"mc\":%d,\"layers\":[%d,%d,%d],\"label\":", i ? "," : "", s->mc,
			s->pos[0], s->pos[1], s->pos[2]);
		jstr(f, s->label);
		fprintf(f, ",\"records\":%lld,\"state\":\"%s\"}", (long long)s->records, state[0] ? state : "none");
	}
	fputs("]}", f);
}

static void verdict(FILE *f, const struct rpt_verdict *v)
{
	fputs("{\"kind\":", f);
	jstr(f, v->kind);
	fputs(",\"part\":", f);
	jstr(f, v->part);
	fputs(",\"label\":", f);
	jstr(f, v->label);
	fputs(",\"verdict\":", f);
	jstr(f, v->verdict);
	fputs(",\"rule\":", f);
	jstr(f, v->rule);
	fputs(",\"why\":", f);
	jstr(f, v->why);
	fputs(",\"advice\":", f);
	jstr(f, v->advice);
	fputs(",\"since\":", f);
	jtime(f, v->since_ns);
	fputs(",\"mode\":", f);
	jstr(f, v->mode && v->mode[0] ? v->mode : NULL);
	fprintf(f, ",\"permanent\":%s,\"link\":", v->permanent < 0 ? "null" : v->permanent ? "true" : "false");
	jstr(f, v->link && v->link[0] ? v->link : NULL);
	fprintf(f, ",\"records\":%lld,\"corrected\":%lld,\"uncorrected\":%lld,\"fatal\":%lld,"
		"\"synthetic\":%s,\"first\":", (long long)v->records, (long long)v->corrected,
		(long long)v->uncorrected, (long long)v->fatal, v->synthetic ? "true" : "false");
	jtime(f, v->first_ns);
	fputs(",\"last\":", f);
	jtime(f, v->last_ns);
	fputs(",\"faults\":[", f);
	for (size_t i = 0; i < v->nfaults; i++) {
		fprintf(f, "%s{\"mode\":", i ? "," : "");
		jstr(f, v->faults[i].mode);
		fprintf(f, ",\"permanent\":%s,\"errors\":%lld,\"first\":",
			v->faults[i].permanent ? "true" : "false", (long long)v->faults[i].errors);
		jtime(f, v->faults[i].first_ns);
		fputs(",\"last\":", f);
		jtime(f, v->faults[i].last_ns);
		fputs(",\"description\":", f);
		jstr(f, v->faults[i].description);
		fputc('}', f);
	}
	fputs("],\"history\":[", f);
	for (size_t i = 0; i < v->nhistory; i++) {
		fprintf(f, "%s{\"at\":", i ? "," : "");
		jtime(f, v->history[i].at_ns);
		fputs(",\"was\":", f);
		jstr(f, v->history[i].was);
		fputs(",\"verdict\":", f);
		jstr(f, v->history[i].verdict);
		fputs(",\"rule\":", f);
		jstr(f, v->history[i].rule);
		fputs(",\"why\":", f);
		jstr(f, v->history[i].why);
		fputc('}', f);
	}
	fputc(']', f);
	smbios(f, v->smbios);
	fputc('}', f);
}

static void verdicts(FILE *f, const struct rpt_model *m)
{
	fputs(",\"verdicts\":", f);
	if (!m->verdicts_known) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (size_t i = 0; i < m->nverdicts; i++) {
		fputs(i ? "," : "", f);
		verdict(f, &m->verdicts[i]);
	}
	fputc(']', f);
}

static void actions(FILE *f, const struct rpt_model *m)
{
	fputs(",\"actions\":[", f);
	for (size_t i = 0; i < m->nactions; i++) {
		const struct rpt_action *a = &m->actions[i];

		fprintf(f, "%s{\"time\":", i ? "," : "");
		jtime(f, a->wall_ns);
		fputs(",\"last\":", f);
		jtime(f, a->last_ns);
		fprintf(f, ",\"repeats\":%lld,\"kind\":", (long long)a->repeats);
		jstr(f, a->kind);
		fputs(",\"subject\":", f);
		jstr(f, a->subject);
		fputs(",\"action\":", f);
		jstr(f, a->action);
		fputs(",\"result\":", f);
		jstr(f, a->result);
		fprintf(f, ",\"errno\":%d,\"count\":%lld,\"threshold\":", a->error, (long long)a->count);
		jstr(f, a->threshold);
		fputs(",\"target\":", f);
		jstr(f, a->target);
		fputs(",\"event_table\":", f);
		jstr(f, a->event_table);
		fprintf(f, ",\"synthetic\":%s,\"taken\":%s,\"part_index\":", a->synthetic ? "true" : "false",
			rpt_action_taken(a) ? "true" : "false");
		/* The part whose timeline the page marks it on. */
		if (a->part < 0 || (size_t)a->part >= m->nparts)
			fputs("null}", f);
		else
			fprintf(f, "%d}", a->part);
	}
	fputc(']', f);
}

static void crashes(FILE *f, const struct rpt_model *m)
{
	fputs(",\"crashes\":", f);
	if (!m->crashes_known) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (size_t i = 0; i < m->ncrashes; i++) {
		const struct rpt_crash *c = &m->crashes[i];

		fprintf(f, "%s{\"boot_number\":%d,\"boot_id\":", i ? "," : "", c->boot_number);
		jstr(f, c->boot_id);
		fputs(",\"time\":", f);
		jtime(f, c->crash_ns);
		fputs(",\"found\":", f);
		jtime(f, c->found_ns);
		fputs(",\"backend\":", f);
		jstr(f, c->backend);
		fputs(",\"kind\":", f);
		jstr(f, c->kind);
		fputs(",\"cause\":", f);
		jstr(f, c->cause);
		fputs(",\"summary\":", f);
		jstr(f, c->summary);
		fputs(",\"reason\":", f);
		jstr(f, c->reason);
		fputs(",\"detail\":", f);
		jstr(f, c->detail);
		fputs(",\"hardware_lines\":", f);
		jstr(f, c->hw_lines);
		fprintf(f, ",\"explained\":%s}", c->explained ? "true" : "false");
	}
	fputc(']', f);
}

static void losses(FILE *f, const struct rpt_model *m)
{
	fprintf(f, ",\"lost\":{\"records\":%lld,\"unknown_gaps\":%lld,\"by_origin\":[",
		(long long)m->lost_records, (long long)m->lost_gaps);
	for (size_t i = 0; i < m->nlosses; i++) {
		const struct rpt_loss *l = &m->losses[i];

		fprintf(f, "%s{\"origin\":", i ? "," : "");
		jstr(f, l->origin);
		fprintf(f, ",\"records\":%lld,\"unknown_gaps\":%lld,\"rows\":%lld,\"in_total\":%s,\"why\":",
			(long long)l->records, (long long)l->gaps, (long long)l->rows,
			l->in_total ? "true" : "false");
		jstr(f, rpt_loss_why(l->origin));
		fputc('}', f);
	}
	fputs("]}", f);
}

/* The serial files --redact could not read, and the page's sentence of them. */
static void serials_unread(FILE *f, const struct rpt_model *m)
{
	fputs(",\"unread\":{\"files\":[", f);
	for (size_t i = 0; i < m->nserials_unread; i++) {
		if (i)
			fputc(',', f);
		jstr(f, m->serials_unread[i]);
	}
	fputs("],\"why\":", f);
	jstr(f, m->serials_unread_why);
	fputc('}', f);
}

/* The configuration, the records attached and what --redact took out. 0 or -EIO. */
static int tail(FILE *f, const struct rpt_model *m)
{
	fputs(",\"config_file\":", f);
	jstr(f, m->config_path);
	fputc(',', f);
	jkv(f, "config", m->config, m->nconfig);
	fputs(",\"records_limit\":", f);
	if (m->records_limit)
		fprintf(f, "%zu", m->records_limit);
	else
		fputs("null", f);
	fputs(",\"records\":[", f);
	if (rpt_write_records(f, m, false) < 0)
		return -EIO;
	fputc(']', f);
	fputs(",\"redacted\":", f);
	if (!m->redacted) {
		fputs("null", f);
	} else {
		fputc('[', f);
		for (size_t i = 0; i < m->nredactions; i++) {
			fprintf(f, "%s{\"what\":", i ? "," : "");
			jstr(f, m->redactions[i].what);
			fprintf(f, ",\"count\":%lld", (long long)m->redactions[i].count);
			if (m->serials_unread_why && !strcmp(m->redactions[i].what, "serial"))
				serials_unread(f, m);
			fputc('}', f);
		}
		fputc(']', f);
	}
	return 0;
}

int rpt_write_json(FILE *f, const struct rpt_model *m)
{
	/* "version" first, as every --json document (lib/json.h's contract); then the bundle's own. */
	fprintf(f, "{\"version\":%d,\"format\":\"ras-fdr-report\",\"format_version\":%d,"
		"\"ras_fdr_version\":", RAS_JSON_VERSION, RPT_FORMAT_VERSION);
	jstr(f, m->version);
	fputs(",\"generated\":", f);
	jtime(f, m->generated_ns);
	fputs(",\"database\":", f);
	jstr(f, m->database);
	fprintf(f, ",\"schema_version\":%d,\"since\":", m->schema_version);
	jtime(f, m->since_ns);
	fputs(",\"until\":", f);
	jtime(f, m->until_ns);
	fputs(",\"part\":", f);
	jstr(f, m->part_filter);
	fprintf(f, ",\"synthetic_included\":%s", m->synthetic_included ? "true" : "false");
	machine(f, m->machine);
	machine_read(f, m);
	fputs(",\"boots\":[", f);
	for (size_t i = 0; i < m->nboots; i++) {
		fprintf(f, "%s{\"boot_id\":", i ? "," : "");
		jstr(f, m->boots[i].boot_id);
		fputs(",\"first_seen\":", f);
		jtime(f, m->boots[i].first_seen_ns);
		fputc('}', f);
	}
	fputc(']', f);
	parts(f, m);
	dimm_map(f, m);
	verdicts(f, m);
	actions(f, m);
	crashes(f, m);
	losses(f, m);
	if (tail(f, m) < 0)
		return -EIO;
	fputs("}\n", f);
	return ferror(f) ? -EIO : 0;
}
