/* SPDX-License-Identifier: MIT */
/*
 * Storing what the previous boots left (see lastwords.h). Every attempt is
 * one transaction that does it all again from what is held in memory: the
 * dumps attributed to their boots, the machine checks (each to the dump of
 * nearest time, else by its own time) stored or found stored, the crashes
 * stored with their links. A failed attempt is rolled back whole; nothing
 * leaves pstore before the commit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "db/db_crashes.h"
#include "db/db_snapshot.h"
#include "lastwords/dump.h"
#include "lib/event_fields.h"
#include "lastwords_internal.h"
#include "log.h"
#include "trigger_env.h"

/* A machine check joins the dump written within this long of it. */
#define NEAR_NS RAS_DB_CRASH_NEAR_NS
#define SEC_NS 1000000000LL

struct lw_dump {
	unsigned first, count;
	struct lw_analysis a;
	uint64_t ident;
	int64_t crash_ns, boot_start_ns, boot, id;
	bool known;                   /* stored before: only its files are marked */
};

struct lw_store {
	struct rasd_lastwords *lw;
	struct ras_db *db;
	struct ras_decode_ctx *dctx;
	struct ras_actions *actions;
	struct lw_part *parts;
	unsigned n_parts;
	struct lw_dump *dumps;
	unsigned n_dumps;
	void *decoded;                /* RAS_DECODED_MAX bytes, 16-aligned */
};

/* A record time is believed between 2000 and a day from now; otherwise it is not known. */
static int64_t plausible_ns(int64_t s)
{
	time_t now = time(NULL);

	return s > 946684800 && s < (int64_t)now + 86400 ? s * SEC_NS : 0;
}

static int64_t mce_time_ns(const struct lw_mce_item *it)
{
	return lw_mce_has(&it->m, LW_MCE_TIME) ? plausible_ns((int64_t)it->m.time) : 0;
}

/* Two times close enough for one crash (either unknown: taken as close). */
static bool near(int64_t a, int64_t b)
{
	return !a || !b || (a > b ? a - b : b - a) <= NEAR_NS;
}

/* The dmesg and console files as parts, grouped into dumps and read (once, before any attempt). */
static int prepare_dumps(struct lw_store *s)
{
	struct rasd_lastwords *lw = s->lw;

	s->parts = calloc(lw->n_files ? lw->n_files : 1, sizeof(*s->parts));
	if (!s->parts)
		return -ENOMEM;
	for (unsigned i = 0; i < lw->n_files; i++) {
		struct lw_file *f = &lw->files[i];

		if (f->pn.kind != LW_KIND_DMESG && f->pn.kind != LW_KIND_CONSOLE)
			continue;
		s->parts[s->n_parts++] = (struct lw_part){
			.name = f->name, .owner = i, .dir = f->dir, .pn = f->pn, .data = f->data,
			.len = f->len, .mtime_s = f->mtime_s,
		};
	}
	s->n_dumps = lw_dump_group(s->parts, s->n_parts);
	s->dumps = calloc(s->n_dumps ? s->n_dumps : 1, sizeof(*s->dumps));
	if (!s->dumps)
		return -ENOMEM;
	for (unsigned g = 0; g < s->n_dumps; g++) {
		struct lw_dump *d = &s->dumps[g];

		d->count = lw_dump_parts(s->parts, s->n_parts, g, &d->first);
		lw_dump_analyze(&s->parts[d->first], d->count, &d->a);
		d->ident = lw_dump_identity(&s->parts[d->first], d->count);
		/* Part1, the last written, has the panic's time. */
		d->crash_ns = plausible_ns(s->parts[d->first + d->count - 1].mtime_s);
		if (d->crash_ns && d->a.reason_uptime_ns >= 0)
			d->boot_start_ns = d->crash_ns - d->a.reason_uptime_ns;
	}
	return 0;
}

static void mark_dump_files(struct lw_store *s, const struct lw_dump *d)
{
	for (unsigned i = 0; i < d->count; i++)
		s->lw->files[s->parts[d->first + i].owner].done = true;
}

/* The dump whose time is nearest t (within NEAR_NS), or NULL. */
static struct lw_dump *near_dump(struct lw_store *s, int64_t t)
{
	struct lw_dump *best = NULL;

	for (unsigned g = 0; t && g < s->n_dumps; g++) {
		struct lw_dump *d = &s->dumps[g];
		int64_t dt = d->crash_ns > t ? d->crash_ns - t : t - d->crash_ns;

		if (!d->known && d->crash_ns && dt <= NEAR_NS && lw_cause_is_crash(d->a.cause) &&
		    (!best || dt < (best->crash_ns > t ? best->crash_ns - t : t - best->crash_ns)))
			best = d;
	}
	return best;
}

/* The mce_record fields of a struct mce (lib/event_fields.h order), as the tracepoint has them. */
static void mce_values(const struct lw_mce *m, struct ras_value *v)
{
	static const struct { int field; enum lw_mce_field from; } map[] = {
		{ MCE_F_MCGCAP, LW_MCE_MCGCAP }, { MCE_F_MCGSTATUS, LW_MCE_MCGSTATUS },
		{ MCE_F_STATUS, LW_MCE_STATUS }, { MCE_F_ADDR, LW_MCE_ADDR }, { MCE_F_MISC, LW_MCE_MISC },
		{ MCE_F_SYND, LW_MCE_SYND }, { MCE_F_IPID, LW_MCE_IPID }, { MCE_F_IP, LW_MCE_IP },
		{ MCE_F_TSC, LW_MCE_TSC }, { MCE_F_PPIN, LW_MCE_PPIN }, { MCE_F_WALLTIME, LW_MCE_TIME },
		{ MCE_F_CPU, LW_MCE_EXTCPU }, { MCE_F_CPUID, LW_MCE_CPUID }, { MCE_F_APICID, LW_MCE_APICID },
		{ MCE_F_SOCKETID, LW_MCE_SOCKETID }, { MCE_F_CS, LW_MCE_CS }, { MCE_F_BANK, LW_MCE_BANK },
		{ MCE_F_CPUVENDOR, LW_MCE_CPUVENDOR }, { MCE_F_MICROCODE, LW_MCE_MICROCODE },
	};
	const uint64_t val[LW_MCE_NFIELDS] = {
		[LW_MCE_MCGCAP] = m->mcgcap, [LW_MCE_MCGSTATUS] = m->mcgstatus, [LW_MCE_STATUS] = m->status,
		[LW_MCE_ADDR] = m->addr, [LW_MCE_MISC] = m->misc, [LW_MCE_SYND] = m->synd,
		[LW_MCE_IPID] = m->ipid, [LW_MCE_IP] = m->ip, [LW_MCE_TSC] = m->tsc, [LW_MCE_PPIN] = m->ppin,
		[LW_MCE_TIME] = m->time, [LW_MCE_EXTCPU] = m->extcpu, [LW_MCE_CPUID] = m->cpuid,
		[LW_MCE_APICID] = m->apicid, [LW_MCE_SOCKETID] = m->socketid, [LW_MCE_CS] = m->cs,
		[LW_MCE_BANK] = m->bank, [LW_MCE_CPUVENDOR] = m->cpuvendor, [LW_MCE_MICROCODE] = m->microcode,
	};

	memset(v, 0, sizeof(*v) * MCE_F_COUNT);
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		v[map[i].field].present = lw_mce_has(m, map[i].from);
		v[map[i].field].i = (int64_t)val[map[i].from];
	}
}

/* Stores a machine check as an mce_record row of source erst; 0 or -errno. */
static int insert_mce(struct lw_store *s, struct lw_mce_item *it, int64_t wall_ns)
{
	const struct ras_event_type *type = ras_event_type_find("mce:mce_record");
	struct ras_value v[RAS_MAX_FIELDS];
	void *decoded = s->decoded;
	struct ras_db_event ev = {
		.wall_ns = wall_ns, .trace_ts = it->m.tsc, .trace_cpu = (int)it->m.extcpu,
		.source = RAS_DB_SOURCE_ERST, .boot = it->boot, .rec_hash = lw_mce_identity(&it->m),
		.values = v, .decoded = decoded,
	};

	if (!type)
		return -ENOENT;
	ev.type_idx = (unsigned)(type - ras_event_types);
	mce_values(&it->m, v);
	ras_decode_values(type, v, s->dctx, decoded);
	if (ras_db_insert_event(s->db, &ev) <= 0)
		return -EIO;
	it->row_id = ras_db_last_row_id(s->db);
	ras_actions_record(s->actions, type, decoded, &ev, it->row_id);
	ras_log_record(type, ev.trace_cpu, ev.source, decoded, wall_ns);
	return 0;
}

/*
 * A machine check read back: attributed (to the dump nearest in time, else by
 * its own time), then found stored already or stored now. One that is not a
 * machine check (too short, not valid) becomes a crash row of its own bytes,
 * so it is kept, counted and never read twice.
 */
static int store_mce(struct lw_store *s, struct lw_mce_item *it)
{
	int64_t t;
	struct lw_dump *d;
	struct ras_db_mce_key k;
	int r;

	it->usable = lw_mce_parse(it->data, it->len, &it->m) == 0;
	it->linked = false;
	if (!it->usable)
		return 0;
	t = mce_time_ns(it);
	d = near_dump(s, t);
	if (d)
		it->boot = d->boot;
	else if ((r = ras_db_crash_boot(s->db, t, 0, &it->boot)) < 0)
		return r;
	k = (struct ras_db_mce_key){
		.ident = lw_mce_identity(&it->m), .wall_ns = t, .status = it->m.status, .addr = it->m.addr,
		.tsc = it->m.tsc, .walltime = it->m.time, .bank = it->m.bank, .cpu = (int)it->m.extcpu,
	};
	r = ras_db_crash_mce_find(s->db, &k, it->boot, &it->row_id);
	if (r == 0)
		r = insert_mce(s, it, t);
	if (r < 0)
		return r;
	it->done = true;
	return 0;
}

/* The whole record: each part's name on a line of its own, then its bytes, oldest part first. */
static uint8_t *dump_raw(const struct lw_store *s, const struct lw_dump *d, size_t *len, char *files,
			 size_t flen)
{
	size_t total = 0, used = 0, fused = 0;
	uint8_t *raw;

	for (unsigned i = 0; i < d->count; i++)
		total += strlen(s->parts[d->first + i].name) + 3 + s->parts[d->first + i].len;
	raw = malloc(total + 1);
	for (unsigned i = 0; raw && i < d->count; i++) {
		const struct lw_part *p = &s->parts[d->first + i];

		used += (size_t)sprintf((char *)raw + used, "%s:\n", p->name);
		memcpy(raw + used, p->data, p->len);
		used += p->len;
		raw[used++] = '\n';
		if (fused < flen)
			fused += (size_t)snprintf(files + fused, flen - fused, "%s%s", i ? " " : "", p->name);
	}
	*len = used;
	return raw;
}

static unsigned dump_problems(const struct lw_store *s, const struct lw_dump *d)
{
	unsigned n = lw_dump_missing(&s->parts[d->first], d->count);

	for (unsigned i = 0; i < d->count; i++) {
		const struct lw_file *f = &s->lw->files[s->parts[d->first + i].owner];

		n += f->truncated + f->undecompressed;
	}
	return n;
}

/*
 * Links the machine checks of the crash's boot written near its time, then
 * the boot's last records; sets explained.
 */
static int link_crash(struct lw_store *s, int64_t id, int64_t boot, int64_t crash_ns, bool explained)
{
	unsigned serious = 0, erst = 0;

	for (unsigned i = 0; i < s->lw->n_mces; i++) {
		struct lw_mce_item *it = &s->lw->mces[i];

		if (!it->done || !it->usable || it->boot != boot || !near(crash_ns, mce_time_ns(it)))
			continue;
		if (ras_db_crash_link(s->db, id, ras_event_type_find("mce:mce_record")->table, it->row_id,
				      RAS_CRASH_LINK_ERST) < 0)
			return -EIO;
		it->linked = true;
		erst++;
	}
	if (ras_db_crash_link_last(s->db, id, boot, crash_ns, LW_LINK_LAST, &serious) < 0)
		return -EIO;
	if (!explained && (erst || serious))
		return ras_db_crash_set_explained(s->db, id, true);
	return 0;
}

static void note_new(struct rasd_lastwords *lw, int64_t id)
{
	if (lw->n_new < LW_NEW_MAX)
		lw->new_crash[lw->n_new++] = id;
}

static int store_dump(struct lw_store *s, struct lw_dump *d)
{
	const struct lw_part *p0 = &s->parts[d->first];
	char files[1024] = "";
	struct ras_db_crash c = {
		.boot = d->boot, .crash_ns = d->crash_ns, .uptime_ns = d->a.reason_uptime_ns,
		.backend = p0->pn.backend, .kind = lw_kind_name(p0->pn.kind),
		.dump_reason = p0->hdr.present ? p0->hdr.reason : NULL, .dump_count = p0->hdr.count,
		.parts = d->count, .parts_missing = lw_dump_missing(p0, d->count),
		.cause = lw_cause_name(d->a.cause), .reason = d->a.reason, .detail = d->a.detail,
		.hw_lines = d->a.hw, .hw_dropped = d->a.hw_dropped, .problems = dump_problems(s, d),
		.explained = d->a.cause == LW_CAUSE_MCE || d->a.hw_serious, .files = files, .ident = d->ident,
	};
	uint8_t *raw = dump_raw(s, d, &c.raw_len, files, sizeof(files));
	int r;

	c.raw = raw;
	r = raw ? ras_db_crash_insert(s->db, &c, &d->id) : -ENOMEM;
	free(raw);
	if (r == 0)
		r = link_crash(s, d->id, d->boot, d->crash_ns, c.explained);
	if (r < 0)
		return r;
	mark_dump_files(s, d);
	if (lw_cause_is_crash(d->a.cause))
		note_new(s->lw, d->id);
	ras_log(LOG_WARNING, "crash %lld: a previous boot ended in %s%s%s (%s, %s)", (long long)d->id,
		lw_cause_words(d->a.cause), d->a.reason[0] ? ": " : "", d->a.reason, c.backend, files);
	return 0;
}

/* Attributes every dump to its boot; a dump stored before (same identity) is only marked. */
static int attribute_dumps(struct lw_store *s)
{
	for (unsigned g = 0; g < s->n_dumps; g++) {
		struct lw_dump *d = &s->dumps[g];
		int r = ras_db_crash_find(s->db, d->ident, &d->id);

		if (r < 0)
			return r;
		d->known = r == 1;
		if (d->known) {
			mark_dump_files(s, d);
			continue;
		}
		if (ras_db_crash_boot(s->db, d->crash_ns, d->boot_start_ns, &d->boot) < 0)
			return -EIO;
	}
	return 0;
}

/* A file that is no machine check: its bytes kept as a crash row of unknown cause, counted. */
static int store_malformed(struct lw_store *s, struct lw_mce_item *it)
{
	const char *name = it->file ? it->file->name : s->lw->cfg->mcelog_device;
	struct ras_db_crash c = {
		.boot = 0, .uptime_ns = -1, .backend = it->file ? it->file->pn.backend : "mcelog",
		.kind = "mce", .cause = lw_cause_name(LW_CAUSE_UNKNOWN), .problems = 1,
		.files = name, .ident = lw_hash(LW_HASH_INIT ^ 0x6d616c66, it->data, it->len),
		.raw = it->data, .raw_len = it->len,
	};
	int64_t id;
	int r = ras_db_crash_find(s->db, c.ident, &id);

	if (r == 0 && (r = ras_db_previous_boot(s->db, &c.boot)) == 0 &&
	    (r = ras_db_crash_insert(s->db, &c, &id)) == 0 &&
	    (r = ras_db_counter_add(s->db, "crash_records_malformed", 1)) == 0)
		ras_log(LOG_WARNING, "%s: %zu bytes that are no machine check (crash %lld keeps them)",
			name, it->len, (long long)id);
	if (r < 0)
		return r;
	it->done = true;
	return 0;
}

/*
 * Machine checks no dump of this harvest took: joined to their boot's crash
 * stored before, or a crash of their own (the firmware kept the machine check,
 * pstore no log: /dev/mcelog, or no dmesg backend).
 */
static int store_mce_crash(struct lw_store *s, struct lw_mce_item *it)
{
	char name[300];
	int64_t id, t = plausible_ns((int64_t)it->m.time);
	struct ras_db_crash c = {
		.boot = it->boot, .crash_ns = t, .uptime_ns = -1, .kind = "mce",
		.backend = it->file ? it->file->pn.backend : "mcelog", .cause = lw_cause_name(LW_CAUSE_MCE),
		.explained = true, .files = name, .raw = it->data, .raw_len = it->len,
		.ident = lw_hash(lw_mce_identity(&it->m), "crash", 5),
	};
	int r = ras_db_crash_of_boot(s->db, it->boot, t, &id);

	snprintf(name, sizeof(name), "%s", it->file ? it->file->name : s->lw->cfg->mcelog_device);
	if (r == 0)
		r = ras_db_crash_find(s->db, c.ident, &id);
	if (r == 0) {
		if ((r = ras_db_crash_insert(s->db, &c, &id)) == 0)
			note_new(s->lw, id);
		if (r == 0)
			ras_log(LOG_WARNING, "crash %lld: a previous boot ended in a fatal machine check (%s)",
				(long long)id, name);
	}
	return r < 0 ? r : link_crash(s, id, it->boot, t, true);
}

static void reset_attempt(struct rasd_lastwords *lw)
{
	lw->n_new = 0;
	for (unsigned i = 0; i < lw->n_files; i++)
		lw->files[i].done = false;
	for (unsigned i = 0; i < lw->n_mces; i++)
		lw->mces[i].done = lw->mces[i].linked = false;
}

/* One transaction: everything not stored yet. 0 or -errno (rolled back by the caller). */
static int attempt(struct lw_store *s)
{
	struct rasd_lastwords *lw = s->lw;
	int r = ras_db_begin(s->db) < 0 ? -EIO : attribute_dumps(s);

	for (unsigned i = 0; r == 0 && i < lw->n_mces; i++) {
		struct lw_mce_item *it = &lw->mces[i];

		if (!it->stored)
			r = store_mce(s, it);
		if (r == 0 && !it->stored && !it->usable)
			r = store_malformed(s, it);
	}
	for (unsigned g = 0; r == 0 && g < s->n_dumps; g++)
		if (!s->dumps[g].known)
			r = store_dump(s, &s->dumps[g]);
	for (unsigned i = 0; r == 0 && i < lw->n_mces; i++)
		if (lw->mces[i].done && lw->mces[i].usable && !lw->mces[i].linked)
			r = store_mce_crash(s, &lw->mces[i]);
	if (r == 0 && ras_actions_flush(s->actions) < 0)
		r = -EIO;
	if (r == 0)
		r = ras_db_commit(s->db);
	return r;
}

/* After the commit: what the transaction stored is stored. */
static void mark_stored(struct rasd_lastwords *lw)
{
	for (unsigned i = 0; i < lw->n_mces; i++) {
		struct lw_mce_item *it = &lw->mces[i];

		if (it->done)
			it->stored = true;
		if (it->done && it->file)
			it->file->done = true;
	}
	for (unsigned i = 0; i < lw->n_files; i++)
		if (lw->files[i].done)
			lw->files[i].stored = true;
}

int rasd_lastwords_store(struct rasd_lastwords *lw, struct ras_db *db, struct ras_decode_ctx *dctx,
			 struct ras_actions *actions)
{
	struct lw_store s = { .lw = lw, .db = db, .dctx = dctx, .actions = actions };
	int r;

	if (!lw)
		return 0;
	reset_attempt(lw);
	s.decoded = aligned_alloc(16, RAS_DECODED_MAX);
	r = s.decoded ? prepare_dumps(&s) : -ENOMEM;
	if (r == 0)
		r = attempt(&s);
	if (r < 0) {
		ras_log(LOG_WARNING, "the previous boot's last words are not stored yet (%s): nothing "
			"leaves pstore until they are", ras_db_errmsg(db));
		ras_db_rollback(db);
		ras_actions_rolled_back(actions);
		reset_attempt(lw);
	} else {
		ras_actions_committed(actions);
		mark_stored(lw);
		lw_remove_stored(lw);
	}
	free(s.decoded);
	free(s.parts);
	free(s.dumps);
	return r;
}

void rasd_lastwords_replay_paths(struct rasd_config *cfg)
{
	struct rasd_config def;

	rasd_config_defaults(&def);
	if (!strcmp(cfg->pstore_dir, def.pstore_dir))
		cfg->pstore_dir[0] = 0;
	if (!strcmp(cfg->pstore_archive_dir, def.pstore_archive_dir))
		cfg->pstore_archive_dir[0] = 0;
	if (!strcmp(cfg->mcelog_device, def.mcelog_device))
		cfg->mcelog_device[0] = 0;
}

int rasd_lastwords_collect(struct rasd_lastwords **out, const struct rasd_config *cfg)
{
	struct rasd_lastwords *lw = calloc(1, sizeof(*lw));

	*out = NULL;
	if (!lw)
		return -ENOMEM;
	lw->cfg = cfg;
	lw->pstore_fd = -1;
	if (lw_scan(lw) < 0 || (!lw->n_files && !lw->n_mces)) {
		rasd_lastwords_free(lw);
		return 0;
	}
	ras_log(LOG_NOTICE, "last words of previous boots: %u pstore records, %u machine checks kept "
		"by the firmware (%s)", lw->n_files, lw->n_mces, lw->remove_why);
	*out = lw;
	return 0;
}

void rasd_lastwords_free(struct rasd_lastwords *lw)
{
	if (!lw)
		return;
	for (unsigned i = 0; i < lw->n_mces; i++) {
		const struct lw_mce_item *it = &lw->mces[i];
		char hex[2 * LW_MCE_RECORD_MAX + 1];

		if (it->stored || it->file)
			continue;
		for (size_t k = 0; k < it->len; k++)
			sprintf(hex + 2 * k, "%02x", it->data[k]);
		hex[2 * it->len] = 0;
		ras_log(LOG_CRIT, "a machine check read from %s (so erased from ERST) could not be "
			"stored; its %zu bytes: %s", lw->cfg->mcelog_device, it->len, hex);
	}
	for (unsigned i = 0; i < lw->n_files; i++)
		free(lw->files[i].data);
	if (lw->pstore_fd >= 0)
		close(lw->pstore_fd);
	free(lw->files);
	free(lw->mces);
	free(lw);
}

static int run_crash_trigger(void *ctx, const struct ras_db_crash *c)
{
	struct ras_trigger_env env;

	ras_trigger_env_crash(&env, c);
	ras_triggers_run(ctx, "crash", env.ptr);
	return 0;
}

void rasd_lastwords_trigger(struct rasd_lastwords *lw, struct ras_db *db, struct ras_triggers *trig)
{
	if (!lw || !ras_triggers_installed(trig, "crash"))
		return;
	for (unsigned i = 0; i < lw->n_new; i++)
		ras_db_crashes(db, NULL, lw->new_crash[i], run_crash_trigger, trig);
}
