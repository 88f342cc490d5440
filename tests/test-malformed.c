/* SPDX-License-Identifier: MIT */
/*
 * Malformed ring-buffer pages replayed through rasd --once: each case takes
 * a page of real-format mc_event records (Linux 6.18 formats), breaks one
 * thing the way the kernel never would, and checks the exact accounting:
 * the records before the damage stored, the rest stored as lost_events
 * (origin malformed, count unknown), unknown event ids counted, no crash.
 * Layout facts (include/linux/ring_buffer.h, kernel/trace/ring_buffer.c):
 * page = u64 timestamp, long commit, data; record header u32 type_len:5
 * time_delta:27; type_len 0 has its length (itself included) in array[0];
 * 29 padding, 30 time extend, 31 time stamp.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fake_tree.h"
#include "lib/reader.h"
#include "tap.h"
#include "test_util.h"

#define PAGE_HDR 16
#define RECORDS 20   /* per page, all on the first page */
#define FLIP_RUNS 200

struct outcome {
	int rc;
	int64_t stored, distinct, malformed_rows, malformed_unknown, malformed_known;
	int64_t unknown_ids, malformed_records, foreign, stored_all;
};

static char formats[1024], tmp[256];
static uint8_t page[4096];
static unsigned page_size;
static unsigned rec_off[64];  /* offset of each record header in the page */

static int64_t scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -999;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A type_len 0 record each (longer than 112 bytes): address = its number. */
static int build(struct fake_tree *t)
{
	char msg[200], addr[64], *assign[3] = { msg, addr, "error_type=1" };
	uint8_t rec[1024];
	int r = fake_tree_create(t, formats, 1, "rasd", "boot");

	if (r < 0)
		return r;
	page_size = t->page_size;
	memset(msg, 'm', sizeof(msg) - 1);
	memcpy(msg, "msg=", 4);
	msg[84] = 0;   /* a record of about 150 bytes: type_len 0 */
	for (unsigned i = 0; i < RECORDS; i++) {
		int len;

		snprintf(addr, sizeof(addr), "address=%u", 1000 + i);
		len = fake_record(t, "ras:mc_event", assign, 3, rec, sizeof(rec));
		if (len < 0 || (r = fake_add(t, 0, 1000000 + i * 1000, rec, (uint32_t)len)) < 0)
			return len < 0 ? len : r;
	}
	return fake_tree_finish(t);
}

static int raw_io(struct fake_tree *t, bool write_back, const uint8_t *extra, size_t extra_len)
{
	char path[600];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu0/trace_pipe_raw", t->instance);
	f = fopen(path, write_back ? "we" : "re");
	if (!f)
		return -1;
	if (write_back) {
		n = fwrite(page, 1, page_size, f);
		if (extra)
			fwrite(extra, 1, extra_len, f);
	} else {
		n = fread(page, 1, page_size, f);
	}
	fclose(f);
	return n == page_size ? 0 : -1;
}

/* Offsets of the records of the sound page, walked with the kernel's layout. */
static unsigned index_records(void)
{
	uint64_t commit;
	unsigned o = 0, n = 0;

	memcpy(&commit, page + 8, 8);
	while (o < commit && n < 64) {
		uint32_t hdr, len;

		memcpy(&hdr, page + PAGE_HDR + o, 4);
		memcpy(&len, page + PAGE_HDR + o + 4, 4);
		rec_off[n++] = PAGE_HDR + o;
		o += (hdr & 31) ? (hdr & 31) * 4 + 4 : 4 + len;
	}
	return n;
}

static int run_rasd(struct fake_tree *t, const char *dbpath)
{
	char rasd[1024], log[1024], lockdir[1024];
	char *argv[] = { rasd, "--config", "/dev/null", "--tracing-dir", t->root, "--db",
			 (char *)dbpath, "--lock-dir", lockdir, "--once", NULL };

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(lockdir, sizeof(lockdir), "%s/lock", tmp);
	return test_run(argv, log);
}

/* Builds the sound page, lets damage() break it, replays it and reads the accounting. */
static struct outcome replay(void (*damage)(void *), void *arg, const uint8_t *extra,
			     size_t extra_len)
{
	struct outcome o = { .rc = -1 };
	struct fake_tree t;
	char dbpath[512];
	sqlite3 *db;

	if (build(&t) < 0 || raw_io(&t, false, NULL, 0) < 0) {
		fake_tree_destroy(&t);
		return o;
	}
	index_records();
	damage(arg);
	raw_io(&t, true, extra, extra_len);
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	unlink(dbpath);
	o.rc = run_rasd(&t, dbpath);
	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		o.stored = scalar(db, "SELECT count(*) FROM mc_event");
		o.distinct = scalar(db, "SELECT count(DISTINCT address) FROM mc_event");
		o.malformed_rows = scalar(db, "SELECT count(*) FROM lost_events WHERE origin = 'malformed'");
		o.malformed_unknown = scalar(db, "SELECT count(*) FROM lost_events"
					     " WHERE origin = 'malformed' AND count IS NULL");
		o.malformed_known = scalar(db, "SELECT coalesce(sum(count), 0) FROM lost_events"
					   " WHERE origin = 'malformed'");
		o.unknown_ids = scalar(db, "SELECT coalesce(sum(value), 0) FROM counters"
				       " WHERE name = 'unknown_event_records'");
		o.foreign = scalar(db, "SELECT coalesce(sum(value), 0) FROM counters"
				   " WHERE name = 'foreign_raw_records'");
		/* A flipped event id may name another event: count every table. */
		for (unsigned i = 0; i < ras_n_event_types; i++) {
			char sql[160];

			snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", ras_event_types[i].table);
			o.stored_all += scalar(db, sql);
		}
		o.malformed_records = scalar(db, "SELECT coalesce(sum(value), 0) FROM counters"
					     " WHERE name = 'malformed_records'");
	}
	sqlite3_close(db);
	fake_tree_destroy(&t);
	return o;
}

static void set_u32(unsigned off, uint32_t v) { memcpy(page + off, &v, 4); }

struct at { unsigned rec; uint32_t value; };

static void array0(void *arg)
{
	struct at *a = arg;

	set_u32(rec_off[a->rec] + 4, a->value);
}

static void header(void *arg)
{
	struct at *a = arg;

	set_u32(rec_off[a->rec], a->value);
}

static void header_and_array0(void *arg)
{
	struct at *a = arg;

	set_u32(rec_off[a->rec], a->value);
	set_u32(rec_off[a->rec] + 4, 0x10000);
}

static void all_ff(void *arg)
{
	(void)arg;
	memset(page, 0xff, page_size);
}

static void commit_past_end(void *arg)
{
	uint64_t c = page_size;   /* data is page_size - 16 bytes */

	(void)arg;
	memcpy(page + 8, &c, 8);
}

/* The last record's time extend cut off: the commit ends 4 bytes into it. */
static void cut_time_extend(void *arg)
{
	uint64_t c = rec_off[RECORDS - 1] - PAGE_HDR + 4;

	(void)arg;
	set_u32(rec_off[RECORDS - 1], 30 | (7u << 5));
	memcpy(page + 8, &c, 8);
}

static void unknown_id(void *arg)
{
	struct at *a = arg;
	uint16_t id = 9999;

	memcpy(page + rec_off[a->rec] + 8, &id, 2);
}

/* Records 0..k-1 stored, the rest one malformed row of unknown count, nothing else. */
static void expect_cut(const char *what, struct outcome o, int64_t kept)
{
	tap_is_int(o.rc, 0, "%s: rasd exits 0", what);
	tap_is_int(o.stored, kept, "%s: the %lld records before the damage are stored", what,
		   (long long)kept);
	tap_is_int(o.malformed_rows, 1, "%s: one lost_events row with origin malformed", what);
	tap_is_int(o.malformed_unknown, 1, "%s: its count is unknown (NULL)", what);
	tap_is_int(o.unknown_ids + o.malformed_records + o.foreign, 0, "%s: nothing else counted",
		   what);
	tap_is_int(o.stored_all, o.stored, "%s: nothing stored in another table", what);
}

static void fixed_cases(void)
{
	struct at len0 = { 5, 0 }, lenff = { 5, 0xfffffff0 }, past = { 5, 4000 };
	struct at pad = { 7, 29 | (1u << 5) }, pad0 = { 7, 29 }, ext = { 9, 30 | (3u << 5) };
	struct at unk = { 4, 0 };
	uint8_t second[4096];
	struct outcome o;

	expect_cut("array[0] length 0", replay(array0, &len0, NULL, 0), 5);
	expect_cut("array[0] length 0xfffffff0", replay(array0, &lenff, NULL, 0), 5);
	expect_cut("record length past the commit", replay(array0, &past, NULL, 0), 5);
	expect_cut("padding of length 0x10000", replay(header_and_array0, &pad, NULL, 0), 7);
	expect_cut("delta-0 padding far from the page end", replay(header, &pad0, NULL, 0), 7);
	expect_cut("commit past the page end", replay(commit_past_end, NULL, NULL, 0), 0);
	expect_cut("time extend cut off by the commit", replay(cut_time_extend, NULL, NULL, 0),
		   RECORDS - 1);
	/* A time-extend header over record 9: the walk goes on inside its data. */
	o = replay(header, &ext, NULL, 0);
	tap_is_int(o.rc, 0, "time extend over a record: rasd exits 0");
	tap_is_int(o.stored, 9, "time extend over a record: the 9 records before it stored");
	tap_is_int(o.malformed_unknown, 1, "time extend over a record: rest stored as lost, count unknown");
	/* An all-0xFF page followed by a sound one: only the sound page's records are stored. */
	memset(second, 0, sizeof(second));
	{
		struct fake_tree t;

		if (build(&t) == 0 && raw_io(&t, false, NULL, 0) == 0)
			memcpy(second, page, page_size);
		fake_tree_destroy(&t);
	}
	o = replay(all_ff, NULL, second, page_size);
	expect_cut("all-0xFF page before a sound one", o, RECORDS);
	o = replay(unknown_id, &unk, NULL, 0);
	tap_is_int(o.rc, 0, "unknown event id: rasd exits 0");
	tap_is_int(o.stored, RECORDS - 1, "unknown event id: the other records stored");
	tap_is_int(o.unknown_ids, 1, "unknown event id: counted in unknown_event_records");
	tap_is_int(o.malformed_rows, 0, "unknown event id: the page is not malformed");
}

struct flip { unsigned off; uint8_t mask; };

static void flip_byte(void *arg)
{
	struct flip *f = arg;

	page[f->off] ^= f->mask;
}

/*
 * Random byte flips anywhere in the used part of a sound page: never a
 * crash; every record is stored or counted, unless the page was cut and
 * the rest counted as unknown.
 */
static void flips(void)
{
	/* A fixed seed by default, so a run can be repeated; RAS_FLIP_SEED tries others. */
	unsigned seed = 20261123, exact = 0, cut = 0, bad = 0, crashed = 0, made_up = 0;
	unsigned used = rec_off[RECORDS - 1] + 160;

	if (getenv("RAS_FLIP_SEED"))
		seed = (unsigned)strtoul(getenv("RAS_FLIP_SEED"), NULL, 0);
	tap_diag("flip seed %u (RAS_FLIP_SEED to repeat)", seed);
	srand(seed);
	for (unsigned i = 0; i < FLIP_RUNS; i++) {
		struct flip f = { (unsigned)rand() % used, (uint8_t)(1 + rand() % 255) };
		struct outcome o = replay(flip_byte, &f, NULL, 0);
		int64_t counted = o.stored_all + o.unknown_ids + o.malformed_records +
				  o.malformed_known + o.foreign;

		if (o.rc != 0) {
			crashed++;
			tap_diag("flip at %u mask 0x%02x: rasd exit %d", f.off, f.mask, o.rc);
		} else if (o.malformed_unknown > 0) {
			cut++;
		} else if (counted == RECORDS) {
			exact++;
		} else if (counted > RECORDS) {
			/*
			 * The flip turned one record into a shorter one and a
			 * second that is counted (an unknown id): nothing was
			 * lost, garbage was counted as garbage.
			 */
			made_up++;
			tap_diag("flip at %u mask 0x%02x: stored %lld + counted %lld > %d (a record "
				 "made from the damage, counted)", f.off, f.mask,
				 (long long)o.stored_all, (long long)(counted - o.stored_all), RECORDS);
		} else {
			bad++;
			tap_diag("flip at %u mask 0x%02x: stored %lld + counted %lld != %d", f.off,
				 f.mask, (long long)o.stored_all, (long long)(counted - o.stored_all),
				 RECORDS);
		}
	}
	tap_diag("%d flips: %u exact, %u cut (rest unknown), %u with a record made from the damage,"
		 " %u lost a record, %u failed", FLIP_RUNS, exact, cut, made_up, bad, crashed);
	tap_is_int(crashed, 0, "%d random byte flips: rasd never crashes", FLIP_RUNS);
	tap_is_int(bad, 0, "%d random byte flips: no record lost uncounted (stored or counted, or the "
		   "page cut and the rest counted as unknown)", FLIP_RUNS);
}

int main(void)
{
	struct fake_tree t;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	if (test_tmpdir(tmp, sizeof(tmp)) < 0 || build(&t) < 0 || raw_io(&t, false, NULL, 0) < 0) {
		tap_ok(0, "sound page built");
		return tap_done();
	}
	fake_tree_destroy(&t);
	/* The sound page is fuzz/run.sh's seed (tests/data/pages). */
	if (getenv("RAS_PAGE_SEED_OUT")) {
		FILE *f = fopen(getenv("RAS_PAGE_SEED_OUT"), "we");

		if (f) {
			fwrite(page, 1, page_size, f);
			fclose(f);
		}
	}
	tap_is_int(index_records(), RECORDS, "the sound page holds %d type_len-0 records", RECORDS);
	fixed_cases();
	flips();
	test_rmtree(tmp);
	return tap_done();
}
