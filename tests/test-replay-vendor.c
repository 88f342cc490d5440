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
#include "fake_tree.h"
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

static void add_arm(struct fake_tree *t, const uint8_t *oem, size_t n)
{
	char a_oem[256], a_len[24];
	char *assign[] = { "midr=0x413fd0c1", "mpidr=0x81000c00", "running_state=1", "sev=2", "cpu=12",
			   a_oem, a_len };
	uint8_t rec[1024];
	int len;

	hex(a_oem, sizeof(a_oem), "oem_buf", oem, n);
	snprintf(a_len, sizeof(a_len), "oem_len=%zu", n);
	len = fake_record(t, "ras:arm_event", assign, 7, rec, sizeof(rec));
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
	fake_tree_destroy(&t);
	test_rmtree(tmp);
	return tap_done();
}
