/* SPDX-License-Identifier: MIT */
/*
 * Golden vectors for lastwords/: pstore file names (fs/pstore/inode.c), the
 * dmesg record's header and lines (fs/pstore/platform.c pstore_dump(), the
 * syslog format of kmsg_dump_get_buffer()), the cause of a crash from the
 * kernel's own messages, struct mce in each layout (arch/x86/include/uapi/asm/
 * mce.h across kernel versions), systemd-pstore's pstore.conf(5), and dumps
 * grouped from parts. The real records are the 6.1 kernel's, from the QEMU
 * crash pair (tests/data/lastwords/linux-6.1-erst).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lastwords/dump.h"
#include "lastwords/mce_layout.h"
#include "lastwords/pstore_conf.h"
#include "tests/tap.h"
#include "tests/test_util.h"

#define DATA "tests/data/lastwords/linux-6.1-erst"
#define PART1 "dmesg-erst-7713266041001869314"
#define PART2 "dmesg-erst-7713266041001869315"
#define MCE "mce-erst-7713266041001869313"

static uint8_t *slurp_from(const char *dir, const char *name, size_t *len)
{
	char path[1024];
	FILE *f;
	uint8_t *buf = malloc(1 << 20);

	snprintf(path, sizeof(path), "%s/%s/%s", test_srcdir(), dir, name);
	f = fopen(path, "rbe");
	*len = f && buf ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

static uint8_t *slurp(const char *name, size_t *len)
{
	return slurp_from(DATA, name, len);
}

static void test_names(void)
{
	static const struct { const char *name; int ok; enum lw_kind kind; const char *type, *backend;
			      uint64_t id; bool z; } v[] = {
		{ PART1, 1, LW_KIND_DMESG, "dmesg", "erst", 7713266041001869314ULL, false },
		{ MCE, 1, LW_KIND_MCE, "mce", "erst", 7713266041001869313ULL, false },
		{ "console-ramoops-0", 1, LW_KIND_CONSOLE, "console", "ramoops", 0, false },
		{ "dmesg-ramoops-1.enc.z", 1, LW_KIND_DMESG, "dmesg", "ramoops", 1, true },
		{ "dmesg-efi_pstore-1764345097101001", 1, LW_KIND_DMESG, "dmesg", "efi_pstore", 1764345097101001ULL, false },
		{ "dmesg-efi-1764345097101001", 1, LW_KIND_DMESG, "dmesg", "efi", 1764345097101001ULL, false },
		{ "powerpc-ofw-nvram-5", 1, LW_KIND_OTHER, "powerpc-ofw", "nvram", 5, false },
		{ "ftrace-ramoops-0", 1, LW_KIND_OTHER, "ftrace", "ramoops", 0, false },
		{ "dmesg.txt", 0, LW_KIND_OTHER, "", "", 0, false }, { "dmesg-erst", 0, LW_KIND_OTHER, "", "", 0, false }, { "dmesg-erst-12a", 0, LW_KIND_OTHER, "", "", 0, false }, { "-erst-1", 0, LW_KIND_OTHER, "", "", 0, false },
		{ "dmesg--1", 0, LW_KIND_OTHER, "", "", 0, false }, { "dmesg-erst-", 0, LW_KIND_OTHER, "", "", 0, false }, { "dmesg-erst-99999999999999999999999", 0, LW_KIND_OTHER, "", "", 0, false },
		{ "dmesg-er st-1", 0, LW_KIND_OTHER, "", "", 0, false }, { ".enc.z", 0, LW_KIND_OTHER, "", "", 0, false }, { "", 0, LW_KIND_OTHER, "", "", 0, false },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct lw_pstore_name n;
		int r = lw_pstore_name_parse(v[i].name, &n);

		tap_is_int(r == 0, v[i].ok, "name '%s' %s", v[i].name, v[i].ok ? "parses" : "is refused");
		if (r || !v[i].ok)
			continue;
		tap_ok(n.kind == v[i].kind && !strcmp(n.type, v[i].type) && !strcmp(n.backend, v[i].backend) &&
		       n.id == v[i].id && n.compressed == v[i].z, "'%s': %s %s %llu%s", v[i].name, n.type,
		       n.backend, (unsigned long long)n.id, n.compressed ? " compressed" : "");
	}
}

static void test_header_and_lines(void)
{
	static const struct { const char *text; int present; const char *reason; unsigned count, part; } h[] = {
		{ "Panic#1 Part1\n<0>[ 1.0] x", 1, "Panic", 1, 1 },
		{ "Oops#12 Part3\n", 1, "Oops", 12, 3 },
		{ "Panic#1 Part1", 0, "", 0, 0 }, { "Panic #1 Part1\n", 0, "", 0, 0 }, { "#1 Part1\n", 0, "", 0, 0 },
		{ "Panic#1 Part1 \n", 0, "", 0, 0 }, { "Panic#x Part1\n", 0, "", 0, 0 },
		{ "VeryLongReasonWord#1 Part1\n", 0, "", 0, 0 },
	};
	struct lw_dmesg_header hd;
	struct lw_line l;
	size_t body, pos = 0;
	const char *text = "<4>[    1.412869] mtrr: x\n[  2.5] plain\nno stamp\n<6>[   3.000001][    T1] caller\n"
			   "[Firmware Bug]: kept\n<0>[ 9.000000] last";

	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		lw_dmesg_header_parse(h[i].text, strlen(h[i].text), &hd, &body);
		tap_is_int(hd.present, h[i].present, "header of '%.16s'", h[i].text);
		if (h[i].present)
			tap_ok(!strcmp(hd.reason, h[i].reason) && hd.count == h[i].count && hd.part == h[i].part &&
			       body == (size_t)(strchr(h[i].text, '\n') - h[i].text + 1), "  %s#%u Part%u", hd.reason,
			       hd.count, hd.part);
	}
	lw_dmesg_next_line(text, strlen(text), &pos, &l);
	tap_ok(l.level == 4 && l.uptime_ns == 1412869000 && l.len == 7 && !memcmp(l.text, "mtrr: x", 7),
	       "a syslog line: level, timestamp, text");
	lw_dmesg_next_line(text, strlen(text), &pos, &l);
	tap_ok(l.level == -1 && l.uptime_ns == 2500000000 && !memcmp(l.text, "plain", 5), "no level");
	lw_dmesg_next_line(text, strlen(text), &pos, &l);
	tap_ok(l.uptime_ns == -1 && l.len == 8, "no timestamp");
	lw_dmesg_next_line(text, strlen(text), &pos, &l);
	tap_ok(l.uptime_ns == 3000001000 && l.len == 6 && !memcmp(l.text, "caller", 6),
	       "CONFIG_PRINTK_CALLER's [T1] is passed over");
	lw_dmesg_next_line(text, strlen(text), &pos, &l);
	tap_ok(l.len == 20 && !memcmp(l.text, "[Firmware Bug]: kept", 20), "[Firmware Bug] is text");
	tap_ok(lw_dmesg_next_line(text, strlen(text), &pos, &l) == 1 && l.len == 4, "a last line without newline");
	tap_is_int(lw_dmesg_next_line(text, strlen(text), &pos, &l), 0, "then the end");
}

/* Analyses a log given as lines (dump reason, then text). */
static void analyze(struct lw_analysis *a, const char *reason, const char *log)
{
	size_t pos = 0;
	struct lw_line l;

	lw_analysis_init(a);
	while (lw_dmesg_next_line(log, strlen(log), &pos, &l))
		lw_analysis_line(a, &l);
	lw_analysis_finish(a, reason);
}

static void test_causes(void)
{
	static const struct { const char *what, *dump, *log, *cause, *detail; } v[] = {
		{ "Oops at a NULL pointer", "Panic",
		  "<1>[  100.0] BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
		  "<1>[  100.0] #PF: supervisor read access in kernel mode\n<4>[  100.0] Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
		  "<0>[  100.1] Kernel panic - not syncing: Fatal exception\n", "oops", "BUG: kernel NULL pointer" },
		{ "BUG_ON", "Panic", "<4>[ 50.0] ------------[ cut here ]------------\n<2>[ 50.0] kernel BUG at mm/slub.c:42!\n"
		  "<4>[ 50.0] invalid opcode: 0000 [#1] PREEMPT SMP NOPTI\n<0>[ 50.2] Kernel panic - not syncing: Fatal exception\n",
		  "bug", "kernel BUG at mm/slub.c:42!" },
		{ "hung task", "Panic", "<3>[ 245.1] INFO: task kworker/0:1:42 blocked for more than 120 seconds.\n"
		  "<0>[ 245.2] Kernel panic - not syncing: hung_task: blocked tasks\n", "hung_task", "INFO: task kworker" },
		{ "soft lockup", "Panic", "<0>[ 60.0] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [x:1]\n"
		  "<0>[ 60.1] Kernel panic - not syncing: softlockup: hung tasks\n", "soft_lockup", "watchdog: BUG: soft lockup" },
		{ "hard lockup", "Panic", "<0>[ 70.0] watchdog: Watchdog detected hard LOCKUP on cpu 1\n"
		  "<0>[ 70.1] Kernel panic - not syncing: Hard LOCKUP\n", "hard_lockup", "watchdog: Watchdog detected" },
		{ "NMI", "Panic", "<0>[ 80.0] Uhhuh. NMI received for unknown reason 3d on CPU 0.\n"
		  "<0>[ 80.0] Kernel panic - not syncing: NMI: Not continuing\n", "nmi", "Uhhuh. NMI received" },
		{ "OOM", "Panic", "<0>[ 90.0] Kernel panic - not syncing: Out of memory: compulsory panic_on_oom is enabled\n",
		  "oom", "" },
		{ "sysrq-c", "Panic", "<6>[ 10.0] sysrq: Trigger a crash\n<0>[ 10.0] Kernel panic - not syncing: sysrq triggered crash\n",
		  "panic", "" },
		{ "an oops dump, no panic", "Oops", "<4>[ 5.0] general protection fault, probably for non-canonical address 0xdead: 0000 [#1] SMP\n",
		  "oops", "" },
		{ "a restart's dump", "Restart", "<3>[ 5.0] BUG: sleeping function called from invalid context\n", "shutdown", "" },
		{ "nothing said", "", "<6>[ 1.0] hello\n", "unknown", "" },
		{ "an early warning is not the cause", "Panic",
		  "<3>[ 5.0] BUG: sleeping function called from invalid context at x.c:1\n"
		  "<1>[ 100.0] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		  "<4>[ 100.0] Oops: 0000 [#1] SMP\n<0>[ 100.1] Kernel panic - not syncing: Fatal exception\n",
		  "oops", "BUG: kernel NULL pointer dereference, address: 0000000000000008" },
		{ "a machine check outranks an earlier oops", "",
		  "<4>[ 5.0] Oops: 0000 [#1] SMP\n<0>[ 9.0] mce: [Hardware Error]: CPU 0: Machine Check Exception: 5 Bank 7: be00\n",
		  "mce", "" },
	};
	struct lw_analysis *a = malloc(sizeof(*a));

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		analyze(a, v[i].dump, v[i].log);
		tap_ok(!strcmp(lw_cause_name(a->cause), v[i].cause) &&
		       (!v[i].detail[0] || strstr(a->detail, v[i].detail) || strstr(a->reason, v[i].detail)),
		       "%s: %s (reason '%s', detail '%s')", v[i].what, lw_cause_name(a->cause), a->reason, a->detail);
	}
	/* A corrected machine check in the log of an oops explains nothing. */
	analyze(a, "Panic", "<0>[ 4.0] mce: [Hardware Error]: Machine check events logged\n"
		"<0>[ 4.0] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 1: 9c00000000010090\n"
		"<4>[ 9.0] Oops: 0000 [#1] SMP\n<0>[ 9.1] Kernel panic - not syncing: Fatal exception\n");
	tap_ok(a->cause == LW_CAUSE_OOPS && a->hw_lines == 2 && !a->hw_serious,
	       "an oops after a corrected machine check: its lines kept, none that can kill");
	/* The hardware-error lines are capped, the rest counted. */
	char *log = malloc(100 * 80 + 1), *p = log;

	for (int i = 0; i < 100; i++)
		p += sprintf(p, "<0>[ %d.0] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 1: 9c00\n", i);
	analyze(a, "Panic", log);
	tap_ok(a->hw_lines == LW_HW_LINES_MAX && a->hw_dropped == 100 - LW_HW_LINES_MAX,
	       "hardware-error lines: %u kept, %u counted", a->hw_lines, a->hw_dropped);
	free(log);
	free(a);
}

/* The real 6.1 record (128 bytes) cut to each layout's size: the fields up to the cut. */
static void test_mce_layouts(void)
{
	static const struct { size_t size; int usable; bool synd, microcode, kflags; unsigned problems; } v[] = {
		{ 128, 1, true, true, true, 0 }, { 120, 1, true, true, false, 0 },
		{ 112, 1, true, false, false, 0 }, { 88, 1, false, false, false, 0 },
		{ 100, 1, true, false, false, LW_MCE_ODD_SIZE }, { 70, 1, false, false, false, LW_MCE_SHORT },
		{ 60, 0, false, false, false, LW_MCE_SHORT }, { 8, 0, false, false, false, LW_MCE_SHORT },
	};
	size_t len;
	uint8_t *rec = slurp(MCE, &len), longer[136];
	struct lw_mce m;
	uint64_t ident = 0;
	char name[64];

	tap_is_int((int)len, 128, "the 6.1 kernel's ERST record is 128 bytes");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		int r = lw_mce_parse(rec, v[i].size, &m);

		lw_mce_layout_name(&m, name, sizeof(name));
		tap_is_int(r == 0, v[i].usable, "%zu bytes (%s): %s", v[i].size, name,
			   v[i].usable ? "a machine check" : "not one");
		if (!v[i].usable)
			continue;
		tap_ok(m.status == 0xbe00000000000093ULL && m.addr == 0x12345000 && m.misc == 0x8c &&
		       m.mcgstatus == 5 && m.bank == 7 && m.time == 1795884697 && m.cpuid == 0x50654 &&
		       m.tsc == 0x46e57857f7ULL && m.cpuvendor == 0, "  registers, bank, time, CPUID");
		tap_ok(lw_mce_has(&m, LW_MCE_SYND) == v[i].synd && lw_mce_has(&m, LW_MCE_MICROCODE) == v[i].microcode &&
		       lw_mce_has(&m, LW_MCE_KFLAGS) == v[i].kflags && m.problems == v[i].problems &&
		       (!v[i].microcode || m.microcode == 1), "  fields present as far as the bytes go");
		if (v[i].size >= 88) {
			if (!ident)
				ident = lw_mce_identity(&m);
			tap_ok(lw_mce_identity(&m) == ident, "  the same identity in every layout");
		}
	}
	memcpy(longer, rec, 128);
	memset(longer + 128, 0xee, 8);
	tap_ok(lw_mce_parse(longer, sizeof(longer), &m) == 0 && m.problems == LW_MCE_LONGER && m.bank == 7,
	       "a newer, longer layout: the known fields read, counted as longer");
	rec[7] &= 0x7f;
	tap_ok(lw_mce_parse(rec, 128, &m) < 0, "MCi_STATUS without VAL is not a machine check");
	free(rec);
}

static void test_pstore_conf(void)
{
	static const struct { const char *text; bool removes; } v[] = {
		{ "", true }, { "[PStore]\nUnlink=no\n", false }, { "[PStore]\nStorage=none\n", false },
		{ "[PStore]\nStorage=journal\nUnlink=yes\n", true }, { "[PStore]\n Unlink = false \n", false },
		{ "[Other]\nUnlink=no\n", true }, { "# [PStore]\nUnlink=no\n", true },
		{ "[PStore]\nUnlink=maybe\n", true }, { "[PStore]\nUnlink=0\n[PStore]\nUnlink=on\n", true },
	};
	struct lw_pstore_conf c;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		lw_pstore_conf_init(&c);
		lw_pstore_conf_parse(v[i].text, strlen(v[i].text), &c);
		tap_is_int(lw_pstore_conf_removes(&c), v[i].removes, "pstore.conf '%s': %s", v[i].text,
			   v[i].removes ? "removes" : "leaves them");
	}
	lw_pstore_conf_init(&c);
	lw_pstore_conf_parse("[PStore]\nUnlink=no\n", 19, &c);
	lw_pstore_conf_parse("[PStore]\nUnlink=yes\n", 20, &c);
	tap_ok(lw_pstore_conf_removes(&c), "a later drop-in overrides");
	lw_pstore_conf_parse("[PStore]\nStorage=bogus\n", 23, &c);
	tap_is_int((int)c.bad_lines, 1, "a value systemd refuses is counted");
}

static struct lw_part part(const char *name, const uint8_t *data, size_t len, unsigned dir, int64_t t)
{
	struct lw_part p = { .name = name, .dir = dir, .data = data, .len = len, .mtime_s = t };

	lw_pstore_name_parse(name, &p.pn);
	return p;
}

static void test_dumps(void)
{
	size_t l1, l2;
	uint8_t *p1 = slurp(PART1, &l1), *p2 = slurp(PART2, &l2);
	static const uint8_t p3[] = "Panic#1 Part3\n<6>[ 0.1] oldest\n";
	struct lw_part parts[8];
	struct lw_analysis *a = malloc(sizeof(*a));
	unsigned first, n;
	uint64_t id1, id2;

	parts[0] = part(PART1, p1, l1, 0, 1795884697);
	parts[1] = part(PART2, p2, l2, 0, 1795884697);
	tap_is_int((int)lw_dump_group(parts, 2), 1, "the real parts are one dump");
	n = lw_dump_parts(parts, 2, 0, &first);
	tap_ok(n == 2 && parts[first].hdr.part == 2 && parts[first + 1].hdr.part == 1, "oldest part first");
	lw_dump_analyze(&parts[first], n, a);
	tap_ok(a->cause == LW_CAUSE_MCE && strstr(a->reason, "Kernel panic - not syncing: Fatal machine check") &&
	       a->reason_uptime_ns == 66230471000LL && strstr(a->detail, "Machine Check Exception: 5 Bank 7"),
	       "the 6.1 panic: a fatal machine check at 66.230471 s, started by its exception line");
	tap_ok(a->hw_lines == 11 && !strstr(a->hw, "EDAC MC: Ver") && !strstr(a->hw, "AER: enabled") && a->hw_serious,
	       "11 hardware-error lines, no driver banners (%u), one that can kill", a->hw_lines);
	tap_is_int((int)lw_dump_missing(&parts[first], n), 0, "no part missing");
	id1 = lw_dump_identity(&parts[first], n);
	/* systemd-pstore's copy: another directory, another time, the same bytes. */
	parts[0] = part(PART1, p1, l1, 3, 0);
	parts[1] = part(PART2, p2, l2, 3, 0);
	lw_dump_group(parts, 2);
	id2 = lw_dump_identity(parts, 2);
	tap_ok(id1 == id2, "systemd-pstore's copy has the same identity");
	/* Two boots' Panic#1 an hour apart, a console record, and a dump missing its Part2. */
	parts[0] = part(PART1, p1, l1, 0, 1000);
	parts[1] = part(PART2, p2, l2, 0, 1000);
	parts[2] = part("dmesg-erst-9", p1, l1, 0, 4600);
	parts[3] = part("console-ramoops-0", (const uint8_t *)"[ 1.0] hello\n", 13, 0, 4600);
	parts[4] = part("dmesg-ramoops-0", p1, l1, 1, 0);
	parts[5] = part("dmesg-ramoops-2", p3, sizeof(p3) - 1, 1, 0);
	tap_is_int((int)lw_dump_group(parts, 6), 4, "two dumps an hour apart, a console record, a ramoops dump");
	for (unsigned g = 0; g < 4; g++) {
		n = lw_dump_parts(parts, 6, g, &first);
		if (parts[first].pn.backend[0] == 'r' && parts[first].pn.kind == LW_KIND_DMESG)
			tap_ok(n == 2 && lw_dump_missing(&parts[first], n) == 1, "Part3 and Part1: one part missing");
	}
	free(a);
	free(p1);
	free(p2);
}

/* The 6.12 kernel's records of the same crash: three parts, the same struct mce layout. */
static void test_612(void)
{
	static const char *const names[] = {
		"dmesg-erst-7713268562147672066", "dmesg-erst-7713268562147672067", "dmesg-erst-7713268562147672068",
	};
	const char *dir = "tests/data/lastwords/linux-6.12-erst";
	struct lw_part parts[3];
	uint8_t *data[3], *rec;
	struct lw_analysis *a = malloc(sizeof(*a));
	struct lw_mce m;
	unsigned first, n;
	size_t len;

	for (int i = 0; i < 3; i++) {
		data[i] = slurp_from(dir, names[i], &len);
		parts[i] = (struct lw_part){ .name = names[i], .data = data[i], .len = len, .mtime_s = 1795885640 };
		lw_pstore_name_parse(names[i], &parts[i].pn);
	}
	tap_is_int((int)lw_dump_group(parts, 3), 1, "6.12: three parts, one dump");
	n = lw_dump_parts(parts, 3, 0, &first);
	lw_dump_analyze(&parts[first], n, a);
	tap_ok(n == 3 && parts[first].hdr.part == 3 && a->cause == LW_CAUSE_MCE &&
	       strstr(a->reason, "Fatal machine check") && strstr(a->detail, "Machine Check Exception"),
	       "6.12: a fatal machine check, the oldest part first");
	rec = slurp_from(dir, "mce-erst-7713268562147672065", &len);
	tap_ok(len == 128 && lw_mce_parse(rec, len, &m) == 0 && m.bank == 7 && m.status == 0xbe00000000000093ULL &&
	       lw_mce_has(&m, LW_MCE_KFLAGS), "6.12: the 128-byte layout, bank 7 status be00000000000093");
	for (int i = 0; i < 3; i++)
		free(data[i]);
	free(rec);
	free(a);
}

int main(void)
{
	test_names();
	test_header_and_lines();
	test_causes();
	test_mce_layouts();
	test_pstore_conf();
	test_dumps();
	test_612();
	return tap_done();
}
