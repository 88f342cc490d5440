/* SPDX-License-Identifier: MIT */
/*
 * The BMC's SEL policy (rasd/bmc_sel.c) through a test transport: the 16
 * bytes it would send, what bmc_sel_events and dry runs leave out, the limit
 * (a fixed window of bmc_sel_limit's period on a test clock: nothing here
 * depends on the machine's clock or speed), and the row each attempt leaves
 * in the actions table: done with the BMC's record ID, failed with the
 * completion code or errno, rate-limited (folded, counted), unsupported
 * without an IPMI device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "db/db_actions.h"
#include "decoders/dfield.h"
#include "lib/config.h"
#include "lib/event_table.h"
#include "rasd/bmc_sel.h"
#include "tests/tap.h"
#include "tests/test_util.h"

#define SEC 1000000000LL

static struct {
	uint8_t sent[16][BMC_SEL_ENTRY_LEN];
	unsigned n;
	int answer;            /* what the next add returns */
	uint16_t next_id;
} bmc;

static int64_t fake_now = 1000 * SEC;

static int64_t fake_clock(void)
{
	return fake_now;
}

static int fake_add(void *ctx, const uint8_t entry[BMC_SEL_ENTRY_LEN], uint16_t *record_id)
{
	(void)ctx;
	if (bmc.n < 16)
		memcpy(bmc.sent[bmc.n], entry, BMC_SEL_ENTRY_LEN);
	bmc.n++;
	*record_id = bmc.next_id++;
	return bmc.answer;
}

struct rows {
	struct ras_db_action a[32];
	unsigned n;
};

static int keep_row(void *ctx, const struct ras_db_action *act)
{
	struct rows *r = ctx;

	if (r->n < 32)
		r->a[r->n++] = *act;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct ras_db_action *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The rows in the order they were written (the list gives the newest decision first). */
static void list(struct ras_db *db, struct rows *r)
{
	r->n = 0;
	ras_db_action_list(db, 0, keep_row, r);
	qsort(r->a, r->n, sizeof(r->a[0]), by_id);
}

/* An uncorrected (or other) record of table at wall second t, stored as row_id. */
static void record(struct rasd_bmc_sel *s, struct ras_db_actions *dba, const char *table,
		   enum ras_severity sev, int64_t t, int64_t row_id, bool synthetic)
{
	struct ras_decoded_head h = { .severity = sev };
	struct ras_db_event ev = { .wall_ns = t * SEC, .synthetic = synthetic };

	snprintf(h.location, sizeof(h.location), "mc0 DIMM_A1");
	rasd_bmc_sel_record(s, dba, ras_event_type_find(table), &h, &ev, row_id);
}

static void expect_bytes(unsigned i, const uint8_t want[BMC_SEL_ENTRY_LEN], const char *what)
{
	char g[64], w[64];

	bmc_sel_hex(i < 16 ? bmc.sent[i] : want, g, sizeof(g));
	bmc_sel_hex(want, w, sizeof(w));
	tap_is_str(g, w, "%s", what);
}

static void test_outcomes(struct rasd_config *cfg, struct ras_db *db, struct ras_db_actions *dba)
{
	struct rasd_bmc_transport t = { .ctx = NULL, .add = fake_add };
	struct rasd_bmc_sel *s;
	struct rows r;
	/* 1700000000 = 0x6553f100; row 0x10203 keeps its low 16 bits, 0x0203. */
	static const uint8_t mem_uc[16] = { 0, 0, 0x02, 0x00, 0xf1, 0x53, 0x65, 0x41, 0x00, 0x04,
					    0x0c, 0xff, 0x6f, 0xa1, 0x02, 0x03 };
	static const uint8_t cpu_th[16] = { 0, 0, 0x02, 0x10, 0xf1, 0x53, 0x65, 0x41, 0x00, 0x04,
					    0x07, 0xff, 0x6f, 0xac, 0x00, 0x09 };
	struct ras_db_action crossing = { .wall_ns = 1700000016 * SEC, .count = 18, .event_id = 9 };

	cfg->bmc_sel = true;
	/* Never the machine's own BMC: a device that cannot exist until the test's transport. */
	snprintf(cfg->bmc_sel_device, sizeof(cfg->bmc_sel_device), "/nonexistent/ipmi0");
	snprintf(cfg->bmc_sel_limit, sizeof(cfg->bmc_sel_limit), "3/1h");
	if (rasd_bmc_sel_open(&s, cfg) < 0) {
		tap_ok(0, "open");
		return;
	}
	rasd_bmc_sel_set_transport(s, &t);
	rasd_bmc_sel_set_clock(s, fake_clock);
	bmc.next_id = 0x42;

	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000000, 0x10203, false);
	tap_is_int(bmc.n, 1, "an uncorrected memory error: one entry sent");
	expect_bytes(0, mem_uc, "its 16 bytes: memory, uncorrectable ECC, the row's low 16 bits");
	bmc.answer = 0xc4;
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000001, 2, false);
	bmc.answer = -ETIMEDOUT;
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000002, 3, false);
	bmc.answer = 0;
	tap_is_int(bmc.n, 3, "the BMC's refusal and a timeout were attempts too");
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000003, 4, false);
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000004, 5, false);
	tap_is_int(bmc.n, 3, "past bmc_sel_limit 3/1h nothing more is sent");
	record(s, dba, "mc_event", RAS_SEV_CORRECTED, 1700000005, 6, false);
	record(s, dba, "block_rq_error", RAS_SEV_UNCORRECTED, 1700000005, 7, false);
	fake_now += 3600 * SEC;
	record(s, dba, "mc_event", RAS_SEV_CORRECTED, 1700000006, 8, false);
	tap_is_int(bmc.n, 3, "a corrected record and a disk error are not told to the BMC");
	snprintf(crossing.kind, sizeof(crossing.kind), "cpu");
	snprintf(crossing.subject, sizeof(crossing.subject), "cpu 1");
	snprintf(crossing.threshold, sizeof(crossing.threshold), "18/24h");
	snprintf(crossing.action, sizeof(crossing.action), "offline");
	snprintf(crossing.result, sizeof(crossing.result), "done");
	snprintf(crossing.event_table, sizeof(crossing.event_table), "mce_record");
	rasd_bmc_sel_crossing(s, dba, &crossing);
	tap_is_int(bmc.n, 4, "after the period a CPU's crossed threshold is sent");
	expect_bytes(3, cpu_th, "its 16 bytes: processor, correctable machine check error");
	record(s, dba, "mc_event", RAS_SEV_FATAL, 1700000020, 10, true);
	tap_is_int(bmc.n, 4, "a synthetic record without synthetic_actions: a dry run");
	tap_is_str(rasd_bmc_sel_state(s), "test transport: written 2, failed 2, rate-limited 2",
		   "the state file's line counts them");
	snprintf(cfg->bmc_sel_events, sizeof(cfg->bmc_sel_events), "uncorrected");
	rasd_bmc_sel_crossing(s, dba, &crossing);
	snprintf(cfg->bmc_sel_events, sizeof(cfg->bmc_sel_events), "thresholds");
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000021, 11, false);
	snprintf(cfg->bmc_sel_events, sizeof(cfg->bmc_sel_events), "all");
	cfg->bmc_sel = false;
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000022, 12, false);
	tap_is_int(bmc.n, 4, "bmc_sel_events and bmc_sel = no leave the others out");
	cfg->bmc_sel = true;
	rasd_bmc_sel_close(s);
	ras_db_commit(db);

	list(db, &r);
	tap_is_int(r.n, 6, "six rows: done, failed twice, rate-limited (folded), the crossing, dry-run");
	if (r.n != 6)
		return;
	tap_is_str(r.a[0].result, "done", "row 1 done");
	tap_is_str(r.a[0].target, "SEL record 0x0042: 0000 02 00f15365 4100 04 0cff 6f a10203 "
		   "(memory: uncorrectable ECC)", "row 1 names the BMC's record ID and the bytes");
	tap_is_str(r.a[0].kind, "record", "row 1: kind record");
	tap_is_str(r.a[0].subject, "mc0 DIMM_A1", "row 1: the record's location");
	tap_is_str(r.a[0].action, "bmc-sel", "row 1: action bmc-sel");
	tap_is_int(r.a[0].event_id, 0x10203, "row 1: the record's row");
	tap_is_str(r.a[1].result, "failed", "row 2 failed");
	tap_is_int(r.a[1].error, EIO, "row 2: EIO for a completion code");
	tap_ok(strstr(r.a[1].target, "completion code 0xc4 (out of space)") != NULL,
	       "row 2 says the completion code: %s", r.a[1].target);
	tap_is_int(r.a[2].error, ETIMEDOUT, "row 3: the timeout's errno");
	tap_ok(!strncmp(r.a[2].target, "not added (", 11), "row 3 says why: %s", r.a[2].target);
	tap_is_str(r.a[3].result, "rate-limited", "row 4 rate-limited");
	tap_is_int(r.a[3].repeats, 2, "row 4 stands for both entries held back");
	tap_is_str(r.a[4].kind, "cpu", "row 5: the crossing's subject kind");
	tap_is_str(r.a[4].threshold, "18/24h", "row 5: the crossing's threshold");
	tap_is_str(r.a[4].result, "done", "row 5 done");
	tap_is_str(r.a[5].result, "dry-run", "row 6 dry-run");
	tap_ok(!strncmp(r.a[5].target, "would add 0000 02 ", 18), "row 6 says what would be added");
}

/* A BMC that times out is not asked again in the period: a storm never waits once per entry. */
static void test_silent_bmc(struct rasd_config *cfg, struct ras_db_actions *dba)
{
	struct rasd_bmc_transport t = { .ctx = NULL, .add = fake_add };
	struct rasd_bmc_sel *s;
	unsigned n0 = bmc.n;

	cfg->bmc_sel = true;
	snprintf(cfg->bmc_sel_device, sizeof(cfg->bmc_sel_device), "/nonexistent/ipmi0");
	snprintf(cfg->bmc_sel_limit, sizeof(cfg->bmc_sel_limit), "10/1h");
	if (rasd_bmc_sel_open(&s, cfg) < 0) {
		tap_ok(0, "open");
		return;
	}
	rasd_bmc_sel_set_transport(s, &t);
	rasd_bmc_sel_set_clock(s, fake_clock);
	bmc.answer = -ETIMEDOUT;
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000100, 21, false);
	bmc.answer = 0;
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000101, 22, false);
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000102, 23, false);
	tap_is_int(bmc.n - n0, 1, "after a timeout the BMC is not asked again in the period");
	tap_is_str(rasd_bmc_sel_state(s), "test transport: written 0, failed 1, rate-limited 2",
		   "the entries not tried count as rate-limited");
	fake_now += 3600 * SEC;
	record(s, dba, "mc_event", RAS_SEV_UNCORRECTED, 1700000103, 24, false);
	tap_is_int(bmc.n - n0, 2, "the next period asks the BMC again");
	rasd_bmc_sel_close(s);
}

static void test_absent(struct rasd_config *cfg, struct ras_db *db, struct ras_db_actions *dba,
			const char *dir)
{
	struct rasd_bmc_sel *s;
	struct rows r;
	char want[512];

	snprintf(cfg->bmc_sel_device, sizeof(cfg->bmc_sel_device), "%s/ipmi0", dir);
	if (rasd_bmc_sel_open(&s, cfg) < 0)
		return;
	rasd_bmc_sel_set_clock(s, fake_clock);
	snprintf(want, sizeof(want), "no IPMI device (%s/ipmi0 absent): load ipmi_si and "
		 "ipmi_devintf", dir);
	tap_is_str(rasd_bmc_sel_state(s), want, "without the device the state file says so");
	record(s, dba, "aer_event", RAS_SEV_FATAL, 1700000100, 20, false);
	rasd_bmc_sel_close(s);
	ras_db_commit(db);
	list(db, &r);
	tap_ok(r.n > 0 && !strcmp(r.a[r.n - 1].result, "unsupported") &&
	       r.a[r.n - 1].error == ENODEV, "and each entry is recorded as unsupported");
}

int main(void)
{
	struct rasd_config cfg;
	struct ras_db *db = NULL;
	struct ras_db_actions *dba = NULL;
	char dir[256], path[512], err[256];

	rasd_config_defaults(&cfg);
	if (test_tmpdir(dir, sizeof(dir)) < 0)
		return 99;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	if (ras_db_open_writer(&db, path, "boot-1", err, sizeof(err)) < 0 ||
	    ras_db_actions_open(db, &dba) < 0) {
		printf("Bail out! %s\n", err);
		return 99;
	}
	tap_is_str(cfg.bmc_sel_limit, "20/1h", "default bmc_sel_limit");
	tap_ok(!cfg.bmc_sel && !strcmp(cfg.bmc_sel_events, "all"), "default bmc_sel = no, events all");
	test_outcomes(&cfg, db, dba);
	test_absent(&cfg, db, dba, dir);
	test_silent_bmc(&cfg, dba);
	ras_db_actions_close(dba);
	ras_db_close(db);
	test_rmtree(dir);
	return tap_done();
}
