/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/decode.h"
#include "lib/keep.h"
#include "lib/threshold.h"
#include "db/db_snapshot.h"
#include "lib/fdr.h"
#include "log.h"
#include "pipeline_internal.h"
#include "actions.h"
#include "lib/record.h"
#include "lib/clock.h"
#include "stats_due.h"

/* The fold hook: the storm and size limits the database applies to what is stored. */
void ras_pipeline_set_limits(struct ras_pipeline *p)
{
	struct ras_threshold t = { 0 };
	long page = sysconf(_SC_PAGESIZE);

	/* rasd.conf was checked when read: a bad value cannot reach here. */
	ras_threshold_parse(p->cfg->fold_threshold, &t);
	p->limits = (struct ras_db_limits){
		.fold_threshold = t.count, .fold_period_ns = t.period_ns, .fold_keep = p->cfg->fold_keep,
		.page_size = page > 0 ? (uint64_t)page : 4096,
		.max_db_bytes = (int64_t)p->cfg->max_db_size_mb << 20,
		.keep_raw_ns = (int64_t)p->cfg->keep_raw_days * 86400 * 1000000000LL,
	};
}

void ras_pipeline_init(struct ras_pipeline *p, struct ras_formats *fmt, struct ras_db *db,
		       struct ras_tracing *tr, const struct rasd_config *cfg,
		       struct ras_decode_ctx *dctx, const char *source)
{
	memset(p, 0, sizeof(*p));
	p->dctx = dctx;
	p->fmt = fmt;
	p->db = db;
	p->tr = tr;
	p->cfg = cfg;
	p->source = source;
	/* A synthetic record read from the live instance says so in its source;
	 * from a boot buffer it keeps the buffer's source and the synthetic flag. */
	p->synthetic_source = strcmp(source, "live") ? source : "synthetic";
	ras_pipeline_set_limits(p);
}

static int ensure_txn(struct ras_pipeline *p)
{
	if (ras_db_begin(p->db) < 0)
		return -EIO;
	p->in_txn++;
	return 0;
}

int64_t ras_pipeline_wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * The database refused (full disk, I/O error, lock held too long): roll back,
 * forget what the abandoned transaction counted, and hold every record read
 * since the last commit (p->pending) until ras_pipeline_retry stores it. The
 * daemon reports the change of state; nothing is logged per record here.
 */
void ras_pipeline_note_db_error(struct ras_pipeline *p)
{
	/* A commit behind: made, its records are let go; failed, it goes back with the rest. */
	ras_pipeline_behind_settle(p);
	p->db_error = ras_db_last_errno(p->db);
	snprintf(p->fail_reason, sizeof(p->fail_reason), "%s", ras_db_errmsg(p->db));
	if (!p->fail_since_ns)
		p->fail_since_ns = ras_pipeline_wall_now();
	p->failing = true;
	ras_db_rollback(p->db);
	rasd_stats_stored_drop(&p->stats_stored);
	ras_actions_rolled_back(p->actions);
	rasd_health_rolled_back(p->health);
	p->stats_in_txn = false;
	p->stats_unchecked = true;   /* what was checked is rolled back: the retry checks again */
	p->in_txn = 0;
	p->stored = p->committed_stored;
	p->duplicates = p->committed_duplicates;
	/* A boots row made in the abandoned transaction is gone: look it up again. */
	if (p->previous_boot)
		p->boot = 0;
}

bool ras_pipeline_hold_full(const struct ras_pipeline *p)
{
	return ras_pending_full(&p->pending, (size_t)p->cfg->hold_max_kb * 1024);
}

/* A batch is committed before the next record is kept, so a commit never drops a kept one. */
static void commit_if_batch_full(struct ras_pipeline *p)
{
	if (p->failing || p->replaying)
		return;
	/*
	 * Neither a full batch nor a full hold: ras_pipeline_commit_batch would
	 * do nothing (not even settle the commit behind), so it is not called.
	 * Checked here, inline, as every record comes by.
	 */
	if (p->in_txn < p->cfg->batch_max_records &&
	    p->pending.len < (size_t)p->cfg->hold_max_kb * 1024)
		return;
	ras_pipeline_commit_batch(p);
}

static int keep_pending(struct ras_pipeline *p, const struct ras_pending_entry *e)
{
	if (p->replaying)
		return 0;
	commit_if_batch_full(p);
	if (ras_pending_add(&p->pending, e) < 0) {
		/* Not kept, so not stored either: counted as lost at the next commit. */
		p->pending.nomem++;
		return -ENOMEM;
	}
	if (!p->group_first_ns) {
		int64_t now = ras_pipeline_wall_now();

		/* The group's clock starts at its oldest record's arrival in the kernel buffer. */
		p->group_first_ns = e->kind == RAS_PENDING_RECORD && e->wall_ns > 0 &&
				    e->wall_ns < now ? e->wall_ns : now;
	}
	return 0;
}

/* A serious error takes a snapshot of what the machine was doing just before it. */
static void maybe_snapshot(struct ras_pipeline *p, const struct ras_event_type *type,
			   const struct ras_db_event *ev)
{
	const struct ras_decoded_head *h = (const void *)p->decoded;
	struct ras_snapshot snap;
	struct timespec now;
	int64_t id = 0;
	int r;

	if (!p->fdr)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!fdr_should_capture(p->fdr, h->severity,
				(int64_t)now.tv_sec * 1000000000 + now.tv_nsec))
		return;
	/* The recorder runs on the boot clock; other clocks fall back to wall time. */
	r = fdr_capture(p->fdr, type->title, type->table, ras_db_last_row_id(p->db), ev->wall_ns,
			strcmp(p->tr->clock_name, "boot") ? 0 : ev->trace_ts, &snap);
	if (r == 0) {
		r = ras_db_snapshot_insert(p->db, &snap, &id);
		ras_snapshot_free(&snap);
	}
	if (r == 0) {
		p->snapshots++;
		ras_log(LOG_NOTICE, "flight-recorder snapshot %lld taken for this %s",
			(long long)id, type->title);
	} else {
		ras_log(LOG_WARNING, "flight-recorder snapshot failed");
	}
}

/* Decodes the extracted p->values and inserts them; loud: log the record and take snapshots. */
static int insert_record(struct ras_pipeline *p, const struct ras_pending_entry *e, bool loud)
{
	const struct ras_event_type *type = &ras_event_types[e->type_idx];
	struct ras_db_event ev = {
		.type_idx = e->type_idx, .trace_ts = e->ts, .trace_cpu = e->cpu, .source = e->source,
		.values = p->values, .decoded = p->decoded, .synthetic = e->synthetic,
		.wall_ns = e->wall_ns, .limits = &p->limits,
	};
	struct ras_subject subj[RAS_SUBJECTS_MAX];
	int r;

	if (ensure_txn(p) < 0)
		goto fail;
	/* Looked up at the first record, so an empty buffer adds no boots row. */
	if (p->previous_boot && !p->boot)
		ras_db_previous_boot(p->db, &p->boot);
	ev.boot = p->boot;
	ras_decode_values(type, p->values, p->dctx, p->decoded);
	ev.rec_hash = ras_hash_bytes(e->data, e->size);
	/* Folding needs every kind of subject: derived once here, the thresholds and the diagnosis use them too. */
	if (p->limits.fold_threshold || p->health) {
		ev.n_subjects = ras_subjects_of(type, p->values, p->decoded, p->limits.page_size,
						RAS_DB_FOLD_KINDS, subj);
		ev.subjects = subj;
		ev.subject_kinds = RAS_DB_FOLD_KINDS;
		/* The thresholds' slots on their way into the CPU's cache while the row is inserted. */
		ras_actions_prefetch(p->actions, &ev);
	}
	r = ras_db_insert_event(p->db, &ev);
	if (r < 0)
		goto fail;
	if (r == 0) {
		p->duplicates++;
		return 0;
	}
	p->stored++;
	/* Counted once: a rolled-back transaction's counts are undone (ras_actions_rolled_back). */
	ras_actions_record(p->actions, type, p->decoded, &ev, ras_db_last_row_id(p->db));
	rasd_health_record(p->health, type, p->decoded, &ev, ras_db_last_row_id(p->db));
	if (loud) {
		ras_log_record(type, e->cpu, e->source, p->decoded, ev.wall_ns);
		maybe_snapshot(p, type, &ev);
	}
	return 0;
fail:
	ras_pipeline_note_db_error(p);
	return -EIO;
}

/* A record's fields by the formats' tep, its byte order asked when the tep is new. */
static int extract(struct ras_pipeline *p, unsigned idx, const void *data, uint32_t size)
{
	if (p->fmt->tep != p->swap_tep) {
		p->swap_tep = p->fmt->tep;
		p->swap = ras_record_swap(p->swap_tep);
	}
	return ras_record_extract_as(p->swap, &ras_event_types[idx], &p->fmt->type[idx], data, size,
				     p->values);
}

static void store(struct ras_pipeline *p, unsigned idx, int cpu, uint64_t ts,
		  const void *data, uint32_t size, const char *source, bool synthetic)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	struct ras_pending_entry e = {
		.kind = RAS_PENDING_RECORD, .type_idx = idx, .cpu = cpu, .ts = ts, .source = source,
		.synthetic = synthetic, .size = size, .data = data,
	};

	if (extract(p, idx, data, size) < 0) {
		p->malformed++;
		if (!p->malformed_logged[idx])
			ras_log(LOG_WARNING, "%s:%s record of %u bytes is shorter than its format; "
				"counted as malformed (logged once)", type->system, type->event, size);
		p->malformed_logged[idx] = true;
		return;
	}
	/*
	 * What the kernel's filter leaves out where it has none (refused, a boot
	 * instance, a replayed tree), and a stand-in's record where what it
	 * stands in for is recorded (the same failed request twice).
	 */
	if ((type->keep && !ras_keep_match(type, p->values)) ||
	    ras_formats_fallback_unneeded(p->fmt, idx)) {
		p->filtered++;
		return;
	}
	e.wall_ns = ras_tracing_wall_ns(p->tr, ts);
	if (keep_pending(p, &e) < 0 || p->failing)
		return;
	insert_record(p, &e, true);
}

static void store_synthetic(struct ras_pipeline *p, int cpu, uint64_t ts,
			    const uint8_t *data, uint32_t size)
{
	const struct tep_format_field *idf = p->fmt->raw_id, *buf = p->fmt->raw_buf;
	const struct ras_event_type *type;
	const uint8_t *rec;
	const char *name;
	uint16_t name_len;
	uint32_t id, rec_len;
	char tp[128];
	int idx;

	if ((uint32_t)buf->offset > size || (uint32_t)idf->offset + 4 > size)
		return;
	memcpy(&id, data + idf->offset, 4);
	if (id != RAS_SYNTH_ID) {
		p->foreign++;
		return;
	}
	if (!p->cfg->allow_synthetic) {
		p->synthetic_refused++;
		if (!p->refused_logged)
			ras_log(LOG_WARNING, "synthetic record refused (allow_synthetic is off); "
				"further ones are only counted");
		p->refused_logged = true;
		return;
	}
	if (ras_synth_unwrap(data + buf->offset, size - (uint32_t)buf->offset, &name, &name_len,
			     &rec, &rec_len) < 0 || name_len >= sizeof(tp) || rec_len > sizeof(p->synth)) {
		p->malformed++;
		return;
	}
	snprintf(tp, sizeof(tp), "%.*s", (int)name_len, name);
	type = ras_event_type_find(tp);
	idx = type ? (int)(type - ras_event_types) : -1;
	if (idx < 0 || !p->fmt->type[idx].event || p->fmt->type[idx].state == RAS_FMT_MALFORMED) {
		p->malformed++;
		ras_log(LOG_WARNING, "synthetic record for unknown or unusable event '%s' ignored", tp);
		return;
	}
	/* The writer may have numbered the event differently: use ours. */
	memcpy(p->synth, rec, rec_len);
	uint16_t common_type = (uint16_t)p->fmt->type[idx].event->id;
	memcpy(p->synth, &common_type, 2);
	store(p, (unsigned)idx, cpu, ts, p->synth, rec_len, p->synthetic_source, true);
}

/* A record of an event rasd does not record: counted (unknown_event_records), logged once. */
static void note_unknown_id(struct ras_pipeline *p, unsigned id)
{
	p->unknown_ids++;
	if (!p->unknown_logged)
		ras_log(LOG_WARNING, "record with unknown event id %u in %s; counted as "
			"unknown_event_records (logged once)", id, p->tr->instance_dir);
	p->unknown_logged = true;
}

static void record_item(struct ras_pipeline *p, int cpu, uint64_t ts, const void *data,
			uint32_t size)
{
	uint16_t id;
	int idx;

	if (size < 8) {
		p->malformed++;
		return;
	}
	memcpy(&id, data, 2);
	if (p->fmt->raw_data && id == p->fmt->raw_data->id) {
		store_synthetic(p, cpu, ts, data, size);
		return;
	}
	idx = ras_formats_type_of(p->fmt, id);
	if (idx < 0 || p->fmt->type[idx].state != RAS_FMT_KERNEL) {
		note_unknown_id(p, id);
		return;
	}
	store(p, (unsigned)idx, cpu, ts, data, size, p->source, false);
}

static void insert_loss(struct ras_pipeline *p, int cpu, long long count,
			int64_t from_ns, int64_t to_ns, const char *origin)
{
	struct ras_db_lost lost = {
		.cpu = cpu, .count = count, .from_ns = from_ns, .to_ns = to_ns,
		.origin = origin, .instance = p->tr->name,
	};

	if (p->failing)
		return;
	if (ras_db_begin(p->db) < 0 || ras_db_insert_lost(p->db, &lost) < 0)
		ras_pipeline_note_db_error(p);
}

static void record_loss(struct ras_pipeline *p, int cpu, long long count,
			int64_t from_ns, int64_t to_ns, const char *origin)
{
	if (p->replaying)
		;
	else if (count < 0)
		ras_log(LOG_WARNING, "the kernel dropped records on cpu %d (count unknown)", cpu);
	else
		ras_log(LOG_WARNING, "the kernel dropped %lld records on cpu %d", count, cpu);
	insert_loss(p, cpu, count, from_ns, to_ns, origin);
	ras_actions_lost(p->actions, cpu, count);
}

/*
 * A loss found while reading is held with the records of its batch, like
 * them: a failed commit rolls its row back and the retry stores it once.
 */
static void keep_loss(struct ras_pipeline *p, int cpu, long long count, int64_t from_ns,
		      int64_t to_ns, const char *origin)
{
	struct ras_pending_entry e = {
		.kind = RAS_PENDING_LOSS, .cpu = cpu, .count = count,
		.from_ns = from_ns, .to_ns = to_ns, .origin = origin,
	};

	keep_pending(p, &e);
}

static void missed_item(struct ras_pipeline *p, int cpu, long long count, uint64_t prev_ts,
			uint64_t ts)
{
	int64_t from_ns = prev_ts ? ras_tracing_wall_ns(p->tr, prev_ts) : 0;
	int64_t to_ns = ras_tracing_wall_ns(p->tr, ts);

	keep_loss(p, cpu, count, from_ns, to_ns, "subbuffer");
	record_loss(p, cpu, count, from_ns, to_ns, "subbuffer");
}

/*
 * A page that failed the reader's checks: what follows the cut is stored as
 * a lost_events row with origin "malformed" (count NULL when it cannot be
 * told), each kind of problem logged once.
 */
static void malformed_item(struct ras_pipeline *p, int cpu, enum ras_page_problem problem,
			   long long skipped, uint64_t ts)
{
	int64_t wall = ras_tracing_wall_ns(p->tr, ts);

	p->malformed_pages++;
	if (!p->page_problem_logged[problem])
		ras_log(LOG_WARNING, "malformed ring-buffer page on cpu %d of %s: %s; the records "
			"after it are stored as lost (origin malformed); this kind is logged once",
			cpu, p->tr->instance_dir, ras_page_problem_name(problem));
	p->page_problem_logged[problem] = true;
	keep_loss(p, cpu, skipped, wall, wall, "malformed");
	insert_loss(p, cpu, skipped, wall, wall, "malformed");
}

/*
 * A replayed tree is read from its start again by every rasd. Each CPU's
 * items of each kind (records, kernel drop marks, malformed pages) are
 * counted; the counts are committed with the batch (read_marks, under
 * "replay-KIND:<instance dir>"), and a later rasd passes over that many of
 * each kind before storing anything: a killed replay resumes with nothing
 * twice, nothing skipped. Each kind comes in file order, whatever the
 * reader interleaves. An item is counted once handled, so a commit made
 * while handling it (a full batch) does not cover it.
 */
static const char *const replay_kinds[RAS_REPLAY_KINDS] = { "record", "missed", "malformed" };

static uint64_t *replay_slot(struct ras_pipeline *p, uint64_t *base, int kind, int cpu)
{
	if (!base || cpu < 0 || (unsigned)cpu >= p->replay_ncpus)
		return NULL;
	return &base[(size_t)kind * p->replay_ncpus + (unsigned)cpu];
}

static bool replay_pass_over(struct ras_pipeline *p, int kind, int cpu)
{
	uint64_t *seen = replay_slot(p, p->replay_seen, kind, cpu);

	if (!seen || *seen >= *replay_slot(p, p->replay_skip, kind, cpu))
		return false;
	(*seen)++;
	return true;
}

static void replay_count(struct ras_pipeline *p, int kind, int cpu)
{
	uint64_t *seen = replay_slot(p, p->replay_seen, kind, cpu);

	if (seen)
		(*seen)++;
}

static void on_record(void *ctx, int cpu, uint64_t ts, const void *data, uint32_t size)
{
	struct ras_pipeline *p = ctx;

	if (replay_pass_over(p, RAS_REPLAY_RECORD, cpu))
		return;
	record_item(p, cpu, ts, data, size);
	replay_count(p, RAS_REPLAY_RECORD, cpu);
}

static void on_missed(void *ctx, int cpu, long long count, uint64_t prev_ts, uint64_t ts)
{
	struct ras_pipeline *p = ctx;

	if (replay_pass_over(p, RAS_REPLAY_MISSED, cpu))
		return;
	missed_item(p, cpu, count, prev_ts, ts);
	p->stats_missed = true;
	replay_count(p, RAS_REPLAY_MISSED, cpu);
}

static void on_malformed(void *ctx, int cpu, enum ras_page_problem problem, long long skipped,
			 uint64_t ts)
{
	struct ras_pipeline *p = ctx;

	if (replay_pass_over(p, RAS_REPLAY_MALFORMED, cpu))
		return;
	malformed_item(p, cpu, problem, skipped, ts);
	replay_count(p, RAS_REPLAY_MALFORMED, cpu);
}

static void replay_key(const struct ras_pipeline *p, int kind, char *out, size_t len)
{
	snprintf(out, len, "replay-%s:%s", replay_kinds[kind], p->tr->instance_dir);
}

int ras_pipeline_resume_replay(struct ras_pipeline *p, const struct ras_reader *r)
{
	char key[PATH_MAX + 32];
	unsigned n = 0;
	uint64_t skipped = 0;

	for (unsigned i = 0; i < ras_reader_ncpus(r); i++)
		if ((unsigned)ras_reader_cpu_at(r, i) + 1 > n)
			n = (unsigned)ras_reader_cpu_at(r, i) + 1;
	p->replay_seen = calloc((size_t)RAS_REPLAY_KINDS * (n ? n : 1), sizeof(uint64_t));
	p->replay_skip = calloc((size_t)RAS_REPLAY_KINDS * (n ? n : 1), sizeof(uint64_t));
	if (!p->replay_seen || !p->replay_skip)
		return -ENOMEM;
	p->replay_ncpus = n;
	for (int kind = 0; kind < RAS_REPLAY_KINDS; kind++) {
		replay_key(p, kind, key, sizeof(key));
		for (unsigned i = 0; i < ras_reader_ncpus(r); i++) {
			int cpu = ras_reader_cpu_at(r, i);
			uint64_t *skip = replay_slot(p, p->replay_skip, kind, cpu);

			if (ras_db_read_mark_get(p->db, key, cpu, skip) < 0)
				return -EIO;
			skipped += *skip;
		}
	}
	if (skipped)
		ras_log(LOG_NOTICE, "%s was replayed into this database before: its first %llu "
			"items, stored or counted then, are passed over", p->tr->instance_dir,
			(unsigned long long)skipped);
	return 0;
}

int ras_pipeline_save_replay_marks(struct ras_pipeline *p)
{
	char key[PATH_MAX + 32];

	for (int kind = 0; kind < RAS_REPLAY_KINDS; kind++) {
		replay_key(p, kind, key, sizeof(key));
		for (unsigned cpu = 0; cpu < p->replay_ncpus; cpu++)
			if (ras_db_begin(p->db) < 0 ||
			    ras_db_read_mark_set(p->db, key, (int)cpu,
						 *replay_slot(p, p->replay_seen, kind, (int)cpu)) < 0)
				return -EIO;
	}
	return 0;
}

const struct ras_reader_ops ras_pipeline_ops = {
	.record = on_record,
	.missed = on_missed,
	.malformed = on_malformed,
};

int ras_pipeline_account_crash(struct ras_pipeline *p)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	for (unsigned i = 0; p->reader && i < ras_reader_ncpus(p->reader); i++) {
		int cpu = ras_reader_cpu_at(p->reader, i);
		struct ras_cpu_stats st;
		uint64_t mark;
		int known = ras_db_read_mark_get(p->db, p->tr->name, cpu, &mark);

		if (known < 0)
			return -EIO;
		if (!known || ras_tracing_cpu_stats(p->tr->instance_dir, cpu, &st) < 0)
			continue;
		if (st.read < mark) {
			ras_log(LOG_NOTICE, "cpu %d of %s: the kernel's read count went back (%llu, "
				"committed %llu): the buffer was reset, crash losses cannot be told",
				cpu, p->tr->instance_dir, (unsigned long long)st.read,
				(unsigned long long)mark);
		} else if (st.read > mark) {
			ras_log(LOG_WARNING, "an earlier rasd read %llu records on cpu %d of %s "
				"and stopped before storing them; stored as lost (origin crash)",
				(unsigned long long)(st.read - mark), cpu, p->tr->instance_dir);
			int64_t now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;

			/* Held too: the new marks commit only with this row, even after a retry. */
			p->crash_lost += st.read - mark;
			keep_loss(p, cpu, (long long)(st.read - mark), 0, now_ns, "crash");
			insert_loss(p, cpu, (long long)(st.read - mark), 0, now_ns, "crash");
		}
	}
	/* The new marks go in the same transaction as the crash rows. */
	return p->db_error ? p->db_error : ras_pipeline_commit(p);
}

static int replay_entry(void *ctx, const struct ras_pending_entry *e)
{
	struct ras_pipeline *p = ctx;

	if (e->kind == RAS_PENDING_LOSS) {
		/* The kernel's drops also feed the thresholds; malformed and crash rows do not. */
		if (!strcmp(e->origin, "subbuffer"))
			record_loss(p, e->cpu, e->count, e->from_ns, e->to_ns, e->origin);
		else
			insert_loss(p, e->cpu, e->count, e->from_ns, e->to_ns, e->origin);
		return p->failing ? -EIO : 0;
	}
	/* It was extracted once already: the bytes are the same. */
	if (extract(p, e->type_idx, e->data, e->size) < 0)
		return 0;
	return insert_record(p, e, false);
}

int ras_pipeline_retry(struct ras_pipeline *p, const struct ras_reader *r)
{
	if (!p->failing)
		return 0;
	p->failing = false;
	p->replaying = true;
	ras_pending_each(&p->pending, replay_entry, p);
	/* Quiet too: a loss found here is logged when it is first stored, not at every attempt. */
	if (!p->failing && r && p->tr->real)
		ras_pipeline_check_stats(p, r);
	p->replaying = false;
	if (p->failing)
		return -EIO;
	return ras_pipeline_commit(p);
}

void ras_pipeline_trim(struct ras_pipeline *p)
{
	ras_pending_shrink(&p->pending);
}

void ras_pipeline_free(struct ras_pipeline *p)
{
	ras_pending_free(&p->pending);
	free(p->replay_seen);
	free(p->replay_skip);
	p->replay_seen = p->replay_skip = NULL;
	p->stats_reader = NULL;   /* closed with it */
}

static bool cpu_bit(const uint64_t *map, int cpu)
{
	return cpu >= 0 && cpu < RAS_PIPELINE_STATS_CPUS && (map[cpu / 64] >> (cpu % 64) & 1);
}

static void cpu_bit_set(uint64_t *map, int cpu)
{
	if (cpu >= 0 && cpu < RAS_PIPELINE_STATS_CPUS)
		map[cpu / 64] |= 1ULL << (cpu % 64);
}

/*
 * A CPU found quiet (0 dropped, 0 overrun, and 0 stored) stays so while the
 * kernel's figures stay 0: they only grow within an instance, and the stored
 * ones change only here. A CPU written outside a fresh start is never taken
 * as quiet again: that write may be rolled back, leaving other figures
 * stored. A fresh start's write is checked again while stats_fresh lasts (a
 * failed commit puts it back).
 */
static bool known_quiet(const struct ras_pipeline *p, int cpu, const struct ras_cpu_stats *st)
{
	return !st->overrun && !st->dropped && !p->stats_fresh && cpu_bit(p->stats_quiet, cpu) &&
	       !cpu_bit(p->stats_written, cpu);
}

/* The instance's identity, read at the first check of a run (it cannot change under open files). */
static uint64_t instance_ident(struct ras_pipeline *p)
{
	if (!p->stats_ident && ras_tracing_instance_ident(p->tr->instance_dir, &p->stats_ident) < 0)
		p->stats_ident = 0;
	return p->stats_ident;
}

/*
 * The kernel's counters are not the ones stored: another instance of the name
 * (removed and made again, its counters from 0: RESET_OTHER), or this one's
 * reset (its buffer cleared or its clock changed: counters back to 0,
 * RESET_BACK). Subtracting the stored figures would under-count once the new
 * ones grow past them. At a fresh start after a killed rasd, another identity
 * stored in this boot is the instance it left, removed by someone (RESET_GONE).
 */
enum { RESET_NONE, RESET_BACK, RESET_OTHER, RESET_GONE };

static int counters_reset(const struct ras_db_cpu_stats *old, const struct ras_db_cpu_stats *now)
{
	if (old->ident && now->ident && old->ident != now->ident)
		return RESET_OTHER;
	return now->overrun < old->overrun || now->dropped < old->dropped ? RESET_BACK : RESET_NONE;
}

/*
 * What went with the old buffer after the last look is not known: a gap of
 * unknown size. Not for an adopted instance going back: rasd clears the
 * persistent one itself once it has stored its records (daemon_boot.c).
 */
static void note_reset(struct ras_pipeline *p, int cpu, int reset, int64_t now)
{
	if (reset == RESET_BACK && strcmp(p->source, "live"))
		return;
	if (!p->replaying)
		ras_log(LOG_WARNING, "the drop counters of cpu %d of %s started again (%s): "
			"its losses before are unknown, stored as a gap", cpu, p->tr->instance_dir,
			reset == RESET_OTHER ? "the instance was made again" :
			reset == RESET_GONE ? "the instance the last rasd left was removed" :
					      "its buffer was reset");
	insert_loss(p, cpu, -1, p->last_stats_ns, now, "stats");
	ras_actions_lost(p->actions, cpu, -1);
	p->stats_gaps++;
}

/*
 * The instance kept at the last stop is gone, and no CPU's stored counters
 * told (none stored in this boot): the loss is certain, its CPUs unknown.
 */
static void note_kept_gone(struct ras_pipeline *p, int64_t now)
{
	if (!p->replaying)
		ras_log(LOG_WARNING, "no drop counters of %s stored in this boot to judge each cpu by: "
			"what the kept instance held is one gap for the whole instance",
			p->tr->instance_dir);
	insert_loss(p, -1, -1, p->last_stats_ns, now, "stats");
	ras_actions_lost(p->actions, -1, -1);
}

int ras_pipeline_check_cpu(struct ras_pipeline *p, int cpu, int64_t now)
{
	struct ras_cpu_stats st;
	struct ras_db_cpu_stats old, cur;
	uint64_t lost;
	bool stored_zero;
	int reset;

	if (ras_tracing_cpu_stats(p->tr->instance_dir, cpu, &st) < 0)
		return 0;
	if (known_quiet(p, cpu, &st))
		return 0;
	p->stats_reads++;
	if (rasd_stats_stored_get(&p->stats_stored, p->db, p->tr->name, cpu, &old) < 0)
		return -EIO;
	cur = (struct ras_db_cpu_stats){ st.overrun, st.dropped, instance_ident(p) };
	stored_zero = !old.overrun && !old.dropped;
	reset = counters_reset(&old, &cur);
	if (p->stats_fresh)
		reset = p->stats_left_gone && reset == RESET_OTHER ? RESET_GONE : RESET_NONE;
	/* A new instance, or new counters: count from zero. */
	if (p->stats_fresh || reset)
		old.overrun = old.dropped = 0;
	lost = (st.overrun - old.overrun) + (st.dropped - old.dropped);
	/*
	 * Fresh: the old instance's figures are replaced even when nothing was
	 * lost. Counters stored without an identity get it once.
	 */
	if (!lost && !p->stats_fresh && !reset && st.overrun == old.overrun &&
	    st.dropped == old.dropped && (stored_zero || old.ident || !cur.ident)) {
		if (!st.overrun && !st.dropped && stored_zero)
			cpu_bit_set(p->stats_quiet, cpu);
		return 0;
	}
	if (!p->stats_fresh)
		cpu_bit_set(p->stats_written, cpu);
	if (reset)
		note_reset(p, cpu, reset, now);
	if (lost)
		record_loss(p, cpu, (long long)lost, p->last_stats_ns, now, "stats");
	/* A loss row refused has rolled back: these figures must not go in a transaction of their own. */
	if (p->failing || ras_db_begin(p->db) < 0 ||
	    ras_db_cpu_stats_set(p->db, p->tr->name, cpu, &cur) < 0)
		return -EIO;
	rasd_stats_stored_set(&p->stats_stored, p->db, cpu, &cur);
	return 0;
}

int ras_pipeline_check_stats(struct ras_pipeline *p, const struct ras_reader *r)
{
	int64_t now = ras_pipeline_wall_now();
	/* The fresh figures' first check in this transaction (a failed commit checks again). */
	bool first = p->stats_fresh && !p->stats_in_txn;
	uint64_t gaps = p->stats_gaps;

	/* While the database fails they stay in the kernel: the retry compares them. */
	if (p->failing)
		return 0;
	for (unsigned i = 0; i < ras_reader_ncpus(r); i++) {
		if (ras_pipeline_check_cpu(p, ras_reader_cpu_at(r, i), now) < 0) {
			if (!p->failing)
				ras_pipeline_note_db_error(p);
			return -EIO;
		}
	}
	if (first && p->stats_kept_gone && p->stats_gaps == gaps) {
		note_kept_gone(p, now);
		if (p->failing)
			return -EIO;
	}
	p->last_stats_ns = now;
	p->stats_in_txn = true;
	p->stats_unchecked = p->stats_missed = false;
	p->stats_checked_mono = ras_clock_ns(CLOCK_MONOTONIC);
	p->stats_checks++;
	return 0;
}

int ras_pipeline_after_read(struct ras_pipeline *p, const struct ras_reader *r)
{
	struct rasd_stats_due due = {
		.now_ns = ras_clock_ns(CLOCK_MONOTONIC),
		.checked_ns = p->stats_checked_mono,
		.missed = p->stats_missed,
		.group_open = p->group_first_ns != 0,
	};

	p->stats_unchecked = true;
	p->stats_reader = r;
	return rasd_stats_due_now(&due) ? ras_pipeline_check_stats(p, r) : 0;
}

int ras_pipeline_stats_before_commit(struct ras_pipeline *p)
{
	if (!p->stats_unchecked || !p->stats_reader || !p->tr->real)
		return 0;
	return ras_pipeline_check_stats(p, p->stats_reader);
}
