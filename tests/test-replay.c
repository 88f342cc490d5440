/* SPDX-License-Identifier: MIT */
/*
 * Replay: builds a tracing tree from the real 6.1 and 6.18 format files,
 * writes ring-buffer sub-buffers holding a record of every event type that
 * kernel has, runs rasd --once on it and checks every field of every row,
 * the loss marks, malformed records and the synthetic-record gate.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "fake_tree.h"
#include "lib/synthetic.h"
#include "tap.h"
#include "test_util.h"

struct expect {
	unsigned type_idx;
	uint64_t ts;
	unsigned cpu;
	char assign[RAS_MAX_FIELDS][96];
	char *argv[RAS_MAX_FIELDS];
	int n;
};

static struct expect expects[64];
static unsigned n_expects;
/* Records written of a stand-in type whose original this kernel has: never stored. */
static unsigned n_unneeded;

/*
 * The value a type's keep terms require of field i (lib/keep.h: the SIGBUS
 * of a memory failure), so that the record is kept; false when none does.
 */
static bool keep_value(const struct ras_event_type *t, unsigned i, int64_t *v)
{
	for (unsigned k = 0; t->keep && k < t->keep->n; k++)
		if (!t->keep->t[k].negate && !strcmp(t->keep->t[k].field, t->fields[i].name)) {
			*v = t->keep->t[k].v[0];
			return true;
		}
	return false;
}

/* A distinct value per field, so a field stored in the wrong column shows. */
static void make_assignment(const struct ras_event_type *t, const struct ras_type_format *tf,
			    unsigned i, char *out, size_t len)
{
	const struct tep_format_field *f = tf->field[i];
	int64_t kv;

	if (keep_value(t, i, &kv))
		snprintf(out, len, "%s=%lld", t->fields[i].name, (long long)kv);
	else if (t->fields[i].type == RAS_FT_TEXT)
		snprintf(out, len, "%s=%s-%u", t->fields[i].name,
			 (f->flags & TEP_FIELD_IS_DYNAMIC) ? "text" : "t", i);
	else if (t->fields[i].type == RAS_FT_BLOB)
		snprintf(out, len, "%s=0x%02x%02x%02x%02x", t->fields[i].name, i, 0xa0 + i, 0x55, 0xff);
	else if (f->flags & TEP_FIELD_IS_SIGNED)
		snprintf(out, len, "%s=-%u", t->fields[i].name, i + 2);
	else
		snprintf(out, len, "%s=0x%llx", t->fields[i].name, 0x8877665544332211ULL + i * 0x0101);
}

static int add_expected(struct fake_tree *t, unsigned idx, unsigned cpu, uint64_t ts)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_type_format *tf = &t->fmt->type[idx];
	struct expect *e = &expects[n_expects++];
	char name[128];
	uint8_t rec[4096];
	int len;

	e->type_idx = idx;
	e->ts = ts;
	e->cpu = cpu;
	e->n = 0;
	for (unsigned i = 0; i < type->n_fields; i++) {
		if (!tf->field[i])
			continue;
		make_assignment(type, tf, i, e->assign[e->n], sizeof(e->assign[0]));
		e->argv[e->n] = e->assign[e->n];
		e->n++;
	}
	snprintf(name, sizeof(name), "%s:%s", type->system, type->event);
	len = fake_record(t, name, e->argv, e->n, rec, sizeof(rec));
	if (len < 0)
		return len;
	return fake_add(t, cpu, ts, rec, (uint32_t)len);
}

static const char *column_of(unsigned idx, const char *field)
{
	char raw[128];

	snprintf(raw, sizeof(raw), "raw_%s", field);
	for (unsigned c = 0; c < ras_db_column_count(idx); c++) {
		const char *n = ras_db_column_name(idx, c);

		if (!strcmp(n, raw))
			return n;
	}
	for (unsigned c = 0; c < ras_db_column_count(idx); c++)
		if (!strcmp(ras_db_column_name(idx, c), field))
			return ras_db_column_name(idx, c);
	return field;
}

static bool check_int(sqlite3_stmt *st, const struct ras_event_type *t,
		      const struct tep_format_field *f, unsigned i)
{
	int64_t got = sqlite3_column_int64(st, 0), want;

	if (keep_value(t, i, &want)) {
		/* as make_assignment wrote it */
	} else if (f->flags & TEP_FIELD_IS_SIGNED) {
		want = -(int64_t)(i + 2);
	} else {
		uint64_t v = 0x8877665544332211ULL + i * 0x0101;

		if (f->size < 8)
			v &= (1ULL << (f->size * 8)) - 1;
		want = (int64_t)v;
	}
	if (got != want)
		tap_diag("field %s: got %lld want %lld", f->name, (long long)got, (long long)want);
	return got == want;
}

static bool check_blob(sqlite3_stmt *st, const struct tep_format_field *f, unsigned i)
{
	uint8_t want[512] = { (uint8_t)i, (uint8_t)(0xa0 + i), 0x55, 0xff };
	size_t want_len = (f->flags & TEP_FIELD_IS_DYNAMIC) ? 4 : (size_t)f->size;
	int got_len = sqlite3_column_bytes(st, 0);

	return got_len == (int)want_len && want_len <= sizeof(want) &&
	       !memcmp(sqlite3_column_blob(st, 0), want, want_len);
}

static bool check_text(sqlite3_stmt *st, const struct tep_format_field *f, unsigned i)
{
	char want[64];
	const char *got = (const char *)sqlite3_column_text(st, 0);

	snprintf(want, sizeof(want), "%s-%u", (f->flags & TEP_FIELD_IS_DYNAMIC) ? "text" : "t", i);
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC) && strlen(want) > (size_t)f->size)
		want[f->size] = 0;
	return got && !strcmp(got, want);
}

static bool check_field(sqlite3 *db, const struct expect *e, const struct ras_type_format *tf,
			unsigned i)
{
	const struct ras_event_type *t = &ras_event_types[e->type_idx];
	char sql[512];
	sqlite3_stmt *st;
	bool ok = false;

	snprintf(sql, sizeof(sql), "SELECT \"%s\" FROM %s WHERE trace_ts = ? AND trace_cpu = ?",
		 column_of(e->type_idx, t->fields[i].name), t->table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(st, 1, (int64_t)e->ts);
	sqlite3_bind_int(st, 2, (int)e->cpu);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (!tf->field[i])
			ok = sqlite3_column_type(st, 0) == SQLITE_NULL;
		else if (t->fields[i].type == RAS_FT_INT)
			ok = check_int(st, t, tf->field[i], i);
		else if (t->fields[i].type == RAS_FT_BLOB)
			ok = check_blob(st, tf->field[i], i);
		else
			ok = check_text(st, tf->field[i], i);
	}
	sqlite3_finalize(st);
	return ok;
}

static void check_common(sqlite3 *db, const struct expect *e, int64_t off_lo, int64_t off_hi,
			 const char *source)
{
	const struct ras_event_type *t = &ras_event_types[e->type_idx];
	char sql[512];
	sqlite3_stmt *st;
	int rows = 0;

	snprintf(sql, sizeof(sql), "SELECT wall_ns, source, (SELECT boot_id FROM boots WHERE id = boot),"
		 " severity FROM %s WHERE trace_ts = ? AND trace_cpu = ?", t->table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		tap_ok(0, "%s: query: %s", t->table, sqlite3_errmsg(db));
		return;
	}
	sqlite3_bind_int64(st, 1, (int64_t)e->ts);
	sqlite3_bind_int(st, 2, (int)e->cpu);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t wall = sqlite3_column_int64(st, 0);
		char boot[64] = "";
		char *b;
		size_t bl;

		rows++;
		if (ras_read_file("/proc/sys/kernel/random/boot_id", &b, &bl) == 0) {
			snprintf(boot, sizeof(boot), "%.36s", b);
			free(b);
		}
		tap_ok(wall >= (int64_t)e->ts + off_lo - 2000000 && wall <= (int64_t)e->ts + off_hi + 2000000,
		       "%s cpu %u: wall time is the boot-clock timestamp converted to UTC", t->table, e->cpu);
		tap_is_str((const char *)sqlite3_column_text(st, 1), source, "%s: source", t->table);
		tap_is_str((const char *)sqlite3_column_text(st, 2), boot, "%s: boot id", t->table);
		tap_ok(sqlite3_column_text(st, 3) != NULL, "%s: severity column set", t->table);
	}
	sqlite3_finalize(st);
	tap_is_int(rows, 1, "%s: exactly one row for ts %llu cpu %u", t->table,
		   (unsigned long long)e->ts, e->cpu);
}

static int64_t scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -999;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		tap_diag("%s: %s", sql, sqlite3_errmsg(db));
		return v;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int run_rasd(const char *tree, const char *dbpath, const char *tmp, bool synthetic)
{
	char rasd[1024], log[1024], lockdir[1024];
	char *argv[] = { rasd, "--config", "/dev/null", "--tracing-dir", (char *)tree, "--db",
			 (char *)dbpath, "--lock-dir", lockdir, "--once",
			 synthetic ? "--allow-synthetic" : NULL, NULL };

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(lockdir, sizeof(lockdir), "%s/lock", tmp);
	return test_run(argv, log);
}

/* A synthetic mc_event wrapped in an ftrace:raw_data record, as trace_marker_raw makes it. */
static int add_synthetic(struct fake_tree *t, unsigned cpu, uint64_t ts)
{
	char *assign[] = { "error_type=1", "msg=synthetic test", "label=DIMM_X9" };
	uint8_t wrapped[4096], outer[4200];
	char err[256], *raw_assign[1] = { NULL };
	const struct ras_type_format *tf = &t->fmt->type[ras_event_type_find("ras:mc_event") - ras_event_types];
	int wl = ras_synth_build(tf->event, "ras", assign, 3, wrapped, sizeof(wrapped), err, sizeof(err));
	int ol;

	if (wl < 0)
		return wl;
	ol = fake_record(t, "ftrace:raw_data", raw_assign, 0, outer, sizeof(outer));
	if (ol < 0)
		return ol;
	/* raw_data's id field is followed by the written bytes after the id. */
	memcpy(outer + t->fmt->raw_id->offset, wrapped, (size_t)wl);
	return fake_add(t, cpu, ts, outer, (uint32_t)(t->fmt->raw_id->offset + wl));
}

static void build_records(struct fake_tree *t, bool *has_synth)
{
	uint64_t ts = 1000000000ULL;
	uint8_t rec[4096];
	char *none[1] = { NULL };
	int len;

	n_expects = 0;
	n_unneeded = 0;
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		if (t->fmt->type[i].state != RAS_FMT_KERNEL)
			continue;
		tap_is_int(add_expected(t, i, i % 2, ts += 1000), 0, "record for %s written",
			   ras_event_types[i].table);
		/* block_rq_complete where block_rq_error is there: written, not to be stored. */
		if (ras_formats_fallback_unneeded(t->fmt, i)) {
			n_expects--;
			n_unneeded++;
		}
	}
	/* The kernel lost 5 records on cpu1, and an unknown number on cpu0. */
	fake_mark_missed(t, 1, 5);
	add_expected(t, 1 /* mc_event */, 1, ts += 1000);
	fake_mark_missed(t, 0, -1);
	add_expected(t, 1, 0, ts += 1000);
	/* A record shorter than its format: counted, never stored. */
	len = fake_record(t, "ras:mc_event", none, 0, rec, sizeof(rec));
	fake_add(t, 0, ts += 1000, rec, 12 < len ? 12 : (uint32_t)len);
	*has_synth = t->fmt->raw_data != NULL;
	if (*has_synth)
		add_synthetic(t, 1, ts += 1000);
}

static void check_rows(sqlite3 *db, struct fake_tree *t, int64_t lo, int64_t hi)
{
	for (unsigned e = 0; e < n_expects; e++) {
		const struct ras_type_format *tf = &t->fmt->type[expects[e].type_idx];
		const struct ras_event_type *type = &ras_event_types[expects[e].type_idx];

		check_common(db, &expects[e], lo, hi, "live");
		for (unsigned i = 0; i < type->n_fields; i++)
			tap_ok(check_field(db, &expects[e], tf, i), "%s.%s stored %s", type->table,
			       type->fields[i].name, tf->field[i] ? "as written" : "as NULL (absent)");
	}
}

static void check_losses(sqlite3 *db)
{
	tap_is_int(scalar(db, "SELECT count FROM lost_events WHERE cpu = 1 AND origin = 'subbuffer'"), 5,
		   "cpu1 sub-buffer loss of 5 records stored with its count");
	tap_is_int(scalar(db, "SELECT count(*) FROM lost_events WHERE cpu = 0 AND origin = 'subbuffer'"
			  " AND count IS NULL"), 1,
		   "cpu0 sub-buffer loss of unknown size stored as NULL count");
	tap_ok(scalar(db, "SELECT count(*) FROM lost_events WHERE cpu = 1 AND to_ns >= from_ns") == 1,
	       "loss window is ordered");
	tap_is_int(scalar(db, "SELECT value FROM counters WHERE name = 'malformed_records'"), 1,
		   "the short record is counted as malformed");
	tap_is_int(scalar(db, "SELECT count(*) FROM mc_event_decoded d JOIN mc_event_dec x ON x.id = d.dec"), 3,
		   "every mc_event has its decoding in the mc_event_decoded view");
	tap_is_int(scalar(db, "SELECT count(*) FROM mc_event_dec"), 1,
		   "three identical mc_event decodings are stored once");
	tap_is_int(scalar(db, "SELECT count(*) FROM block_rq_complete"), 0,
		   "block_rq_complete is not stored where block_rq_error is there");
	tap_is_int(scalar(db, "SELECT coalesce(sum(value), 0) FROM counters WHERE name = 'filtered_records'"),
		   n_unneeded, "its record is counted as filtered");
}

static void run_case(const char *kernel)
{
	struct fake_tree t;
	char formats[1024], tmp[256], dbpath[512];
	bool has_synth;
	sqlite3 *db;
	int64_t lo, hi;
	int rc;

	snprintf(formats, sizeof(formats), "%s/tests/formats/%s", test_srcdir(), kernel);
	tap_diag("kernel formats %s", kernel);
	rc = fake_tree_create(&t, formats, 2, "rasd", "boot");
	if (!tap_ok(rc == 0, "%s: tree built (%d)", kernel, rc))
		return;
	test_tmpdir(tmp, sizeof(tmp));
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	build_records(&t, &has_synth);
	fake_tree_finish(&t);
	lo = test_boot_offset();
	rc = run_rasd(t.root, dbpath, tmp, false);
	hi = test_boot_offset();
	tap_is_int(rc, 0, "%s: rasd --once exits 0", kernel);
	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		check_rows(db, &t, lo, hi);
		check_losses(db);
		if (has_synth) {
			tap_is_int(scalar(db, "SELECT value FROM counters WHERE name = 'synthetic_refused'"), 1,
				   "synthetic record refused and counted without allow_synthetic");
			tap_is_int(scalar(db, "SELECT count(*) FROM mc_event WHERE source = 'synthetic'"), 0,
				   "refused synthetic record not stored");
		}
	}
	sqlite3_close(db);
	if (has_synth) {
		/* Same tree again with synthetic records allowed: kernel records are not stored twice. */
		fake_tree_destroy(&t);
		fake_tree_create(&t, formats, 2, "rasd", "boot");
		build_records(&t, &has_synth);
		fake_tree_finish(&t);
		tap_is_int(run_rasd(t.root, dbpath, tmp, true), 0, "rasd --allow-synthetic exits 0");
		sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
		tap_is_int(scalar(db, "SELECT count(*) FROM mc_event WHERE source = 'synthetic' AND"
				  " label = 'DIMM_X9' AND error_type = 1 AND msg = 'synthetic test'"), 1,
			   "allowed synthetic record stored with source synthetic and its fields");
		tap_is_int(scalar(db, "SELECT count(*) FROM mc_event WHERE source = 'live'"), 6,
			   "live records are consumed as read: a second replay is stored again");
		sqlite3_close(db);
	}
	if (getenv("RAS_TEST_KEEP")) {
		tap_diag("kept %s and %s", t.root, tmp);
		return;
	}
	fake_tree_destroy(&t);
	test_rmtree(tmp);
}

/*
 * A tree as the kernel leaves it after a warm reboot: rasd's instance, the
 * boot instance made from trace_instance= (local clock), and a persistent
 * one with last_boot_info. Each is stored once, with its source.
 */
static void run_boot_buffers(void)
{
	char formats[1024], tmp[256], dbpath[512], conf[600], rasd[1024], log[600], lock[600];
	char *assign_boot[] = { "error_type=0", "msg=from-boot" };
	char *assign_prev[] = { "error_type=1", "msg=from-previous-boot" };
	char *assign_live[] = { "error_type=0", "msg=live" };
	char *argv[] = { rasd, "--config", conf, "--tracing-dir", NULL, "--once", NULL };
	struct fake_tree t;
	uint8_t rec[1024];
	sqlite3 *db;
	FILE *f;
	int len;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	if (!tap_ok(fake_tree_create(&t, formats, 2, "rasd", "boot") == 0, "boot-buffer tree built"))
		return;
	len = fake_record(&t, "ras:mc_event", assign_live, 2, rec, sizeof(rec));
	fake_add(&t, 0, 5000, rec, (uint32_t)len);
	fake_tree_instance(&t, "rasd_boot", "local");
	len = fake_record(&t, "ras:mc_event", assign_boot, 2, rec, sizeof(rec));
	fake_add(&t, 0, 1000, rec, (uint32_t)len);
	fake_add(&t, 1, 1500, rec, (uint32_t)len);
	fake_tree_instance(&t, "rasd_persist", "local");
	len = fake_record(&t, "ras:mc_event", assign_prev, 2, rec, sizeof(rec));
	fake_add(&t, 1, 900, rec, (uint32_t)len);
	fake_tree_finish(&t);
	snprintf(log, sizeof(log), "%s/last_boot_info", t.instance);
	if ((f = fopen(log, "we"))) {
		fputs("# Current\n", f);
		fclose(f);
	}
	test_tmpdir(tmp, sizeof(tmp));
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	f = fopen(conf, "we");
	fprintf(f, "database = %s\nlock_dir = %s\nboot_instance = rasd_boot\n"
		"persistent_instance = rasd_persist\n", dbpath, lock);
	fclose(f);
	argv[4] = t.root;
	tap_is_int(test_run(argv, log), 0, "rasd --once with boot and persistent instances");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM mc_event WHERE source = 'boot' AND msg = 'from-boot'"), 2,
		   "the boot instance's records are stored with source boot");
	tap_is_int(scalar(db, "SELECT count(*) FROM mc_event WHERE source = 'previous-boot'"
			  " AND msg = 'from-previous-boot' AND boot <> (SELECT max(id) FROM boots"
			  " WHERE boot_id NOT LIKE 'before:%')"), 1,
		   "the persistent instance's record is stored as previous-boot, with another boot");
	tap_is_int(scalar(db, "SELECT count(*) FROM mc_event WHERE source = 'live' AND msg = 'live'"), 1,
		   "rasd's own instance is read too");
	tap_is_int(scalar(db, "SELECT count(*) FROM mc_event"), 4, "nothing else is stored");
	sqlite3_close(db);
	tap_is_int(test_run(argv, log), 0, "the same tree read again");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM mc_event WHERE source IN ('boot', 'previous-boot')"), 3,
		   "boot and previous-boot records read twice are stored once");
	sqlite3_close(db);
	fake_tree_destroy(&t);
	test_rmtree(tmp);
}

/*
 * A kernel without block_rq_error (before 5.18): 6.1's formats less that
 * one. Its failed completions are stored from block_rq_complete, in its own
 * table with block_rq_error's decoding; a completion without an error, which
 * only a missing kernel filter lets through, is counted and not stored. So
 * is a signal that is not a memory-failure SIGBUS.
 */
static void run_fallback(void)
{
	char formats[1024], tmp[256], dbpath[512], gone[700];
	char *failed[] = { "dev=8388608", "sector=4660", "nr_sector=1", "error=-61", "rwbs=RS" };
	char *ok[] = { "dev=8388608", "sector=0", "nr_sector=8", "error=0", "rwbs=R" };
	char *sigchld[] = { "sig=17", "code=1", "comm=sh", "pid=42" };
	char *sigbus[4] = { NULL, "code=4", "comm=victim", "pid=43" };
	char sig[32];
	struct fake_tree t;
	uint8_t rec[1024];
	sqlite3 *db;
	int len;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	if (!tap_ok(fake_tree_create(&t, formats, 2, "rasd", "boot") == 0, "fallback: tree built"))
		return;
	snprintf(gone, sizeof(gone), "%s/events/block/block_rq_error", t.root);
	test_rmtree(gone);
	snprintf(sig, sizeof(sig), "sig=%lld", (long long)ras_event_type_find("signal_generate")->keep->t[0].v[0]);
	sigbus[0] = sig;
	len = fake_record(&t, "block:block_rq_complete", failed, 5, rec, sizeof(rec));
	fake_add(&t, 0, 1000, rec, (uint32_t)len);
	len = fake_record(&t, "block:block_rq_complete", ok, 5, rec, sizeof(rec));
	fake_add(&t, 0, 2000, rec, (uint32_t)len);
	len = fake_record(&t, "signal:signal_generate", sigchld, 4, rec, sizeof(rec));
	fake_add(&t, 1, 3000, rec, (uint32_t)len);
	len = fake_record(&t, "signal:signal_generate", sigbus, 4, rec, sizeof(rec));
	fake_add(&t, 1, 4000, rec, (uint32_t)len);
	fake_tree_finish(&t);
	test_tmpdir(tmp, sizeof(tmp));
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	tap_is_int(run_rasd(t.root, dbpath, tmp, false), 0, "fallback: rasd --once exits 0");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM block_rq_complete_decoded WHERE error = -61"
			  " AND sector = 4660 AND status_name = 'critical medium error'"
			  " AND location = 'block 8:0' AND severity = 'uncorrected'"), 1,
		   "the failed completion is stored and decoded as block_rq_error's");
	tap_is_int(scalar(db, "SELECT count(*) FROM block_rq_complete"), 1,
		   "the completion without an error is not");
	tap_is_int(scalar(db, "SELECT count(*) FROM signal_generate_decoded WHERE comm = 'victim'"
			  " AND code_name = 'BUS_MCEERR_AR' AND severity = 'srar'"), 1,
		   "the memory-failure SIGBUS is stored");
	tap_is_int(scalar(db, "SELECT count(*) FROM signal_generate"), 1, "the SIGCHLD is not");
	tap_is_int(scalar(db, "SELECT value FROM counters WHERE name = 'filtered_records'"), 2,
		   "both are counted as filtered");
	sqlite3_close(db);
	fake_tree_destroy(&t);
	test_rmtree(tmp);
}

int main(void)
{
	run_case("linux-6.1");
	run_case("linux-6.18");
	run_boot_buffers();
	run_fallback();
	return tap_done();
}
