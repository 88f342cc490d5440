/* SPDX-License-Identifier: MIT */
/*
 * The whole EDAC path: mc_event records replayed through rasd --once with a
 * fake sysfs (an Intel server board with DIMM label files), then answered by
 * ras-fdr-ctl edac in sysfs shape, with the configured DIMM labels filled in
 * where the kernel gave none.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "edac_fixtures.h"
#include "tests/fake_tree.h"
#include "tests/tap.h"
#include "tests/test_util.h"

static char tmp[256], conf[512], dbpath[512], out[600];

static void add(struct fake_tree *t, unsigned cpu, uint64_t ts, char **assign, int n)
{
	uint8_t rec[1024];
	int len = fake_record(t, "ras:mc_event", assign, n, rec, sizeof(rec));

	tap_ok(len > 0 && fake_add(t, cpu, ts, rec, (uint32_t)len) == 0, "mc_event at %llu written",
	       (unsigned long long)ts);
}

/* Runs ras-fdr-ctl with the test's configuration; returns its output's first line. */
static const char *ctl(const char *a1, const char *a2, const char *a3)
{
	static char line[512];
	char bin[1024];
	char *argv[] = { bin, "--config", conf, (char *)a1, (char *)a2, (char *)a3, NULL };
	FILE *f;

	snprintf(bin, sizeof(bin), "%s/ctl/ras-fdr-ctl", test_builddir());
	unlink(out);
	test_run(argv, out);
	line[0] = 0;
	if ((f = fopen(out, "re"))) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	line[strcspn(line, "\n")] = 0;
	return line;
}

static bool output_has(const char *needle)
{
	char *buf;
	bool found;

	if (ras_read_file(out, &buf, NULL) < 0)
		return false;
	found = strstr(buf, needle) != NULL;
	free(buf);
	return found;
}

static void write_config(const char *sysroot, const char *labels)
{
	FILE *f = fopen(conf, "we");

	fprintf(f, "database = %s\nlock_dir = %s/lock\nsysfs_root = %s\nlabels_dirs = %s\n",
		dbpath, tmp, sysroot, labels);
	fclose(f);
}

/* The whole output of the last ctl() call, malloc'd ("" when none). */
static char *output(void)
{
	char *buf;

	return ras_read_file(out, &buf, NULL) == 0 ? buf : strdup("");
}

/* How many times needle occurs in hay. */
static int occurrences(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/*
 * A database handed to someone else: copied to a machine without the
 * original's sysfs or label files, every command reads it as it was stored.
 */
static void check_copied(void)
{
	static const char *const cmds[][3] = {
		{ "errors", "--json", NULL }, { "errors", NULL, NULL },
		{ "summary", "--json", NULL }, { "edac", "mc0/dimm2/dimm_ce_count", NULL },
	};
	char cmd[1400], *sh[] = { "sh", "-c", cmd, NULL }, *here[4];

	for (size_t i = 0; i < 4; i++) {
		ctl(cmds[i][0], cmds[i][1], cmds[i][2]);
		here[i] = output();
	}
	snprintf(cmd, sizeof(cmd), "cp %s %s/copied.db", dbpath, tmp);
	tap_is_int(test_run(sh, NULL), 0, "database copied");
	snprintf(dbpath, sizeof(dbpath), "%s/copied.db", tmp);
	write_config("/nonexistent-sysfs", "/nonexistent-labels");
	for (size_t i = 0; i < 4; i++) {
		char *there;

		ctl(cmds[i][0], cmds[i][1], cmds[i][2]);
		there = output();
		tap_ok(here[i][0] && !strcmp(here[i], there), "'%s %s' reads the same on another machine",
		       cmds[i][0], cmds[i][1] ? cmds[i][1] : "");
		free(there);
	}
	/* errors, summary and edac agree on each record. */
	tap_is_int(occurrences(here[0], "\"location\":\"mc0, channel 1, slot 0 (P1-DIMMB1)\""), 3,
		   "errors: three records at channel 1 slot 0");
	tap_ok(strstr(here[2], "\"location\":\"mc0, channel 1, slot 0 (P1-DIMMB1)\",\"count\":3") != NULL,
	       "summary counts the same three at the same location");
	tap_is_str(here[3], "3\n", "edac counts them on the same DIMM");
	for (size_t i = 0; i < 4; i++)
		free(here[i]);
}

/* The file under the fake sysfs root, "(missing)" when absent. */
static const char *sys_text(const char *sysroot, const char *rel)
{
	static char text[256];
	char path[900], *buf;

	snprintf(path, sizeof(path), "%s/devices/system/edac/mc/%s", sysroot, rel);
	if (ras_read_file(path, &buf, NULL) < 0)
		return "(missing)";
	snprintf(text, sizeof(text), "%s", buf);
	free(buf);
	return text;
}

static int64_t label_actions(const char *result)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t n = -1;

	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM actions WHERE kind = 'dimm' AND action = 'label'"
			       " AND result = ?", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_bind_text(st, 1, result, -1, SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* register_labels = yes: the configured labels written into EDAC sysfs, each write recorded. */
static void check_register(struct fake_tree *t, const char *sysroot, const char *labels)
{
	char *rasd_argv[] = { NULL, "--config", conf, "--tracing-dir", t->root, "--once", NULL };
	char rasd[1024], csroot[500], cmd[1200];
	char *sh[] = { "sh", "-c", cmd, NULL };
	FILE *f;

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	rasd_argv[0] = rasd;
	tap_is_str(sys_text(sysroot, "mc0/dimm2/dimm_label"), "CPU_SrcID#0_MC#0_Chan#1_DIMM#0\n",
		   "without register_labels the kernel's label stays");
	write_config(sysroot, labels);
	f = fopen(conf, "ae");
	fprintf(f, "register_labels = yes\n");
	fclose(f);
	tap_is_int(test_run(rasd_argv, out), 0, "rasd --once with register_labels = yes");
	tap_is_str(sys_text(sysroot, "mc0/dimm0/dimm_label"), "P1-DIMMA1", "mc0/dimm0 labelled P1-DIMMA1");
	tap_is_str(sys_text(sysroot, "mc0/dimm2/dimm_label"), "P1-DIMMB1", "mc0/dimm2 labelled P1-DIMMB1");
	tap_is_str(sys_text(sysroot, "mc0/dimm4/dimm_label"), "P1-DIMMC1", "mc0/dimm4 labelled P1-DIMMC1");
	tap_is_str(sys_text(sysroot, "mc1/dimm0/dimm_label"), "P2-DIMMA1", "mc1/dimm0 labelled P2-DIMMA1");
	tap_is_str(sys_text(sysroot, "mc0/csrow0/ch1_dimm_label"), "\n",
		   "the csrow view of the same DIMMs is left to the kernel");
	tap_is_int(label_actions("done"), 5, "five label writes recorded as done");
	tap_is_int(test_run(rasd_argv, out), 0, "rasd --once again");
	tap_is_int(label_actions("done"), 5, "labels already there are not written again");

	/* A controller with only the csrow layout: its channel files. */
	snprintf(csroot, sizeof(csroot), "%s/cs", tmp);
	snprintf(cmd, sizeof(cmd), "cp %s/tests/edac/labels/20-amd.conf %s/ && rm -f %s %s-wal %s-shm",
		 test_srcdir(), labels, dbpath, dbpath, dbpath);
	tap_is_int(test_run(sh, NULL), 0, "the AMD labels in place, a fresh database");
	tap_is_int(fx_csrow_tree(csroot), 0, "fake sysfs: a csrow-only controller");
	write_config(csroot, labels);
	f = fopen(conf, "ae");
	fprintf(f, "register_labels = yes\n");
	fclose(f);
	tap_is_int(test_run(rasd_argv, out), 0, "rasd --once on it");
	tap_is_str(sys_text(csroot, "mc0/csrow0/ch1_dimm_label"), "CS0_CH1", "csrow0/ch1 labelled CS0_CH1");
	tap_is_str(sys_text(csroot, "mc0/csrow1/ch0_dimm_label"), "CS1_CH0", "csrow1/ch0 labelled CS1_CH0");
	tap_is_int(label_actions("done"), 4, "four writes recorded");
	/* A file the kernel would refuse: recorded as failed, not given up silently. */
	snprintf(cmd, sizeof(cmd), "rm -f %s/devices/system/edac/mc/mc0/csrow1/ch1_dimm_label && "
		 "mkdir %s/devices/system/edac/mc/mc0/csrow1/ch1_dimm_label && "
		 "printf x > %s/devices/system/edac/mc/mc0/csrow0/ch0_dimm_label", csroot, csroot, csroot);
	tap_is_int(test_run(sh, NULL), 0, "one label file made unwritable, one changed behind rasd");
	tap_is_int(test_run(rasd_argv, out), 0, "rasd --once again");
	tap_is_int(label_actions("failed"), 1, "the write that failed is recorded as failed");
	tap_is_int(label_actions("done"), 5, "the label changed behind rasd's back is written again");
	tap_is_str(sys_text(csroot, "mc0/csrow0/ch0_dimm_label"), "CS0_CH0", "csrow0/ch0 labelled again");
}

int main(void)
{
	char *ce[] = { "error_type=0", "msg=read error", "label=any memory", "error_count=1",
		       "mc_index=0", "top_layer=1", "middle_layer=0", "lower_layer=-1" };
	char *ue[] = { "error_type=1", "msg=write error", "label=CPU_SrcID#0_MC#0_Chan#0_DIMM#1",
		       "error_count=2", "mc_index=0", "top_layer=0", "middle_layer=1", "lower_layer=-1" };
	char sysroot[400], labels[400], formats[1024], rasd[1024], cmd[1200];
	char *rasd_argv[] = { rasd, "--config", conf, "--tracing-dir", NULL, "--once", NULL };
	struct fake_tree t;
	char *sh[] = { "sh", "-c", cmd, NULL };

	test_tmpdir(tmp, sizeof(tmp));
	snprintf(sysroot, sizeof(sysroot), "%s/sys", tmp);
	snprintf(labels, sizeof(labels), "%s/labels", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	snprintf(out, sizeof(out), "%s/ctl.out", tmp);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp %s/tests/edac/labels/10-supermicro.conf %s/",
		 labels, test_srcdir(), labels);
	tap_is_int(test_run(sh, NULL), 0, "label file in place");
	tap_is_int(fx_intel_tree(sysroot), 0, "fake sysfs: Intel server, two memory controllers");
	write_config(sysroot, labels);

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	if (!tap_ok(fake_tree_create(&t, formats, 2, "rasd", "boot") == 0, "tracing tree built"))
		return tap_done();
	for (unsigned i = 0; i < 3; i++)
		add(&t, i % 2, 1000 + i * 10, ce, 8);
	add(&t, 0, 2000, ue, 8);
	fake_tree_finish(&t);
	rasd_argv[4] = t.root;
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	tap_is_int(test_run(rasd_argv, out), 0, "rasd --once stores the records and the topology");

	tap_is_str(ctl("edac", "mc0/dimm2/dimm_ce_count", NULL), "3",
		   "mc0/dimm2 (channel 1 slot 0) counts the three corrected errors");
	tap_is_str(ctl("edac", "mc0/dimm1/dimm_ue_count", NULL), "2",
		   "mc0/dimm1 (channel 0 slot 1) counts one record standing for two errors");
	tap_is_str(ctl("edac", "mc0/dimm0/dimm_ce_count", NULL), "0", "mc0/dimm0 has none");
	tap_is_str(ctl("edac", "mc0/ce_count", NULL), "3", "controller total as sysfs would say");
	ctl("summary", "--by", "dimm");
	tap_ok(output_has("P1-DIMMB1"), "summary --by dimm names the configured label of the worst DIMM");
	ctl("errors", "--json", NULL);
	tap_ok(output_has("P1-DIMMB1"), "errors show the configured label where the kernel had none");
	tap_ok(output_has("mc0, channel 1, slot 0 (P1-DIMMB1)"),
	       "the location names the controller's layers as sysfs does");
	ctl("layout", NULL, NULL);
	tap_ok(output_has("P1-DIMMB1") && output_has("16384"), "layout shows the slot with size and label");

	sqlite3 *db;
	sqlite3_stmt *st;
	int rows = 0;

	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM mc_event_decoded WHERE label = 'any memory'"
			       " AND dec_label = 'P1-DIMMB1'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		rows = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	tap_is_int(rows, 3, "the kernel's label and the configured one are both kept");
	check_copied();
	check_register(&t, sysroot, labels);

	fake_tree_destroy(&t);
	test_rmtree(tmp);
	return tap_done();
}
