/* SPDX-License-Identifier: MIT */
/*
 * The full ADXL form of an skx/i10nm driver_detail (issue 32): about 275
 * bytes of components before the retry_rd_err_log words fill the kernel's
 * 1 KiB buffer (drivers/edac/skx_common.c), with Row:, Bank: and BankGroup:
 * past the 192 bytes ras-fdr once kept. Two errors in one DRAM row must
 * reach the row bucket, cross 2/1h and ask the EDAC memory repair of mc0
 * for that row; the detail is shown whole.
 */
#include <stdio.h>
#include <string.h>
#include "tests/actions_fixture.h"
#include "tests/tap.h"
#include "tests/test_util.h"

static char out[65536];

/* The detail as i10nm_edac builds it with ADXL and the retry read error log, 1023 bytes. */
static void adxl_detail(char *buf, size_t len)
{
	int k = snprintf(buf, len, " err_code:0x0000:0x009f SystemAddress:0x1f2468000 ProcessorSocketId:0x0"
			 " MemoryControllerId:0x0 ChannelAddress:0x3e48d000 ChannelId:0x1 RankAddress:0x1f246800"
			 " PhysicalRankId:0x1 DimmSlotId:0x0 DimmRankId:0x1 Row:0x2a5b Column:0x3f8 Bank:0x3"
			 " BankGroup:0x2 ChipSelect:0x1 ChipId:0x0 retry_rd_err_log[");

	while (k < 1022)
		k += snprintf(buf + k, len - (size_t)k, "%08x ", 0x10000000u + (unsigned)k);
	buf[1022] = ']';
	buf[1023] = 0;
}

int main(void)
{
	static const char *const attrs[] = { "rank", "bank_group", "bank", "row", "column", "repair" };
	char detail[1100], assign_detail[1200], buf[256];
	struct fake_tree t;
	sqlite3 *db;

	actions_fixture_init();
	make_sysfs(false);
	/* An EDAC memory repair of mc0 offering post-package repair (sysfs-edac-memory-repair). */
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "bus/edac/devices/mc0/mem_repair0/%s", attrs[i]);
		put(rel, "");
	}
	put("bus/edac/devices/mc0/mem_repair0/repair_type", "ppr\n");
	write_conf("");
	adxl_detail(detail, sizeof(detail));
	tap_is_int((int)strlen(detail), 1023, "the detail fills the kernel's 1 KiB buffer");
	tap_ok(strstr(detail, "Row:") - detail > 192, "Row: lies past byte 192 (%ld)",
	       (long)(strstr(detail, "Row:") - detail));
	snprintf(assign_detail, sizeof(assign_detail), "driver_detail=%s", detail);
	tree(&t);
	for (int i = 0; i < 2; i++) {
		char a[64];
		char *assign[] = { "error_type=0", "msg=memory read error", "label=CPU_SrcID#0_MC#0_Chan#1_DIMM#0",
				   "error_count=1", "mc_index=0", "top_layer=1", "middle_layer=0",
				   "lower_layer=-1", a, "grain_bits=6", "syndrome=0", assign_detail };

		snprintf(a, sizeof(a), "address=0x%llx", 0x1f2468000ULL + (unsigned long long)i * 0x40);
		add(&t, "ras:mc_event", assign, 12, base_ts + (uint64_t)i * MS);
	}
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "rasd --once on two errors in one row");
	fake_tree_destroy(&t);
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'row' AND action = 'repair'"
			  " AND result = 'done' AND subject = 'mc0 1:0:-1 rank 1 bank group 2 bank 3 row 0x2a5b'"), 1,
		   "the row crosses 2/1h and is repaired");
	sqlite3_close(db);
	get("bus/edac/devices/mc0/mem_repair0/row", buf, sizeof(buf));
	tap_is_str(buf, "10843", "mem_repair0/row = 0x2a5b");
	get("bus/edac/devices/mc0/mem_repair0/bank", buf, sizeof(buf));
	tap_is_str(buf, "3", "mem_repair0/bank = 3");
	get("bus/edac/devices/mc0/mem_repair0/bank_group", buf, sizeof(buf));
	tap_is_str(buf, "2", "mem_repair0/bank_group = 2");
	get("bus/edac/devices/mc0/mem_repair0/rank", buf, sizeof(buf));
	tap_is_str(buf, "1", "mem_repair0/rank = 1");
	get("bus/edac/devices/mc0/mem_repair0/column", buf, sizeof(buf));
	tap_is_str(buf, "1016", "mem_repair0/column = 0x3f8");
	get("bus/edac/devices/mc0/mem_repair0/repair", buf, sizeof(buf));
	tap_is_str(buf, "1", "mem_repair0/repair = 1");
	ctl_run(out, sizeof(out), (const char *const[]){ "errors", NULL });
	tap_ok(strstr(out, detail + 1) != NULL, "errors shows the detail whole");
	tap_ok(strstr(out, "replace the DIMM if its corrected count keeps rising") != NULL,
	       "and the advice after it");
	actions_fixture_done();
	return tap_done();
}
