/* SPDX-License-Identifier: MIT */
/*
 * The vendor sections' views: "summary --by vendor" (counts per vendor,
 * platform, module, sub-module and severity), "errors --vendor NAME
 * [--module NAME]" (their records with every register) and "vendors" (the
 * platforms whose sections are decoded). What rasdaemon's ras-mc-ctl shows
 * with --vendor-errors-summary, --vendor-errors and --vendor-platforms, for
 * every vendor at once, read from the decodings rasd stored
 * (non_standard_event and the vendor data of arm_event).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "ctl.h"
#include "decoders/cper.h"
#include "lib/clock.h"

/* The vendor fields of a decoded non_standard_event or arm_event; NULL for other types. */
const struct cper_vendor *ctl_vendor_of(const struct ras_db_row *row)
{
	const char *table = ras_event_types[row->type_idx].table;

	if (!strcmp(table, "non_standard_event"))
		return &((const struct nonstd_decoded *)row->decoded)->v;
	if (!strcmp(table, "arm_event"))
		return &((const struct arm_decoded *)row->decoded)->v;
	return NULL;
}

uint64_t ctl_vendor_types(void)
{
	uint64_t mask = 0;

	for (unsigned i = 0; i < ras_n_event_types && i < 64; i++)
		if (!strcmp(ras_event_types[i].table, "non_standard_event") ||
		    !strcmp(ras_event_types[i].table, "arm_event"))
			mask |= UINT64_C(1) << i;
	return mask;
}

bool ctl_vendor_row_matches(const struct ras_db_row *row, const char *vendor, const char *module)
{
	const struct cper_vendor *v = ctl_vendor_of(row);

	if (!v || !v->vendor[0] || (vendor && !cper_vendor_matches(v, vendor)))
		return false;
	return !module || strcasestr(v->module, module) || strcasestr(v->sub_module, module);
}

/* ---- summary --by vendor ---------------------------------------------- */

struct vcount {
	char key[5][48];              /* vendor, platform, module, sub-module, severity */
	int64_t count, first_ns, last_ns;
};

struct vcounts {
	struct vcount *v;
	size_t n, cap;
	int64_t total;
};

static int add_count(struct vcounts *c, char key[5][48], int64_t n, int64_t first, int64_t last)
{
	struct vcount *e = NULL;

	for (size_t i = 0; i < c->n && !e; i++)
		if (!memcmp(c->v[i].key, key, sizeof(c->v[i].key)))
			e = &c->v[i];
	if (!e) {
		if (c->n == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 32;
			struct vcount *nv = realloc(c->v, cap * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			c->v = nv;
			c->cap = cap;
		}
		e = &c->v[c->n++];
		memcpy(e->key, key, sizeof(e->key));
		e->count = 0;
		e->first_ns = first;
		e->last_ns = last;
	}
	e->count += n;
	c->total += n;
	if (first < e->first_ns)
		e->first_ns = first;
	if (last > e->last_ns)
		e->last_ns = last;
	return 0;
}

/* Every vendor record counts once, a folded period as the records it stands for. */
static int count_row(void *ctx, const struct ras_db_row *row)
{
	const struct cper_vendor *v = ctl_vendor_of(row);
	const struct ras_decoded_head *h = row->decoded;
	char key[5][48] = { { 0 } };

	if (!v || !v->vendor[0])
		return 0;
	snprintf(key[0], sizeof(key[0]), "%s", v->vendor);
	snprintf(key[1], sizeof(key[1]), "%s", v->platform);
	snprintf(key[2], sizeof(key[2]), "%s", v->module);
	snprintf(key[3], sizeof(key[3]), "%s", v->sub_module);
	snprintf(key[4], sizeof(key[4]), "%s", ras_severity_name(h->severity));
	if (row->fold)
		return add_count(ctx, key, row->fold->records, row->fold->first_ns, row->fold->last_ns);
	return add_count(ctx, key, 1, row->wall_ns, row->wall_ns);
}

static int by_key(const void *a, const void *b)
{
	return memcmp(((const struct vcount *)a)->key, ((const struct vcount *)b)->key,
		      sizeof(((const struct vcount *)a)->key));
}

static void print_counts(const struct vcounts *c, bool json)
{
	static const char *const names[5] = { "vendor", "platform", "module", "sub_module", "severity" };
	char first[40], last[40];

	if (json)
		printf("{\"version\":%d,\"vendors\":[", CTL_JSON_VERSION);
	else if (c->n)
		printf("%-12s %-12s %-14s %-16s %-11s %7s  %s\n", "VENDOR", "PLATFORM", "MODULE",
		       "SUB-MODULE", "SEVERITY", "COUNT", "LAST (UTC)");
	for (size_t i = 0; i < c->n; i++) {
		const struct vcount *e = &c->v[i];

		ras_format_time(e->first_ns, first, sizeof(first));
		ras_format_time(e->last_ns, last, sizeof(last));
		if (!json) {
			printf("%-12s %-12s %-14s %-16s %-11s %7lld  %.19sZ\n", e->key[0], e->key[1],
			       e->key[2][0] ? e->key[2] : "-", e->key[3][0] ? e->key[3] : "-", e->key[4],
			       (long long)e->count, last);
			continue;
		}
		printf("%s{", i ? "," : "");
		for (int k = 0; k < 5; k++) {
			printf("\"%s\":", names[k]);
			ctl_print_json_string(e->key[k], strlen(e->key[k]));
			putchar(',');
		}
		printf("\"count\":%lld,\"first\":\"%s\",\"last\":\"%s\"}", (long long)e->count, first, last);
	}
	if (json)
		printf("],\"total\":%lld}\n", (long long)c->total);
	else
		printf("%sTotal: %lld vendor-section records.\n", c->n ? "" : "No vendor-section records.\n",
		       (long long)c->total);
}

int ctl_summary_by_vendor(struct ctl *c, const struct ras_db_filter *filter, bool json)
{
	struct ras_db_filter f = *filter;
	struct vcounts counts = { 0 };
	struct ras_db *db;
	int r;

	f.with_folds = true;
	f.limit = 0;
	if (f.type_idx < 0)
		f.type_mask = ctl_vendor_types();
	if (ctl_open_db(c, &db) < 0)
		return 1;
	/* Counted before anything is printed: a damaged page is an error, not a short answer. */
	r = ras_db_errors(db, &f, count_row, &counts);
	if (r < 0) {
		ctl_db_error(c, ras_db_errmsg(db));
		free(counts.v);
		ras_db_close(db);
		return 1;
	}
	if (counts.n)
		qsort(counts.v, counts.n, sizeof(*counts.v), by_key);
	print_counts(&counts, json);
	free(counts.v);
	ras_db_close(db);
	return 0;
}

/* ---- vendors ------------------------------------------------------------ */

static const struct ctl_opt vendors_opts[] = {
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_vendors_spec = {
	.name = "vendors", .args = "", .opts = vendors_opts,
	.summary = "the platforms whose vendor error sections are decoded, with their ids",
};

static int vendors_opt(void *ctx, int key, const char *arg)
{
	(void)arg;
	if (key == 'j')
		*(bool *)ctx = true;
	return CTL_GO_ON;
}

int ctl_vendors(struct ctl *c, int argc, char **argv)
{
	bool json = false;
	int first, r = ctl_parse(&ctl_vendors_spec, argc, argv, vendors_opt, &json, &first);

	(void)c;
	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("vendors", "unexpected argument '%s'", argv[first]);
	if (json)
		printf("{\"version\":%d,\"platforms\":[", CTL_JSON_VERSION);
	else
		printf("%-14s %-12s %-20s %s\n", "ID", "VENDOR", "PLATFORM", "SECTIONS");
	for (size_t i = 0; i < cper_n_vendor_platforms; i++) {
		const struct cper_vendor_platform *p = &cper_vendor_platforms[i];

		if (!json) {
			printf("%-14s %-12s %-20s %s\n", p->id, p->vendor, p->platform, p->sections);
			continue;
		}
		printf("%s{\"id\":\"%s\",\"vendor\":\"%s\",\"platform\":\"%s\",\"sections\":\"%s\"}",
		       i ? "," : "", p->id, p->vendor, p->platform, p->sections);
	}
	if (json)
		printf("]}\n");
	return CTL_EXIT_OK;
}
