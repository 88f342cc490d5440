/* SPDX-License-Identifier: MIT */
/*
 * rasdaemon's output read back: ras-mc-ctl --errors / --summary /
 * --error-count rows and rasdaemon's mc_event / aer_event log lines
 * (formats: rasdaemon util/ras-mc-ctl.in, ras-mc-handler.c,
 * ras-aer-handler.c). Rows are real output quoted in public reports, named
 * per vector; "synthetic" ones are written from the format strings.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "decoders/rasd_text.h"
#include "tests/decoders/text_got.h"
#include "tests/tap.h"

#define MAX TEXT_GOT_MAX

struct got {
	struct text_got t;   /* first: the parser's ctx */
	enum rasd_text_kind kind[MAX];
	struct edac_decoded edac[MAX];
	struct aer_decoded aer[MAX];
	struct mce_decoded mce[MAX];
	struct mce_in mce_in[MAX];
	struct extlog_decoded extlog[MAX];
	struct devlink_decoded devlink[MAX];
	struct blockerr_decoded disk[MAX];
	struct memfail_decoded memfail[MAX];
};

static int on_rec(void *ctx, const struct rasd_text_rec *r, unsigned line)
{
	struct got *g = ctx;
	int i = text_got_add(&g->t, line);

	if (i < 0)
		return i;
	g->kind[i] = r->kind;
	switch (r->kind) {
	case RASD_TEXT_EDAC: edac_decode(&r->in.edac, &g->edac[i]); break;
	case RASD_TEXT_AER: aer_decode(&r->in.aer, &g->aer[i]); break;
	case RASD_TEXT_EXTLOG: extlog_decode(&r->in.extlog, &g->extlog[i]); break;
	case RASD_TEXT_DEVLINK: devlink_decode(&r->in.devlink, &g->devlink[i]); break;
	case RASD_TEXT_DISK: blockerr_decode(&r->in.disk, &g->disk[i]); break;
	case RASD_TEXT_MEMFAIL: memfail_decode(&r->in.memfail, &g->memfail[i]); break;
	case RASD_TEXT_MCE:
		g->mce_in[i] = r->in.mce;
		mce_decode(&r->in.mce, &g->mce[i]);
		break;
	}
	text_got_notes(&g->t, i, r->notes);
	return 0;
}

#define on_err text_got_error

static const char rows[] =
	/* 1-2: openstreetmap/operations#759 (skx_edac), NixOS/nixpkgs#85039 (amd64_edac) */
	"24 2022-10-16 06:55:24 +0000 1 Corrected error(s): memory read error at CPU_SrcID#1_MC#1_Chan#1_DIMM#0 location: 3:1:0:-1, addr 473047662528, grain 5, syndrome 0  err_code:0x0101:0x0091 socket:1 imc:1 rank:0 bg:1 ba:3 row:0x16a3d col:0x3f8\n"
	"1 2021-02-27 03:09:05 +0100 1 Corrected error(s): FAKE ERROR at unknown memory location: 0:0:0:0, addr 0, grain 0, syndrome 0 for EDAC testing only\n"
	/* 3-4: mchehab/rasdaemon#12 */
	"1 2020-04-16 22:09:48 +0000 0000:0b:00.0 Corrected error: Receiver Error\n"
	"3 2020-04-17 23:00:37 +0000 0000:d9:01.0 Corrected error: Advisory Non-Fatal, BIT15\n"
	/* 5-6: NixOS/infra#523, mchehab/rasdaemon#121 (timestamp missing) */
	"1 2024-12-19 03:52:38 +0000 error: Corrected error, no action required., CPU 2, bank Unified Memory Controller (bank=17), mcg mcgstatus=0, mci CECC, memory_channel=0,csrow=1, mcgcap=0x0000011c, status=0x9c2040000000011b, addr=0x319deb440, misc=0xd01b0fff01000000, walltime=0x67639886, cpuid=0x00870f10, bank=0x00000011\n"
	"1 .. error: Corrected error, no action required., CPU 2, bank Unified Memory Controller (bank=21), mcg mcgstatus=0, mci Error_overflow CECC, memory_channel=0,csrow=2, mcgcap=0x0000011d, status=0xdc2040000400011b, addr=0x7d41b7940, misc=0xd01a000601000000, walltime=0x6506e4a4, cpuid=0x00a60f12, bank=0x00000015\n"
	/* 7-9: mchehab/rasdaemon#228 (--summary) */
	"        2 Corrected errors: Bad DLLP\n"
	"        6 Uncorrected (Fatal) errors: \n"
	"        1 Uncorrected (Non-Fatal) errors: Completer Abort TLP Header: 00000000 00000001 00000002 00000003\n"
	/* 10-12: mchehab/rasdaemon#121 (--error-count), one count made non-zero */
	"Label               \tCE\tUE\n"
	"mc#0csrow#3channel#0\t0\t0\n"
	"mc#0csrow#2channel#0\t4\t1\n"
	/* 13: mchehab/rasdaemon#209 (a log line with an event level) */
	"<...>-1367638 [026] d.H.     0.024825 mc_event [CRIT] 2025-03-28 13:28:48 +0800 1 Uncorrected error: multi-bit ECC on unknown memory (mc: 0 address: 0xe53218400 grain: 0 APEI location: node:0 card:2 module:0 rank:0 bank_group:4 bank_address:0 row:25906 column:64 chip_id:0 status(0x0000000000000400): Storage error in DRAM memory)\n"
	/* 14-15: synthetic (ras-mc-ctl summary, ras-aer-handler log line) */
	"\tCorrected on DIMM Label(s): 'CPU_SrcID#1_MC#1_Chan#1_DIMM#0' location: 3:1:0:-1 errors: 53\n"
	"rasdaemon[812]: <...>-812 [003] .... 512.000000 aer_event 2024-05-01 10:00:00 +0000 0000:00:1c.0 (Root Port #5 - vendor_id: 0x8086 device_id: 0xa33c) Receiver Error, Bad TLP Corrected\n"
	/* 16: synthetic (ras-mce-handler.c report_mce_event) */
	"rasdaemon[812]: <...>-812 [003] .... 612.000000 mce_record 2024-05-01 10:10:00 +0000 bank=7, status= 8c00004000010090, Corrected error, mci=Error_overflow Corrected_error, cpu_type= Skylake server, cpu= 3, socketid= 0, misc= 8c, mcgstatus= 0, mcgcap= 1c09, apicid= 6\n"
	/* 17-19: recognised but malformed; not rasdaemon's */
	"7 2022-10-16 06:55:24 +0000 1 Corrected error(s): memory read error at DIMM_A1 location: 3:x:0:-1, addr 1, grain 5, syndrome 0\n"
	"2 2020-04-16 22:09:48 +0000 0000:0b:00.0 Corrected error: Frobnicated\n"
	"[    1.000000] ACPI Error: AE_NOT_FOUND, While resolving a named reference package element (20190816/dspkginit-438)\n";

static const char other[] =
	/* 1-2: "ras-mc-ctl: add memory failure events", linux-edac, 2020 */
	"1 2020-10-28 23:20:41 -0800 error: pfn=0x204000000, page_type=free buddy page, action_result=Delayed\n"
	"5 2020-10-29 00:26:36 -0800 error: pfn=0x205000000, page_type=free buddy page, action_result=Failed\n"
	/* 3-13: synthetic, from util/ras-mc-ctl.in and the handlers' format strings */
	"3 2024-01-02 10:00:00 +0000 error: type=multi-bit ECC, severity=fatal, address=0x12345000, fru_id=00000000-0000-0000-0000-000000000000, fru_text='DIMM_A1', node=1, card=0, module=2, bank=5, row=4887, 0x00000010, rank=1, mem_dev_handle=33\n"
	"4 2024-01-02 10:00:01 +0000 error: type=single-bit ECC, severity=corrected, address=0xffffffffffffffff, fru_id=01020304-0506-0708-090a-0b0c0d0e0f10, fru_text='', \n"
	"1 2023-02-03 04:05:06 +0000 error: bus_name=pci, dev_name=0000:3b:00.0, driver_name=mlx5_core, reporter_name=fw_fatal, message='Crdump taken', \n"
	"2 2023-02-03 04:05:07 +0000 error: bus_name=, dev_name=eth0, driver_name=ixgbe, reporter_name=, message='TX timeout on queue: 3\n"
	"', \n"
	"1 2023-03-04 05:06:07 +0000 error: dev=8:16, sector=123456, nr_sector=8, error='critical medium error', rwbs='R', cmd='', \n"
	"2 2023-03-04 05:06:08 +0000 error: dev=259:0, sector=99, nr_sector=1, error='unknown block error', rwbs='W', cmd='', \n"
	"3 2023-03-04 05:06:09 +0000 error: dev=8:0, sector=1, nr_sector=8, error='critical nexus error', rwbs='WS', cmd='', \n"
	"extlog_mem_event 2024-01-02 10:00:00 +0000 [EMERG] 7 fatal error: multi-bit ECC physical addr: 0x12345000 mask: 0xfffffffffffff000 (node: 1 card: 0 rank: 1 module_handle: 33) DIMM_A1 00000000-0000-0000-0000-000000000000\n"
	"extlog_mem_event 2014-06-01 10:00:00 +0200 3 corrected error: single-bit ECC physical addr: 0x4000 mask: 0xffffffffffffffff  01020304-0506-0708-090a-0b0c0d0e0f10\n"
	"Jan 02 10:00:00 host rasdaemon[812]: memory_failure_event [ALERT] 2024-01-02 10:00:00 +0000 pfn=0x1a2b3 page_type=kernel slab page action_result=Ignored \n"
	/* 14-15: recognised but malformed */
	"6 2020-10-29 00:26:36 -0800 error: pfn=0x205000000, page_type=a page, action_result=Failed\n"
	"extlog_mem_event 2024-01-02 10:00:00 +0000 7 fatal error: multi-bit ECC physical addr: 0x12 mask: 0x0 (node: x) DIMM 00000000-0000-0000-0000-000000000000\n";

static void test_other(void)
{
	struct got g;

	memset(&g, 0, sizeof(g));
	tap_is_int(rasd_text_parse(other, strlen(other), on_rec, on_err, &g), 11,
		   "other: eleven extlog, devlink, disk and memory failure records");
	tap_is_int(g.t.n_err, 3, "other: three refused");
	tap_is_int(g.t.err_line[0], 9, "disk: an error rasdaemon could not name refused");
	tap_is_int(g.t.err_line[1], 14, "memory failure: a page type rasdaemon never prints refused");
	tap_is_int(g.t.err_line[2], 15, "extlog log line: a bad location refused");
	tap_is_int(g.kind[0], RASD_TEXT_MEMFAIL, "memory failure row: read by the memory failure decoder");
	tap_is_int(g.memfail[0].pfn, 0x204000000LL, "memory failure row: pfn");
	tap_is_str(g.memfail[0].type_name, "free buddy page", "memory failure row: page type named as rasdaemon named it");
	tap_is_str(g.memfail[0].result_name, "Delayed", "memory failure row: result");
	tap_is_int(g.memfail[0].severity, RAS_SEV_SRAO, "memory failure row: a delayed page is action optional");
	tap_is_int(g.memfail[1].severity, RAS_SEV_UNCORRECTED, "memory failure row: failed recovery");
	tap_is_str(g.t.note[0][1], "timestamp=2020-10-28 23:20:41 -0800", "memory failure row: timestamp kept");
	tap_is_int(g.kind[2], RASD_TEXT_EXTLOG, "extlog row: read by the extlog decoder");
	tap_is_int(g.extlog[2].severity, RAS_SEV_FATAL, "extlog row: fatal");
	tap_is_str(g.extlog[2].etype_name, "multi-bit ECC", "extlog row: type");
	tap_is_int(g.extlog[2].pa, 0x12345000, "extlog row: address");
	tap_is_int(g.extlog[2].node, 1, "extlog row: node");
	tap_is_int(g.extlog[2].row, 4887, "extlog row: row");
	tap_is_int(g.extlog[2].requestor_id, RAS_DF_NONE, "extlog row: an unnamed hex id is not guessed");
	tap_is_int(g.extlog[2].mem_dev_handle, 33, "extlog row: mem_dev_handle");
	tap_is_str(g.extlog[2].fru_text, "DIMM_A1", "extlog row: FRU text");
	tap_is_int(g.extlog[3].pa, RAS_DF_NONE, "extlog row: all-ones address is none");
	tap_is_str(g.extlog[3].fru_guid, "01020304-0506-0708-090a-0b0c0d0e0f10", "extlog row: FRU id");
	tap_is_int(g.extlog[3].node, RAS_DF_NONE, "extlog row without location: nothing claimed");
	tap_is_int(g.kind[4], RASD_TEXT_DEVLINK, "devlink row: read by the devlink decoder");
	tap_is_str(g.devlink[4].driver_name, "mlx5_core", "devlink row: driver");
	tap_is_str(g.devlink[4].reporter_name, "fw_fatal", "devlink row: reporter");
	tap_is_str(g.devlink[4].msg, "Crdump taken", "devlink row: message");
	tap_is_str(g.devlink[5].msg, "TX timeout on queue: 3", "devlink row: a message cut by its newline");
	tap_is_int(g.kind[6], RASD_TEXT_DISK, "disk row: read by the block error decoder");
	tap_is_int(g.disk[6].major, 8, "disk row: major");
	tap_is_int(g.disk[6].minor, 16, "disk row: minor");
	tap_is_int(g.disk[6].sector, 123456, "disk row: sector");
	tap_is_int(g.disk[6].error, -ENODATA, "disk row: critical medium error is ENODATA");
	tap_is_str(g.disk[6].operation, "read", "disk row: rwbs R");
	tap_is_int(g.disk[7].error, -EBADE, "disk row: rasdaemon's critical nexus is EBADE");
	tap_is_int(g.extlog[8].err_seq, 7, "extlog log line: sequence number");
	tap_is_int(g.extlog[8].pa_mask_lsb, 12, "extlog log line: mask lsb");
	tap_is_int(g.extlog[8].rank, 1, "extlog log line: rank");
	tap_is_int(g.extlog[8].mem_dev_handle, 33, "extlog log line: module_handle");
	tap_is_str(g.extlog[8].fru_text, "DIMM_A1", "extlog log line: FRU text");
	tap_is_str(g.t.note[8][1], "timestamp=2024-01-02 10:00:00 +0000", "extlog log line: timestamp without the level");
	tap_is_int(g.extlog[9].pa_mask_lsb, RAS_DF_NONE, "extlog log line: an all-ones mask is none");
	tap_is_str(g.extlog[9].fru_text, "", "extlog log line: empty FRU text");
	tap_is_int(g.extlog[9].severity, RAS_SEV_CORRECTED, "extlog log line: corrected, old rasdaemon without a level");
	tap_is_int(g.memfail[10].pfn, 0x1a2b3, "memory failure log line: pfn");
	tap_is_str(g.memfail[10].type_name, "kernel slab page", "memory failure log line: page type");
	tap_is_str(g.memfail[10].result_name, "Ignored", "memory failure log line: result");
}

/* Lines that end where a parser looks past a word: nothing is read after the line's NUL. */
static void test_line_ends(void)
{
	static const char mc_tail[] = " mc_event 2024-01-01 00:00:00 +0000 1 Corrected error";
	char line[1100];
	struct got g;

	/* 1023 bytes, the most the reader keeps: " error" ends the kept line (ASan: read past it). */
	memset(line, 'x', sizeof(line));
	memcpy(line + 1023 - strlen(mc_tail), mc_tail, strlen(mc_tail));
	line[1023] = '\n';
	memset(&g, 0, sizeof(g));
	tap_is_int(rasd_text_parse(line, 1024, on_rec, on_err, &g), 0, "mc_event line ending in \" error\": no record");
	tap_is_int(g.t.n_err, 1, "mc_event line ending in \" error\": refused, nothing read past its end");
}

/* Words left empty, where the text around them shares its spaces: an empty word, never a negative length. */
static void test_empty_words(void)
{
	static const char lines[] =
		"1 2024-12-19 03:52:38 +0000 error: Corrected error, bank (bank=17), status=0x9c2040000000011b\n"
		"extlog_mem_event 2014-06-01 10:00:00 +0200 3 error: physical addr: 0x4000 mask: 0xffffffffffffffff  01020304-0506-0708-090a-0b0c0d0e0f10\n";
	struct got g;

	memset(&g, 0, sizeof(g));
	tap_is_int(rasd_text_parse(lines, strlen(lines), on_rec, on_err, &g), 2, "empty words: two records");
	tap_is_int(g.mce_in[0].ipid_type_only, 0, "MCE row: an empty bank name names no bank type");
	tap_is_int(g.extlog[1].cper_severity, 0xff, "extlog log line: no severity word, unknown (0xff)");
	tap_is_int(g.extlog[1].etype, RAS_DF_NONE, "extlog log line: no type word, none claimed");
	tap_is_int(g.extlog[1].pa, 0x4000, "extlog log line without severity and type: address");
}

int main(void)
{
	struct got g;

	memset(&g, 0, sizeof(g));
	tap_is_int(rasd_text_parse(rows, strlen(rows), on_rec, on_err, &g), 14, "fourteen records (the CE and UE of one error-count row apart)");
	tap_is_int(g.t.n_err, 3, "three refused");
	tap_is_int(g.t.err_line[0], 8, "summary row naming no bit refused");
	tap_is_int(g.t.err_line[1], 17, "bad location refused");
	tap_is_int(g.t.err_line[2], 18, "unknown AER name refused");

	tap_is_int(g.edac[0].mc_index, 3, "errors row: mc 3");
	tap_is_int(g.edac[0].top_layer, 1, "errors row: top layer");
	tap_is_int(g.edac[0].lower_layer, RAS_DF_NONE, "errors row: -1 is no layer");
	tap_is_int(g.edac[0].address, 473047662528LL, "errors row: decimal address");
	tap_is_int(g.edac[0].grain, 32, "errors row: grain is grain_bits");
	tap_is_str(g.edac[0].label, "CPU_SrcID#1_MC#1_Chan#1_DIMM#0", "errors row: label");
	tap_is_str(g.edac[0].msg, "memory read error", "errors row: message");
	tap_ok(strncmp(g.edac[0].driver_detail, "err_code:0x0101:0x0091 socket:1", 31) == 0, "errors row: detail");
	tap_is_str(g.t.note[0][1], "timestamp=2022-10-16 06:55:24 +0000", "errors row: timestamp kept");
	tap_is_str(g.edac[1].label, "unknown memory", "label with a space");

	tap_is_int(g.aer[2].status, 0x1, "AER row: Receiver Error is bit 0");
	tap_is_str(g.aer[2].dev_name, "0000:0b:00.0", "AER row: device");
	tap_is_int(g.aer[3].status, 0xa000, "AER row: Advisory Non-Fatal and BIT15");

	tap_is_int(g.mce_in[4].cpuvendor, 2, "MCE row: CPU 2 is AMD");
	tap_is_int(g.mce_in[4].status, (int64_t)0x9c2040000000011bULL, "MCE row: status");
	tap_is_int(g.mce_in[4].bank, 17, "MCE row: bank");
	tap_is_int(g.mce_in[4].cpuid, 0x870f10, "MCE row: cpuid");
	tap_is_int(g.mce_in[4].ipid_type_only, 1, "MCE row: bank type from its name");
	tap_is_str(g.mce[4].bank_name, "UMC", "MCE row: decoded as a UMC bank");
	tap_is_str(g.t.note[4][2], "rasdaemon_message=Corrected error, no action required.", "MCE row: rasdaemon's words kept");
	tap_is_int(g.mce_in[5].bank, 21, "MCE row without a timestamp: bank");
	tap_is_int(g.mce[5].overflow, 1, "MCE row without a timestamp: overflow");

	tap_is_int(g.aer[6].status, 0x80, "summary: Bad DLLP is bit 7");
	tap_is_str(g.t.note[6][1], "count=2", "summary: the count kept");
	tap_is_int(g.aer[7].severity, RAS_SEV_UNCORRECTED, "summary: non-fatal");
	tap_is_int(g.aer[7].status, 1 << 15, "summary: Completer Abort");
	tap_ok(strstr(g.aer[7].tlp_header_text, "00000000 00000001") != NULL, "summary: TLP header read");

	tap_is_int(g.edac[8].error_count, 4, "error-count: CE count");
	tap_is_int(g.edac[8].mc_index, RAS_DF_NONE, "error-count: no controller claimed");
	tap_is_int(g.edac[8].address, RAS_DF_NONE, "error-count: no address claimed");
	tap_is_str(g.edac[8].location, "mc#0csrow#2channel#0", "error-count: the label is the location");
	tap_is_int(g.edac[9].severity, RAS_SEV_UNCORRECTED, "error-count: UE count its own record");

	tap_is_int(g.edac[10].address, 0xe53218400LL, "log line: address");
	tap_is_int(g.edac[10].severity, RAS_SEV_UNCORRECTED, "log line: uncorrected");
	tap_is_str(g.edac[10].label, "unknown memory", "log line: label after ' on '");
	tap_is_str(g.edac[10].msg, "multi-bit ECC", "log line: message");
	tap_ok(strncmp(g.edac[10].driver_detail, "APEI location: node:0", 21) == 0, "log line: detail");
	tap_is_str(g.t.note[10][1], "timestamp=2025-03-28 13:28:48 +0800", "log line: timestamp");

	tap_is_int(g.edac[11].error_count, 53, "memory summary: count");
	tap_is_int(g.edac[11].grain, RAS_DF_NONE, "memory summary: no grain claimed");
	tap_is_int(g.aer[12].status, 0x41, "AER log line: two bits");
	tap_is_str(g.aer[12].dev_desc, "Root Port #5", "AER log line: device name");
	tap_is_int(g.mce_in[13].bank, 7, "mce_record line: bank=7");
	tap_is_int(g.mce_in[13].misc, 0x8c, "mce_record line: misc");
	tap_is_int(g.mce_in[13].cpu, 3, "mce_record line: cpu");
	tap_is_str(g.mce[13].cpu_model_name, "Skylake-SP", "mce_record line: Skylake server is 06_55H");
	tap_is_str(g.t.note[13][2], "rasdaemon_message=Corrected error", "mce_record line: message");
	tap_is_int(rasd_text_parse(NULL, 1, on_rec, NULL, NULL), -EINVAL, "NULL buffer");
	test_other();
	test_line_ends();
	test_empty_words();
	return tap_done();
}
