/* SPDX-License-Identifier: MIT */
/*
 * Storm folding keeps every count: one stream of decoded mc_event records (a
 * DIMM storm crossing the threshold, quieter DIMMs, uncorrected and synthetic
 * ones) is stored twice, with folding and without, the folding writer
 * restarted in the middle of a period. The folded database keeps the first
 * and the last K raw rows of each period; summaries of the whole history and
 * of hundreds of windows cutting hours, and the metrics (read from zero, and
 * incrementally after each commit as rasd reads them), equal the unfolded
 * ones. Then the age and size limits fold raw rows and the counts stay.
 * Memory failures and CXL DRAM errors (a location per page, per DPA) go
 * along: their summary lines, by page type and result, by device, are the
 * same folded or not.
 */
#include <errno.h>
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

#define SEC 1000000000LL
#define HOUR (3600 * SEC)
/*
 * Fixed, and far ahead of the clock (the age limit counts from the newest record,
 * not from a clock it lags): 1700 s into an hour of 2099, on no hour nor second.
 */
#define T0_S (1132000LL * 3600 + 1700)
static int64_t T0;
#define THRESHOLD 40
#define KEEP 5
#define STORM_RECORDS 9000                                   /* one every 2 s: 5 hours */
#define RESTART (STORM_RECORDS / 2 + 13)                     /* the folding writer reopens here */

static char dir[256];
static struct ras_decode_ctx dctx;
static struct ras_db_limits limits = {
	.fold_threshold = THRESHOLD, .fold_period_ns = HOUR, .fold_keep = KEEP, .page_size = 4096,
};

struct rec {
	int64_t wall_ns;
	unsigned mc, layer, error_type, count;
	uint64_t address, syndrome;
	bool synthetic;
};

/* The i-th record of the stream: mostly the storm, now and then another DIMM or an uncorrected one. */
static void record_at(unsigned i, struct rec *r)
{
	*r = (struct rec){ .wall_ns = T0 + (int64_t)i * 2 * SEC + (int64_t)(i % 7) * 1000003,
			   .mc = 0, .layer = 1, .count = 1 + (i % 3 == 0) * 2,
			   .address = 0x12345000 + (i % 2) * 0x40, .syndrome = 0x10 + i % 3 };
	if (i % 30 == 7) {
		r->mc = 1;
		r->layer = i % 4;
		r->synthetic = i % 60 == 37;
	}
	if (i % 300 == 11)
		r->error_type = 1;   /* uncorrected: never folded */
}

static void insert(struct ras_db *db, const struct rec *r, unsigned i, bool fold)
{
	char label[64];
	struct test_mc_rec m = {
		.error_type = r->error_type, .error_count = r->count, .mc_index = r->mc,
		.top_layer = r->layer, .address = (int64_t)r->address, .syndrome = (int64_t)r->syndrome,
		.label = label,
	};

	snprintf(label, sizeof(label), "DIMM_%c%u", 'A' + r->mc, r->layer);
	ras_db_begin(db);
	test_mc_insert(db, &dctx, &m, (struct ras_db_event){
		.wall_ns = r->wall_ns, .trace_ts = i, .source = r->synthetic ? "synthetic" : "live",
		.synthetic = r->synthetic, .rec_hash = i, .limits = fold ? &limits : NULL });
}

/*
 * Beside the EDAC storm, records whose location names an address: memory
 * failures on a new page each, CXL DRAM errors at one host page (a storm
 * that folds) and a new DPA each. Summarised per page type and result, per
 * device, folded or not (the folded ones through their stored decoding).
 */
static void insert_address(struct ras_db *db, unsigned i, bool fold)
{
	const struct ras_event_type *t = ras_event_type_find(i % 20 == 3 ? "memory_failure_event"
										: "cxl_dram");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	struct ras_db_event ev = {
		.type_idx = (unsigned)(t - ras_event_types),
		.wall_ns = T0 + (int64_t)i * 2 * SEC + 500000007, .trace_ts = 1000000 + i,
		.source = "live", .rec_hash = 1000000 + i, .values = v, .decoded = decoded,
		.limits = fold ? &limits : NULL,
	};

	test_set_field(t, v, "pfn", 0x40000 + i, NULL);
	test_set_field(t, v, "type", i % 2, NULL);
	test_set_field(t, v, "result", i / 20 % 3, NULL);
	test_set_field(t, v, "memdev", 0, "mem0");
	test_set_field(t, v, "host", 0, "0000:0d:00.0");
	test_set_field(t, v, "dpa", 0x1000 * (int64_t)i, NULL);
	test_set_field(t, v, "hpa", 0x7f0000040, NULL);
	test_set_field(t, v, "log", 1, NULL);   /* the Warning log: corrected, so the storm folds */
	ras_decode_values(t, v, &dctx, decoded);
	ras_db_begin(db);
	ras_db_insert_event(db, &ev);
}

/*
 * An AMD UMC's corrected DRAM errors on one rank (channel 3, chip select 2),
 * every one at another address with another syndrome: each decodes
 * differently, yet the storm folds into a row an hour.
 */
static void insert_mce(struct ras_db *db, unsigned i, bool fold)
{
	const struct ras_event_type *t = ras_event_type_find("mce_record");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	struct ras_db_event ev = {
		.type_idx = (unsigned)(t - ras_event_types),
		.wall_ns = T0 + (int64_t)i * 2 * SEC + 700000009, .trace_ts = 2000000 + i,
		.source = "live", .rec_hash = 2000000 + i, .values = v, .decoded = decoded,
		.limits = fold ? &limits : NULL,
	};

	/* VAL, EN, MiscV, AddrV, SyndV, CECC; a DRAM ECC read. */
	test_set_field(t, v, "status", (int64_t)0x9c20400000000000ULL | 0x011b, NULL);
	test_set_field(t, v, "addr", 0x1234000 + 0x40 * (int64_t)i, NULL);
	test_set_field(t, v, "synd", (int64_t)(0x100 + i % 97) << 32 | 16 << 18 | 2, NULL);
	test_set_field(t, v, "ipid", 0x9600350f00LL, NULL);
	test_set_field(t, v, "bank", 16, NULL);
	test_set_field(t, v, "cpuvendor", 2, NULL);
	test_set_field(t, v, "cpuid", 0xa00f11, NULL);
	test_set_field(t, v, "cpu", 1, NULL);
	test_set_field(t, v, "socketid", 0, NULL);
	ras_decode_values(t, v, &dctx, decoded);
	ras_db_begin(db);
	ras_db_insert_event(db, &ev);
}

/* Summary groups as "severity|location" with count, first and last. */
struct groups {
	char key[128][224];
	int64_t count[128], first[128], last[128];
	unsigned n;
};

static int collect(void *ctx, unsigned idx, const char *sev, const char *loc, int64_t count,
		   int64_t first, int64_t last)
{
	struct groups *g = ctx;

	if (g->n >= 128)
		return -ENOSPC;
	snprintf(g->key[g->n], sizeof(g->key[0]), "%s|%s|%s", ras_event_types[idx].table,
		 sev ? sev : "", loc ? loc : "");
	g->count[g->n] = count;
	g->first[g->n] = first;
	g->last[g->n++] = last;
	return 0;
}

/* Counts equal exactly; first and last within the second folded records keep. */
static bool same_summary(struct ras_db *folded, struct ras_db *plain, const struct ras_db_filter *f,
			 int64_t *total)
{
	struct groups a = { 0 }, b = { 0 };

	ras_db_summary(folded, f, collect, &a);
	ras_db_summary_scan(plain, f, collect, &b);
	*total = 0;
	if (a.n != b.n) {
		tap_diag("%u groups folded, %u unfolded", a.n, b.n);
		return false;
	}
	for (unsigned i = 0; i < b.n; i++) {
		unsigned j = 0;

		*total += b.count[i];
		while (j < a.n && strcmp(a.key[j], b.key[i]))
			j++;
		if (j == a.n || a.count[j] != b.count[i] || llabs(a.first[j] - b.first[i]) >= SEC ||
		    llabs(a.last[j] - b.last[i]) >= SEC) {
			tap_diag("%s: folded %lld, unfolded %lld", b.key[i], j < a.n ? (long long)a.count[j] : -1LL,
				 (long long)b.count[i]);
			return false;
		}
	}
	return true;
}

/* EDAC counts as groups: the roll-up's on the folded database, a scan's on the plain one. */
struct edac_groups {
	struct ras_db_edac_count c[256];
	unsigned n;
};

static int collect_edac(void *ctx, const struct ras_db_edac_count *c)
{
	struct edac_groups *g = ctx;

	if (g->n >= 256)
		return -ENOSPC;
	g->c[g->n++] = *c;
	return 0;
}

static bool same_edac_key(const struct ras_db_edac_count *a, const struct ras_db_edac_count *b)
{
	return a->snapshot == b->snapshot && a->mc == b->mc && a->top == b->top &&
	       a->mid == b->mid && a->low == b->low && a->error_type == b->error_type &&
	       a->segment == b->segment;
}

static int64_t edac_records_seen;   /* what the scans counted: the comparison is not empty */

static bool same_edac(struct ras_db *folded, struct ras_db *plain, const struct ras_db_filter *f,
		      const int64_t *bounds, unsigned nb)
{
	static struct edac_groups a, b;

	a.n = b.n = 0;
	if (ras_db_edac_counts(folded, f, bounds, nb, collect_edac, &a) < 0 ||
	    ras_db_edac_counts_scan(plain, f, bounds, nb, collect_edac, &b) < 0 || a.n != b.n) {
		tap_diag("EDAC: %u groups folded, %u unfolded (window %lld to %lld, %u bounds at %lld)",
			 a.n, b.n, (long long)f->since_ns, (long long)f->until_ns, nb,
			 nb ? (long long)bounds[0] : 0LL);
		return false;
	}
	for (unsigned i = 0; i < b.n; i++) {
		unsigned j = 0;

		edac_records_seen += b.c[i].records;
		while (j < a.n && !same_edac_key(&a.c[j], &b.c[i]))
			j++;
		if (j == a.n || a.c[j].errors != b.c[i].errors || a.c[j].records != b.c[i].records) {
			tap_diag("EDAC mc%d layer %d type %d segment %u: folded %lld errors, unfolded %lld"
				 " (window %lld to %lld, %u bounds at %lld)",
				 b.c[i].mc, b.c[i].top, b.c[i].error_type, b.c[i].segment,
				 j < a.n ? (long long)a.c[j].errors : -1LL, (long long)b.c[i].errors,
				 (long long)f->since_ns, (long long)f->until_ns, nb,
				 nb ? (long long)bounds[0] : 0LL);
			return false;
		}
	}
	return true;
}

static void check_windows(struct ras_db *folded, struct ras_db *plain, const char *when, unsigned n)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	uint64_t seed = 7;
	int64_t total = 0, bound;
	unsigned bad = 0, bad_edac = 0;

	bool same = same_summary(folded, plain, &f, &total);

	tap_ok(same, "%s: whole history counts equal (%lld records)", when, (long long)total);
	for (unsigned i = 0; i < n; i++) {
		int64_t a, b;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		/* Whole seconds, as ras-fdr-ctl gives them; some on an hour, some inside one. */
		a = (T0 / SEC - 1800 + (int64_t)((seed >> 20) % (6 * 3600))) * SEC;
		b = a + (int64_t)((seed >> 7) % (i % 3 ? 3 * 3600 : 1800)) * SEC + SEC;
		if (i % 10 == 1)
			a = a / HOUR * HOUR;
		if (i % 10 == 2)
			b = (b / HOUR + 1) * HOUR;
		f = (struct ras_db_filter){ .since_ns = i % 7 ? a : 0, .until_ns = i % 11 ? b : 0,
					    .type_idx = -1, .include_synthetic = i % 2 };
		bad += !same_summary(folded, plain, &f, &total);
		/* The EDAC counts too, their time line cut inside the window now and then. */
		bound = (a / SEC + (b - a) / SEC / 2) * SEC;
		bad_edac += !same_edac(folded, plain, &f, &bound, i % 4 == 0);
	}
	tap_is_int(bad, 0, "%s: %u windows cutting hours (whole seconds) count the same", when, n);
	tap_is_int(bad_edac, 0, "%s: EDAC counts (errors and records) of the %u windows equal a scan's"
		   " (%lld records)", when, n, (long long)edac_records_seen);
	tap_ok(edac_records_seen > 0, "%s: the EDAC windows held records", when);
	edac_records_seen = 0;
}

/* One number from a database file of the test, read through its own connection. */
static int64_t scalar(const char *name, const char *sql)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return test_sql_int(path, sql);
}

static bool same_metrics(const struct ras_metrics *a, const struct ras_metrics *b, const char *what)
{
	if (memcmp(a->records, b->records, sizeof(a->records))) {
		tap_diag("%s: record counts differ", what);
		return false;
	}
	for (unsigned d = 0; d < RAS_MDIM_COUNT_; d++) {
		if (a->n_subjects[d] != b->n_subjects[d]) {
			tap_diag("%s: dimension %u: %u subjects, %u", what, d, a->n_subjects[d], b->n_subjects[d]);
			return false;
		}
		for (unsigned i = 0; i < b->n_subjects[d]; i++)
			for (unsigned s = 0; s < RAS_SEV_COUNT; s++)
				for (unsigned src = 0; src < RAS_MSRC_COUNT_; src++)
					if (ras_metrics_subject_count(a, d, b->subjects[d][i].key,
								      b->subjects[d][i].key2, s, src) !=
					    b->subjects[d][i].count[s][src]) {
						tap_diag("%s: %s differs", what, b->subjects[d][i].key);
						return false;
					}
	}
	return !memcmp(a->last_ns, b->last_ns, sizeof(a->last_ns));
}

/*
 * Raw storm rows per hour: the first and last KEEP of a period past the
 * threshold, else all. In the hour of the restart: when the storm had crossed
 * the threshold before it, the new writer goes on folding (at most the old
 * writer's first and last KEEP, the new one's last KEEP, and a batch's few
 * more); when it had not, the old writer's rows stay and the new one counts
 * from zero (at most THRESHOLD + 2 KEEP).
 */
static void check_raw_rows(int64_t restart_ns)
{
	const char *q = "SELECT count(*) FROM mc_event WHERE mc_index = 0 AND error_type = 0"
			" AND wall_ns >= %lld AND wall_ns < %lld";
	int64_t restart_hour = restart_ns / HOUR;
	unsigned bad = 0, periods = 0;
	char sql[512];

	for (int64_t h = T0 / HOUR; h <= (T0 + STORM_RECORDS * 2 * SEC) / HOUR; h++) {
		int64_t raw, all, before, most;

		snprintf(sql, sizeof(sql), q, (long long)(h * HOUR), (long long)((h + 1) * HOUR));
		raw = scalar("folded.db", sql);
		all = scalar("plain.db", sql);
		periods++;
		if (h != restart_hour) {
			if (raw != (all > THRESHOLD ? 2 * KEEP : all)) {
				tap_diag("hour %lld: %lld raw rows of %lld", (long long)h, (long long)raw,
					 (long long)all);
				bad++;
			}
			continue;
		}
		snprintf(sql, sizeof(sql), q, (long long)(h * HOUR), (long long)restart_ns + 1);
		before = scalar("plain.db", sql);
		most = before > THRESHOLD ? 4 * KEEP : THRESHOLD + 2 * KEEP;
		if (raw > most || raw < (all > THRESHOLD ? 2 * KEEP : all)) {
			tap_diag("hour of the restart %lld: %lld raw rows of %lld (%lld before the restart)",
				 (long long)h, (long long)raw, (long long)all, (long long)before);
			bad++;
		}
	}
	tap_ok(periods >= 5 && !bad, "the storm keeps its first and last %d raw rows in each of %u"
	       " hours (a few more in the hour of the restart, fewer once it crossed)", KEEP, periods);
}

/* Folded periods listed by ras_db_errors, with the raw rows, stand for every record. */
static int count_listed(void *ctx, const struct ras_db_row *row)
{
	*(int64_t *)ctx += row->fold ? row->fold->records : 1;
	return 0;
}

/*
 * Rows committed past a storm's last KEEP are folded 64 at a time (a
 * trickle's commit then deletes none): until the storm's period ends or
 * rasd stops, its last hour keeps between KEEP and KEEP + 63 more. Stopping
 * folds them (ras_db_fold_settle), in a commit of its own.
 */
static void check_waiting(struct ras_db *folded)
{
	const char *q = "SELECT count(*) FROM mc_event WHERE mc_index = 0 AND error_type = 0"
			" AND wall_ns >= %lld";
	int64_t last = (T0 + (STORM_RECORDS - 1) * 2 * SEC) / HOUR * HOUR, before, after;
	char sql[256];
	int r;

	snprintf(sql, sizeof(sql), q, (long long)last);
	before = scalar("folded.db", sql);
	r = ras_db_fold_settle(folded);
	after = scalar("folded.db", sql);
	tap_ok(before > 2 * KEEP && before < 2 * KEEP + 64 && r == 0 && after == 2 * KEEP,
	       "the storm's last hour keeps %lld raw rows, %d and up to 63 waiting; after the"
	       " stop's settle %lld", (long long)before, 2 * KEEP, (long long)after);
}

static void store_stream(struct ras_db **folded, struct ras_db *plain, struct ras_metrics *live)
{
	for (unsigned i = 0; i < STORM_RECORDS; i++) {
		struct rec r;

		record_at(i, &r);
		insert(*folded, &r, i, true);
		insert(plain, &r, i, false);
		if (i % 10 == 3) {
			insert_address(*folded, i, true);
			insert_address(plain, i, false);
		}
		if (i % 10 == 5) {
			insert_mce(*folded, i, true);
			insert_mce(plain, i, false);
		}
		if (i % 100 != 99 && i != RESTART)
			continue;
		ras_db_commit(*folded);
		ras_db_commit(plain);
		ras_db_metrics_collect(*folded, live);   /* as rasd does after each commit */
		ras_db_release_memory(*folded);          /* and when it goes idle */
		if (i == RESTART) {
			ras_db_fold_settle(*folded);   /* as rasd does before it stops */
			ras_db_close(*folded);
			*folded = test_db_open(dir, "folded.db");
			ras_metrics_reset_counts(live);   /* a new rasd reads from zero */
		}
	}
	ras_db_commit(*folded);
	ras_db_commit(plain);
	ras_db_metrics_collect(*folded, live);
	check_waiting(*folded);
	ras_db_metrics_collect(*folded, live);
}

/* Raw rows of every table the stream writes. */
#define RAW_ROWS_ALL "SELECT (SELECT count(*) FROM mc_event) + (SELECT count(*) FROM memory_failure_event)" \
		     " + (SELECT count(*) FROM cxl_dram) + (SELECT count(*) FROM mce_record)"

static void check_limits(struct ras_db *folded, struct ras_db *plain)
{
	struct ras_db_limits aged = limits;
	int64_t before = scalar("folded.db", "SELECT count(*) FROM mc_event"), after;
	struct rec r;

	/* Keep an hour of raw records, measured from the newest (they are dated ahead). */
	aged.keep_raw_ns = HOUR;
	limits = aged;
	for (unsigned i = 0; i < 40; i++) {
		record_at(STORM_RECORDS + i, &r);
		insert(folded, &r, STORM_RECORDS + i, true);
		insert(plain, &r, STORM_RECORDS + i, false);
		ras_db_commit(folded);
		ras_db_commit(plain);
	}
	after = scalar("folded.db", "SELECT count(*) FROM mc_event");
	tap_ok(after < before && scalar("folded.db", "SELECT count(*) FROM mc_event WHERE wall_ns <"
					" (SELECT max(wall_ns) FROM mc_event) - 3600000000000") == 0,
	       "keep_raw: raw rows older than an hour are gone (%lld raw rows, were %lld)",
	       (long long)after, (long long)before);
	check_windows(folded, plain, "after the age limit", 100);

	/* A size limit the database is already over: each commit folds the oldest raw rows,
	 * of whichever table holds them (the address storm's tables are older than mc_event's). */
	limits.keep_raw_ns = 0;
	limits.max_db_bytes = 1;
	before = scalar("folded.db", RAW_ROWS_ALL);
	for (unsigned i = 0; i < 2; i++) {
		record_at(STORM_RECORDS + 40 + i, &r);
		insert(folded, &r, STORM_RECORDS + 40 + i, true);
		insert(plain, &r, STORM_RECORDS + 40 + i, false);
		ras_db_commit(folded);
		ras_db_commit(plain);
	}
	after = scalar("folded.db", RAW_ROWS_ALL);
	tap_ok(after < before, "max_db_size: the oldest raw rows are folded (%lld raw rows, were %lld)",
	       (long long)after, (long long)before);
	check_windows(folded, plain, "after the size limit", 100);
}

/*
 * What this thread wrote: a commit's log writes, not the checkpointer's
 * (a thread of its own copies the log into the database every 4 MiB of log,
 * in whichever commit's time that falls).
 */
static int64_t bytes_written(void)
{
	FILE *f = fopen("/proc/thread-self/io", "re");
	long long n = -1;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "wchar: %lld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/*
 * A storm's folds row grows by a byte a record all hour. A commit must write
 * the pages it changed, not the whole row again: one DIMM's errors, 200 a
 * second for 300 s, a commit a second. The bytes written per commit with the
 * row's seconds near 60 KB stay within twice those near 6 KB.
 */
static void check_times_in_place(void)
{
	struct ras_db *db = test_db_open(dir, "times.db");
	int64_t hour = (T0 / HOUR + 12) * HOUR, early = 0, late = 0;
	unsigned i = 0;

	for (unsigned s = 0; db && s < 300; s++) {
		int64_t before = bytes_written();

		for (unsigned k = 0; k < 200; k++, i++) {
			struct rec r = { .wall_ns = hour + s * SEC + k * 4999, .layer = 1, .count = 1,
					 .address = 0x12345000, .syndrome = 0x10 };

			insert(db, &r, 5000000 + i, true);
		}
		ras_db_commit(db);
		if (s >= 30 && s < 50)
			early += bytes_written() - before;
		else if (s >= 280)
			late += bytes_written() - before;
	}
	ras_db_close(db);
	tap_is_int(scalar("times.db", "SELECT (SELECT count(*) FROM mc_event) +"
				      " (SELECT sum(records) FROM folds)"), 60000, "60,000 records, every one counted");
	tap_ok(early > 0 && late <= 2 * early,
	       "a commit late in the storm writes %lld bytes, early on %lld: the row is not rewritten whole",
	       (long long)late / 20, (long long)early / 20);
}

int main(void)
{
	struct ras_db *folded, *plain;
	struct ras_metrics live, fresh, want;
	struct ras_db_filter all = { .type_idx = -1, .include_synthetic = true, .with_folds = true };
	int64_t listed = 0, folds;
	int64_t restart_ns;
	struct rec r;

	/*
	 * Where the stream starts in its hour decides which hours and windows it
	 * cuts: fixed, so a run repeats, and chosen so the writer restarts 74 s
	 * before an hour ends (a restarted writer must go on folding the storm,
	 * not keep fold_threshold raw rows again). TEST_FOLD_T0 tries another.
	 */
	T0 = getenv("TEST_FOLD_T0") ? strtoll(getenv("TEST_FOLD_T0"), NULL, 10) : T0_S;
	tap_diag("TEST_FOLD_T0=%lld", (long long)T0);
	T0 = T0 * SEC + 567890123;
	test_tmpdir(dir, sizeof(dir));
	ras_decode_ctx_init(&dctx);
	ras_metrics_init(&live);
	ras_metrics_init(&fresh);
	ras_metrics_init(&want);
	folded = test_db_open(dir, "folded.db");
	plain = test_db_open(dir, "plain.db");
	if (!tap_ok(folded && plain, "databases opened"))
		return tap_done();
	record_at(RESTART, &r);
	restart_ns = r.wall_ns;
	store_stream(&folded, plain, &live);
	folds = scalar("folded.db", "SELECT count(*) FROM folds");
	tap_ok(folds > 0 && scalar("folded.db", "SELECT sum(records) FROM folds WHERE tbl = 'mc_event'") +
			    scalar("folded.db", "SELECT count(*) FROM mc_event") ==
			    scalar("plain.db", "SELECT count(*) FROM mc_event"),
	       "%lld folds rows and the raw rows add up to every record", (long long)folds);
	check_raw_rows(restart_ns);
	tap_ok(ras_db_slot_bytes(folded) > 0, "the batch's slots are there after a commit (%zu bytes)",
	       ras_db_slot_bytes(folded));
	ras_db_release_memory(folded);
	tap_is_int((int64_t)ras_db_slot_bytes(folded), 0,
		   "going idle after batches of 100 records frees them (taken again at each batch above)");
	check_windows(folded, plain, "folded storm", 300);
	ras_db_metrics_collect(folded, &fresh);
	ras_db_metrics_collect(plain, &want);
	tap_ok(same_metrics(&fresh, &want, "from zero"), "metrics read from zero equal the unfolded ones");
	tap_ok(same_metrics(&live, &want, "after each commit"),
	       "metrics read after each commit (as rasd does) equal the unfolded ones");
	tap_ok(scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'cxl_dram'") > 0 &&
	       scalar("folded.db", "SELECT sum(records) FROM folds WHERE tbl = 'cxl_dram'") +
	       scalar("folded.db", "SELECT count(*) FROM cxl_dram") ==
	       scalar("plain.db", "SELECT count(*) FROM cxl_dram"),
	       "the CXL DRAM storm at one host page is folded too, every record counted");
	/* A storm's records that each decode (or sit) differently still fold into a row an hour. */
	tap_ok(scalar("folded.db", "SELECT sum(records) FROM folds WHERE tbl = 'mce_record'") +
	       scalar("folded.db", "SELECT count(*) FROM mce_record") ==
	       scalar("plain.db", "SELECT count(*) FROM mce_record") &&
	       scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'mce_record'") > 0 &&
	       scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'mce_record'") <=
	       2 * scalar("folded.db", "SELECT count(DISTINCT hour) FROM folds WHERE tbl = 'mce_record'"),
	       "a machine-check storm, every record decoding differently: %lld folds rows for %lld"
	       " records, every one counted",
	       (long long)scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'mce_record'"),
	       (long long)scalar("plain.db", "SELECT count(*) FROM mce_record"));
	tap_ok(scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'cxl_dram'") <=
	       2 * scalar("folded.db", "SELECT count(DISTINCT hour) FROM folds WHERE tbl = 'cxl_dram'"),
	       "a CXL storm over a new DPA each: %lld folds rows, at most two an hour (committed, fresh)",
	       (long long)scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'cxl_dram'"));
	/* Distinct values and the address range come from columns the type has (not a literal). */
	tap_ok(scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'mc_event'"
				   " AND detail_name = 'syndrome' AND addr_lo > 0") ==
	       scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'mc_event'") &&
	       scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'cxl_dram'") ==
	       scalar("folded.db", "SELECT count(*) FROM folds WHERE tbl = 'cxl_dram'"
				   " AND detail_name = 'row' AND addr_lo > 0"),
	       "folds name mc_event syndromes and CXL DRAM rows, with their address ranges");
	folds = ras_db_errors(folded, &all, count_listed, &listed);
	tap_ok(folds > 0 && listed == scalar("plain.db", "SELECT (SELECT count(*) FROM mc_event) +"
					     " (SELECT count(*) FROM memory_failure_event) +"
					     " (SELECT count(*) FROM cxl_dram) + (SELECT count(*) FROM mce_record)"),
	       "errors lists %lld rows and folded periods standing for every record (%lld)",
	       (long long)folds, (long long)listed);
	check_limits(folded, plain);
	check_times_in_place();
	ras_metrics_free(&fresh);
	ras_metrics_free(&want);
	ras_metrics_init(&fresh);
	ras_metrics_init(&want);
	ras_db_metrics_collect(folded, &fresh);
	ras_db_metrics_collect(plain, &want);
	tap_ok(same_metrics(&fresh, &want, "after limits"), "metrics after the limits equal the unfolded ones");
	ras_metrics_free(&live);
	ras_metrics_free(&fresh);
	ras_metrics_free(&want);
	ras_db_close(folded);
	ras_db_close(plain);
	test_rmtree(dir);
	return tap_done();
}
