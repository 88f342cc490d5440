/* SPDX-License-Identifier: MIT */
/*
 * Dry runs (issue 32): with dry_run = yes a crossing is recorded as
 * "dry-run" with the write it would have made, whatever the kernel offers,
 * and nothing is written; on a kernel without the interface it says so too,
 * in the record, in rasd's log and in ras-fdr-ctl actions.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tests/actions_fixture.h"
#include "tests/tap.h"
#include "tests/test_util.h"

/* ras-fdr-ctl on the fixture's database, its output read into out. */
static int ctl(const char *arg, char *out, size_t len)
{
	const char *args[] = { arg, NULL };

	return ctl_run(out, len, args);
}

static void file_text(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n = 0;

	if (f) {
		n = fread(out, 1, len - 1, f);
		fclose(f);
	}
	out[n] = 0;
}

/* Three errors on page 0x12345000 (the fixture's page threshold is 3/1h): one crossing. */
static void cross_page(void)
{
	struct fake_tree t;

	tree(&t);
	for (int i = 0; i < 3; i++)
		add_mc(&t, "0x12345678", "1", base_ts + (uint64_t)i * MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "rasd --once on three errors of one page");
	fake_tree_destroy(&t);
}

static void test_dry_without_interface(void)
{
	char buf[8192], want[700], path[700];
	sqlite3 *db;

	fresh_db();
	make_sysfs(false);
	snprintf(path, sizeof(path), "%s/devices/system/memory/soft_offline_page", sysfs);
	unlink(path);
	write_conf("dry_run = yes\n");
	cross_page();
	tap_ok(access(path, F_OK) != 0, "nothing was written: soft_offline_page still does not exist");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	snprintf(buf, sizeof(buf), "SELECT count(*) FROM actions WHERE kind = 'page' AND subject = '0x12345000'"
		 " AND action = 'soft' AND result = 'dry-run' AND errno = %d", EOPNOTSUPP);
	tap_is_int(scalar(db, buf), 1, "the crossing is a dry run, with the kernel's lack of the interface");
	text(db, "SELECT target FROM actions WHERE subject = '0x12345000'", buf, sizeof(buf));
	snprintf(want, sizeof(want), "0x12345000 > %s/devices/system/memory/soft_offline_page", sysfs);
	tap_is_str(buf, want, "with the write it would have made");
	sqlite3_close(db);
	tap_is_int(ctl("actions", buf, sizeof(buf)), 0, "ras-fdr-ctl actions");
	tap_ok(strstr(buf, " soft ") && strstr(buf, "dry-run, and the kernel lacks the interface") &&
	       strstr(buf, want), "says dry-run, that the kernel lacks the interface, and the write (%s)", buf);
	tap_ok(!strstr(buf, "unsupported"), "not 'unsupported'");
	snprintf(path, sizeof(path), "%s/rasd.log", tmp);
	file_text(path, buf, sizeof(buf));
	tap_ok(strstr(buf, "soft: dry-run, and the kernel lacks the interface") != NULL,
	       "rasd's log line says so too");
}

static void test_dry_with_interface(void)
{
	char buf[8192], want[700];
	sqlite3 *db;

	fresh_db();
	make_sysfs(false);
	write_conf("dry_run = yes\n");
	cross_page();
	get("devices/system/memory/soft_offline_page", buf, sizeof(buf));
	tap_is_str(buf, "", "nothing was written to soft_offline_page");
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE kind = 'page' AND subject = '0x12345000'"
			  " AND result = 'dry-run' AND coalesce(errno, 0) = 0"), 1,
		   "the crossing is a dry run, with no error");
	text(db, "SELECT target FROM actions WHERE subject = '0x12345000'", buf, sizeof(buf));
	snprintf(want, sizeof(want), "0x12345000 > %s/devices/system/memory/soft_offline_page", sysfs);
	tap_is_str(buf, want, "with the write it would have made");
	sqlite3_close(db);
	ctl("actions", buf, sizeof(buf));
	tap_ok(strstr(buf, "dry-run") && !strstr(buf, "lacks"), "ras-fdr-ctl actions: a plain dry-run (%s)", buf);
}

/* Without dry_run the missing interface is what it was: unsupported, nothing written. */
static void test_unsupported(void)
{
	char path[700];
	sqlite3 *db;

	fresh_db();
	make_sysfs(false);
	snprintf(path, sizeof(path), "%s/devices/system/memory/soft_offline_page", sysfs);
	unlink(path);
	write_conf("");
	cross_page();
	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	tap_is_int(scalar(db, "SELECT count(*) FROM actions WHERE subject = '0x12345000'"
			  " AND result = 'unsupported'"), 1, "no dry run, no interface: unsupported");
	sqlite3_close(db);
	tap_ok(access(path, F_OK) != 0, "and nothing written");
}

int main(void)
{
	actions_fixture_init();
	test_dry_without_interface();
	test_dry_with_interface();
	test_unsupported();
	actions_fixture_done();
	return tap_done();
}
