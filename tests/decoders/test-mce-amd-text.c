/* SPDX-License-Identifier: MIT */
/*
 * AMD decoded machine-check blocks. The inputs follow the print formats of
 * Linux drivers/edac/mce_amd.c (amd_decode_mce, decode_smca_error,
 * smca_long_names); status flags were checked bit by bit against the value
 * (Over 62, UE 61, MiscV 59, AddrV 58, PCC 57, SyndV 53, CECC 46, UECC 45,
 * Deferred 44). Bank types: AMD PPR for family 19h, "MCA_IPID".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/mce.h"
#include "decoders/mce_text_amd.h"
#include "tests/tap.h"

#define MAX_RECS 8

struct collected {
	struct mce_in rec[MAX_RECS];
	unsigned first_line[MAX_RECS];
	int n;
	unsigned err_line[MAX_RECS];
	char err[MAX_RECS][96];
	int n_err;
};

static int on_record(void *ctx, const struct mce_in *rec, unsigned first_line)
{
	struct collected *c = ctx;

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

static int parse(const char *text, struct collected *c)
{
	memset(c, 0, sizeof(*c));
	return mce_amd_text_parse(text, strlen(text), on_record, on_error, c);
}

/* Zen 3 UMC DRAM ECC, corrected, with IPID and syndrome. */
static const char smca_umc[] =
	"[ 5.000] mce: [Hardware Error]: Corrected error, no action required.\n"
	"[ 5.000] [Hardware Error]: CPU:0 (19:21:0) MC18_STATUS[Over|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0xdc2040000000011b\n"
	"[ 5.000] [Hardware Error]: Error Addr: 0x0000000357c7a440\n"
	"[ 5.000] [Hardware Error]: IPID: 0x0000009600150f00, Syndrome: 0x000001ff0a240701\n"
	"[ 5.000] [Hardware Error]: Unified Memory Controller Ext. Error Code: 0, DRAM ECC error.\n"
	"[ 5.000] [Hardware Error]: cache level: L3/GEN, tx: GEN, mem-tx: RD\n";

static void test_smca_umc(void)
{
	struct collected c;
	struct mce_decoded d;

	tap_is_int(parse(smca_umc, &c), 1, "UMC block: one record");
	tap_is_int(c.n_err, 0, "UMC block: no error");
	tap_is_int(c.first_line[0], 2, "record starts at the CPU:n line");
	tap_is_int(c.rec[0].cpuvendor, MCE_VENDOR_AMD, "vendor AMD");
	tap_is_int(c.rec[0].bank, 18, "bank from MC18_STATUS");
	tap_is_int(c.rec[0].status, 0xdc2040000000011bULL, "status");
	tap_is_int(c.rec[0].addr, 0x357c7a440ULL, "Error Addr");
	tap_is_int(c.rec[0].ipid, 0x9600150f00ULL, "IPID");
	tap_is_int(c.rec[0].synd, 0x1ff0a240701ULL, "Syndrome on the IPID line");
	mce_decode(&c.rec[0], &d);
	tap_is_int(d.family, 0x19, "family from (19:21:0), hex");
	tap_is_int(d.model, 0x21, "model from (19:21:0), hex");
	tap_is_str(d.bank_name, "UMC", "bank type from IPID");
	tap_is_int(d.channel, 1, "UMC channel from IPID[31:20]");
	tap_is_int(d.chip_select, 1, "chip select from SYND[2:0]");
	tap_is_int(d.severity, RAS_SEV_CORRECTED, "corrected");
}

/* The same error pasted without its IPID line: the Ext. Error Code line names the bank type. */
static const char smca_no_ipid[] =
	"[Hardware Error]: CPU:3 (19:1:1) MC17_STATUS[-|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b\n"
	"[Hardware Error]: Error Addr: 0x0000000012345600\n"
	"[Hardware Error]: Unified Memory Controller Ext. Error Code: 0, DRAM ECC error.\n"
	/* line 4: a load-store unit, a name the kernel gives to two bank types */
	"[Hardware Error]: CPU:4 (19:1:1) MC0_STATUS[-|CE|MiscV|AddrV|-|-|-|CECC|-|-|-]: 0x9c00400000000175\n"
	"[Hardware Error]: Load Store Unit Ext. Error Code: 0\n";

static void test_smca_no_ipid(void)
{
	struct collected c;
	struct mce_decoded d;

	tap_is_int(parse(smca_no_ipid, &c), 2, "no IPID: two records");
	tap_is_int(c.rec[0].has_ipid, 0, "no IPID register seen");
	tap_is_int(c.rec[0].ipid_type_only, 1, "bank type taken from the Ext. Error Code line");
	mce_decode(&c.rec[0], &d);
	tap_is_str(d.bank_name, "UMC", "UMC from the kernel's bank type name");
	tap_is_int(d.channel, RAS_DF_NONE, "channel unknown without IPID");
	tap_is_int(d.raw_ipid, RAS_DF_NONE, "no raw IPID invented");
	tap_ok(strstr(d.decode_note, "instance and channel unknown") != NULL, "note says the instance is unknown");
	mce_decode(&c.rec[1], &d);
	tap_is_str(d.bank_name, "", "ambiguous kernel name: bank type not guessed");
	tap_ok(strstr(d.decode_note, "bank type unknown") != NULL, "note says the bank type is unknown");
}

/* Family 15h (pre-SMCA) NB DRAM ECC, Hygon family 18h, a deferred error. */
static const char other_blocks[] =
	"[Hardware Error]: CPU:1 (15:2:0) MC4_STATUS[-|CE|MiscV|-|AddrV|CECC]: 0x9c4c400001080a13\n"
	"[Hardware Error]: MC4 Error (node 0): DRAM ECC error detected on the NB.\n"
	"[Hardware Error]: Error Addr: 0x000000021e26f7c0\n"
	"[Hardware Error]: cache level: L3/GEN, mem/io: MEM, mem-tx: RD, part-proc: RES (no timeout)\n"
	"[Hardware Error]: Deferred error, no action required.\n"
	"[Hardware Error]: CPU:8 (18:0:1) MC16_STATUS[-|-|MiscV|AddrV|-|-|SyndV|-|Deferred|-|-]: 0x8c20100000000b0b\n"
	"[Hardware Error]: Error Addr: 0x0000000012340000\n"
	"[Hardware Error]: IPID: 0x0000009600050f00\n";

static void test_other_blocks(void)
{
	struct collected c;
	struct mce_decoded d;

	tap_is_int(parse(other_blocks, &c), 2, "family 15h and Hygon: two records");
	tap_is_int(c.n_err, 0, "no error");
	mce_decode(&c.rec[0], &d);
	tap_is_int(d.family, 0x15, "family 15h");
	tap_is_str(d.bank_name, "NB", "pre-SMCA bank 4 is the northbridge");
	tap_is_int(c.rec[0].addr, 0x21e26f7c0ULL, "Error Addr after the MC4 line");
	tap_is_int(c.rec[1].cpuvendor, MCE_VENDOR_HYGON, "family 18h is Hygon");
	tap_is_int(c.first_line[1], 6, "block after the deferred banner");
	mce_decode(&c.rec[1], &d);
	tap_is_int(d.severity, RAS_SEV_DEFERRED, "deferred");
}

static const char bad_blocks[] =
	/* 1: says CE but the status has UC set */
	"[Hardware Error]: CPU:0 (19:21:0) MC18_STATUS[-|CE|MiscV|AddrV|-|-|SyndV|UECC|-|-|-]: 0xbc2020000000011b\n"
	"[Hardware Error]: Error Addr: 0x0000000357c7a440\n"
	/* 3: no family:model:stepping */
	"[Hardware Error]: CPU:0\tMC4_STATUS[-|CE|-|-|AddrV|CECC]: 0x9c0a4000\n"
	/* 4: a bad address after a good header */
	"[Hardware Error]: CPU:1 (17:31:0) MC5_STATUS[-|CE|-|-|-|-|-|-|-|-]: 0x9000000000000150\n"
	"[Hardware Error]: IPID: 0xzz\n"
	/* 6: good, still decoded */
	"[Hardware Error]: CPU:2 (17:31:0) MC5_STATUS[-|CE|-|-|-|-|-|-|-|-]: 0x9000000000000150\n"
	"[Hardware Error]: IPID: 0x000500b000000000\n"
	/* not ours: the Intel header, a banner, prose */
	"mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 7: 8c00004000010090\n"
	"mce: [Hardware Error]: Machine check events logged\n";

static void test_bad_blocks(void)
{
	struct collected c;

	tap_is_int(parse(bad_blocks, &c), 1, "bad blocks: only the good record");
	tap_is_int(c.n_err, 3, "three refused");
	tap_is_int(c.err_line[0], 1, "flags vs status at line 1");
	tap_is_str(c.err[0], "MCx_STATUS flags disagree with the status value", "flags reason");
	tap_is_int(c.err_line[1], 3, "no family at line 3");
	tap_is_int(c.err_line[2], 5, "bad IPID at line 5");
	tap_is_int(c.first_line[0], 6, "next record still decoded");
	tap_is_int(c.rec[0].ipid, 0x000500b000000000ULL, "its IPID");
	tap_is_int(mce_amd_text_parse(NULL, 1, on_record, NULL, NULL), -EINVAL, "NULL buffer");
	tap_is_int(mce_amd_text_parse("", 0, on_record, NULL, &c), 0, "empty buffer");
}

/*
 * Newer kernels' lines after IPID: FRU text (printed only when MCA_CONFIG[9]
 * is set) and the patch series' Syndrome1/Syndrome2; an MI200-class HBM
 * UMC v2 block (InstanceId 0x352000: UMC 1, channel 6) and a family 10h
 * northbridge DRAM ECC block (syndrome 0xa1b2 in STATUS[54:47] and [31:24]).
 */
static const char newer_blocks[] =
	"[Hardware Error]: CPU:2 (19:11:1) MC16_STATUS[-|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b\n"
	"[Hardware Error]: Error Addr: 0x0000000012345000\n"
	"[Hardware Error]: IPID: 0x0000009600750f00, Syndrome: 0x0000000000000003\n"
	"[Hardware Error]: FRU Text: P0 DIMM_A1\n"
	"[Hardware Error]: Unified Memory Controller Ext. Error Code: 0, DRAM ECC error.\n"
	"[Hardware Error]: CPU:2 (19:11:1) MC16_STATUS[-|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b\n"
	"[Hardware Error]: IPID: 0x0000009600750f00, Syndrome: 0x00000a2400400003\n"
	"[Hardware Error]: Syndrome1: 0x8000000000000001, Syndrome2: 0x0000000000000012\n"
	"[Hardware Error]: CPU:0 (19:30:1) MC22_STATUS[-|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b\n"
	"[Hardware Error]: IPID: 0x0001409600352000, Syndrome: 0x0000003300200005\n"
	"[Hardware Error]: Unified Memory Controller v2 Ext. Error Code: 0, DRAM ECC error.\n"
	"[Hardware Error]: CPU:1 (10:4:2) MC4_STATUS[-|CE|MiscV|-|AddrV|CECC]: 0x9c594000a108011b\n"
	"[Hardware Error]: MC4 Error (node 0): DRAM ECC error detected on the NB.\n"
	"[Hardware Error]: Error Addr: 0x000000123456789a\n"
	/* line 17: FRU text longer than SYND1/SYND2 can hold */
	"[Hardware Error]: CPU:3 (19:11:1) MC16_STATUS[-|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b\n"
	"[Hardware Error]: IPID: 0x0000009600750f00, Syndrome: 0x0000000000000003\n"
	"[Hardware Error]: FRU Text: P0 CHANNEL_A DIMM 1 TOO LONG\n";

static void test_newer_blocks(void)
{
	struct collected c;
	struct mce_decoded d;

	tap_is_int(parse(newer_blocks, &c), 4, "newer blocks: four records");
	tap_is_int(c.n_err, 1, "one refused");
	tap_is_int(c.err_line[0], 17, "overlong FRU text at line 17");
	mce_decode(&c.rec[0], &d);
	tap_is_str(d.fru_text, "P0 DIMM_A1", "FRU Text line back in SYND1/SYND2");
	tap_is_int(d.raw_synd1, (int64_t)0x5f4d4d4944203050ULL, "SYND1 rebuilt little-endian");
	tap_ok(strstr(d.decode_note, "MCA_CONFIG not recorded") == NULL, "FRU Text line implies MCA_CONFIG[9]");
	tap_is_int(d.chip_select, 3, "chip select from Syndrome");
	mce_decode(&c.rec[1], &d);
	tap_is_int(d.raw_synd1, (int64_t)0x8000000000000001ULL, "Syndrome1 value");
	tap_is_int(d.raw_synd2, 0x12, "Syndrome2 value");
	tap_is_str(d.fru_text, "", "binary Syndrome1/2: no FRU text");
	tap_is_str(d.model_text, "ECC syndrome 0xa24 (16 bits)", "UMC ECC syndrome from the Syndrome value");
	mce_decode(&c.rec[2], &d);
	tap_is_str(d.bank_name, "UMC_V2", "HBM block: UMC v2");
	tap_is_int(d.mem_ctrl, 1, "HBM block: UMC 1");
	tap_is_int(d.channel, 6, "HBM block: channel 6");
	tap_is_int(d.smca_instance_hi, 4, "HBM block: node 4");
	mce_decode(&c.rec[3], &d);
	tap_is_str(d.bank_name, "NB", "family 10h bank 4");
	tap_ok(strstr(d.model_text, "corrected ECC (CECC), ECC syndrome 0xa1b2") != NULL, "NB syndrome: %s", d.model_text);
	tap_is_int(d.addr, 0x123456789aLL, "NB address [47:1]");
}

int main(void)
{
	test_smca_umc();
	test_smca_no_ipid();
	test_other_blocks();
	test_bad_blocks();
	test_newer_blocks();
	return tap_done();
}
