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
#include "tests/tap.h"

#define MAX 16

struct got {
	int n, n_err;
	unsigned line[MAX], err_line[MAX];
	enum rasd_text_kind kind[MAX];
	struct edac_decoded edac[MAX];
	struct aer_decoded aer[MAX];
	struct mce_decoded mce[MAX];
	struct mce_in mce_in[MAX];
	char note[MAX][TEXT_NOTES][96];
};

static int on_rec(void *ctx, const struct rasd_text_rec *r, unsigned line)
{
	struct got *g = ctx;
	int i = g->n;

	if (i >= MAX)
		return -ENOSPC;
	g->kind[i] = r->kind;
	g->line[i] = line;
	if (r->kind == RASD_TEXT_EDAC)
		edac_decode(&r->in.edac, &g->edac[i]);
	else if (r->kind == RASD_TEXT_AER)
		aer_decode(&r->in.aer, &g->aer[i]);
	else {
		g->mce_in[i] = r->in.mce;
		mce_decode(&r->in.mce, &g->mce[i]);
	}
	for (int k = 0; k < TEXT_NOTES; k++)
		if (r->notes[k].key)
			snprintf(g->note[i][k], sizeof(g->note[i][k]), "%s=%.*s", r->notes[k].key,
				 (int)r->notes[k].value_len, r->notes[k].value);
	g->n++;
	return 0;
}

static void on_err(void *ctx, unsigned line, const char *reason)
{
	struct got *g = ctx;

	(void)reason;
	if (g->n_err < MAX)
		g->err_line[g->n_err] = line;
	g->n_err++;
}

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

int main(void)
{
	struct got g;

	memset(&g, 0, sizeof(g));
	tap_is_int(rasd_text_parse(rows, strlen(rows), on_rec, on_err, &g), 14, "fourteen records (the CE and UE of one error-count row apart)");
	tap_is_int(g.n_err, 3, "three refused");
	tap_is_int(g.err_line[0], 8, "summary row naming no bit refused");
	tap_is_int(g.err_line[1], 17, "bad location refused");
	tap_is_int(g.err_line[2], 18, "unknown AER name refused");

	tap_is_int(g.edac[0].mc_index, 3, "errors row: mc 3");
	tap_is_int(g.edac[0].top_layer, 1, "errors row: top layer");
	tap_is_int(g.edac[0].lower_layer, RAS_DF_NONE, "errors row: -1 is no layer");
	tap_is_int(g.edac[0].address, 473047662528LL, "errors row: decimal address");
	tap_is_int(g.edac[0].grain, 32, "errors row: grain is grain_bits");
	tap_is_str(g.edac[0].label, "CPU_SrcID#1_MC#1_Chan#1_DIMM#0", "errors row: label");
	tap_is_str(g.edac[0].msg, "memory read error", "errors row: message");
	tap_ok(strncmp(g.edac[0].driver_detail, "err_code:0x0101:0x0091 socket:1", 31) == 0, "errors row: detail");
	tap_is_str(g.note[0][1], "timestamp=2022-10-16 06:55:24 +0000", "errors row: timestamp kept");
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
	tap_is_str(g.note[4][2], "rasdaemon_message=Corrected error, no action required.", "MCE row: rasdaemon's words kept");
	tap_is_int(g.mce_in[5].bank, 21, "MCE row without a timestamp: bank");
	tap_is_int(g.mce[5].overflow, 1, "MCE row without a timestamp: overflow");

	tap_is_int(g.aer[6].status, 0x80, "summary: Bad DLLP is bit 7");
	tap_is_str(g.note[6][1], "count=2", "summary: the count kept");
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
	tap_is_str(g.note[10][1], "timestamp=2025-03-28 13:28:48 +0800", "log line: timestamp");

	tap_is_int(g.edac[11].error_count, 53, "memory summary: count");
	tap_is_int(g.edac[11].grain, RAS_DF_NONE, "memory summary: no grain claimed");
	tap_is_int(g.aer[12].status, 0x41, "AER log line: two bits");
	tap_is_str(g.aer[12].dev_desc, "Root Port #5", "AER log line: device name");
	tap_is_int(g.mce_in[13].bank, 7, "mce_record line: bank=7");
	tap_is_int(g.mce_in[13].misc, 0x8c, "mce_record line: misc");
	tap_is_int(g.mce_in[13].cpu, 3, "mce_record line: cpu");
	tap_is_str(g.mce[13].cpu_model_name, "Skylake-SP", "mce_record line: Skylake server is 06_55H");
	tap_is_str(g.note[13][2], "rasdaemon_message=Corrected error", "mce_record line: message");
	tap_is_int(rasd_text_parse(NULL, 1, on_rec, NULL, NULL), -EINVAL, "NULL buffer");
	return tap_done();
}
