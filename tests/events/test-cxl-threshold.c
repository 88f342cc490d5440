/* SPDX-License-Identifier: MIT */
/*
 * A CXL device's own corrected-error threshold (a General Media or DRAM
 * record's threshold event) acts on its page at once, as rasdaemon does:
 * one record offlines the page, whatever page_ce_threshold holds. rasd
 * --once on a fake tree of the shipped formats, with the actions fixture's
 * fake sysfs (page threshold 3/1h, soft offline).
 */
#include <stdio.h>
#include <string.h>
#include "tests/actions_fixture.h"
#include "tests/tap.h"

/* CXL r3.1 Table 8-45 descriptor: bit 0 uncorrectable event, bit 1 threshold event. */
static int add_media(struct fake_tree *t, const char *log, const char *hpa, const char *descriptor,
		     const char *cme_flags, uint64_t ts)
{
	char l[32], h[48], d[32], c[48];
	char *assign[] = { "memdev=mem0", "host=0000:0d:00.0", l, "serial=7", "dpa=0x8000", h, d,
			   "type=0", "transaction_type=1", "validity_flags=0x3", "channel=1",
			   "rank=0", c };

	snprintf(l, sizeof(l), "log=%s", log);
	snprintf(h, sizeof(h), "hpa=%s", hpa);
	snprintf(d, sizeof(d), "descriptor=%s", descriptor);
	snprintf(c, sizeof(c), "cme_threshold_ev_flags=%s", cme_flags);
	return add(t, "cxl:cxl_general_media", assign, 13, ts);
}

int main(void)
{
	struct fake_tree t;
	char buf[256];
	sqlite3 *db;

	actions_fixture_init();
	make_sysfs(true);
	write_conf("");
	if (!tap_ok(tree(&t), "tree built"))
		return tap_done();
	/* The Informational log, threshold event: one record, the page goes at once. */
	add_media(&t, "0", "0x4080002000", "2", "0", base_ts);
	/* A corrected error without it (Warning log): one of 3/1h, nothing done. */
	add_media(&t, "1", "0x4080003000", "0", "0", base_ts + MS);
	/* Uncorrectable and threshold: not a corrected threshold; no page bucket counts it. */
	add_media(&t, "2", "0x4080004000", "3", "0", base_ts + 2 * MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "rasd --once exits 0");
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "0x4080002000", "the threshold event's page is offlined at its first record");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'page' AND subject = '0x4080002000'"
			  " AND threshold = 'device threshold' AND count = 1 AND action = 'soft'"
			  " AND result = 'done' AND event_table = 'cxl_general_media'"), 1,
		   "its decision says the device's threshold crossed");
	tap_is_int(scalar(db, "SELECT count(*) FROM actions"), 1, "no other decision");
	tap_is_int(scalar(db, "SELECT count(*) FROM cxl_general_media_decoded WHERE device_threshold = 1"
			  " AND severity = 'corrected'"), 1, "the record decodes as corrected, device threshold");
	sqlite3_close(db);
	fake_tree_destroy(&t);

	/* The same with Exceeded Programmable Threshold (CME flags bit 1) on a new page. */
	fresh_db();
	put("devices/system/memory/soft_offline_page", "");
	tree(&t);
	add_media(&t, "1", "0x4080005000", "0", "2", base_ts + 3 * MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "rasd --once exits 0");
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "0x4080005000", "exceeded programmable threshold: offlined at once");
	fake_tree_destroy(&t);

	/* page_ce_action = account: the decision is recorded, nothing written. */
	fresh_db();
	put("devices/system/memory/soft_offline_page", "");
	write_conf("page_ce_action = account\n");
	tree(&t);
	add_media(&t, "0", "0x4080006000", "2", "0", base_ts + 4 * MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "rasd --once exits 0");
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "", "account: nothing offlined");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE action = 'account'"
			  " AND threshold = 'device threshold'"), 1, "account: the decision is recorded");
	sqlite3_close(db);
	fake_tree_destroy(&t);
	actions_fixture_done();
	return tap_done();
}
