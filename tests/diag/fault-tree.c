/* SPDX-License-Identifier: MIT */
/*
 * Test helper: writes a tracing tree holding a fault stream of
 * bench/fault_stream.c, for the shell tests and the QEMU scenarios.
 *   fault-tree SPELLING FROM TO [EXTRA...]
 * writes errors [FROM, TO) of the stream in that spelling ("skx", "ghes", ...)
 * into a fresh tree and prints its root. EXTRA: "missed=N" (the next page says
 * the kernel dropped N records; -1: a count it did not know), "disk" (a failed read of sda's medium).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench/fault_stream.h"
#include "tests/fake_tree.h"
#include "tests/test_util.h"

static int extra(struct fake_tree *t, const char *what, uint64_t ts)
{
	uint8_t rec[512];
	char *disk[] = { "dev=8388608", "sector=123456", "nr_sector=8", "error=-61", "rwbs=R",
			 "cmd=" };
	int len;

	if (!strncmp(what, "missed=", 7)) {
		fake_mark_missed(t, 0, atoll(what + 7));
		return 0;
	}
	if (strcmp(what, "disk"))
		return -1;
	len = fake_record(t, "block:block_rq_error", disk, 6, rec, sizeof(rec));
	if (len < 0)
		return len;
	/* A new page for the time gap, unless one is due already (with a loss to say). */
	if (!t->cpu[0].missed)
		fake_mark_missed(t, 0, 0);
	return fake_add(t, 0, ts, rec, (uint32_t)len);
}

int main(int argc, char **argv)
{
	struct fake_tree t;
	struct timespec now;
	char formats[1024];
	uint64_t base;
	int sp;

	if (argc < 4)
		return 2;
	for (sp = 0; sp < FS_N && strcmp(fs_spelling_name((enum fs_spelling)sp), argv[1]); sp++)
		;
	if (sp == FS_N)
		return 2;
	/* Ten minutes back on the boot clock: the records' wall times are recent. */
	clock_gettime(CLOCK_BOOTTIME, &now);
	base = ((uint64_t)now.tv_sec - 600) * 1000000000ULL;
	snprintf(formats, sizeof(formats), "%s/formats", test_srcdir());
	if (fake_tree_create(&t, formats, 1, "rasd", "boot") < 0)
		return 1;
	if (fs_write_range(&t, (enum fs_spelling)sp, 0x5eed5eedULL, base, (unsigned)atoi(argv[2]),
			   (unsigned)atoi(argv[3]), NULL) < 0)
		return 1;
	for (int i = 4; i < argc; i++)
		if (extra(&t, argv[i], base + 100 * 3600ULL * 1000000000ULL + (uint64_t)i) < 0)
			return 1;
	if (fake_tree_finish(&t) < 0)
		return 1;
	/* The tree stays for the caller: only the formats are let go. */
	ras_formats_free(t.fmt);
	printf("%s\n", t.root);
	return 0;
}
