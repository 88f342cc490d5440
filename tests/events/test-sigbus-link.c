/* SPDX-License-Identifier: MIT */
/*
 * The process a memory failure killed, from the records to the CLI line:
 * memory_failure_event and signal_generate records in the orders the kernel
 * makes them (seen under QEMU), rasd --once, then ras-fdr-ctl errors, errors
 * --json and export name the process and the page it is linked to
 * (db/db_link.h): the memory failure of the boot closest in time, at most a
 * second after the signal.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/fake_tree.h"
#include "tests/tap.h"
#include "tests/test_util.h"

#define MS 1000000ULL
#define SEC (1000 * MS)

static char tmp[256], dbpath[512], out[700], cursor[700];

static int add(struct fake_tree *t, const char *name, char **assign, int n, uint64_t ts)
{
	uint8_t rec[1024];
	int len = fake_record(t, name, assign, n, rec, sizeof(rec));

	return len < 0 ? len : fake_add(t, 0, ts, rec, (uint32_t)len);
}

/* "dirty LRU page" is type 13 in 6.1's memory_failure_event format, MF_RECOVERED result 3. */
static void memfail(struct fake_tree *t, const char *pfn, uint64_t ts)
{
	char p[32], *assign[] = { p, "type=13", "result=3" };

	snprintf(p, sizeof(p), "pfn=%s", pfn);
	add(t, "ras:memory_failure_event", assign, 3, ts);
}

static void sigbus(struct fake_tree *t, int code, const char *comm, int pid, uint64_t ts)
{
	char s[32], c[32], n[48], p[32], *assign[] = { s, c, n, p, "result=0", "group=0", "errno=0" };

	snprintf(s, sizeof(s), "sig=%d", SIGBUS);
	snprintf(c, sizeof(c), "code=%d", code);
	snprintf(n, sizeof(n), "comm=%s", comm);
	snprintf(p, sizeof(p), "pid=%d", pid);
	add(t, "signal:signal_generate", assign, 7, ts);
}

static int rasd(const char *tree)
{
	char bin[1024], log[600], lock[600];
	char *argv[] = { bin, "--config", "/dev/null", "--tracing-dir", (char *)tree, "--db", dbpath,
			 "--lock-dir", lock, "--once", NULL };

	snprintf(bin, sizeof(bin), "%s/rasd/rasd", test_builddir());
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	return test_run(argv, log);
}

/* ras-fdr-ctl ARGS > out; its output, read back (static, overwritten by the next call). */
static const char *ctl(const char *a1, const char *a2, const char *a3)
{
	static char text[65536];
	char bin[1024], *argv[] = { bin, "--config", "/dev/null", "--db", dbpath, (char *)a1,
				    (char *)a2, (char *)a3, NULL };
	FILE *f;
	size_t n = 0;

	snprintf(bin, sizeof(bin), "%s/ctl/ras-fdr-ctl", test_builddir());
	text[0] = 0;
	if (test_run(argv, out) != 0)
		return text;
	if ((f = fopen(out, "re"))) {
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
	}
	text[n] = 0;
	return text;
}

static void test_links(void)
{
	char formats[1024];
	struct fake_tree t;
	const char *text, *l;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	if (!tap_ok(fake_tree_create(&t, formats, 1, "rasd", "boot") == 0, "tree built"))
		return;
	/* 6.1's late kill: the page fails at madvise, the read 6 ms later gets BUS_MCEERR_AR. */
	memfail(&t, "0x2e0e", 10 * SEC);
	sigbus(&t, 4, "late", 132, 10 * SEC + 6 * MS);
	/* The early kill (and 6.11+'s MADV_HWPOISON): the SIGBUS first, its page 0.2 ms after. */
	sigbus(&t, 5, "early", 135, 20 * SEC);
	memfail(&t, "0x79e4", 20 * SEC + 200000);
	/* A memory failure 2 s after a SIGBUS is not its: the one 10 s before is. */
	sigbus(&t, 4, "toolate", 140, 30 * SEC);
	memfail(&t, "0x8888", 32 * SEC);
	fake_tree_finish(&t);
	tap_is_int(rasd(t.root), 0, "rasd --once exits 0");

	text = ctl("errors", NULL, NULL);
	l = test_line_with(text, "`late`");
	tap_ok(strstr(l, "srar signal_generate: Process `late` (pid 132) was killed: it consumed "
			 "poisoned memory at pfn 0x2e0e (dirty LRU page, recovery Recovered);") != NULL,
	       "late kill: %s", l);
	l = test_line_with(text, "`early`");
	tap_ok(strstr(l, "srao signal_generate: Process `early` (pid 135) was sent SIGBUS: poisoned "
			 "memory was taken out of its address space at pfn 0x79e4 (dirty LRU page, "
			 "recovery Recovered) (BUS_MCEERR_AO)") != NULL, "early kill: %s", l);
	l = test_line_with(text, "`toolate`");
	tap_ok(strstr(l, "at pfn 0x79e4 (dirty LRU page, recovery Recovered, 10 s before)") != NULL,
	       "a memory failure 2 s later is not linked: %s", l);

	text = ctl("errors", "--json", "--type=signal_generate");
	l = test_line_with(text, "\"comm\":\"late\"");
	tap_ok(strstr(l, "\"memory_failure\":{\"id\":1,") && strstr(l, "\"pfn\":\"0x2e0e\",\"page_type\":"
	       "\"dirty LRU page\",\"recovery\":\"Recovered\"}"), "JSON: the linked record: %s", l);
	tap_ok(strstr(l, "\"summary\":\"Process `late` (pid 132) was killed: it consumed poisoned memory "
		      "at pfn 0x2e0e") != NULL, "JSON: the linked sentence");
	snprintf(cursor, sizeof(cursor), "%s/cursor", tmp);
	text = ctl("export", "--cursor-file", cursor);
	tap_ok(strstr(test_line_with(text, "\"comm\":\"early\""), "\"pfn\":\"0x79e4\"") != NULL,
	       "export: the linked record too");
	text = ctl("summary", NULL, NULL);
	tap_ok(strstr(test_line_with(text, "process late"), "signal_generate") != NULL,
	       "summary: counted by process name");
	fake_tree_destroy(&t);
	test_remove_db(dbpath);
}

static void test_none(void)
{
	char formats[1024];
	struct fake_tree t;
	const char *text, *l;
	char *mc[] = { "error_type=0", "msg=x" };

	/* 6.18's set has no memory_failure_event: nothing to link to. */
	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	if (!tap_ok(fake_tree_create(&t, formats, 1, "rasd", "boot") == 0, "6.18 tree built"))
		return;
	sigbus(&t, 4, "alone", 7, 5 * SEC);
	add(&t, "ras:mc_event", mc, 2, 6 * SEC);
	fake_tree_finish(&t);
	tap_is_int(rasd(t.root), 0, "rasd --once exits 0");
	l = test_line_with(ctl("errors", NULL, NULL), "`alone`");
	tap_ok(strstr(l, "was killed: it consumed poisoned memory; SIGBUS") != NULL,
	       "no memory failure recorded: no page said: %s", l);
	text = ctl("errors", "--json", NULL);
	tap_ok(strstr(test_line_with(text, "\"alone\""), "\"memory_failure\":null") != NULL,
	       "JSON: memory_failure null");
	text = ctl("errors", "--json", NULL);
	l = test_line_with(text, "\"type\":\"mc_event\"");
	tap_ok(l[0] && !strstr(l, "memory_failure"), "other types have no memory_failure key");
	fake_tree_destroy(&t);
}

int main(void)
{
	test_tmpdir(tmp, sizeof(tmp));
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	snprintf(out, sizeof(out), "%s/out", tmp);
	test_links();
	test_none();
	if (!getenv("RAS_TEST_KEEP"))
		test_rmtree(tmp);
	return tap_done();
}
