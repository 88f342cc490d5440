/* SPDX-License-Identifier: MIT */
/*
 * One truth per record (issue 32), through rasd --once and ras-fdr-ctl:
 *  - a machine check's cache is named the same way (Linux's and lscpu's
 *    level: Intel's LL + 1) in errors, errors --json, summary and actions,
 *    and its count in metrics;
 *  - an mc_event of error_count 0 is one error in the buckets, summary
 *    --by dimm and metrics alike;
 *  - with no EDAC topology stored, summary --by dimm and layout place the
 *    records on the DIMM their label names;
 *  - schema step 17 rewrites what older versions stored the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db/db.h"
#include "tests/actions_fixture.h"
#include "tests/tap.h"
#include "tests/test_util.h"

#define CTL(out, ...) ctl_run(out, sizeof(out), (const char *const[]){ __VA_ARGS__, NULL })

static char out[65536];

/* A corrected Intel (Skylake-SP) machine check on cpu 1 with that status. */
static int add_mce(struct fake_tree *t, const char *status, uint64_t ts)
{
	char st[64];
	char *assign[] = { st, "cpu=1", "bank=2", "cpuvendor=0", "cpuid=0x50654", "socketid=0",
			   "apicid=2", "mcgcap=0x1c09" };

	snprintf(st, sizeof(st), "status=%s", status);
	return add(t, "mce:mce_record", assign, 8, ts);
}

/*
 * The 0x9000004000000135 (LL 01: the L2, Intel's mid-level cache)
 * twice and 0x9000004000000134 (LL 00: lscpu's L1d) twice on cpu 1: every
 * view says L2 for the first and L1 for the second; the CPU bucket of each
 * crosses 2/1h under that name.
 */
static void test_cache_levels(void)
{
	struct fake_tree t;

	fresh_db();
	make_sysfs(false);
	write_conf("cpu_ce_action = account\n");
	tree(&t);
	add_mce(&t, "0x9000004000000135", base_ts);
	add_mce(&t, "0x9000004000000135", base_ts + MS);
	add_mce(&t, "0x9000004000000134", base_ts + 2 * MS);
	add_mce(&t, "0x9000004000000134", base_ts + 3 * MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "rasd --once on four cache errors");
	fake_tree_destroy(&t);

	CTL(out, "errors");
	tap_ok(strstr(out, "L2 data cache data read error") && strstr(out, ", L2 cache"),
	       "errors: 0x...0135 is an L2 data cache error, at the L2 cache");
	tap_ok(strstr(out, "L1 data cache data read error") && strstr(out, ", L1 cache"),
	       "errors: 0x...0134 is an L1 data cache error, at the L1 cache");
	tap_ok(!strstr(out, "L0 ") && !strstr(out, "cache level"), "and nothing says L0 or 'cache level'");
	CTL(out, "errors", "--json");
	tap_ok(strstr(out, "\"cache_level\":2") && strstr(out, "\"cache_level\":1") &&
	       !strstr(out, "\"cache_level\":0"), "errors --json: cache_level 2 and 1");
	CTL(out, "summary");
	tap_ok(strstr(out, "L2 cache") && strstr(out, "L1 cache"), "summary: the L2 and L1 caches");
	CTL(out, "actions");
	tap_ok(strstr(out, "cpu 1 L2 cache") && strstr(out, "cpu 1 L1 cache"),
	       "actions: the buckets cpu 1 L2 cache and cpu 1 L1 cache crossed (%s)",
	       test_line_with(out, "cpu 1 L2"));
	CTL(out, "metrics");
	tap_ok(strstr(test_line_with(out, "ras_fdr_cpu_errors_total{cpu=\"1\""), "} 4") != NULL,
	       "metrics: cpu 1 counts the four (%s)", test_line_with(out, "ras_fdr_cpu_errors_total{cpu=\"1\""));
}

/*
 * Two corrected errors with error_count 0 on DIMM_Z9, on a machine whose
 * database holds no EDAC topology: one error each in every view.
 */
static void test_zero_count_and_labels(void)
{
	struct fake_tree t;
	sqlite3 *db;

	fresh_db();
	make_sysfs(false);
	write_conf("dimm_ce_threshold = 100/1h\n");
	tree(&t);
	for (int i = 0; i < 2; i++) {
		char a[64];
		char *assign[] = { "error_type=0", "msg=memory read error", "label=DIMM_Z9", "error_count=0",
				   "mc_index=1", "top_layer=2", "middle_layer=1", "lower_layer=-1", a,
				   "grain_bits=6", "syndrome=0" };

		snprintf(a, sizeof(a), "address=0x%x", 0x40000000 + i * 0x100000);
		add(&t, "ras:mc_event", assign, 11, base_ts + (uint64_t)i * MS);
	}
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "rasd --once on two mc_events of error_count 0");
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT total FROM buckets WHERE kind = 'dimm' AND subject = 'mc1 2:1:-1'"), 2,
		   "the DIMM bucket counts two errors");
	sqlite3_close(db);
	CTL(out, "errors");
	tap_ok(strstr(out, ": 1 error (the driver gave no count)") != NULL,
	       "errors: each record is one error the driver gave no count for");
	CTL(out, "summary", "--by", "dimm");
	tap_ok(strstr(test_line_with(out, "DIMM_Z9"), " 2 ") && strstr(test_line_with(out, "DIMM_Z9"), "mc1 2:1:-1") &&
	       strstr(test_line_with(out, "DIMM_Z9"), "(by label)"),
	       "summary --by dimm: DIMM_Z9, 2 corrected, at mc1 2:1:-1, placed by its label (%s)",
	       test_line_with(out, "DIMM_Z9"));
	tap_ok(!strstr(out, "none placed on a DIMM"), "not 'none placed on a DIMM'");
	CTL(out, "summary", "--by", "dimm", "--json");
	tap_ok(strstr(out, "\"label\":\"DIMM_Z9\"") && strstr(out, "\"placed_by\":\"label\",\"ce\":2,\"ue\":0"),
	       "summary --by dimm --json: the same (%s)", out);
	CTL(out, "metrics");
	tap_ok(strstr(test_line_with(out, "ras_fdr_dimm_errors_total{dimm=\"DIMM_Z9\",severity=\"corrected\""),
		      "} 2") != NULL,
	       "metrics: DIMM_Z9 has 2 errors (%s)",
	       test_line_with(out, "ras_fdr_dimm_errors_total{dimm=\"DIMM_Z9\",severity=\"corrected\""));
	tap_is_int(CTL(out, "layout"), 0, "layout without a stored topology: exit 0");
	tap_ok(strstr(out, "holds no EDAC topology") && strstr(out, "this machine has none either") &&
	       strstr(test_line_with(out, "DIMM_Z9"), "mc1") && strstr(test_line_with(out, "DIMM_Z9"), "2:1:-1"),
	       "lists DIMM_Z9 at mc1 2:1:-1 from the records, and does not send to --live (%s)", out);
	tap_is_int(CTL(out, "layout", "--json"), 0, "layout --json");
	tap_ok(strstr(out, "\"source\":\"records\"") &&
	       strstr(out, "{\"mc\":1,\"top\":2,\"mid\":1,\"low\":-1,\"label\":\"DIMM_Z9\",\"ce\":2,\"ue\":0}"),
	       "layout --json: the same (%s)", out);
	put("devices/system/edac/mc/.keep", "");
	CTL(out, "layout");
	tap_ok(strstr(out, "'ras-fdr-ctl layout --live' reads this machine's") != NULL,
	       "where this machine has EDAC sysfs, layout points to --live");
}

/*
 * What an earlier ras-fdr stored (schema 16): the SDM's level in cache_level
 * and error_text, ", cache level N" in the location and its roll-ups, and a
 * zero-count mc_event counted 0 in the EDAC roll-up. rasd's open rewrites it.
 */
static void test_migration(void)
{
	char conf[600], rasd[1024], log[600], lock[600], text_buf[512];
	char *argv[] = { rasd, "--config", conf, "--db", dbpath, "--lock-dir", lock, "--rebuild-buckets", NULL };
	sqlite3 *db;

	test_cache_levels();
	if (sqlite3_open(dbpath, &db) != SQLITE_OK)
		return;
	sqlite3_exec(db, "UPDATE rollup_hourly SET location = replace(replace(location, ', L2 cache',"
		     " ', cache level 1'), ', L1 cache', ', cache level 0') WHERE tbl = 'mce_record';"
		     "UPDATE mce_record_dec SET cache_level = cache_level - 1,"
		     " error_text = 'L' || (cache_level - 1) || substr(error_text, 3),"
		     " location = replace(replace(location, ', L2 cache', ', cache level 1'),"
		     " ', L1 cache', ', cache level 0');"
		     "PRAGMA user_version = 16;", NULL, NULL, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM mce_record_dec WHERE error_text LIKE 'L0 data cache%'"
			  " AND location LIKE '%, cache level 0'"), 1, "an old-style decoding (L0, cache level 0)");
	sqlite3_close(db);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	tap_is_int(test_run(argv, log), 0, "rasd opens (and upgrades) the database");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "PRAGMA user_version"), RAS_DB_SCHEMA_VERSION, "the current schema");
	tap_is_int(scalar(db, "SELECT count(*) FROM mce_record_dec WHERE cache_level = 1 AND error_text ="
			  " 'L1 data cache data read error' AND location LIKE '%, L1 cache'"), 1,
		   "the LL 00 decoding now says L1, level 1, at the L1 cache");
	tap_is_int(scalar(db, "SELECT count(*) FROM mce_record_dec WHERE cache_level = 2 AND error_text ="
			  " 'L2 data cache data read error' AND location LIKE '%, L2 cache'"), 1,
		   "the LL 01 decoding L2, level 2, at the L2 cache");
	tap_is_int(scalar(db, "SELECT count(*) FROM rollup_hourly WHERE location LIKE '%cache level%'"), 0,
		   "no roll-up keeps an old location");
	tap_is_int(scalar(db, "SELECT sum(records) FROM rollup_hourly WHERE tbl = 'mce_record'"
			  " AND location LIKE '%, L1 cache'"), 2, "the L1 roll-up holds its two records");
	text(db, "SELECT error_text FROM mce_record_dec WHERE cache_level = 2", text_buf, sizeof(text_buf));
	sqlite3_close(db);
	CTL(out, "summary");
	tap_ok(strstr(out, "L2 cache") && !strstr(out, "cache level"), "summary after the upgrade: L2 cache");

	/* The zero-count mc_events: a roll-up of version 16 counted them 0. */
	test_zero_count_and_labels();
	sqlite3_open(dbpath, &db);
	sqlite3_exec(db, "UPDATE rollup_edac SET errors = 0; PRAGMA user_version = 16;", NULL, NULL, NULL);
	sqlite3_close(db);
	CTL(out, "summary", "--by", "dimm");
	tap_ok(strstr(out, "DIMM_Z9") == NULL, "the old roll-up is what summary --by dimm reads: 0 errors");
	tap_is_int(test_run(argv, log), 0, "rasd upgrades the database again");
	CTL(out, "summary", "--by", "dimm");
	tap_ok(strstr(test_line_with(out, "DIMM_Z9"), " 2 ") != NULL,
	       "the EDAC roll-up counts the zero-count records one each (%s)", test_line_with(out, "DIMM_Z9"));
}

int main(void)
{
	actions_fixture_init();
	test_cache_levels();
	test_zero_count_and_labels();
	test_migration();
	actions_fixture_done();
	return tap_done();
}
