/* SPDX-License-Identifier: MIT */
/*
 * The EDAC and metrics roll-ups give exactly a full scan's answers. Three
 * boots (one without an EDAC snapshot) store mc_event, mce_record and
 * aer_event records over two days, with snapshots taken inside hours and on
 * hour boundaries, varied controllers, layers, error types and counts. The
 * counts behind edac, edac --report and summary --by dimm (every filter they
 * take: since, until, boot, synthetic, and counting-window bounds) are
 * compared with a scan for hundreds of windows, and the metrics with a scan;
 * again after a version-9 database is upgraded to 10, and after a purge.
 */
#include <sqlite3.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_edac.h"
#include "db/db_metrics.h"
#include "db/db_query.h"
#include "lib/decode.h"
#include "lib/event_fields.h"
#include "tap.h"
#include "test_util.h"

#define HOUR 3600000000000LL
#define T0 1795000000000000000LL   /* on no hour boundary */

static char dir[256], path[512];

static uint64_t rnd(uint64_t *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return *seed >> 11;
}

static int type_of(const char *table)
{
	return (int)(ras_event_type_find(table) - ras_event_types);
}

/* One record of a random type at a random time of the two days. */
static void add_record(struct ras_db *db, uint64_t *seed, unsigned i)
{
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS];
	static const char *const sources[] = { "live", "live", "boot", "synthetic" };
	static const char *const types[] = { "mc_event", "mc_event", "mce_record", "aer_event" };
	static const char *const devs[] = { "0000:00:1c.0", "0000:3a:00.0", "" };
	uint64_t r = rnd(seed);
	struct ras_decoded_head *h = (void *)decoded;
	int type = type_of(types[r % 4]);

	memset(v, 0, sizeof(v));
	memset(decoded, 0, sizeof(decoded));
	h->severity = (r >> 3) % 7 ? RAS_SEV_CORRECTED : RAS_SEV_UNCORRECTED;
	snprintf(h->location, sizeof(h->location), "slot %u", (unsigned)(r >> 5) % 3);
	for (unsigned k = 0; k < ras_event_types[type].n_fields; k++) {
		v[k].present = (r >> (k % 40)) % 9 != 0;   /* some fields absent */
		v[k].i = (int64_t)((r >> (k % 30)) % 3);
	}
	if (type == type_of("mc_event")) {
		v[MC_F_ERROR_COUNT].i = (int64_t)(rnd(seed) % 5);
		/* Few keys, so that an hour's roll-up row holds records on both sides of a cut. */
		v[MC_F_TOP_LAYER].i = (int64_t)(rnd(seed) % 3) - 1;
		v[MC_F_MC_INDEX] = (struct ras_value){ .present = rnd(seed) % 20 != 0, .i = (int64_t)(r % 2) };
		v[MC_F_MIDDLE_LAYER] = (struct ras_value){ .present = true, .i = 0 };
		v[MC_F_LOWER_LAYER] = (struct ras_value){ .present = r % 30 != 0, .i = -1 };
		v[MC_F_ERROR_TYPE] = (struct ras_value){ .present = true, .i = (r >> 20) % 10 ? 0 : 1 };
		v[MC_F_LABEL] = (struct ras_value){ .present = r % 5 != 0, .p = r % 7 ? "DIMM_A1" : "",
						    .len = r % 7 ? 7 : 0 };
		/* The decoder's label (a configured one) over the kernel's, where it has one. */
		for (size_t d = 0; d < *ras_event_types[type].n_dfields; d++)
			if (!strcmp(ras_event_types[type].dfields[d].name, "label") && r % 3 == 0)
				snprintf((char *)decoded + ras_event_types[type].dfields[d].offset,
					 ras_event_types[type].dfields[d].size, "CPU0_DIMM_B%u",
					 (unsigned)(r >> 7) % 2);
		v[MC_F_MSG] = v[MC_F_ADDRESS] = v[MC_F_DRIVER_DETAIL] = (struct ras_value){ 0 };
		v[MC_F_SYNDROME] = (struct ras_value){ 0 };
	}
	if (type == type_of("aer_event")) {
		const char *d = devs[rnd(seed) % 3];

		v[AER_F_DEV_NAME] = (struct ras_value){ .present = true, .p = d, .len = (uint32_t)strlen(d) };
		v[AER_F_TLP_HEADER] = (struct ras_value){ 0 };
	}
	struct ras_db_event ev = {
		.type_idx = (unsigned)type, .wall_ns = T0 + (int64_t)(rnd(seed) % (48 * HOUR)),
		.trace_ts = i, .trace_cpu = (int)(r % 2), .source = sources[(r >> 12) % 4],
		.synthetic = (r >> 12) % 4 == 3, .rec_hash = *seed, .values = v, .decoded = decoded,
	};
	/* Batches of 2500 hold more keys than the in-memory roll-up has slots: it flushes mid-batch. */
	if (i % 2500 == 0)
		ras_db_commit(db);
	ras_db_begin(db);
	ras_db_insert_event(db, &ev);
}

/* A boot's records, with snapshots taken at the given times (0 ends the list). */
static void fill_boot(const char *boot, const int64_t *snap_at, unsigned n, uint64_t *seed)
{
	struct edac_mc mc = { .index = 0, .mc_name = "test" };
	struct edac_topology t = { .mcs = &mc, .n_mcs = 1 };
	struct ras_db *db;
	char err[256];

	if (ras_db_open_writer(&db, path, boot, err, sizeof(err)) < 0) {
		tap_diag("%s", err);
		return;
	}
	for (unsigned k = 0; snap_at[k]; k++)
		ras_db_edac_store_snapshot(db, &t, (uint64_t)k, "board", snap_at[k]);
	for (unsigned i = 0; i < n; i++)
		add_record(db, seed, i);
	ras_db_commit(db);
	ras_db_close(db);
}

struct lines {
	char **v;
	size_t n;
};

static void lines_add(struct lines *l, const char *s)
{
	l->v = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = strdup(s);
}

static int collect(void *ctx, const struct ras_db_edac_count *c)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%lld|%d|%d|%d|%d|%d|%u|%lld|%lld|%lld", (long long)c->snapshot,
		 c->mc, c->top, c->mid, c->low, c->error_type, c->segment, (long long)c->errors,
		 (long long)c->records, (long long)c->last_ns);
	lines_add(ctx, buf);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The n-th '|'-separated field of a line, as a number. */
static long long field(const char *line, unsigned n)
{
	while (n-- && (line = strchr(line, '|')))
		line++;
	return line ? atoll(line) : 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static bool same_lines(struct lines *a, struct lines *b, int64_t *records)
{
	bool same = a->n == b->n;

	if (a->n)
		qsort(a->v, a->n, sizeof(*a->v), cmp_str);
	if (b->n)
		qsort(b->v, b->n, sizeof(*b->v), cmp_str);
	for (size_t i = 0; same && i < a->n; i++)
		if (strcmp(a->v[i], b->v[i])) {
			tap_diag("roll-up %s / scan %s", a->v[i], b->v[i]);
			same = false;
		}
	if (a->n != b->n)
		tap_diag("roll-up %zu groups, scan %zu", a->n, b->n);
	for (size_t i = 0; records && i < b->n; i++)
		*records += field(b->v[i], 8);
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	for (size_t i = 0; i < b->n; i++)
		free(b->v[i]);
	free(a->v);
	free(b->v);
	*a = *b = (struct lines){ 0 };
	return same;
}

static bool same_counts(struct ras_db *db, const struct ras_db_filter *f, const int64_t *bounds,
			unsigned n_bounds, int64_t *records)
{
	struct lines a = { 0 }, b = { 0 };
	int ra = ras_db_edac_counts(db, f, bounds, n_bounds, collect, &a);
	int rb = ras_db_edac_counts_scan(db, f, bounds, n_bounds, collect, &b);

	if (ra || rb)
		tap_diag("counts: %d, scan: %d (%s)", ra, rb, ras_db_errmsg(db));
	return same_lines(&a, &b, records) && !ra && !rb;
}

/* Metrics printed from the roll-ups (a fresh struct) and from a scan of every row. */
static bool same_metrics(struct ras_db *db)
{
	struct ras_metrics a, b;
	char *ta = NULL, *tb = NULL;
	size_t la = 0, lb = 0;
	FILE *fa = open_memstream(&ta, &la), *fb = open_memstream(&tb, &lb);
	bool same;

	ras_metrics_init(&a);
	ras_metrics_init(&b);
	/* seen_id -1: "rows after -1", every row read from the table, never from a roll-up. */
	for (unsigned i = 0; i < RAS_METRICS_TYPES; i++)
		b.seen_id[i] = -1;
	ras_db_metrics_collect(db, &a);
	ras_db_metrics_collect(db, &b);
	ras_metrics_print(&a, 1000, RAS_MFMT_OPENMETRICS, fa);
	ras_metrics_print(&b, 1000, RAS_MFMT_OPENMETRICS, fb);
	fclose(fa);
	fclose(fb);
	same = la == lb && !memcmp(ta, tb, la) && la > 1000;
	if (!same)
		tap_diag("metrics differ:\n%s\n--- scan ---\n%s", ta, tb);
	free(ta);
	free(tb);
	ras_metrics_free(&a);
	ras_metrics_free(&b);
	return same;
}

/* status: each table's rows and newest time, from the roll-ups, against count(*) and max(). */
static bool same_status(struct ras_db *db)
{
	sqlite3 *h;
	bool same = true;

	sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL);
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		int64_t rows = -1, last = -1, want_rows = 0, want_last = 0;
		char sql[256];
		sqlite3_stmt *st;

		snprintf(sql, sizeof(sql), "SELECT count(*), coalesce(max(wall_ns), 0) FROM %s",
			 ras_event_types[i].table);
		if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
			continue;  /* a table this database does not have */
		if (sqlite3_step(st) == SQLITE_ROW) {
			want_rows = sqlite3_column_int64(st, 0);
			want_last = sqlite3_column_int64(st, 1);
		}
		sqlite3_finalize(st);
		ras_db_table_stats(db, i, &rows, &last);
		if (rows != want_rows || last != want_last) {
			tap_diag("%s: %lld rows, newest %lld; a scan: %lld, %lld", ras_event_types[i].table,
				 (long long)rows, (long long)last, (long long)want_rows, (long long)want_last);
			same = false;
		}
	}
	sqlite3_close(h);
	return same;
}

/* Some stored records' times: a window end or a reset exactly at a record is a case of its own. */
static unsigned record_times(int64_t *out, unsigned cap)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	unsigned n = 0;

	sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL);
	if (sqlite3_prepare_v2(h, "SELECT wall_ns FROM mc_event ORDER BY rec_hash LIMIT ?", -1, &st,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_int(st, 1, (int)cap);
		while (n < cap && sqlite3_step(st) == SQLITE_ROW)
			out[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

/*
 * The roll-up tables a writer keeps batch by batch (counted in memory as
 * records are inserted), one sorted line per row with each value's type.
 */
static char *dump_rollups(void)
{
	static const char *const tables[] = { "rollup_edac", "rollup_subjects", "rollup_totals" };
	struct lines l = { 0 };
	size_t len = 1, at = 0;
	char *out;
	sqlite3 *h;

	sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL);
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		char sql[128], line[1024];
		sqlite3_stmt *st;

		snprintf(sql, sizeof(sql), "SELECT * FROM %s", tables[t]);
		if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
			continue;
		while (sqlite3_step(st) == SQLITE_ROW) {
			int n = snprintf(line, sizeof(line), "%s", tables[t]);

			for (int c = 0; c < sqlite3_column_count(st) && n < (int)sizeof(line); c++)
				n += snprintf(line + n, sizeof(line) - (size_t)n, "|%d:%s",
					      sqlite3_column_type(st, c),
					      (const char *)sqlite3_column_text(st, c));
			lines_add(&l, line);
		}
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	qsort(l.v, l.n, sizeof(*l.v), cmp_str);
	for (size_t i = 0; i < l.n; i++)
		len += strlen(l.v[i]) + 1;
	out = calloc(1, len);
	for (size_t i = 0; i < l.n; i++) {
		at += (size_t)sprintf(out + at, "%s\n", l.v[i]);
		free(l.v[i]);
	}
	free(l.v);
	return out;
}

static void check(struct ras_db *db, const char *when, uint64_t *seed)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	int64_t bounds[4], records = 0, at[64];
	unsigned bad = 0, n_at = record_times(at, 64);

	bool same = same_counts(db, &f, NULL, 0, &records);

	tap_ok(same && records > 0, "%s: EDAC counts of the whole history equal a full scan"
	       " (%lld records)", when,
	       (long long)records);
	for (unsigned i = 0; i < 400; i++) {
		int64_t a = T0 - HOUR + (int64_t)(rnd(seed) % (50 * HOUR));
		int64_t b = a + (int64_t)(rnd(seed) % (i % 3 ? 20 * HOUR : HOUR));
		unsigned nb = i % 5;

		if (i % 10 == 1)
			a = (a / HOUR) * HOUR;
		if (i % 10 == 2)
			b = (b / HOUR + 1) * HOUR;
		if (i % 6 == 5 && n_at)
			a = at[i % n_at];
		if (i % 8 == 3 && n_at && at[(i + 7) % n_at] > a)
			b = at[(i + 7) % n_at];
		for (unsigned k = 0; k < nb; k++) {
			bounds[k] = T0 + (int64_t)(rnd(seed) % (48 * HOUR));
			if (k == 1)
				bounds[k] = (bounds[k] / HOUR) * HOUR;   /* a reset on the hour */
			if (k == 2 && n_at)
				bounds[k] = at[(i * 3) % n_at];           /* a reset at a record */
		}
		qsort(bounds, nb, sizeof(bounds[0]), cmp_i64);
		f = (struct ras_db_filter){ .type_idx = -1, .since_ns = i % 7 ? a : 0,
					    .until_ns = i % 11 ? b : 0, .include_synthetic = i % 2,
					    .boot_id = i % 4 == 3 ? "boot-3" : i % 13 ? NULL : "boot-2" };
		bad += !same_counts(db, &f, bounds, nb, NULL);
	}
	tap_is_int(bad, 0, "%s: 400 windows (cut hours, boundaries, one hour, open ends, boots,"
		   " synthetic, counting windows) equal a full scan", when);
	tap_ok(same_metrics(db), "%s: metrics (records, DIMM/CPU/PCIe series) equal a full scan", when);
	tap_ok(same_status(db), "%s: status (rows and newest record per table) equals a full scan", when);
}

int main(void)
{
	/* Boot 1: snapshots inside an hour, on an hour and later; boot 2: none; boot 3: one. */
	const int64_t snaps1[] = { T0 + 2 * HOUR + 77, ((T0 + 9 * HOUR) / HOUR) * HOUR,
				   T0 + 30 * HOUR + 5, 0 };
	const int64_t snaps2[] = { 0 };
	const int64_t snaps3[] = { T0 + 20 * HOUR + 123456789, 0 };
	struct ras_db_filter all = { .type_idx = -1, .include_synthetic = true };
	struct ras_db *db;
	uint64_t seed = 7;
	int64_t deleted = 0, before = 0, after = 0;
	char err[512], *live, *rebuilt;
	sqlite3 *h;

	test_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/ras.db", dir);
	fill_boot("boot-1", snaps1, 3000, &seed);
	fill_boot("boot-2", snaps2, 1500, &seed);
	fill_boot("boot-3", snaps3, 1500, &seed);
	if (!tap_ok(ras_db_open_writer(&db, path, "boot-3", err, sizeof(err)) == 0, "db: %s", err))
		return tap_done();
	check(db, "live roll-ups", &seed);
	same_counts(db, &all, NULL, 0, &before);
	ras_db_close(db);
	live = dump_rollups();

	/* A version-9 database (no EDAC or subject roll-ups): upgraded, its records kept and counted. */
	sqlite3_open(path, &h);
	tap_is_int(sqlite3_exec(h, "DROP TABLE rollup_edac; DROP TABLE rollup_subjects;"
				" DROP TABLE rollup_totals;"
				" PRAGMA user_version = 9;", NULL, NULL, NULL), SQLITE_OK,
		   "roll-ups removed, version 9 again");
	sqlite3_close(h);
	tap_ok(ras_db_open_writer(&db, path, "boot-3", err, sizeof(err)) == 0, "upgraded: %s", err);
	same_counts(db, &all, NULL, 0, &after);
	tap_ok(after == before && after > 0, "the upgrade kept every record (%lld, before %lld)",
	       (long long)after, (long long)before);
	check(db, "upgraded from version 9", &seed);
	/* The upgrade recounted them from the rows with GROUP BY: row for row, value for value. */
	rebuilt = dump_rollups();
	tap_ok(!strcmp(live, rebuilt) && strlen(live) > 1000,
	       "the roll-ups counted batch by batch (EDAC, subjects, totals) equal a recount from the rows");
	if (strcmp(live, rebuilt))
		tap_diag("live:\n%s\n--- recounted ---\n%s", live, rebuilt);
	free(live);
	free(rebuilt);
	for (unsigned i = 0; i < 700; i++)
		add_record(db, &seed, i);
	ras_db_commit(db);
	check(db, "records added after the upgrade", &seed);

	/* A purge deletes rows; the counts follow. */
	tap_is_int(ras_db_edac_purge(db, -1, NULL, 0, T0 + 24 * HOUR, &deleted), 0, "purge");
	tap_ok(deleted > 0, "purged %lld mc_event rows", (long long)deleted);
	check(db, "after a purge", &seed);
	ras_db_close(db);
	test_rmtree(dir);
	return tap_done();
}
