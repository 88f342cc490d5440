/* SPDX-License-Identifier: MIT */
/*
 * CPU isolation from ARM processor errors (issue 36): an MPIDR found in this
 * machine's sysfs (devicetree reg, or ACPI _UID through the MADT's GICC
 * entries) when arm_event names no CPU; arm_event's sev read as the GHES
 * severity it is; the errors of the entries that are the core's own failures
 * counted against its CPU; and end to end, rasd --once on a replayed tree
 * offlining the CPU whose corrected errors cross cpu_ce_threshold, leaving
 * alone a CPU that only saw errors propagated to it, and cpu_offline_limit
 * holding the action back once that many CPUs are offline.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "actions_fixture.h"
#include "fake_tree.h"
#include "tap.h"
#include "decoders/cper.h"
#include "lib/cpu_map.h"
#include "lib/decode.h"
#include "lib/event_table.h"
#include "lib/subject.h"

/* A binary sysfs file (a devicetree property) under the sysfs root, its directories made. */
static void put_bytes(const char *rel, const uint8_t *p, size_t n)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	for (char *s = path + strlen(sysfs) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "we");
	if (f) {
		fwrite(p, 1, n, f);
		fclose(f);
	}
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

/* A MADT: a GICD (type 0xc, 24 bytes) then one 80-byte GICC per (uid, mpidr). */
static size_t make_madt(uint8_t *m, const uint32_t *uid, const uint64_t *mpidr, int n)
{
	size_t pos = 44;

	memset(m, 0, 44 + 24 + 80 * (size_t)n);
	memcpy(m, "APIC", 4);
	m[pos] = 0x0c;
	m[pos + 1] = 24;
	pos += 24;
	for (int i = 0; i < n; i++, pos += 80) {
		m[pos] = 0x0b;
		m[pos + 1] = 80;
		put_le32(m + pos + 8, uid[i]);
		put_le64(m + pos + 68, mpidr[i]);
	}
	put_le32(m + 4, (uint32_t)pos);
	return pos;
}

static void test_parsers(void)
{
	static const uint8_t one[4] = { 0, 0, 1, 0 }, two[8] = { 0, 0, 0, 1, 0x81, 1, 2, 3 };
	static const uint32_t uid[2] = { 0, 1 };
	static const uint64_t mpidr[2] = { 0x80000000, 0x81000100 };
	uint8_t madt[300];
	size_t len = make_madt(madt, uid, mpidr, 2);
	uint64_t v = 0;

	tap_ok(ras_cpu_map_dt_reg(one, 4, &v) == 0 && v == 0x100, "devicetree reg, one cell: 0x100");
	tap_ok(ras_cpu_map_dt_reg(two, 8, &v) == 0 && v == 0x100010203,
	       "two cells: Aff3 kept, bits 31:24 dropped (0x%llx)", (unsigned long long)v);
	tap_is_int(ras_cpu_map_dt_reg(one, 3, &v), -EINVAL, "a reg of 3 bytes is refused");
	tap_ok(ras_cpu_map_madt_mpidr(madt, len, 1, &v) == 0 && v == 0x100,
	       "MADT: GICC of UID 1 past a GICD, affinity only (0x%llx)", (unsigned long long)v);
	tap_is_int(ras_cpu_map_madt_mpidr(madt, len, 7, &v), -ENOENT, "MADT: no GICC of UID 7");
	tap_is_int(ras_cpu_map_madt_mpidr(madt, len - 80, 1, &v), -ENOENT,
		   "MADT: an entry past the bytes read is not read");
	madt[44 + 1] = 0;
	tap_is_int(ras_cpu_map_madt_mpidr(madt, len, 1, &v), -EINVAL, "MADT: an entry of length 0 is refused");
	tap_is_int(ras_cpu_map_madt_mpidr(madt, 40, 1, &v), -EINVAL, "MADT: shorter than its header");
	/* ghes_severity(): the GHES severity arm_event's sev holds, back to CPER's. */
	tap_ok(cper_severity_of_ghes(1) == 2 && cper_severity_of_ghes(2) == 0 &&
	       cper_severity_of_ghes(3) == 1 && cper_severity_of_ghes(0) == 3 &&
	       cper_severity_of_ghes(4) == 0xff, "GHES corrected/recoverable/panic/none: CPER 2/0/1/3");
}

/* Four CPUs by devicetree: MPIDRs 0x0, 0x100, 0x200, 0x300 (the online files of make_sysfs). */
static void dt_cpus(void)
{
	for (int c = 0; c < 4; c++) {
		uint8_t reg[4] = { 0, 0, (uint8_t)c, 0 };
		char rel[128];

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/of_node/reg", c);
		put_bytes(rel, reg, 4);
	}
}

static void test_map(void)
{
	static const uint32_t uid[2] = { 4, 9 };
	static const uint64_t mpidr[2] = { 0x81000000, 0x10100 };
	struct ras_cpu_map *m = NULL;
	struct ras_decode_ctx ctx;
	uint8_t madt[300];
	size_t len;

	make_sysfs(false);
	tap_ok(ras_cpu_map_load(&m, sysfs) == 0 && ras_cpu_map_size(m) == 0 &&
	       ras_cpu_map_lookup(m, 0) == -1, "no firmware description (x86): an empty map");
	ras_cpu_map_free(m);
	dt_cpus();
	put("devices/system/cpu/cpufreq/policy0", "");
	tap_ok(ras_cpu_map_load(&m, sysfs) == 0 && ras_cpu_map_size(m) == 4, "devicetree: four CPUs");
	tap_ok(ras_cpu_map_lookup(m, 0x81000200) == 2, "MPIDR 0x81000200 is cpu2 (bits 31:24 ignored)");
	tap_is_int(ras_cpu_map_lookup(m, 0x400), -1, "an MPIDR of no CPU here: -1");
	ras_cpu_map_free(m);

	make_sysfs(false);
	len = make_madt(madt, uid, mpidr, 2);
	put_bytes("firmware/acpi/tables/APIC", madt, len);
	put("devices/system/cpu/cpu0/firmware_node/uid", "4\n");
	put("devices/system/cpu/cpu1/firmware_node/uid", "9\n");
	put("devices/system/cpu/cpu2/firmware_node/uid", "x\n");
	tap_ok(ras_cpu_map_load(&m, sysfs) == 0 && ras_cpu_map_size(m) == 2, "ACPI: two CPUs by _UID");
	tap_ok(ras_cpu_map_lookup(m, 0x10100) == 1 && ras_cpu_map_lookup(m, 0) == 0,
	       "ACPI: cpu1 is MPIDR 0x10100, cpu0 is 0");
	ras_cpu_map_free(m);

	ras_decode_ctx_init(&ctx);
	tap_is_int(ras_decode_ctx_cpu_of_mpidr(&ctx, 0x10100), -1, "a decode context without a root maps none");
	ctx.cpu_sysfs_root = sysfs;
	tap_is_int(ras_decode_ctx_cpu_of_mpidr(&ctx, 0x10100), 1, "with the root: read once, cpu1");
	ras_decode_ctx_release(&ctx);
}

/* One Error Information entry (N.2.4.4.1): valid multiple error, flags, error info. */
static void entry(uint8_t *p, uint16_t multi, uint8_t flags)
{
	memset(p, 0, 32);
	p[1] = 32;
	p[2] = 0x7;
	p[4] = 0x2;
	p[5] = (uint8_t)multi;
	p[6] = (uint8_t)(multi >> 8);
	p[7] = flags;
	/* Cache error, level 1, corrected (bit 26, valid bit 4). */
	put_le64(p + 8, 0x17 | 1ull << 16 | 3ull << 18 | 1ull << 22 | 1ull << 26);
}

static int cpu_subjects(const struct arm_decoded *d, struct ras_subject *s)
{
	return ras_subjects_of(ras_event_type_find("ras:arm_event"), NULL, d, 4096,
			       1u << RAS_SUBJ_CPU, s);
}

static void test_subject(void)
{
	uint8_t pei[96];
	struct arm_in in = {
		.mpidr = 0x81000200, .midr = 0x413fd0c1, .running_state = 1, .has_buffers = 1,
		.has_sev = 1, .has_cpu = 1, .pei_buf = pei, .pei_len = 96, .pei_buf_len = 96,
		.sev = 2, .cpu = -22, .has_mapped_cpu = 1, .mapped_cpu = 2,
	};
	struct ras_subject s[RAS_SUBJECTS_MAX];
	static struct arm_decoded d;
	int n;

	entry(pei, 0, 0x1);           /* first: one error of this core */
	entry(pei + 32, 1, 0x8);      /* overflow, "multiple": two at least */
	entry(pei + 64, 5, 0x5);      /* first but propagated: five, not this core's */
	arm_decode(&in, &d);
	tap_ok(d.cpu == RAS_DF_NONE && d.mapped_cpu == 2 && arm_decoded_cpu(&d) == 2,
	       "the kernel's -EINVAL: the CPU found for the MPIDR");
	tap_ok(!strncmp(d.location, "CPU 2, MPIDR 0x81000200", 23), "location: %s", d.location);
	tap_ok(d.errors == 8 && d.core_errors == 3, "8 errors, 3 of them this core's (%lld, %lld)",
	       (long long)d.errors, (long long)d.core_errors);
	n = cpu_subjects(&d, s);
	tap_ok(n == 1 && !strcmp(s[0].key, "cpu 2") && s[0].cpu == 2 && s[0].n == 3,
	       "a CPU subject, cpu 2, counting 3 (%s)", n ? s[0].key : "none");

	in.cpu = 5;
	arm_decode(&in, &d);
	tap_ok(arm_decoded_cpu(&d) == 5 && d.mapped_cpu == RAS_DF_NONE, "the kernel's own CPU wins");

	entry(pei, 0, 0x4);
	entry(pei + 32, 0, 0x5);
	entry(pei + 64, 0, 0);
	arm_decode(&in, &d);
	tap_is_int(cpu_subjects(&d, s), 0, "propagated or unflagged entries: no CPU subject");

	entry(pei, 0, 0x1);
	in.has_cpu = 0;
	in.has_mapped_cpu = 0;
	arm_decode(&in, &d);
	tap_is_int(cpu_subjects(&d, s), 0, "no CPU known: no CPU subject");
}

/* The pei_buf of one corrected cache-error entry with the given flags, in hex. */
static void pei_hex(char *out, size_t len, uint8_t flags)
{
	uint8_t e[32];
	size_t n = 0;

	entry(e, 0, flags);
	n += (size_t)snprintf(out, len, "pei_buf=0x");
	for (int i = 0; i < 32 && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%02x", e[i]);
}

/* arm_event with the kernel's sev (GHES: 1 corrected, 2 recoverable) and cpu (-22: none in its map). */
static int add_arm_sev(struct fake_tree *t, const char *mpidr, const char *cpu, uint8_t flags,
		       const char *sev, uint64_t ts)
{
	char m[64], c[32], pei[128];
	char *assign[] = { m, "midr=0x413fd0c1", "running_state=1", "psci_state=0", "affinity=0",
			   "pei_len=32", pei, "ctx_len=0", "oem_len=0", (char *)sev, c };

	snprintf(m, sizeof(m), "mpidr=%s", mpidr);
	snprintf(c, sizeof(c), "cpu=%s", cpu);
	pei_hex(pei, sizeof(pei), flags);
	return add(t, "ras:arm_event", assign, 11, ts);
}

static int add_arm(struct fake_tree *t, const char *mpidr, const char *cpu, uint8_t flags, uint64_t ts)
{
	return add_arm_sev(t, mpidr, cpu, flags, "sev=1", ts);
}

static void test_end_to_end(void)
{
	struct fake_tree t;
	char buf[256];
	sqlite3 *db;
	int r = 0;

	make_sysfs(false);
	dt_cpus();
	write_conf("");
	fresh_db();
	if (!tap_ok(tree(&t), "a fake tree"))
		return;
	/* cpu2 by its MPIDR (the kernel found none); cpu3 by the kernel, propagated errors only. */
	r |= add_arm(&t, "0x81000200", "-22", 0x1, base_ts);
	r |= add_arm(&t, "0x300", "3", 0x5, base_ts + MS);
	r |= add_arm(&t, "0x300", "3", 0x5, base_ts + 2 * MS);
	r |= add_arm(&t, "0x300", "3", 0x5, base_ts + 3 * MS);
	r |= add_arm(&t, "0x81000200", "-22", 0x1, base_ts + 4 * MS);
	fake_tree_finish(&t);
	tap_is_int(r, 0, "five arm_event records");
	tap_is_int(run_rasd(t.root, false), 0, "rasd --once");
	get("devices/system/cpu/cpu2/online", buf, sizeof(buf));
	tap_is_str(buf, "0", "cpu2 offlined: two corrected errors of its own crossed 2/1h");
	get("devices/system/cpu/cpu3/online", buf, sizeof(buf));
	tap_is_str(buf, "1\n", "cpu3 left alone: its errors were propagated to it");
	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'cpu' AND subject = 'cpu 2'"
				  " AND count = 2 AND action = 'offline' AND result = 'done'"
				  " AND event_table = 'arm_event'"), 1, "the decision: cpu 2, offline, done");
		tap_is_int(scalar(db, "SELECT count(*) FROM actions"), 1, "and no other");
		tap_is_int(scalar(db, "SELECT count(*) FROM arm_event_decoded WHERE severity = 'corrected'"), 5,
			   "sev 1 is GHES corrected: all five stored as corrected");
		sqlite3_close(db);
	}
	fake_tree_destroy(&t);
}

/* cpu_offline_limit: no CPU goes once that many are offline (rasdaemon's CPU_ISOLATION_LIMIT). */
static void test_limit(const char *limit, const char *result, const char *cpu2)
{
	struct fake_tree t;
	char buf[256], conf[64], sql[300];
	sqlite3 *db;
	int r = 0;

	make_sysfs(false);
	dt_cpus();
	put("devices/system/cpu/cpu3/online", "0\n");
	snprintf(conf, sizeof(conf), "cpu_offline_limit = %s\n", limit);
	write_conf(conf);
	fresh_db();
	if (!tap_ok(tree(&t), "a fake tree"))
		return;
	r |= add_arm(&t, "0x200", "2", 0x1, base_ts);
	r |= add_arm(&t, "0x200", "2", 0x1, base_ts + MS);
	fake_tree_finish(&t);
	tap_is_int(r | run_rasd(t.root, false), 0, "limit %s, cpu3 offline already: rasd --once", limit);
	get("devices/system/cpu/cpu2/online", buf, sizeof(buf));
	tap_is_str(buf, cpu2, "limit %s: cpu2 online is %s", limit, cpu2);
	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM actions WHERE subject = 'cpu 2'"
			 " AND action = 'offline' AND result = '%s'", result);
		tap_is_int(scalar(db, sql), 1, "limit %s: the decision is %s", limit, result);
		sqlite3_close(db);
	}
	fake_tree_destroy(&t);
}

/*
 * cpu_ue_offline: one recoverable error of the core's own offlines it at once
 * (cpu 2); a propagated one (cpu 3) and a fatal one (cpu 1) do not; the
 * limit still holds.
 */
static void test_ue(const char *name, const char *extra, const char *cpu2, const char *result)
{
	bool cpu1_off = strstr(extra, "cpu_offline_limit") != NULL;

	struct fake_tree t;
	char buf[256], sql[300];
	sqlite3 *db;
	int r = 0;

	make_sysfs(false);
	dt_cpus();
	if (cpu1_off)
		put("devices/system/cpu/cpu1/online", "0\n");
	write_conf(extra);
	fresh_db();
	if (!tap_ok(tree(&t), "a fake tree"))
		return;
	r |= add_arm_sev(&t, "0x200", "2", 0x1, "sev=2", base_ts);
	r |= add_arm_sev(&t, "0x300", "3", 0x5, "sev=2", base_ts + MS);
	r |= add_arm_sev(&t, "0x100", "1", 0x1, "sev=3", base_ts + 2 * MS);
	fake_tree_finish(&t);
	tap_is_int(r | run_rasd(t.root, false), 0, "%s: rasd --once on three uncorrected arm_events", name);
	get("devices/system/cpu/cpu2/online", buf, sizeof(buf));
	tap_is_str(buf, cpu2, "%s: cpu2 online is %s after its own recoverable error", name, cpu2);
	get("devices/system/cpu/cpu3/online", buf, sizeof(buf));
	tap_is_str(buf, "1\n", "%s: cpu3 left alone (propagated)", name);
	get("devices/system/cpu/cpu1/online", buf, sizeof(buf));
	tap_is_str(buf, cpu1_off ? "0\n" : "1\n", "%s: cpu1 left as it was (fatal: the firmware "
		   "does not recover it)", name);
	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM actions WHERE kind = 'cpu' AND subject = 'cpu 2'"
			 " AND action = 'offline' AND threshold = 'recoverable error' AND result = '%s'",
			 result);
		tap_is_int(scalar(db, sql), *result ? 1 : 0, "%s: the decision on cpu 2: %s", name,
			   *result ? result : "none");
		tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE subject <> 'cpu 2'"), 0,
			   "%s: no other", name);
		sqlite3_close(db);
	}
	fake_tree_destroy(&t);
}

int main(void)
{
	actions_fixture_init();
	test_parsers();
	test_map();
	test_subject();
	test_end_to_end();
	test_limit("1", "cpu-limit", "1\n");
	test_limit("2", "done", "0");
	test_limit("0", "done", "0");
	test_ue("cpu_ue_offline", "cpu_ue_offline = yes\n", "0", "done");
	test_ue("default", "", "1\n", "");
	test_ue("cpu_ue_offline, limit 1, cpu1 offline", "cpu_ue_offline = yes\ncpu_offline_limit = 1\n",
		"1\n", "cpu-limit");
	actions_fixture_done();
	return tap_done();
}
