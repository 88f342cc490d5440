/* SPDX-License-Identifier: MIT */
/*
 * Text record parsers and end-to-end decode of the public mcelog inputs
 * (copies in tests/data/mcelog, see its README.md). Expected values come
 * from each input's own comment line / mcelog README description and the
 * Intel SDM Vol. 3B chapter 16 encodings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/mce.h"
#include "decoders/mce_text.h"
#include "tests/decoders/said.h"
#include "tests/tap.h"

#define MAX_RECS 8

struct collected {
	struct mce_in rec[MAX_RECS];
	unsigned first_line[MAX_RECS];
	int n;
	unsigned err_line[MAX_RECS];
	char err[MAX_RECS][96];
	int n_err;
	int stop_after; /* return -ECANCELED after this many records, 0 = never */
};

static int on_record(void *ctx, const struct mce_in *rec, unsigned first_line)
{
	struct collected *c = ctx;

	if (c->stop_after && c->n >= c->stop_after)
		return -ECANCELED;
	if (c->n < MAX_RECS) {
		c->rec[c->n] = *rec;
		c->first_line[c->n] = first_line;
	}
	c->n++;
	return 0;
}

static void on_error(void *ctx, unsigned line, const char *reason)
{
	struct collected *c = ctx;

	if (c->n_err < MAX_RECS) {
		c->err_line[c->n_err] = line;
		snprintf(c->err[c->n_err], sizeof(c->err[0]), "%s", reason);
	}
	c->n_err++;
}

static int parse_str(const char *text, struct collected *c)
{
	memset(c, 0, sizeof(*c));
	return mce_text_parse(text, strlen(text), on_record, on_error, c);
}

static int parse_file(const char *name, struct collected *c)
{
	const char *top = getenv("top_srcdir");
	static char buf[1 << 16];
	char path[512];
	size_t n;
	FILE *f;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "%s/tests/data/mcelog/%s", top ? top : ".", name);
	f = fopen(path, "rb");
	if (!f)
		return -ENOENT;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return mce_text_parse(buf, n, on_record, on_error, c);
}

struct file_expect {
	const char *file;
	int records;
	unsigned bank;
	const char *bank_name, *cls, *sev, *model_name, *model_text, *note;
	int64_t channel, dimm;
};

static const struct file_expect files[] = {
	{ "bdw_mirror1", 1, 7, "HA", "memory", "corrected", "Broadwell-EP", "channel failover", "", 0, RAS_DF_NONE },
	{ "bdw_mirror2", 1, 7, "HA", "memory", "corrected", "Broadwell-EP", "primary channel scrubbed", "", 0, RAS_DF_NONE },
	{ "skx_mirror1", 1, 7, "M2M", "memory", "corrected", "Skylake-SP", "channel failover", "", 0, RAS_DF_NONE },
	{ "skx_mirror2", 1, 7, "M2M", "memory", "corrected", "Skylake-SP", "primary channel scrubbed", "", 0, RAS_DF_NONE },
	{ "dimm0", 1, 2, "", "memory", "corrected", "Nehalem-EP", "", "", 0, 0 },
	{ "spr_uc_patscrub", 1, 13, "IMC", "memory", "corrected", "Sapphire Rapids", "UC_PATSCRUB_MIRR2ND_ERR", "", 0, RAS_DF_NONE },
	{ "dmr_dcu_srar", 1, 1, "DCU", "cache", "srar", "Diamond Rapids", "", "MCG_CAP not recorded", RAS_DF_NONE, RAS_DF_NONE },
	{ "iomca", 1, 1, "", "io", "corrected", "", "", "CPU identity not recorded", RAS_DF_NONE, RAS_DF_NONE },
	{ "unknown", 1, 1, "", "internal", "corrected", "", "", "CPU identity not recorded", RAS_DF_NONE, RAS_DF_NONE },
	{ "full1", 1, 1, "", "none", "unknown", "", "", "not valid (VAL=0)", RAS_DF_NONE, RAS_DF_NONE },
	{ "simple1", 1, 2, "", "none", "unknown", "", "", "not valid (VAL=0)", RAS_DF_NONE, RAS_DF_NONE },
	{ "xen", 1, 2, "", "cache", "corrected", "", "", "CPU identity not recorded", RAS_DF_NONE, RAS_DF_NONE },
};

static void check_file(const struct file_expect *e)
{
	struct collected c;
	struct mce_decoded out;
	int rc = parse_file(e->file, &c);

	tap_is_int(rc, e->records, "%s: %d record(s)", e->file, e->records);
	tap_is_int(c.n_err, 0, "%s: no parse errors", e->file);
	if (rc < 1) {
		tap_diag("%s: cannot continue (top_srcdir=%s)", e->file, getenv("top_srcdir"));
		return;
	}
	tap_is_int(mce_decode(&c.rec[0], &out), 0, "%s: decodes", e->file);
	tap_is_int(out.bank, e->bank, "%s: bank", e->file);
	tap_is_str(out.bank_name, e->bank_name, "%s: bank name", e->file);
	tap_is_str(out.error_class, e->cls, "%s: class", e->file);
	tap_is_str(ras_severity_name(out.severity), e->sev, "%s: severity", e->file);
	tap_is_str(out.cpu_model_name, e->model_name, "%s: CPU model", e->file);
	tap_ok(strstr(out.model_text, e->model_text) != NULL, "%s: model text has \"%s\"", e->file, e->model_text);
	tap_ok(strstr(out.decode_note, e->note) != NULL, "%s: note has \"%s\"", e->file, e->note);
	tap_is_int(out.channel, e->channel, "%s: channel", e->file);
	tap_is_int(out.dimm, e->dimm, "%s: DIMM", e->file);
}

static void test_file_fields(void)
{
	struct collected c;
	struct mce_decoded out;

	parse_file("full1", &c);
	tap_ok(c.rec[0].tsc == 0x3062652eaabULL && c.rec[0].ip == 0x5678 && c.rec[0].cs == 0x3f,
	       "full1: TSC and RIP cs:<ip>");
	tap_ok(c.rec[0].walltime == 123456789 && c.rec[0].socketid == 1 && !c.rec[0].no_socketid &&
	       c.rec[0].mcgcap == 0xabc && c.rec[0].apicid == 0xf && c.rec[0].cpuid == 0x6f5 &&
	       c.rec[0].status == 0x1234, "full1: TIME, SOCKETID, MCGCAP, APICID, PROCESSOR, STATUS (hex)");

	/*
	 * SDM IOMCA: MISC[39:32] segment, [31:16] requester ID (bus[15:8],
	 * device[7:3], function[2:0]); iomca's MISC 0xabcdef: segment 0, bus 0,
	 * requester low byte 0xab = device 0x15 function 3.
	 */
	parse_file("iomca", &c);
	mce_decode(&c.rec[0], &out);
	tap_is_str(out.pcie_device, "0000:00:15.3", "iomca: PCIe requester from MISC");

	parse_file("xen", &c);
	tap_ok(c.rec[0].cpu == 1 && c.rec[0].addr == 0x182c480179cf0ULL, "xen: CPU from the MCE line, address");
	mce_decode(&c.rec[0], &out);
	tap_is_int(out.overflow, 1, "xen: overflow bit");

	/* GENMEM 0 1 0 2 / 0 2 0 3: channel 1 and 2, corrected counts 2 and 3 (MCG_CAP.CMCI_P). */
	tap_is_int(parse_file("memdb-and-socket.inject.txt", &c), 2, "memdb: 2 records");
	mce_decode(&c.rec[0], &out);
	tap_ok(out.channel == 1 && out.dimm == 0 && out.socket == 0 && out.corrected_count == 2,
	       "memdb record 1: socket 0 channel 1 DIMM 0 count 2 (%s)", out.location);
	mce_decode(&c.rec[1], &out);
	tap_ok(out.channel == 2 && out.corrected_count == 3, "memdb record 2: channel 2 count 3");
	tap_is_int(c.first_line[1], 10, "memdb record 2 starts on line 10");

	/*
	 * GENCACHE: LL 01 data green / yellow, LL 10 generic yellow (MCG_CAP.TES_P):
	 * on Intel the L2 and the L3 as Linux numbers them (decoders/mce_intel.c).
	 */
	tap_is_int(parse_file("cache-and-server.inject.txt", &c), 3, "cache: 3 records");
	mce_decode(&c.rec[0], &out);
	tap_ok(out.cache_level == 2 && strcmp(out.transaction, "data") == 0 &&
	       strcmp(out.threshold, "green") == 0, "cache record 1: LL 01 data (L2), green");
	mce_decode(&c.rec[2], &out);
	tap_ok(out.cache_level == 3 && strcmp(out.transaction, "generic") == 0 &&
	       strcmp(out.threshold, "yellow") == 0, "cache record 3: LL 10 generic (L3), yellow");
}

static const char kernel_intel[] =
	"[  123.456789] mce: [Hardware Error]: CPU 2: Machine Check Exception: 5 Bank 1: bd80000000100134\n"
	"[  123.456790] mce: [Hardware Error]: RIP 10:<ffffffff8123abcd> {copy_user_generic+0x1d/0x30}\n"
	"[  123.456791] mce: [Hardware Error]: TSC 1a2b3c4d ADDR 12345678 MISC 86 PPIN 1122334455667788\n"
	"[  123.456792] mce: [Hardware Error]: PROCESSOR 0:50657 TIME 1700000000 SOCKET 1 APIC 4 microcode 5003604\n"
	"[  123.456793] mce: [Hardware Error]: Machine check: Data load in unrecoverable area of kernel\n"
	"[  123.456794] mce: [Hardware Error]: Run the above through 'mcelog --ascii'\n";

static const char kernel_amd[] =
	"kernel: mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 16: 9c2040000000011b\r\n"
	"kernel: mce: [Hardware Error]: TSC 0 ADDR 1234567000 MISC d01a000000000000 SYND 5a000002 IPID 9600350f00\r\n"
	"kernel: mce: [Hardware Error]: PROCESSOR 2:a00f11 TIME 1700000001 SOCKET 0 APIC 0 microcode a0011d1\r\n";

static void test_kernel_format(void)
{
	struct collected c;
	struct mce_decoded out;
	const struct mce_in *r = &c.rec[0];

	tap_is_int(parse_str(kernel_intel, &c), 1, "kernel log: one record");
	tap_ok(r->cpu == 2 && r->mcgstatus == 5 && r->bank == 1 && r->status == 0xbd80000000100134ULL,
	       "kernel log: header line");
	tap_ok(r->cs == 0x10 && r->ip == 0xffffffff8123abcdULL && r->tsc == 0x1a2b3c4d &&
	       r->addr == 0x12345678 && r->misc == 0x86 && r->has_ppin && r->ppin == 0x1122334455667788ULL,
	       "kernel log: RIP, TSC, ADDR, MISC, PPIN");
	tap_ok(r->cpuid == 0x50657 && r->walltime == 1700000000 && r->socketid == 1 && r->apicid == 4 &&
	       r->has_microcode && r->microcode == 0x5003604, "kernel log: PROCESSOR line");
	mce_decode(r, &out);
	tap_ok(strcmp(out.cpu_model_name, "Cascade Lake-SP") == 0 && strcmp(out.bank_name, "DCU") == 0 &&
	       out.severity == RAS_SEV_SRAR, "kernel log: Cascade Lake DCU SRAR (%s)", SAID(out));

	tap_is_int(parse_str(kernel_amd, &c), 1, "kernel log (AMD, CRLF): one record");
	tap_ok(r->has_synd && r->synd == 0x5a000002 && r->has_ipid && r->ipid == 0x9600350f00ULL,
	       "kernel log: SYND and IPID");
	mce_decode(r, &out);
	tap_ok(strcmp(out.bank_name, "UMC") == 0 && out.channel == 3 && out.chip_select == 2,
	       "kernel log: AMD UMC channel 3 chip select 2 (%s)", SAID(out));
}

static void test_mcelog_output_format(void)
{
	static const char text[] =
		"Hardware event. This is not a software error.\n"
		"MCE 0\n"
		"CPU 1 BANK 16 TSC 1dbca2eb9f2\n"
		"MISC 900000440401e8c ADDR 7a1b2c000\n"
		"TIME 1496915574 Thu Jun  8 12:32:54 2017\n"
		"MCG status:\n"
		"Corrected error\n"
		"STATUS 8c00004000010091 MCGSTATUS 0\n"
		"MCGCAP 1000c14 APICID 0 SOCKETID 0\n"
		"CPUID Vendor Intel Family 6 Model 85 Step 4\n";
	struct collected c;
	struct mce_decoded out;

	tap_is_int(parse_str(text, &c), 1, "mcelog output: one record");
	tap_is_int(c.n_err, 0, "mcelog output: prose lines ignored");
	mce_decode(&c.rec[0], &out);
	tap_ok(c.rec[0].walltime == 1496915574 && c.rec[0].tsc == 0x1dbca2eb9f2ULL, "mcelog output: TIME, TSC");
	tap_ok(strcmp(out.cpu_model_name, "Skylake-SP") == 0 && out.mem_ctrl == 1 && out.channel == 1,
	       "mcelog output: CPUID line gives Skylake-SP, IMC 1 channel 1 (%s)", SAID(out));
}

static void test_malformed(void)
{
	static const char text[] =
		"CPU 1 BANK 2\n"
		"STATUS zz\n"
		"ADDR 1234\n"
		"CPU 1 BANK 3\n"
		"STATUS 0x8800000000000080\n"
		"PROCESSOR 0:0x50654\n"
		"CPU x 3\n"
		"CPU 2 BANK 300\n"
		"CPU 3 4\n"
		"RIP 10\n"
		"CPU 4 5\n"
		"STATUS 0x11112222333344445\n"
		"CPU 5 6 STATUS 0x8800000000000080\n";
	/* A record without STATUS has nothing to decode; it is not a VAL=0 record. */
	static const char no_status[] = "CPU 1 BANK 4\nADDR 1234\nMCGSTATUS 0\n\nCPU 0 BANK 7\nSTATUS 8c00004000010090\n";
	static const char orphan[] = "STATUS 0x8800000000000080\nCPU 0 1\nSTATUS 9\n";
	static const char xen_no_cpu[] = "(XEN) Bank 2: d400008000040150 at 1000\n";
	struct collected c;
	char longline[MCE_TEXT_MAX_LINE + 20];

	tap_is_int(parse_str(text, &c), 2, "malformed: the good records are still delivered");
	tap_is_int(c.n_err, 5, "malformed: five errors reported");
	tap_ok(c.err_line[0] == 2 && strcmp(c.err[0], "bad STATUS value") == 0, "bad STATUS at line 2");
	tap_ok(c.err_line[1] == 7 && strcmp(c.err[1], "bad CPU number") == 0, "bad CPU number at line 7");
	tap_ok(c.err_line[2] == 8 && strcmp(c.err[2], "bad BANK value") == 0, "bank out of range at line 8");
	tap_ok(c.err_line[3] == 10, "bad RIP at line 10 (%s)", c.err[3]);
	tap_ok(c.err_line[4] == 12, "STATUS overflow at line 12 (%s)", c.err[4]);
	tap_ok(c.first_line[0] == 4 && c.rec[0].bank == 3 && c.rec[0].status == 0x8800000000000080ULL,
	       "record after the bad one decoded (line 4)");
	tap_ok(c.first_line[1] == 13 && c.rec[1].bank == 6, "last record (line 13)");

	tap_is_int(parse_str(no_status, &c), 1, "record without STATUS is not delivered");
	tap_ok(c.n_err == 1 && c.err_line[0] == 1 && strcmp(c.err[0], "machine-check record without STATUS") == 0,
	       "record without STATUS reported at its first line (%s)", c.err[0]);
	tap_ok(c.first_line[0] == 5 && c.rec[0].bank == 7, "the next record is still delivered");
	tap_is_int(parse_str(orphan, &c), 1, "field before any CPU line");
	tap_ok(c.n_err == 1 && c.err_line[0] == 1, "reported at line 1 (%s)", c.err[0]);

	tap_is_int(parse_str(xen_no_cpu, &c), 0, "Xen Bank line without CPU is dropped");
	tap_is_int(c.n_err, 1, "and reported");

	memset(longline, 'A', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	tap_is_int(parse_str(longline, &c), 0, "over-long line");
	tap_is_int(c.n_err, 1, "over-long line reported");

	memset(&c, 0, sizeof(c));
	c.stop_after = 1;
	tap_is_int(mce_text_parse(text, strlen(text), on_record, on_error, &c), -ECANCELED,
		   "callback error stops parsing");
	tap_is_int(mce_text_parse(NULL, 5, on_record, NULL, &c), -EINVAL, "NULL buffer");
	tap_is_int(mce_text_parse("x", 1, NULL, NULL, &c), -EINVAL, "NULL callback");
	tap_is_int(mce_text_parse("", 0, on_record, NULL, &c), 0, "empty input");
}

int main(void)
{
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		check_file(&files[i]);
	test_file_fields();
	test_kernel_format();
	test_mcelog_output_format();
	test_malformed();
	return tap_done();
}
