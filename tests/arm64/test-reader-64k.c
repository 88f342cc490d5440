/* SPDX-License-Identifier: MIT */
/*
 * The ring-buffer reader with 64 KiB sub-buffers, as arm64 kernels built with
 * 64 KiB pages (RHEL, Ubuntu's -64k, Debian's arm64 with CONFIG_ARM64_64K_PAGES)
 * have them: a tree whose header_page says "char data; offset:16;
 * size:65520" (tests/formats/arm64-64k/header_page), events from Linux
 * 6.18's formats, more records than one sub-buffer holds on each CPU, a
 * missed-events mark with its count between two sub-buffers, and rasd --once
 * reading it all: every record stored once, in order, the loss counted.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include "tests/fake_tree.h"
#include "tests/tap.h"
#include "tests/test_util.h"

#define PER_CPU 900

int main(void)
{
	char formats[1024], hp[1024], tmp[256], dbpath[512], lock[600], log[600], rasd[1024];
	char conf[600], *argv[] = { rasd, "--config", conf, "--tracing-dir", NULL, "--db", dbpath,
				    "--lock-dir", lock, "--once", NULL };
	char msg[64], *assign[] = { "error_type=0", msg, "label=DIMM_A1", "mc_index=0" };
	struct fake_tree t;
	FILE *f;
	uint8_t rec[1024];
	uint64_t ts = 1000000;
	int len;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	snprintf(hp, sizeof(hp), "%s/tests/formats/arm64-64k/header_page", test_srcdir());
	if (!tap_ok(fake_tree_create_hp(&t, formats, hp, 2, "rasd", "boot") == 0, "tree with 64 KiB sub-buffers"))
		return tap_done();
	tap_is_int(t.page_size, 65536, "the header_page gives 64 KiB sub-buffers");
	for (int i = 0; i < PER_CPU; i++) {
		for (unsigned cpu = 0; cpu < 2; cpu++) {
			snprintf(msg, sizeof(msg), "msg=memory read error %d", i);
			len = fake_record(&t, "ras:mc_event", assign, 4, rec, sizeof(rec));
			if (len < 0 || fake_add(&t, cpu, ts += 1000, rec, (uint32_t)len) < 0) {
				tap_ok(0, "record %d on cpu %u written", i, cpu);
				return tap_done();
			}
		}
		/* The kernel dropped 11 records on cpu1 between two of its sub-buffers. */
		if (i == PER_CPU / 2)
			fake_mark_missed(&t, 1, 11);
	}
	fake_tree_finish(&t);
	tap_ok(t.cpu[0].pages >= 2 && t.cpu[1].pages >= 2, "more than one sub-buffer per CPU (%u, %u)",
	       t.cpu[0].pages, t.cpu[1].pages);
	test_tmpdir(tmp, sizeof(tmp));
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	/* One DIMM's 1800 records would fold (fold_threshold): every one is wanted as a row here. */
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	if ((f = fopen(conf, "we"))) {
		fputs("fold_threshold = off\n", f);
		fclose(f);
	}
	argv[4] = t.root;
	tap_is_int(test_run(argv, log), 0, "rasd --once reads the 64 KiB sub-buffers");
	tap_is_int(test_sql_int(dbpath, "SELECT count(*) FROM mc_event"), 2 * PER_CPU, "every record stored");
	tap_is_int(test_sql_int(dbpath, "SELECT count(DISTINCT trace_ts) FROM mc_event"), 2 * PER_CPU,
		   "each once");
	tap_is_int(test_sql_int(dbpath, "SELECT count(*) FROM mc_event WHERE msg = 'memory read error 899'"
				" AND trace_cpu = 1"), 1, "the last record of the last sub-buffer");
	tap_is_int(test_sql_int(dbpath, "SELECT count FROM lost_events WHERE cpu = 1 AND origin = 'subbuffer'"),
		   11, "the loss between sub-buffers, with its count");
	tap_is_int(test_sql_int(dbpath, "SELECT value FROM counters WHERE name = 'malformed_records'"), -1,
		   "no record read as malformed");
	fake_tree_destroy(&t);
	test_rmtree(tmp);
	return tap_done();
}
