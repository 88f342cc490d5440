/* SPDX-License-Identifier: MIT */
/*
 * Vendor CPER sections through the real path: a tracing tree from Linux
 * 6.18's format files whose ring buffer holds ras:non_standard_event records
 * with each vendor's section (the golden bytes of tests/decoders/
 * vendor_vectors.h and more) and ras:arm_event records with Ampere Altra's
 * record as vendor data, read by rasd --once with a sysfs tree that names
 * the SoC. Checks what rasd stored: the vendor fields, the location, the
 * failing part counted by the DIMM and device thresholds, and that an
 * unknown section stays GUID and bytes.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fake_tree.h"
#include "lib/fileio.h"
#include "tap.h"
#include "test_util.h"
#include "tests/decoders/vendor_vectors.h"

static uint64_t ts = 1000000000ULL;

static void hex(char *out, size_t cap, const char *name, const uint8_t *b, size_t n)
{
	size_t o = (size_t)snprintf(out, cap, "%s=0x", name);

	for (size_t i = 0; i < n && o + 3 < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, "%02x", b[i]);
	if (!n)
		snprintf(out + o, cap - o, "00");
}

static void add_section(struct fake_tree *t, const char *guid, unsigned sev, const uint8_t *b, size_t n)
{
	char a_type[64], a_buf[1200], a_sev[16], a_len[24];
	char *assign[] = { a_type, a_buf, a_sev, a_len };
	uint8_t g[16], rec[2048];
	int len;

	vv_guid(guid, g);
	hex(a_type, sizeof(a_type), "sec_type", g, 16);
	hex(a_buf, sizeof(a_buf), "buf", b, n);
	snprintf(a_sev, sizeof(a_sev), "sev=%u", sev);
	snprintf(a_len, sizeof(a_len), "len=%zu", n);
	len = fake_record(t, "ras:non_standard_event", assign, 4, rec, sizeof(rec));
	tap_ok(len > 0 && fake_add(t, 0, ts += 1000, rec, (uint32_t)len) == 0, "section %s written", guid);
}

/*
 * An ARM processor error of CPU 12 as the kernel gives it: sev is GHES's
 * (1, corrected), and one error information entry (N.2.4.4.1: length 32,
 * valid multiple error and flags, a cache error) flagged first, the core's
 * own failure, which is what counts against the CPU.
 */
static void add_arm(struct fake_tree *t, const uint8_t *oem, size_t n)
{
	static const uint8_t entry[32] = { [1] = 32, [2] = 0x7, [4] = 0x2, [7] = 0x1 };
	char a_oem[256], a_len[24], a_pei[96];
	char *assign[] = { "midr=0x413fd0c1", "mpidr=0x81000c00", "running_state=1", "sev=1", "cpu=12",
			   a_oem, a_len, "pei_len=32", a_pei };
	uint8_t rec[1024];
	int len;

	hex(a_oem, sizeof(a_oem), "oem_buf", oem, n);
	snprintf(a_len, sizeof(a_len), "oem_len=%zu", n);
	hex(a_pei, sizeof(a_pei), "pei_buf", entry, sizeof(entry));
	len = fake_record(t, "ras:arm_event", assign, 9, rec, sizeof(rec));
	tap_ok(len > 0 && fake_add(t, 1, ts += 1000, rec, (uint32_t)len) == 0, "arm_event written");
}

static void build(struct fake_tree *t)
{
	uint8_t b[160];
	size_t n;

	/* Each part twice: a subject seen once is kept in memory, not in the buckets table. */
	for (int twice = 0; twice < 2; twice++) {
		n = vv_hisi_oem2(b);
		add_section(t, VV_HISI_OEM2, 2, b, n);
		n = vv_yitian(b);
		add_section(t, VV_YITIAN, 2, b, n);
		n = vv_ampere_mcu(b);
		add_section(t, VV_AMPERE, 2, b, n);
		add_arm(t, b, n);
		/* HiSilicon PCIe local, port 3 of core 2 on socket 1 (validity: socket, nimbus, core, port). */
		memset(b, 0, sizeof(b));
		vv_put64(b, 0x6c);
		b[10] = 1, b[13] = 2, b[14] = 3;
		add_section(t, VV_HISI_PCIE, 2, b, 152);
	}
	n = vv_grace(b);
	add_section(t, VV_NVIDIA_GRACE, 1, b, n);
	memset(b, 0, sizeof(b));
	vv_put64(b, 0x6c);
	b[10] = 1, b[13] = 2, b[14] = 3;
	add_section(t, "00112233-4455-6677-8899-aabbccddeeff", 2, b, 16);
}

static char *text(sqlite3 *db, const char *sql)
{
	static char out[512];
	sqlite3_stmt *st;

	out[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		tap_diag("%s: %s", sql, sqlite3_errmsg(db));
		return out;
	}
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, sizeof(out), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return out;
}

static void check(sqlite3 *db)
{
	tap_is_str(text(db, "SELECT count(*) FROM non_standard_event"), "10", "every section stored");
	tap_is_str(text(db, "SELECT module || ' ' || sub_module || ' ' || vendor_severity FROM"
			" non_standard_event_decoded WHERE vendor = 'HiSilicon' AND vendor_section ="
			" 'HIP08 OEM type 2'"), "DDRC TA_DDRC1 corrected", "HiSilicon OEM type 2 decoded");
	tap_is_str(text(db, "SELECT location FROM non_standard_event_decoded WHERE vendor = 'Alibaba'"),
		   "Alibaba Yitian 710, DDRC 3", "Yitian location stored");
	tap_is_str(text(db, "SELECT vendor_detail FROM non_standard_event_decoded WHERE vendor = 'Alibaba'"),
		   "ECC error, rank 1, bank group 2, bank 3, row 0x1a2b, column 0x40, bit 5, 2 corrected"
		   " and 0 uncorrected counted", "Yitian DRAM address stored");
	tap_is_str(text(db, "SELECT module || ', ' || registers FROM non_standard_event_decoded"
			" WHERE vendor = 'NVIDIA'"),
		   "CMET-INFO, instance_base 0x4f10000, @0x4f10008 0x2019, @0x4f10010 0x7",
		   "Grace signature and registers stored");
	tap_is_str(text(db, "SELECT failing_part FROM non_standard_event_decoded WHERE vendor = 'Ampere'"),
		   "Ampere Altra socket 1, MCU 3", "Ampere part stored");
	tap_is_str(text(db, "SELECT sec_type_guid || ' ' || coalesce(vendor, '') || raw_hex FROM"
			" non_standard_event_decoded WHERE sec_type_name IS NULL"),
		   "00112233-4455-6677-8899-aabbccddeeff 6c000000000000000000010000020300",
		   "an unknown section stays GUID and bytes");
	tap_is_str(text(db, "SELECT module || ' ' || sub_module FROM arm_event_decoded"),
		   "MCU 3 ERR2", "arm_event: Altra's vendor data decoded (the SoC id from --sysfs-root)");
	tap_is_str(text(db, "SELECT group_concat(kind || '=' || subject || ':' || total, '|') FROM"
			" (SELECT * FROM buckets ORDER BY kind, subject)"),
		   "cpu=cpu 12:2|device=HiSilicon socket 1 nimbus 0 PCIe core 2 port 3:2|"
		   "dimm=Alibaba Yitian 710, DDRC 3:2|dimm=Ampere Altra socket 1, MCU 3:4|"
		   "dimm=HiSilicon Kunpeng 920 socket 1, nimbus 0, TA_DDRC1:2",
		   "the failing parts' threshold buckets");
}

/* ras-fdr-ctl's output for one command on the database, or "" when it failed. */
static const char *ctl(const char *dbpath, const char *tmp, char *const *args)
{
	static char out[16384];
	char bin[1024], log[600], *argv[16] = { bin, "--config", "/dev/null", "--db", (char *)dbpath };
	char *text;
	size_t len;
	int n = 5;

	snprintf(bin, sizeof(bin), "%s/ctl/ras-fdr-ctl", test_builddir());
	snprintf(log, sizeof(log), "%s/ctl.out", tmp);
	unlink(log);
	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	out[0] = '\0';
	if (test_run(argv, log) == 0 && ras_read_file(log, &text, &len) == 0) {
		snprintf(out, sizeof(out), "%.*s", (int)len, text);
		free(text);
	}
	return out;
}

/* The vendor views of ras-fdr-ctl on what rasd stored. */
static void check_ctl(const char *dbpath, const char *tmp)
{
	const char *o;

	o = ctl(dbpath, tmp, (char *[]){ "summary", "--by", "vendor", NULL });
	if (!tap_ok(strstr(o, "HiSilicon    Kunpeng 920  DDRC           TA_DDRC1         corrected         2") &&
		    strstr(o, "Ampere       Altra        MCU 3          ERR2             corrected         4") &&
		    strstr(o, "NVIDIA       Grace        CMET-INFO      instance 2       fatal             1") &&
		    strstr(o, "Total: 11 vendor-section records."), "summary --by vendor: per module"))
		tap_diag("%s", o);
	o = ctl(dbpath, tmp, (char *[]){ "summary", "--by", "vendor", "--json", NULL });
	tap_ok(strstr(o, "{\"vendor\":\"Alibaba\",\"platform\":\"Yitian 710\",\"module\":\"DDRC\","
		      "\"sub_module\":\"3\",\"severity\":\"corrected\",\"count\":2,") &&
	       strstr(o, "\"total\":11}"), "summary --by vendor --json");
	o = ctl(dbpath, tmp, (char *[]){ "errors", "--vendor", "KunPeng9xx", "--module", "ddrc", NULL });
	tap_ok(strstr(o, "non_standard_event: HiSilicon Kunpeng 920 socket 1, nimbus 0, TA_DDRC1: corrected"
		      " DDR memory controller error") &&
	       strstr(o, "    registers: version 0x1, ERR_FR 0x1122, ERR_CTLR 0x3344, ERR_STATUS 0xc100000c,") &&
	       !strstr(o, "PCIe"), "errors --vendor KunPeng9xx --module ddrc: the DDRC's records and registers");
	o = ctl(dbpath, tmp, (char *[]){ "errors", "--vendor", "ampere", "--limit", "1", "--json", NULL });
	tap_ok(strstr(o, "\"type\":\"arm_event\"") && strstr(o, "\"module\":\"MCU 3\"") &&
	       !strchr(strchr(o, '\n') ? strchr(o, '\n') + 1 : "", '{'),
	       "errors --vendor ampere --limit 1 --json: the newest, Altra's ARM vendor data");
	o = ctl(dbpath, tmp, (char *[]){ "errors", "--vendor", "jaguarmicro", NULL });
	tap_is_str(o, "No records.\n", "errors --vendor of a vendor with no records");
	o = ctl(dbpath, tmp, (char *[]){ "vendors", NULL });
	tap_ok(strstr(o, "YiTian7XX      Alibaba      Yitian 710") != NULL, "vendors: the platform ids");
}

/*
 * A storm of one DDRC's corrected errors folds (fold_threshold 5/1h, the DIMM
 * subject): summary --by vendor counts the folded records as summary does.
 */
static void check_folded(const char *formats, const char *tmp)
{
	char dbpath[600], lock[600], log[600], rasd[1024], conf[600];
	char *argv[] = { rasd, "--config", conf, "--tracing-dir", NULL, "--db", dbpath, "--lock-dir",
			 lock, "--once", NULL };
	struct fake_tree t;
	uint8_t b[64];
	size_t n = vv_hisi_oem2(b);
	const char *o;
	FILE *f;

	if (!tap_ok(fake_tree_create(&t, formats, 2, "rasd", "boot") == 0, "storm tree"))
		return;
	for (int i = 0; i < 40; i++)
		add_section(&t, VV_HISI_OEM2, 2, b, n);
	fake_tree_finish(&t);
	snprintf(dbpath, sizeof(dbpath), "%s/storm.db", tmp);
	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	snprintf(log, sizeof(log), "%s/rasd-storm.log", tmp);
	snprintf(conf, sizeof(conf), "%s/storm.conf", tmp);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	if ((f = fopen(conf, "we"))) {
		fputs("fold_threshold = 5/1h\nfold_keep = 1\n", f);
		fclose(f);
	}
	argv[4] = t.root;
	tap_is_int(test_run(argv, log), 0, "rasd --once on the storm");
	tap_ok(test_sql_int(dbpath, "SELECT count(*) FROM non_standard_event") < 40 &&
	       test_sql_int(dbpath, "SELECT sum(records) FROM folds") > 0, "the storm folded");
	o = ctl(dbpath, tmp, (char *[]){ "summary", "--by", "vendor", NULL });
	tap_ok(strstr(o, "HiSilicon    Kunpeng 920  DDRC           TA_DDRC1         corrected        40") != NULL,
	       "summary --by vendor counts the folded records: 40");
	o = ctl(dbpath, tmp, (char *[]){ "summary", NULL });
	tap_ok(strstr(o, "non_standard_event           corrected         40") != NULL,
	       "summary agrees: 40");
	fake_tree_destroy(&t);
}

int main(void)
{
	char formats[1024], tmp[256], dbpath[512], lock[600], log[600], rasd[1024], sysfs[600], path[700];
	char *argv[] = { rasd, "--config", "/dev/null", "--tracing-dir", NULL, "--db", dbpath,
			 "--lock-dir", lock, "--sysfs-root", sysfs, "--once", NULL };
	struct fake_tree t;
	sqlite3 *db;
	FILE *f;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	if (!tap_ok(fake_tree_create(&t, formats, 2, "rasd", "boot") == 0, "tree from 6.18 formats"))
		return tap_done();
	build(&t);
	fake_tree_finish(&t);
	test_tmpdir(tmp, sizeof(tmp));
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(sysfs, sizeof(sysfs), "%s/sys", tmp);
	snprintf(path, sizeof(path), "%s/devices/soc0", sysfs);
	mkdir(sysfs, 0755);
	snprintf(path, sizeof(path), "%s/devices", sysfs);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/soc0", sysfs);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/devices/soc0/soc_id", sysfs);
	if ((f = fopen(path, "we"))) {
		fputs("jep106:0a16:0001\n", f);
		fclose(f);
	}
	argv[4] = t.root;
	tap_is_int(test_run(argv, log), 0, "rasd --once");
	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
		check(db);
	sqlite3_close(db);
	check_ctl(dbpath, tmp);
	check_folded(formats, tmp);
	if (getenv("RAS_TEST_KEEP")) {
		tap_diag("kept %s and %s", t.root, tmp);
		return tap_done();
	}
	fake_tree_destroy(&t);
	test_rmtree(tmp);
	return tap_done();
}
