/* SPDX-License-Identifier: MIT */
/*
 * A varied stream of RAS records for the benchmark, shaped like a fleet's:
 * mostly corrected memory errors (EDAC and machine checks) spread over many
 * DIMMs, ranks, banks, rows, addresses and syndromes, corrected cache errors
 * on many CPUs and banks, correctable PCIe errors on a handful of devices,
 * and a few platform records. Never one record repeated: every field a real
 * storm varies is drawn from a seeded generator, so runs are comparable.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "stream.h"

/* xorshift64*: fast, seeded, good enough to spread values. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static unsigned pick(uint64_t *s, unsigned n)
{
	return (unsigned)(next(s) % n);
}

/* Corrected memory errors a machine check reports (Intel SDM Vol. 3B 16.2/17.x encodings). */
static const uint64_t mce_statuses[] = {
	0x9c00004000010090ULL, /* memory controller read, channel 0, ADDRV MISCV */
	0x9c00004000010091ULL, /* channel 1 */
	0x9c000040000100a2ULL, /* memory scrub, channel 2 */
	0x8c00004000010093ULL, /* read, channel 3, no MISCV */
	0x9c00008000010092ULL, /* count 2 */
	0x9400004000000135ULL, /* L2 data read, cache hierarchy */
	0x9000004000000150ULL, /* L3 generic read */
	0x900000400000017aULL, /* L2 eviction */
	0xdc00004000010090ULL, /* overflow: more errors than logged */
};

static const char *const aer_devices[] = {
	"0000:00:1c.0", "0000:00:1d.0", "0000:3a:00.0", "0000:3b:00.0", "0000:5e:00.0",
	"0000:5e:00.1", "0000:86:00.0", "0000:af:00.0", "0000:d8:00.0", "0000:d8:00.1",
};
/* Correctable: RxErr, BadTLP, BadDLLP, Rollover, Timeout, NonFatalErr (PCIe 6.0 7.8.4.5). */
static const unsigned aer_cor_bits[] = { 0x1, 0x40, 0x80, 0x100, 0x1000, 0x2000 };

/* Adds one "field=value" assignment, written printf-style. */
static void __attribute__((format(printf, 2, 3))) set(struct bench_fields *f, const char *fmt, ...)
{
	va_list ap;

	if (f->n >= BENCH_FIELDS_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(f->text[f->n], sizeof(f->text[0]), fmt, ap);
	va_end(ap);
	f->assign[f->n] = f->text[f->n];
	f->n++;
}

static void gen_mc_event(struct bench_fields *f, uint64_t *s)
{
	unsigned mc = pick(s, 4), ch = pick(s, 6), slot = pick(s, 2);

	set(f, "error_type=%u", pick(s, 100) < 97 ? 0 : 1);
	set(f, "msg=%s", pick(s, 4) ? "memory read error" : "memory scrubbing error");
	set(f, "label=CPU_SrcID#%u_MC#%u_Chan#%u_DIMM#%u", mc / 2, mc % 2, ch, slot);
	set(f, "error_count=%u", pick(s, 10) ? 1 : 1 + pick(s, 8));
	set(f, "mc_index=%u", mc);
	set(f, "top_layer=%u", ch);
	set(f, "middle_layer=%u", slot);
	set(f, "lower_layer=-1");
	set(f, "address=0x%llx", (unsigned long long)(next(s) & 0x3fffffffc0ULL));
	set(f, "grain_bits=6");
	set(f, "syndrome=0x%llx", (unsigned long long)(next(s) & 0xffffffffULL));
	set(f, "driver_detail=rank:%u bg:%u ba:%u row:0x%x col:0x%x",
	    pick(s, 4), pick(s, 4), pick(s, 4), pick(s, 0x20000), pick(s, 0x400) << 3);
	f->name = "ras:mc_event";
}

static void gen_mce_record(struct bench_fields *f, long i, uint64_t *s)
{
	unsigned cpu = pick(s, 64);
	uint64_t status = mce_statuses[pick(s, sizeof(mce_statuses) / sizeof(mce_statuses[0]))];

	/* The corrected-error count (STATUS[52:38]) grows as a storm goes on. */
	status = (status & ~(0x7fffULL << 38)) | ((uint64_t)(1 + pick(s, 0x7ffe)) << 38);
	set(f, "mcgstatus=0");
	set(f, "status=0x%llx", (unsigned long long)status);
	set(f, "addr=0x%llx", (unsigned long long)(next(s) & 0x3fffffffc0ULL));
	set(f, "misc=0x%llx", (unsigned long long)(0x8cULL | (next(s) & 0xff00ULL)));
	set(f, "bank=%u", pick(s, 23));
	set(f, "cpuid=0x50654");
	set(f, "cpuvendor=0");
	set(f, "socketid=%u", cpu / 32);
	set(f, "walltime=%ld", 1795000000L + i / 1000);
	set(f, "cpu=%u", cpu);
	set(f, "apicid=%u", cpu * 2);
	f->name = "mce:mce_record";
}

static void gen_aer_event(struct bench_fields *f, uint64_t *s)
{
	bool corrected = pick(s, 20) != 0;

	set(f, "dev_name=%s", aer_devices[pick(s, sizeof(aer_devices) / sizeof(aer_devices[0]))]);
	set(f, "status=0x%x", corrected ? aer_cor_bits[pick(s, 6)] : (pick(s, 2) ? 0x4000u : 0x100000u));
	set(f, "severity=%u", corrected ? 2 : 0);
	set(f, "tlp_header_valid=0");
	f->name = "ras:aer_event";
}

static void gen_platform(struct bench_fields *f, long i, uint64_t *s)
{
	if (pick(s, 2)) {
		set(f, "pfn=0x%llx", (unsigned long long)(next(s) & 0x3ffffffULL));
		set(f, "type=%u", pick(s, 20));
		set(f, "result=%u", pick(s, 4));
		f->name = "ras:memory_failure_event";
		return;
	}
	set(f, "err_seq=%ld", i);
	set(f, "etype=%u", 2 + pick(s, 12));
	set(f, "sev=%u", pick(s, 3));
	set(f, "pa=0x%llx", (unsigned long long)(next(s) & 0x3fffffffc0ULL));
	f->name = "ras:extlog_mem_event";
}

void bench_stream_fields(struct bench_fields *f, long i, uint64_t *seed)
{
	unsigned r = pick(seed, 100);

	f->n = 0;
	/* 50 % EDAC, 35 % machine checks, 12 % PCIe, 3 % platform records. */
	if (r < 50)
		gen_mc_event(f, seed);
	else if (r < 85)
		gen_mce_record(f, i, seed);
	else if (r < 97)
		gen_aer_event(f, seed);
	else
		gen_platform(f, i, seed);
}

int bench_stream_add(struct fake_tree *t, long i, uint64_t *seed)
{
	struct bench_fields f;
	uint8_t rec[2048];
	int len;

	bench_stream_fields(&f, i, seed);
	len = fake_record(t, f.name, f.assign, f.n, rec, sizeof(rec));
	if (len < 0)
		return len;
	return fake_add(t, (unsigned)(i % t->ncpus), 1000000000ULL + (uint64_t)i * 1000, rec,
			(uint32_t)len);
}

int bench_unfolded_conf(const char *dir, char *out, size_t len)
{
	FILE *f;

	snprintf(out, len, "%s/unfolded.conf", dir);
	f = fopen(out, "we");
	if (!f)
		return -1;
	fprintf(f, "fold_threshold = off\nmax_db_size_mb = 0\n");
	/* BENCH_HEALTH=no: the diagnosis off, to measure what it costs. */
	if (getenv("BENCH_HEALTH"))
		fprintf(f, "health = %s\n", getenv("BENCH_HEALTH"));
	return fclose(f) == 0 ? 0 : -1;
}

int bench_default_conf(const char *dir, char *out, size_t len)
{
	FILE *f;

	/* An empty file: every key at its default, folding on. */
	snprintf(out, len, "%s/default.conf", dir);
	f = fopen(out, "we");
	if (!f)
		return -1;
	if (getenv("BENCH_HEALTH"))
		fprintf(f, "health = %s\n", getenv("BENCH_HEALTH"));
	return fclose(f) == 0 ? 0 : -1;
}

/* Writes dir/thresholds-off.conf: the default with every threshold off (no buckets). */
int bench_thresholds_off_conf(const char *dir, char *out, size_t len)
{
	FILE *f;

	snprintf(out, len, "%s/thresholds-off.conf", dir);
	if (!(f = fopen(out, "we")))
		return -1;
	fprintf(f, "page_ce_threshold = off\ncpu_ce_threshold = off\ndimm_ce_threshold = off\n"
		"device_ce_threshold = off\nrow_ce_threshold = off\nce_rate_threshold = off\n");
	if (getenv("BENCH_HEALTH"))
		fprintf(f, "health = %s\n", getenv("BENCH_HEALTH"));
	return fclose(f) == 0 ? 0 : -1;
}
