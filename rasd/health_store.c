/* SPDX-License-Identifier: MIT */
/*
 * The diagnosis's state in the database: written at most once a second (and
 * at stop) in the open transaction, read back at start, and the event rows
 * stored since it was written counted again (a crash loses nothing but the
 * rows folded meanwhile, as the thresholds' buckets do). A state this build
 * cannot read (another version) is counted anew from the stored rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "health_internal.h"
#include "log.h"
#include "db/db_export.h"
#include "diag/state.h"
#include "lib/clock.h"

/*
 * A first start on a database of an earlier ras-fdr counts the newest rows
 * of each event table, at most this many: a year's records would hold rasd
 * up for minutes.
 */
#define HEALTH_REPLAY_MAX 1000000
/* Held observations of replayed rows are counted in chunks of this many. */
#define HEALTH_REPLAY_CHUNK 4096

/* As snprintf(dst, len, "%s", src), without the format: a flush copies a dozen per part. */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * The rows, banks and ranks e's cells touch: only the cells added since it
 * was last counted are counted (cells are only appended, and keep their
 * place), each against the cells before it.
 */
static void touched(struct part_entry *e, unsigned *rows, unsigned *banks, unsigned *ranks)
{
	unsigned from = e->touched_n ? e->touched_n - 1 : 0;

	if (!e->touched_n || from > e->cells->n)
		from = e->touched_rows = e->touched_banks = e->touched_ranks = 0;
	if (from < e->cells->n)
		diag_cells_touched_since(e->cells, from, &e->touched_rows, &e->touched_banks,
					 &e->touched_ranks);
	e->touched_n = e->cells->n + 1;
	*rows = e->touched_rows;
	*banks = e->touched_banks;
	*ranks = e->touched_ranks;
}

void health_entry_row(struct rasd_health *h, struct part_entry *e, struct ras_db_part *row,
		      uint8_t *state)
{
	const struct diag_link *l = &e->st.link;
	const struct diag_fault *worst = e->cells ? diag_cells_worst(e->cells) : NULL;
	unsigned rows, banks, ranks;

	memset(row, 0, sizeof(*row));
	copy(row->kind, sizeof(row->kind), diag_kind_name((enum diag_kind)e->st.kind));
	copy(row->part, sizeof(row->part), e->key);
	row->synthetic = e->synthetic;
	copy(row->label, sizeof(row->label), e->label);
	row->first_ns = e->st.records ? e->st.first_ns : RAS_DF_NONE;
	row->last_ns = e->st.records ? e->st.last_ns : RAS_DF_NONE;
	row->records = e->st.records;
	row->corrected = e->st.corrected;
	row->uncorrected = e->st.uncorrected;
	row->fatal = e->st.fatal;
	row->coord_records = e->st.coord_records;
	row->cells = row->beyond = row->rows = row->banks = row->ranks = RAS_DF_NONE;
	row->permanent = -1;
	if (e->cells) {
		touched(e, &rows, &banks, &ranks);
		row->cells = e->cells->n;
		row->beyond = e->cells->beyond;
		row->rows = rows;
		row->banks = banks;
		row->ranks = ranks;
	}
	if (worst) {
		copy(row->mode, sizeof(row->mode), diag_mode_name((enum diag_mode)worst->mode));
		row->permanent = (int)worst->permanent;
	}
	if (l->speed && l->max_speed)
		snprintf(row->link, sizeof(row->link), "%d.%d GT/s x%d (capable of %d.%d GT/s x%d)",
			 l->speed / 10, l->speed % 10, l->width, l->max_speed / 10, l->max_speed % 10,
			 l->max_width);
	copy(row->verdict, sizeof(row->verdict), diag_verdict_name((enum diag_verdict)e->st.verdict));
	copy(row->rule, sizeof(row->rule), diag_rule_info((enum diag_rule)e->st.rule)->name);
	row->since_ns = e->st.since_ns ? e->st.since_ns : RAS_DF_NONE;
	copy(row->why, sizeof(row->why), health_why(h, e));
	if (state) {
		row->state = state;
		row->state_len = diag_state_pack(&e->st, e->cells, state);
	}
}

static int write_faults(struct rasd_health *h, const struct part_entry *e, const struct ras_db_part *row)
{
	struct ras_db_fault f[DIAG_FAULTS];
	unsigned n = e->cells ? e->cells->n_faults : 0;

	for (unsigned i = 0; i < n; i++) {
		const struct diag_fault *d = &e->cells->fault[i];

		memset(&f[i], 0, sizeof(f[i]));
		f[i].idx = (int)i;
		copy(f[i].mode, sizeof(f[i].mode), diag_mode_name((enum diag_mode)d->mode));
		f[i].permanent = (int)d->permanent;
		f[i].rank = d->rank >= 0 ? d->rank : RAS_DF_NONE;
		f[i].bank_group = d->bank_group >= 0 ? d->bank_group : RAS_DF_NONE;
		f[i].bank = d->bank >= 0 ? d->bank : RAS_DF_NONE;
		f[i].row = d->row >= 0 ? d->row : RAS_DF_NONE;
		f[i].column = d->column >= 0 ? d->column : RAS_DF_NONE;
		f[i].cells = d->cells;
		f[i].ranks = d->ranks;
		f[i].banks = d->banks;
		f[i].rows = d->rows;
		f[i].columns = d->columns;
		f[i].errors = d->errors;
		f[i].first_ns = d->first_ns;
		f[i].last_ns = d->last_ns;
		diag_fault_describe(d, f[i].description, sizeof(f[i].description));
	}
	return ras_db_part_faults_put(h->dbp, row, f, n);
}

static int write_parts(struct rasd_health *h)
{
	struct ras_db_part row;

	for (unsigned i = 0; i < h->n_parts; i++) {
		struct part_entry *e = h->slot[h->order[i]];

		if (e->changed == e->stored || e->changed == e->written || !e->st.records)
			continue;
		health_entry_row(h, e, &row, h->state);
		if (ras_db_part_put(h->dbp, &row) < 0)
			return -1;
		h->work.written++;
		if (e->faults_changed && write_faults(h, e, &row) < 0)
			return -1;
		e->faults_in_flush |= e->faults_changed;
		e->faults_changed = false;
		e->written = e->changed;
	}
	return 0;
}

int rasd_health_flush(struct rasd_health *h, bool force)
{
	int64_t now = ras_clock_ns(CLOCK_MONOTONIC);

	if (!h || !h->dbp)
		return 0;
	if (h->change_seq == h->seq_at_flush && !h->history.n)
		return 0;
	if (!force && !h->history.n && now - h->flushed_ns < HEALTH_FLUSH_NS)
		return 0;
	/* Changes of verdict it finds are written with this flush. */
	health_judge_pending(h);
	if (write_parts(h) < 0)
		return -1;
	for (size_t i = 0; i < h->history.n; i++) {
		if (ras_db_verdict_add(h->dbp, &h->history.v[i]) < 0)
			return -1;
		health_history_push(&h->written, &h->history.v[i]);
	}
	h->history.n = 0;
	for (unsigned t = 0; t < ras_n_event_types && t < RAS_MAX_EVENT_TYPES; t++) {
		h->mark_written[t] = h->marked_id[t];
		if (h->applied_id[t] <= h->marked_id[t])
			continue;
		if (ras_db_health_mark_set(h->dbp, ras_event_types[t].table, h->applied_id[t]) < 0)
			return -1;
		h->mark_written[t] = h->applied_id[t];
	}
	h->flushed = true;
	h->flushed_ns = now;
	h->seq_at_flush = h->change_seq;
	return 0;
}

int rasd_health_timeout_ms(const struct rasd_health *h)
{
	int64_t left;

	if (!h || !h->dbp || (h->change_seq == h->seq_at_flush && !h->history.n))
		return -1;
	left = h->flushed_ns + HEALTH_FLUSH_NS - ras_clock_ns(CLOCK_MONOTONIC);
	return left <= 0 ? 0 : (int)(left / 1000000) + 1;
}

struct loading {
	struct rasd_health *h;
	struct diag_cells *cells;
	bool stale;
};

static int load_one(void *ctx, const struct ras_db_part *r)
{
	struct loading *ld = ctx;
	struct rasd_health *h = ld->h;
	int kind = diag_kind_parse(r->kind), slot, got;
	struct part_entry *e;
	struct diag_part st;

	if (kind < 0)
		return 0;
	got = r->state ? diag_state_unpack(r->state, r->state_len, &st, ld->cells) : -1;
	if (got < 0 || st.kind != (uint32_t)kind) {
		ld->stale = true;
		return 1;
	}
	if ((slot = health_part(h, (enum diag_kind)kind, r->part, r->synthetic, true)) < 0)
		return 0;
	e = h->slot[slot];
	e->st = st;
	e->touched_n = 0;
	if (got == 1 && e->cells)
		*e->cells = *ld->cells;
	snprintf(e->label, sizeof(e->label), "%s", r->label);
	e->decided.verdict = (enum diag_verdict)st.verdict;
	e->decided.rule = (enum diag_rule)st.rule;
	e->why_due = false;
	snprintf(e->why, sizeof(e->why), "%s", r->why);
	return 0;
}

static void forget_parts(struct rasd_health *h)
{
	for (unsigned i = 0; i < h->n_parts; i++) {
		free(h->slot[h->order[i]]->cells);
		free(h->slot[h->order[i]]);
		h->slot[h->order[i]] = NULL;
	}
	h->n_parts = h->n_dram = 0;
}

int health_load(struct rasd_health *h)
{
	struct loading ld = { .h = h, .cells = malloc(sizeof(struct diag_cells)) };
	int r;

	if (!ld.cells)
		return -1;
	r = ras_db_part_list(h->db, true, true, load_one, &ld);
	free(ld.cells);
	if (r < 0 && r != -ENOENT)
		return r;
	if (ld.stale) {
		ras_log(LOG_NOTICE, "the stored diagnosis is of another ras-fdr: counted anew from "
			"the stored records");
		forget_parts(h);
		h->rebuild = true;
	}
	return 0;
}

struct replay {
	struct rasd_health *h;
	unsigned type_idx;
};

static int replay_row(void *ctx, const struct ras_db_row *row)
{
	struct replay *rp = ctx;
	struct ras_db_event ev = {
		.type_idx = rp->type_idx, .wall_ns = row->wall_ns, .source = row->source,
		/* A synthetic record read from a boot buffer keeps that buffer's source: counted as real. */
		.synthetic = !strcmp(row->source, "synthetic"), .values = row->values,
		.decoded = row->decoded,
	};

	if (!row->decoded)
		return 0;
	rasd_health_record(rp->h, &ras_event_types[rp->type_idx], row->decoded, &ev, row->id);
	if (rp->h->held.n >= HEALTH_REPLAY_CHUNK)
		health_apply(rp->h, rp->h->held.n);
	return 0;
}

/*
 * Where to count table t from: after its mark; the newest rows when it has
 * none. *newest: its newest row (a table with nothing after the mark is not
 * read: preparing its statement costs more than a storm's second).
 */
static int replay_from(struct rasd_health *h, unsigned t, int64_t *from, int64_t *newest)
{
	int r = h->rebuild ? 0 : ras_db_health_mark_get(h->db, ras_event_types[t].table, from);

	if (r < 0 || ras_db_table_max_id(h->db, t, newest) < 0)
		return -1;
	if (r == 1)
		return 0;
	*from = *newest > HEALTH_REPLAY_MAX ? *newest - HEALTH_REPLAY_MAX : 0;
	return 0;
}

int health_catch_up(struct rasd_health *h)
{
	unsigned long counted = 0;
	int r = 0;

	h->replaying = true;
	for (unsigned t = 0; r >= 0 && t < ras_n_event_types && t < RAS_MAX_EVENT_TYPES; t++) {
		struct replay rp = { h, t };
		int64_t from = 0, newest = 0;

		if ((r = replay_from(h, t, &from, &newest)) < 0)
			break;
		h->marked_id[t] = h->applied_id[t] = from;
		if (newest > from && (r = ras_db_rows_after(h->db, t, from, replay_row, &rp)) > 0)
			counted += (unsigned long)r;
	}
	health_apply(h, h->held.n);
	h->replaying = false;
	h->rebuild = false;
	if (r < 0) {
		ras_log(LOG_WARNING, "cannot read the records stored since the diagnosis was written");
		return 0;
	}
	if (counted)
		ras_log(LOG_INFO, "the diagnosis counted %lu stored records it had not written yet",
			counted);
	if (ras_db_begin(h->db) < 0 || rasd_health_flush(h, true) < 0 || ras_db_commit(h->db) < 0) {
		ras_db_rollback(h->db);
		rasd_health_rolled_back(h);
		return 0;
	}
	rasd_health_committed(h);
	return 0;
}
