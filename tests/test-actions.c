/* SPDX-License-Identifier: MIT */
/*
 * Thresholds and actions end to end on replayed storms: a fake tracing tree
 * (the shipped formats) feeds rasd --once, which acts on a fake sysfs tree
 * (actions_fixture.h) and runs a trigger that writes its environment to a
 * file. Checked: the exact sysfs writes, the actions rows, the trigger's
 * environment, leaking, a restart keeping counts, a DRAM row named by the
 * driver, buckets rebuilt from the stored records, and subjects seen once
 * held without a row yet counted across restarts. What holds an action
 * back is checked by test-actions-limits.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "actions_fixture.h"
#include "fake_tree.h"
#include "tap.h"
#include "test_util.h"

static int add_cxl_dram(struct fake_tree *t, uint64_t ts)
{
	char *assign[] = { "memdev=mem0", "host=0000:0d:00.0", "log=1", "serial=7", "dpa=0x8000",
			   "hpa=0x4080001000", "channel=1", "rank=0", "bank_group=2", "bank=3",
			   "row=0x1234", "column=8", "validity_flags=0x3b", "descriptor=0", "type=0" };

	return add(t, "cxl:cxl_dram", assign, 15, ts);
}

/* AER severity 2 is a correctable error (include/ras/ras_event.h aer_event). */
static int add_aer(struct fake_tree *t, const char *severity, uint64_t ts)
{
	char sev[32];
	char *assign[] = { "dev_name=0000:00:1c.0", "status=0x1", sev, "tlp_header_valid=0" };

	snprintf(sev, sizeof(sev), "severity=%s", severity);
	return add(t, "ras:aer_event", assign, 4, ts);
}

static void read_env(const char *file, char *out, size_t len)
{
	char path[900];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", trig, file);
	out[0] = 0;
	f = fopen(path, "re");
	if (!f)
		return;
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	fclose(f);
}

static bool has_line(const char *env, const char *line)
{
	char want[300];

	snprintf(want, sizeof(want), "\n%s\n", line);
	return !strncmp(env, want + 1, strlen(want + 1)) || strstr(env, want) != NULL;
}

#define ENV_HAS(env, line) tap_ok(has_line(env, line), "trigger environment has %s", line)

/* What the storm wrote to sysfs: the last page offlined, both CPUs of the cache, the repaired row. */
static void check_storm_sysfs(void)
{
	char buf[4096];

	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "0x7777000", "page 0x7777000 (five errors at once) was written last to soft_offline_page");
	get("devices/system/cpu/cpu1/online", buf, sizeof(buf));
	tap_is_str(buf, "0", "cpu1 offlined");
	get("devices/system/cpu/cpu2/online", buf, sizeof(buf));
	tap_is_str(buf, "0", "cpu2, sharing cpu1's L1 data cache, offlined");
	get("devices/system/cpu/cpu3/online", buf, sizeof(buf));
	tap_is_str(buf, "1\n", "cpu3 left alone");
	get("bus/edac/devices/mem0/mem_repair0/row", buf, sizeof(buf));
	tap_is_str(buf, "4660", "mem_repair0/row = 0x1234");
	get("bus/edac/devices/mem0/mem_repair0/bank", buf, sizeof(buf));
	tap_is_str(buf, "3", "mem_repair0/bank = 3");
	get("bus/edac/devices/mem0/mem_repair0/bank_group", buf, sizeof(buf));
	tap_is_str(buf, "2", "mem_repair0/bank_group = 2");
	get("bus/edac/devices/mem0/mem_repair0/channel", buf, sizeof(buf));
	tap_is_str(buf, "1", "mem_repair0/channel = 1");
	get("bus/edac/devices/mem0/mem_repair0/dpa", buf, sizeof(buf));
	tap_is_str(buf, "0x8000", "mem_repair0/dpa = 0x8000");
	get("bus/edac/devices/mem0/mem_repair0/repair", buf, sizeof(buf));
	tap_is_str(buf, "1", "mem_repair0/repair = 1");
}

/* The storm's decisions and buckets; false when the database cannot be read. */
static bool check_storm_rows(void)
{
	char buf[4096];
	sqlite3 *db;

	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return false;
	tap_is_int(scalar(db, "SELECT count(*) FROM actions"), 6, "six decisions");
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'device' AND subject = '0000:00:1c.0'"
			  " AND count = 2 AND action = 'account' AND result = 'done' AND event_table = 'aer_event'"), 1,
		   "PCIe device 0000:00:1c.0: 2 correctable errors, accounted");
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'page' AND subject = '0x12345000'"
			  " AND count = 3 AND threshold = '3/1h' AND action = 'soft' AND result = 'done'"
			  " AND event_table = 'mc_event' AND event_id = 3 AND errno IS NULL"), 1,
		   "page 0x12345000: 3 errors, soft, done, by mc_event row 3");
	text(db, "SELECT target FROM actions WHERE subject = '0x12345000'", buf, sizeof(buf));
	{
		char want[700];

		snprintf(want, sizeof(want), "0x12345000 > %s/devices/system/memory/soft_offline_page", sysfs);
		tap_is_str(buf, want, "its target names the exact write");
	}
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'page' AND subject = '0x7777000'"
			  " AND count = 5 AND result = 'done'"), 1, "page 0x7777000: five errors in one record");
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'dimm' AND subject = 'mc0 0:3:-1'"
			  " AND count = 8 AND threshold = '8/1h' AND action = 'account' AND result = 'done'"), 1,
		   "DIMM mc0 0:3:-1: 8 errors, accounted");
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'cpu' AND subject = 'cpu 1 L1 cache'"
			  " AND count = 2 AND action = 'offline' AND result = 'done' AND event_table = 'mce_record'"), 1,
		   "cpu 1 L1 cache: offline, done");
	text(db, "SELECT target FROM actions WHERE kind = 'cpu'", buf, sizeof(buf));
	{
		char want[700];

		snprintf(want, sizeof(want), "0 > %s/devices/system/cpu/cpu{1,2}/online", sysfs);
		tap_is_str(buf, want, "the CPU target lists both CPUs");
	}
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'row' AND action = 'repair'"
			  " AND result = 'done' AND subject = 'mem0 channel 1 rank 0 bank group 2 bank 3 row 4660'"), 1,
		   "row: repair done");
	tap_is_int(scalar(db, "SELECT level FROM buckets WHERE kind = 'page' AND subject = '0x12345000'"), 0,
		   "the crossed page bucket is empty again");
	tap_is_int(scalar(db, "SELECT total FROM buckets WHERE kind = 'dimm'"), 8, "the DIMM's total is kept");
	text(db, "SELECT label FROM buckets WHERE kind = 'dimm'", buf, sizeof(buf));
	tap_is_str(buf, "DIMM_A1", "with its label");
	sqlite3_close(db);
	return true;
}

/* What the storm's triggers were told, and their output in rasd's log. */
static void check_storm_triggers(void)
{
	char buf[4096], env[4096];

	read_env("page-threshold.3.env", env, sizeof(env));
	ENV_HAS(env, "RAS_CONDITION=page-threshold");
	ENV_HAS(env, "RAS_SUBJECT=0x12345000");
	ENV_HAS(env, "RAS_ADDRESS=0x12345000");
	ENV_HAS(env, "RAS_COUNT=3");
	ENV_HAS(env, "RAS_THRESHOLD=3/1h");
	ENV_HAS(env, "RAS_ACTION=soft");
	ENV_HAS(env, "RAS_RESULT=done");
	ENV_HAS(env, "RAS_ERRNO=0");
	ENV_HAS(env, "RAS_EVENT=ras:mc_event");
	ENV_HAS(env, "RAS_SEVERITY=corrected");
	ENV_HAS(env, "RAS_RECORD_ID=3");
	ENV_HAS(env, "RAS_SYNTHETIC=0");
	read_env("dimm-threshold.4.env", env, sizeof(env));
	ENV_HAS(env, "RAS_DIMM_LABEL=DIMM_A1");
	ENV_HAS(env, "RAS_SUBJECT=mc0 0:3:-1");
	ENV_HAS(env, "RAS_COUNT=8");
	read_env("cpu-threshold.2.env", env, sizeof(env));
	ENV_HAS(env, "RAS_CPU=1");
	ENV_HAS(env, "RAS_ACTION=offline");
	read_env("device-threshold.2.env", env, sizeof(env));
	ENV_HAS(env, "RAS_DEVICE=0000:00:1c.0");
	ENV_HAS(env, "RAS_SUBJECT_KIND=device");
	read_env("uncorrected.3.env", env, sizeof(env));
	ENV_HAS(env, "RAS_CONDITION=uncorrected");
	ENV_HAS(env, "RAS_EVENT=ras:aer_event");
	ENV_HAS(env, "RAS_SEVERITY=fatal");
	read_env("row-threshold.2.env", env, sizeof(env));
	ENV_HAS(env, "RAS_DEVICE=mem0");
	ENV_HAS(env, "RAS_ACTION=repair");
	snprintf(buf, sizeof(buf), "%s/rasd.log", tmp);
	{
		char *log = NULL;
		FILE *f = fopen(buf, "re");
		size_t n = 0;

		if (f) {
			log = calloc(1, 1 << 20);
			n = fread(log, 1, (1 << 20) - 1, f);
			fclose(f);
		}
		tap_ok(log && n && strstr(log, "trigger output for 0x12345000"),
		       "the trigger's output is in the log");
		free(log);
	}
}

/* A storm on one page, one DIMM, one cache and one DRAM row crosses each threshold once. */
static void test_storm(void)
{
	struct fake_tree t;

	make_sysfs(true);
	make_triggers();
	write_conf("");
	if (!tap_ok(tree(&t), "storm tree built"))
		return;
	/* Records 1-3: page 0x12345000 crosses 3/1h at the third. */
	for (int i = 0; i < 3; i++)
		add_mc(&t, "0x12345678", "1", base_ts + (uint64_t)i * MS);
	/* Record 4: error_count=5 is five errors; the DIMM reaches 8 and crosses 8/1h. */
	add_mc(&t, "0x7777000", "5", base_ts + 3 * MS);
	/* Records 5-6: cpu 1's L1 data cache crosses 2/1h. */
	add_cache_mce(&t, base_ts + 4 * MS);
	add_cache_mce(&t, base_ts + 5 * MS);
	/* Records 7-8: a CXL DRAM row crosses 2/1h: repaired by row sparing. */
	add_cxl_dram(&t, base_ts + 6 * MS);
	add_cxl_dram(&t, base_ts + 7 * MS);
	/* AER rows 1-2: two correctable errors cross the device's 2/1h; row 3 is fatal. */
	add_aer(&t, "2", base_ts + 8 * MS);
	add_aer(&t, "2", base_ts + 9 * MS);
	add_aer(&t, "1", base_ts + 10 * MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "rasd --once on the storm exits 0");
	check_storm_sysfs();
	if (!check_storm_rows())
		return;
	check_storm_triggers();
	fake_tree_destroy(&t);
}

/* Two runs of rasd: the second sees the first one's errors in the bucket. */
static void test_restart_and_leak(void)
{
	struct fake_tree t;
	char buf[256];
	sqlite3 *db;

	fresh_db();
	make_sysfs(true);
	write_conf("");
	tree(&t);
	add_mc(&t, "0x5555000", "1", base_ts);
	add_mc(&t, "0x5555000", "1", base_ts + MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "first run: two errors on page 0x5555000");
	fake_tree_destroy(&t);
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "", "below the threshold: nothing written");
	tree(&t);
	add_mc(&t, "0x5555000", "1", base_ts + 2 * MS);
	/* 3/1h leaks one error per 20 minutes: three errors 25 minutes apart never cross. */
	for (int i = 0; i < 3; i++)
		add_mc(&t, "0x6666000", "1", base_ts + 3 * MS + (uint64_t)i * 25 * MIN);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "second run (a restart): one more error");
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "0x5555000", "the restart kept the count: the third error crosses");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE subject = '0x5555000' AND count = 3"), 1,
		   "the action row counts the errors of both runs");
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE subject = '0x6666000'"), 0,
		   "errors spread wider than the leak rate never cross");
	tap_is_int(scalar(db, "SELECT level FROM buckets WHERE subject = '0x6666000'"), 1,
		   "25 minutes leak one error at 3/1h: the bucket holds one");
	tap_is_int(scalar(db, "SELECT total FROM buckets WHERE subject = '0x6666000'"), 3,
		   "the total keeps all three");
	sqlite3_close(db);
	fake_tree_destroy(&t);
}

/* An i10nm-style row in driver_detail: two errors, two pages, one row; no mem_repair for mc0. */
static void test_edac_row(void)
{
	static const char *const pages[] = { "address=0x2468000", "address=0x2469000" };
	char buf[256];
	struct fake_tree t;
	sqlite3 *db;

	fresh_db();
	make_sysfs(true);
	write_conf("");
	tree(&t);
	for (int i = 0; i < 2; i++) {
		char *assign[] = { "error_type=0", "msg=memory read error", "label=DIMM_C0", "error_count=1",
				   "mc_index=0", "top_layer=2", "middle_layer=0", "lower_layer=-1",
				   (char *)pages[i], "grain_bits=6", "syndrome=0",
				   "driver_detail= err_code:0x0000:0x009f ProcessorSocketId:0x0 MemoryControllerId:0x0 "
				   "PhysicalRankId:0x1 Row:0x1a2b Column:0x3f8 Bank:0x3 BankGroup:0x2" };

		add(&t, "ras:mc_event", assign, 12, base_ts + (uint64_t)i * MS);
	}
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "two errors in one DRAM row named by driver_detail");
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	/* The crossing page first, then the row's other page (tests/test-row-pages sees every write). */
	tap_is_str(buf, "0x2468000", "the row crosses 2/1h; mc0 has no mem_repair: both its pages are soft offlined");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'row' AND action = 'soft' AND "
			  "result = 'done' AND subject = 'mc0 2:0:-1 rank 1 bank group 2 bank 3 row 0x1a2b'"), 2,
		   "the actions rows name the DRAM row, one per page");
	sqlite3_close(db);
	fake_tree_destroy(&t);
}

/* Buckets lost or damaged are recomputed from the stored records. */
static void test_rebuild(void)
{
	struct fake_tree t;
	char buf[64];
	sqlite3 *db;

	fresh_db();
	make_sysfs(true);
	write_conf("");
	tree(&t);
	add_mc(&t, "0x31000", "1", base_ts);
	add_mc(&t, "0x31000", "1", base_ts + MS);
	for (int i = 0; i < 4; i++)
		add_mc(&t, "0x33000", "1", base_ts + (uint64_t)(2 + i) * MS);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	exec_sql("DELETE FROM buckets WHERE subject = '0x31000'; UPDATE buckets SET level = 99"
		 " WHERE subject = '0x33000'");
	tap_is_int(rebuild_buckets(), 0, "rasd --rebuild-buckets exits 0");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT level FROM buckets WHERE kind = 'page' AND subject = '0x31000'"), 2,
		   "a lost bucket holds its two errors again");
	tap_is_int(scalar(db, "SELECT total FROM buckets WHERE kind = 'page' AND subject = '0x31000'"), 2,
		   "and its total");
	tap_is_int(scalar(db, "SELECT level FROM buckets WHERE subject = '0x33000'"), 1,
		   "a damaged bucket is recomputed: emptied at the third error, one since");
	tap_is_int(scalar(db, "SELECT total FROM buckets WHERE subject = '0x33000'"), 4, "its total is kept");
	tap_is_int(scalar(db, "SELECT level FROM buckets WHERE kind = 'dimm'"), 6, "the DIMM holds all six");
	tap_is_int(scalar(db, "SELECT count(*) FROM actions"), 1, "a rebuild decides nothing");
	sqlite3_close(db);
	tree(&t);
	add_mc(&t, "0x31000", "1", base_ts + 10 * MS);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "0x31000", "after the rebuild the third error on 0x31000 crosses");
}

/*
 * A page seen once has no bucket row (it is held in memory); a restart finds
 * its error again in the stored records, so errors one per run still add up.
 */
static void test_seen_once(void)
{
	struct fake_tree t;
	char buf[64];
	sqlite3 *db;

	fresh_db();
	make_sysfs(true);
	write_conf("");
	for (int run = 0; run < 3; run++) {
		tree(&t);
		add_mc(&t, "0x41000", "1", base_ts + (uint64_t)run * MS);
		fake_tree_finish(&t);
		run_rasd(t.root, false);
		fake_tree_destroy(&t);
		sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
		if (run == 0) {
			tap_is_int(scalar(db, "SELECT count(*) FROM mc_event"), 1, "one error on page 0x41000 stored");
			tap_is_int(scalar(db, "SELECT count(*) FROM buckets"), 0,
				   "a page and a DIMM seen once: no bucket rows");
		} else if (run == 1) {
			text(db, "SELECT level || ' ' || total FROM buckets WHERE kind = 'page' AND"
			     " subject = '0x41000'", buf, sizeof(buf));
			tap_is_str(buf, "2 2", "after a restart the second error finds the first: 2 of 2");
			tap_is_int(scalar(db, "SELECT total FROM buckets WHERE kind = 'dimm'"), 2,
				   "and the DIMM's bucket holds both");
		}
		sqlite3_close(db);
	}
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "0x41000", "the third error, in a third run, crosses 3/1h");
}

/*
 * A row left by a subject seen once (as when the once-seen memory is full) is
 * removed once its one error has leaked out; rows still leaking, or of
 * subjects seen more than once, stay. A page whose row went counts afresh.
 */
static void test_prune_leaked_once(void)
{
	static const struct {
		const char *subjects;
		int64_t want;
		const char *what;
	} rows[] = {
		{ "'0x52000', 'DIMM_X', '0x55000'", 0,
		  "one error leaked out two hours ago, or emptied: the page and DIMM rows are gone" },
		{ "'0x53000'", 1, "one error five minutes old, still leaking: kept" },
		{ "'0x54000'", 1, "a page that counted three errors keeps its row" },
		{ "'0x56000'", 0, "the run's page seen once has no row" },
	};
	struct fake_tree t;
	char sql[1024], buf[64];
	int64_t b;
	sqlite3 *db;

	fresh_db();
	make_sysfs(true);
	write_conf("");
	tree(&t);
	add_mc(&t, "0x51000", "1", base_ts);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	/* The record's wall time (base_ts is on the boot clock). */
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	b = scalar(db, "SELECT wall_ns FROM mc_event");
	sqlite3_close(db);
	/* At 3/1h a page's error leaks in 20 minutes; at 8/1h a DIMM's in 7.5. */
	snprintf(sql, sizeof(sql), "INSERT INTO buckets (kind, subject, level, last_ns, total) VALUES"
		 " ('page', '0x52000', 1, %lld, 1), ('page', '0x53000', 1, %lld, 1),"
		 " ('page', '0x54000', 0, %lld, 3), ('dimm', 'DIMM_X', 1, %lld, 1),"
		 " ('page', '0x55000', 0, %lld, 1)", (long long)(b - 120 * (int64_t)MIN),
		 (long long)(b - 5 * (int64_t)MIN), (long long)(b - 120 * (int64_t)MIN),
		 (long long)(b - 120 * (int64_t)MIN), (long long)(b - (int64_t)MIN));
	exec_sql(sql);
	tree(&t);
	add_mc(&t, "0x56000", "1", base_ts + MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "a run over rows of one error each");
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM buckets WHERE subject IN (%s)", rows[i].subjects);
		tap_is_int(scalar(db, sql), rows[i].want, "%s", rows[i].what);
	}
	sqlite3_close(db);
	tree(&t);
	add_mc(&t, "0x52000", "1", base_ts + 2 * MS);
	add_mc(&t, "0x52000", "1", base_ts + 3 * MS);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	text(db, "SELECT level || ' ' || total FROM buckets WHERE subject = '0x52000'", buf, sizeof(buf));
	tap_is_str(buf, "2 2", "two new errors on the page whose row went: 2 of 2, as on a new page");
	sqlite3_close(db);
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "", "below 3/1h: nothing offlined");
}

/*
 * A rebuild empties every bucket, then replays the stored errors; the cache
 * fills and is written out midway. Rows of one error not replayed yet look
 * emptied then, and must not be pruned: 3,200 pages of one recent error each
 * (rows a full once-seen memory would leave) all keep their row.
 */
static void test_rebuild_keeps_once(void)
{
	struct fake_tree t;
	char sql[160];
	sqlite3 *db;

	fresh_db();
	make_sysfs(true);
	write_conf("fold_threshold = off\n");   /* every record stays to be replayed */
	tree(&t);
	for (unsigned i = 0; i < 3200; i++) {
		snprintf(sql, sizeof(sql), "0x%x000", 0x100000 + i);
		add_mc(&t, sql, "1", base_ts + i * MS);
	}
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	exec_sql("INSERT INTO buckets (kind, subject, level, last_ns, total) SELECT 'page',"
		 " printf('0x%x', address), 1, wall_ns, 1 FROM mc_event");
	tap_is_int(rebuild_buckets(), 0, "rasd --rebuild-buckets over 3,200 pages of one error each");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM buckets WHERE kind = 'page' AND level = 1 AND total = 1"),
		   3200, "every page keeps its row of one error, still leaking");
	sqlite3_close(db);
}

/*
 * A first record of 2 errors against 3/1h has no bucket row either (held with
 * its errors). A restart finds it again, so 2 more errors cross. Half an hour
 * old (when the machine has been up long enough for that on the boot clock),
 * one of its errors has leaked out and the other is still there: the restart
 * looks back (count - 1) leak times, 40 minutes, not one leak time.
 */
static void test_seen_once_errors(void)
{
	struct timespec up;
	struct fake_tree t;
	char buf[64];
	sqlite3 *db;
	bool old;

	clock_gettime(CLOCK_BOOTTIME, &up);
	old = up.tv_sec > 2400;
	fresh_db();
	make_sysfs(true);
	write_conf("");
	for (int run = 0; run < 2; run++) {
		tree(&t);
		add_mc(&t, "0x42000", "2", run || !old ? base_ts + (uint64_t)run * MS : base_ts - 20 * MIN);
		fake_tree_finish(&t);
		run_rasd(t.root, false);
		fake_tree_destroy(&t);
		if (run == 0) {
			sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
			tap_is_int(scalar(db, "SELECT count(*) FROM buckets WHERE kind = 'page'"), 0,
				   "a page's first record of 2 errors against 3/1h: no bucket row");
			sqlite3_close(db);
			get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
			tap_is_str(buf, "", "and no action");
		}
	}
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	text(db, "SELECT level || ' ' || total FROM buckets WHERE kind = 'page' AND subject = '0x42000'",
	     buf, sizeof(buf));
	sqlite3_close(db);
	tap_is_str(buf, "0 4", "after a restart 2 more errors find the first record's (%s old): crossed, emptied",
		   old ? "30 minutes" : "10 minutes");
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "0x42000", "the page is offlined");
	if (!old)
		tap_ok(1, "a record half an hour old # SKIP up for under 40 minutes");
}

int main(void)
{
	actions_fixture_init();
	test_storm();
	test_restart_and_leak();
	test_edac_row();
	test_rebuild();
	test_seen_once();
	test_seen_once_errors();
	test_prune_leaked_once();
	test_rebuild_keeps_once();
	actions_fixture_done();
	return tap_done();
}
