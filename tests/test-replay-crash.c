/* SPDX-License-Identifier: MIT */
/*
 * kill -9 at random moments of a replayed storm: a fake tracing tree (two
 * CPUs, Linux 6.18 formats) grows by a chunk of mc_event records per round,
 * each chunk led by a kernel drop mark of a known count and followed by a
 * malformed page; rasd --once replays it into one database and is killed at
 * a random moment, KILLS times. After each kill a copy of the database is
 * finished by a fresh rasd --once (a restart): stored + counted as lost must
 * equal what the tree holds, exactly, with no record stored twice and each
 * malformed page counted once (count unknown). Needs no root.
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
#include "tap.h"
#include "test_util.h"

#define KILLS 22
#define MAX_ROUNDS 60
#define CHUNK 1500    /* records per CPU and round */
#define CPUS 2

static char tmp[256], conf[600], rasd_bin[1024];
static unsigned long long emitted;  /* records in the tree plus the drops its marks announce */
static int64_t malformed_pages;     /* pages made malformed: one loss of unknown count each */
static unsigned long seq;

static int64_t scalar(const char *db_path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int add_records(struct fake_tree *t, unsigned cpu, unsigned round, unsigned from,
		       unsigned n)
{
	char addr[48], *assign[] = { "msg=replay-crash", addr, "error_type=1" };
	uint8_t rec[512];

	for (unsigned i = from; i < from + n; i++) {
		uint64_t ts = 1000000000ULL + (uint64_t)round * 10000000ULL + i * 1000ULL;
		int len;

		snprintf(addr, sizeof(addr), "address=%lu", seq++);
		len = fake_record(t, "ras:mc_event", assign, 3, rec, sizeof(rec));
		if (len < 0 || fake_add(t, cpu, ts, rec, (uint32_t)len) < 0)
			return -1;
	}
	return 0;
}

/* The page just written gets a commit past its end: malformed, its records never delivered. */
static int break_last_page(struct fake_tree *t, unsigned cpu)
{
	uint64_t commit = t->page_size;
	long at = (long)(t->cpu[cpu].pages - 1) * t->page_size + 8;
	FILE *f = t->cpu[cpu].raw;

	fflush(f);
	if (fseek(f, at, SEEK_SET) < 0 || fwrite(&commit, 8, 1, f) != 1)
		return -1;
	return fseek(f, 0, SEEK_END);
}

/*
 * One more chunk per CPU, written out: its records, then a page of two
 * records made malformed; the next chunk's first page carries a drop mark.
 */
static int grow(struct fake_tree *t, unsigned round)
{
	for (unsigned cpu = 0; cpu < CPUS; cpu++) {
		if (add_records(t, cpu, round, 0, CHUNK) < 0)
			return -1;
		emitted += CHUNK;
		/* The mark of the round before is on this round's first page, written by now. */
		if (round)
			emitted += 3 + (round - 1) % 5;
		fake_mark_missed(t, cpu, 0);
		if (add_records(t, cpu, round, CHUNK, 2) < 0)
			return -1;
		fake_mark_missed(t, cpu, 3 + round % 5);
		if (break_last_page(t, cpu) < 0)
			return -1;
		malformed_pages++;
		fflush(t->cpu[cpu].raw);
	}
	return 0;
}

static pid_t start_rasd(const char *tree, const char *db)
{
	char lock[600], log[600];
	pid_t pid;

	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { rasd_bin, "--config", conf, "--tracing-dir", (char *)tree, "--db",
				 (char *)db, "--lock-dir", lock, "--once", NULL };

		if (!freopen(log, "a", stderr))
			_exit(126);
		execv(rasd_bin, argv);
		_exit(127);
	}
	return pid;
}

static void copy(const char *from, const char *to)
{
	unlink(to);
	if (access(from, F_OK) == 0)
		test_run((char *const[]){ "/bin/cp", (char *)from, (char *)to, NULL }, NULL);
}

/* A restart on a copy of the killed rasd's database, run to the end; returns its wall ms. */
static long long check_restart(const char *tree, const char *db, unsigned kill_no)
{
	char copy_db[600], from[700], to[700];
	const char *suffix[] = { "", "-wal", "-shm" };
	int64_t stored, lost, distinct, unknown;
	long long t0;
	int status;
	pid_t pid;

	snprintf(copy_db, sizeof(copy_db), "%s/restart.db", tmp);
	for (unsigned i = 0; i < 3; i++) {
		snprintf(from, sizeof(from), "%s%s", db, suffix[i]);
		snprintf(to, sizeof(to), "%s%s", copy_db, suffix[i]);
		copy(from, to);
	}
	t0 = now_ms();
	pid = start_rasd(tree, copy_db);
	waitpid(pid, &status, 0);
	t0 = now_ms() - t0;
	stored = scalar(copy_db, "SELECT count(*) FROM mc_event");
	distinct = scalar(copy_db, "SELECT count(DISTINCT address) FROM mc_event");
	lost = scalar(copy_db, "SELECT coalesce(sum(count), 0) FROM lost_events");
	unknown = scalar(copy_db, "SELECT count(*) FROM lost_events WHERE count IS NULL"
			 " AND origin = 'malformed'");
	if (!tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && stored + lost ==
		    (int64_t)emitted && distinct == stored && unknown == malformed_pages,
		    "kill %u, restart: stored %lld + lost %lld = emitted %llu, no duplicate "
		    "(%lld distinct), each of the %lld malformed pages once (%lld)", kill_no,
		    (long long)stored, (long long)lost, emitted, (long long)distinct,
		    (long long)malformed_pages, (long long)unknown))
		tap_diag("restart status %d", status);
	return t0;
}

/* Whether the killed rasd had stored part, not none or all, of what was new to it. */
static unsigned note_kill(const char *db, long long delay)
{
	static int64_t before;
	int64_t now = scalar(db, "SELECT count(*) FROM mc_event");
	bool mid = now > before && now < (int64_t)emitted;

	tap_diag("killed after %lld ms: %lld of %llu emitted stored%s", delay, (long long)now,
		 emitted, mid ? " (mid-replay)" : "");
	if (now > 0)
		before = now;
	return mid;
}

static void write_conf(void)
{
	FILE *f;

	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	f = fopen(conf, "we");
	if (!f)
		return;
	/* Small batches: many commits, so a kill lands between, inside and after them. */
	fprintf(f, "batch_max_records = 97\nboot_instance =\npersistent_instance =\n"
		"fdr_enable = no\nlog_corrected_per_minute = 0\n");
	fclose(f);
}

int main(void)
{
	char formats[1024], db[600];
	struct fake_tree t = { 0 };
	unsigned killed = 0, round = 0, mid = 0;
	long long full_ms = 200;
	unsigned seed = (unsigned)time(NULL);

	if (getenv("RAS_CRASH_SEED"))
		seed = (unsigned)strtoul(getenv("RAS_CRASH_SEED"), NULL, 0);
	tap_diag("kill seed %u (RAS_CRASH_SEED to repeat)", seed);
	srand(seed);
	if (test_tmpdir(tmp, sizeof(tmp)) < 0)
		tap_skip_all("no temporary directory");
	snprintf(rasd_bin, sizeof(rasd_bin), "%s/rasd/rasd", test_builddir());
	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.18", test_srcdir());
	snprintf(db, sizeof(db), "%s/ras.db", tmp);
	write_conf();
	if (!tap_ok(fake_tree_create(&t, formats, CPUS, "rasd", "boot") == 0, "tree made"))
		goto out;
	while (killed < KILLS && round < MAX_ROUNDS) {
		long long delay, t0;
		int status;
		pid_t pid;

		if (grow(&t, round++) < 0) {
			tap_ok(0, "round %u: records added", round);
			break;
		}
		/* Anywhere from before the database is open to about the end of a whole run. */
		delay = rand() % (full_ms + 1);
		t0 = now_ms();
		pid = start_rasd(t.root, db);
		while (waitpid(pid, &status, WNOHANG) == 0) {
			if (now_ms() - t0 < delay) {
				sleep_ms(2);
				continue;
			}
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			killed++;
			mid += note_kill(db, delay);
			/* The next kill falls anywhere in a run about as long as this restart's. */
			full_ms = check_restart(t.root, db, killed) + 20;
			break;
		}
		if (!WIFSIGNALED(status))
			full_ms = now_ms() - t0;  /* it finished first: aim within its run */
	}
	tap_is_int(killed, KILLS, "rasd killed with SIGKILL %d times at random moments of the replay "
		   "(%u rounds, %llu emitted)", KILLS, round, emitted);
	tap_ok(mid > 0, "%u of the kills fell while the replay was being stored (the others "
	       "before its first commit or after its last)", mid);
	/* The killed database itself, finished by one more rasd. */
	check_restart(t.root, db, killed + 1);
out:
	fake_tree_destroy(&t);
	if (getenv("RAS_TEST_KEEP"))
		tap_diag("kept %s", tmp);
	else
		test_rmtree(tmp);
	return tap_done();
}
