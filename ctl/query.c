/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl summary and errors. */
#include <getopt.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/decode.h"
#include "ctl.h"
#include "rasd/edac_daemon.h"
#include "lib/formats.h"
#include "lib/log.h"

static const struct option filter_opts[] = {
	{ "since", required_argument, NULL, 'S' },
	{ "until", required_argument, NULL, 'U' },
	{ "type", required_argument, NULL, 'T' },
	{ "limit", required_argument, NULL, 'L' },
	{ "boot", required_argument, NULL, 'B' },
	{ "include-synthetic", no_argument, NULL, 'I' },
	{ "json", no_argument, NULL, 'j' },
	{ "by", required_argument, NULL, 'y' },
	{ NULL, 0, NULL, 0 },
};

static bool by_dimm;

static int parse_filter(struct ctl *c, int argc, char **argv, struct ras_db_filter *f, bool *json)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "", filter_opts, NULL)) != -1) {
		if (opt == 'j')
			*json = true;
		else if (opt == 'y' && !strcmp(optarg, "dimm"))
			by_dimm = true;
		else if (opt == 'y') {
			fprintf(stderr, "ras-fdr-ctl: --by takes 'dimm'\n");
			return -1;
		}
		else if (opt == '?' || ctl_filter_option(c, f, opt, optarg) < 0)
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "ras-fdr-ctl: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

struct summary_ctx {
	bool json;
	unsigned n;
	int64_t total;
};

static int print_count(void *ctx, unsigned idx, const char *sev, const char *loc, int64_t count,
		       int64_t first_ns, int64_t last_ns)
{
	struct summary_ctx *s = ctx;
	char first[40], last[40];

	ras_format_time(first_ns, first, sizeof(first));
	ras_format_time(last_ns, last, sizeof(last));
	s->total += count;
	if (s->json) {
		printf("%s{\"type\":\"%s\",\"severity\":\"%s\",\"location\":", s->n++ ? "," : "",
		       ras_event_types[idx].table, sev ? sev : "unknown");
		ctl_print_json_string(loc ? loc : "", loc ? strlen(loc) : 0);
		printf(",\"count\":%lld,\"first\":\"%s\",\"last\":\"%s\"}", (long long)count, first, last);
		return 0;
	}
	if (!s->n++)
		printf("%-28s %-11s %8s  %-20s  %s\n", "TYPE", "SEVERITY", "COUNT", "LAST (UTC)", "LOCATION");
	/* Seconds are enough in the table; --json keeps the microseconds. */
	printf("%-28s %-11s %8lld  %.19sZ  %s\n", ras_event_types[idx].table, sev ? sev : "unknown",
	       (long long)count, last, loc && *loc ? loc : "-");
	return 0;
}

int ctl_summary(struct ctl *c, int argc, char **argv)
{
	struct ras_db_filter f = { .type_idx = -1 };
	struct summary_ctx s = { 0 };
	struct ras_db *db;
	int64_t lost, gaps;

	if (parse_filter(c, argc, argv, &f, &s.json) < 0)
		return 2;
	if (by_dimm)
		return ctl_summary_by_dimm(c, &f, s.json);
	if (ctl_open_db(c, &db) < 0)
		return 1;
	if (s.json)
		printf("{\"counts\":[");
	ras_db_summary(db, &f, print_count, &s);
	ras_db_lost_totals(db, &f, &lost, &gaps);
	if (s.json) {
		printf("],\"total\":%lld,\"lost\":%lld,\"lost_unknown_gaps\":%lld,"
		       "\"synthetic_included\":%s}\n", (long long)s.total, (long long)lost,
		       (long long)gaps, f.include_synthetic ? "true" : "false");
	} else {
		if (!s.n)
			printf("No records%s.\n", f.include_synthetic ? "" : " (synthetic records excluded)");
		printf("Total: %lld records%s. Lost: %lld records dropped by the kernel, "
		       "%lld gaps of unknown size.\n", (long long)s.total,
		       f.include_synthetic ? "" : " (synthetic excluded)", (long long)lost, (long long)gaps);
	}
	ras_db_close(db);
	return 0;
}

struct errors_ctx {
	bool json;
	struct ras_decode_ctx dctx;
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
};

static void print_json_value(const struct ras_field *f, const struct ras_value *v)
{
	if (!v->present) {
		printf("null");
	} else if (f->type == RAS_FT_INT) {
		printf("%lld", (long long)v->i);
	} else if (f->type == RAS_FT_TEXT) {
		ctl_print_json_string(v->p, v->len);
	} else {
		putchar('"');
		for (uint32_t i = 0; i < v->len; i++)
			printf("%02x", ((const uint8_t *)v->p)[i]);
		putchar('"');
	}
}

static void print_json_decoded(const struct ras_event_type *t, const void *d)
{
	printf(",\"decoded\":{");
	for (size_t i = 0; i < *t->n_dfields; i++) {
		const struct ras_dfield *df = &t->dfields[i];

		printf("%s\"%s\":", i ? "," : "", df->name);
		if (df->type == RAS_DF_STR) {
			const char *s = ras_dfield_str(d, df);

			ctl_print_json_string(s, strlen(s));
		} else if (ras_dfield_int(d, df) == RAS_DF_NONE) {
			printf("null");
		} else {
			printf("%lld", (long long)ras_dfield_int(d, df));
		}
	}
	printf("}");
}

void ctl_print_json_row(const struct ras_db_row *row, const struct ras_decoded_head *h)
{
	const struct ras_event_type *t = &ras_event_types[row->type_idx];
	char when[40];

	ras_format_time(row->wall_ns, when, sizeof(when));
	printf("{\"type\":\"%s\",\"id\":%lld,\"time\":\"%s\",\"wall_ns\":%lld,\"trace_ts\":%lld,"
	       "\"trace_cpu\":%d,\"boot_id\":\"%s\",\"source\":\"%s\",\"severity\":\"%s\",\"location\":",
	       t->table, (long long)row->id, when, (long long)row->wall_ns, (long long)row->trace_ts,
	       row->trace_cpu, row->boot_id ? row->boot_id : "", row->source ? row->source : "",
	       ras_severity_name(h->severity));
	ctl_print_json_string(h->location, strlen(h->location));
	printf(",\"summary\":");
	ctl_print_json_string(h->summary, strlen(h->summary));
	printf(",\"fields\":{");
	for (unsigned i = 0; i < t->n_fields; i++) {
		printf("%s\"%s\":", i ? "," : "", t->fields[i].name);
		print_json_value(&t->fields[i], &row->values[i]);
	}
	printf("}");
	print_json_decoded(t, h);
	printf("}\n");
}

static int print_row(void *ctx, const struct ras_db_row *row)
{
	struct errors_ctx *e = ctx;
	const struct ras_event_type *t = &ras_event_types[row->type_idx];
	const struct ras_decoded_head *h = (const void *)e->decoded;
	char when[40];

	/* The sentence is rebuilt by the daemon's own decoder from the stored raw fields. */
	ras_decode_values(t, row->values, &e->dctx, e->decoded);
	if (e->json) {
		ctl_print_json_row(row, h);
		return 0;
	}
	ras_format_time(row->wall_ns, when, sizeof(when));
	printf("%s  %-11s %-22s %s%s%s", when, ras_severity_name(h->severity), t->table,
	       h->summary, h->location[0] ? " @ " : "", h->location);
	if (row->source && strcmp(row->source, "live"))
		printf("  [%s]", row->source);
	putchar('\n');
	return 0;
}

static void ignore_label_error(void *ctx, const char *file, unsigned line, const char *reason)
{
}

/* Decoding needs what the daemon had: this kernel's symbol tables, or the shipped ones. */
void ctl_prepare_decoders(struct ctl *c, struct ras_decode_ctx *dctx)
{
	const char *dir = c->cfg.tracing_dir[0] ? c->cfg.tracing_dir : "/sys/kernel/tracing";
	struct ras_formats *fmt;
	struct edac_topology t;

	ras_decode_ctx_init(dctx);
	if (ras_formats_load(&fmt, dir, NULL, c->cfg.formats_dir) == 0) {
		ras_decode_ctx_load_memfail(dctx, fmt);
		ras_formats_free(fmt);
	}
	dctx->pci_sysfs_root = c->cfg.sysfs_root;
	/* Problems in label files are rasd's to report; here they only go unused. */
	edac_daemon_load_labels(&c->cfg, ignore_label_error, NULL);
	dctx->labels = edac_daemon_labels();
	if (edac_sysfs_read(c->cfg.sysfs_root, &t) == 0) {
		ras_decode_ctx_set_layers(dctx, &t);
		edac_topology_free(&t);
	}
}

int ctl_errors(struct ctl *c, int argc, char **argv)
{
	struct ras_db_filter f = { .type_idx = -1, .limit = 50, .include_synthetic = true };
	struct errors_ctx *e = calloc(1, sizeof(*e));
	struct ras_db *db;
	int n;

	if (!e || parse_filter(c, argc, argv, &f, &e->json) < 0) {
		free(e);
		return 2;
	}
	if (ctl_open_db(c, &db) < 0) {
		free(e);
		return 1;
	}
	ctl_prepare_decoders(c, &e->dctx);
	n = ras_db_errors(db, &f, print_row, e);
	if (n < 0)
		fprintf(stderr, "ras-fdr-ctl: %s\n", ras_db_errmsg(db));
	else if (n == 0 && !e->json)
		printf("No records.\n");
	ras_db_close(db);
	free(e);
	return n < 0 ? 1 : 0;
}
