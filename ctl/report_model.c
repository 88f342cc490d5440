/* SPDX-License-Identifier: MIT */
/*
 * The report's model from the database. Every count comes from a query
 * another command shows (summary's ras_db_summary, status's ras_db_losses,
 * actions' list, crashes'), so the report and those commands agree.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "db/db_actions.h"
#include "db/db_crashes.h"
#include "db/db_report.h"
#include "decoders/severity.h"
#include "lib/decode.h"
#include "lib/str.h"

/* Adds one zeroed element to a growing array; NULL when out of memory. */
/*
 * Room for 1, 2, 4, 8... elements: the array is made larger when *n is 0 or
 * a power of two (one realloc per element cost 8 % of a --part of 100,000 records).
 */
void *report_grow(void *vp, size_t *n, size_t size)
{
	void **v = vp;
	char *p = *v;

	if (*n == 0 || (*n & (*n - 1)) == 0) {
		if (!(p = realloc(*v, (*n ? *n * 2 : 1) * size)))
			return NULL;
		*v = p;
	}
	memset(p + *n * size, 0, size);
	return p + (*n)++ * size;
}

char *report_dup(const char *s)
{
	return strdup(s ? s : "");
}

/* 0 corrected, 1 uncorrected (every class worse than corrected), 2 other (info, unknown). */
int report_class_of(const char *severity)
{
	enum ras_severity s;

	if (!severity || ras_severity_parse(severity, &s) < 0 || s == RAS_SEV_UNKNOWN || s == RAS_SEV_INFO)
		return 2;
	return s == RAS_SEV_CORRECTED ? 0 : 1;
}

static uint64_t part_hash(const char *type, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *s = type; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	h = (h ^ 0xff) * 0x100000001b3ULL;
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/*
 * After the index_cap slots of the hash, two more: the last part found (its
 * index + 1, 0 none) and its event type (idx + 1). A --part's 100,000 records
 * come one part after another, and hashing each one's 50-byte location cost
 * 460 instructions a record; a hit costs one strcmp. Cleared with the index
 * (calloc), which is built again whenever the parts move.
 */
#define LAST_PART(m) ((m)->part_index[(m)->index_cap])
#define LAST_TYPE(m) ((m)->part_index[(m)->index_cap + 1])

/* Parts index_n.. into the index; the whole index again when it must grow (half full at most). */
static void index_parts(struct rpt_model *m)
{
	if (m->index_n > m->nparts || m->nparts * 2 >= m->index_cap) {
		size_t cap = m->index_cap ? m->index_cap : 1024;
		size_t *ix;

		while (m->nparts * 2 >= cap)
			cap *= 2;
		if (!(ix = calloc(cap + 2, sizeof(*ix))))
			return;
		free(m->part_index);
		m->part_index = ix;
		m->index_cap = cap;
		m->index_n = 0;
	}
	for (; m->index_n < m->nparts; m->index_n++) {
		const struct rpt_part *p = &m->parts[m->index_n];
		size_t i = part_hash(p->type, p->name) & (m->index_cap - 1);

		while (m->part_index[i])
			i = (i + 1) & (m->index_cap - 1);
		m->part_index[i] = m->index_n + 1;
	}
}

/* By the hash (8,792 parts searched in a line for each of 8,654 rows took most of a 10M report). */
struct rpt_part *report_find_part(struct rpt_model *m, unsigned idx, const char *loc)
{
	const char *type = ras_event_types[idx].table, *name = loc ? loc : "";

	index_parts(m);
	if (m->index_n != m->nparts) {
		/* Out of memory for the index: the search in a line still answers. */
		for (size_t i = 0; i < m->nparts; i++)
			if (!strcmp(m->parts[i].type, type) && !strcmp(m->parts[i].name, name))
				return &m->parts[i];
		return NULL;
	}
	if (LAST_PART(m) && LAST_TYPE(m) == idx + 1 && !strcmp(m->parts[LAST_PART(m) - 1].name, name))
		return &m->parts[LAST_PART(m) - 1];
	for (size_t i = part_hash(type, name) & (m->index_cap - 1); m->part_index[i];
	     i = (i + 1) & (m->index_cap - 1)) {
		struct rpt_part *p = &m->parts[m->part_index[i] - 1];

		if (!strcmp(p->type, type) && !strcmp(p->name, name)) {
			LAST_PART(m) = m->part_index[i];
			LAST_TYPE(m) = (size_t)idx + 1;
			return p;
		}
	}
	return NULL;
}

static int add_severity(struct rpt_part *p, const char *sev, int64_t count)
{
	char n[24];
	struct rpt_kv *kv;

	for (size_t i = 0; i < p->nsev; i++)
		if (!strcmp(p->by_severity[i].key, sev ? sev : "unknown")) {
			snprintf(n, sizeof(n), "%lld", atoll(p->by_severity[i].value) + (long long)count);
			free(p->by_severity[i].value);
			return (p->by_severity[i].value = strdup(n)) ? 0 : -ENOMEM;
		}
	if (!(kv = report_grow(&p->by_severity, &p->nsev, sizeof(*kv))))
		return -ENOMEM;
	snprintf(n, sizeof(n), "%lld", (long long)count);
	kv->key = report_dup(sev ? sev : "unknown");
	kv->value = strdup(n);
	return kv->key && kv->value ? 0 : -ENOMEM;
}

/* One summary line: a part's counts (created at its first line). */
static int add_count(void *ctx, unsigned idx, const char *sev, const char *loc, int64_t count,
		     int64_t first_ns, int64_t last_ns)
{
	struct rpt_model *m = ctx;
	struct rpt_part *p = report_find_part(m, idx, loc);
	int64_t *cls;

	if (!p) {
		if (!(p = report_grow(&m->parts, &m->nparts, sizeof(*p))))
			return -ENOMEM;
		p->type = report_dup(ras_event_types[idx].table);
		p->kind = report_dup(rpt_kind_of(p->type));
		p->name = report_dup(loc);
		p->first_ns = first_ns;
		p->last_ns = last_ns;
		if (!p->type || !p->kind || !p->name)
			return -ENOMEM;
	}
	cls = report_class_of(sev) == 0 ? &p->corrected : report_class_of(sev) == 1 ? &p->uncorrected : &p->other;
	*cls += count;
	m->total += count;
	if (first_ns < p->first_ns)
		p->first_ns = first_ns;
	if (last_ns > p->last_ns)
		p->last_ns = last_ns;
	return add_severity(p, sev, count);
}

/* --part: the parts named exactly so, else those whose name holds it. */
static bool part_matches(const struct rpt_model *m, const struct rpt_part *p, const char *want,
			 bool exact)
{
	(void)m;
	return exact ? !strcmp(p->name, want) : strstr(p->name, want) != NULL;
}

static int narrow_parts(struct rpt_model *m, const char *want)
{
	bool exact = false;
	size_t kept = 0;

	for (size_t i = 0; i < m->nparts && !exact; i++)
		exact = !strcmp(m->parts[i].name, want);
	m->total = 0;
	for (size_t i = 0; i < m->nparts; i++) {
		struct rpt_part *p = &m->parts[i];

		if (part_matches(m, p, want, exact)) {
			m->total += p->corrected + p->uncorrected + p->other;
			m->parts[kept++] = *p;
			continue;
		}
		free(p->kind);
		free(p->type);
		free(p->name);
		for (size_t s = 0; s < p->nsev; s++) {
			free(p->by_severity[s].key);
			free(p->by_severity[s].value);
		}
		free(p->by_severity);
	}
	m->nparts = kept;
	/* The parts moved: indexed again at the next search. */
	m->index_n = SIZE_MAX;
	if (!kept) {
		fprintf(stderr, "ras-fdr-ctl report: no part with errors is named '%s' (the parts are the"
			" locations of ras-fdr-ctl summary)\n", want);
		return -ENOENT;
	}
	return 0;
}

/* One column's count of a part (ras_db_summary_columns), added to its bins. */
static int add_bin(void *ctx, unsigned idx, const char *sev, const char *loc, unsigned column,
		   int64_t count)
{
	struct rpt_part *p = report_find_part(ctx, idx, loc);

	if (p && column < RPT_BINS)
		p->bins[report_class_of(sev)][column] += count;
	return 0;
}

/* Where column i starts: the first time rpt_bin_of puts in it. */
static int64_t column_start(const struct rpt_model *m, unsigned i)
{
	__int128 span = m->t1 - m->t0;

	return m->t0 + (int64_t)((span * i + RPT_BINS - 1) / RPT_BINS);
}

/*
 * Columns that cut an hour are counted from that hour's rows (the roll-ups
 * count by hour): on a window of more records than this, a storm of
 * millions in one hour would be read row by row, so the columns are made
 * whole hours instead and counted from the roll-ups alone (bench-report:
 * 10 million records in two minutes took 40 s; HACKING.md).
 */
#define FINE_COLUMNS_MAX_RECORDS 250000
#define HOUR_NS 3600000000000LL

/* [t0, t1) widened to RPT_BINS columns of whole hours each. */
static void whole_hours(struct rpt_model *m)
{
	int64_t first = m->t0 / HOUR_NS, last = (m->t1 - 1) / HOUR_NS;
	int64_t width = (last - first + RPT_BINS) / RPT_BINS;     /* hours per column, at least 1 */

	m->t0 = first * HOUR_NS;
	m->t1 = m->t0 + RPT_BINS * width * HOUR_NS;
	m->whole_hours = true;
}

/*
 * Only the types that have parts: another type's columns would all be
 * dropped by add_bin, and each type's statement costs 9 M instructions to
 * prepare (16 of the bench's 21 types have no records).
 */
static void part_types(const struct rpt_model *m, struct ras_db_filter *f)
{
	uint64_t mask = 0;

	for (size_t i = 0; i < m->nparts; i++) {
		const struct ras_event_type *t = ras_event_type_find(m->parts[i].type);
		size_t idx = t ? (size_t)(t - ras_event_types) : 64;

		if (idx >= 64)
			return;       /* past the mask's bits: every type, as before */
		mask |= UINT64_C(1) << idx;
	}
	if (f->type_idx < 0 && (!f->type_mask || (f->type_mask & mask)))
		f->type_mask = f->type_mask ? f->type_mask & mask : mask;
}

/*
 * Every column in one pass (per type): the summary's query with the columns'
 * starts as its cut points, so the cost does not grow with the columns.
 */
static int timelines(struct ras_db *db, const struct ras_db_filter *part_f, struct rpt_model *m,
		     int64_t window_records)
{
	struct ras_db_filter f = *part_f;
	int64_t starts[RPT_BINS + 1];
	int r;

	m->t0 = m->t1 = 0;
	if (!m->nparts)
		return 0;
	for (size_t i = 0; i < m->nparts; i++) {
		if (!m->t0 || m->parts[i].first_ns < m->t0)
			m->t0 = m->parts[i].first_ns;
		if (m->parts[i].last_ns + 1 > m->t1)
			m->t1 = m->parts[i].last_ns + 1;
	}
	if (m->t1 - m->t0 < RPT_BINS)      /* every column at least a nanosecond wide */
		m->t1 = m->t0 + RPT_BINS;
	/* The window's records, not --part's: the columns' query reads every type's rows. */
	if (window_records > FINE_COLUMNS_MAX_RECORDS && m->t0 > 0)
		whole_hours(m);
	for (unsigned i = 0; i < RPT_BINS; i++)
		starts[i] = column_start(m, i);
	starts[RPT_BINS] = m->t1;
	part_types(m, &f);
	r = ras_db_summary_columns(db, &f, starts, RPT_BINS, add_bin, m);
	return r < 0 ? r : 0;
}

/*
 * --part: the summary and the columns read only the roll-up rows of the
 * locations that hold its name (narrow_parts chooses among them, exactly as
 * among all), and whether the window is a large one is asked of the window's
 * records counted up to that limit: every other part's lines cost 0.86 G of a
 * DIMM's 7.2 G instructions (bench-report, 10 million records).
 */
int report_parts(struct ras_db *db, const struct report_args *a, struct rpt_model *m)
{
	struct ras_db_filter f = a->f, window = a->f;
	const char *scan = getenv("RAS_FDR_REPORT_SCAN");
	int64_t window_records;
	int r;

	/* RAS_FDR_REPORT_SCAN=1 (report_lists.c): every part read and narrowed here, as before. */
	f.location_holds = scan && !strcmp(scan, "1") ? NULL : a->part;
	window.location_holds = NULL;
	if ((r = ras_db_summary(db, &f, add_count, m)) < 0)
		return r;
	window_records = m->total;
	if (a->part && (r = narrow_parts(m, a->part)) < 0)
		return r;
	if (f.location_holds &&
	    (r = ras_db_summary_records(db, &window, FINE_COLUMNS_MAX_RECORDS, &window_records)) < 0)
		return r;
	return timelines(db, &f, m, window_records);
}
