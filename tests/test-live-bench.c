/* SPDX-License-Identifier: MIT */
/*
 * make bench-live's parts that need no clock and no root. The records
 * (bench/live_pool.c): past the pool, every record is a well-formed
 * synthetic record of its type, no two memory or CPU records alike, with fresh pages and rows
 * (a cycled pool would bring each back every pool's length) and fields in
 * the stream's own ranges, consistent with one another. The search
 * (bench/live_search.c) against a made-up rasd: the steps it takes, and that
 * its answer is the highest rate a whole long step kept, to 1000/s, even when
 * the rasd drifts (keeps a rate for a probe but not for a long step).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bench/live_pool.h"
#include "bench/live_search.h"
#include "lib/event_table.h"
#include "lib/formats.h"
#include "tap.h"
#include "test_util.h"

#define POOL 2048
#define RECORDS (16 * POOL)

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Distinct values among n (sorted in place). */
static long distinct(uint64_t *v, long n)
{
	long d = n > 0;

	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	for (long i = 1; i < n; i++)
		d += v[i] != v[i - 1];
	return d;
}

static uint64_t num(struct tep_event *ev, const uint8_t *rec, const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, rec, &v) < 0)
		return UINT64_MAX;
	return v;
}

static const char *str(struct tep_event *ev, const uint8_t *rec, const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	uint32_t loc;

	if (!f)
		return "";
	memcpy(&loc, rec + f->offset, 4);
	return (const char *)rec + (loc & 0xffff) + (f->flags & TEP_FIELD_IS_RELATIVE ? f->offset + 4 : 0);
}

struct seen {
	uint64_t all[RECORDS], pages[RECORDS], rows[RECORDS], cpu_banks[RECORDS];
	long n, npages, nrows, ncpu_banks, bad, unwrapped;
};

static void check_mc(struct seen *s, struct tep_event *ev, const uint8_t *rec)
{
	uint64_t addr = num(ev, rec, "address");
	unsigned rank, bg, ba, row;
	const char *detail = str(ev, rec, "driver_detail"), *label = str(ev, rec, "label");

	if (addr & ~0x3fffffffc0ULL || num(ev, rec, "syndrome") > 0xffffffffULL ||
	    sscanf(detail, "rank:%u bg:%u ba:%u row:0x%x", &rank, &bg, &ba, &row) != 4 ||
	    rank > 3 || bg > 3 || ba > 3 || row >= 0x20000) {
		s->bad++;
		return;
	}
	s->pages[s->npages++] = addr >> 12;
	s->rows[s->nrows++] = fnv(detail, strcspn(detail, "c"), fnv(label, strlen(label), 14695981039346656037ULL));
}

static void check_mce(struct seen *s, struct tep_event *ev, const uint8_t *rec)
{
	uint64_t cpu = num(ev, rec, "cpu"), bank = num(ev, rec, "bank");
	uint64_t count = (num(ev, rec, "status") >> 38) & 0x7fff;

	if (cpu >= 64 || bank >= 23 || count == 0 || num(ev, rec, "socketid") != cpu / 32 ||
	    num(ev, rec, "apicid") != cpu * 2 || num(ev, rec, "addr") & ~0x3fffffffc0ULL) {
		s->bad++;
		return;
	}
	s->cpu_banks[s->ncpu_banks++] = cpu * 64 + bank;
}

static void check_record(struct seen *s, struct ras_formats *fmt, const uint8_t *buf, size_t len)
{
	const char *name;
	uint16_t name_len;
	const uint8_t *rec;
	uint32_t rec_len, id;
	const struct ras_event_type *t;
	char full[64];

	memcpy(&id, buf, 4);
	if (id != RAS_SYNTH_ID || ras_synth_unwrap(buf + 4, (uint32_t)len - 4, &name, &name_len, &rec, &rec_len) < 0 ||
	    12u + name_len + rec_len != len || name_len >= sizeof(full))
		return;
	s->unwrapped++;
	snprintf(full, sizeof(full), "%.*s", (int)name_len, name);
	if (!(t = ras_event_type_find(full)))
		return;
	/* A storm's PCIe records repeat (a handful of devices and statuses), in the stream too. */
	if (strcmp(full, "ras:aer_event"))
		s->all[s->n++] = fnv(buf, len, 14695981039346656037ULL);
	if (!strcmp(full, "ras:mc_event"))
		check_mc(s, fmt->type[t - ras_event_types].event, rec);
	else if (!strcmp(full, "mce:mce_record"))
		check_mce(s, fmt->type[t - ras_event_types].event, rec);
}

static void test_pool(const char *formats)
{
	static struct seen s;
	static uint8_t buf[RAS_SYNTH_MAX];
	struct live_pool p;
	struct ras_formats *fmt;
	long same_as_pool = 0, pages, rows, cpu_banks;

	if (!tap_ok(live_pool_build(&p, POOL, "/nonexistent", formats) == 0 &&
		    ras_formats_load(&fmt, "/nonexistent", NULL, formats) == 0,
		    "%d records of the stream built from the shipped formats", POOL))
		return;
	for (long i = 0; i < RECORDS; i++) {
		size_t len;
		const uint8_t *r = live_pool_record(&p, i, buf, &len);

		same_as_pool += r == p.data + p.off[i % POOL];
		check_record(&s, fmt, r, len);
	}
	tap_is_int(same_as_pool, POOL, "the first %d records are the pool's own (make bench's stream)", POOL);
	tap_is_int(s.unwrapped, RECORDS, "all %d records are well-formed synthetic records", RECORDS);
	tap_is_int(s.bad, 0, "every EDAC and MCE record's fields in the stream's ranges, consistent");
	tap_is_int(distinct(s.all, s.n), s.n, "no memory or CPU record written twice in %d (%d times "
		   "the pool)", RECORDS, RECORDS / POOL);
	pages = distinct(s.pages, s.npages);
	rows = distinct(s.rows, s.nrows);
	cpu_banks = distinct(s.cpu_banks, s.ncpu_banks);
	/* A cycled pool: at most a sixteenth of them new. */
	tap_ok(pages * 1000 >= s.npages * 999, "%ld pages in %ld EDAC records", pages, s.npages);
	tap_ok(rows * 100 >= s.nrows * 99, "%ld rows in %ld EDAC records", rows, s.nrows);
	tap_ok(cpu_banks >= 64 * 23 * 95 / 100, "%ld of 64 CPUs x 23 banks in %ld machine checks",
	       cpu_banks, s.ncpu_banks);
	ras_formats_free(fmt);
	live_pool_free(&p);
}

/* A made-up rasd: keeps every record up to keep_probe/s for a probe, keep_long/s for a long step. */
struct fake {
	long keep_probe, keep_long, writers_max;
};

/* Runs a search against f; the number of steps; *longest_pass: whether the answer was a long step. */
static int run_search(struct live_search *s, const struct fake *f, long start, long max, bool *long_pass)
{
	long rate;
	double seconds;
	int steps = 0;

	live_search_init(s, start, max, 3, 15, 3);
	*long_pass = false;
	while (live_search_next(s, &rate, &seconds) && steps < 100) {
		bool ok = rate <= (seconds == 3 ? f->keep_probe : f->keep_long);

		if (ok && seconds == 15 && rate > s->pass)
			*long_pass = true;
		else if (ok && rate > s->pass)
			*long_pass = false;
		live_search_result(s, rate, ok, f->writers_max && rate > f->writers_max);
		steps++;
	}
	return steps;
}

static void test_search(void)
{
	struct live_search s;
	bool long_pass;
	struct fake steady = { 50000, 50000, 0 }, drift = { 50000, 20000, 0 }, none = { 500, 500, 0 },
		    fast = { 1L << 40, 1L << 40, 0 }, writers = { 1L << 40, 1L << 40, 100000 };
	int n;

	/* Probes 8k 16k 32k 64k; long 32k, then 48k, 56k, 52k. */
	n = run_search(&s, &steady, 8000, 512000, &long_pass);
	tap_ok(s.pass == 48000 && long_pass && n == 8 && s.probes == 4 && s.longs == 4,
	       "steady at 50,000/s: %ld/s in %d steps (%d probes, %d long)", s.pass, n, s.probes, s.longs);
	/* Probes to 64k; long 32k loses, 16k keeps, then 24k, 20k, 22k. */
	n = run_search(&s, &drift, 8000, 512000, &long_pass);
	tap_ok(s.pass == 20000 && long_pass && s.longs == 5,
	       "a drift (50,000/s for a probe, 20,000/s for a long step): %ld/s, from a long step, "
	       "in %d steps", s.pass, n);
	n = run_search(&s, &none, 8000, 512000, &long_pass);
	tap_ok(s.pass == 0 && s.longs == 0 && s.probes == 4,
	       "nothing kept: probes halve to 1000/s (%d), no long step, no answer", n);
	n = run_search(&s, &fast, 8000, 100000, &long_pass);
	tap_ok(s.pass == 100000 && s.longs == 1 && long_pass,
	       "all kept: the highest rate allowed, %ld/s, confirmed once (%d steps)", s.pass, n);
	n = run_search(&s, &writers, 8000, 512000, &long_pass);
	tap_ok(s.pass == 128000 && s.writer_limited && s.longs == 1,
	       "writers short of the rate: stops at %ld/s, said writer-limited (%d steps)", s.pass, n);
	live_search_init(&s, 300, 200, 3, 15, 3);
	tap_ok(s.start == 1000 && s.max == 1000, "a start below 1000/s is 1000/s, the maximum at least that");
}

int main(void)
{
	char formats[1200];

	snprintf(formats, sizeof(formats), "%s/formats", test_srcdir());
	test_pool(formats);
	test_search();
	return tap_done();
}
