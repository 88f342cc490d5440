/* SPDX-License-Identifier: MIT */
/*
 * The machine-wide warnings (rasd/actions_stats.c): ce_rate_threshold, a
 * bucket of every corrected error kept across restarts, and
 * poison_threshold_kb on HardwareCorrupted of a fake proc_root/meminfo, each
 * a stored decision, a log line and a trigger, through rasd --once.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "actions_fixture.h"
#include "fake_tree.h"
#include "tap.h"
#include "lib/meminfo.h"

static char proc[600];

static void test_parse(void)
{
	uint64_t kb = 7;

	tap_is_int(ras_meminfo_parse("MemTotal:       16318412 kB\nHardwareCorrupted:    12 kB\n"
				     "AnonHugePages:         0 kB\n", "HardwareCorrupted", &kb), 0,
		   "HardwareCorrupted found among other lines");
	tap_is_int((int)kb, 12, "its value in kB");
	tap_is_int(ras_meminfo_parse("MemTotal: 1 kB\n", "HardwareCorrupted", &kb), -ENOENT,
		   "a kernel without the line (no CONFIG_MEMORY_FAILURE): -ENOENT");
	tap_is_int(ras_meminfo_parse("HardwareCorruptedX: 4 kB\nHardwareCorrupted: x kB\n",
				     "HardwareCorrupted", &kb), -EINVAL,
		   "a longer key is another key; a value that is not a number: -EINVAL");
	tap_is_int(ras_meminfo_parse("HardwareCorrupted: 4 MB\n", "HardwareCorrupted", &kb), -EINVAL,
		   "a unit other than kB: -EINVAL");
}

static void meminfo(unsigned kb)
{
	char path[700];
	FILE *f;

	mkdir(proc, 0755);
	snprintf(path, sizeof(path), "%s/meminfo", proc);
	f = fopen(path, "we");
	fprintf(f, "MemTotal:       16318412 kB\nHardwareCorrupted: %8u kB\n", kb);
	fclose(f);
}

static void read_env(const char *prefix, char *out, size_t len)
{
	char cmd[1200];
	FILE *f;
	size_t n = 0;

	snprintf(cmd, sizeof(cmd), "cat %s/%s.*.env 2>/dev/null", trig, prefix);
	out[0] = 0;
	f = popen(cmd, "r");
	if (!f)
		return;
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	pclose(f);
}

/* rasd's output of the last run holds text. */
static bool logged(const char *text)
{
	char path[600], buf[16384];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/rasd.log", tmp);
	if (!(f = fopen(path, "re")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return strstr(buf, text) != NULL;
}

static int64_t q(const char *sql)
{
	sqlite3 *db;
	int64_t v = -3;

	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
		v = scalar(db, sql);
	sqlite3_close(db);
	return v;
}

/* Two records of 2 errors stay under 5/1h (also after --rebuild-buckets); after a restart one more error crosses. */
static void test_rate(void)
{
	struct fake_tree t;
	char env[4096];
	int r = 0;

	make_sysfs(false);
	make_triggers();
	make_trigger("ce-rate-threshold");
	write_conf("ce_rate_threshold = 5/1h\n");
	fresh_db();
	if (!tap_ok(tree(&t), "a fake tree"))
		return;
	r |= add_mc(&t, "0x1000", "2", base_ts);
	r |= add_mc(&t, "0x2000", "2", base_ts + MS);
	fake_tree_finish(&t);
	tap_is_int(r | run_rasd(t.root, false), 0, "rasd --once: 4 corrected errors");
	fake_tree_destroy(&t);
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'ce-rate'"), 0, "4 of 5/1h: no warning");
	tap_is_int(q("SELECT level FROM buckets WHERE kind = 'rate' AND subject = 'corrected errors'"), 4,
		   "the machine's bucket is stored with 4");
	exec_sql("UPDATE buckets SET level = 0 WHERE kind = 'rate'");
	tap_is_int(rebuild_buckets(), 0, "rasd --rebuild-buckets after the bucket was lost");
	tap_is_int(q("SELECT level FROM buckets WHERE kind = 'rate' AND subject = 'corrected errors'"), 4,
		   "the rebuild replays the stored corrected errors into the machine's bucket: 4 again");
	tap_is_int(q("SELECT total FROM buckets WHERE kind = 'rate'"), 4, "and keeps its total");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'ce-rate'"), 0, "a rebuild warns of nothing");
	if (!tap_ok(tree(&t), "a second fake tree"))
		return;
	r |= add_cache_mce(&t, base_ts + 2 * MS);
	fake_tree_finish(&t);
	tap_is_int(r | run_rasd(t.root, false), 0, "rasd --once again: one corrected machine check");
	fake_tree_destroy(&t);
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'ce-rate' AND subject = 'machine'"
		     " AND action = 'ce-rate-warning' AND result = 'done' AND count = 5"
		     " AND threshold = '5/1h' AND event_table = 'mce_record'"), 1,
		   "the bucket survived the restart: the fifth error warns");
	tap_ok(logged("corrected errors are spiking: 5 crossed 5/1h machine-wide"), "logged");
	tap_is_int(q("SELECT level FROM buckets WHERE kind = 'rate'"), 0, "and the bucket starts again");
	tap_is_int(q("SELECT total FROM buckets WHERE kind = 'rate'"), 5, "its total keeps 5");
	{
		const char *metrics[] = { "metrics", NULL };
		char out[65536];

		ctl_run(out, sizeof(out), metrics);
		tap_ok(strstr(out, "ras_fdr_actions_total{action=\"ce-rate-warning\",result=\"done\"} 1") != NULL,
		       "ras-fdr-ctl metrics counts the warning");
	}
	read_env("ce-rate-threshold", env, sizeof(env));
	tap_ok(strstr(env, "RAS_CONDITION=ce-rate-threshold\n") && strstr(env, "RAS_COUNT=5\n") &&
	       strstr(env, "RAS_ACTION=ce-rate-warning\n") && strstr(env, "RAS_TABLE=mce_record\n"),
	       "the ce-rate-threshold trigger ran with the crossing");
}

static int add_mf(struct fake_tree *t, const char *pfn, uint64_t ts)
{
	char p[64];
	char *assign[] = { p, "type=14", "result=3" };

	snprintf(p, sizeof(p), "pfn=%s", pfn);
	return add(t, "ras:memory_failure_event", assign, 3, ts);
}

static void test_poison(void)
{
	struct fake_tree t;
	char env[4096], conf[800];
	int r = 0;

	make_sysfs(false);
	make_triggers();
	make_trigger("poison-threshold");
	snprintf(conf, sizeof(conf), "poison_threshold_kb = 8\nproc_root = %s\n", proc);
	write_conf(conf);
	fresh_db();
	meminfo(4);
	if (!tap_ok(tree(&t), "a fake tree"))
		return;
	r |= add_mf(&t, "0x1234", base_ts);
	fake_tree_finish(&t);
	tap_is_int(r | run_rasd(t.root, false), 0, "rasd --once: a page poisoned, 4 kB corrupted");
	fake_tree_destroy(&t);
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'poison'"), 0, "4 kB, limit 8: no warning");
	meminfo(12);
	if (!tap_ok(tree(&t), "a second fake tree"))
		return;
	r |= add_mf(&t, "0x1235", base_ts + MS);
	r |= add_mf(&t, "0x1235", base_ts + 2 * MS);
	fake_tree_finish(&t);
	tap_is_int(r | run_rasd(t.root, false), 0, "rasd --once: two more records, 12 kB corrupted");
	fake_tree_destroy(&t);
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'poison' AND subject = 'HardwareCorrupted'"
		     " AND action = 'poison-warning' AND result = 'done' AND count = 12"
		     " AND threshold = '8kB' AND event_table = 'memory_failure_event'"
		     " AND target LIKE '%HardwareCorrupted: 12 kB'"), 1,
		   "12 kB reached 8: one warning");
	tap_ok(logged("the kernel has taken 12 kB out of use (HardwareCorrupted), at or past "
		      "poison_threshold_kb = 8"), "logged");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'poison'"), 1,
		   "the second record, with no more memory lost, warns no more");
	read_env("poison-threshold", env, sizeof(env));
	tap_ok(strstr(env, "RAS_CONDITION=poison-threshold\n") && strstr(env, "RAS_COUNT=12\n") &&
	       strstr(env, "RAS_EVENT=ras:memory_failure_event\n"),
	       "the poison-threshold trigger ran");
}

/* Off by default: nothing read, nothing counted. */
static void test_off(void)
{
	struct fake_tree t;
	int r = 0;

	make_sysfs(false);
	write_conf("");
	fresh_db();
	meminfo(1 << 20);
	if (!tap_ok(tree(&t), "a fake tree"))
		return;
	r |= add_mc(&t, "0x1000", "100", base_ts);
	r |= add_mf(&t, "0x1234", base_ts + MS);
	fake_tree_finish(&t);
	tap_is_int(r | run_rasd(t.root, false), 0, "rasd --once with the defaults");
	fake_tree_destroy(&t);
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind IN ('poison', 'ce-rate')"), 0,
		   "no warning by default");
	tap_is_int(q("SELECT count(*) FROM buckets WHERE kind = 'rate'"), 0, "no rate bucket either");
}

int main(void)
{
	actions_fixture_init();
	snprintf(proc, sizeof(proc), "%s/proc", tmp);
	test_parse();
	test_rate();
	test_poison();
	test_off();
	actions_fixture_done();
	return tap_done();
}
