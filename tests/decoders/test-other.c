/* SPDX-License-Identifier: MIT */
/* Tests of the memory-failure, devlink, block and CXL decoders. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/blockerr.h"
#include "decoders/cxl.h"
#include "decoders/devlink.h"
#include "decoders/memfail.h"
#include "decoders/other_util.h"
#include "tests/decoders/said.h"
#include "tests/rng.h"
#include "tests/tap.h"

#define S(x) x, sizeof(x) - 1

static char *read_text(const char *rel, size_t *len)
{
	const char *top = getenv("top_srcdir");
	char path[512];
	FILE *f;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	buf = calloc(1, 65536);
	*len = buf ? fread(buf, 1, 65535, f) : 0;
	fclose(f);
	return buf;
}

static void test_memfail(void)
{
	struct memfail_symtab tab;
	struct memfail_decoded d;
	struct memfail_in in = { .pfn = 0x12345, .type = 13, .result = 3 };
	size_t len = 0;
	char *fmt = read_text("tests/formats/linux-6.1/ras/memory_failure_event/format", &len);
	/* Page types as in the upstream header after MF_MSG_SLAB/DIFFERENT_COMPOUND
	 * went away (include/trace/events/memory-failure.h); one entry left symbolic. */
	static const char newer[] =
		"print fmt: \"pfn %#lx: recovery action for %s: %s\", REC->pfn, "
		"__print_symbolic(REC->type, { 0, \"reserved kernel page\" }, { 1, \"high-order kernel page\" }, "
		"{ 2, \"huge page\" }, { MF_MSG_X, \"not substituted\" }, { 20, \"non struct page pfn\" }, "
		"{ 21, \"unknown page\" }), __print_symbolic(REC->result, { 0, \"Ignored\" }, { 1, \"Failed\" }, "
		"{ 2, \"Delayed\" }, { 3, \"Recovered\" })";

	tap_ok(fmt != NULL, "read linux-6.1 memory_failure_event format");
	/* tests/formats/linux-6.1/ras/memory_failure_event/format print fmt. */
	tap_is_int(memfail_symtab_parse(fmt, len, &tab), 0, "parse 6.1 print fmt");
	tap_is_int(tab.n_types, 20, "20 page types in 6.1");
	tap_is_int(tab.n_results, 4, "4 results");
	tap_is_str(tab.types[2].name, "kernel slab page", "6.1 type 2");
	in.symtab = &tab;
	tap_is_int(memfail_decode(&in, &d), 0, "decode");
	tap_is_str(d.type_name, "dirty LRU page", "6.1 type 13");
	tap_is_str(d.result_name, "Recovered", "result 3");
	tap_is_int(d.severity, RAS_SEV_SRAO, "recovered is handled");
	tap_is_str(d.location, "memory page pfn 0x12345", "location");
	tap_ok(strncmp(SAID(d), "Hardware memory error on page pfn 0x12345 (dirty LRU page): recovery Recovered, the page was taken out of use", 107) == 0,
	       "summary: %s", SAID(d));
	tap_is_int(memfail_symtab_parse(newer, sizeof(newer) - 1, &tab), 0, "parse newer print fmt");
	tap_is_int(tab.n_types, 5, "symbolic entry skipped");
	in.type = 20;
	in.result = 1;
	memfail_decode(&in, &d);
	tap_is_str(d.type_name, "non struct page pfn", "newer type 20");
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "failed is uncorrected");
	in.type = 99;
	in.result = 42;
	memfail_decode(&in, &d);
	tap_is_str(d.type_name, "type 99", "unknown type as a number");
	tap_is_str(d.result_name, "result 42", "unknown result as a number");
	in.symtab = NULL;
	in.type = 13;
	in.result = 0;
	memfail_decode(&in, &d);
	tap_is_str(d.type_name, "type 13", "no symbol table: type is a number");
	tap_is_str(d.result_name, "Ignored", "results have a stable fallback");
	tap_is_int(memfail_symtab_parse("no lists here", 13, &tab), -ENOENT, "missing list");
	tap_is_int(memfail_symtab_parse("__print_symbolic(REC->type, { 1, \"unterminated", 40, &tab),
		   -EINVAL, "unterminated string");
	free(fmt);
}

static void test_devlink(void)
{
	struct devlink_decoded d;
	struct devlink_in in = {
		.bus_name = S("pci"), .dev_name = S("0000:03:00.0"),
		.driver_name = S("mlx5_core"), .reporter_name = S("fw_fatal"),
		.msg = S("FW fatal error"),
	};

	tap_is_int(devlink_decode(&in, &d), 0, "devlink decode");
	tap_is_str(d.location, "pci/0000:03:00.0", "devlink location");
	tap_is_int(d.severity, RAS_SEV_FATAL, "fw_fatal is fatal");
	tap_ok(strncmp(SAID(d), "Driver mlx5_core reported a health problem on pci/0000:03:00.0 (reporter fw_fatal): FW fatal error;", 98) == 0,
	       "devlink summary: %s", SAID(d));
	in.reporter_name = "tx_other";
	in.reporter_name_len = 8;
	in.msg_len = 2;
	devlink_decode(&in, &d);
	tap_is_int(d.severity, RAS_SEV_UNKNOWN, "unknown reporter: unknown severity");
	tap_is_str(d.msg, "FW", "msg bounded by length");
	tap_is_int(devlink_decode(NULL, &d), -EINVAL, "NULL input");
}

/* Status names: Linux block/blk-core.c blk_errors[] (6.x). */
static void test_block(void)
{
	static const struct { int err; const char *name; } golden[] = {
		{ -EOPNOTSUPP, "operation not supported error" }, { -ETIMEDOUT, "timeout error" },
		{ -ENOSPC, "critical space allocation error" }, { -ENOLINK, "recoverable transport error" },
		{ -EREMOTEIO, "critical target error" }, { -EBADE, "reservation conflict error" },
		{ -ENODATA, "critical medium error" }, { -EILSEQ, "protection error" },
		{ -ENOMEM, "kernel resource error" }, { -EBUSY, "device resource error" },
		{ -EAGAIN, "nonblocking retry error" }, { -ENODEV, "device offline error" },
		{ -EREMCHG, "dm internal retry error" }, { -ETOOMANYREFS, "open zones exceeded error" },
		{ -EOVERFLOW, "active zones exceeded error" }, { -ETIME, "duration limit exceeded error" },
		{ -EINVAL, "invalid error" }, { -EIO, "I/O error" },
	};
	struct blockerr_decoded d;
	struct blockerr_in in = {
		.dev = 8u << 20 | 16, .sector = 123456, .nr_sector = 8, .error = -ENODATA,
		.has_ioprio = 1, .ioprio = 2u << 13 | 4, .rwbs = "RS\0\0\0\0\0\0\0\0", .rwbs_len = 10,
		.cmd = S(""), .disk_name = S("sdb"),
	};

	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		in.error = golden[i].err;
		blockerr_decode(&in, &d);
		tap_is_str(d.status_name, golden[i].name, "errno %d", golden[i].err);
	}
	in.error = -ENODATA;
	tap_is_int(blockerr_decode(&in, &d), 0, "block decode");
	tap_is_int(d.major, 8, "major");
	tap_is_int(d.minor, 16, "minor");
	tap_is_str(d.operation, "read", "operation");
	tap_is_str(d.ioprio_class, "be", "ioprio class");
	tap_is_str(d.location, "block sdb (8:16)", "location");
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "medium error severity");
	tap_ok(strstr(SAID(d), "Critical medium error on sdb (8:16), read of 8 sectors at sector 123456 (RS);") == SAID(d),
	       "summary: %s", SAID(d));
	in.error = ENODATA;
	blockerr_decode(&in, &d);
	tap_is_str(d.status_name, "critical medium error", "positive errno tolerated");
	in.error = -9999;
	in.disk_name = NULL;
	in.rwbs = "FWFS";
	in.rwbs_len = 4;
	blockerr_decode(&in, &d);
	tap_is_str(d.status_name, "error -9999", "unknown errno kept raw");
	tap_is_int(d.severity, RAS_SEV_UNKNOWN, "unknown errno severity");
	tap_is_str(d.operation, "write", "preflush write");
	tap_is_str(d.location, "block 8:16", "location without name");
	tap_is_int(d.error, -9999, "raw error kept");
}

static struct cxl_in cxl_base(const char *event)
{
	struct cxl_in in;

	memset(&in, 0, sizeof(in));
	in.event = event;
	in.event_len = strlen(event);
	in.memdev = "mem0";
	in.memdev_len = 4;
	in.host = "0000:0d:00.0";
	in.host_len = 12;
	cxl_in_set(&in, "serial", 0x1234);
	return in;
}

static void test_cxl(void)
{
	struct cxl_decoded d;
	struct cxl_in in = cxl_base("cxl_aer_uncorrectable_error");
	char buf[256];

	/* Bit names: CXL r3.1 8.2.4.17.1 / 8.2.4.17.4 (as in drivers/cxl/core/trace.h). */
	cxl_decode_status(1u << 7 | 1u << 16, 0, buf, sizeof(buf));
	tap_is_str(buf, "Memory Data ECC Error, IDE Rx Error", "UE bits");
	cxl_decode_status(1u << 12, 0, buf, sizeof(buf));
	tap_is_str(buf, "bit 12", "reserved UE bit");
	cxl_decode_status(1u << 2 | 1u << 6, 1, buf, sizeof(buf));
	tap_is_str(buf, "CRC Threshold Hit, Received Error From Physical Layer", "CE bits");
	tap_is_int(cxl_in_set(&in, "no_such_field", 1), -ENOENT, "unknown field name");
	cxl_in_set(&in, "status", 1u << 7 | 1u << 4);
	cxl_in_set(&in, "first_error", 1u << 7);
	tap_is_int(cxl_decode(&in, &d), 0, "UE decode");
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "UE severity");
	tap_is_str(d.errors, "Memory Data Parity Error, Memory Data ECC Error", "UE names");
	tap_is_str(d.first_error_name, "Memory Data ECC Error", "first error");
	tap_is_str(d.location, "CXL mem0 (0000:0d:00.0)", "location");
	tap_is_int(d.serial, 0x1234, "serial");
	tap_ok(strstr(SAID(d), "CXL uncorrectable protocol error on mem0 (0000:0d:00.0); Memory Data Parity Error") == SAID(d),
	       "UE summary: %s", SAID(d));

	in = cxl_base("cxl_general_media");
	cxl_in_set(&in, "log", 2);
	cxl_in_set(&in, "dpa", 0x40000);
	cxl_in_set(&in, "hpa", -1);
	cxl_in_set(&in, "descriptor", 1);
	cxl_in_set(&in, "type", 0);
	cxl_in_set(&in, "transaction_type", 1);
	cxl_in_set(&in, "channel", 1);
	cxl_in_set(&in, "rank", 3);
	cxl_in_set(&in, "device", 7);
	cxl_in_set(&in, "validity_flags", 0x3);   /* channel and rank only */
	cxl_in_set(&in, "hdr_flags", 1u << 5);
	cxl_decode(&in, &d);
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "failure log");
	tap_is_str(d.record_type, "ECC Error", "media type");
	tap_is_str(d.transaction_name, "Host Read", "transaction");
	tap_is_int(d.hpa, RAS_DF_NONE, "unmapped hpa");
	tap_is_int(d.rank, 3, "rank valid");
	tap_is_int(d.device, RAS_DF_NONE, "device not valid");
	tap_is_str(d.hdr_flag_names, "hardware replacement needed", "header flags");
	tap_ok(strstr(SAID(d), "media event on mem0 (0000:0d:00.0), DPA 0x40000: ECC Error [Failure log], uncorrectable event during Host Read; channel 1, rank 3") != NULL,
	       "media summary: %s", SAID(d));

	in = cxl_base("cxl_dram");
	cxl_in_set(&in, "log", 1);
	cxl_in_set(&in, "type", 1);
	cxl_in_set(&in, "row", 77);
	cxl_decode(&in, &d);
	tap_is_str(d.record_type, "Scrub Media ECC Error", "DRAM type table (CXL r3.1)");
	tap_is_int(d.row, 77, "row without validity flags");
	tap_is_int(d.severity, RAS_SEV_CORRECTED, "warning log");

	in = cxl_base("cxl_memory_module");
	cxl_in_set(&in, "log", 3);
	cxl_in_set(&in, "event_type", 1);
	cxl_in_set(&in, "health_status", 4);
	cxl_in_set(&in, "media_status", 3);
	cxl_in_set(&in, "add_status", 2 | 1 << 2);
	cxl_decode(&in, &d);
	tap_is_int(d.severity, RAS_SEV_FATAL, "fatal log");
	tap_is_str(d.record_type, "Media Status Change", "module event type");
	tap_is_str(d.health_status_names, "replacement needed", "health");
	tap_is_str(d.media_status_name, "All Data Lost", "media status");
	tap_ok(strstr(d.detail, "life used alarm critical, temperature alarm warning") != NULL, "alarms: %s", d.detail);

	in = cxl_base("cxl_poison");
	in.region = "region0";
	in.region_len = 7;
	cxl_in_set(&in, "trace_type", 0);
	cxl_in_set(&in, "dpa", 0x1000);
	cxl_in_set(&in, "hpa", 0x4080001000LL);
	cxl_in_set(&in, "dpa_length", 64);
	cxl_in_set(&in, "source", 7);
	cxl_in_set(&in, "flags", 2);
	cxl_decode(&in, &d);
	tap_is_int(d.severity, RAS_SEV_DEFERRED, "listed poison is deferred");
	tap_is_str(d.poison_source, "Vendor", "source 7");
	tap_is_str(d.record_type, "List poison", "poison trace type");
	tap_is_str(d.location, "CXL mem0 (0000:0d:00.0), region0, DPA 0x1000", "poison location");
	tap_ok(strstr(d.detail, "64 bytes, source Vendor, flags overflow") != NULL, "poison detail: %s", d.detail);

	in = cxl_base("cxl_overflow");
	cxl_in_set(&in, "log", 9);
	cxl_in_set(&in, "count", 5);
	cxl_decode(&in, &d);
	tap_is_str(d.log_name, "log 9", "unknown log kept as a number");
	tap_is_int(d.severity, RAS_SEV_UNKNOWN, "unknown log severity");

	in = cxl_base("cxl_something_new");
	tap_is_int(cxl_decode(&in, &d), 0, "unknown event decodes");
	tap_is_int(d.severity, RAS_SEV_UNKNOWN, "unknown event severity");
	tap_is_int(cxl_decode(NULL, &d), -EINVAL, "NULL input");
}

/*
 * The printf-free appenders write what snprintf writes, truncated the same
 * way, at every buffer size from none to roomy.
 */
static void test_put(void)
{
	static const long long ints[] = { 0, 7, -1, 42, -2147483648LL, 9223372036854775807LL,
					  -9223372036854775807LL - 1 };
	static const unsigned long long hexes[] = { 0, 0xf, 0x1000, 0x3fffffffc0ULL,
						    0xffffffffffffffffULL };
	int bad = 0;

	for (size_t len = 0; len <= 40; len++) {
		for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
			char got[48] = "x", want[48] = "x";
			struct ou_buf b = ou_start(got, len);

			ou_put(&b, "mc");
			ou_put_int(&b, ints[i]);
			ou_put(&b, ", bank ");
			ou_put_hex(&b, hexes[i % 5]);
			if (len)
				snprintf(want, len, "mc%lld, bank 0x%llx", ints[i], hexes[i % 5]);
			bad += strcmp(got, want) != 0 || (len && b.at != strlen(want));
		}
	}
	tap_is_int(bad, 0, "ou_put, ou_put_int, ou_put_hex write and truncate as snprintf does");
}

/* Every decimal width: 0, 9 and 10, 99 and 100, ... both signs, and the ends of the range. */
static void test_put_numbers(void)
{
	unsigned long long p10 = 1;
	int bad = 0, checked = 0;

	for (int e = 0; e <= 19; e++, p10 *= 10) {
		const unsigned long long us[] = { p10 - 1, p10, p10 + 1, p10 * 7 / 3 };

		for (size_t i = 0; i < sizeof(us) / sizeof(us[0]); i++) {
			unsigned long long u = us[i];
			long long vs[] = { (long long)u, -(long long)(u & 0x7fffffffffffffffULL) };

			for (size_t len = 0; len <= 24; len++) {
				char got[32] = "x", want[32] = "x";
				struct ou_buf b = ou_start(got, len);

				ou_put_uint(&b, u);
				if (len)
					snprintf(want, len, "%llu", u);
				bad += strcmp(got, want) != 0;
				for (int s = 0; s < 2; s++) {
					b = ou_start(got, len);
					ou_put_int(&b, vs[s]);
					if (len)
						snprintf(want, len, "%lld", vs[s]);
					bad += strcmp(got, want) != 0;
				}
				checked += 3;
			}
		}
	}
	{
		static const long long ends[] = { 0, -1, 1, -9223372036854775807LL - 1,
						  9223372036854775807LL, -10, -100, -99 };
		static const unsigned long long uends[] = { 0, 18446744073709551615ULL,
							    10000000000000000000ULL, 9999999999999999999ULL };

		for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
			char got[32], want[32];
			struct ou_buf b = ou_start(got, sizeof(got));

			ou_put_int(&b, ends[i]);
			snprintf(want, sizeof(want), "%lld", ends[i]);
			bad += strcmp(got, want) != 0 || b.at != strlen(want);
			b = ou_start(got, sizeof(got));
			ou_put_uint(&b, uends[i % 4]);
			snprintf(want, sizeof(want), "%llu", uends[i % 4]);
			bad += strcmp(got, want) != 0 || b.at != strlen(want);
			checked += 2;
		}
	}
	tap_is_int(bad, 0, "ou_put_int and ou_put_uint write %d numbers as %%lld and %%llu do", checked);
}

/* "%0<w>llx" at every width from none to past 16 digits, at every buffer size. */
static void test_put_hex_pad(void)
{
	static const unsigned long long vs[] = { 0, 1, 0xf, 0x10, 0xffff, 0x10000, 0xdeadbeef,
						 0x100000000ULL, 0x7fffffffffffffffULL,
						 0xffffffffffffffffULL };
	int bad = 0;

	for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++) {
		for (unsigned w = 0; w <= 20; w++) {
			for (size_t len = 0; len <= 24; len++) {
				char got[32] = "x", want[32] = "x";
				struct ou_buf b = ou_start(got, len);

				ou_put_hex_pad(&b, vs[i], w);
				if (len)
					snprintf(want, len, "%0*llx", (int)w, vs[i]);
				bad += strcmp(got, want) != 0;
			}
			{
				char got[48], want[48];
				struct ou_buf b = ou_start(got, sizeof(got));

				ou_put_lit(&b, "0x");
				ou_put_hex_pad(&b, vs[i], w);
				ou_put_hex(&b, vs[i]);
				snprintf(want, sizeof(want), "0x%0*llx0x%llx", (int)w, vs[i], vs[i]);
				bad += strcmp(got, want) != 0 || b.at != strlen(want);
			}
		}
	}
	tap_is_int(bad, 0, "ou_put_hex_pad writes as %%0*llx does, ou_put_hex as 0x%%llx");
}

/* A number of random bit length, or one of the ends, or a power of ten and its neighbours. */
static unsigned long long edge_number(uint64_t *rng)
{
	static const unsigned long long ends[] = { 0, 1, 9, 10, 0x7fffffffffffffffULL,
						   0x8000000000000000ULL, 0xffffffffffffffffULL,
						   0xfffffffffffffffeULL, 10000000000000000000ULL };
	unsigned long long p10 = 1;
	uint64_t r = rng_next(rng);

	switch (r % 4) {
	case 0:
		return ends[(r >> 8) % (sizeof(ends) / sizeof(ends[0]))];
	case 1:
		for (unsigned e = (unsigned)((r >> 8) % 20); e; e--)
			p10 *= 10;
		return p10 + (unsigned long long)((r >> 16) % 3) - 1;
	default:
		return (r >> 8) >> ((r >> 2) % 64);
	}
}

/*
 * Random runs of ou_put, ou_put_int, ou_put_uint, ou_put_hex and
 * ou_put_hex_pad (widths past 32 too) into buffers of 0 to 96 bytes:
 * what they write is what snprintf writes of the whole run, cut to the
 * buffer, whether a number lands where it fits whole or where it is cut.
 */
static void test_put_random(void)
{
	uint64_t rng = 0x2545f4914f6cdd1dULL;
	int bad = 0, runs = 20000;

	for (int r = 0; r < runs; r++) {
		char got[112], whole[1024] = "", want[112];
		size_t len = (size_t)(rng_next(&rng) % 97), at = 0;
		unsigned steps = (unsigned)(rng >> 8) % 12;
		struct ou_buf b;

		memset(got, 'x', sizeof(got));
		b = ou_start(got, len);
		for (unsigned k = 0; k < steps; k++) {
			unsigned long long u = edge_number(&rng);
			unsigned w = (unsigned)(rng >> 40) % 40, wc = w > 32 ? 32 : w;

			switch ((rng >> 32) % 5) {
			case 0:
				ou_put(&b, &"mc, rank layers"[(rng >> 48) % 15]);
				at += (size_t)snprintf(whole + at, sizeof(whole) - at, "%s",
						       &"mc, rank layers"[(rng >> 48) % 15]);
				break;
			case 1:
				ou_put_int(&b, (long long)u);
				at += (size_t)snprintf(whole + at, sizeof(whole) - at, "%lld", (long long)u);
				break;
			case 2:
				ou_put_uint(&b, u);
				at += (size_t)snprintf(whole + at, sizeof(whole) - at, "%llu", u);
				break;
			case 3:
				ou_put_hex(&b, u);
				at += (size_t)snprintf(whole + at, sizeof(whole) - at, "0x%llx", u);
				break;
			default:
				ou_put_hex_pad(&b, u, w);
				at += (size_t)snprintf(whole + at, sizeof(whole) - at, "%0*llx", (int)wc, u);
				break;
			}
		}
		if (!len) {
			bad += got[0] != 'x';
			continue;
		}
		snprintf(want, len, "%s", whole);
		/* The text, its end where b says, nothing written past len. */
		bad += strcmp(got, want) != 0 || b.at != strlen(want) || got[len] != 'x';
	}
	tap_is_int(bad, 0, "%d random runs of the number and text writers write as snprintf does",
		    runs);
}

/* ou_put_n: strings of every length up to 40 into buffers of every size, as "%s" would. */
static void test_put_lengths(void)
{
	const char *text = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH";
	int bad = 0;

	for (size_t n = 0; n <= 40; n++) {
		for (size_t len = 0; len <= 48; len++) {
			char got[64] = "x", want[64] = "x", s[48];
			struct ou_buf b = ou_start(got, len);

			memcpy(s, text, n);
			s[n] = '\0';
			ou_put_lit(&b, "<");
			ou_put_n(&b, s, n);
			ou_put(&b, s);
			if (len)
				snprintf(want, len, "<%s%s", s, s);
			/* Nothing written at or past len (got[len] is still as initialized). */
			bad += strcmp(got, want) != 0 || (len && b.at != strlen(want)) ||
			       (len >= 2 && got[len] != '\0');
		}
	}
	tap_is_int(bad, 0, "ou_put_n and ou_put copy strings of 0 to 40 bytes as %%s does");
}

/* What ou_copy did byte by byte before it read words: the reference it must match. */
static void copy_reference(char *dst, size_t len, const char *src, size_t src_len)
{
	size_t n = 0;

	if (src)
		while (n < src_len && n < len - 1 && src[n])
			n++;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)src[i];

		dst[i] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	dst[n] = '\0';
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static unsigned rnd_byte(void)
{
	return (unsigned)(rng_next(&rng) >> 24) & 0xff;
}

/* Every byte value, at every position of a word, in texts of every length and alignment. */
static void test_copy(void)
{
	int bad = 0, rounds = 0;

	for (int round = 0; round < 4000; round++) {
		char src[100], got[110], want[110];
		size_t src_len = (size_t)round % 90, len = 1 + rnd_byte() % 100;
		size_t at = (size_t)round % 7;

		/* Mostly printable text, a byte of anything here and there, sometimes a NUL. */
		for (size_t i = 0; i < sizeof(src); i++) {
			unsigned r = rnd_byte();

			src[i] = (char)(r < 200 ? 0x20 + r % 95 : rnd_byte());
		}
		if (round % 5 == 0)
			src[rnd_byte() % sizeof(src)] = '\0';
		memset(got, 'z', sizeof(got));
		memset(want, 'z', sizeof(want));
		ou_copy(got + at, len, src, src_len);
		copy_reference(want + at, len, src, src_len);
		bad += memcmp(got, want, sizeof(got)) != 0;
		rounds++;
	}
	for (unsigned c = 0; c < 256; c++) {
		for (size_t pos = 0; pos < 16; pos++) {
			char src[24], got[32], want[32];

			memset(src, 'a', sizeof(src));
			src[pos] = (char)c;
			ou_copy(got, sizeof(got), src, sizeof(src));
			copy_reference(want, sizeof(want), src, sizeof(src));
			bad += strcmp(got, want) != 0;
			rounds++;
		}
	}
	tap_is_int(bad, 0, "ou_copy writes what a byte-by-byte copy writes (%d texts)", rounds);
}

/* Set bits named lowest first, "bit N" where the table has no name. */
static void test_bit_names(void)
{
	static const char *const names[] = { "zero", NULL, "two", "three" };
	int bad = 0;

	for (int round = 0; round < 2000; round++) {
		uint64_t bits = 0;
		char got[200], want[200] = "";

		for (int i = 0; i < 8; i++)
			bits = bits << 8 | rnd_byte();
		if (round < 64)
			bits = 1ULL << round;
		bits &= round % 3 ? ~0ULL : 0xfULL;
		ou_bit_names(got, sizeof(got), bits, names, 4, ", ");
		for (unsigned b = 0, first = 1; b < 64; b++) {
			if (!(bits >> b & 1))
				continue;
			if (!first)
				ou_appendf(want, sizeof(want), ", ");
			first = 0;
			if (b < 4 && names[b])
				ou_appendf(want, sizeof(want), "%s", names[b]);
			else
				ou_appendf(want, sizeof(want), "bit %u", b);
		}
		bad += strcmp(got, want) != 0;
	}
	tap_is_int(bad, 0, "ou_bit_names names every set bit in order");
}

int main(void)
{
	test_put();
	test_put_numbers();
	test_put_hex_pad();
	test_put_lengths();
	test_put_random();
	test_copy();
	test_bit_names();
	test_memfail();
	test_devlink();
	test_block();
	test_cxl();
	return tap_done();
}
