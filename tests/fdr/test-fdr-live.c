/* SPDX-License-Identifier: MIT */
/*
 * Flight recorder on the running kernel: a real instance with
 * sched:sched_process_exit enabled, real processes exiting, a capture,
 * and the rendered snapshot checked for those processes. Needs root and
 * tracefs (exit 77 otherwise). Every instance made here is removed, also
 * when a check fails or the test is interrupted.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include "tests/tap.h"
#include "fdr_testutil.h"
#include "db/db_snapshot.h"
#include "lib/fdr.h"
#include "lib/fdr_render.h"
#include "lib/tracing.h"

#define CHILDREN 5

static const char tracing[] = "/sys/kernel/tracing";
static char instance[64], instance_dir[PATH_MAX], tmp_root[PATH_MAX];

/* Last resort for failure paths: no instance may outlive the test. */
static void cleanup(void)
{
	char path[PATH_MAX + 32];

	if (instance[0] && access(instance_dir, F_OK) == 0) {
		snprintf(path, sizeof(path), "%s/events/enable", instance_dir);
		test_put("", path + 1, "0");
		rmdir(instance_dir);
	}
	test_rm_rf(tmp_root);
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Children named rasdt_exitN exit at once; one named rasdt_skip is filtered out. */
static void spawn(pid_t *pids, pid_t *skipped)
{
	for (int i = 0; i <= CHILDREN; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			char name[16];

			snprintf(name, sizeof(name), i < CHILDREN ? "rasdt_exit%d" : "rasdt_skip", i);
			prctl(PR_SET_NAME, name);
			_exit(0);
		}
		if (i < CHILDREN)
			pids[i] = pid;
		else
			*skipped = pid;
		waitpid(pid, NULL, 0);
	}
}

struct lines {
	char **text;
	unsigned n;
};

static void collect(void *ctx, const char *line)
{
	struct lines *l = ctx;
	char **n = realloc(l->text, (l->n + 1) * sizeof(*n));

	if (!n)
		return;
	l->text = n;
	l->text[l->n++] = strdup(line);
}

static int find_line(const struct lines *l, const char *a, const char *b)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->text[i] && strstr(l->text[i], a) && (!b || strstr(l->text[i], b)))
			return (int)i;
	return -1;
}

static int64_t now_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void check_rendered(struct ras_db *db, int64_t id, const pid_t *pids, pid_t skipped)
{
	struct ras_snapshot s;
	struct lines l = { 0 };
	char want[32];
	int trig, found = 0, before = 1;

	if (!tap_ok(ras_db_snapshot_get(db, id, &s) == 0, "snapshot %lld stored", (long long)id))
		return;
	tap_ok(s.record_count >= CHILDREN, "at least %d records: %lld", CHILDREN, (long long)s.record_count);
	tap_is_int(fdr_render_snapshot(&s, collect, &l, NULL), 0, "snapshot renders");
	trig = find_line(&l, "trigger: mc_event #7", NULL);
	tap_ok(trig >= 0, "trigger line present");
	for (int i = 0; i < CHILDREN; i++) {
		int at;

		snprintf(want, sizeof(want), "pid=%d ", pids[i]);
		at = find_line(&l, "sched_process_exit: comm=rasdt_exit", want);
		found += at >= 0;
		before &= at >= 0 && at < trig && l.text[at][0] == '-';
	}
	tap_is_int(found, CHILDREN, "every child's real exit record is there");
	tap_ok(before, "all before the trigger, with negative times");
	snprintf(want, sizeof(want), "pid=%d ", skipped);
	tap_ok(find_line(&l, "comm=rasdt_skip", want) < 0, "the filtered child is not");
	if (trig >= 0)
		tap_diag("%s", l.text[trig > 0 ? trig - 1 : 0]);
	for (unsigned i = 0; i < l.n; i++)
		free(l.text[i]);
	free(l.text);
	ras_snapshot_free(&s);
}

/* A trigger given by its trace timestamp (clock "boot", as rasd's instance) lines up too. */
/* Captures and stores, as rasd does. */
static int capture_into(struct fdr *f, struct ras_db *db, const char *reason, const char *table,
			int64_t row, int64_t wall_ns, uint64_t trace_ts, int64_t *id)
{
	struct ras_snapshot s;
	int r = fdr_capture(f, reason, table, row, wall_ns, trace_ts, &s);

	if (r == 0) {
		r = ras_db_snapshot_insert(db, &s, id);
		ras_snapshot_free(&s);
	}
	return r;
}

static void check_trace_clock(struct fdr *f, struct ras_db *db)
{
	struct ras_snapshot s;
	struct lines l = { 0 };
	struct timespec boot;
	pid_t pids[CHILDREN], skipped;
	int64_t id = 0;
	struct timespec start;
	double off, span;
	int at, trig;

	clock_gettime(CLOCK_BOOTTIME, &start);
	spawn(pids, &skipped);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	/* The children exited between the two readings, however slow the machine is. */
	span = (double)(boot.tv_sec - start.tv_sec) + (double)(boot.tv_nsec - start.tv_nsec) / 1e9;
	tap_is_int(capture_into(f, db, "by trace time", "aer_event", 9, 0,
			       (uint64_t)boot.tv_sec * 1000000000 + (uint64_t)boot.tv_nsec, &id), 0,
		   "captured with a trace timestamp");
	if (ras_db_snapshot_get(db, id, &s) < 0)
		return;
	fdr_render_snapshot(&s, collect, &l, NULL);
	trig = find_line(&l, "trigger: aer_event #9", NULL);
	at = find_line(&l, "comm=rasdt_exit4", NULL);
	off = at >= 0 ? strtod(l.text[at], NULL) : 0;
	tap_ok(at >= 0 && at < trig && off < 0 && -off <= span + 1e-6,
	       "exit between the spawn and the trigger (within %.6f s): %s", span,
	       at >= 0 ? l.text[at] : "(none)");
	for (unsigned i = 0; i < l.n; i++)
		free(l.text[i]);
	free(l.text);
	ras_snapshot_free(&s);
}

static struct fdr *open_recorder(void)
{
	struct rasd_config cfg;
	struct fdr *f = NULL;
	char err[512];
	int r;

	rasd_config_defaults(&cfg);
	snprintf(cfg.fdr_instance, sizeof(cfg.fdr_instance), "%s", instance);
	cfg.fdr_buffer_size_kb = 64;
	snprintf(cfg.fdr_events, sizeof(cfg.fdr_events), "sched:sched_process_exit nosuchsys:*");
	snprintf(cfg.fdr_filters, sizeof(cfg.fdr_filters),
		 "sched:sched_process_exit:comm != \"rasdt_skip\";sched:nosuch:x == 1");
	snprintf(cfg.fdr_severity, sizeof(cfg.fdr_severity), "uncorrected");
	cfg.fdr_min_interval_s = 60;
	r = fdr_open(&f, tracing, &cfg, err, sizeof(err));
	tap_is_int(r, 0, "fdr_open: %s", r ? err : "ok");
	if (r == 0) {
		tap_ok(strstr(fdr_warnings(f), "nosuchsys:*") != NULL, "an unknown system is reported");
		tap_ok(strstr(fdr_warnings(f), "sched:nosuch") != NULL, "a refused filter is reported");
	}
	return f;
}

static void test_rate(struct fdr *f)
{
	int64_t t = now_wall();
	int taken = 0;

	for (int i = 0; i < 1000; i++)
		taken += fdr_should_capture(f, RAS_SEV_FATAL, t + i * 1000);
	tap_is_int(taken, 1, "1,000 fatal errors in a storm: one capture");
	tap_ok(!fdr_should_capture(f, RAS_SEV_CORRECTED, t + 3600LL * 1000000000), "corrected: none");
}

int main(void)
{
	char db_path[PATH_MAX + 16], err[512];
	pid_t pids[CHILDREN], skipped;
	struct ras_db *db;
	struct fdr *f;
	int64_t id = 0, second = 0;

	if (geteuid() != 0 || access("/sys/kernel/tracing/events/sched/sched_process_exit", F_OK))
		tap_skip_all("needs root and tracefs with sched:sched_process_exit");
	snprintf(instance, sizeof(instance), "rasdt_fdr_%ld", (long)getpid());
	snprintf(instance_dir, sizeof(instance_dir), "%s/instances/%s", tracing, instance);
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/rasdt_fdr_live_XXXXXX");
	if (!mkdtemp(tmp_root))
		return 99;
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	snprintf(db_path, sizeof(db_path), "%s/ras.db", tmp_root);
	if (!tap_ok(ras_db_open_writer(&db, db_path, "test-boot", err, sizeof(err)) == 0, "db: %s", err))
		return tap_done();
	f = open_recorder();
	if (f) {
		spawn(pids, &skipped);
		tap_is_int(capture_into(f, db, "test", "mc_event", 7, now_wall(), 0, &id), 0, "captured");
		check_rendered(db, id, pids, skipped);
		check_trace_clock(f, db);
		tap_is_int(capture_into(f, db, "again", NULL, 0, 0, 0, &second), 0, "manual capture");
		tap_ok(second > id, "a new snapshot row");
		test_rate(f);
		fdr_close(f, true);
	}
	tap_ok(access(instance_dir, F_OK) != 0, "the instance is gone");
	ras_db_close(db);
	return tap_done();
}
