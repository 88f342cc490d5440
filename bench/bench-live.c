/* SPDX-License-Identifier: MIT */
/*
 * make bench-live: the live path's ceiling. Starts the built rasd on its own
 * tracefs instance (allow_synthetic = yes, every other key at rasd's default:
 * the default ring-buffer size), writes the varied stream of make bench
 * (bench/live_pool.c: fresh pages and rows, however long the step) as
 * synthetic records into the instance's trace_marker_raw at a target rate,
 * one writer thread per CPU pinned to it (a record lands in the buffer of the
 * CPU its write ran on), then counts what the kernel dropped and what rasd
 * stored. Short probes bracket the rate, long steps decide it
 * (bench/live_search.c): the highest rate with no kernel drop and every
 * record stored over a whole long step, per configuration: the default
 * (storm folding on), folding off, and thresholds off (a diagnostic). A
 * fresh rasd, database and instance for every step.
 * Prints measured figures only; root and a real tracefs, else exit 77.
 *   bench-live [SECONDS]   (a long step; BENCH_LIVE_PROBE, _START, _MAX, _BISECT,
 *                           _WRITERS, _CONF, _CONFIGS)
 *   bench-live --smoke     (make check: a few hundred records, must all be stored)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lib/tracing.h"
#include "live_cpu.h"
#include "live_pool.h"
#include "live_search.h"
#include "stream.h"
#include "tests/test_util.h"

#define TRACING "/sys/kernel/tracing"
#define MAX_WRITERS 64
#define POOL_RECORDS 65536   /* make bench's records; past them, varied copies (live_pool.c) */

/* The shipped formats, absolute (rasd takes no relative path): set once by main. */
static char shipped_formats[PATH_MAX];

/*
 * Interrupted (SIGINT, SIGTERM, SIGHUP): the step running ends at once and
 * cleans up as any other (rasd stopped, instance and files removed); a
 * second signal kills as usual.
 */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 10) : def;
}

/* One writer thread: its share of the rate, on its CPU. */
struct writer {
	pthread_t th;
	const struct live_pool *pool;
	int fd, cpu;          /* cpu -1: not pinned */
	long next, stride;    /* the next record's number; the writers' count (they interleave) */
	uint8_t buf[RAS_SYNTH_MAX];
	double rate, start, seconds;
	long written, refused;
	int err;
	double cpu_s;
};

static void writer_pin(struct writer *w)
{
	cpu_set_t set;

	if (w->cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		w->cpu = -1;
}

/* Writes until `due` records are out or the interval ends; false on an error. */
static bool writer_catch_up(struct writer *w, long due, double end)
{
	while (w->written + w->refused < due) {
		size_t len;
		const uint8_t *rec = live_pool_record(w->pool, w->next, w->buf, &len);
		ssize_t n = write(w->fd, rec, len);

		w->next += w->stride;
		if (n == (ssize_t)len) {
			w->written++;
		} else if (n < 0 && errno == EBADF) {
			/* The buffer is full (overwrite off): the kernel refused the record. */
			w->refused++;
		} else {
			w->err = n < 0 ? errno : EIO;
			return false;
		}
		if (((w->written + w->refused) & 63) == 0 && now_s() >= end)
			break;
	}
	return true;
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	/* A burst a millisecond: at 100,000/s a writer writes about 8 KiB at once, a 30th of a buffer. */
	struct timespec nap = { 0, 1000000 };
	struct rusage ru;
	double end = w->start + w->seconds, t;

	writer_pin(w);
	while ((t = now_s()) < w->start)
		nanosleep(&nap, NULL);
	while ((t = now_s()) < end && !interrupted) {
		if (!writer_catch_up(w, (long)(w->rate * (t - w->start)) + 1, end))
			break;
		nanosleep(&nap, NULL);
	}
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
		w->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
			   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return NULL;
}

/* The configurations measured, the default first, then make bench's other (bench/stream.c). */
struct live_conf {
	const char *label, *words;
	int (*write_conf)(const char *dir, char *out, size_t len);
};

static const struct live_conf confs[] = {
	{ "default", "its default configuration (storm folding on)", bench_default_conf },
	{ "fold-off", "storm folding off (fold_threshold = off, max_db_size_mb = 0)",
	  bench_unfolded_conf },
	{ "thresh-off", "the default with every threshold off (a diagnostic: no buckets)",
	  bench_thresholds_off_conf },
};
#define N_CONFS (sizeof(confs) / sizeof(confs[0]))

/* One rasd for one step: its own directory, database and instance. */
struct run {
	char dir[256], inst[64], inst_dir[400], conf[400], log[400], db[400];
	pid_t pid;
};

static int run_conf(struct run *r, const struct live_conf *c)
{
	FILE *f;

	if (c->write_conf(r->dir, r->conf, sizeof(r->conf)) < 0 || !(f = fopen(r->conf, "ae")))
		return -1;
	fprintf(f, "database = %s\ninstance = %s\nlock_dir = %s\n", r->db, r->inst, r->dir);
	fprintf(f, "formats_dir = %s\nallow_synthetic = yes\n", shipped_formats);
	/* This machine's pstore records and boot instances are its own rasd's to harvest. */
	fprintf(f, "crash_harvest = no\nboot_instance =\npersistent_instance =\n");
	/* BENCH_LIVE_CONF: more rasd.conf lines, separated by ';', to measure what a key costs. */
	for (const char *p = getenv("BENCH_LIVE_CONF"); p && *p;) {
		size_t n = strcspn(p, ";");

		fprintf(f, "%.*s\n", (int)n, p);
		p += n + (p[n] == ';');
	}
	return fclose(f) == 0 ? 0 : -1;
}

static bool log_has(const char *path, const char *word)
{
	char line[1024];
	bool found = false;
	FILE *f = fopen(path, "re");

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, word) != NULL;
	if (f)
		fclose(f);
	return found;
}

static void log_copy(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "re");

	while (f && fgets(line, sizeof(line), f))
		fputs(line, stderr);
	if (f)
		fclose(f);
}

static int run_start(struct run *r, const struct live_conf *c, int step)
{
	char rasd[1024];
	const struct timespec nap = { 0, 50000000 };

	snprintf(r->inst, sizeof(r->inst), "rasdb_live_%d_%d", (int)getpid(), step);
	snprintf(r->inst_dir, sizeof(r->inst_dir), "%s/instances/%s", TRACING, r->inst);
	snprintf(r->db, sizeof(r->db), "%s/ras.db", r->dir);
	snprintf(r->log, sizeof(r->log), "%s/rasd.log", r->dir);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	if (run_conf(r, c) < 0)
		return -1;
	r->pid = fork();
	if (r->pid == 0) {
		char *argv[] = { rasd, "--config", r->conf, NULL };
		int fd = open(r->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(127);
		/* BENCH_LIVE_NICE: rasd's nice value, to tell its own stalls from a busy machine's. */
		if (getenv("BENCH_LIVE_NICE") && setpriority(PRIO_PROCESS, 0, (int)env_long("BENCH_LIVE_NICE", 0)) < 0)
			_exit(126);
		execv(rasd, argv);
		_exit(127);
	}
	if (r->pid < 0)
		return -1;
	/* "recording": the buffer is sized and the events on (a resize refuses writes for a while). */
	for (int i = 0; i < 400 && !interrupted && !log_has(r->log, "recording"); i++) {
		if (waitpid(r->pid, NULL, WNOHANG) == r->pid) {
			r->pid = 0;
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	return log_has(r->log, "recording") ? 0 : -1;
}

/* Stops rasd (if running), removes its instance and files. */
static void run_end(struct run *r)
{
	if (r->pid > 0) {
		kill(r->pid, SIGTERM);
		waitpid(r->pid, NULL, 0);
	}
	r->pid = 0;
	if (r->inst[0])
		rmdir(r->inst_dir);
	test_remove_db(r->db);
	unlink(r->conf);
	unlink(r->log);
}

/* Every stream record rasd stored: raw rows, and with folding the records counted in folds. */
static long stored_count(const char *db)
{
	return (long)test_sql_int(db, "SELECT (SELECT count(*) FROM mc_event) + "
				  "(SELECT count(*) FROM mce_record) + (SELECT count(*) FROM aer_event) + "
				  "(SELECT count(*) FROM memory_failure_event) + "
				  "(SELECT count(*) FROM extlog_mem_event) + "
				  "(SELECT coalesce(sum(records), 0) FROM folds)");
}

/* What one step measured. */
struct step {
	long target;
	double seconds, writer_cpu, rasd_cpu, drain;
	double fill_peak, fill_end;   /* the fullest CPU buffer's share: at its peak, at the end */
	long buffer_kb;               /* rasd's buffer per CPU */
	double record_bytes;          /* a record's bytes on average, as written */
	double thread_cpu[LIVE_THREADS];
	long written, refused, stored, lost, lost_unknown;
	uint64_t kernel_lost;
	int writers, err;
	bool writer_limited;
};

static bool step_ok(const struct step *s)
{
	return !s->err && !s->refused && !s->lost && !s->lost_unknown && !s->kernel_lost &&
	       s->stored == s->written;
}

/*
 * A resize refuses writes (EBADF, counted nowhere) for a while after it
 * returned (lib/tracing.c): the first record is written until the kernel
 * takes it, for at most 10 s. 1 (one record written) or -errno.
 */
static int first_record(const struct live_pool *pool, const char *inst_dir)
{
	struct timespec nap = { 0, 10000000 };
	char path[512];
	size_t len;
	const uint8_t *rec = live_pool_record(pool, 0, NULL, &len);
	int fd, r = -ETIMEDOUT;

	snprintf(path, sizeof(path), "%s/trace_marker_raw", inst_dir);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -errno;
	for (int i = 0; i < 1000 && r == -ETIMEDOUT && !interrupted; i++) {
		ssize_t n = write(fd, rec, len);

		if (n == (ssize_t)len)
			r = 1;
		else if (n >= 0 || errno != EBADF)
			r = n < 0 ? -errno : -EIO;
		else
			nanosleep(&nap, NULL);
	}
	close(fd);
	return r;
}

/* The fullest CPU buffer now, as a share of its size: the unread bytes of its stats. */
static double buffer_fill(const char *inst_dir, long ncpu, double buffer_bytes)
{
	double most = 0;

	for (long cpu = 0; cpu < ncpu; cpu++) {
		char path[512], line[128];
		FILE *f;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%ld/stats", inst_dir, cpu);
		if (!(f = fopen(path, "re")))
			continue;
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "bytes: ", 7) && strtod(line + 7, NULL) / buffer_bytes > most)
				most = strtod(line + 7, NULL) / buffer_bytes;
		fclose(f);
	}
	return most;
}

/*
 * While the writers write, the kernel's buffers are looked at every 250 ms:
 * how close the step came to a drop (the peak), and where it ended (a fill
 * that grows over a long step is a drift a short one would not show).
 */
static void watch_buffers(struct step *s, const char *inst_dir, double end)
{
	struct timespec nap = { 0, 250000000 };
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), kb = 0;
	char path[512], line[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/buffer_size_kb", inst_dir);
	if ((f = fopen(path, "re"))) {
		if (fgets(line, sizeof(line), f))
			kb = strtol(line, NULL, 10);
		fclose(f);
	}
	s->buffer_kb = kb;
	while (kb > 0 && now_s() < end - 0.1 && !interrupted) {
		nanosleep(&nap, NULL);
		s->fill_end = buffer_fill(inst_dir, ncpu, (double)kb * 1024);
		if (s->fill_end > s->fill_peak)
			s->fill_peak = s->fill_end;
	}
}

static int writers_run(struct step *s, struct writer *w, const struct live_pool *pool, const char *inst_dir)
{
	char path[512];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int fd, n = s->writers;

	snprintf(path, sizeof(path), "%s/trace_marker_raw", inst_dir);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		w[i] = (struct writer){ .pool = pool, .fd = fd, .cpu = n > 1 ? (int)(i % ncpu) : -1,
			.next = 1 + i, .stride = n, .rate = (double)s->target / n,
			.start = now_s() + 0.02, .seconds = s->seconds };
	}
	for (int i = 0; i < n; i++)
		if (pthread_create(&w[i].th, NULL, writer_main, &w[i]) != 0)
			n = i;
	s->record_bytes = (double)pool->bytes / (double)pool->n;
	if (n > 0)
		watch_buffers(s, inst_dir, w[0].start + s->seconds);
	for (int i = 0; i < n; i++) {
		pthread_join(w[i].th, NULL);
		s->written += w[i].written;
		s->refused += w[i].refused;
		s->writer_cpu += w[i].cpu_s;
		if (w[i].err)
			s->err = w[i].err;
	}
	close(fd);
	s->writer_limited = s->written + s->refused < (long)(0.97 * (double)s->target * s->seconds);
	return n == s->writers ? 0 : -EAGAIN;
}

/* Waits until rasd stored what was written, or stopped making progress for 3 s. */
static void wait_drained(const struct run *r, struct step *s, double t0)
{
	struct timespec nap = { 0, 200000000 };
	double still = now_s();
	long last = -1, n;

	while ((n = stored_count(r->db)) < s->written && now_s() - still < 3 && now_s() - t0 < 300 &&
	       !interrupted) {
		if (n != last)
			still = now_s();
		last = n;
		nanosleep(&nap, NULL);
	}
	s->drain = now_s() - t0;
}

static void kernel_losses(const struct run *r, struct step *s)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct ras_cpu_stats st;

		if (ras_tracing_cpu_stats(r->inst_dir, cpu, &st) == 0)
			s->kernel_lost += st.overrun + st.dropped;
	}
}

/* One step: a fresh rasd, TARGET records/s for the interval, then the counts. */
static int step_run(struct step *s, const struct live_conf *c, const struct live_pool *pool,
		    const char *dir, int no)
{
	struct writer w[MAX_WRITERS];
	struct run r = { .pid = 0 };
	double cpu0, t;
	int rc = -1;

	snprintf(r.dir, sizeof(r.dir), "%s", dir);
	if (run_start(&r, c, no) < 0) {
		fprintf(stderr, "bench-live: rasd did not start; its log:\n");
		log_copy(r.log);
		goto out;
	}
	if ((s->written = first_record(pool, r.inst_dir)) < 0) {
		fprintf(stderr, "bench-live: the kernel took no record: %s\n", strerror((int)-s->written));
		goto out;
	}
	cpu0 = live_proc_cpu(r.pid);
	live_threads_cpu(r.pid, -1, s->thread_cpu);
	if (writers_run(s, w, pool, r.inst_dir) < 0)
		goto out;
	t = now_s();
	wait_drained(&r, s, t);
	s->rasd_cpu = live_proc_cpu(r.pid) - cpu0;
	live_threads_cpu(r.pid, 1, s->thread_cpu);
	/* Before rasd stops: it removes the instance it made, and its stats with it. */
	kernel_losses(&r, s);
	kill(r.pid, SIGTERM);
	waitpid(r.pid, NULL, 0);
	r.pid = 0;
	/* After rasd's last drain: what it stored and its own account of the kernel's losses. */
	s->stored = stored_count(r.db);
	s->lost = (long)test_sql_int(r.db, "SELECT coalesce(sum(count), 0) FROM lost_events WHERE count > 0");
	s->lost_unknown = (long)test_sql_int(r.db, "SELECT count(*) FROM lost_events WHERE count < 0");
	rc = 0;
out:
	run_end(&r);
	return rc;
}

/*
 * The longest a CPU's buffer went unread, at least: its peak fill at the
 * rate one writer gives it. A drop at a rate rasd keeps up with on average
 * is such a stall, not a lack of CPU.
 */
static double buffer_ms(const struct step *s)
{
	double per_cpu = (double)s->target / s->writers * s->record_bytes;

	return per_cpu > 0 ? 1e3 * (double)s->buffer_kb * 1024 / per_cpu : 0;
}

static double unread_ms(const struct step *s)
{
	return s->fill_peak * buffer_ms(s);
}

static void step_print(const struct step *s, const char *kind)
{
	double n = s->written ? (double)s->written : 1;
	double tries = s->written + s->refused ? (double)(s->written + s->refused) : 1;

	/* rasd's CPU per record stored; the writers' per write made (a refused one costs too). */
	printf("  %-5s %7ld/s: wrote %8ld in %4.1f s%s, stored %8ld, kernel dropped %ld (writes "
	       "refused %ld, rasd counted %ld%s); buffer %3.0f %% full at most (%.0f ms unread), %3.0f %% "
	       "at the end, drained in %.1f s; rasd %3.0f %% CPU %5.2f µs/record, writers %3.0f %% CPU %4.2f "
	       "µs/write: %s\n",
	       kind, s->target, s->written, s->seconds, s->writer_limited ? " (writer-limited)" : "",
	       s->stored, (long)s->kernel_lost, s->refused, s->lost,
	       s->lost_unknown ? ", and losses of unknown size" : "", 100.0 * s->fill_peak,
	       unread_ms(s), 100.0 * s->fill_end, s->drain, 100.0 * s->rasd_cpu / (s->seconds + s->drain),
	       1e6 * s->rasd_cpu / n, 100.0 * s->writer_cpu / s->seconds, 1e6 * s->writer_cpu / tries,
	       step_ok(s) ? "all stored" : s->err ? strerror(s->err) : "DROPS or MISSING");
	fflush(stdout);
}

/* One configuration's search: the settings, and the steps that decided it. */
struct conf_run {
	struct live_search se;
	int writers;
	struct step best, fail;   /* the answer's long step; the lowest rate that lost records */
	double seconds, load;     /* wall time of the search; load average at its start */
	double pressure;          /* CPU pressure at its end: % of time a task waited for a CPU */
};

/*
 * The share of the last minute some task waited for a CPU (PSI's "some
 * avg60"), or -1: on a shared machine, rasd's stalls are often that wait.
 */
static double cpu_pressure(void)
{
	double v = -1;
	FILE *f = fopen("/proc/pressure/cpu", "re");

	if (f && fscanf(f, "some avg10=%*f avg60=%lf", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

/* Runs the search's steps for configuration c until it has its answer. */
static int search_conf(struct conf_run *cr, const struct live_conf *c, const struct live_pool *pool,
		       const char *dir, int *no)
{
	double t0 = now_s(), load[1] = { 0 };
	long rate;
	double seconds;

	getloadavg(load, 1);
	cr->load = load[0];
	while (live_search_next(&cr->se, &rate, &seconds)) {
		struct step s = { .target = rate, .seconds = seconds, .writers = cr->writers };
		bool probe = cr->se.probing, bound, ok;

		if (step_run(&s, c, pool, dir, (*no)++) < 0 || interrupted)
			return -1;
		step_print(&s, probe ? "probe" : "long");
		/*
		 * Writers short of the rate though not busy (under 80 % of a core
		 * each) were held off by the machine's other work: the rate was
		 * not given, so it is not counted as kept (never an answer).
		 */
		bound = s.writer_cpu >= 0.8 * s.seconds * s.writers;
		ok = step_ok(&s) && (!s.writer_limited || bound);
		if (s.writer_limited && !bound)
			printf("        (the writers fell short without being busy: not counted as kept)\n");
		live_search_result(&cr->se, rate, ok, s.writer_limited && bound);
		if (!probe && ok && rate == cr->se.pass)
			cr->best = s;
		if (!ok && (!cr->fail.target || rate < cr->fail.target))
			cr->fail = s;
	}
	cr->seconds = now_s() - t0;
	cr->pressure = cpu_pressure();
	return 0;
}

static void search_print(const struct conf_run *cr, const struct live_conf *c)
{
	const struct step *b = &cr->best;
	double n = b->written ? (double)b->written : 1;

	printf("%-10s: ", c->label);
	if (!cr->se.pass) {
		printf("no rate kept every record over a whole %.0f s step (lowest tried %ld/s)",
		       cr->se.long_s, cr->fail.target);
	} else {
		printf("%ld records/s sustained for %.0f s with no kernel drop and every record stored "
		       "(buffers of %ld KiB per CPU, %.0f %% full at most); rasd %.2f µs CPU per record "
		       "(%.0f %% of a core), writers %.2f µs per record",
		       b->target, b->seconds, b->buffer_kb, 100.0 * b->fill_peak, 1e6 * b->rasd_cpu / n,
		       100.0 * b->rasd_cpu / (b->seconds + b->drain), 1e6 * b->writer_cpu / n);
		printf("\n            rasd's threads at that rate, µs CPU per record (%% of a core):");
		for (int i = 0; i < LIVE_THREADS; i++)
			printf("%s%s %.2f (%.0f %%)", i ? ", " : " ", live_thread_words[i], 1e6 * b->thread_cpu[i] / n,
			       100.0 * b->thread_cpu[i] / (b->seconds + b->drain));
	}
	if (cr->se.writer_limited)
		printf("\n            WRITER-LIMITED: the writers gave only %.0f/s, using %.0f %% of a core "
		       "for %d; rasd's ceiling is above it",
		       (double)b->written / b->seconds, 100.0 * b->writer_cpu / b->seconds, cr->writers);
	else if (cr->fail.target)
		printf("\n            (%ld/s in a %.0f s step lost records: kernel dropped %ld, %ld not stored; "
		       "a CPU's buffer holds %.0f ms at that rate: rasd left one unread longer, or read slower)",
		       cr->fail.target, cr->fail.seconds, (long)cr->fail.kernel_lost,
		       cr->fail.written - cr->fail.stored, buffer_ms(&cr->fail));
	else
		printf("\n            (the highest rate tried, BENCH_LIVE_MAX %ld/s)", cr->se.max);
	printf("\n            %d steps (%d probes of %.0f s, %d long of %.0f s) in %.0f s, "
	       "load average %.1f at the start, CPU pressure %.0f %% at the end\n",
	       cr->se.probes + cr->se.longs, cr->se.probes, cr->se.probe_s, cr->se.longs, cr->se.long_s,
	       cr->seconds, cr->load, cr->pressure);
}

/* The kernel-side view, one line per configuration. */
static void summary_print(const struct conf_run *cr, const struct live_conf *const *c, int n)
{
	printf("live path, highest rate with no kernel drop over a whole %.0f s step:\n",
	       cr[0].se.long_s);
	for (int i = 0; i < n; i++) {
		const struct step *b = &cr[i].best;
		double w = b->written ? (double)b->written : 1;

		printf("  %-10s %7ld/s%s  event loop %.2f, writer %.2f, checkpointer %.2f µs CPU per "
		       "record; %d steps, load %.1f, CPU pressure %.0f %%\n",
		       c[i]->label, cr[i].se.pass, cr[i].se.writer_limited ? "+ (writer-limited)" : "",
		       1e6 * b->thread_cpu[0] / w, 1e6 * b->thread_cpu[1] / w, 1e6 * b->thread_cpu[2] / w,
		       cr[i].se.probes + cr[i].se.longs, cr[i].load, cr[i].pressure);
	}
}

static int skip_unless_live(void)
{
	struct stat st;

	if (geteuid() != 0) {
		printf("1..0 # SKIP bench-live needs root (it runs rasd on a tracefs instance)\n");
		return 77;
	}
	if (stat(TRACING "/instances", &st) < 0 || stat(TRACING "/trace_marker_raw", &st) < 0) {
		printf("1..0 # SKIP bench-live needs tracefs at %s with trace_marker_raw\n", TRACING);
		return 77;
	}
	return 0;
}

/* make check: a few hundred records, fewer than a buffer holds, so none may be dropped. */
static int smoke(const struct live_pool *pool, const char *dir, int writers)
{
	struct step s = { .target = 1000, .seconds = 0.2, .writers = writers };

	if (step_run(&s, &confs[0], pool, dir, 0) < 0) {
		printf("not ok 1 - rasd ran and the writers wrote\n");
		return 1;
	}
	printf("# ");
	step_print(&s, "smoke");
	printf("%s 1 - %ld written through trace_marker_raw, %ld stored, %ld dropped\n",
	       step_ok(&s) && s.written > 0 ? "ok" : "not ok", s.written, s.stored,
	       (long)s.kernel_lost);
	return step_ok(&s) && s.written > 0 ? 0 : 1;
}

static void print_header(const struct live_search *se, int writers, const struct live_pool *pool)
{
	char size[64] = "?";
	FILE *f = fopen(TRACING "/buffer_size_kb", "re");
	double load[3] = { 0, 0, 0 };

	if (f) {
		if (!fgets(size, sizeof(size), f))
			size[0] = 0;
		size[strcspn(size, "\n")] = 0;
		fclose(f);
	}
	getloadavg(load, 3);
	printf("bench-live: make bench's varied stream (its first %ld records, %zu bytes at most, "
	       "%.0f on average; past them copies with fresh pages, rows, CPUs, banks and syndromes) as synthetic records\n"
	       "            through trace_marker_raw, %d writer%s%s; probes of %.0f s from %ld/s "
	       "doubling (at most %ld/s), then long steps of %.0f s (at most %d bisecting);\n"
	       "            rasd's default buffer size; load average %.2f %.2f %.2f "
	       "(top-level buffer_size_kb here: %s)\n",
	       pool->n, pool->max_len, (double)pool->bytes / (double)pool->n, writers,
	       writers > 1 ? "s" : "", writers > 1 ? " each pinned to a CPU" : " (not pinned)",
	       se->probe_s, se->start, se->max, se->long_s, se->bisect, load[0], load[1], load[2], size);
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

/*
 * Every instance this run named (rasdb_live_<pid>_*) is gone at the end:
 * rasd removes its own and run_end() any rasd left, but one a signal caught
 * half-made is removed here. The number removed.
 */
static int sweep_instances(void)
{
	char prefix[64], path[512];
	struct dirent *de;
	DIR *d = opendir(TRACING "/instances");
	int n = 0;

	snprintf(prefix, sizeof(prefix), "rasdb_live_%d_", (int)getpid());
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix))) {
			snprintf(path, sizeof(path), "%s/instances/%s", TRACING, de->d_name);
			n += rmdir(path) == 0;
		}
	if (d)
		closedir(d);
	return n;
}

/* The configurations BENCH_LIVE_CONFIGS names (labels, comma-separated), else all. */
static int pick_confs(const struct live_conf **out)
{
	const char *want = getenv("BENCH_LIVE_CONFIGS");
	int n = 0;

	for (size_t c = 0; c < N_CONFS; c++) {
		const char *p = want ? strstr(want, confs[c].label) : NULL;
		size_t len = strlen(confs[c].label);

		if (!want || !*want ||
		    (p && (p == want || p[-1] == ',') && (p[len] == ',' || !p[len])))
			out[n++] = &confs[c];
	}
	return n;
}

static int run_confs(const struct live_search *se, int writers, const struct live_pool *pool,
		     const char *dir)
{
	const struct live_conf *pick[N_CONFS];
	struct conf_run cr[N_CONFS];
	int n = pick_confs(pick), done = 0, no = 1;

	print_header(se, writers, pool);
	for (int c = 0; c < n; c++) {
		cr[c] = (struct conf_run){ .se = *se, .writers = writers };
		printf("rasd in %s:\n", pick[c]->words);
		if (search_conf(&cr[c], pick[c], pool, dir, &no) < 0)
			break;
		search_print(&cr[c], pick[c]);
		done++;
	}
	if (done)
		summary_print(cr, pick, done);
	return done == n ? 0 : 1;
}

int main(int argc, char **argv)
{
	bool is_smoke = argc > 1 && !strcmp(argv[1], "--smoke");
	int writers = (int)env_long("BENCH_LIVE_WRITERS", sysconf(_SC_NPROCESSORS_ONLN));
	double long_s = argc > 1 && !is_smoke ? atof(argv[1]) : 15.0;
	char dir[256], formats[1200];
	struct live_search se;
	struct live_pool pool;
	int rc = 0, left;

	if ((rc = skip_unless_live()) != 0)
		return rc;
	live_search_init(&se, env_long("BENCH_LIVE_START", 8000), env_long("BENCH_LIVE_MAX", 512000),
			 (double)env_long("BENCH_LIVE_PROBE", 3), long_s,
			 (int)env_long("BENCH_LIVE_BISECT", 3));
	if (writers < 1 || writers > MAX_WRITERS || long_s <= 0 || se.probe_s <= 0)
		return 2;
	signal(SIGPIPE, SIG_IGN);
	catch_signals();
	snprintf(formats, sizeof(formats), "%s/formats", test_srcdir());
	if (!realpath(formats, shipped_formats) || test_tmpdir(dir, sizeof(dir)) < 0 ||
	    live_pool_build(&pool, is_smoke ? 1024 : POOL_RECORDS, TRACING, shipped_formats) < 0) {
		fprintf(stderr, "bench-live: cannot build the records\n");
		return 1;
	}
	rc = is_smoke ? smoke(&pool, dir, writers) : run_confs(&se, writers, &pool, dir);
	live_pool_free(&pool);
	test_rmtree(dir);
	if ((left = sweep_instances()) > 0)
		fprintf(stderr, "bench-live: removed %d instance%s rasd left\n", left, left > 1 ? "s" : "");
	fflush(stdout);
	if (interrupted)
		fprintf(stderr, "bench-live: interrupted; rasd stopped, its instances and files removed\n");
	return rc;
}
