/* SPDX-License-Identifier: MIT */
/*
 * The diagnosis end to end: streams with a known truth (bench/fault_stream.c:
 * a part per fault mode, two faults on one part, an uncorrected error,
 * background single-bit errors) in every coordinate spelling go through the
 * real replay path (a fake tracing tree, rasd --once), and every part's
 * verdict, rule and faults must match the truth exactly. Then the same
 * stream cut in two runs (a restart), counted again after a crash (the
 * state written before the second run, its rows stored), and rebuilt from
 * the records alone; the verdict-change trigger's environment; a driver
 * that names no coordinates; amd64_edac with and without its DRAM address.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bench/fault_stream.h"
#include "tests/actions_fixture.h"
#include "tests/tap.h"
#include "tests/test_util.h"

#define SEED 0x5eed5eedULL

static void conf(void)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/rasd.conf", tmp);
	f = fopen(path, "we");
	/* Every verdict change runs its trigger: more at once than the default cap of 4. */
	fprintf(f, "sysfs_root = %s\ntrigger_dir = %s\ntrigger_max_children = 64\n", sysfs, trig);
	fclose(f);
}

/* The verdict-change trigger: its RAS_ environment to a file per part and verdict. */
static void verdict_trigger(void)
{
	char path[700];
	FILE *f;

	mkdir(trig, 0755);
	snprintf(path, sizeof(path), "%s/verdict-change", trig);
	f = fopen(path, "we");
	fprintf(f, "#!/bin/sh\nenv | grep '^RAS_' | sort > \"$0.$(echo \"$RAS_PART\" | tr ' :' '__')"
		".$RAS_VERDICT.env\"\n");
	fclose(f);
	chmod(path, 0755);
}

/* A part's faults as "mode/p mode/t" (permanent, transient), worst first. */
static void faults_of(sqlite3 *db, int64_t id, char *out, size_t len)
{
	sqlite3_stmt *st;
	size_t at = 0;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db, "SELECT mode, permanent FROM part_faults WHERE part = ? ORDER BY idx",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW && at < len)
		at += (size_t)snprintf(out + at, len - at, "%s%s/%s", at ? " " : "",
				       (const char *)sqlite3_column_text(st, 0),
				       sqlite3_column_int(st, 1) ? "p" : "t");
	sqlite3_finalize(st);
}

/* Every part of the truth, and no other: verdict, rule and faults exactly. */
static bool matches(const struct fs_truth *t, const char *what)
{
	sqlite3 *db;
	bool all = true;
	int64_t parts;

	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return false;
	parts = scalar(db, "SELECT count(*) FROM parts");
	if (parts != t->n) {
		tap_diag("%s: %lld parts, want %u", what, (long long)parts, t->n);
		all = false;
	}
	for (unsigned i = 0; i < t->n; i++) {
		const struct fs_part_truth *p = &t->part[i];
		char sql[512], verdict[32], rule[48], got[256], want[256] = "";
		size_t at = 0;
		int64_t id;

		snprintf(sql, sizeof(sql), "SELECT id FROM parts WHERE kind = '%s' AND part = '%s'",
			 p->kind, p->part);
		id = scalar(db, sql);
		snprintf(sql, sizeof(sql), "SELECT verdict FROM parts WHERE id = %lld", (long long)id);
		text(db, sql, verdict, sizeof(verdict));
		snprintf(sql, sizeof(sql), "SELECT rule FROM parts WHERE id = %lld", (long long)id);
		text(db, sql, rule, sizeof(rule));
		faults_of(db, id, got, sizeof(got));
		for (unsigned f = 0; f < p->n_faults; f++)
			at += (size_t)snprintf(want + at, sizeof(want) - at, "%s%s/%s", f ? " " : "",
					       p->fault[f].mode, p->fault[f].permanent ? "p" : "t");
		if (id < 0 || strcmp(verdict, p->verdict) || strcmp(rule, p->rule) || strcmp(got, want)) {
			tap_diag("%s: %s %s: %s by %s [%s], want %s by %s [%s]", what, p->kind, p->part,
				 verdict, rule, got, p->verdict, p->rule, want);
			all = false;
		}
	}
	sqlite3_close(db);
	return all;
}

/* The stream's errors [from, to) in a fresh tree, replayed by rasd --once into the database. */
static int replay(enum fs_spelling sp, unsigned from, unsigned to, struct fs_truth *truth)
{
	struct fake_tree t;
	int r;

	if (!tree(&t)) {
		fake_tree_destroy(&t);
		return -1;
	}
	r = fs_write_range(&t, sp, SEED, base_ts, from, to, truth);
	fake_tree_finish(&t);
	if (r >= 0 && run_rasd(t.root, false) != 0)
		r = -1;
	fake_tree_destroy(&t);
	return r;
}

/* SQL on the database, rasd stopped. */
static void sql(const char *text)
{
	sqlite3 *db;

	if (sqlite3_open(dbpath, &db) == SQLITE_OK) {
		if (sqlite3_exec(db, text, NULL, NULL, NULL) != SQLITE_OK)
			tap_diag("%s: %s", text, sqlite3_errmsg(db));
		sqlite3_close(db);
	}
}

static void every_spelling(void)
{
	struct fs_truth truth;
	char keep[800];

	for (int sp = 0; sp < FS_N; sp++) {
		bool ok;

		fresh_db();
		ok = replay((enum fs_spelling)sp, 0, ~0u, &truth) >= 0 && matches(&truth, fs_spelling_name(sp));
		/* RAS_TEST_KEEP: each spelling's database stays, to look at with ras-fdr-ctl. */
		snprintf(keep, sizeof(keep), "VACUUM INTO '%s/%s.db'", tmp, fs_spelling_name(sp));
		if (getenv("RAS_TEST_KEEP"))
			sql(keep);
		tap_ok(ok, "%s: every part's verdict, rule and faults as the truth says",
		       fs_spelling_name(sp));
	}
}

static bool env_has(const char *file, const char *line)
{
	char path[900], buf[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", trig, file);
	if (!(f = fopen(path, "re")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strstr(buf, line) != NULL;
}

static void trigger(void)
{
	struct fs_truth truth;
	static const char *const lines[] = {
		"RAS_CONDITION=verdict-change\n", "RAS_PART_KIND=dimm\n", "RAS_PART=mc1 0:0:-1\n",
		"RAS_VERDICT=replace\n", "RAS_VERDICT_WAS=ok\n", "RAS_RULE=mem-multi-rank\n",
		"RAS_FAULT_MODE=multi-rank\n", "RAS_FAULT_PERMANENT=1\n", "RAS_RANKS=2\n",
		"RAS_UNCORRECTED=0\n", "RAS_PART_LABEL=CPU_SrcID#0_MC#1_Chan#0_DIMM#0\n",
	};

	fresh_db();
	verdict_trigger();
	replay(FS_SKX, 0, ~0u, &truth);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		tap_ok(env_has("verdict-change.mc1_0_0_-1.replace.env", lines[i]),
		       "the multi-rank DIMM's verdict-change trigger has %.*s", (int)strlen(lines[i]) - 1,
		       lines[i]);
	tap_ok(env_has("verdict-change.mc0_1_1_-1.watch.env", "RAS_WHY=permanent single-row fault"),
	       "the row's trigger says why");
	tap_ok(env_has("verdict-change.mc0_1_1_-1.watch.env", "RAS_CORRECTED=30\n"),
	       "with the row's 30 corrected errors");
}

static void restarts(void)
{
	struct fs_truth truth;
	bool ran;
	int n;

	fresh_db();
	/*
	 * The truth and the stream's length come from this run: when it fails
	 * (no formats or rasd found, as when run by hand without top_srcdir and
	 * top_builddir) truth is unwritten and n is -errno, so nothing below may
	 * read them.
	 */
	n = replay(FS_GHES, 0, 0, &truth);
	if (n < 0) {
		tap_diag("the GHES stream could not be replayed (see %s/rasd.log): no truth to compare", tmp);
		tap_ok(false, "a stream cut in two runs (a restart): the truth");
		tap_ok(false, "after a crash, the rows stored since the state was written are counted at "
		       "start: the truth");
		tap_ok(false, "rebuilt from the stored records: the truth");
		tap_ok(false, "the multi-rank DIMM's history: one change to replace");
		return;
	}
	ran = replay(FS_GHES, 0, (unsigned)n / 2, NULL) >= 0;
	ran = replay(FS_GHES, (unsigned)n / 2, ~0u, NULL) >= 0 && ran;
	tap_ok(ran && matches(&truth, "cut in two runs"), "a stream cut in two runs (a restart): the truth");

	/* A crash: the state as the first run wrote it, the second run's rows stored. */
	fresh_db();
	replay(FS_GHES, 0, (unsigned)n / 2, NULL);
	sql("CREATE TABLE saved_parts AS SELECT * FROM parts; CREATE TABLE saved_faults AS SELECT * "
	    "FROM part_faults; CREATE TABLE saved_marks AS SELECT * FROM health_marks;"
	    "CREATE TABLE saved_verdicts AS SELECT * FROM verdicts");
	replay(FS_GHES, (unsigned)n / 2, ~0u, NULL);
	sql("DELETE FROM parts; INSERT INTO parts SELECT * FROM saved_parts; DELETE FROM part_faults;"
	    "INSERT INTO part_faults SELECT * FROM saved_faults; DELETE FROM health_marks;"
	    "INSERT INTO health_marks SELECT * FROM saved_marks; DELETE FROM verdicts;"
	    "INSERT INTO verdicts SELECT * FROM saved_verdicts");
	replay(FS_GHES, 0, 0, NULL);
	tap_ok(matches(&truth, "after a crash"), "after a crash, the rows stored since the state was "
	       "written are counted at start: the truth");

	/* Nothing of the diagnosis kept: built again from the stored records alone. */
	sql("DELETE FROM parts; DELETE FROM part_faults; DELETE FROM health_marks; DELETE FROM verdicts");
	replay(FS_GHES, 0, 0, NULL);
	tap_ok(matches(&truth, "rebuilt"), "rebuilt from the stored records: the truth");
	{
		sqlite3 *db;

		sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
		tap_is_int(scalar(db, "SELECT count(*) FROM verdicts v JOIN parts p ON p.id = v.part"
				      " WHERE p.part = 'mc0 6:-1:-1' AND v.verdict = 'replace'"), 1,
			   "the multi-rank DIMM's history: one change to replace");
		sqlite3_close(db);
	}
}

/* A driver whose records name no DRAM coordinates: counts and uncorrected errors only. */
static void no_coordinates(void)
{
	struct fake_tree t;
	char why[400];
	sqlite3 *db;
	char *ce[] = { "error_type=0", "msg=memory read error", "label=DIMM_B2", "error_count=2",
		       "mc_index=1", "top_layer=1", "middle_layer=0", "lower_layer=-1",
		       "address=0x1234000", "grain_bits=6", "syndrome=0",
		       "driver_detail=area:DRAM err_code:0001:0090 socket:0 channel_mask:1" };
	char *ue[] = { "error_type=1", "msg=memory read error", "label=DIMM_B2", "error_count=1",
		       "mc_index=1", "top_layer=1", "middle_layer=0", "lower_layer=-1",
		       "address=0x1234000", "grain_bits=6", "syndrome=0", "driver_detail=" };

	fresh_db();
	tree(&t);
	add(&t, "ras:mc_event", ce, 12, base_ts);
	add(&t, "ras:mc_event", ue, 12, base_ts + MIN);
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	text(db, "SELECT verdict || ' ' || rule || ': ' || why FROM parts WHERE part = 'mc1 1:0:-1'",
	     why, sizeof(why));
	tap_is_str(why, "replace mem-uncorrected: 1 uncorrected error; coordinates not reported by "
		   "this driver", "a DIMM without coordinates: replaced for its uncorrected error, and it says so");
	tap_is_int(scalar(db, "SELECT corrected FROM parts WHERE part = 'mc1 1:0:-1'"), 2,
		   "its corrected errors counted (error_count 2)");
	tap_is_int(scalar(db, "SELECT count(*) FROM part_faults"), 0, "and no fault mode guessed");
	sqlite3_close(db);
}

/* An assignment list for add(), built printf-style. */
static void rec(struct fake_tree *t, const char *name, uint64_t ts, const char *fields)
{
	char buf[512], *assign[16], *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", fields);
	for (char *f = strtok_r(buf, "|", &save); f && n < 16; f = strtok_r(NULL, "|", &save))
		assign[n++] = f;
	add(t, name, assign, n, ts);
}

/*
 * amd64_edac as the kernel reports it: edac_mc_handle_error(type, mci, 1, page,
 * offset, syndrome, err->csrow, err->channel, -1, string, other_detail) with
 * string "" when the address decoded, the EDAC core's label for the DIMM
 * ("mc#<mc>csrow#<cs>channel#<ch>"), and a driver_detail that is empty, or
 * the AMD address translation's DRAM address (the 2025 patch).
 */
static void amd64(void)
{
	struct fake_tree t;
	char got[400], fields[400];
	sqlite3 *db;

	fresh_db();
	tree(&t);
	for (int i = 0; i < 3; i++)    /* chip select 2 of channel 1: a rank, no more */
		rec(&t, "ras:mc_event", base_ts + (uint64_t)i * MIN, "error_type=0|msg=|"
		    "label=mc#0csrow#2channel#1|error_count=1|mc_index=0|top_layer=2|middle_layer=1|"
		    "lower_layer=-1|address=0x12345000|grain_bits=6|syndrome=0x4b40|driver_detail=");
	/* Labelled since (a label file): the layers are no longer known to be chip selects. */
	rec(&t, "ras:mc_event", base_ts + 4 * MIN, "error_type=0|msg=|label=P0 CHANNEL A DIMM 0|"
	    "error_count=1|mc_index=0|top_layer=3|middle_layer=0|lower_layer=-1|address=0x2345000|"
	    "grain_bits=6|syndrome=0x1|driver_detail=");
	/* With the DRAM address: a row failing over three days. */
	for (int i = 0; i < 12; i++) {
		snprintf(fields, sizeof(fields), "error_type=0|msg=|label=mc#1csrow#0channel#0|"
			 "error_count=1|mc_index=1|top_layer=0|middle_layer=0|lower_layer=-1|"
			 "address=0x%x|grain_bits=6|syndrome=0x2|driver_detail=Cs: 0x0 Bank Grp: 0x2 "
			 "Bank Addr: 0x1 Row: 0x4d2 Column: 0x%x RankMul: 0x0 SubChannel: 0x1",
			 0x40000000 + i * 64, i * 8);
		rec(&t, "ras:mc_event", base_ts + 10 * MIN + (uint64_t)i * 6 * 60 * MIN, fields);
	}
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	text(db, "SELECT verdict || ' ' || rule || ': ' || why FROM parts WHERE part = 'mc0 2:1:-1'",
	     got, sizeof(got));
	tap_is_str(got, "ok none: bank, row and column not reported by this driver",
		   "amd64_edac, chip select 2: what it does not report, said");
	text(db, "SELECT f.mode || ' rank ' || f.dram_rank FROM part_faults f JOIN parts p ON f.part = p.id"
	     " WHERE p.part = 'mc0 2:1:-1'", got, sizeof(got));
	tap_is_str(got, "none rank 2", "its rank is the chip select; no fault mode guessed");
	text(db, "SELECT why FROM parts WHERE part = 'mc0 3:0:-1'", got, sizeof(got));
	tap_is_str(got, "coordinates not reported by this driver",
		   "a chip select under a label set since: not taken for a rank");
	text(db, "SELECT verdict || ' ' || rule || ': ' || why FROM parts WHERE part = 'mc1 0:0:-1'",
	     got, sizeof(got));
	tap_ok(!strncmp(got, "watch mem-row-column: permanent single-row fault at rank 0, bank group 2, "
			"bank 1, row 0x4d2: 12 errors", 93), "amd64_edac with the DRAM address: a row (%s)", got);
	sqlite3_close(db);
}

/* Parts other than memory: a cache, PCIe devices and a link, a disk, a NIC, a CXL device. */
static void other_parts(void)
{
	static const struct { const char *kind, *part, *verdict, *rule; } want[] = {
		{ "cache", "cpu 1 L1 cache", "replace", "cache-corrected" },
		{ "pcie", "0000:3b:00.0", "replace", "pcie-fatal" },
		{ "pcie", "0000:00:1c.0", "watch", "pcie-link" },
		{ "nic", "platform/nic0", "watch", "nic-reports" },
		{ "cxl", "mem9", "replace", "cxl-replace" },
	};
	struct fake_tree t;
	char got[200], sql[300];
	sqlite3 *db;

	put("bus/pci/devices/0000:00:1c.0/current_link_speed", "8.0 GT/s PCIe\n");
	put("bus/pci/devices/0000:00:1c.0/current_link_width", "4\n");
	put("bus/pci/devices/0000:00:1c.0/max_link_speed", "16.0 GT/s PCIe\n");
	put("bus/pci/devices/0000:00:1c.0/max_link_width", "16\n");
	fresh_db();
	tree(&t);
	for (int i = 0; i < 10; i++)
		add_cache_mce(&t, base_ts + (uint64_t)i * MIN);
	rec(&t, "ras:aer_event", base_ts + 11 * MIN, "dev_name=0000:3b:00.0|status=0x10|severity=1");
	rec(&t, "ras:aer_event", base_ts + 12 * MIN, "dev_name=0000:00:1c.0|status=0x1|severity=2");
	rec(&t, "block:block_rq_error", base_ts + 13 * MIN,
	    "dev=8388608|sector=1234|nr_sector=8|error=-61|rwbs=R|cmd=");
	for (int i = 0; i < 3; i++)
		rec(&t, "devlink:devlink_health_report", base_ts + (uint64_t)(14 + i) * MIN,
		    "bus_name=platform|dev_name=nic0|driver_name=testnic|reporter_name=tx|msg=tx timeout");
	rec(&t, "cxl:cxl_memory_module", base_ts + 20 * MIN,
	    "memdev=mem9|host=0000:0e:00.0|log=1|health_status=0x4|event_type=0");
	fake_tree_finish(&t);
	run_rasd(t.root, false);
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(sql, sizeof(sql), "SELECT verdict || ' ' || rule FROM parts WHERE kind = '%s' AND"
			 " part = '%s'", want[i].kind, want[i].part);
		text(db, sql, got, sizeof(got));
		snprintf(sql, sizeof(sql), "%s %s", want[i].verdict, want[i].rule);
		tap_is_str(got, sql, "%s %s: %s by %s", want[i].kind, want[i].part, want[i].verdict,
			   want[i].rule);
	}
	text(db, "SELECT verdict || ' ' || rule FROM parts WHERE kind = 'disk'", got, sizeof(got));
	tap_is_str(got, "watch disk-errors", "the disk with a medium error: watch by disk-errors");
	text(db, "SELECT link FROM parts WHERE part = '0000:00:1c.0'", got, sizeof(got));
	tap_is_str(got, "8.0 GT/s x4 (capable of 16.0 GT/s x16)", "the link as sysfs says, kept");
	text(db, "SELECT why FROM parts WHERE part = '0000:3b:00.0'", got, sizeof(got));
	tap_is_str(got, "1 fatal error", "the fatal AER error, in words");
	sqlite3_close(db);
}

int main(void)
{
	struct fake_tree probe;

	actions_fixture_init();
	/* Run by hand without top_srcdir, there are no formats to build a tracing tree from. */
	if (!tree(&probe)) {
		fake_tree_destroy(&probe);
		actions_fixture_done();
		printf("Bail out! no tracing tree from %s/formats: set top_srcdir and top_builddir\n",
		       test_srcdir());
		return 1;
	}
	fake_tree_destroy(&probe);
	make_sysfs(false);
	conf();
	every_spelling();
	trigger();
	restarts();
	no_coordinates();
	amd64();
	other_parts();
	actions_fixture_done();
	return tap_done();
}
