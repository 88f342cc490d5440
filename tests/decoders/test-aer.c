/* SPDX-License-Identifier: MIT */
/* Tests of the PCIe AER decoder, TLP header decode and dmesg text parser. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "decoders/aer.h"
#include "decoders/aer_text.h"
#include "tests/decoders/said.h"
#include "tests/tap.h"

/*
 * Golden bit names: PCI Express Base Specification r6.0,
 * 7.8.4.2 Uncorrectable Error Status Register and
 * 7.8.4.5 Correctable Error Status Register.
 */
static const struct { unsigned bit; const char *name; } uncor_golden[] = {
	{ 0, "Undefined" }, { 4, "Data Link Protocol Error" },
	{ 5, "Surprise Down Error" }, { 12, "Poisoned TLP Received" },
	{ 13, "Flow Control Protocol Error" }, { 14, "Completion Timeout" },
	{ 15, "Completer Abort" }, { 16, "Unexpected Completion" },
	{ 17, "Receiver Overflow" }, { 18, "Malformed TLP" },
	{ 19, "ECRC Error" }, { 20, "Unsupported Request Error" },
	{ 21, "ACS Violation" }, { 22, "Uncorrectable Internal Error" },
	{ 23, "MC Blocked TLP" }, { 24, "AtomicOp Egress Blocked" },
	{ 25, "TLP Prefix Blocked Error" }, { 26, "Poisoned TLP Egress Blocked" },
	{ 27, "DMWr Request Egress Blocked" }, { 28, "IDE Check Failed" },
	{ 29, "Misrouted IDE TLP" }, { 30, "PCRC Check Failed" },
	{ 31, "TLP Translation Egress Blocked" },
};
static const struct { unsigned bit; const char *name; } cor_golden[] = {
	{ 0, "Receiver Error" }, { 6, "Bad TLP" }, { 7, "Bad DLLP" },
	{ 8, "REPLAY_NUM Rollover" }, { 12, "Replay Timer Timeout" },
	{ 13, "Advisory Non-Fatal Error" }, { 14, "Corrected Internal Error" },
	{ 15, "Header Log Overflow" },
};

static void test_bits(void)
{
	char buf[128];
	uint32_t named = 0;

	for (size_t i = 0; i < sizeof(uncor_golden) / sizeof(uncor_golden[0]); i++) {
		aer_decode_status(1u << uncor_golden[i].bit, 0, buf, sizeof(buf));
		tap_is_str(buf, uncor_golden[i].name, "uncorrectable bit %u", uncor_golden[i].bit);
		named |= 1u << uncor_golden[i].bit;
	}
	for (unsigned b = 0; b < 32; b++)
		if (!(named & (1u << b)))
			tap_ok(aer_status_bit_name(b, 0) == NULL, "uncorrectable bit %u reserved", b);
	named = 0;
	for (size_t i = 0; i < sizeof(cor_golden) / sizeof(cor_golden[0]); i++) {
		aer_decode_status(1u << cor_golden[i].bit, 1, buf, sizeof(buf));
		tap_is_str(buf, cor_golden[i].name, "correctable bit %u", cor_golden[i].bit);
		named |= 1u << cor_golden[i].bit;
	}
	for (unsigned b = 0; b < 32; b++)
		if (!(named & (1u << b)))
			tap_ok(aer_status_bit_name(b, 1) == NULL, "correctable bit %u reserved", b);
	aer_decode_status(0x41, 1, buf, sizeof(buf));
	tap_is_str(buf, "Receiver Error, Bad TLP", "two correctable bits");
	aer_decode_status(0x2, 1, buf, sizeof(buf));
	tap_is_str(buf, "bit 1", "reserved bit kept as a number");
	tap_is_str(aer_status_bit_short(0, 1), "RxErr", "Linux short name of bit 0");
	tap_is_str(aer_status_bit_short(14, 0), "CmpltTO", "Linux short name of CmpltTO");
}

/* TLP vectors built by hand from PCIe Base Spec r6.0 2.2.1 (common header),
 * 2.2.7 (memory/IO/config requests), 2.2.8 (messages), 2.2.9 (completions). */
static void test_tlp(void)
{
	struct aer_tlp t;
	uint32_t mrd64[4] = { 0x20000001, 0x03000a0f, 0x00000001, 0x23456780 };
	uint32_t mwr32[4] = { 0x40000010, 0x010005ff, 0xfed00004, 0 };
	uint32_t cpld[4] = { 0x4a000001, 0x01000004, 0x00001000, 0 };
	uint32_t cpl_ur[4] = { 0x0a000000, 0x02002004, 0x00000c00, 0 };
	uint32_t cfgrd[4] = { 0x04000001, 0x00000c0f, 0x01080100, 0 };
	uint32_t errcor[4] = { 0x30000000, 0x03000030, 0, 0 };
	uint32_t tag10[4] = { 0x00880001, 0x0300ff0f, 0x1000, 0 };
	uint32_t rsvd[4] = { 0xa0000000, 0, 0, 0 };
	uint32_t fadd[4] = { 0x4c000001, 0x01000100, 0x2000, 0 };
	uint32_t lprfx[4] = { 0x80000000, 0, 0, 0 };
	uint32_t tdep[4] = { 0x0000c001, 0, 0, 0 };
	char rid[16];

	aer_tlp_decode(mrd64, &t);
	tap_is_str(t.name, "MRd", "MRd name");
	tap_is_int(t.header_dw, 4, "MRd 4DW header");
	tap_is_int(t.requester_id, 0x0300, "MRd requester");
	tap_is_int(t.tag, 0x0a, "MRd tag");
	tap_is_int(t.address, 0x123456780ULL, "MRd 64-bit address");
	tap_is_int(t.first_be, 0xf, "MRd first BE");
	aer_tlp_decode(mwr32, &t);
	tap_is_str(t.name, "MWr", "MWr name");
	tap_is_int(t.address, 0xfed00004, "MWr 32-bit address");
	tap_is_int(t.length_dw, 16, "MWr length");
	aer_tlp_decode(cpld, &t);
	tap_is_str(t.name, "CplD", "CplD name");
	tap_is_int(t.completer_id, 0x0100, "CplD completer");
	tap_is_int(t.cpl_status, 0, "CplD status");
	tap_is_int(t.byte_count, 4, "CplD byte count");
	tap_is_int(t.tag, 0x10, "CplD tag");
	aer_tlp_decode(cpl_ur, &t);
	tap_is_str(t.name, "Cpl", "Cpl name");
	tap_is_str(t.cpl_status_name, "Unsupported Request", "Cpl UR");
	aer_tlp_decode(cfgrd, &t);
	tap_is_str(t.name, "CfgRd0", "CfgRd0 name");
	tap_is_int(t.cfg_target_id, 0x0108, "CfgRd0 target");
	tap_is_int(t.cfg_register, 0x100, "CfgRd0 register");
	aer_tlp_decode(errcor, &t);
	tap_is_str(t.name, "Msg", "Msg name");
	tap_is_str(t.msg_name, "ERR_COR", "ERR_COR message");
	aer_tlp_decode(tag10, &t);
	tap_is_int(t.tag, 0x3ff, "10-bit tag from T9/T8");
	aer_tlp_decode(rsvd, &t);
	tap_is_str(t.name, "unknown", "reserved Fmt is unknown");
	aer_tlp_decode(fadd, &t);
	tap_is_str(t.name, "FetchAdd", "FetchAdd name");
	aer_tlp_decode(lprfx, &t);
	tap_is_str(t.name, "LPrfx", "local prefix");
	aer_tlp_decode(tdep, &t);
	tap_ok(t.td && t.ep, "TD and EP bits");
	aer_format_rid(0x1a3f, rid, sizeof(rid));
	tap_is_str(rid, "1a:07.7", "routing id format");
}

static void test_decode(void)
{
	struct aer_decoded d;
	struct aer_in in = {
		.dev_name = "0000:00:1c.0", .dev_name_len = 12,
		.status = 0x41, .severity = AER_TP_CORRECTED,
		.dev_desc = "Intel Corporation Root Port", .dev_desc_len = 27,
	};
	struct aer_in ue = {
		.dev_name = "0000:03:00.0\0garbage", .dev_name_len = 20,
		.status = 1u << 14, .severity = AER_TP_NONFATAL,
		.tlp_header_valid = 1,
		.tlp_header = { 0x20000001, 0x03000a0f, 0x00000001, 0x23456780 },
	};

	tap_is_int(aer_decode(&in, &d), 0, "decode corrected");
	tap_is_int(d.severity, RAS_SEV_CORRECTED, "corrected severity");
	tap_is_str(SAID(d), "PCIe corrected error at 0000:00:1c.0 (Intel Corporation Root Port): Receiver Error, Bad TLP",
		   "corrected summary");
	tap_is_str(d.location, "PCIe 0000:00:1c.0", "location");
	tap_is_int(d.mask, RAS_DF_NONE, "mask unknown");
	tap_is_int(d.tlp_tag, RAS_DF_NONE, "no TLP tag");
	tap_is_int(aer_decode(&ue, &d), 0, "decode uncorrected");
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "non-fatal severity");
	tap_is_str(d.dev_name, "0000:03:00.0", "dev_name stops at NUL");
	tap_is_str(d.errors, "Completion Timeout", "UE bit");
	tap_is_str(d.tlp_type, "MRd (64-bit)", "TLP type");
	tap_is_str(d.tlp_requester, "0000:03:00.0", "TLP requester with domain");
	tap_is_int(d.tlp_address, 0x123456780LL, "TLP address");
	tap_ok(strstr(SAID(d), "Completion Timeout; TLP MRd (64-bit) from 0000:03:00.0 tag 0x00a address 0x123456780") != NULL,
	       "UE summary has TLP: %s", SAID(d));
	ue.severity = AER_TP_FATAL;
	ue.has_mask = 1;
	ue.status = (1u << 14) | (1u << 20);
	ue.mask = 1u << 20;
	aer_decode(&ue, &d);
	tap_is_int(d.severity, RAS_SEV_FATAL, "fatal severity");
	tap_is_str(d.errors, "Completion Timeout", "masked bit left out");
	tap_is_str(d.masked_errors, "Unsupported Request Error", "masked bit named");
	ue.severity = 7;
	aer_decode(&ue, &d);
	tap_is_int(d.severity, RAS_SEV_UNKNOWN, "bad severity is unknown");
	tap_is_int(d.aer_severity, 7, "raw severity kept");
	tap_is_int(aer_decode(NULL, &d), -EINVAL, "NULL input");
	/* A message without data (Length reserved) and a PTM Request (code 0x52, r6.0 6.21.3). */
	ue.severity = AER_TP_NONFATAL;
	ue.has_mask = 0;
	ue.tlp_header[0] = 0x34000000;   /* Fmt 001b Type 10100b: Msg, local */
	ue.tlp_header[1] = 0x03000052;
	aer_decode(&ue, &d);
	tap_ok(strstr(SAID(d), "message 0x52 PTM Request") && !strstr(SAID(d), "length"),
	       "a message without data: PTM named, no length: %s", SAID(d));
	ue.tlp_header[0] = 0x74000001;   /* Fmt 011b: MsgD, one DW of data */
	ue.tlp_header[1] = 0x03000053;
	aer_decode(&ue, &d);
	tap_ok(strstr(SAID(d), "message 0x53 PTM Response length 1 DW") != NULL,
	       "a message with data keeps its length: %s", SAID(d));
}

struct collect {
	struct aer_in recs[8];
	char devs[8][16];
	unsigned lines[8];
	int n;
	unsigned err_lines[8];
	char reasons[8][80];
	int n_err;
};

static int on_rec(void *ctx, const struct aer_in *rec, unsigned first_line)
{
	struct collect *c = ctx;

	if (c->n >= 8)
		return -ENOSPC;
	c->recs[c->n] = *rec;
	snprintf(c->devs[c->n], 16, "%.*s", (int)rec->dev_name_len, rec->dev_name);
	c->recs[c->n].dev_name = c->devs[c->n];
	c->lines[c->n++] = first_line;
	return 0;
}

static void on_err(void *ctx, unsigned line, const char *reason)
{
	struct collect *c = ctx;

	if (c->n_err >= 8)
		return;
	c->err_lines[c->n_err] = line;
	snprintf(c->reasons[c->n_err++], 80, "%s", reason);
}

/* Log text in the format of Linux drivers/pci/pcie/aer.c aer_print_error()
 * and pcie_print_tlp_log(), old (4.x) and new ("AER: " prefix) styles. */
static const char dmesg_text[] =
	"[    5.100000] pcieport 0000:00:1c.0: AER: Corrected error received: 0000:00:1c.0\n"
	"[    5.100001] pcieport 0000:00:1c.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)\n"
	"[    5.100002] pcieport 0000:00:1c.0:   device [8086:a110] error status/mask=00000001/00002000\n"
	"[    5.100003] pcieport 0000:00:1c.0:    [ 0] RxErr                  (First)\n"
	"[    6.000000] unrelated line\n"
	"Nov 22 10:00:00 host kernel: nvme 0000:03:00.0: AER: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Requester ID)\n"
	"Nov 22 10:00:00 host kernel: nvme 0000:03:00.0: AER:   device [144d:a808] error status/mask=00004000/00100000\n"
	"Nov 22 10:00:00 host kernel: nvme 0000:03:00.0: AER:    [14] CmpltTO                (First)\n"
	"Nov 22 10:00:00 host kernel: nvme 0000:03:00.0: AER:   TLP Header: 20000001 03000a0f 00000001 23456780\n"
	"pcieport 0000:00:01.0: PCIe Bus Error: severity=Bogus, type=Transaction Layer, (Requester ID)\n"
	"pcieport 0000:00:01.0:   device [8086:1901] error status/mask=00040000/00000000\n"
	"pcieport 0000:00:02.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)\n"
	"pcieport 0000:00:02.0:   device [8086:1902] error status/mask=zz/00000000\n"
	"pcieport 0000:00:03.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)\n"
	"pcieport 0000:00:03.0:    [18] MalfTLP\n"
	"pcieport 0000:00:03.0:   TLP Header: 0x4a000001 0x01000004 0x00001000 0x00000000";

static void test_text(void)
{
	struct collect c;
	static const char orphan[] = "pcieport 0000:00:1c.0:   device [8086:a110] error status/mask=00000001/00002000\n";

	memset(&c, 0, sizeof(c));
	tap_is_int(aer_text_parse(dmesg_text, strlen(dmesg_text), on_rec, on_err, &c), 0, "parse ok");
	tap_is_int(c.n, 3, "three good records");
	tap_is_int(c.n_err, 2, "two malformed records");
	tap_is_str(c.devs[0], "0000:00:1c.0", "rec 0 device");
	tap_is_int(c.lines[0], 2, "rec 0 first line");
	tap_is_int(c.recs[0].severity, AER_TP_CORRECTED, "rec 0 severity");
	tap_is_int(c.recs[0].status, 1, "rec 0 status");
	tap_is_int(c.recs[0].mask, 0x2000, "rec 0 mask");
	tap_is_int(c.recs[0].vendor_id, 0x8086, "rec 0 vendor");
	tap_is_int(c.recs[0].device_id, 0xa110, "rec 0 device id");
	tap_is_int(c.recs[0].first_error, 0, "rec 0 first error");
	tap_is_str(c.devs[1], "0000:03:00.0", "rec 1 device");
	tap_is_int(c.recs[1].severity, AER_TP_NONFATAL, "rec 1 severity");
	tap_is_int(c.recs[1].tlp_header_valid, 1, "rec 1 TLP valid");
	tap_is_int(c.recs[1].tlp_header[3], 0x23456780, "rec 1 TLP dw3");
	tap_is_int(c.err_lines[0], 10, "bad severity reported at its line");
	tap_is_str(c.reasons[0], "unknown or missing severity in PCIe Bus Error line", "bad severity reason");
	tap_is_int(c.err_lines[1], 13, "bad status reported at its line");
	tap_is_str(c.devs[2], "0000:00:03.0", "record after bad ones still decoded");
	tap_is_int(c.recs[2].severity, AER_TP_FATAL, "rec 2 fatal");
	tap_is_int(c.recs[2].status, 1u << 18, "rec 2 status from bit lines");
	tap_is_int(c.recs[2].tlp_header[0], 0x4a000001, "rec 2 TLP with 0x and no newline");

	memset(&c, 0, sizeof(c));
	aer_text_parse(orphan, strlen(orphan), on_rec, on_err, &c);
	tap_ok(c.n == 0 && c.n_err == 1, "orphan detail line reported");
	tap_is_int(aer_text_parse(NULL, 0, on_rec, NULL, NULL), -EINVAL, "NULL buffer");
	tap_is_int(aer_text_parse("", 0, on_rec, NULL, &c), 0, "empty buffer");
}

/*
 * Forms of the same report, built from Linux drivers/pci/pcie/aer.c
 * (aer_print_error, __aer_print_error, aer_error_severity_string of 6.x:
 * "Correctable", "Uncorrectable (Non-Fatal)", "Uncorrectable (Fatal)") and
 * what syslog readers make of them.
 */
static const char kernel6_text[] =
	/* 1: current kernel, "AER:" prefix, new spelling */
	"[ 10.0] pcieport 0000:00:1c.0: AER: Correctable error message received from 0000:00:1c.0\n"
	"[ 10.1] pcieport 0000:00:1c.0: AER: PCIe Bus Error: severity=Correctable, type=Physical Layer, (Receiver ID)\n"
	"[ 10.2] pcieport 0000:00:1c.0: AER:   device [8086:a110] error status/mask=00000041/00002000\n"
	"[ 10.3] pcieport 0000:00:1c.0: AER:    [ 0] RxErr                  (First)\n"
	"[ 10.4] pcieport 0000:00:1c.0: AER:    [ 6] BadTLP\n"
	/* 6: uncorrectable non-fatal without AER: prefix */
	"nvme 0000:03:00.0: PCIe Bus Error: severity=Uncorrectable (Non-Fatal), type=Transaction Layer, (Requester ID)\n"
	"nvme 0000:03:00.0:   device [144d:a808] error status/mask=00100000/00000000\n"
	"nvme 0000:03:00.0:    [20] UnsupReq               (First)\n"
	"nvme 0000:03:00.0:   TLP Header: 40000001 0000000f f7c00000 00000000\n"
	/* 10: a whole report joined into one line, TLP header after the bit name */
	"Nov 22 10:00:00 host kernel: pcieport 0000:00:01.0: AER: PCIe Bus Error: severity=Uncorrectable (Fatal), "
	"type=Transaction Layer, (Receiver ID) pcieport 0000:00:01.0: AER:   device [8086:1901] error status/mask=00040000/00000000 "
	"pcieport 0000:00:01.0: AER:    [18] MalfTLP                (First) pcieport 0000:00:01.0: AER:   "
	"TLP Header: 4a000001 01000004 00001000 00000000\n"
	/* 11: lines continued without the device prefix (syslog line splitting) */
	"Nov 22 10:00:01 host kernel: e1000e 0000:05:00.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)\n"
	"Nov 22 10:00:01 host kernel:   device [8086:10d3] error status/mask=00001000/00000000\n"
	"Nov 22 10:00:01 host kernel:    [12] Timeout                (First)\n"
	/* 14: the TLP header on the bit's own line */
	"pcieport 0000:00:02.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Completer ID)\n"
	"pcieport 0000:00:02.0:   device [8086:1902] error status/mask=00008000/00000000\n"
	"pcieport 0000:00:02.0:    [15] CmpltAbrt              (First) TLP Header: 00000001 0100000f 00001000 00000000\n"
	/* 17: inaccessible device: refused, never "status 0" */
	"pcieport 0000:00:03.0: AER: PCIe Bus Error: severity=Uncorrectable (Fatal), type=Inaccessible, (Unregistered Agent ID)\n"
	/* 18: report cut off before its status: refused */
	"pcieport 0000:00:04.0: AER: PCIe Bus Error: severity=Correctable, type=Physical Layer, (Receiver ID)\n"
	/* 19: ordinary PCI enumeration lines are not AER: silent */
	"pci 0000:00:00.0: [8086:0d57] type 00 class 0x060000\n"
	"pci 0000:00:1c.0: [8086:a110] type 01 class 0x060400 PCIe Root Port\n"
	"pci 0000:00:1c.0:   bridge window [io  0x3000-0x3fff]\n"
	"nvme 0000:03:00.0: [ 1] something a driver printed\n";

static void test_text_forms(void)
{
	struct collect c;

	memset(&c, 0, sizeof(c));
	tap_is_int(aer_text_parse(kernel6_text, strlen(kernel6_text), on_rec, on_err, &c), 0, "forms: parse ok");
	tap_is_int(c.n, 5, "forms: five records read");
	tap_is_int(c.n_err, 2, "forms: two refused (inaccessible, no status)");
	tap_is_int(c.recs[0].severity, AER_TP_CORRECTED, "severity=Correctable is corrected");
	tap_is_int(c.recs[0].status, 0x41, "Correctable: status from the status/mask line");
	tap_is_int(c.lines[0], 2, "Correctable: record starts at its PCIe Bus Error line");
	tap_is_int(c.recs[1].severity, AER_TP_NONFATAL, "Uncorrectable (Non-Fatal) without AER: prefix");
	tap_is_int(c.recs[1].tlp_header[2], 0xf7c00000, "TLP header read");
	tap_is_str(c.devs[2], "0000:00:01.0", "joined line: device");
	tap_is_int(c.recs[2].severity, AER_TP_FATAL, "joined line: Uncorrectable (Fatal)");
	tap_is_int(c.recs[2].status, 0x40000, "joined line: status, not 0");
	tap_is_int(c.recs[2].has_first_error && c.recs[2].first_error == 18, 1, "joined line: first error 18");
	tap_is_int(c.recs[2].tlp_header_valid && c.recs[2].tlp_header[0] == 0x4a000001, 1, "joined line: TLP header");
	tap_is_int(c.recs[2].vendor_id, 0x8086, "joined line: vendor id");
	tap_is_str(c.devs[3], "0000:05:00.0", "continued lines: device");
	tap_is_int(c.recs[3].status, 0x1000, "continued lines: status from the unprefixed line");
	tap_is_int(c.recs[3].first_error, 12, "continued lines: bit line without prefix");
	tap_is_int(c.recs[4].first_error, 15, "TLP on the bit line: first error");
	tap_is_int(c.recs[4].tlp_header_valid && c.recs[4].tlp_header[1] == 0x0100000f, 1,
		   "TLP on the bit line: header read");
	tap_is_int(c.err_lines[0], 17, "inaccessible device refused at its line");
	tap_is_int(c.err_lines[1], 18, "report without status refused at its line");
}

/* cper_print_aer() output without the GHES severity before it: refused, not guessed. */
static void test_firmware_without_severity(void)
{
	static const char text[] =
		"nvme 0000:5e:00.0: aer_status: 0x00004000, aer_mask: 0x00000000\n"
		"nvme 0000:5e:00.0:    [14] CmpltTO                (First)\n"
		"{3}[Hardware Error]: event severity: fatal\n"
		"nvme 0000:5e:00.0: aer_status: 0x00040000, aer_mask: 0x00000000\n";
	struct collect c;

	memset(&c, 0, sizeof(c));
	aer_text_parse(text, strlen(text), on_rec, on_err, &c);
	tap_ok(c.n_err == 1 && c.err_lines[0] == 1, "aer_status without GHES severity refused at line 1");
	tap_ok(c.n == 1 && c.recs[0].severity == AER_TP_FATAL && c.recs[0].status == 0x40000,
	       "aer_status after a fatal GHES event: fatal");
}

int main(void)
{
	test_bits();
	test_tlp();
	test_decode();
	test_text();
	test_text_forms();
	test_firmware_without_severity();
	return tap_done();
}
