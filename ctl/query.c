/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl summary and errors. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "decoders/cper.h"
#include "lib/decode.h"
#include "ctl.h"
#include "json_line.h"
#include "lib/formats.h"
#include "lib/clock.h"
#include "db/db_actions.h"
#include "decoders/sigbus.h"

static const struct ctl_opt summary_opts[] = {
	CTL_OPT_SINCE, CTL_OPT_UNTIL, CTL_OPT_TYPE, CTL_OPT_BOOT,
	{ "by", 'y', "dimm|vendor", CTL_C_WORDS,
	  "counts per DIMM with its label (memory controller errors), or per vendor, platform,"
	  " module and sub-module (vendor error sections)" },
	CTL_OPT_SYNTHETIC,
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_summary_spec = {
	.name = "summary", .args = "", .opts = summary_opts, .words = "dimm",
	.summary = "counts per type, severity and location, and the records the kernel dropped",
};

static const struct ctl_opt errors_opts[] = {
	CTL_OPT_TYPE, CTL_OPT_SINCE, CTL_OPT_UNTIL,
	{ "limit", 'L', "N", CTL_C_NONE,
	  "at most N records, newest first (0: all; default 50, and all with --json)" },
	CTL_OPT_BOOT, CTL_OPT_JSON,
	{ "redecode", 'R', NULL, CTL_C_NONE,
	  "decode the stored raw fields again with today's decoders, instead of showing the"
	  " decoding rasd stored (nothing is looked up on this machine)" },
	{ "vendor", 'V', "NAME", CTL_C_NONE,
	  "only vendor error sections of NAME: a vendor (hisilicon), a platform (kunpeng) or a"
	  " platform id (KunPeng9xx, see vendors), with every register; 'all' for every vendor" },
	{ "module", 'M', "NAME", CTL_C_NONE,
	  "with --vendor: only the modules or sub-modules whose name holds NAME (DDRC, TB_DDRC0)" },
	{ NULL },
};

const struct ctl_spec ctl_errors_spec = {
	.name = "errors", .args = "", .opts = errors_opts,
	.summary = "records newest first, one sentence each (synthetic ones marked)",
};

struct query_opts {
	struct ctl *c;
	struct ras_db_filter *f;
	bool json, by_dimm, by_vendor, limit_given, redecode;
	const char *vendor, *module;
};

static int query_opt(void *ctx, int key, const char *arg)
{
	struct query_opts *q = ctx;

	if (key == 'j') {
		q->json = true;
	} else if (key == 'R') {
		q->redecode = true;
	} else if (key == 'y') {
		if (strcmp(arg, "dimm") && strcmp(arg, "vendor"))
			return ctl_usage_error("summary", "--by takes 'dimm' or 'vendor', not '%s'", arg);
		q->by_dimm = !strcmp(arg, "dimm");
		q->by_vendor = !q->by_dimm;
	} else if (key == 'V') {
		q->vendor = arg;
	} else if (key == 'M') {
		q->module = arg;
	} else {
		q->limit_given |= key == 'L';
		if (ctl_filter_option(q->c, q->f, key, arg) < 0)
			return CTL_EXIT_USAGE;
	}
	return CTL_GO_ON;
}

static int parse_filter(const struct ctl_spec *spec, int argc, char **argv, struct query_opts *q)
{
	int first, r = ctl_parse(spec, argc, argv, query_opt, q, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error(spec->name, "unexpected argument '%s'", argv[first]);
	return CTL_GO_ON;
}

struct summary_ctx {
	bool json;
	unsigned n;
	int64_t total;
};

static void print_count(struct summary_ctx *s, unsigned idx, const char *sev, const char *loc,
			int64_t count, int64_t first_ns, int64_t last_ns)
{
	char first[40], last[40];

	ras_format_time(first_ns, first, sizeof(first));
	ras_format_time(last_ns, last, sizeof(last));
	s->total += count;
	if (s->json) {
		printf("%s{\"type\":\"%s\",\"severity\":", s->n++ ? "," : "", ras_event_types[idx].table);
		ctl_print_json_string(sev ? sev : "unknown", strlen(sev ? sev : "unknown"));
		printf(",\"location\":");
		ctl_print_json_string(loc ? loc : "", loc ? strlen(loc) : 0);
		printf(",\"count\":%lld,\"first\":\"%s\",\"last\":\"%s\"}", (long long)count, first, last);
		return;
	}
	if (!s->n++)
		printf("%-28s %-11s %8s  %-20s  %s\n", "TYPE", "SEVERITY", "COUNT", "LAST (UTC)", "LOCATION");
	/* Seconds are enough in the table; --json keeps the microseconds. */
	printf("%-28s %-11s %8lld  %.19sZ  %s\n", ras_event_types[idx].table,
	       sev ? ctl_text(sev) : "unknown", (long long)count, last, loc && *loc ? ctl_text(loc) : "-");
}

/* The summary's lines, kept while the query runs and printed once it has succeeded. */
struct summary_line {
	unsigned idx;
	char *sev, *loc;
	int64_t count, first_ns, last_ns;
};

struct summary_lines {
	struct summary_line *v;
	size_t n, cap;
};

static int keep_line(void *ctx, unsigned idx, const char *sev, const char *loc, int64_t count,
		     int64_t first_ns, int64_t last_ns)
{
	struct summary_lines *l = ctx;
	struct summary_line *line;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct summary_line *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	line = &l->v[l->n];
	*line = (struct summary_line){ .idx = idx, .sev = sev ? strdup(sev) : NULL,
				       .loc = loc ? strdup(loc) : NULL, .count = count,
				       .first_ns = first_ns, .last_ns = last_ns };
	if ((sev && !line->sev) || (loc && !line->loc)) {
		free(line->sev);
		free(line->loc);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

static void lines_free(struct summary_lines *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].sev);
		free(l->v[i].loc);
	}
	free(l->v);
}

int ctl_summary(struct ctl *c, int argc, char **argv)
{
	struct ras_db_filter f = { .type_idx = -1 };
	struct summary_ctx s = { 0 };
	struct summary_lines lines = { 0 };
	struct query_opts q = { .c = c, .f = &f };
	struct ras_db_losses losses;
	struct ras_db *db;
	int r = parse_filter(&ctl_summary_spec, argc, argv, &q);

	if (r != CTL_GO_ON)
		return r;
	if (q.by_dimm)
		return ctl_summary_by_dimm(c, &f, q.json);
	if (q.by_vendor)
		return ctl_summary_by_vendor(c, &f, q.json);
	if (ctl_open_db(c, &db) < 0)
		return 1;
	/* Counted before anything is printed: a damaged page is an error, not a short answer. */
	r = ras_db_summary(db, &f, keep_line, &lines);
	if (r < 0 || ras_db_losses(db, &f, 0, &losses) < 0) {
		ctl_db_error(c, r == -ENOMEM ? "out of memory" : ras_db_errmsg(db));
		lines_free(&lines);
		ras_db_close(db);
		return 1;
	}
	/* The actions line covers the summary's window, type and boot. */
	struct ras_db_action_window aw = {
		.since_ns = f.since_ns, .until_ns = f.until_ns, .boot_id = f.boot_id,
		.event_table = f.type_idx >= 0 ? ras_event_types[f.type_idx].table : NULL,
	};

	s = (struct summary_ctx){ .json = c->json };
	if (s.json)
		printf("{\"version\":%d,\"counts\":[", CTL_JSON_VERSION);
	for (size_t i = 0; i < lines.n; i++)
		print_count(&s, lines.v[i].idx, lines.v[i].sev, lines.v[i].loc, lines.v[i].count,
			    lines.v[i].first_ns, lines.v[i].last_ns);
	lines_free(&lines);
	if (s.json) {
		printf("]");
		ctl_actions_counts(db, &aw, true);
		printf(",\"total\":%lld,\"lost\":%lld,\"lost_unknown_gaps\":%lld,",
		       (long long)s.total, (long long)losses.records, (long long)losses.gaps);
		ctl_print_losses(&losses, true);
		printf(",\"synthetic_included\":%s}\n", f.include_synthetic ? "true" : "false");
	} else {
		if (!s.n)
			printf("No records%s.\n", f.include_synthetic ? "" : " (synthetic records excluded)");
		printf("Total: %lld records%s. Lost: %lld records, %lld gaps of unknown size (by origin: ",
		       (long long)s.total, f.include_synthetic ? "" : " (synthetic excluded)",
		       (long long)losses.records, (long long)losses.gaps);
		ctl_print_losses(&losses, false);
		printf(").\n");
		ctl_actions_counts(db, &aw, false);
	}
	ras_db_close(db);
	return 0;
}

struct errors_ctx {
	struct ras_db *db;            /* for the links between records (db/db_link.h) */
	bool json;
	bool redecode;                /* decode the raw fields again instead of the stored decoding */
	const char *vendor, *module;  /* --vendor (NULL for "all") and --module */
	bool vendor_only;             /* --vendor given: vendor rows only, with their registers */
	unsigned limit, shown;        /* --vendor: the limit counts the rows shown */
	struct ras_decode_ctx dctx;   /* for --redecode: the record's own fields only */
	struct ctl_jbuf line;         /* --json: each line built here, written with one fwrite */
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
};

void ctl_row_link(struct ras_db *db, const struct ras_db_row *row, struct ctl_link *l)
{
	memset(l, 0, sizeof(*l));
	l->applies = !row->fold && !strcmp(ras_event_types[row->type_idx].table, "signal_generate");
	if (l->applies && db)
		l->found = ras_db_memfail_link(db, row->id, &l->mf) == 1;
}

void ctl_render_row(const struct ras_db_row *row, const void *decoded, const struct ctl_link *l,
		    char *buf, size_t len)
{
	const struct ras_event_type *t = &ras_event_types[row->type_idx];
	struct sigbus_link sl;

	if (!l || !l->applies || !len) {
		ras_render(t, decoded, buf, len);
		return;
	}
	sl = (struct sigbus_link){ .pfn = l->found ? l->mf.pfn : RAS_DF_NONE,
				   .page_type = l->mf.page_type, .recovery = l->mf.recovery,
				   .delta_ns = l->mf.wall_ns - row->wall_ns };
	sigbus_render_linked(decoded, &sl, buf, len);
	if (!buf[0])
		ras_render(t, decoded, buf, len);
}

/* ctl_link as json_line.h's writer takes it. */
static struct ctl_json_link json_link(const struct ctl_link *l)
{
	return l ? (struct ctl_json_link){ .applies = l->applies, .found = l->found, .mf = &l->mf }
		 : (struct ctl_json_link){ 0 };
}

int ctl_fprint_json_row(FILE *o, struct ctl_jbuf *b, const struct ras_db_row *row,
			const void *decoded, const struct ctl_link *l)
{
	struct ctl_json_link jl = json_link(l);
	char text[RAS_SUMMARY_LEN];

	ctl_render_row(row, decoded, l, text, sizeof(text));
	ctl_jbuf_reset(b);
	ctl_json_row(b, row, decoded, text, &jl);
	if (b->failed)
		return -ENOMEM;
	return o && fwrite(b->p, 1, b->len, o) != b->len ? -EIO : 0;
}

int ctl_fprint_json_fold(FILE *o, struct ctl_jbuf *b, const struct ras_db_row *row)
{
	ctl_jbuf_reset(b);
	ctl_json_fold(b, row);
	if (b->failed)
		return -ENOMEM;
	return o && fwrite(b->p, 1, b->len, o) != b->len ? -EIO : 0;
}

/* A folded storm period: one line (or object) saying how many records it stands for. */
static int print_fold(struct errors_ctx *e, const struct ras_db_row *row)
{
	const struct ras_db_fold_info *fi = row->fold;
	const char *table = ras_event_types[row->type_idx].table;
	char first[40], last[40];

	ras_format_time(fi->first_ns, first, sizeof(first));
	ras_format_time(fi->last_ns, last, sizeof(last));
	if (e->json)
		return ctl_fprint_json_fold(stdout, &e->line, row) == -ENOMEM ? -ENOMEM : 0;
	printf("%.19sZ %s %s: %lld records folded (%lld errors) from %.19sZ", last,
	       row->severity ? ctl_text(row->severity) : "unknown", table, (long long)fi->records,
	       (long long)fi->errors, first);
	printf(", %s", fi->subject[0] ? ctl_text(fi->subject) : "older than the size or age limit");
	if (fi->have_addr)
		printf(", address 0x%llx-0x%llx", (unsigned long long)fi->addr_lo,
		       (unsigned long long)fi->addr_hi);
	for (unsigned i = 0; i < fi->ndetails; i++)
		printf("%s0x%llx", i ? "," : fi->ndetails > 1 ? ", distinct " : ", ", (unsigned long long)fi->details[i]);
	if (fi->ndetails)
		printf(" (%s%s)", ctl_text(fi->detail_name), fi->details_more ? ", and more" : "");
	if (row->location[0])
		printf(" @ %s", ctl_text(row->location));
	putchar('\n');
	return 0;
}

/* --vendor: whether the row (decoded as d) is one to show; counts it for the limit. */
static bool vendor_pick(struct errors_ctx *e, const struct ras_db_row *row, const void *d)
{
	struct ras_db_row shown = *row;

	if (!e->vendor_only)
		return true;
	shown.decoded = d;
	if (!ctl_vendor_row_matches(&shown, e->vendor, e->module))
		return false;
	e->shown++;
	return true;
}

/* --vendor: the registers under the sentence, as ras-mc-ctl --vendor-errors lists them. */
static void print_registers(const struct errors_ctx *e, const struct ras_db_row *row, const void *d)
{
	struct ras_db_row shown = *row;
	const struct cper_vendor *v;

	shown.decoded = d;
	if (e->vendor_only && (v = ctl_vendor_of(&shown)) && v->registers[0])
		printf("    registers: %s\n", v->registers);
}

/* A positive return ends the walk: --vendor's limit counts the rows it shows. */
static int print_row(void *ctx, const struct ras_db_row *row)
{
	struct errors_ctx *e = ctx;
	const struct ras_event_type *t = &ras_event_types[row->type_idx];
	const void *d = row->decoded;   /* what rasd decoded and stored */
	const struct ras_decoded_head *h;
	char when[40], text[RAS_SUMMARY_LEN];
	struct ctl_link link;

	if (row->fold) {
		if (vendor_pick(e, row, d) && print_fold(e, row) < 0)
			return -ENOMEM;
		return e->limit && e->shown >= e->limit;
	}
	if (e->redecode) {
		ras_decode_values(t, row->values, &e->dctx, e->decoded);
		d = e->decoded;
	}
	if (!vendor_pick(e, row, d))
		return 0;
	h = d;
	ctl_row_link(e->db, row, &link);
	ctl_render_row(row, d, &link, text, sizeof(text));
	if (e->json) {
		struct ctl_json_link jl = json_link(&link);

		ctl_jbuf_reset(&e->line);
		ctl_json_row(&e->line, row, d, text, &jl);
		if (e->line.failed)
			return -ENOMEM;
		fwrite(e->line.p, 1, e->line.len, stdout);
		return e->limit && e->shown >= e->limit;
	}
	ras_format_time(row->wall_ns, when, sizeof(when));
	/* Seconds are enough here (--json keeps the microseconds); the location
	 * is added only when the sentence does not already state it. */
	printf("%.19sZ %s %s: %s", when, ras_severity_name(h->severity), t->table, ctl_text(text));
	if (h->location[0] && !strstr(text, h->location))
		printf(" @ %s", ctl_text(h->location));
	if (row->source && strcmp(row->source, "live"))
		printf("  [%s]", ctl_text(row->source));
	putchar('\n');
	print_registers(e, row, d);
	return e->limit && e->shown >= e->limit;
}

/*
 * --redecode (and import) run today's decoders on raw fields, with nothing
 * looked up on this machine (its PCI devices, labels and EDAC layers are not
 * the recording machine's); the memory-failure names come from the shipped
 * tracepoint format.
 */
void ctl_prepare_redecode(struct ctl *c, struct ras_decode_ctx *dctx)
{
	char path[PATH_MAX + 64], *text;
	size_t len;

	ras_decode_ctx_init(dctx);
	snprintf(path, sizeof(path), "%s/ras/memory_failure_event/format", c->cfg.formats_dir);
	if (ras_read_file(path, &text, &len) == 0) {
		ras_decode_ctx_set_memfail_format(dctx, text, len);
		free(text);
	}
}

int ctl_errors(struct ctl *c, int argc, char **argv)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true, .with_folds = true };
	struct query_opts q = { .c = c, .f = &f };
	struct errors_ctx *e;
	struct ras_db *db;
	int n = parse_filter(&ctl_errors_spec, argc, argv, &q);

	if (n != CTL_GO_ON)
		return n;
	/* A person reads the newest 50; a script asking for JSON gets all unless it says. */
	if (!q.limit_given && !q.json)
		f.limit = 50;
	e = calloc(1, sizeof(*e));
	if (!e)
		return 1;
	e->json = q.json;
	e->redecode = q.redecode;
	if (q.module && !q.vendor) {
		free(e);
		return ctl_usage_error("errors", "--module goes with --vendor");
	}
	/* Vendor rows are picked from their decoding: the limit applies to those shown. */
	if (q.vendor) {
		e->vendor_only = true;
		e->vendor = strcasecmp(q.vendor, "all") ? q.vendor : NULL;
		e->module = q.module;
		e->limit = f.limit;
		f.limit = 0;
		if (f.type_idx < 0)
			f.type_mask = ctl_vendor_types();
	}
	if (ctl_open_db(c, &db) < 0) {
		free(e);
		return 1;
	}
	if (e->redecode)
		ctl_prepare_redecode(c, &e->dctx);
	e->db = db;
	n = ras_db_errors(db, &f, print_row, e);
	if (n < 0)
		ctl_db_error(c, ras_db_errmsg(db));
	else if ((e->vendor_only ? e->shown : (unsigned)n) == 0 && !e->json)
		printf("No records.\n");
	ras_db_close(db);
	ctl_jbuf_free(&e->line);
	free(e);
	return n < 0 ? 1 : 0;
}
