/* SPDX-License-Identifier: MIT */
/*
 * A crossed DRAM row acts on every page recorded in it (issue 36,
 * rasd/actions_rows.c), through rasd --once on recorded mc_event pages of one
 * i10nm-style row: soft_offline_page in the fake sysfs tree is a FIFO this
 * test holds open, so every write rasd makes is seen, not only the last.
 * Checked: N pages then a crossing write N offlines, none held back by
 * action_min_interval_s; a restart acts on none again; a later record of a
 * new page of the crossed row acts on it at once, of an old one not; the
 * bound row_pages_max keeps the pages past it out and says so; a dry run
 * records every page as dry-run and writes nothing; actions, status, summary
 * and metrics count the same decisions; a page its own threshold offlined is
 * not written again nor acted on twice on record (another page crossing the
 * row, or the same record crossing both), nor a page its row offlined when
 * its own threshold crosses later; a page offlined in an earlier boot is
 * offlined again (offlining is not kept across a reboot); the kernel's page
 * flags (a fake proc_root/kpageflags) are the answer when they can be read;
 * the daily cap counts a row's crossing once, not its pages.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "actions_fixture.h"
#include "fake_tree.h"
#include "tap.h"

#define ROW "mc0 2:0:-1 rank 1 bank group 2 bank 3 row 0x1a2b"
#define CTL(out, ...) ctl_run(out, sizeof(out), (const char *const[]){ __VA_ARGS__, NULL })

static int fifo = -1;
static char writes[8192];      /* every byte written to the FIFO since start_reader */
static size_t n_writes;
static char out[65536];

/*
 * soft_offline_page as a FIFO, held open for reading and writing by this
 * process: a writer's open never blocks, and its bytes stay in the pipe
 * (64 KiB, far more than a run writes) until written() reads them, after
 * rasd --once has exited, so every write rasd made is there, whatever the
 * machine's speed. (A child reading it and closing it at each writer's end
 * lost a writer that opened just before that close: its bytes went with the
 * last reader.)
 */
static void start_reader(void)
{
	char path[700];

	snprintf(path, sizeof(path), "%s/devices/system/memory/soft_offline_page", sysfs);
	unlink(path);
	n_writes = 0;
	writes[0] = 0;
	if (mkfifo(path, 0600) < 0 || (fifo = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0)
		tap_diag("fifo %s: %s", path, strerror(errno));
}

static void stop_reader(void)
{
	if (fifo >= 0)
		close(fifo);
	fifo = -1;
}

/*
 * The addresses written so far, "0x1000 0x2000 ". Writes are not delimited
 * in the pipe: each value starts with 0x, so they split there.
 */
static int written(char *list, size_t len)
{
	size_t used = 0;
	ssize_t got;
	int n = 0;

	list[0] = 0;
	while (fifo >= 0 && n_writes < sizeof(writes) - 1 &&
	       (got = read(fifo, writes + n_writes, sizeof(writes) - 1 - n_writes)) > 0)
		n_writes += (size_t)got;
	writes[n_writes] = 0;
	for (char *p = strstr(writes, "0x"); p; n++) {
		char *next = strstr(p + 2, "0x");
		size_t l = next ? (size_t)(next - p) : strlen(p);

		while (l && (p[l - 1] == '\n'))
			l--;
		used += (size_t)snprintf(list + used, used < len ? len - used : 0, "%.*s ", (int)l, p);
		p = next;
	}
	return n;
}

/* A corrected error of the row (0x1a2b, or another) at page, i10nm's driver_detail naming it. */
static void add_row_page_of(struct fake_tree *t, const char *row, unsigned long page, uint64_t ts)
{
	char addr[64], detail[256];
	char *assign[] = { "error_type=0", "msg=memory read error", "label=DIMM_C0", "error_count=1",
			   "mc_index=0", "top_layer=2", "middle_layer=0", "lower_layer=-1", addr,
			   "grain_bits=6", "syndrome=0",
			   detail };

	snprintf(addr, sizeof(addr), "address=0x%lx", page + 0x40);
	snprintf(detail, sizeof(detail), "driver_detail= err_code:0x0000:0x009f ProcessorSocketId:0x0"
		 " MemoryControllerId:0x0 PhysicalRankId:0x1 Row:%s Column:0x3f8 Bank:0x3 BankGroup:0x2",
		 row);
	add(t, "ras:mc_event", assign, 12, ts);
}

static void add_row_page(struct fake_tree *t, unsigned long page, uint64_t ts)
{
	add_row_page_of(t, "0x1a2b", page, ts);
}

/* rasd --once on records of the row at these pages (none: a restart with nothing new). */
static int run_pages(const unsigned long *pages, int n, uint64_t ts)
{
	struct fake_tree t;
	int rc;

	tree(&t);
	for (int i = 0; i < n; i++)
		add_row_page(&t, pages[i], ts + (uint64_t)i * MS);
	fake_tree_finish(&t);
	rc = run_rasd(t.root, false);
	fake_tree_destroy(&t);
	return rc;
}

static int64_t q(const char *sql)
{
	sqlite3 *db;
	int64_t v;

	sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL);
	v = scalar(db, sql);
	sqlite3_close(db);
	return v;
}

static const unsigned long five[] = { 0x2468000, 0x2469000, 0x246a000, 0x3468000, 0x3469000 };
static const char conf[] = "row_ce_threshold = 5/1h\npage_ce_threshold = 100/1h\n"
			   "action_min_interval_s = 3600\naction_max_per_day = 100\n";

static void test_row_acts_on_every_page(void)
{
	char list[1024];

	fresh_db();
	make_sysfs(false);
	start_reader();
	write_conf(conf);
	tap_is_int(run_pages(five, 5, base_ts), 0, "five errors on five pages of one row");
	tap_is_int(written(list, sizeof(list)), 5, "five page offlines written (%s)", list);
	tap_ok(strstr(list, "0x3469000") && strstr(list, "0x2468000") && strstr(list, "0x2469000") &&
	       strstr(list, "0x246a000") && strstr(list, "0x3468000"), "one for each page of the row");
	tap_ok(!strncmp(list, "0x3469000 ", 10), "the crossing record's page first, with the row's decision");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'row' AND subject = '" ROW "'"
		     " AND action = 'soft' AND result = 'done'"), 5,
		   "five actions rows, each done, though action_min_interval_s is an hour");
	tap_is_int(q("SELECT count(DISTINCT target) FROM actions WHERE kind = 'row'"), 5,
		   "each names its page's write");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'row' AND target LIKE '0x2468000 >%'"
		     " AND event_id = 1"), 1, "a page's action names the record that first named it");
	tap_is_int(q("SELECT count(*) FROM row_pages WHERE row = '" ROW "' AND acted = 'done'"), 5,
		   "row_pages: the five offlined");

	tap_is_int(run_pages(NULL, 0, base_ts), 0, "a restart with nothing new");
	tap_is_int(written(list, sizeof(list)), 5, "no page acted on again (%s)", list);

	static const unsigned long later[] = { 0x2469000, 0x4468000 };
	tap_is_int(run_pages(later, 2, base_ts + 10 * MS), 0,
		   "later: an old page of the crossed row, then a new one");
	tap_is_int(written(list, sizeof(list)), 6, "one more write (%s)", list);
	tap_ok(strstr(list, "0x4468000 ") && strstr(list, "0x4468000 ") == strrchr(list, 'x') - 1,
	       "for the new page only, without the row crossing again");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'row' AND result = 'done'"
		     " AND threshold = 'crossed row' AND target LIKE '0x4468000 >%'"), 1,
		   "stored as a page of a crossed row");
	stop_reader();
}

/* actions, status, summary and metrics count the same decisions. */
static void views_agree(int64_t done, int64_t other, const char *other_result)
{
	char want[128];

	CTL(out, "actions");
	int lines = 0;
	for (const char *p = out; (p = strstr(p, ROW)); p++)
		lines++;
	tap_is_int(lines, (int)(done + other), "actions lists %lld decisions on the row",
		   (long long)(done + other));
	CTL(out, "status");
	snprintf(want, sizeof(want), "%lld decided", (long long)(done + other));
	tap_ok(strstr(out, want) != NULL, "status: %s", want);
	CTL(out, "summary");
	tap_ok(strstr(out, want) != NULL, "summary: %s", want);
	CTL(out, "metrics");
	snprintf(want, sizeof(want), "ras_fdr_actions_total{action=\"soft\",result=\"%s\"} %lld",
		 done ? "done" : other_result, (long long)(done ? done : other));
	tap_ok(strstr(out, want) != NULL, "metrics: %s", want);
	if (done && other) {
		snprintf(want, sizeof(want), "ras_fdr_actions_total{action=\"soft\",result=\"%s\"} %lld",
			 other_result, (long long)other);
		tap_ok(strstr(out, want) != NULL, "metrics: %s", want);
	}
}

static void test_bound(void)
{
	char list[1024], extra[256];

	fresh_db();
	make_sysfs(false);
	start_reader();
	snprintf(extra, sizeof(extra), "%srow_pages_max = 3\n", conf);
	write_conf(extra);
	tap_is_int(run_pages(five, 5, base_ts), 0, "five pages of one row, row_pages_max = 3");
	tap_is_int(written(list, sizeof(list)), 4,
		   "the three kept and the crossing record's own written (%s)", list);
	tap_ok(!strstr(list, "0x3468000"), "the fourth page, past the bound, is not");
	tap_is_int(q("SELECT count(*) FROM row_pages WHERE row = '" ROW "'"), 3, "three pages kept");
	tap_is_int(q("SELECT over FROM row_state WHERE row = '" ROW "'"), 2, "two counted past the bound");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'row' AND result = 'row-limit' AND"
		     " target = '2 records of pages past row_pages_max (3): not kept'"), 1,
		   "and told once, as a row-limit decision");
	views_agree(4, 1, "row-limit");
	tap_is_int(run_pages(NULL, 0, base_ts), 0, "a restart");
	tap_is_int(q("SELECT count(*) FROM actions WHERE result = 'row-limit'"), 1, "told only once");
	stop_reader();
}

static void test_dry_run(void)
{
	char list[1024], extra[256];

	fresh_db();
	make_sysfs(false);
	start_reader();
	snprintf(extra, sizeof(extra), "%sdry_run = yes\n", conf);
	write_conf(extra);
	tap_is_int(run_pages(five, 5, base_ts), 0, "five pages of one row, dry_run");
	tap_is_int(written(list, sizeof(list)), 0, "nothing written (%s)", list);
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'row' AND result = 'dry-run'"), 5,
		   "five dry-run decisions, one per page");
	views_agree(0, 5, "dry-run");
	stop_reader();
}

/*
 * The rate limit still holds a row's decision back as a whole: a second row
 * crossing within action_min_interval_s acts on none of its pages.
 */
static void test_rate_limited_row(void)
{
	char list[1024];
	struct fake_tree t;

	fresh_db();
	make_sysfs(false);
	start_reader();
	write_conf(conf);
	tree(&t);
	for (int i = 0; i < 5; i++)
		add_row_page_of(&t, "0x1a2b", five[i], base_ts + (uint64_t)i * MS);
	for (int i = 0; i < 5; i++)
		add_row_page_of(&t, "0x1a2c", five[i] + 0x100000, base_ts + (uint64_t)(5 + i) * MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "two rows of five pages cross within the hour");
	fake_tree_destroy(&t);
	tap_is_int(written(list, sizeof(list)), 5, "the first row's five written (%s)", list);
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'row' AND result = 'rate-limited'"
		     " AND subject LIKE '% row 0x1a2c'"), 1,
		   "the second row's crossing is one rate-limited decision");
	tap_is_int(q("SELECT count(*) FROM row_pages WHERE row LIKE '% row 0x1a2c' AND acted IS NULL"), 5,
		   "its pages wait for its next crossing");
	stop_reader();
}

/* The count of addr in the list of writes. */
static int times_written(const char *list, const char *addr)
{
	int n = 0;

	for (const char *p = list; (p = strstr(p, addr)); p += strlen(addr))
		n++;
	return n;
}

/*
 * A page its own threshold offlined is not offlined again by its row: the
 * kernel would take the write as a no-op, but a second "done" in actions is
 * false. First a page that crossed before the row, then a record crossing both.
 */
static void test_page_offlined_first(void)
{
	static const unsigned long pages[] = { 0x2468000, 0x2468000, 0x2469000, 0x246a000, 0x3468000 };
	static const unsigned long same[] = { 0x2468000, 0x2468000, 0x2468000, 0x2468000, 0x2468000 };
	char list[1024];

	fresh_db();
	make_sysfs(false);
	start_reader();
	write_conf("row_ce_threshold = 5/1h\npage_ce_threshold = 2/1h\n"
		   "action_min_interval_s = 3600\naction_max_per_day = 100\n");
	tap_is_int(run_pages(pages, 5, base_ts), 0,
		   "a page crosses its threshold, then the row crosses on another page");
	tap_is_int(written(list, sizeof(list)), 4, "four page offlines written (%s)", list);
	tap_is_int(times_written(list, "0x2468000"), 1, "the page offlined once, by its own threshold");
	tap_is_int(q("SELECT count(*) FROM actions WHERE target LIKE '0x2468000 >%'"), 1,
		   "one action on record for it");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'page' AND subject = '0x2468000'"
		     " AND result = 'done'"), 1, "the page's own decision");
	tap_is_int(q("SELECT count(*) FROM row_pages WHERE row = '" ROW "' AND acted = 'done'"), 4,
		   "row_pages: all four pages offline, the page's own counted");
	tap_is_int(run_pages(NULL, 0, base_ts), 0, "a restart");
	tap_is_int(written(list, sizeof(list)), 4, "nothing written again (%s)", list);
	stop_reader();

	fresh_db();
	make_sysfs(false);
	start_reader();
	write_conf("row_ce_threshold = 5/1h\npage_ce_threshold = 5/1h\n"
		   "action_min_interval_s = 3600\naction_max_per_day = 100\n");
	tap_is_int(run_pages(same, 5, base_ts), 0, "five errors on one page: page and row cross at once");
	tap_is_int(written(list, sizeof(list)), 1, "one page offline written (%s)", list);
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'page' AND result = 'done'"
		     " AND target LIKE '0x2468000 >%'"), 1, "by the page's decision");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'row' AND result = 'done' AND target ="
		     " '0x2468000 offline already (page threshold): nothing written'"), 1,
		   "the row's decision says it wrote nothing");
	tap_is_int(q("SELECT count(*) FROM actions WHERE target LIKE '%>%'"), 1,
		   "no other write on record");
	stop_reader();
}

/*
 * The reverse order: a page its row offlined is not offlined again when its
 * own threshold crosses later; the page's decision writes nothing and says
 * so, as the row's does on a page its own threshold offlined.
 */
static void test_row_offlined_first(void)
{
	static const unsigned long again[] = { 0x2469000, 0x2469000 };
	char list[1024];

	fresh_db();
	make_sysfs(false);
	start_reader();
	write_conf("row_ce_threshold = 5/1h\npage_ce_threshold = 3/1h\n"
		   "action_min_interval_s = 0\naction_max_per_day = 100\n");
	tap_is_int(run_pages(five, 5, base_ts), 0, "the row crosses on five pages");
	tap_is_int(written(list, sizeof(list)), 5, "five page offlines written (%s)", list);
	tap_is_int(run_pages(again, 2, base_ts + MIN), 0, "then one of its pages crosses its own threshold");
	tap_is_int(written(list, sizeof(list)), 5, "nothing written again (%s)", list);
	tap_is_int(times_written(list, "0x2469000"), 1, "the page offlined once, by its row");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'page' AND subject = '0x2469000'"
		     " AND result = 'done' AND target ="
		     " '0x2469000 offline already (row action): nothing written'"), 1,
		   "the page's decision says it wrote nothing");
	tap_is_int(q("SELECT count(*) FROM actions WHERE target LIKE '0x2469000 >%'"), 1,
		   "one write on record for it");

	/* A database of schema 22 kept no boot per page: the upgrade takes its write's. */
	static const unsigned long one[] = { 0x2468000 };
	exec_sql("UPDATE row_pages SET acted_boot = NULL; PRAGMA user_version = 22");
	tap_is_int(run_pages(one, 1, base_ts + 2 * MIN), 0,
		   "upgraded from schema 22 in the same boot, a record of the row");
	tap_is_int(written(list, sizeof(list)), 5, "nothing written again (%s)", list);
	tap_is_int(q("SELECT count(*) FROM row_pages WHERE acted = 'done' AND acted_boot ="
		     " (SELECT max(id) FROM boots)"), 5, "each page has the boot of its write");
	stop_reader();
}

/*
 * Page offlining is not kept across a reboot: a page offlined in an earlier
 * boot is in use again, so that boot's "done" says nothing of now. The
 * stored boot renamed, the next run is another boot: the crossed row's
 * record offlines its pages again (the earlier boot's as new ones), and the
 * page its own threshold offlined then is written too.
 */
static void test_offline_across_boots(void)
{
	static const unsigned long first[] = { 0x2468000, 0x2468000, 0x2468000, 0x2469000, 0x246a000 };
	static const unsigned long second[] = { 0x3468000, 0x3469000, 0x2469000, 0x246a000, 0x2468000 };
	static const char *const each[] = { "0x2468000", "0x2469000", "0x246a000", "0x3468000", "0x3469000" };
	static const int times[] = { 2, 2, 2, 1, 1 };
	char list[1024];

	fresh_db();
	make_sysfs(false);
	start_reader();
	write_conf("row_ce_threshold = 5/1h\npage_ce_threshold = 3/1h\n"
		   "action_min_interval_s = 0\naction_max_per_day = 100\n");
	tap_is_int(run_pages(first, 5, base_ts), 0, "boot 1: a page crosses its threshold, then its row");
	tap_is_int(written(list, sizeof(list)), 3, "three pages offlined (%s)", list);
	exec_sql("UPDATE boots SET boot_id = 'an earlier boot'");
	tap_is_int(run_pages(second, 5, base_ts + MIN), 0, "boot 2: five more records of the row");
	tap_is_int(written(list, sizeof(list)), 8, "every page of the row offlined in this boot (%s)", list);
	for (int i = 0; i < 5; i++)
		tap_is_int(times_written(list, each[i]), times[i], "%s written %d times", each[i], times[i]);
	tap_is_int(q("SELECT count(*) FROM actions a JOIN boots b ON b.id = a.boot"
		     " WHERE b.boot_id <> 'an earlier boot' AND a.target LIKE '%(page threshold)%'"), 0,
		   "no page called offline for its own threshold of the earlier boot");
	stop_reader();
}

/* kpageflags as the kernel lays it out: 8 bytes a page frame, host order; bit 19 KPF_HWPOISON. */
static void kpageflags(unsigned long poisoned)
{
	char path[600];
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), flags = 1ULL << 19, zero = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/proc", tmp);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/kpageflags", tmp);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0400);
	/* Past the last page of the test: a page frame beyond the file would be unknown. */
	if (fd < 0 || pwrite(fd, &zero, 8, (off_t)(0x5000000 / page * 8)) != 8 ||
	    (poisoned && pwrite(fd, &flags, 8, (off_t)(poisoned / page * 8)) != 8))
		tap_diag("kpageflags %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * When the kernel's page flags can be read they are the answer: a page it
 * holds poisoned is not written by the row; a page the row offlined that
 * the kernel holds in use (unpoisoned) is written by its own threshold.
 */
static void test_kernel_page_flags(void)
{
	static const unsigned long again[] = { 0x246a000, 0x246a000 };
	char list[1024], path[600];

	fresh_db();
	make_sysfs(false);
	start_reader();
	kpageflags(0x2469000);
	write_conf("row_ce_threshold = 5/1h\npage_ce_threshold = 3/1h\n"
		   "action_min_interval_s = 0\naction_max_per_day = 100\n");
	tap_is_int(run_pages(five, 5, base_ts), 0, "the row crosses on five pages, one poisoned");
	tap_is_int(written(list, sizeof(list)), 4, "four page offlines written (%s)", list);
	tap_is_int(times_written(list, "0x2469000"), 0, "none for the page the kernel holds poisoned");
	tap_is_int(q("SELECT count(*) FROM row_pages WHERE acted = 'done'"), 5, "all five offline");
	kpageflags(0);
	tap_is_int(run_pages(again, 2, base_ts + MIN), 0, "then a page crosses its own threshold");
	tap_is_int(written(list, sizeof(list)), 5, "it is written: the kernel has it in use (%s)", list);
	tap_is_int(times_written(list, "0x246a000"), 2, "the page written by its row and its own threshold");
	snprintf(path, sizeof(path), "%s/proc/kpageflags", tmp);
	unlink(path);
	stop_reader();
}

/*
 * action_max_per_day counts decisions: a row's crossing is one, whatever
 * number of pages it offlines (row_pages_max bounds those). Three rows of
 * five pages, a cap of two: two rows offline their ten pages, the third is
 * capped and its pages wait.
 */
static void test_cap_counts_rows(void)
{
	static const char *const rows[] = { "0x1a2b", "0x1a2c", "0x1a2d" };
	char list[1024];
	struct fake_tree t;

	fresh_db();
	make_sysfs(false);
	start_reader();
	write_conf("row_ce_threshold = 5/1h\npage_ce_threshold = 100/1h\n"
		   "action_min_interval_s = 0\naction_max_per_day = 2\n");
	tree(&t);
	for (int r = 0; r < 3; r++)
		for (int i = 0; i < 5; i++)
			add_row_page_of(&t, rows[r], five[i] + (unsigned long)r * 0x100000,
					base_ts + (uint64_t)(r * 5 + i) * MS);
	fake_tree_finish(&t);
	tap_is_int(run_rasd(t.root, false), 0, "three rows of five pages cross, action_max_per_day = 2");
	fake_tree_destroy(&t);
	tap_is_int(written(list, sizeof(list)), 10, "two rows' ten pages written (%s)", list);
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'row' AND result = 'done'"
		     " AND threshold = 'crossed row'"), 8, "eight pages stored as a crossed row's");
	tap_is_int(q("SELECT count(*) FROM actions WHERE kind = 'row' AND result = 'capped'"
		     " AND subject LIKE '% row 0x1a2d'"), 1, "the third row's crossing capped");
	tap_is_int(q("SELECT count(*) FROM row_pages WHERE row LIKE '% row 0x1a2d' AND acted IS NULL"), 5,
		   "its pages wait for its next crossing");
	stop_reader();
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	actions_fixture_init();
	test_row_acts_on_every_page();
	test_bound();
	test_dry_run();
	test_rate_limited_row();
	test_page_offlined_first();
	test_row_offlined_first();
	test_offline_across_boots();
	test_kernel_page_flags();
	test_cap_counts_rows();
	actions_fixture_done();
	return tap_done();
}
