/* SPDX-License-Identifier: MIT */
/*
 * The report's verdicts: each part the diagnosis (issue 34) judged, read by
 * the query ras-fdr-ctl health reads (ras_db_part_list, db/db_parts.h) with
 * its faults and its history, so the report and health never disagree. No
 * verdict is decided here. A DIMM's SMBIOS device is health's answer too
 * (dimm_where_of_part on the live machine), read only with --machine: the
 * report may be made on another machine than the database's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "db/db_parts.h"
#include "decoders/dfield.h"
#include "diag/rules.h"
#include "lib/dimm_locator.h"
#include "lib/edac_sysfs.h"

struct verdict_ctx {
	struct ras_db *db;
	struct rpt_model *m;
	const char *want;            /* --part, or NULL */
	const char *sysfs_root;      /* --machine: the live machine's; NULL: not read */
	bool located;                /* loc and topo read, at the first DIMM */
	struct dimm_locators loc;
	struct edac_topology topo;
	bool have_topo;
	int error;
};

static int64_t or_zero(int64_t v)
{
	return v == RAS_DF_NONE ? 0 : v;
}

/* --part: a judged part whose key or label holds PART, or whose label PART names. */
static bool wanted(const struct ras_db_part *p, const char *want)
{
	return !want || strstr(p->part, want) ||
	       (p->label[0] && (strstr(p->label, want) || strstr(want, p->label)));
}

/* What to do, as health says it: the rule's advice. */
static const char *advice_of(const char *rule)
{
	int r = diag_rule_find(rule);

	return diag_rule_info(r < 0 ? DIAG_R_NONE : (enum diag_rule)r)->advice;
}

static int add_fault(void *ctx, const struct ras_db_fault *f)
{
	struct rpt_verdict *v = ctx;
	struct rpt_fault *x = report_grow(&v->faults, &v->nfaults, sizeof(*x));

	if (!x)
		return -ENOMEM;
	*x = (struct rpt_fault){ .mode = report_dup(f->mode), .description = report_dup(f->description),
				 .permanent = f->permanent > 0, .errors = or_zero(f->errors),
				 .first_ns = or_zero(f->first_ns), .last_ns = or_zero(f->last_ns) };
	return x->mode && x->description ? 0 : -ENOMEM;
}

static int add_change(void *ctx, const struct ras_db_verdict_change *c)
{
	struct rpt_verdict *v = ctx;
	struct rpt_change *x = report_grow(&v->history, &v->nhistory, sizeof(*x));

	if (!x)
		return -ENOMEM;
	*x = (struct rpt_change){ .at_ns = c->at_ns, .was = report_dup(c->was),
				  .verdict = report_dup(c->verdict), .rule = report_dup(c->rule),
				  .why = report_dup(c->why) };
	return x->was && x->verdict && x->rule && x->why ? 0 : -ENOMEM;
}

/* The DIMM's SMBIOS type 17 device as health says it, or why it is not known. 0 or -ENOMEM. */
static int locate(struct verdict_ctx *k, const struct ras_db_part *p, struct rpt_verdict *v)
{
	struct dimm_where w;
	struct rpt_locator *s;

	if (!(s = v->smbios = calloc(1, sizeof(*s))))
		return -ENOMEM;
	if (!k->sysfs_root) {
		s->how = strdup("this machine was not read: --machine reads its SMBIOS table");
		return s->how ? 0 : -ENOMEM;
	}
	if (!k->located) {
		k->located = true;
		dimm_locators_read(k->sysfs_root, &k->loc);
		k->have_topo = edac_sysfs_read(k->sysfs_root, &k->topo) == 0;
	}
	dimm_where_of_part(&k->loc, k->have_topo ? &k->topo : NULL, p->part, p->label, &w);
	s->how = strdup(w.why);
	if (w.dev) {
		s->known = true;
		s->locator = report_dup(w.dev->locator);
		s->bank_locator = report_dup(w.dev->bank_locator);
		s->manufacturer = report_dup(w.dev->manufacturer);
		s->part_number = report_dup(w.dev->part_number);
		s->serial = report_dup(w.dev->serial);
		s->handle = w.dev->handle;
	}
	return s->how && (!s->known || (s->locator && s->bank_locator && s->manufacturer &&
					s->part_number && s->serial)) ? 0 : -ENOMEM;
}

static int add_part(void *ctx, const struct ras_db_part *p)
{
	struct verdict_ctx *k = ctx;
	struct rpt_verdict *v;

	if (!wanted(p, k->want))
		return 0;
	if (!(v = report_grow(&k->m->verdicts, &k->m->nverdicts, sizeof(*v)))) {
		k->error = -ENOMEM;
		return 1;
	}
	*v = (struct rpt_verdict){
		.kind = report_dup(p->kind), .part = report_dup(p->part), .label = report_dup(p->label),
		.verdict = report_dup(p->verdict), .rule = report_dup(p->rule), .why = report_dup(p->why),
		.advice = report_dup(advice_of(p->rule)),
		.mode = report_dup(p->mode), .link = report_dup(p->link), .permanent = p->permanent,
		.since_ns = or_zero(p->since_ns), .first_ns = or_zero(p->first_ns),
		.last_ns = or_zero(p->last_ns), .records = or_zero(p->records),
		.corrected = or_zero(p->corrected), .uncorrected = or_zero(p->uncorrected),
		.fatal = or_zero(p->fatal), .synthetic = p->synthetic,
	};
	if (!v->kind || !v->part || !v->label || !v->verdict || !v->rule || !v->why || !v->advice ||
	    !v->mode || !v->link) {
		k->error = -ENOMEM;
		return 1;
	}
	if (!strcmp(p->kind, "dimm") && (k->error = locate(k, p, v)) < 0)
		return 1;
	if ((k->error = ras_db_part_faults(k->db, p->id, add_fault, v)) > 0)
		k->error = 0;
	if (!k->error && (k->error = ras_db_verdict_history(k->db, p->id, add_change, v)) > 0)
		k->error = 0;
	return k->error ? 1 : 0;
}

int report_verdicts(struct ras_db *db, const struct report_args *a, struct rpt_model *m)
{
	struct verdict_ctx k = { .db = db, .m = m, .want = a->part,
				 .sysfs_root = a->machine || m->machine_by_boot ? a->c->cfg.sysfs_root : NULL };
	int r = ras_db_part_list(db, a->f.include_synthetic, false, add_part, &k);

	dimm_locators_free(&k.loc);
	if (k.have_topo)
		edac_topology_free(&k.topo);
	if (r == -ENOENT)
		return 0;                 /* an older database: no diagnosis */
	if (r < 0)
		return r;
	m->verdicts_known = true;
	return k.error;
}
