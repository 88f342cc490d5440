/* SPDX-License-Identifier: MIT */
/*
 * make bench: replays N real-format records of a varied stream (bench/stream.c:
 * EDAC, machine checks, PCIe and platform records in a fleet's proportions,
 * every field varied; 6.1 formats, two CPUs) through a fake tracing tree into
 * rasd --once, in its default configuration (storm folding on: the headline)
 * and with folding off, and compares both with a minimal baseline
 * (libtraceevent parse + one-transaction bulk insert) on the same
 * sub-buffers: wall-clock rate and CPU seconds per record, and where rasd's
 * CPU went by thread. Prints measured figures only.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>
#include <traceevent/kbuffer.h>
#include "queries.h"
#include "stream.h"
#include "tests/fake_tree.h"
#include "tests/test_util.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int build_tree(struct fake_tree *t, long n)
{
	char formats[1024];
	uint64_t seed = 0x9e3779b97f4a7c15ULL;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	if (fake_tree_create(t, formats, 2, "rasd", "boot") < 0)
		return -1;
	for (long i = 0; i < n; i++)
		if (bench_stream_add(t, i, &seed) < 0)
			return -1;
	return fake_tree_finish(t);
}

/* rasd's threads by name (db_writer.c, db_checkpoint.c name theirs; the event loop is "rasd"). */
#define BENCH_THREADS 8

struct thread_cpu {
	int tid;
	char name[20];
	double cpu;
};

struct result {
	double wall, cpu;
	long rss_kb;
	long long db_bytes;
	long records;
	struct thread_cpu thread[BENCH_THREADS];
};

/* The two configurations of rasd measured, the default first (the headline). */
struct bench_conf {
	const char *label, *words, *db;
	int (*write_conf)(const char *dir, char *out, size_t len);
};

static const struct bench_conf confs[] = {
	{ "default", "its default configuration (storm folding on: fold_threshold 100/1h)",
	  "default.db", bench_default_conf },
	{ "fold off", "storm folding off (fold_threshold = off, max_db_size_mb = 0)",
	  "unfolded.db", bench_unfolded_conf },
};
#define N_CONFS (sizeof(confs) / sizeof(confs[0]))

static long long file_size(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 ? (long long)st.st_size : 0;
}

/* One thread's CPU seconds from /proc/PID/task/TID/stat (utime + stime), its name in name. */
static double thread_stat(int pid, const char *tid, char *name, size_t len)
{
	char path[128], buf[1024], *open_, *close_;
	unsigned long ut = 0, st = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", pid, tid);
	if (!(f = fopen(path, "re")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* The name is in parentheses and may hold spaces: the fields follow the last ')'. */
	if (!(open_ = strchr(buf, '(')) || !(close_ = strrchr(buf, ')')))
		return -1;
	snprintf(name, len, "%.*s", (int)(close_ - open_ - 1), open_ + 1);
	/* After ')': state(3) ... utime(14) stime(15). */
	if (sscanf(close_ + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Samples each thread of pid: its CPU until it exited is its last sample's. */
static void sample_threads(int pid, struct result *r)
{
	char dirpath[64];
	struct dirent *de;
	DIR *d;

	snprintf(dirpath, sizeof(dirpath), "/proc/%d/task", pid);
	if (!(d = opendir(dirpath)))
		return;
	while ((de = readdir(d))) {
		char name[20];
		int tid = atoi(de->d_name);
		double cpu;
		size_t i;

		if (tid <= 0 || (cpu = thread_stat(pid, de->d_name, name, sizeof(name))) < 0)
			continue;
		for (i = 0; i < BENCH_THREADS && r->thread[i].tid && r->thread[i].tid != tid; i++)
			;
		if (i == BENCH_THREADS)
			continue;
		r->thread[i].tid = tid;
		snprintf(r->thread[i].name, sizeof(r->thread[i].name), "%s", name);
		r->thread[i].cpu = cpu;
	}
	closedir(d);
}

/* CPU seconds of rasd's threads named name (as sampled, every 20 ms). */
static double threads_cpu(const struct result *r, const char *name)
{
	double sum = 0;

	for (size_t i = 0; i < BENCH_THREADS && r->thread[i].tid; i++)
		if (!strcmp(r->thread[i].name, name))
			sum += r->thread[i].cpu;
	return sum;
}

static int run_rasd(const char *tree, const char *dir, const struct bench_conf *bc, struct result *r)
{
	char rasd[1024], db[600], lock[600], wal[700], conf[600];
	char *argv[] = { rasd, "--config", conf, "--tracing-dir", (char *)tree, "--db", db,
			 "--lock-dir", lock, "--once", NULL };
	struct rusage ru;
	int status;
	double t0 = now_s();
	pid_t pid, done;

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(db, sizeof(db), "%s/%s", dir, bc->db);
	snprintf(lock, sizeof(lock), "%s/lock", dir);
	if (bc->write_conf(dir, conf, sizeof(conf)) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		execv(rasd, argv);
		_exit(127);
	}
	/* Per-thread CPU: /proc is gone once it exits, so it is read while it runs. */
	while ((done = wait4(pid, &status, WNOHANG, &ru)) == 0) {
		sample_threads(pid, r);
		usleep(20000);
	}
	if (done < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	r->wall = now_s() - t0;
	r->cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	r->rss_kb = ru.ru_maxrss;
	snprintf(wal, sizeof(wal), "%s-wal", db);
	r->db_bytes = file_size(db) + file_size(wal);
	return 0;
}

/*
 * What rasd stored, per event table: the stream's mix as measured, and a check
 * that every record was decoded and kept. Returns the total, or -1.
 */
static long print_stored(const char *dir, const char *name, const char *label)
{
	static const char *const tables[] = { "mc_event", "mce_record", "aer_event",
					      "memory_failure_event", "extlog_mem_event" };
	long count[5] = { 0 }, total = 0, folded = 0;
	char db[600], sql[128];
	sqlite3 *h;

	snprintf(db, sizeof(db), "%s/%s", dir, name);
	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(h);
		return -1;
	}
	for (size_t i = 0; i < 5; i++) {
		sqlite3_stmt *st;

		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", tables[i]);
		if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
			count[i] = (long)sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		/* With folding on, a storm's records past its raw ones are counted in folds. */
		snprintf(sql, sizeof(sql), "SELECT sum(records) FROM folds WHERE tbl = '%s'", tables[i]);
		if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
			folded += (long)sqlite3_column_int64(st, 0);
			count[i] += (long)sqlite3_column_int64(st, 0);
		}
		sqlite3_finalize(st);
		total += count[i];
	}
	sqlite3_close(h);
	printf("stored:   (%s) ", label);
	for (size_t i = 0; i < 5; i++)
		printf("%s%s %.1f %%", i ? ", " : "", tables[i],
		       total ? 100.0 * (double)count[i] / (double)total : 0.0);
	printf("\n          (%ld records, each decoded; %ld of them folded into storm counts)\n",
	       total, folded);
	return total;
}

static double self_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Binds every non-common field of the record as an integer, text or blob. */
static void bind_fields(struct tep_event *ev, sqlite3_stmt *st, void *data, int size)
{
	struct tep_record rec = { .data = data, .size = size };
	int col = 3;

	for (struct tep_format_field *f = ev->format.fields; f && col <= 23; f = f->next, col++) {
		if (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_ARRAY)) {
			int len;
			void *p = tep_get_field_raw(NULL, ev, f->name, &rec, &len, 0);

			sqlite3_bind_blob(st, col, p, p ? len : 0, SQLITE_STATIC);
		} else {
			unsigned long long v;

			tep_read_number_field(f, data, &v);
			sqlite3_bind_int64(st, col, (int64_t)v);
		}
	}
}

static void baseline_cpu(struct fake_tree *t, unsigned cpu, sqlite3 *h, sqlite3_stmt *st, long *n)
{
	char path[1024];
	uint8_t page[4096];
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	FILE *f;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", t->instance, cpu);
	f = fopen(path, "re");
	while (f && fread(page, 1, t->page_size, f) == t->page_size) {
		unsigned long long ts;
		void *d;

		kbuffer_load_subbuffer(kb, page);
		for (d = kbuffer_read_event(kb, &ts); d; d = kbuffer_next_event(kb, &ts)) {
			uint16_t id;
			struct tep_event *ev;

			memcpy(&id, d, 2);
			ev = tep_find_event(t->fmt->tep, id);
			if (!ev)
				continue;
			sqlite3_bind_int(st, 1, id);
			sqlite3_bind_int64(st, 2, (int64_t)ts);
			bind_fields(ev, st, d, kbuffer_event_size(kb));
			sqlite3_step(st);
			sqlite3_reset(st);
			(*n)++;
		}
	}
	if (f)
		fclose(f);
	kbuffer_free(kb);
	(void)h;
}

static __attribute__((noinline)) int run_baseline(struct fake_tree *t, const char *dir, struct result *r)
{
	char db[600], sql[2048];
	size_t n = 0;
	sqlite3 *h;
	sqlite3_stmt *st;
	double t0 = now_s(), c0 = self_cpu();

	snprintf(db, sizeof(db), "%s/baseline.db", dir);
	sqlite3_open(db, &h);
	sqlite3_exec(h, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, NULL);
	n += (size_t)snprintf(sql + n, sizeof(sql) - n, "CREATE TABLE r (type, ts");
	for (int i = 0; i < 21; i++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", c%d", i);
	snprintf(sql + n, sizeof(sql) - n, ")");
	sqlite3_exec(h, sql, NULL, NULL, NULL);
	n = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO r VALUES (?, ?");
	for (int i = 0; i < 21; i++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", ?");
	snprintf(sql + n, sizeof(sql) - n, ")");
	sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	sqlite3_exec(h, "BEGIN", NULL, NULL, NULL);
	r->records = 0;
	for (unsigned c = 0; c < t->ncpus; c++)
		baseline_cpu(t, c, h, st, &r->records);
	sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
	sqlite3_finalize(st);
	sqlite3_close(h);
	r->wall = now_s() - t0;
	r->cpu = self_cpu() - c0;
	snprintf(sql, sizeof(sql), "%s-wal", db);
	r->db_bytes = file_size(db) + file_size(sql);
	return 0;
}

static long status_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static long idle_rss_kb(const char *dir, long *anon_kb, long *pss_kb)
{
	char rasd[1024], conf[700], db[600], status[96], *buf;
	long kb = -1;
	pid_t pid;
	FILE *f;

	if (getuid() != 0 || access("/sys/kernel/tracing/instances", F_OK) != 0)
		return -1;
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(conf, sizeof(conf), "%s/idle.conf", dir);
	snprintf(db, sizeof(db), "%s/idle.db", dir);
	f = fopen(conf, "we");
	fprintf(f, "database = %s\ninstance = rasd_bench_%d\nlock_dir = %s\n", db, getpid(), dir);
	/* The machine's pstore and boot instances are its own rasd's to harvest. */
	fprintf(f, "crash_harvest = no\nboot_instance =\npersistent_instance =\n");
	fclose(f);
	pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		execl(rasd, rasd, "--config", conf, (char *)NULL);
		_exit(127);
	}
	sleep(2);
	snprintf(status, sizeof(status), "/proc/%d/status", pid);
	if (ras_read_file(status, &buf, NULL) == 0) {
		kb = status_kb(buf, "VmRSS:");
		*anon_kb = status_kb(buf, "RssAnon:");
		free(buf);
	}
	/* PSS charges each shared library page to its users in proportion. */
	snprintf(status, sizeof(status), "/proc/%d/smaps_rollup", pid);
	if (ras_read_file(status, &buf, NULL) == 0) {
		*pss_kb = status_kb(buf, "Pss:");
		free(buf);
	}
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	return kb;
}

static void remove_db(const char *dir, const char *name)
{
	char path[700];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	test_remove_db(path);
}

/*
 * Each configuration of rasd and the baseline in turn, runs times each
 * (BENCH_RUNS, default 3), each from an empty database; the fastest of each
 * is kept, so a moment of noise on the machine moves neither figure nor
 * their ratio.
 */
static int run_all(struct fake_tree *t, const char *dir, struct result *rasd, struct result *base)
{
	int runs = getenv("BENCH_RUNS") ? atoi(getenv("BENCH_RUNS")) : 3;

	if (runs < 1)
		runs = 1;
	for (int i = 0; i < runs; i++) {
		struct result b = { 0 };

		for (size_t c = 0; c < N_CONFS; c++) {
			struct result r = { 0 };

			remove_db(dir, confs[c].db);
			if (run_rasd(t->root, dir, &confs[c], &r) < 0)
				return -1;
			if (!rasd[c].wall || r.wall < rasd[c].wall)
				rasd[c] = r;
		}
		remove_db(dir, "baseline.db");
		if (run_baseline(t, dir, &b) < 0)
			return -1;
		if (!base->wall || b.wall < base->wall)
			*base = b;
	}
	return runs;
}

static void print_rasd(const struct bench_conf *bc, const struct result *r, long n)
{
	printf("%-9s %ld records in %.2f s wall, %.2f s CPU -> %.0f records/s (per CPU second: %.0f)\n",
	       bc->label, n, r->wall, r->cpu, n / r->wall, n / r->cpu);
	printf("          CPU by thread: event loop %.2f s, writer %.2f s, checkpointer %.2f s"
	       " (sampled every 20 ms)\n", threads_cpu(r, "rasd"), threads_cpu(r, "rasd-writer"),
	       threads_cpu(r, "rasd-checkpoint"));
	printf("          peak RSS %.1f MiB during the storm; database %.1f bytes/record\n",
	       r->rss_kb / 1024.0, (double)r->db_bytes / (double)n);
}

/* The figures against the baseline's: share of its rate, and CPU per record as a multiple. */
static void print_ratio(const struct bench_conf *bc, const struct result *r, long n,
			const struct result *base)
{
	double rate = n / r->wall, base_rate = base->records / base->wall;
	double cpu_rec = r->cpu / n, base_cpu_rec = base->cpu / base->records;

	printf("ratio:    %-9s %3.0f %% of the baseline's rate (wall); CPU per record %.1f x the"
	       " baseline's (%.2f vs %.2f us)\n", bc->label, 100.0 * rate / base_rate,
	       cpu_rec / base_cpu_rec, cpu_rec * 1e6, base_cpu_rec * 1e6);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	struct fake_tree t;
	struct result rasd[N_CONFS], base = { 0 };
	char dir[256];
	long idle, idle_anon = -1, idle_pss = -1;
	int runs;

	memset(rasd, 0, sizeof(rasd));
	test_tmpdir(dir, sizeof(dir));
	for (size_t c = 0; c < N_CONFS; c++)
		printf("bench: %-9s rasd with %s\n", confs[c].label, confs[c].words);
	printf("bench: building %ld varied records (50 %% mc_event, 35 %% mce_record, 12 %% aer_event,\n"
	       "       3 %% memory_failure/extlog; linux-6.1 formats, 2 CPUs)...\n", n);
	if (build_tree(&t, n) < 0 || (runs = run_all(&t, dir, rasd, &base)) < 0) {
		fprintf(stderr, "bench: failed\n");
		return 1;
	}
	for (size_t c = 0; c < N_CONFS; c++) {
		if (print_stored(dir, confs[c].db, confs[c].label) != n) {
			fprintf(stderr, "bench: rasd (%s) did not store every record\n", confs[c].label);
			return 1;
		}
	}
	idle = idle_rss_kb(dir, &idle_anon, &idle_pss);
	printf("runs:     each configuration and the baseline in turn, %d times each; the fastest of each below\n",
	       runs);
	for (size_t c = 0; c < N_CONFS; c++)
		print_rasd(&confs[c], &rasd[c], n);
	if (idle >= 0)
		printf("rasd:     idle RSS %.1f MiB, of which private (anonymous) %.1f MiB, the rest\n"
		       "          shared library pages; PSS %.1f MiB (live instance, after 2 s)\n",
		       idle / 1024.0, idle_anon / 1024.0, idle_pss / 1024.0);
	else
		printf("rasd:     idle RSS not measured (needs root and tracefs)\n");
	printf("baseline: %ld records in %.2f s wall, %.2f s CPU -> %.0f records/s (per CPU second: %.0f)\n",
	       base.records, base.wall, base.cpu, base.records / base.wall, base.records / base.cpu);
	printf("baseline: database %.1f bytes/record (one table, no index, nothing decoded)\n",
	       (double)base.db_bytes / (double)base.records);
	for (size_t c = 0; c < N_CONFS; c++)
		print_ratio(&confs[c], &rasd[c], n, &base);
	if (getenv("BENCH_KEEP")) {
		printf("kept tree %s\n", t.root);
		return 0;
	}
	fake_tree_destroy(&t);
	/* BENCH_QUERY_RECORDS=0 skips the query half (it builds a 10-million-record database). */
	if (!getenv("BENCH_QUERY_RECORDS") || atol(getenv("BENCH_QUERY_RECORDS")) > 0)
		bench_queries(dir, 10000, getenv("BENCH_QUERY_RECORDS") ?
				  atol(getenv("BENCH_QUERY_RECORDS")) : 10000000);
	test_rmtree(dir);
	return 0;
}
