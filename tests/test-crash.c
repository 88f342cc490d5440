/* SPDX-License-Identifier: MIT */
/*
 * kill -9 at random moments of a live storm: a writer puts 5,000 synthetic
 * mc_event records a second straight into the instance's trace_marker_raw
 * (each with its own address), rasd is killed KILLS times and restarted;
 * after the last restart has stored everything, stored + counted as lost
 * must equal emitted exactly, with no record stored twice. Needs root and
 * tracefs (exit 77 otherwise).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/formats.h"
#include "lib/synthetic.h"
#include "tap.h"
#include "test_util.h"

#define TRACING "/sys/kernel/tracing"
#define KILLS 22
#define RATE 6000            /* records per second */
#define BURST 10             /* records per wake-up of the writer */

static char tmp[256], conf[600], dbpath[600], inst_dir[512], logpath[600];
static char instance[64];
static volatile sig_atomic_t stop_writing;

static void on_usr1(int sig)
{
	(void)sig;
	stop_writing = 1;
}

static pid_t start_rasd(void)
{
	char rasd[1024];
	char *argv[] = { rasd, "--config", conf, NULL };
	pid_t pid;

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	pid = fork();
	if (pid == 0) {
		int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(rasd, argv);
		_exit(127);
	}
	return pid;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static bool wait_path(const char *path, int seconds)
{
	for (int i = 0; i < seconds * 100; i++) {
		if (access(path, F_OK) == 0)
			return true;
		sleep_ms(10);
	}
	return false;
}

/* The first rasd resizes the new buffer, which refuses writes meanwhile: wait for it. */
static bool wait_configured(int seconds)
{
	char path[600], *text;

	snprintf(path, sizeof(path), "%s/buffer_size_kb", inst_dir);
	for (int i = 0; i < seconds * 100; i++) {
		bool done = false;

		if (ras_read_file(path, &text, NULL) == 0) {
			done = atoi(text) >= 8192;   /* rounded up to whole pages */
			free(text);
		}
		if (done)
			return true;
		sleep_ms(10);
	}
	return false;
}

/* One synthetic mc_event whose address is its sequence number. */
static int build(struct tep_event *ev, unsigned long seq, uint8_t *buf, size_t cap)
{
	char addr[48], err[256];
	char *assign[] = { "msg=crash-test", addr, "error_type=1" };

	snprintf(addr, sizeof(addr), "address=%lu", seq);
	return ras_synth_build(ev, "ras", assign, 3, buf, cap, err, sizeof(err));
}

/* The writer: RATE records a second until SIGUSR1; reports written and refused. */
static void writer(int report_fd)
{
	struct ras_formats *fmt;
	const struct ras_event_type *t = ras_event_type_find("ras:mc_event");
	unsigned long written = 0, refused = 0;
	struct timespec next;
	uint8_t buf[RAS_SYNTH_MAX + 256];
	char path[600];
	int fd;

	signal(SIGUSR1, on_usr1);
	snprintf(path, sizeof(path), "%s/trace_marker_raw", inst_dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || ras_formats_load(&fmt, TRACING, inst_dir, NULL) < 0 ||
	    !fmt->type[t - ras_event_types].event)
		_exit(2);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!stop_writing) {
		for (int i = 0; i < BURST; i++) {
			int len = build(fmt->type[t - ras_event_types].event, written + refused,
					buf, sizeof(buf));

			if (len > 0 && write(fd, buf, (size_t)len) == len) {
				written++;
			} else {
				if (getenv("RAS_CRASH_DEBUG") && refused % 100 == 0) {
					struct timespec now;

					clock_gettime(CLOCK_REALTIME, &now);
					fprintf(stderr, "refused %lu at %ld.%09ld: %s\n", refused,
						(long)now.tv_sec, now.tv_nsec, strerror(errno));
				}
				refused++;
			}
		}
		next.tv_nsec += 1000000000L / (RATE / BURST);
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR &&
		       !stop_writing)
			;
	}
	unsigned long out[2] = { written, refused };
	if (write(report_fd, out, sizeof(out)) != (ssize_t)sizeof(out))
		_exit(3);
	_exit(0);
}

static int64_t scalar(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, 2000);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

static int64_t stored(void)
{
	return scalar("SELECT count(*) FROM mc_event WHERE msg = 'crash-test'");
}

static int64_t lost(void)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "SELECT coalesce(sum(count), 0) FROM lost_events"
		 " WHERE instance = '%s'", instance);
	return scalar(sql);
}

static void setup_files(void)
{
	FILE *f;

	snprintf(instance, sizeof(instance), "rasd_crash_%d", (int)getpid());
	snprintf(inst_dir, sizeof(inst_dir), TRACING "/instances/%s", instance);
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	snprintf(logpath, sizeof(logpath), "%s/rasd.log", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	f = fopen(conf, "we");
	if (!f)
		return;
	/* A buffer large enough that nothing is refused while rasd restarts. */
	fprintf(f, "database = %s\nlock_dir = %s/lock\ninstance = %s\nallow_synthetic = yes\ncrash_harvest = no\n"
		"buffer_size_kb = 8192\nboot_instance =\npersistent_instance =\nfdr_enable = no\n"
		"log_corrected_per_minute = 0\n", dbpath, tmp, instance);
	fclose(f);
}

/* Kills rasd KILLS times at random moments; returns the last rasd started. */
static pid_t kill_loop(pid_t rasd, unsigned *killed)
{
	unsigned seed = (unsigned)time(NULL);

	if (getenv("RAS_CRASH_SEED"))
		seed = (unsigned)strtoul(getenv("RAS_CRASH_SEED"), NULL, 0);
	tap_diag("kill seed %u (RAS_CRASH_SEED to repeat)", seed);
	srand(seed);
	for (unsigned k = 0; k < KILLS; k++) {
		sleep_ms(150 + rand() % 1000);
		if (kill(rasd, SIGKILL) == 0) {
			waitpid(rasd, NULL, 0);
			(*killed)++;
		}
		rasd = start_rasd();
	}
	return rasd;
}

static void final_checks(unsigned long emitted, unsigned long refused)
{
	int64_t s = stored(), l = lost(), distinct, unknown, crash_rows, crash_lost;
	char sql[256];

	distinct = scalar("SELECT count(DISTINCT address) FROM mc_event WHERE msg = 'crash-test'");
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM lost_events WHERE instance = '%s'"
		 " AND count IS NULL", instance);
	unknown = scalar(sql);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM lost_events WHERE instance = '%s'"
		 " AND origin = 'crash'", instance);
	crash_rows = scalar(sql);
	snprintf(sql, sizeof(sql), "SELECT coalesce(sum(count), 0) FROM lost_events"
		 " WHERE instance = '%s' AND origin = 'crash'", instance);
	crash_lost = scalar(sql);
	tap_diag("emitted %lu, refused %lu, stored %lld, lost %lld (crash: %lld in %lld rows)",
		 emitted, refused, (long long)s, (long long)l, (long long)crash_lost,
		 (long long)crash_rows);
	/* A restart used to rewrite buffer_size_kb, which makes the kernel refuse records. */
	tap_is_int(refused, 0, "no write was refused by the kernel");
	tap_is_int(unknown, 0, "every loss has a count");
	tap_is_int(s + l, (int64_t)emitted, "stored + counted as lost = emitted, exactly");
	tap_is_int(distinct, s, "no record stored twice");
}

int main(void)
{
	unsigned long counts[2] = { 0, 0 };
	unsigned killed = 0;
	int report[2];
	pid_t rasd, wpid;
	int status;

	if (getuid() != 0)
		tap_skip_all("needs root");
	if (access(TRACING "/instances", W_OK) != 0)
		tap_skip_all("no tracefs");
	if (test_tmpdir(tmp, sizeof(tmp)) < 0 || pipe(report) < 0)
		tap_skip_all("no temporary directory");
	setup_files();
	rasd = start_rasd();
	if (!tap_ok(wait_path(inst_dir, 30) && wait_configured(30), "rasd made and configured "
		    "instance %s", instance))
		goto out;
	wpid = fork();
	if (wpid == 0)
		writer(report[1]);
	rasd = kill_loop(rasd, &killed);
	kill(wpid, SIGUSR1);
	waitpid(wpid, &status, 0);
	if (read(report[0], counts, sizeof(counts)) != (ssize_t)sizeof(counts))
		tap_ok(0, "writer reported (status %d)", status);
	tap_is_int(killed, KILLS, "rasd killed with SIGKILL %d times at random moments", KILLS);
	tap_ok(counts[0] >= 5000, "the writer emitted %lu records", counts[0]);
	/* The last rasd stores what is left; then it stops cleanly. */
	for (int i = 0; i < 300 && stored() + lost() < (int64_t)counts[0]; i++)
		sleep_ms(100);
	kill(rasd, SIGTERM);
	waitpid(rasd, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the last rasd exits 0 on SIGTERM");
	final_checks(counts[0], counts[1]);
out:
	if (kill(rasd, 0) == 0) {
		kill(rasd, SIGKILL);
		waitpid(rasd, NULL, 0);
	}
	rmdir(inst_dir);
	if (getenv("RAS_TEST_KEEP"))
		tap_diag("kept %s", tmp);
	else
		test_rmtree(tmp);
	return tap_done();
}
