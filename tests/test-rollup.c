/* SPDX-License-Identifier: MIT */
/*
 * Hourly roll-ups give exactly a full scan's counts: records of several
 * types, severities, locations, sources and boots spread over two days are
 * summarised for the whole history and for hundreds of random windows that
 * cut hours, start or end on an hour, or lie inside one; and again after a
 * database without roll-ups is upgraded and after a purge. The hourly rows
 * counted batch by batch equal those recounted from the rows, and the
 * roll-ups' fast paths (the FNV hash eight bytes a round, padded fields
 * compared whole) answer as the plain ways on random input.
 */
#include <sqlite3.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_edac.h"
#include "db/db_query.h"
#include "db/db_rollup.h"
#include "lib/decode.h"
#include "lib/event_fields.h"
#include "tap.h"
#include "test_util.h"

#define HOUR 3600000000000LL
#define T0 1795000000000000000LL   /* 2026-11-18T..., on no hour boundary */

static char dir[256], path[512];

/* One summary as text lines "type|severity|location|count|first|last", sorted. */
struct lines {
	char **v;
	size_t n;
};

static int collect(void *ctx, unsigned idx, const char *sev, const char *loc, int64_t count,
		   int64_t first, int64_t last)
{
	struct lines *l = ctx;
	char buf[512];

	snprintf(buf, sizeof(buf), "%s|%s|%s|%lld|%lld|%lld", ras_event_types[idx].table,
		 sev ? sev : "", loc ? loc : "", (long long)count, (long long)first, (long long)last);
	l->v = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = strdup(buf);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct lines){ 0 };
}

/* ras_db_summary_records: the summary's total, and past a limit once it passes it. */
static bool same_records(struct ras_db *db, const struct ras_db_filter *f, int64_t total)
{
	int64_t n = -1, part = -1;

	ras_db_summary_records(db, f, 0, &n);
	ras_db_summary_records(db, f, total / 2, &part);
	if (n == total && (total == 0 || (part > total / 2 && part <= total)))
		return true;
	tap_diag("records %lld (stopped past %lld: %lld), the scan's %lld", (long long)n,
		 (long long)(total / 2), (long long)part, (long long)total);
	return false;
}

/* The lines of l whose location (the third field) holds piece. */
static void keep_holding(struct lines *l, const char *piece)
{
	size_t kept = 0;

	for (size_t i = 0; i < l->n; i++) {
		char *loc = strchr(strchr(l->v[i], '|') + 1, '|') + 1;
		char *end = strchr(loc, '|');

		*end = 0;
		if (strstr(loc, piece)) {
			*end = '|';
			l->v[kept++] = l->v[i];
		} else {
			free(l->v[i]);
		}
	}
	l->n = kept;
}

/* location_holds: the roll-up answer's lines of the locations holding piece are the scan's. */
static bool same_holding(struct ras_db *db, const struct ras_db_filter *f, const char *piece)
{
	struct ras_db_filter held = *f;
	struct lines a = { 0 }, b = { 0 };
	bool same;

	held.location_holds = piece;
	ras_db_summary(db, &held, collect, &a);
	ras_db_summary_scan(db, f, collect, &b);
	keep_holding(&a, piece);
	keep_holding(&b, piece);
	if (a.n)
		qsort(a.v, a.n, sizeof(*a.v), cmp_str);
	if (b.n)
		qsort(b.v, b.n, sizeof(*b.v), cmp_str);
	same = a.n == b.n;
	for (size_t i = 0; same && i < a.n; i++)
		same = !strcmp(a.v[i], b.v[i]);
	if (!same)
		tap_diag("holding '%s': roll-up %zu lines, scan %zu", piece, a.n, b.n);
	lines_free(&a);
	lines_free(&b);
	return same;
}

/* Whether the roll-up answer equals the scan's; says what differs first when not. */
static bool same_answer(struct ras_db *db, const struct ras_db_filter *f, int64_t *total)
{
	struct lines a = { 0 }, b = { 0 };
	bool same;

	ras_db_summary(db, f, collect, &a);
	ras_db_summary_scan(db, f, collect, &b);
	if (a.n)
		qsort(a.v, a.n, sizeof(*a.v), cmp_str);
	if (b.n)
		qsort(b.v, b.n, sizeof(*b.v), cmp_str);
	same = a.n == b.n;
	for (size_t i = 0; same && i < a.n; i++)
		if (strcmp(a.v[i], b.v[i])) {
			tap_diag("roll-up %s / scan %s", a.v[i], b.v[i]);
			same = false;
		}
	if (a.n != b.n)
		tap_diag("roll-up %zu groups, scan %zu", a.n, b.n);
	*total = 0;
	for (size_t i = 0; i < b.n; i++)
		*total += atoll(strchr(strchr(strchr(b.v[i], '|') + 1, '|') + 1, '|') + 1);
	lines_free(&a);
	lines_free(&b);
	return same && same_records(db, f, *total) && same_holding(db, f, "channel 1");
}

/* n mc_event and mce_record records at random times over 48 hours, in batches. */
static void fill(struct ras_db *db, unsigned n, uint64_t *seed)
{
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS];
	static const char *const sources[] = { "live", "live", "boot", "synthetic" };

	for (unsigned i = 0; i < n; i++) {
		struct ras_decoded_head *h = (void *)decoded;
		unsigned r;
		struct ras_db_event ev;

		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		r = (unsigned)(*seed >> 33);
		memset(v, 0, sizeof(v));
		memset(decoded, 0, sizeof(decoded));
		h->severity = r % 7 ? RAS_SEV_CORRECTED : RAS_SEV_UNCORRECTED;
		snprintf(h->location, sizeof(h->location), r % 5 ? "mc0, channel %u, slot 0" : "",
			 (r >> 4) % 3);
		ev = (struct ras_db_event){
			.type_idx = (r >> 8) % 2, .wall_ns = T0 + (int64_t)((*seed >> 11) % (48 * HOUR)),
			.trace_ts = i, .trace_cpu = (int)(r % 2), .source = sources[(r >> 10) % 4],
			.synthetic = (r >> 10) % 4 == 3, .boot = 0, .rec_hash = *seed,
			.values = v, .decoded = decoded,
		};
		if (i % 500 == 0)
			ras_db_commit(db);
		ras_db_begin(db);
		ras_db_insert_event(db, &ev);
	}
	ras_db_commit(db);
}

/*
 * Records whose location names an address, decoded by their decoders: memory
 * failures on hundreds of pages and CXL DRAM errors at hundreds of DPAs (a few
 * without one). Their summary counts per page type and result, per device.
 */
static void fill_addresses(struct ras_db *db, unsigned n, uint64_t *seed)
{
	const struct ras_event_type *mf = ras_event_type_find("memory_failure_event");
	const struct ras_event_type *cxl = ras_event_type_find("cxl_dram");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS];
	struct ras_decode_ctx dctx = { 0 };
	char memdev[16];

	for (unsigned i = 0; i < n; i++) {
		const struct ras_event_type *t = i % 3 ? mf : cxl;
		unsigned r;

		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		r = (unsigned)(*seed >> 33);
		memset(v, 0, sizeof(v));
		test_set_field(t, v, "pfn", (int64_t)(*seed >> 20) & 0xffffff, NULL);
		test_set_field(t, v, "type", r % 3, NULL);
		test_set_field(t, v, "result", (r >> 3) % 5, NULL);   /* 4: a result with no name */
		snprintf(memdev, sizeof(memdev), "mem%u", (r >> 6) % 2);
		test_set_field(t, v, "memdev", 0, memdev);
		test_set_field(t, v, "host", 0, "0000:0d:00.0");
		if (r % 7)
			test_set_field(t, v, "dpa", (int64_t)(*seed >> 16) & 0xffffffc0, NULL);
		ras_decode_values(t, v, &dctx, decoded);
		struct ras_db_event ev = {
			.type_idx = (unsigned)(t - ras_event_types),
			.wall_ns = T0 + (int64_t)((*seed >> 11) % (48 * HOUR)), .trace_ts = 100000 + i,
			.trace_cpu = 0, .source = r % 5 ? "live" : "synthetic", .synthetic = !(r % 5),
			.boot = 0, .rec_hash = *seed, .values = v, .decoded = decoded,
		};

		if (i % 300 == 0)
			ras_db_commit(db);
		ras_db_begin(db);
		ras_db_insert_event(db, &ev);
	}
	ras_db_commit(db);
}

/* A stored record's time: a window that ends or starts exactly at a record is a case of its own. */
static int64_t some_record_time(unsigned k)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t t = T0;

	sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL);
	if (sqlite3_prepare_v2(h, "SELECT wall_ns FROM mce_record ORDER BY rec_hash LIMIT 1 OFFSET ?",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int(st, 1, (int)k);
		if (sqlite3_step(st) == SQLITE_ROW)
			t = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return t;
}

/* Every type in turn, or all of them. */
static int pick_type(unsigned i)
{
	static const char *const names[] = { "mce_record", "mc_event", "memory_failure_event",
					     "cxl_dram" };

	if (i % 5 == 0)
		return -1;
	return (int)(ras_event_type_find(names[i % 5 - 1]) - ras_event_types);
}

static void check_windows(struct ras_db *db, const char *when, uint64_t *seed)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	int64_t total = 0;
	unsigned bad = 0;
	bool same = same_answer(db, &f, &total);

	tap_ok(same, "%s: whole history equals a full scan (%lld records)", when, (long long)total);
	f.include_synthetic = false;
	tap_ok(same_answer(db, &f, &total), "%s: without synthetic records too", when);
	for (unsigned i = 0; i < 300; i++) {
		int64_t a, b;

		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		a = T0 - HOUR + (int64_t)((*seed >> 11) % (50 * HOUR));
		b = a + (int64_t)((*seed >> 3) % (i % 3 ? 20 * HOUR : HOUR));
		if (i % 10 == 1)
			a = (a / HOUR) * HOUR;          /* on an hour boundary */
		if (i % 10 == 2)
			b = (b / HOUR + 1) * HOUR;
		if (i % 6 == 5)
			a = some_record_time(i);
		if (i % 8 == 3 && some_record_time(i + 1) > a)
			b = some_record_time(i + 1);
		f = (struct ras_db_filter){ .type_idx = pick_type(i), .since_ns = i % 7 ? a : 0,
					    .until_ns = i % 11 ? b : 0, .include_synthetic = i % 2,
					    .boot_id = i % 13 ? NULL : "test-boot" };
		bad += !same_answer(db, &f, &total);
	}
	tap_is_int(bad, 0, "%s: 300 random windows (cut hours, boundaries, one hour, open ends,"
		   " ends at a record)"
		   " equal a full scan", when);
}

/* Column lines "column|type|severity|location|count", of the columns or of each column's summary. */
struct col_lines {
	struct lines l;
	unsigned column;
};

static void col_line(struct col_lines *c, unsigned column, unsigned idx, const char *sev,
		     const char *loc, int64_t count)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%u|%s|%s|%s|%lld", column, ras_event_types[idx].table,
		 sev ? sev : "", loc ? loc : "", (long long)count);
	c->l.v = realloc(c->l.v, (c->l.n + 1) * sizeof(*c->l.v));
	c->l.v[c->l.n++] = strdup(buf);
}

static int by_column(void *ctx, unsigned idx, const char *sev, const char *loc, unsigned column,
		     int64_t count)
{
	col_line(ctx, column, idx, sev, loc, count);
	return 0;
}

static int by_summary(void *ctx, unsigned idx, const char *sev, const char *loc, int64_t count,
		      int64_t first, int64_t last)
{
	struct col_lines *c = ctx;

	(void)first, (void)last;
	col_line(c, c->column, idx, sev, loc, count);
	return 0;
}

/*
 * ras_db_summary_columns equals ras_db_summary of each column's window:
 * columns that cut hours or are whole hours, of the locations holding a
 * piece or of all.
 */
static unsigned columns_differ(struct ras_db *db, const struct ras_db_filter *f,
			       const int64_t *starts, unsigned n)
{
	struct col_lines a = { 0 }, b = { 0 };
	unsigned differ = 0;

	ras_db_summary_columns(db, f, starts, n, by_column, &a);
	for (b.column = 0; b.column < n; b.column++) {
		struct ras_db_filter one = *f;

		one.since_ns = starts[b.column];
		one.until_ns = starts[b.column + 1];
		ras_db_summary(db, &one, by_summary, &b);
	}
	if (f->location_holds) {
		/* a line's location is its fourth field here: compare only the held ones */
		for (struct lines *l = &a.l; l; l = l == &a.l ? &b.l : NULL) {
			size_t kept = 0;

			for (size_t i = 0; i < l->n; i++) {
				char *loc = strchr(strchr(strchr(l->v[i], '|') + 1, '|') + 1, '|') + 1;

				if (memmem(loc, strcspn(loc, "|"), f->location_holds,
					   strlen(f->location_holds)))
					l->v[kept++] = l->v[i];
				else
					free(l->v[i]);
			}
			l->n = kept;
		}
	}
	if (a.l.n)
		qsort(a.l.v, a.l.n, sizeof(*a.l.v), cmp_str);
	if (b.l.n)
		qsort(b.l.v, b.l.n, sizeof(*b.l.v), cmp_str);
	differ = a.l.n != b.l.n || !b.l.n;
	for (size_t i = 0; !differ && i < a.l.n; i++)
		differ = strcmp(a.l.v[i], b.l.v[i]) != 0;
	if (differ)
		tap_diag("columns: %zu lines, the summaries of their windows %zu", a.l.n, b.l.n);
	lines_free(&a.l);
	lines_free(&b.l);
	return differ;
}

static void check_columns(struct ras_db *db, uint64_t *seed)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < 12; i++) {
		struct ras_db_filter f = { .type_idx = -1, .include_synthetic = i % 2,
					   .location_holds = i % 3 ? NULL : "channel 1" };
		int64_t starts[9];

		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		starts[0] = T0 - HOUR + (int64_t)((*seed >> 11) % (10 * HOUR));
		for (unsigned c = 1; c < 9; c++)
			starts[c] = starts[c - 1] + 1 + (int64_t)((*seed >> (c * 3)) % (6 * HOUR));
		if (i >= 6)                     /* whole hours */
			for (unsigned c = 0; c < 9; c++)
				starts[c] = (starts[0] / HOUR + (int64_t)c * (1 + i % 3)) * HOUR;
		bad += columns_differ(db, &f, starts, 8);
	}
	tap_is_int(bad, 0, "12 sets of columns (cutting hours, whole hours; a part's locations or"
		   " all) equal the summaries of their windows");
}

struct keys {
	unsigned groups, pages, dpas;
	bool delayed, unnamed, device;
};

static int note_key(void *ctx, unsigned idx, const char *sev, const char *loc, int64_t count,
		    int64_t first, int64_t last)
{
	struct keys *k = ctx;

	(void)sev, (void)count, (void)first, (void)last;
	if (strcmp(ras_event_types[idx].table, "memory_failure_event") &&
	    strcmp(ras_event_types[idx].table, "cxl_dram"))
		return 0;
	loc = loc ? loc : "";
	k->groups++;
	k->pages += strstr(loc, "pfn") != NULL;
	k->dpas += strstr(loc, "DPA") != NULL;
	k->delayed |= !strcmp(loc, "memory page, type 1, recovery Delayed");
	k->unnamed |= !strcmp(loc, "memory page, type 2, recovery result 4");
	k->device |= !strcmp(loc, "CXL mem1 (0000:0d:00.0)");
	return 0;
}

static int keep_location(void *ctx, const struct ras_db_row *row)
{
	snprintf(ctx, RAS_LOCATION_LEN, "%s", row->location);
	return 0;
}

/* The address types are summarised per page type and result, per device; errors keep the page. */
static void check_address_keys(struct ras_db *db)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	struct keys k = { 0 };
	char loc[RAS_LOCATION_LEN] = "";

	ras_db_summary(db, &f, note_key, &k);
	tap_ok(k.groups > 0 && k.groups <= 2 * 3 * 5 + 2 * 2 && !k.pages && !k.dpas,
	       "1500 records at ~1500 addresses: %u summary lines, none naming a page or DPA",
	       k.groups);
	tap_ok(k.delayed && k.unnamed && k.device, "keys read 'memory page, type 1, recovery Delayed',"
	       " 'memory page, type 2, recovery result 4', 'CXL mem1 (0000:0d:00.0)'");
	f = (struct ras_db_filter){ .type_idx = (int)(ras_event_type_find("memory_failure_event") -
						      ras_event_types), .limit = 1 };
	ras_db_errors(db, &f, keep_location, loc);
	tap_ok(!strncmp(loc, "memory page pfn 0x", 18), "errors still name the page: '%s'", loc);
}

static int64_t scalar(const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t v = -1;

	sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

/*
 * A version-11 database counted memory failures and CXL DRAM errors per page
 * and DPA in its hourly roll-ups: upgraded, they are counted again by the
 * summary location, with the same counts as a full scan.
 */
static void check_rekey_upgrade(struct ras_db **db, uint64_t *seed)
{
	static const char v11[] =
		"DELETE FROM rollup_hourly WHERE tbl IN ('memory_failure_event', 'cxl_dram');"
		"INSERT INTO rollup_hourly SELECT 'memory_failure_event', wall_ns / 3600000000000,"
		" coalesce(boot, 0), source, synthetic, coalesce(severity, ''), coalesce(location, ''),"
		" count(*), min(wall_ns), max(wall_ns) FROM memory_failure_event_decoded"
		" GROUP BY 2, 3, 4, 5, 6, 7;"
		"INSERT INTO rollup_hourly SELECT 'cxl_dram', wall_ns / 3600000000000,"
		" coalesce(boot, 0), source, synthetic, coalesce(severity, ''), coalesce(location, ''),"
		" count(*), min(wall_ns), max(wall_ns) FROM cxl_dram_decoded GROUP BY 2, 3, 4, 5, 6, 7;"
		"PRAGMA user_version = 11;";
	const char *count_pages = "SELECT count(DISTINCT location) FROM rollup_hourly"
				  " WHERE tbl = 'memory_failure_event'";
	struct ras_db_filter all_records = { .type_idx = -1, .include_synthetic = true };
	char err[512] = "";
	int64_t total = 0;
	bool same;
	sqlite3 *h;

	ras_db_close(*db);
	sqlite3_open(path, &h);
	tap_is_int(sqlite3_exec(h, v11, NULL, NULL, NULL), SQLITE_OK, "roll-ups keyed per page,"
		   " version 11 again");
	sqlite3_close(h);
	tap_ok(scalar(count_pages) > 500, "version 11: %lld memory-failure locations",
	       (long long)scalar(count_pages));
	/* Read before rasd upgrades it: those two tables are scanned, the lines are the same. */
	tap_ok(ras_db_open_reader(db, path, err, sizeof(err)) == 0, "read as version 11: %s", err);
	same = same_answer(*db, &all_records, &total);
	tap_ok(same && total == 8500, "version 11 read: the same lines and counts as a full scan"
	       " (%lld)", (long long)total);
	check_address_keys(*db);
	ras_db_close(*db);
	tap_ok(ras_db_open_writer(db, path, "test-boot", err, sizeof(err)) == 0, "reopened: %s", err);
	tap_ok(scalar(count_pages) <= 15, "upgraded: %lld memory-failure summary locations",
	       (long long)scalar(count_pages));
	check_windows(*db, "upgraded from version 11", seed);
	check_address_keys(*db);
}

/* Every row of a table as sorted text lines, one string (the caller frees it). */
static char *table_text(const char *table)
{
	char sql[160], *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	sqlite3_stmt *st;
	sqlite3 *h;

	if (!f)
		return NULL;
	sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL);
	snprintf(sql, sizeof(sql), "SELECT * FROM %s ORDER BY 1, 2, 3, 4, 5, 6, 7", table);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (int c = 0; c < sqlite3_column_count(st); c++)
				fprintf(f, "|%d:%s", sqlite3_column_type(st, c),
					(const char *)sqlite3_column_text(st, c));
			fputc('\n', f);
		}
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	fclose(f);
	return out;
}

static uint64_t next_rnd(uint64_t *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return *seed >> 17;
}

/* The roll-ups' fast paths against the plain ways, on random bytes and texts. */
static void check_fast_paths(uint64_t *seed)
{
	unsigned bad_hash = 0, bad_same = 0;

	for (unsigned t = 0; t < 4000; t++) {
		char buf[160], a[64] = "", b[64] = "";
		size_t n = next_rnd(seed) % sizeof(buf);
		uint64_t h0 = next_rnd(seed), slow = h0;

		for (size_t i = 0; i < n; i++)
			buf[i] = (char)(next_rnd(seed) % 4 ? next_rnd(seed) % 256 : 0);
		for (size_t i = 0; i < n; i++)
			slow = (slow ^ (unsigned char)buf[i]) * 0x100000001b3ULL;
		bad_hash += ras_db_fnv_bytes(h0, buf, n) != slow;
		/* Texts of 0 to 40 bytes from three letters: many share their first 16. */
		for (size_t i = 0, la = next_rnd(seed) % 41, lb = t % 3 ? la : next_rnd(seed) % 41;
		     i < la || i < lb; i++) {
			char c = (char)('a' + next_rnd(seed) % 3);

			if (i < la)
				a[i] = c;
			if (i < lb)
				b[i] = next_rnd(seed) % 40 ? c : 'a';
		}
		bad_same += ras_db_same_field16(a, b) != !strcmp(a, b);
	}
	tap_is_int(bad_hash, 0, "FNV-1a eight bytes a round equals a byte at a time (4000 random strings)");
	tap_is_int(bad_same, 0, "padded fields compared 16 bytes first agree with strcmp (4000 pairs)");
}

int main(void)
{
	struct ras_db *db;
	uint64_t seed = 42;
	char err[512] = "";
	int64_t deleted = 0, total = 0;
	bool same;
	char *hourly, *recounted;
	struct ras_db_filter all = { .type_idx = -1, .include_synthetic = true };
	sqlite3 *h;

	test_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/ras.db", dir);
	if (!tap_ok(ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) == 0, "db: %s", err))
		return tap_done();
	fill(db, 6000, &seed);
	fill_addresses(db, 1500, &seed);
	check_windows(db, "live roll-ups", &seed);
	check_columns(db, &seed);
	check_address_keys(db);
	check_fast_paths(&seed);
	ras_db_close(db);
	hourly = table_text("rollup_hourly");

	/* A database from before the roll-ups: they are counted from its rows on upgrade. */
	sqlite3_open(path, &h);
	tap_is_int(sqlite3_exec(h, "DROP TABLE rollup_hourly; PRAGMA user_version = 5;", NULL, NULL,
				NULL), SQLITE_OK, "roll-ups removed, version 5 again");
	sqlite3_close(h);
	tap_ok(ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) == 0, "reopened: %s", err);
	check_windows(db, "upgraded from version 5", &seed);
	recounted = table_text("rollup_hourly");
	tap_ok(hourly && recounted && !strcmp(hourly, recounted) && strlen(hourly) > 1000,
	       "the hourly roll-up counted batch by batch equals a recount from the rows, row for row");
	free(hourly);
	free(recounted);
	fill(db, 1000, &seed);
	same = same_answer(db, &all, &total);
	tap_ok(same && total == 8500, "records added after the upgrade count once (%lld)",
	       (long long)total);
	check_rekey_upgrade(&db, &seed);

	/* A purge deletes rows; the counts follow. */
	tap_is_int(ras_db_edac_purge(db, -1, NULL, 0, T0 + 24 * HOUR, &deleted), 0, "purge");
	same = same_answer(db, &all, &total);
	tap_ok(deleted > 0 && same, "after purging %lld mc_event rows, the roll-ups still equal a"
	       " full scan", (long long)deleted);
	ras_db_close(db);
	test_rmtree(dir);
	return tap_done();
}
