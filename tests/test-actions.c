/* SPDX-License-Identifier: MIT */
/*
 * Thresholds and actions end to end on replayed storms: a fake tracing tree
 * (the shipped formats) feeds rasd --once, which acts on a fake sysfs tree
 * (regular files where the kernel has soft_offline_page, cpuN/online,
 * shared_cpu_list and mem_repairN, laid out per
 * Documentation/ABI/testing/sysfs-edac-memory-repair) and runs a trigger
 * that writes its environment to a file. Checked: the exact sysfs writes,
 * the actions rows, the trigger's environment, leaking, a restart keeping
 * counts, dry-run, synthetic records, caps and unsupported interfaces.
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "fake_tree.h"
#include "lib/synthetic.h"
#include "tap.h"
#include "test_util.h"

#define MS 1000000ULL
#define MIN (60000 * MS)

static char tmp[256], sysfs[512], trig[512], dbpath[512];
static uint64_t base_ts;

static void put(const char *rel, const char *text)
{
	char path[1024], dir[1024], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + 1; (slash = strchr(p, '/')); p = slash + 1) {
		*slash = 0;
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "we");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void get(const char *rel, char *out, size_t len)
{
	char path[1024];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	out[0] = 0;
	f = fopen(path, "re");
	if (!f) {
		snprintf(out, len, "(missing)");
		return;
	}
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	fclose(f);
}

/* A machine with 4 CPUs (cpu0 without an online file), L1 shared by SMT siblings 1-2. */
static void make_sysfs(bool with_hard)
{
	char cmd[1100];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sysfs);
	if (system(cmd) != 0)
		return;
	mkdir(sysfs, 0755);
	put("devices/system/memory/soft_offline_page", "");
	if (with_hard)
		put("devices/system/memory/hard_offline_page", "");
	put("devices/system/cpu/online", "0-3\n");
	for (int c = 1; c < 4; c++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/online", c);
		put(rel, "1\n");
	}
	put("devices/system/cpu/cpu1/cache/index0/level", "1\n");
	put("devices/system/cpu/cpu1/cache/index0/type", "Data\n");
	put("devices/system/cpu/cpu1/cache/index0/shared_cpu_list", "1-2\n");
	put("devices/system/cpu/cpu1/cache/index1/level", "1\n");
	put("devices/system/cpu/cpu1/cache/index1/type", "Instruction\n");
	put("devices/system/cpu/cpu1/cache/index1/shared_cpu_list", "1\n");
	/* A CXL memdev offering row sparing: the attributes the ABI lists for it. */
	static const char *const attrs[] = { "persist_mode", "repair_safe_when_in_use", "dpa",
		"channel", "rank", "bank_group", "bank", "row", "repair" };
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "bus/edac/devices/mem0/mem_repair0/%s", attrs[i]);
		put(rel, "");
	}
	put("bus/edac/devices/mem0/mem_repair0/repair_type", "row-sparing\n");
}

static void write_conf(const char *extra)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/rasd.conf", tmp);
	f = fopen(path, "we");
	fprintf(f, "sysfs_root = %s\ntrigger_dir = %s\n"
		"page_ce_threshold = 3/1h\npage_ce_action = soft\n"
		"cpu_ce_threshold = 2/1h\ncpu_ce_action = offline\n"
		"dimm_ce_threshold = 8/1h\nrow_ce_threshold = 2/1h\nmemory_repair = yes\n"
		"device_ce_threshold = 2/1h\n"
		"action_min_interval_s = 0\naction_max_per_day = 10\ntrigger_max_children = 8\n%s", sysfs, trig, extra);
	fclose(f);
}

/* The trigger writes its RAS_ environment, sorted, one file per run. */
static void make_trigger(const char *name)
{
	char path[700];
	FILE *f;

	mkdir(trig, 0755);
	snprintf(path, sizeof(path), "%s/%s", trig, name);
	f = fopen(path, "we");
	fprintf(f, "#!/bin/sh\nenv | grep '^RAS_' | sort > \"$0.$RAS_RECORD_ID.env\"\n"
		"echo \"trigger output for $RAS_SUBJECT\"\n");
	fclose(f);
	chmod(path, 0755);
}

static int run_rasd(const char *tree, bool synthetic)
{
	char rasd[1024], log[600], lock[600], conf[600];
	char *argv[] = { rasd, "--config", conf, "--tracing-dir", (char *)tree, "--db", dbpath,
			 "--lock-dir", lock, "--once", synthetic ? "--allow-synthetic" : NULL, NULL };

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	return test_run(argv, log);
}

static int add(struct fake_tree *t, const char *name, char **assign, int n, uint64_t ts)
{
	uint8_t rec[4096];
	int len = fake_record(t, name, assign, n, rec, sizeof(rec));

	if (len < 0)
		return len;
	/* A gap longer than a record header's time delta starts a new sub-buffer. */
	if (t->cpu[0].used && ts - t->cpu[0].last_ts >= (1u << 27))
		fake_mark_missed(t, 0, 0);
	return fake_add(t, 0, ts, rec, (uint32_t)len);
}

static int add_mc(struct fake_tree *t, const char *address, const char *count, uint64_t ts)
{
	char a[64], c[64];
	char *assign[] = { "error_type=0", "msg=memory read error", "label=DIMM_A1", c,
			   "mc_index=0", "top_layer=0", "middle_layer=3", "lower_layer=-1", a,
			   "grain_bits=6", "syndrome=0" };

	snprintf(a, sizeof(a), "address=%s", address);
	snprintf(c, sizeof(c), "error_count=%s", count);
	return add(t, "ras:mc_event", assign, 11, ts);
}

/* A corrected L1 data-cache read error (MCACOD 0x0134: DRD, data, level 0) on cpu 1. */
static int add_cache_mce(struct fake_tree *t, uint64_t ts)
{
	char *assign[] = { "status=0x9000004000010134", "cpu=1", "bank=1", "cpuvendor=0",
			   "cpuid=0x50654", "socketid=0", "apicid=2", "mcgcap=0x1c09" };

	return add(t, "mce:mce_record", assign, 8, ts);
}

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

static int64_t scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		tap_diag("%s: %s", sql, sqlite3_errmsg(db));
		return -2;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void text(sqlite3 *db, const char *sql, char *out, size_t len)
{
	sqlite3_stmt *st;

	out[0] = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, len, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

static bool tree(struct fake_tree *t)
{
	char formats[1024];

	snprintf(formats, sizeof(formats), "%s/formats", test_srcdir());
	return fake_tree_create(t, formats, 1, "rasd", "boot") == 0;
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

/* A storm on one page, one DIMM, one cache and one DRAM row crosses each threshold once. */
static void test_storm(void)
{
	struct fake_tree t;
	char buf[4096], env[4096];
	sqlite3 *db;

	make_sysfs(true);
	make_trigger("page-threshold");
	make_trigger("dimm-threshold");
	make_trigger("cpu-threshold");
	make_trigger("row-threshold");
	make_trigger("device-threshold");
	make_trigger("uncorrected");
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
	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return;
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
	fake_tree_destroy(&t);
}

static void fresh_db(void)
{
	char path[600];

	unlink(dbpath);
	snprintf(path, sizeof(path), "%s-wal", dbpath);
	unlink(path);
	snprintf(path, sizeof(path), "%s-shm", dbpath);
	unlink(path);
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
	tap_is_str(buf, "0x2469000", "the row crosses 2/1h; mc0 has no mem_repair: the crossing page is soft offlined");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'row' AND action = 'soft' AND "
			  "result = 'done' AND subject = 'mc0 2:0:-1 rank 1 bank group 2 bank 3 row 0x1a2b'"), 1,
		   "the actions row names the DRAM row");
	sqlite3_close(db);
	fake_tree_destroy(&t);
}

static int add_synthetic_mc(struct fake_tree *t, uint64_t ts)
{
	char *assign[] = { "error_type=0", "msg=synthetic", "label=DIMM_S", "error_count=3",
			   "mc_index=0", "top_layer=1", "middle_layer=0", "lower_layer=-1",
			   "address=0x9999000", "grain_bits=6" };
	const struct ras_type_format *tf =
		&t->fmt->type[ras_event_type_find("ras:mc_event") - ras_event_types];
	uint8_t wrapped[4096], outer[4200];
	char err[256], *none[1] = { NULL };
	int wl = ras_synth_build(tf->event, "ras", assign, 10, wrapped, sizeof(wrapped), err, sizeof(err));
	int ol = fake_record(t, "ftrace:raw_data", none, 0, outer, sizeof(outer));

	if (wl < 0 || ol < 0)
		return -1;
	memcpy(outer + t->fmt->raw_id->offset, wrapped, (size_t)wl);
	return fake_add(t, 0, ts, outer, (uint32_t)(t->fmt->raw_id->offset + wl));
}

/* dry_run, synthetic records, the daily cap and a kernel without hard_offline_page. */
static void test_safety(void)
{
	struct fake_tree t;
	char buf[256];
	sqlite3 *db;

	fresh_db();
	make_sysfs(true);
	write_conf("dry_run = yes\n");
	tree(&t);
	for (int i = 0; i < 3; i++)
		add_mc(&t, "0x1000", "1", base_ts + (uint64_t)i * MS);
	for (int i = 0; i < 2; i++)
		add_cache_mce(&t, base_ts + (uint64_t)(3 + i) * MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "dry run exits 0");
	fake_tree_destroy(&t);
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "", "dry run: soft_offline_page untouched");
	get("devices/system/cpu/cpu1/online", buf, sizeof(buf));
	tap_is_str(buf, "1\n", "dry run: cpu1 still online");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE result = 'dry-run'"), 2,
		   "both decisions recorded as dry-run");
	text(db, "SELECT target FROM actions WHERE kind = 'page'", buf, sizeof(buf));
	tap_ok(strstr(buf, "0x1000 > ") != NULL, "with the write they would have made");
	sqlite3_close(db);

	/* Synthetic records decide but do not act without synthetic_actions. */
	fresh_db();
	write_conf("");
	tree(&t);
	add_synthetic_mc(&t, base_ts);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, true), 0, "synthetic storm exits 0");
	fake_tree_destroy(&t);
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "", "a synthetic record offlines nothing");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE subject = '0x9999000' AND synthetic = 1"
			  " AND result = 'dry-run' AND count = 3"), 1, "its decision is a synthetic dry-run");
	sqlite3_close(db);
	fresh_db();
	write_conf("synthetic_actions = yes\n");
	tree(&t);
	add_synthetic_mc(&t, base_ts);
	fake_tree_finish(&t);
	run_rasd(t.root, true);
	fake_tree_destroy(&t);
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "0x9999000", "with synthetic_actions = yes it acts");

	/* Daily cap 1, and page_ce_action = hard on a kernel without hard_offline_page. */
	fresh_db();
	make_sysfs(false);
	write_conf("action_max_per_day = 1\n");
	tree(&t);
	for (int p = 0; p < 3; p++)
		for (int i = 0; i < 3; i++)
			add_mc(&t, p == 0 ? "0xa000" : p == 1 ? "0xb000" : "0xc000", "1",
			       base_ts + (uint64_t)(p * 3 + i) * MS);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "0xa000", "the cap let one page go");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE result = 'capped'"), 2,
		   "the two after it are capped");
	sqlite3_close(db);
	/* At most one action per hour: the second page is rate-limited. */
	fresh_db();
	make_sysfs(true);
	write_conf("action_min_interval_s = 3600\n");
	tree(&t);
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < 3; i++)
			add_mc(&t, p ? "0xf000" : "0xe000", "1", base_ts + (uint64_t)(p * 3 + i) * MS);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE subject = '0xe000' AND result = 'done'"), 1,
		   "the first page is offlined");
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE subject = '0xf000' AND result = 'rate-limited'"), 1,
		   "the second, a moment later, is rate-limited");
	sqlite3_close(db);

	/* Only cpu1 online: it is never taken. */
	fresh_db();
	make_sysfs(true);
	put("devices/system/cpu/online", "1\n");
	write_conf("");
	tree(&t);
	add_cache_mce(&t, base_ts);
	add_cache_mce(&t, base_ts + MS);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	get("devices/system/cpu/cpu1/online", buf, sizeof(buf));
	tap_is_str(buf, "1\n", "the last online CPU stays online");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'cpu' AND result = 'failed' AND errno = 16"),
		   1, "the decision failed with EBUSY");
	sqlite3_close(db);

	fresh_db();
	make_sysfs(false);
	write_conf("page_ce_action = hard\n");
	tree(&t);
	for (int i = 0; i < 3; i++)
		add_mc(&t, "0xd000", "1", base_ts + (uint64_t)i * MS);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE action = 'hard' AND result = 'unsupported'"
			  " AND errno = 95"), 1, "no hard_offline_page: unsupported (EOPNOTSUPP)");
	sqlite3_close(db);
}

static int rebuild(void)
{
	char rasd[1024], log[600], conf[600];
	char *argv[] = { rasd, "--config", conf, "--db", dbpath, "--rebuild-buckets", NULL };

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	return test_run(argv, log);
}

static void exec_sql(const char *sql)
{
	sqlite3 *db;

	if (sqlite3_open(dbpath, &db) == SQLITE_OK)
		sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
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
	tap_is_int(rebuild(), 0, "rasd --rebuild-buckets exits 0");
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

static int count_in_log(const char *needle)
{
	char path[600], *log = calloc(1, 1 << 20);
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/rasd.log", tmp);
	f = fopen(path, "re");
	if (f && log) {
		size_t len = fread(log, 1, (1 << 20) - 1, f);

		log[len] = 0;
		for (char *p = log; (p = strstr(p, needle)); p++)
			n++;
	}
	if (f)
		fclose(f);
	free(log);
	return n;
}

/* A storm on one page: every decision is counted, the log says it once a minute. */
static void test_decision_log(void)
{
	struct fake_tree t;
	char path[600];
	sqlite3 *db;

	fresh_db();
	make_sysfs(true);
	write_conf("dry_run = yes\n");
	tree(&t);
	for (int i = 0; i < 9; i++)
		add_mc(&t, "0x40000", "1", base_ts + (uint64_t)i * MS);
	fake_tree_finish(&t);
	snprintf(path, sizeof(path), "%s/rasd.log", tmp);
	unlink(path);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT sum(repeats) FROM actions WHERE subject = '0x40000'"), 3,
		   "nine errors at 3/1h: three decisions stored");
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE subject = '0x40000' AND repeats = 3"
			      " AND last_ns > wall_ns AND last_event_id > event_id"), 1,
		   "three identical dry runs fold into one row, first and last kept");
	sqlite3_close(db);
	tap_is_int(count_in_log("page 0x40000: 3 corrected errors crossed"), 1,
		   "one decision line in the log for the minute");
	/* Acting for real, each offline is performed and keeps a row of its own. */
	fresh_db();
	write_conf("");
	tree(&t);
	for (int i = 0; i < 9; i++)
		add_mc(&t, "0x40000", "1", base_ts + (uint64_t)i * MS);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE subject = '0x40000' AND"
			      " result = 'done' AND repeats = 1"), 3, "three soft offlines: three rows");
	sqlite3_close(db);
}

/* One trigger at a time: while a slow one runs, the next is not started, and that is logged. */
static void test_trigger_cap(void)
{
	struct fake_tree t;
	char path[700], *log;
	FILE *f;
	size_t n = 0;

	fresh_db();
	make_sysfs(true);
	snprintf(path, sizeof(path), "%s/page-threshold", trig);
	f = fopen(path, "we");
	fprintf(f, "#!/bin/sh\nsleep 2\n");
	fclose(f);
	write_conf("trigger_max_children = 1\n");
	tree(&t);
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < 3; i++)
			add_mc(&t, p ? "0x21000" : "0x20000", "1", base_ts + (uint64_t)(p * 3 + i) * MS);
	fake_tree_finish(&t);
	snprintf(path, sizeof(path), "%s/rasd.log", tmp);
	unlink(path);
	tap_is_int(run_rasd(t.root, false), 0, "rasd with a slow trigger and a cap of 1 exits 0");
	fake_tree_destroy(&t);
	log = calloc(1, 1 << 16);
	f = fopen(path, "re");
	if (f && log) {
		n = fread(log, 1, (1 << 16) - 1, f);
		fclose(f);
	}
	tap_ok(n && strstr(log, "trigger page-threshold not run: 1 triggers already running (1 refused so far)"),
	       "the second trigger is refused at the cap and logged");
	tap_ok(n && strstr(log, "trigger page-threshold[") && strstr(log, "exited with 0"),
	       "the first one is waited for at exit");
	free(log);
}

int main(void)
{
	struct timespec now;

	test_tmpdir(tmp, sizeof(tmp));
	snprintf(sysfs, sizeof(sysfs), "%s/sys", tmp);
	snprintf(trig, sizeof(trig), "%s/triggers", tmp);
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	/* Records from ten minutes ago on the boot clock, so wall times are recent. */
	clock_gettime(CLOCK_BOOTTIME, &now);
	base_ts = ((uint64_t)now.tv_sec - 600) * 1000000000ULL;
	test_storm();
	test_restart_and_leak();
	test_edac_row();
	test_safety();
	test_trigger_cap();
	test_rebuild();
	test_decision_log();
	if (getenv("RAS_TEST_KEEP"))
		tap_diag("kept %s", tmp);
	else
		test_rmtree(tmp);
	return tap_done();
}
