/* SPDX-License-Identifier: MIT */
/*
 * The EDAC path through the database: rasd's snapshot and label code on a
 * fake Intel tree, mc_event records stored in two boots with a DIMM swap
 * between them, then ras-fdr-ctl answering sysfs-shaped questions from
 * that database: counts across the reboot, --live gap detection, reset
 * windows and purge, report, layout, labels print/register/guess, and the
 * database read on a "machine" without any EDAC sysfs.
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "db/db.h"
#include "edac_fixtures.h"
#include "lib/decode.h"
#include "rasd/edac_daemon.h"
#include "lib/event_fields.h"
#include "tests/tap.h"
#include "tests/test_util.h"

static char tmp[256], sys[300], conf[300], conf_elsewhere[300], dbpath[300], logpath[300];
static char output[16384];
static uint64_t next_ts = 1000;

static void on_label_error(void *ctx, const char *file, unsigned line, const char *reason)
{
	(*(unsigned *)ctx)++;
}

static int insert_mc_event(struct ras_db *db, int type, int count, int mc, int top, int mid,
			   int low, int64_t wall_ns)
{
	const struct ras_event_type *t = ras_event_type_find("mc_event");
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	alignas(16) static uint8_t decoded[RAS_DECODED_MAX];
	static const char msg[] = "memory read error", label[] = "any memory", detail[] = "";
	const int64_t ints[][2] = {
		{ MC_F_ERROR_TYPE, type }, { MC_F_ERROR_COUNT, count }, { MC_F_MC_INDEX, mc },
		{ MC_F_TOP_LAYER, top }, { MC_F_MIDDLE_LAYER, mid }, { MC_F_LOWER_LAYER, low },
		{ MC_F_ADDRESS, 0x1000 }, { MC_F_GRAIN_BITS, 6 }, { MC_F_SYNDROME, 0 },
	};
	struct ras_db_event ev = {
		.type_idx = (unsigned)(t - ras_event_types), .wall_ns = wall_ns, .trace_ts = next_ts,
		.trace_cpu = 0, .source = "live", .rec_hash = next_ts * 7919, .values = v,
		.decoded = decoded,
	};

	next_ts++;
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		v[ints[i][0]].present = true;
		v[ints[i][0]].i = ints[i][1];
	}
	v[MC_F_MSG] = (struct ras_value){ true, 0, msg, sizeof(msg) - 1 };
	v[MC_F_LABEL] = (struct ras_value){ true, 0, label, sizeof(label) - 1 };
	v[MC_F_DRIVER_DETAIL] = (struct ras_value){ true, 0, detail, 0 };
	memset(decoded, 0, sizeof(decoded));
	ras_decode_values(t, v, NULL, decoded);
	return ras_db_insert_event(db, &ev);
}

static int64_t now_ns(void)
{
	return (int64_t)time(NULL) * 1000000000;
}

static int open_boot(struct ras_db **db, const char *boot, const struct rasd_config *cfg)
{
	char err[512];
	unsigned problems = 0;

	if (ras_db_open_writer(db, dbpath, boot, err, sizeof(err)) < 0) {
		tap_diag("%s", err);
		return -1;
	}
	edac_daemon_cleanup();
	edac_daemon_load_labels(cfg, on_label_error, &problems);
	return (int)problems;
}

#define ctl(c, a1, a2, a3, a4) ctl5(c, a1, a2, a3, a4, NULL)

/* Runs ras-fdr-ctl -c conf ARGS...; output (stdout and stderr) lands in output[]. */
static int ctl5(const char *config, const char *a1, const char *a2, const char *a3, const char *a4,
		const char *a5)
{
	char prog[512];
	char *argv[] = { prog, "-c", (char *)config, (char *)a1, (char *)a2, (char *)a3, (char *)a4,
			 (char *)a5, NULL };
	FILE *f;
	size_t n;
	int rc;

	snprintf(prog, sizeof(prog), "%s/ctl/ras-fdr-ctl", test_builddir());
	unlink(logpath);
	rc = test_run(argv, logpath);
	output[0] = 0;
	f = fopen(logpath, "re");
	if (f) {
		n = fread(output, 1, sizeof(output) - 1, f);
		output[n] = 0;
		fclose(f);
	}
	return rc;
}

static void check_value(const char *path, const char *want, const char *what)
{
	char expect[64];

	snprintf(expect, sizeof(expect), "%s\n", want);
	ctl(conf, "edac", path, NULL, NULL);
	tap_is_str(output, expect, "%s", what);
}

static void store_two_boots(struct rasd_config *cfg)
{
	static struct ras_decode_ctx dctx;
	struct ras_db *db;
	int64_t now = now_ns();

	tap_is_int(open_boot(&db, "boot-a", cfg), 4, "boot A: labels loaded, broken file reported");
	tap_is_int(edac_daemon_snapshot(db, cfg, &dctx), 1, "boot A: topology snapshot stored");
	tap_is_int(edac_daemon_snapshot(db, cfg, &dctx), 0, "boot A: unchanged topology not stored again");
	tap_is_str(dimm_labels_lookup(edac_daemon_labels(), NULL, 0, 1, 0, -1), "P1-DIMMB1",
		   "label for an mc_event without one comes from the label files");
	ras_db_begin(db);
	for (int i = 0; i < 3; i++)
		insert_mc_event(db, 0, 2, 0, 1, 0, -1, now - 3600000000000LL + i);  /* dimm2: 6 CE */
	insert_mc_event(db, 1, 1, 0, 0, 0, -1, now - 3600000000000LL);          /* dimm0: 1 UE */
	insert_mc_event(db, 0, 1, 0, -1, -1, -1, now - 3600000000000LL);        /* mc0 no info */
	insert_mc_event(db, 0, 4, 1, 0, 0, -1, now - 3600000000000LL);          /* mc1 dimm0: 4 CE */
	ras_db_commit(db);
	ras_db_close(db);

	/* Reboot with a bigger DIMM in channel 1 slot 0 of mc0. */
	fx_write(sys, "devices/system/edac/mc/mc0/dimm2/size", "32768\n");
	tap_is_int(open_boot(&db, "boot-b", cfg), 4, "boot B: labels loaded");
	tap_is_int(edac_daemon_snapshot(db, cfg, &dctx), 1, "boot B: swapped DIMM gives a new snapshot");
	ras_db_begin(db);
	insert_mc_event(db, 0, 1, 0, 1, 0, -1, now - 60000000000LL);          /* dimm2: 2 more CE */
	insert_mc_event(db, 0, 1, 0, 1, 0, -1, now - 60000000000LL + 1);
	ras_db_commit(db);
	ras_db_close(db);
}

static void test_queries(void)
{
	check_value("mc0/dimm2/dimm_ce_count", "8", "dimm_ce_count adds up across the reboot");
	check_value("/sys/devices/system/edac/mc/mc0/dimm0/dimm_ue_count", "1",
		    "dimm_ue_count, full sysfs path accepted");
	check_value("mc0/ce_count", "9", "mc ce_count includes DIMM and no-info errors");
	check_value("mc0/ce_noinfo_count", "1", "ce_noinfo_count");
	check_value("mc1/dimm0/dimm_ce_count", "4", "second controller");
	check_value("mc0/csrow0/ch1_ce_count", "8", "csrow view: dimm2 is csrow0 channel 1");
	check_value("mc0/dimm2/dimm_label", "P1-DIMMB1", "dimm_label from the label files");
	check_value("mc0/dimm2/size", "32768", "attributes from the newest snapshot");
	tap_is_int(ctl(conf, "edac", "mc0/dimm2", NULL, NULL), 0, "node listing runs");
	tap_ok(strstr(output, "mc0/dimm2/dimm_ce_count: 8\n") && strstr(output, "mc0/dimm2/dimm_location: channel 1 slot 0\n"),
	       "node listing shows files and values");
	ctl(conf, "edac", "--json", "mc0/dimm2/dimm_ce_count", NULL);
	tap_ok(strstr(output, "\"path\":\"mc0/dimm2/dimm_ce_count\",\"value\":\"8\",\"count\":8") != NULL,
	       "--json: what cat prints as a string, the count as a number");
	tap_is_int(ctl(conf, "edac", "mc7", NULL, NULL), 1, "unknown node is an error");
	ctl(conf_elsewhere, "edac", "mc0/dimm2/dimm_ce_count", NULL, NULL);
	tap_is_str(output, "8\n", "another machine (no EDAC sysfs) reads the same database");
	ctl(conf, "edac", "--until", "-30m", "mc0/dimm2/dimm_ce_count");
	tap_is_str(output, "6\n", "--until limits the window");
	ctl(conf, "edac", "--report", NULL, NULL);
	tap_ok(strstr(output, "P1-DIMMB1") && strstr(output, "channel 1 slot 0"), "--report lists DIMMs with labels");
	ctl(conf, "layout", NULL, NULL, NULL);
	tap_ok(strstr(output, "P1-DIMMA2") && strstr(output, "slot 1") && strstr(output, "channel 2"),
	       "layout grid by channel and slot");
}

static void test_live(void)
{
	int rc;

	fx_set_dimm_counts(sys, 0, 2, 5, 0);
	rc = ctl(conf, "edac", "--live", "--boot", "0");
	tap_is_int(rc, 3, "--live exits 3 on a gap");
	tap_ok(strstr(output, "mc0/dimm2/dimm_ce_count: 2 (kernel: 5)  <- the kernel counted 3 that the database lacks") != NULL,
	       "--live flags the errors the database lacks");
	fx_set_dimm_counts(sys, 0, 2, 2, 0);
	rc = ctl5(conf, "edac", "--live", "--boot", "0", "mc0/dimm2");
	tap_is_int(rc, 0, "--live without a gap exits 0");
}

static void test_labels_cmds(void)
{
	char path[400], got[64] = "";
	uint8_t blob[4096];
	size_t len = fx_smbios_blob(blob, sizeof(blob));
	FILE *f;

	ctl(conf, "labels", "print", NULL, NULL);
	tap_ok(strstr(output, "0.1.0") && strstr(output, "P1-DIMMB1") && strstr(output, "differs"),
	       "labels print: configured vs sysfs");
	tap_ok(strstr(output, "30-broken.conf:3: ") != NULL, "labels print reports file:line problems");
	ctl(conf, "labels", "register", NULL, NULL);
	snprintf(path, sizeof(path), "%s/devices/system/edac/mc/mc0/dimm4/dimm_label", sys);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = 0;
		fclose(f);
	}
	tap_is_str(got, "P1-DIMMC1", "labels register writes dimm_label");
	snprintf(path, sizeof(path), "%s/firmware/dmi/tables/DMI", sys);
	fx_write(sys, "firmware/dmi/tables/DMI", "");
	f = fopen(path, "we");
	if (f) {
		fwrite(blob, 1, len, f);
		fclose(f);
	}
	tap_is_int(ctl(conf, "labels", "guess", NULL, NULL), 0, "labels guess runs");
	tap_ok(strstr(output, "Vendor: Supermicro") && strstr(output, "\tP1-DIMMC1: 0.2.0") &&
	       strstr(output, "\tP2-DIMMA1: 1.0.0") && !strstr(output, "P1-DIMMB2:"),
	       "labels guess pairs SMBIOS sockets with EDAC DIMMs");
}

static void test_reset(void)
{
	if (!isatty(STDIN_FILENO))
		tap_is_int(ctl(conf, "reset", "mc0/dimm2", NULL, NULL), 1, "reset asks; no terminal, no --yes: refused");
	tap_is_int(ctl(conf, "reset", "--yes", "mc0/dimm9", NULL), 1, "reset of an unknown DIMM refused");
	tap_is_int(ctl(conf, "reset", "--yes", "mc0/dimm2", NULL), 0, "reset --yes mc0/dimm2");
	check_value("mc0/dimm2/dimm_ce_count", "0", "new window: DIMM counts from zero");
	check_value("mc0/ce_count", "9", "the controller's window is unchanged");
	ctl(conf, "errors", "--type", "mc_event", NULL);
	tap_ok(strstr(output, "No records") == NULL, "old records stay after reset");
	tap_is_int(ctl(conf, "reset", "--purge", "--yes", "mc1"), 0, "reset --purge --yes mc1");
	tap_ok(strstr(output, "Deleted 1 records") != NULL, "purge deleted mc1's record");
	check_value("mc1/ce_count", "0", "mc1 counts from zero");
	check_value("mc0/dimm0/dimm_ue_count", "1", "other controllers untouched");
}

int main(void)
{
	struct rasd_config cfg;
	char text[2048];

	if (test_tmpdir(tmp, sizeof(tmp)) < 0)
		return 1;
	snprintf(sys, sizeof(sys), "%s/sys", tmp);
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	snprintf(conf_elsewhere, sizeof(conf_elsewhere), "%s/elsewhere.conf", tmp);
	snprintf(logpath, sizeof(logpath), "%s/ctl.log", tmp);
	if (fx_intel_tree(sys))
		tap_skip_all("cannot build the fixture tree");
	snprintf(text, sizeof(text), "database = %s\nsysfs_root = %s\nlabels_dirs = %s/tests/edac/labels\n",
		 dbpath, sys, test_srcdir());
	fx_write(tmp, "rasd.conf", text);
	snprintf(text, sizeof(text), "database = %s\nsysfs_root = %s/nothing\nlabels_dirs = %s/none\n",
		 dbpath, tmp, tmp);
	fx_write(tmp, "elsewhere.conf", text);
	rasd_config_defaults(&cfg);
	if (rasd_config_load(&cfg, conf, NULL, NULL) != 0)
		tap_skip_all("cannot load the test configuration");
	store_two_boots(&cfg);
	test_queries();
	test_live();
	test_labels_cmds();
	test_reset();
	edac_daemon_cleanup();
	if (!getenv("EDAC_TEST_KEEP"))
		test_rmtree(tmp);
	else
		tap_diag("kept %s", tmp);
	return tap_done();
}
