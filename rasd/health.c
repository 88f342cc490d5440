/* SPDX-License-Identifier: MIT */
/* The diagnosis in rasd: see health.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "actions_hash.h"
#include "health_internal.h"
#include "log.h"
#include "triggers.h"
#include "trigger_env.h"
#include "lib/clock.h"
#include "lib/grow.h"

/* The kinds of subject attribution reads (lib/subject.h). */
#define SUBJECT_KINDS ((1u << RAS_SUBJ_DIMM) | (1u << RAS_SUBJ_CPU) | (1u << RAS_SUBJ_DEVICE) | \
		       (1u << RAS_SUBJ_ROW))

/*
 * In memory only (a part's place in slot[]; parts are listed in order[]):
 * eight bytes a step, not one as before, which was half of a lookup's cost.
 */
static uint64_t key_hash(enum diag_kind kind, const char *key, bool synthetic)
{
	return actions_key_hash(1469598103934665603ULL ^ ((uint64_t)kind << 1 | synthetic), key);
}

/* "%s" into a buffer without snprintf's cost, at every record. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static struct part_entry *new_entry(struct rasd_health *h, enum diag_kind kind, const char *key,
				    bool synthetic, uint64_t hash)
{
	struct part_entry *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->hash = hash;
	e->synthetic = synthetic;
	copy_str(e->key, sizeof(e->key), key);
	diag_part_init(&e->st, kind);
	e->decided.verdict = DIAG_OK;
	/* Memory keeps its cells, as far as the bound allows; past it, its counts alone. */
	if (diag_kind_dram(kind) && h->n_dram < HEALTH_DRAM_MAX && (e->cells = malloc(sizeof(*e->cells)))) {
		diag_cells_init(e->cells);
		h->n_dram++;
	}
	return e;
}

int health_part(struct rasd_health *h, enum diag_kind kind, const char *key, bool synthetic,
		bool create)
{
	uint64_t hash = key_hash(kind, key, synthetic);
	unsigned i = (unsigned)(hash % HEALTH_SLOTS);

	for (unsigned n = 0; n < HEALTH_SLOTS; n++, i = (i + 1) % HEALTH_SLOTS) {
		struct part_entry *e = h->slot[i];

		if (!e) {
			if (!create || h->n_parts >= HEALTH_PARTS_MAX ||
			    !(e = new_entry(h, kind, key, synthetic, hash)))
				return -1;
			h->slot[i] = e;
			h->order[h->n_parts++] = i;
			return (int)i;
		}
		if (e->hash == hash && e->st.kind == (uint32_t)kind && e->synthetic == synthetic &&
		    !strcmp(e->key, key))
			return (int)i;
	}
	return -1;
}

/* A struct diag_dram is 16 coordinates, each RAS_DF_NONE when not known. */
#define DRAM_COORDS 16
_Static_assert(sizeof(struct diag_dram) == DRAM_COORDS * sizeof(int64_t), "coordinates");
/* The most bytes one observation's coordinates pack into: two masks, then 16 of 8 bytes. */
#define COORDS_MAX (4 + DRAM_COORDS * 8)

/*
 * d packed at out: a mask of the coordinates known and one of those wider
 * than 32 bits, then each known one in 4 bytes or 8 (make bench's: 24 bytes,
 * five coordinates, not 128). Returns its bytes.
 */
size_t health_coords_put(uint8_t *out, const struct diag_dram *d)
{
	const uint8_t *in = (const uint8_t *)d;
	uint16_t mask[2] = { 0, 0 };
	size_t n = sizeof(mask);

	/* Each coordinate read from d in turn: a copy of all 16 first was a sixth of the cost. */
	for (unsigned i = 0; i < DRAM_COORDS; i++) {
		int64_t v;
		int32_t narrow;

		memcpy(&v, in + i * sizeof(v), sizeof(v));
		if (v == RAS_DF_NONE)
			continue;
		narrow = (int32_t)v;
		mask[0] |= (uint16_t)(1u << i);
		if (narrow == v) {
			memcpy(out + n, &narrow, sizeof(narrow));
			n += sizeof(narrow);
		} else {
			mask[1] |= (uint16_t)(1u << i);
			memcpy(out + n, &v, sizeof(v));
			n += sizeof(v);
		}
	}
	memcpy(out, mask, sizeof(mask));
	return n;
}

/* The coordinates packed at p into d (those not packed: RAS_DF_NONE); returns the bytes read. */
size_t health_coords_get(const uint8_t *p, struct diag_dram *d)
{
	static const int64_t none[DRAM_COORDS] = {
		RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE,
		RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE,
		RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE, RAS_DF_NONE,
	};
	uint8_t *out = (uint8_t *)d;
	uint16_t mask[2];
	size_t n = sizeof(mask);

	/* Straight into d: one copy of the unknowns, then each known coordinate in its place. */
	memcpy(d, none, sizeof(none));
	memcpy(mask, p, sizeof(mask));
	for (unsigned m = mask[0]; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);
		int32_t narrow;
		int64_t v;

		if (mask[1] & (1u << i)) {
			memcpy(&v, p + n, sizeof(v));
			n += sizeof(v);
		} else {
			memcpy(&narrow, p + n, sizeof(narrow));
			v = narrow;
			n += sizeof(narrow);
		}
		memcpy(out + i * sizeof(v), &v, sizeof(v));
	}
	return n;
}

int health_hold(struct rasd_health *h, uint32_t part, uint16_t type_idx, int64_t row_id,
		const struct diag_obs *o)
{
	struct held_list *l = &h->held;
	bool coords = o->flags & DIAG_OBS_COORDS;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct held_obs *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	if (coords && ras_grow_room(&l->coords, &l->coords_cap, l->coords_len, COORDS_MAX, 16384, NULL) < 0)
		return -ENOMEM;
	if (coords)
		l->coords_len += health_coords_put(l->coords + l->coords_len, &o->dram);
	l->v[l->n++] = (struct held_obs){ .row_id = row_id, .wall_ns = o->wall_ns, .n = o->n, .part = part,
					  .flags = o->flags, .sev = (int32_t)o->sev, .type_idx = type_idx };
	return 0;
}

static void untracked(struct rasd_health *h)
{
	h->untracked++;
	if (!h->untracked_logged)
		ras_log(LOG_WARNING, "more than %d parts named by errors: the diagnosis counts no "
			"further part (their records are stored as always)", HEALTH_PARTS_MAX);
	h->untracked_logged = true;
}

/* A PCIe device named by a live record: its link, once, as it trained now. */
static void read_link(struct rasd_health *h, struct part_entry *e, const struct ras_db_event *ev)
{
	if (e->link_read || strcmp(ev->source, "live") || ev->synthetic)
		return;
	e->link_read = true;
	health_read_link(h->cfg->sysfs_root, e->key, &e->st.link, ev->wall_ns);
}

/* How many errors the record stands for (an mc_event's error_count), at least one. */
static int64_t errors_of(const struct ras_event_type *type, const void *decoded)
{
	int64_t n = type->errors ? ras_dfield_int(decoded, type->errors) : 1;

	return n != RAS_DF_NONE && n > 1 ? n : 1;
}

void rasd_health_record(struct rasd_health *h, const struct ras_event_type *type,
			const void *decoded, const struct ras_db_event *ev, int64_t row_id)
{
	const struct ras_decoded_head *head = decoded;
	struct ras_subject own[RAS_SUBJECTS_MAX];
	const struct ras_subject *subj = own;
	struct health_attr attr[HEALTH_ATTR_MAX];
	int n_subj, n;

	if (!h)
		return;
	/* A corrected record's subjects, derived once for folding and thresholds (the hot path). */
	if (ev->subjects && head->severity == RAS_SEV_CORRECTED &&
	    (ev->subject_kinds & SUBJECT_KINDS) == SUBJECT_KINDS) {
		subj = ev->subjects;
		n_subj = ev->n_subjects;
	} else {
		n_subj = ras_subjects_any(type, ev->values, decoded, h->page_size, SUBJECT_KINDS, own);
	}
	n = health_attribute(h, type, ev->values, decoded, subj, n_subj, attr);
	for (int i = 0; i < n; i++) {
		int slot = health_part(h, attr[i].kind, attr[i].key, ev->synthetic, true);
		/* attr is this call's own: its observation completed in place, not copied. */
		struct diag_obs *o = &attr[i].obs;
		struct part_entry *e;

		if (slot < 0) {
			untracked(h);
			continue;
		}
		e = h->slot[slot];
		if (attr[i].label[0] && strcmp(e->label, attr[i].label))
			copy_str(e->label, sizeof(e->label), attr[i].label);
		if (e->st.kind == DIAG_K_PCIE)
			read_link(h, e, ev);
		o->wall_ns = ev->wall_ns;
		o->n = errors_of(type, decoded);
		o->sev = head->severity;
		if (health_hold(h, (uint32_t)slot, (uint16_t)(type - ras_event_types), row_id, o) < 0)
			untracked(h);
	}
}

/* Counts one held observation into its part. */
static void count(struct rasd_health *h, uint32_t slot, const struct diag_obs *o)
{
	struct part_entry *e = h->slot[slot];

	diag_part_count(&e->st, o);
	diag_rules_observe(&h->rules, &e->st, o);
	if (e->cells && (o->flags & DIAG_OBS_COORDS))
		e->faults_changed |= diag_cells_add(e->cells, o, h->rules.permanent_after_ns);
	e->changed = ++h->change_seq;
	if (!e->touched) {
		e->touched = true;
		h->touched[h->n_touched++] = slot;
	}
}

/* "threshold decisions: soft done 3, repair done 1", or "" when none. */
struct actions_text {
	char buf[256];
	size_t len;
};

static void add_action(void *ctx, const char *action, const char *result, int64_t n,
		       int64_t first_ns, int64_t last_ns)
{
	struct actions_text *t = ctx;
	int w;

	(void)first_ns;
	(void)last_ns;
	if (t->len >= sizeof(t->buf))
		return;
	w = snprintf(t->buf + t->len, sizeof(t->buf) - t->len, "%s%s %s %lld", t->len ? ", " : "",
		     action, result, (long long)n);
	t->len += w > 0 ? (size_t)w : 0;
}

static void run_trigger(struct rasd_health *h, struct part_entry *e,
			const struct ras_db_verdict_change *c)
{
	struct ras_trigger_env env;
	struct ras_db_part row;
	struct actions_text acts = { .len = 0 };

	if (h->replaying || !ras_triggers_installed(h->trig, "verdict-change"))
		return;
	acts.buf[0] = '\0';
	if (h->db)
		ras_db_part_actions(h->db, e->key, add_action, &acts);
	health_entry_row(h, e, &row, NULL);
	ras_trigger_env_verdict(&env, &row, c, acts.buf);
	ras_triggers_run(h->trig, "verdict-change", env.ptr);
}

static const char *const verdict_ids[DIAG_V_N] = {
	RAS_VERDICT_OK_MESSAGE_ID, RAS_VERDICT_WATCH_MESSAGE_ID, RAS_VERDICT_REPLACE_MESSAGE_ID,
};

static void log_change(const struct part_entry *e, const struct ras_db_verdict_change *c,
		       enum diag_verdict v)
{
	static const int priority[DIAG_V_N] = { LOG_NOTICE, LOG_WARNING, LOG_ERR };
	char f[5][200];
	const char *fields[6] = { f[0], f[1], f[2], f[3], f[4], NULL };

	snprintf(f[0], sizeof(f[0]), "RAS_PART_KIND=%s", c->kind);
	snprintf(f[1], sizeof(f[1]), "RAS_PART=%s", c->part);
	snprintf(f[2], sizeof(f[2]), "RAS_VERDICT=%s", c->verdict);
	snprintf(f[3], sizeof(f[3]), "RAS_VERDICT_WAS=%s", c->was);
	snprintf(f[4], sizeof(f[4]), "RAS_RULE=%s", c->rule);
	ras_log_fields(priority[v], verdict_ids[v], fields, "%s %s%s%s%s: %s (was %s), rule %s: %s%s",
		       c->kind, c->part, e->label[0] ? " (" : "", e->label, e->label[0] ? ")" : "",
		       c->verdict, c->was, c->rule, c->why, c->synthetic ? " [synthetic]" : "");
}

int health_history_push(struct history_list *l, const struct ras_db_verdict_change *c)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct ras_db_verdict_change *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *c;
	return 0;
}

/* The part's verdict changed: kept for the history, logged, and the trigger told. */
static void change(struct rasd_health *h, struct part_entry *e, const struct diag_decision *d,
		   const char *why)
{
	const struct diag_fault *worst = e->cells ? diag_cells_worst(e->cells) : NULL;
	struct ras_db_verdict_change c = { .synthetic = e->synthetic, .at_ns = e->st.last_ns,
					   .decided_ns = ras_clock_ns(CLOCK_REALTIME) };

	copy_str(c.kind, sizeof(c.kind), diag_kind_name((enum diag_kind)e->st.kind));
	copy_str(c.part, sizeof(c.part), e->key);
	copy_str(c.was, sizeof(c.was), diag_verdict_name((enum diag_verdict)e->st.verdict));
	copy_str(c.verdict, sizeof(c.verdict), diag_verdict_name(d->verdict));
	copy_str(c.rule, sizeof(c.rule), diag_rule_info(d->rule)->name);
	copy_str(c.mode, sizeof(c.mode), worst ? diag_mode_name((enum diag_mode)worst->mode) : "");
	copy_str(c.why, sizeof(c.why), why);
	e->st.verdict = d->verdict;
	e->st.since_ns = c.at_ns;
	e->changed = ++h->change_seq;
	if (health_history_push(&h->history, &c) < 0)
		ras_log(LOG_WARNING, "out of memory: the change of %s %s is not kept", c.kind, c.part);
	log_change(e, &c, d->verdict);
	e->decided = *d;
	e->why_due = false;
	copy_str(e->why, sizeof(e->why), why);
	run_trigger(h, e, &c);
}

const char *health_why(struct rasd_health *h, struct part_entry *e)
{
	if (e->why_due) {
		diag_why(&h->rules, &e->decided, e->why, sizeof(e->why));
		h->work.worded++;
		e->why_due = false;
	}
	return e->why;
}

/*
 * Judges the part now. Its cells are classified again when they changed, at
 * most once a second a part unless forced (a storm adds a cell a record):
 * until then the part waits, and the next due flush classifies it.
 * counted: the part was counted in this batch, so its row is written at the
 * next flush anyway; unless its verdict changed, the words of its why wait
 * until something reads them (a flush, a trigger): a storm's commit judges
 * every part it touched, and words are most of what judging costs.
 */
static void judge(struct rasd_health *h, struct part_entry *e, bool force, bool counted)
{
	struct diag_decision d;
	char why[sizeof(e->why)];
	int64_t now;

	if (e->cells && e->cells->dirty) {
		now = ras_clock_ns(CLOCK_MONOTONIC);
		if (!force && e->classified_ns && now - e->classified_ns < HEALTH_FLUSH_NS) {
			h->classify_pending = true;
			return;
		}
		diag_cells_classify(e->cells, h->rules.wide_cells, h->rules.permanent_after_ns);
		h->work.classified++;
		e->classified_ns = now;
		e->faults_changed = true;
	}
	diag_decide(&h->rules, &e->st, e->cells, &d);
	h->work.decided++;
	e->st.rule = d.rule;
	if (counted && d.verdict == e->st.verdict) {
		/* Its count already marked it changed (count()): nothing to compare. */
		e->decided = d;
		e->why_due = true;
		return;
	}
	diag_why(&h->rules, &d, why, sizeof(why));
	h->work.worded++;
	if (d.verdict != e->st.verdict)
		change(h, e, &d, why);
	if (strcmp(health_why(h, e), why) || e->decided.rule != d.rule)
		e->changed = ++h->change_seq;
	e->decided = d;
	e->why_due = false;
	copy_str(e->why, sizeof(e->why), why);
}

void health_judge_pending(struct rasd_health *h)
{
	if (!h->classify_pending)
		return;
	h->classify_pending = false;
	for (unsigned i = 0; i < h->n_parts; i++) {
		struct part_entry *e = h->slot[h->order[i]];

		if (e->cells && e->cells->dirty)
			judge(h, e, true, false);
	}
}

void health_apply(struct rasd_health *h, size_t upto)
{
	struct held_list *l = &h->held;
	struct diag_obs obs;
	size_t c = 0;

	if (upto > l->n)
		upto = l->n;
	/* Without DIAG_OBS_COORDS an observation's coordinates are cleared, as health_attr.c makes them. */
	diag_dram_clear(&obs.dram);
	for (size_t i = 0; i < upto; i++) {
		const struct held_obs *o = &l->v[i];
		bool coords = o->flags & DIAG_OBS_COORDS;

		obs.wall_ns = o->wall_ns;
		obs.n = o->n;
		obs.sev = (enum ras_severity)o->sev;
		obs.flags = o->flags;
		if (coords)
			c += health_coords_get(l->coords + c, &obs.dram);
		count(h, o->part, &obs);
		if (coords)
			diag_dram_clear(&obs.dram);
		if (o->type_idx < RAS_MAX_EVENT_TYPES && o->row_id > h->applied_id[o->type_idx])
			h->applied_id[o->type_idx] = o->row_id;
	}
	if (upto) {
		memmove(l->v, l->v + upto, (l->n - upto) * sizeof(*l->v));
		l->n -= upto;
		if (c) {
			memmove(l->coords, l->coords + c, l->coords_len - c);
			l->coords_len -= c;
		}
	}
	for (unsigned i = 0; i < h->n_touched; i++) {
		struct part_entry *e = h->slot[h->touched[i]];

		e->touched = false;
		judge(h, e, false, true);
	}
	h->n_touched = 0;
}

size_t rasd_health_mark(struct rasd_health *h)
{
	return h ? h->held.n : 0;
}

/* The transaction that held a flush was committed: what it wrote is stored. */
static void flush_stored(struct rasd_health *h)
{
	if (!h->flushed)
		return;
	for (unsigned i = 0; i < h->n_parts; i++) {
		struct part_entry *e = h->slot[h->order[i]];

		e->stored = e->written;
		e->faults_in_flush = false;
	}
	memcpy(h->marked_id, h->mark_written, sizeof(h->marked_id));
	h->written.n = 0;
	h->flushed = false;
}

void rasd_health_committed_to(struct rasd_health *h, size_t mark)
{
	if (!h)
		return;
	flush_stored(h);
	health_apply(h, mark);
}

void rasd_health_committed(struct rasd_health *h)
{
	if (!h)
		return;
	flush_stored(h);
	health_apply(h, h->held.n);
}

void rasd_health_rolled_back(struct rasd_health *h)
{
	struct history_list *w;

	if (!h)
		return;
	h->held.n = h->held.coords_len = 0;
	if (!h->flushed)
		return;
	/* The changes it wrote are written again, first. */
	w = &h->written;
	for (size_t i = 0; i < h->history.n; i++)
		health_history_push(w, &h->history.v[i]);
	h->history.n = 0;
	for (size_t i = 0; i < w->n; i++)
		health_history_push(&h->history, &w->v[i]);
	w->n = 0;
	for (unsigned i = 0; i < h->n_parts; i++) {
		struct part_entry *e = h->slot[h->order[i]];

		e->written = e->stored;
		e->faults_changed |= e->faults_in_flush;
		e->faults_in_flush = false;
	}
	h->flushed = false;
	h->seq_at_flush = 0;
}

void rasd_health_reload(struct rasd_health *h)
{
	if (!h)
		return;
	rasd_config_health_rules(h->cfg, &h->rules);
	/* The classification's parameters may have changed too: everything is judged anew. */
	for (unsigned i = 0; i < h->n_parts; i++) {
		struct part_entry *e = h->slot[h->order[i]];

		if (e->cells)
			e->cells->dirty = 1;
		if (e->st.records)
			judge(h, e, true, false);
	}
}

void rasd_health_work(const struct rasd_health *h, struct rasd_health_work *out)
{
	memset(out, 0, sizeof(*out));
	if (h)
		*out = h->work;
}

int rasd_health_open(struct rasd_health **out, const struct rasd_config *cfg, struct ras_db *db,
		     struct ras_triggers *trig)
{
	struct rasd_health *h;
	long ps = sysconf(_SC_PAGESIZE);
	int r;

	*out = NULL;
	if (!cfg->health)
		return 0;
	if (!(h = calloc(1, sizeof(*h))) || !(h->touched = calloc(HEALTH_PARTS_MAX, sizeof(*h->touched)))) {
		free(h);
		return -ENOMEM;
	}
	h->cfg = cfg;
	h->trig = trig;
	h->page_size = ps > 0 ? (uint64_t)ps : 4096;
	rasd_config_health_rules(cfg, &h->rules);
	r = rasd_health_set_db(h, db);
	if (r == 0 && db)
		r = health_load(h);
	if (r == 0 && db)
		r = health_catch_up(h);
	if (r < 0) {
		rasd_health_close(h, false);
		return r;
	}
	*out = h;
	return 0;
}

int rasd_health_set_db(struct rasd_health *h, struct ras_db *db)
{
	if (!h)
		return 0;
	ras_db_parts_close(h->dbp);
	h->dbp = NULL;
	h->db = db;
	/* A new database holds nothing of ours: every part is written again, its rows counted anew. */
	for (unsigned i = 0; i < h->n_parts; i++) {
		struct part_entry *e = h->slot[h->order[i]];

		e->stored = e->written = 0;
		e->faults_changed = true;
	}
	memset(h->applied_id, 0, sizeof(h->applied_id));
	memset(h->marked_id, 0, sizeof(h->marked_id));
	h->flushed = false;
	return ras_db_parts_open(db, &h->dbp);
}

void rasd_health_close(struct rasd_health *h, bool write)
{
	if (!h)
		return;
	if (write && h->db) {
		if (ras_db_begin(h->db) < 0 || rasd_health_flush(h, true) < 0 || ras_db_commit(h->db) < 0) {
			ras_log(LOG_WARNING, "the diagnosis's last changes are not written: the next "
				"rasd counts them again from the stored records");
			ras_db_rollback(h->db);
		} else {
			flush_stored(h);
		}
	}
	if (h->untracked)
		ras_log(LOG_WARNING, "%lu observations of parts past the first %d were not counted",
			h->untracked, HEALTH_PARTS_MAX);
	ras_db_parts_close(h->dbp);
	for (unsigned i = 0; i < h->n_parts; i++) {
		free(h->slot[h->order[i]]->cells);
		free(h->slot[h->order[i]]);
	}
	free(h->held.v);
	free(h->held.coords);
	free(h->history.v);
	free(h->written.v);
	free(h->touched);
	free(h);
}
