/* SPDX-License-Identifier: MIT */
/*
 * Architectural machine-check decode: every MCACOD value, golden compound
 * codes, MCi_STATUS/MCG_STATUS bits, SDM severity classes, bad input.
 * Golden values are worked out by hand from Intel SDM Vol. 3B chapter 16
 * (section named next to each group), not from any decoder's output.
 */
#include <errno.h>
#include <string.h>
#include "decoders/mce.h"
#include "tests/decoders/said.h"
#include "tests/tap.h"

#define VAL   (1ULL << 63)
#define OVER  (1ULL << 62)
#define UC    (1ULL << 61)
#define EN    (1ULL << 60)
#define MISCV (1ULL << 59)
#define ADDRV (1ULL << 58)
#define PCC   (1ULL << 57)
#define S     (1ULL << 56)
#define AR    (1ULL << 55)
#define SER_P (1ULL << 24)

/* An Intel record of a model with no model-specific tables (Avoton, 06_4DH). */
static struct mce_in intel_rec(uint64_t status)
{
	struct mce_in in;

	memset(&in, 0, sizeof(in));
	in.cpuvendor = 0;
	in.cpuid = mce_cpuid_signature(6, 0x4d, 8);
	in.status = status;
	in.mcgcap = SER_P | 0x0c0a;
	in.bank = 3;
	in.cpu = 5;
	in.socketid = 1;
	return in;
}

static void test_all_codes(void)
{
	/* Expected counts from SDM Table "General Forms of Compound Error Codes" (F bit free). */
	static const struct { const char *cls; int want; } expect[] = {
		{ "none", 1 }, { "simple", 7 }, { "io", 1 }, { "cache", 8 + 512 },
		/* memory: 000F 0000 1MMM CCCC and "Extended Memory Errors" 000F 0010 1MMM CCCC */
		{ "tlb", 32 }, { "memory", 256 + 256 }, { "bus", 4095 }, { "internal", 1023 },
		{ "undefined", 65536 - 5935 - 256 },
	};
	int counts[9] = { 0 }, empty = 0, unknown_class = 0;
	struct mce_decoded out;

	for (unsigned code = 0; code <= 0xffff; code++) {
		struct mce_in in = intel_rec(VAL | code);
		size_t i;

		mce_decode(&in, &out);
		if (!out.error_class[0] || !out.error_text[0] || !SAID(out)[0])
			empty++;
		for (i = 0; i < 9; i++)
			if (strcmp(out.error_class, expect[i].cls) == 0)
				break;
		if (i == 9)
			unknown_class++;
		else
			counts[i]++;
	}
	tap_is_int(empty, 0, "all 65536 MCACOD values give a class, a meaning and a summary");
	tap_is_int(unknown_class, 0, "every MCACOD falls in a defined class or 'undefined'");
	for (size_t i = 0; i < 9; i++)
		tap_is_int(counts[i], expect[i].want, "class %s has %d codes", expect[i].cls, expect[i].want);
}

struct arch_vector {
	uint16_t code;
	const char *cls, *text;
	int64_t level, channel;
};

static void test_golden_codes(void)
{
	/* SDM "Simple Error Codes" and "Compound Error Codes" (sub-field tables). */
	static const struct arch_vector v[] = {
		{ 0x0000, "none", "no error", RAS_DF_NONE, RAS_DF_NONE },
		{ 0x0001, "simple", "unclassified error", RAS_DF_NONE, RAS_DF_NONE },
		{ 0x0400, "simple", "internal timer error", RAS_DF_NONE, RAS_DF_NONE },
		{ 0x0e0b, "io", "I/O error (IOMCA)", RAS_DF_NONE, RAS_DF_NONE },
		{ 0x040b, "internal", "internal unclassified error (code 0x00b)", RAS_DF_NONE, RAS_DF_NONE },
		/*
		 * The level as Linux and lscpu number the caches: Intel's LL counts
		 * from the core's first cache (Linux asm/mce.h: MCACOD_DATA 0x0134 is
		 * the L1 data unit's load, LL=00; MCACOD_L3WB 0x017a the L3's, LL=10).
		 * 0000 0000 0000 1101: generic cache hierarchy, LL=01: L2.
		 */
		{ 0x000d, "cache", "L2 generic cache hierarchy error", 2, RAS_DF_NONE },
		/* 0000 0000 0001 0111: TLB, TT=01 data, LL=11 generic */
		{ 0x0017, "tlb", "generic-level data TLB error", RAS_DF_NONE, RAS_DF_NONE },
		/* 0000 0000 1001 0010: memory, MMM=001 read, channel 2 */
		{ 0x0092, "memory", "memory read error", RAS_DF_NONE, 2 },
		/* 0000 0010 1001 0010: extended memory (2LM near memory), MMM=001 read, channel 2 */
		{ 0x0292, "memory", "memory read error (memory used as cache, 2LM near memory)", RAS_DF_NONE, 2 },
		/* 0000 0000 1100 1111: memory scrubbing, channel not specified */
		{ 0x00cf, "memory", "memory scrubbing error", RAS_DF_NONE, RAS_DF_NONE },
		/* 0000 0001 0011 0100: cache, RRRR=0011 data read, TT=01 data, LL=00: lscpu's L1d */
		{ 0x0134, "cache", "L1 data cache data read error", 1, RAS_DF_NONE },
		/* 0000 0001 0111 1010: cache, RRRR=0111 eviction, TT=10 generic, LL=10: L3 */
		{ 0x017a, "cache", "L3 generic cache eviction error", 3, RAS_DF_NONE },
		/* 0001 0001 0101 0001: as above with F=1: RRRR=0101 ifetch, TT=00, LL=01: L2 */
		{ 0x1151, "cache", "L2 instruction cache instruction fetch error", 2, RAS_DF_NONE },
		/* 0000 0001 0011 0101: the 0x9000004000000135, LL=01: the L2 (MLC) */
		{ 0x0135, "cache", "L2 data cache data read error", 2, RAS_DF_NONE },
		/* 0000 1001 0000 1111: bus, PP=00, T=1, RRRR=0000, II=11, LL=11 */
		{ 0x090f, "bus", "bus/interconnect generic error (local processor originated request, other transaction, generic-level, timed out)", RAS_DF_NONE, RAS_DF_NONE },
		{ 0x2000, "undefined", "undefined architectural error code 0x2000", RAS_DF_NONE, RAS_DF_NONE },
		{ 0x1400, "undefined", "undefined architectural error code 0x1400", RAS_DF_NONE, RAS_DF_NONE },
	};
	struct mce_decoded out;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct mce_in in = intel_rec(VAL | v[i].code);

		mce_decode(&in, &out);
		tap_is_str(out.error_class, v[i].cls, "MCACOD 0x%04x class", v[i].code);
		tap_is_str(out.error_text, v[i].text, "MCACOD 0x%04x meaning", v[i].code);
		tap_is_int(out.cache_level, v[i].level, "MCACOD 0x%04x cache level", v[i].code);
		tap_is_int(out.channel, v[i].channel, "MCACOD 0x%04x channel", v[i].code);
	}
	{
		struct mce_in in = intel_rec(VAL | 0x1151);

		mce_decode(&in, &out);
		tap_is_int(out.filtered, 1, "bit 12 reported as corrected-error filtering");
		tap_is_str(out.request, "ird", "RRRR=0101 is an instruction fetch (IRD)");
	}
}

struct sev_vector {
	uint64_t status, mcgcap;
	enum ras_severity want;
	const char *why;
};

/*
 * AMD numbers the levels from 1 (APM Vol. 2 9.3.2; Linux drivers/edac/mce_amd.c
 * "RESV", "L1", "L2", "L3/GEN"), and every view names the level the same way:
 * the location and the CPU subject's key (lib/subject.c) both use
 * mce_cache_name.
 */
static void test_levels_named_once(void)
{
	static const struct { uint8_t vendor; uint16_t code; int64_t level; const char *text, *name; } v[] = {
		{ 2, 0x0135, 1, "L1 data cache data read error", "L1 cache" },
		{ 2, 0x0176, 2, "L2 data cache eviction error", "L2 cache" },
		{ 2, 0x0150, RAS_DF_NONE, "reserved-level instruction cache instruction fetch error", "" },
		{ 2, 0x000f, RAS_DF_NONE, "generic-level generic cache hierarchy error", "" },
		{ 0, 0x0150, 1, "L1 instruction cache instruction fetch error", "L1i cache" },
		{ 0, 0x0010, 1, "L1 instruction TLB error", "L1i TLB" },
		{ 0, 0x0135, 2, "L2 data cache data read error", "L2 cache" },
	};
	struct mce_decoded out;
	char name[32];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct mce_in in = intel_rec(VAL | v[i].code);

		in.cpuvendor = v[i].vendor;
		if (v[i].vendor == 2)
			in.cpuid = mce_cpuid_signature(0x15, 2, 0);
		mce_decode(&in, &out);
		tap_is_str(out.error_text, v[i].text, "%s 0x%04x: named by its level",
			   v[i].vendor ? "AMD" : "Intel", v[i].code);
		tap_is_int(out.cache_level, v[i].level, "%s 0x%04x: level %lld",
			   v[i].vendor ? "AMD" : "Intel", v[i].code, (long long)v[i].level);
		mce_cache_name(&out, name, sizeof(name));
		tap_is_str(name, v[i].name, "%s 0x%04x: the cache's name", v[i].vendor ? "AMD" : "Intel",
			   v[i].code);
		tap_ok(!*name || strstr(out.location, name), "and the location names it (%s)", out.location);
	}
}

static void test_severity(void)
{
	/* SDM "UCR Error Classification": S/AR/PCC/OVER combinations. */
	static const struct sev_vector v[] = {
		{ VAL | EN | 0x0092, SER_P, RAS_SEV_CORRECTED, "UC=0: corrected" },
		{ VAL | UC | EN | 0x0092, SER_P, RAS_SEV_UCNA, "UC=1 S=0 AR=0: UCNA" },
		{ VAL | UC | EN | MISCV | ADDRV | S | 0x00c2, SER_P, RAS_SEV_SRAO, "S=1 AR=0 (patrol scrub): SRAO" },
		{ VAL | UC | EN | MISCV | ADDRV | S | AR | 0x0134, SER_P, RAS_SEV_SRAR, "S=1 AR=1 (data load): SRAR" },
		{ VAL | UC | EN | PCC | 0x0134, SER_P, RAS_SEV_FATAL, "PCC=1: fatal" },
		{ VAL | UC | EN | AR | 0x0134, SER_P, RAS_SEV_FATAL, "AR=1 without S: illegal, fatal" },
		{ VAL | OVER | UC | EN | S | AR | 0x0134, SER_P, RAS_SEV_FATAL, "overflowed SRAR: fatal" },
		{ VAL | OVER | UC | EN | S | 0x00c2, SER_P, RAS_SEV_SRAO, "overflowed SRAO stays SRAO" },
		{ VAL | UC | EN | 0x0092, 0x0c0a, RAS_SEV_UNCORRECTED, "UC without SER_P: uncorrected" },
		{ VAL | UC | EN | S | AR | 0x0134, 0x0c0a, RAS_SEV_UNCORRECTED, "S/AR ignored without SER_P" },
	};
	struct mce_decoded out;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct mce_in in = intel_rec(v[i].status);

		in.mcgcap = v[i].mcgcap;
		mce_decode(&in, &out);
		tap_is_str(ras_severity_name(out.severity), ras_severity_name(v[i].want), "%s", v[i].why);
	}
}

static void test_status_bits(void)
{
	struct mce_in in = intel_rec(VAL | EN | MISCV | ADDRV | (5ULL << 38) | (2ULL << 53) | 0x0092);
	struct mce_decoded out;

	/* SDM "IA32_MCG_STATUS MSR": RIPV bit 0, EIPV bit 1, MCIP bit 2, LMCE_S bit 3. */
	in.mcgstatus = 0x5;
	in.misc = (2ULL << 6) | 12; /* SDM "Address Mode in IA32_MCi_MISC[8:6]": 010 physical, LSB 12 */
	in.addr = 0x12345000;
	mce_decode(&in, &out);
	tap_is_int(out.corrected_count, 5, "STATUS[52:38] corrected error count with CMCI_P");
	tap_is_str(out.threshold, "yellow", "STATUS[54:53]=10 is yellow with TES_P");
	tap_is_int(out.addr_lsb, 12, "MISC[5:0] recoverable address LSB");
	tap_is_int(out.addr_mode, 2, "MISC[8:6]=010 physical address");
	tap_is_int(out.addr, 0x12345000, "ADDR kept when ADDRV");
	tap_is_int(out.mcg_ripv, 1, "MCG RIPV");
	tap_is_int(out.mcg_eipv, 0, "MCG EIPV");
	tap_is_int(out.mcg_mcip, 1, "MCG MCIP");
	tap_is_int(out.socket, 1, "socket from the record");
	tap_ok(strstr(out.location, "socket 1, CPU 5, bank 3") != NULL, "location names socket, CPU, bank: %s", out.location);
	tap_ok(strncmp(SAID(out), "Corrected memory read error on socket 1, channel 2", 50) == 0,
	       "summary sentence: %s", SAID(out));

	in = intel_rec(VAL | EN | 0x0092);
	in.mcgcap = SER_P; /* no CMCI_P / TES_P: those fields are not defined */
	mce_decode(&in, &out);
	tap_is_int(out.corrected_count, RAS_DF_NONE, "no corrected count without CMCI_P");
	tap_is_str(out.threshold, "", "no threshold status without TES_P");
	tap_is_int(out.addr, RAS_DF_NONE, "no address without ADDRV");
}

static void test_bad_input(void)
{
	struct mce_in in = intel_rec(0x1234);
	struct mce_decoded out;

	tap_is_int(mce_decode(&in, &out), 0, "VAL=0 decodes");
	tap_is_str(out.decode_note, "not valid (VAL=0)", "VAL=0 says not valid");
	tap_is_int(out.severity, RAS_SEV_UNKNOWN, "VAL=0 has no severity");
	tap_is_int(out.raw_status, 0x1234, "VAL=0 keeps the raw status");
	tap_ok(SAID(out)[0] != '\0', "VAL=0 still has a summary");

	tap_is_int(mce_decode(NULL, &out), -EINVAL, "NULL record is -EINVAL");
	tap_is_int(mce_decode(&in, NULL), -EINVAL, "NULL output is -EINVAL");

	in = intel_rec(VAL | EN | 0x0092);
	in.cpuid = mce_cpuid_signature(6, 0xfe, 0);
	mce_decode(&in, &out);
	tap_is_str(out.decode_note, "unknown CPU model: architectural decode only", "unknown model note");
	tap_is_str(out.error_class, "memory", "unknown model still decodes architecturally");

	in = intel_rec(VAL | EN | 0x0092);
	in.cpuid = mce_cpuid_signature(6, 0x4d, 8); /* Avoton: the SDM has no section for it */
	mce_decode(&in, &out);
	tap_is_str(out.cpu_model_name, "Avoton (Atom C2000)", "known model without tables is named");
	tap_ok(strstr(out.decode_note, "no model-specific tables") != NULL, "and says it has no tables");

	in = intel_rec(VAL | EN | 0x0092);
	in.cpuvendor = 10; /* Zhaoxin */
	in.cpuid = 0x000706f2;
	mce_decode(&in, &out);
	tap_is_str(out.vendor, "Zhaoxin", "Zhaoxin vendor");
	tap_is_str(out.error_class, "memory", "Zhaoxin uses the architectural codes");
	tap_ok(strstr(out.decode_note, "architectural decode only") != NULL, "Zhaoxin note");

	in = intel_rec(VAL | EN | 0x0092);
	in.cpuvendor = 77;
	mce_decode(&in, &out);
	tap_is_str(out.decode_note, "unknown CPU vendor: architectural decode only", "unknown vendor note");
}

static void test_cpuid_and_fields(void)
{
	unsigned f, m, s;
	size_t n_names = 0;

	/* SDM Vol. 2A CPUID.01H:EAX layout. */
	tap_is_int(mce_cpuid_signature(6, 0x55, 4), 0x50654, "Skylake-SP signature");
	tap_is_int(mce_cpuid_signature(0x19, 0x11, 1), 0xa10f11, "family 19h model 11h signature");
	tap_is_int(mce_cpuid_signature(0x19, 0x01, 1), 0xa00f11, "family 19h model 01h signature");
	tap_is_int(mce_cpuid_signature(19, 1, 0), 0x400f10, "Diamond Rapids signature");
	mce_cpuid_split(0x806f8, &f, &m, &s);
	tap_ok(f == 6 && m == 0x8f && s == 8, "split 0x806f8 = 6/0x8f/8");
	mce_cpuid_split(0x707b1, &f, &m, &s);
	tap_ok(f == 7 && m == 0x7b && s == 1, "split 0x707b1 = 7/0x7b/1 (extended model for family >= 6)");
	mce_cpuid_split(0xa10f11, &f, &m, &s);
	tap_ok(f == 0x19 && m == 0x11 && s == 1, "split 0xa10f11 = 0x19/0x11/1");
	for (size_t i = 0; i < mce_n_dfields; i++) {
		tap_ok(mce_dfields[i].offset < sizeof(struct mce_decoded), "field %s inside struct", mce_dfields[i].name);
		for (size_t j = 0; j < i; j++)
			if (strcmp(mce_dfields[i].name, mce_dfields[j].name) == 0)
				n_names++;
	}
	tap_is_int(n_names, 0, "dfield names are unique");
	{
		/* Columns the daemon adapter relies on (API contract). */
		static const char *const required[] = {
			"vendor", "family", "model", "stepping", "bank", "bank_name", "mcacod", "mscod",
			"error_class", "error_text", "cache_level", "request", "transaction", "mem_ctrl",
			"channel", "dimm", "rank", "socket", "addr_valid", "addr_lsb", "misc_valid",
			"corrected_count", "overflow", "pcc", "uc", "en", "s", "ar", "poison", "deferred",
			"threshold", "mcg_ripv", "mcg_eipv", "mcg_mcip", "mcg_lmce", "smca_bank_type",
			"smca_hwid", "smca_mcatype", "xec", "model_text", "decode_note",
		};
		size_t missing = 0;

		for (size_t r = 0; r < sizeof(required) / sizeof(required[0]); r++) {
			size_t i = 0;

			while (i < mce_n_dfields && strcmp(mce_dfields[i].name, required[r]) != 0)
				i++;
			if (i == mce_n_dfields) {
				tap_diag("missing dfield %s", required[r]);
				missing++;
			}
		}
		tap_is_int(missing, 0, "all contract columns are in mce_dfields");
	}
}

/* Rendering is pure: it changes nothing and reads nothing but the struct. */
static void test_render_pure(void)
{
	static struct mce_decoded d, copy;
	struct mce_in in = { .status = 0x8c00004000010090ULL, .bank = 7, .misc = 0x8c,
			     .cpuid = 0x50654, .has_synd = 1, .has_ipid = 1 };
	char first[RAS_SUMMARY_LEN];

	mce_decode(&in, &d);
	copy = d;
	mce_render(&d, first, sizeof(first));
	tap_ok(first[0] && memcmp(&d, &copy, sizeof(d)) == 0, "render leaves the struct as it was");
	tap_is_str(SAID(copy), first, "a copy renders the same sentence");
}

int main(void)
{
	test_render_pure();
	test_all_codes();
	test_golden_codes();
	test_levels_named_once();
	test_severity();
	test_status_bits();
	test_bad_input();
	test_cpuid_and_fields();
	return tap_done();
}
