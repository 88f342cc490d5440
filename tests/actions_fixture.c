/* SPDX-License-Identifier: MIT */
/* The fixture of the actions tests: see actions_fixture.h. */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "actions_fixture.h"
#include "tap.h"
#include "test_util.h"

char tmp[256], sysfs[512], trig[512], dbpath[512];
uint64_t base_ts;

void put(const char *rel, const char *text)
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

void get(const char *rel, char *out, size_t len)
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
void make_sysfs(bool with_hard)
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

void write_conf(const char *extra)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/rasd.conf", tmp);
	f = fopen(path, "we");
	/* proc_root first (a test's own line comes later and wins): never the machine's kpageflags. */
	fprintf(f, "proc_root = %s/proc\nsysfs_root = %s\ntrigger_dir = %s\n"
		"page_ce_threshold = 3/1h\npage_ce_action = soft\n"
		"cpu_ce_threshold = 2/1h\ncpu_ce_action = offline\n"
		"dimm_ce_threshold = 8/1h\nrow_ce_threshold = 2/1h\nmemory_repair = yes\n"
		"device_ce_threshold = 2/1h\n"
		"action_min_interval_s = 0\naction_max_per_day = 10\ntrigger_max_children = 8\n%s", tmp, sysfs,
		trig, extra);
	fclose(f);
}

/* The trigger writes its RAS_ environment, sorted, one file per run. */
void make_trigger(const char *name)
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

void make_triggers(void)
{
	make_trigger("page-threshold");
	make_trigger("dimm-threshold");
	make_trigger("cpu-threshold");
	make_trigger("row-threshold");
	make_trigger("device-threshold");
	make_trigger("uncorrected");
}

int run_rasd(const char *tree, bool synthetic)
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

void exec_sql(const char *sql)
{
	sqlite3 *db;

	if (sqlite3_open(dbpath, &db) == SQLITE_OK)
		sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
}

int rebuild_buckets(void)
{
	char rasd[1024], log[600], conf[600];
	char *argv[] = { rasd, "--config", conf, "--db", dbpath, "--rebuild-buckets", NULL };

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	return test_run(argv, log);
}

int ctl_run(char *out, size_t len, const char *const *args)
{
	char bin[1024], log[600];
	char *argv[32] = { bin, "--config", "/dev/null", "--db", dbpath, "--sysfs-root", sysfs };
	int n = 7, rc;
	FILE *f;
	size_t got = 0;

	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	snprintf(bin, sizeof(bin), "%s/ctl/ras-fdr-ctl", test_builddir());
	snprintf(log, sizeof(log), "%s/ctl.out", tmp);
	unlink(log);
	rc = test_run(argv, log);
	if ((f = fopen(log, "re"))) {
		got = fread(out, 1, len - 1, f);
		fclose(f);
	}
	out[got] = 0;
	return rc;
}

int add(struct fake_tree *t, const char *name, char **assign, int n, uint64_t ts)
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

int add_mc(struct fake_tree *t, const char *address, const char *count, uint64_t ts)
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
int add_cache_mce(struct fake_tree *t, uint64_t ts)
{
	char *assign[] = { "status=0x9000004000010134", "cpu=1", "bank=1", "cpuvendor=0",
			   "cpuid=0x50654", "socketid=0", "apicid=2", "mcgcap=0x1c09" };

	return add(t, "mce:mce_record", assign, 8, ts);
}

int64_t scalar(sqlite3 *db, const char *sql)
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

void text(sqlite3 *db, const char *sql, char *out, size_t len)
{
	sqlite3_stmt *st;

	out[0] = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, len, "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

bool tree(struct fake_tree *t)
{
	char formats[1024];

	snprintf(formats, sizeof(formats), "%s/formats", test_srcdir());
	return fake_tree_create(t, formats, 1, "rasd", "boot") == 0;
}

void fresh_db(void)
{
	test_remove_db(dbpath);
}

void actions_fixture_init(void)
{
	struct timespec now;

	test_tmpdir(tmp, sizeof(tmp));
	snprintf(sysfs, sizeof(sysfs), "%s/sys", tmp);
	snprintf(trig, sizeof(trig), "%s/triggers", tmp);
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	/* Records from ten minutes ago on the boot clock, so wall times are recent. */
	clock_gettime(CLOCK_BOOTTIME, &now);
	base_ts = ((uint64_t)now.tv_sec - 600) * 1000000000ULL;
}

void actions_fixture_done(void)
{
	if (getenv("RAS_TEST_KEEP"))
		tap_diag("kept %s", tmp);
	else
		test_rmtree(tmp);
}
