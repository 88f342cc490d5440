/* SPDX-License-Identifier: MIT */
/*
 * Malformed pages while the database fails: rasd --once replays a tree
 * (Linux 6.18 formats, one CPU) under the storage fault shim
 * (tests/fault-shim.c) with every WAL write failing (EIO). Its pages:
 *   A  3 records          read, inserted, rolled back by the failing commit
 *   B  commit past the end: malformed, its row made in that same transaction
 *   C  7,500 records (some 300 pages), led by a kernel drop mark of 7;
 *      the first commit (every 4 records) fails in C
 *   D  commit past the end: malformed, read while storage is failing
 *   E  a record of an unknown event id, then 5 records
 * Once the fault clears, everything held is stored: 7,508 records, the drop
 * mark once, each malformed page once (count unknown), the unknown id once.
 */
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fake_tree.h"
#include "lib/fileio.h"
#include "tap.h"
#include "test_util.h"

#define C_RECORDS 7500
#define STORED (3 + C_RECORDS + 5)

static char tmp[256], db[600], ctl[600], logpath[600], conf[600];
static unsigned long seq;

static int64_t scalar(const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t v = -999;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return v;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* n records of about 150 bytes (type_len 0), then the page is written out. */
static int pages_of(struct fake_tree *t, unsigned n, long long missed_before_next)
{
	char msg[100], addr[48], *assign[] = { msg, addr, "error_type=1" };
	uint8_t rec[512];

	memset(msg, 'm', sizeof(msg) - 1);
	memcpy(msg, "msg=", 4);
	msg[84] = 0;
	for (unsigned i = 0; i < n; i++) {
		int len;

		snprintf(addr, sizeof(addr), "address=%lu", seq);
		len = fake_record(t, "ras:mc_event", assign, 3, rec, sizeof(rec));
		if (len < 0 || fake_add(t, 0, 1000000 + seq * 1000, rec, (uint32_t)len) < 0)
			return -1;
		seq++;
	}
	fake_mark_missed(t, 0, missed_before_next);
	return 0;
}

/* Rewrites page k's commit to the page size: the data would run past the page's end. */
static int break_commit(struct fake_tree *t, unsigned k)
{
	char path[700];
	uint64_t commit = t->page_size;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu0/trace_pipe_raw", t->instance);
	f = fopen(path, "r+e");
	if (!f)
		return -1;
	ok = fseek(f, (long)k * t->page_size + 8, SEEK_SET) == 0 && fwrite(&commit, 8, 1, f) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* An event id no format has, in a record of its own at the end of page E. */
static int unknown_record(struct fake_tree *t)
{
	uint8_t rec[16] = { 0 };
	uint16_t id = 9999;

	memcpy(rec, &id, 2);
	return fake_add(t, 0, 1000000 + seq++ * 1000, rec, sizeof(rec));
}

static unsigned pages(struct fake_tree *t)
{
	return t->cpu[0].pages;
}

/*
 * C spans more pages than rasd reads at once (256), so D is read after
 * the first commit failed. Returns the index of page D.
 */
static int build(struct fake_tree *t, const char *formats)
{
	unsigned d;

	if (fake_tree_create(t, formats, 1, "rasd", "boot") < 0 ||
	    pages_of(t, 3, 0) < 0 || pages_of(t, 2, 7) < 0 || pages_of(t, C_RECORDS, 0) < 0)
		return -1;
	d = pages(t);
	if (pages_of(t, 2, 0) < 0 || unknown_record(t) < 0 || pages_of(t, 5, 0) < 0)
		return -1;
	fake_tree_finish(t);
	tap_diag("pages: A 0, B 1, C 2-%u, D %u, E %u", d - 1, d, d + 1);
	return break_commit(t, 1) < 0 || break_commit(t, d) < 0 ? -1 : (int)d;
}

static pid_t start_rasd(const char *tree, bool shim)
{
	char rasd[1024], lock[600], shim_path[1024];
	pid_t pid;

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	snprintf(shim_path, sizeof(shim_path), "%s/tests/fault-shim.so", test_builddir());
	pid = fork();
	if (pid == 0) {
		char *argv[] = { rasd, "--config", conf, "--tracing-dir", (char *)tree, "--db", db,
				 "--lock-dir", lock, "--once", NULL };

		if (!freopen(logpath, "a", stderr))
			_exit(126);
		if (shim) {
			setenv("LD_PRELOAD", shim_path, 1);
			setenv("RAS_FAULT_CTL", ctl, 1);
			/* Under AddressSanitizer the shim comes before its runtime: allow that. */
			const char *asan = getenv("ASAN_OPTIONS");
			char opts[512];

			snprintf(opts, sizeof(opts), "%s%sverify_asan_link_order=0", asan ? asan : "",
				 asan && *asan ? ":" : "");
			setenv("ASAN_OPTIONS", opts, 1);
		}
		execv(rasd, argv);
		_exit(127);
	}
	return pid;
}

static bool log_has(const char *what)
{
	char *text;
	bool found = false;

	if (ras_read_file(logpath, &text, NULL) == 0) {
		found = strstr(text, what) != NULL;
		free(text);
	}
	return found;
}

static void write_ctl(const char *line)
{
	FILE *f = fopen(ctl, "we");

	if (f) {
		fputs(line, f);
		fclose(f);
	}
}

static int wait_exit(pid_t pid, int seconds)
{
	int status;

	for (int i = 0; i < seconds * 50; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		sleep_ms(20);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static void setup(void)
{
	FILE *f;

	snprintf(db, sizeof(db), "%s/ras.db", tmp);
	snprintf(ctl, sizeof(ctl), "%s/fault", tmp);
	snprintf(logpath, sizeof(logpath), "%s/rasd.log", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	f = fopen(conf, "we");
	if (f) {
		/* A commit every 4 records: the first falls inside page C. */
		fprintf(f, "batch_max_records = 4\nboot_instance =\npersistent_instance =\n"
			"fdr_enable = no\n");
		fclose(f);
	}
	write_ctl("");
}

static void check(void)
{
	tap_is_int(scalar("SELECT count(*) FROM mc_event"), STORED, "the %d records of pages A, "
		   "C, E stored", STORED);
	tap_is_int(scalar("SELECT count(DISTINCT address) FROM mc_event"), STORED, "none twice");
	tap_is_int(scalar("SELECT count(*) FROM lost_events WHERE origin = 'malformed'"), 2,
		   "both malformed pages stored as lost once: the one rolled back and the one "
		   "found while failing");
	tap_is_int(scalar("SELECT count(*) FROM lost_events WHERE origin = 'malformed' AND "
			  "count IS NULL"), 2, "with their count unknown");
	tap_is_int(scalar("SELECT coalesce(sum(count), 0) FROM lost_events WHERE origin = "
			  "'subbuffer'"), 7, "the kernel's drop mark (7) stored once");
	tap_is_int(scalar("SELECT coalesce(sum(value), 0) FROM counters WHERE name = "
			  "'unknown_event_records'"), 1, "the unknown event id counted once");
	tap_is_int(scalar("SELECT count(*) FROM lost_events WHERE origin NOT IN ('malformed', "
			  "'subbuffer')"), 0, "no other loss");
}

int main(void)
{
	char formats[1024], shim[1024];
	struct fake_tree empty = { 0 }, t = { 0 };
	pid_t pid;

	snprintf(shim, sizeof(shim), "%s/tests/fault-shim.so", test_builddir());
	if (access(shim, R_OK) != 0)
		tap_skip_all("no fault shim");
	if (test_tmpdir(tmp, sizeof(tmp)) < 0)
		tap_skip_all("no temporary directory");
	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	setup();
	/* The database is made first, without faults, from an empty tree. */
	if (!tap_ok(fake_tree_create(&empty, formats, 1, "rasd", "boot") == 0 &&
		    fake_tree_finish(&empty) == 0 && wait_exit(start_rasd(empty.root, false), 60) == 0,
		    "database made"))
		goto out;
	if (!tap_ok(build(&t, formats) > 256, "tree of pages A-E built, D past the first read"))
		goto out;
	/* From rasd's first read of the tree on: the database opens, the first commit fails. */
	write_ctl("pwrite -wal 5 trace_pipe_raw\n");
	pid = start_rasd(t.root, true);
	for (int i = 0; i < 1000 && !log_has("storage failing since"); i++)
		sleep_ms(20);
	tap_ok(log_has("storage failing since"), "the commit fails under the shim (EIO on the WAL)");
	sleep_ms(300);   /* a retry or two fail too */
	write_ctl("");
	tap_is_int(wait_exit(pid, 60), 0, "rasd --once stores everything once the fault clears, "
		   "exit 0");
	check();
out:
	fake_tree_destroy(&t);
	fake_tree_destroy(&empty);
	if (getenv("RAS_TEST_KEEP"))
		tap_diag("kept %s", tmp);
	else
		test_rmtree(tmp);
	return tap_done();
}
