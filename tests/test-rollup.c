/* SPDX-License-Identifier: MIT */
/*
 * Hourly roll-ups give exactly a full scan's counts: records of several
 * types, severities, locations, sources and boots spread over two days are
 * summarised for the whole history and for hundreds of random windows that
 * cut hours, start or end on an hour, or lie inside one; and again after a
 * database without roll-ups is upgraded and after a purge.
 */
#include <sqlite3.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_edac.h"
#include "db/db_query.h"
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
	return same;
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
		f = (struct ras_db_filter){ .type_idx = (int)(i % 3) - 1, .since_ns = i % 7 ? a : 0,
					    .until_ns = i % 11 ? b : 0, .include_synthetic = i % 2,
					    .boot_id = i % 13 ? NULL : "test-boot" };
		bad += !same_answer(db, &f, &total);
	}
	tap_is_int(bad, 0, "%s: 300 random windows (cut hours, boundaries, one hour, open ends,"
		   " ends at a record)"
		   " equal a full scan", when);
}

int main(void)
{
	struct ras_db *db;
	uint64_t seed = 42;
	char err[512];
	int64_t deleted = 0, total = 0;
	bool same;
	struct ras_db_filter all = { .type_idx = -1, .include_synthetic = true };
	sqlite3 *h;

	test_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/ras.db", dir);
	if (!tap_ok(ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) == 0, "db: %s", err))
		return tap_done();
	fill(db, 6000, &seed);
	check_windows(db, "live roll-ups", &seed);
	ras_db_close(db);

	/* A database from before the roll-ups: they are counted from its rows on upgrade. */
	sqlite3_open(path, &h);
	tap_is_int(sqlite3_exec(h, "DROP TABLE rollup_hourly; PRAGMA user_version = 5;", NULL, NULL,
				NULL), SQLITE_OK, "roll-ups removed, version 5 again");
	sqlite3_close(h);
	tap_ok(ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) == 0, "reopened: %s", err);
	check_windows(db, "upgraded from version 5", &seed);
	fill(db, 1000, &seed);
	same = same_answer(db, &all, &total);
	tap_ok(same && total == 7000, "records added after the upgrade count once (%lld)",
	       (long long)total);

	/* A purge deletes rows; the counts follow. */
	tap_is_int(ras_db_edac_purge(db, -1, NULL, 0, T0 + 24 * HOUR, &deleted), 0, "purge");
	same = same_answer(db, &all, &total);
	tap_ok(deleted > 0 && same, "after purging %lld mc_event rows, the roll-ups still equal a"
	       " full scan", (long long)deleted);
	ras_db_close(db);
	test_rmtree(dir);
	return tap_done();
}
