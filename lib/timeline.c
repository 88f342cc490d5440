/* SPDX-License-Identifier: MIT */
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "safe_path.h"
#include "timeline.h"

#define TL_NOTES (1u << 20)
#define TL_FRAMES 4
#define TL_THREADS 16

struct tl_note {
	int64_t mono_ns, cpu_ns, queued_ns;
	int32_t tid;
	uint8_t span, begin, frames;
	void *caller[TL_FRAMES];
};

bool ras_tl_on;
static char *tl_path;
static struct tl_note *tl_notes;
static uint32_t tl_next;
static int64_t tl_start_ns;
static struct { int32_t tid; int fd; char name[16]; } tl_threads[TL_THREADS];
static uint32_t tl_nthreads;
static __thread int32_t tl_tid;
static __thread int tl_schedstat = -1;

/* The executable's load address: callers are written as offsets addr2line reads. */
extern const char __executable_start[];

static const char *const span_names[RAS_TL_SPANS] = {
	"setup", "open_db", "taken_back", "run", "stop", "settle_folds", "teardown", "db_close",
	"wait_room", "wait_sync",
	"wait_commit", "writer_idle", "writer_commit", "checkpoint", "ckpt_join", "writer_join",
	"fill", "poll", "commit", "confirm", "give_back",
};

static void note_thread(void)
{
	uint32_t i;

	tl_tid = gettid();
	tl_schedstat = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	i = __atomic_fetch_add(&tl_nthreads, 1, __ATOMIC_RELAXED);
	if (i < TL_THREADS) {
		tl_threads[i].tid = tl_tid;
		tl_threads[i].fd = tl_schedstat;
		pthread_getname_np(pthread_self(), tl_threads[i].name, sizeof(tl_threads[i].name));
	}
}

/* The thread's time runnable but not running (schedstat's second field), or -1. */
static int64_t queued_ns(void)
{
	char buf[96];
	long long run, wait;
	ssize_t n;

	if (tl_schedstat < 0 || (n = pread(tl_schedstat, buf, sizeof(buf) - 1, 0)) <= 0)
		return -1;
	buf[n] = 0;
	return sscanf(buf, "%lld %lld", &run, &wait) == 2 ? wait : -1;
}

void ras_tl_note(enum ras_tl_span span, bool begin)
{
	uint32_t i = __atomic_fetch_add(&tl_next, 1, __ATOMIC_RELAXED);
	struct tl_note *n;

	if (i >= TL_NOTES)
		return;
	if (!tl_tid)
		note_thread();
	n = &tl_notes[i];
	n->mono_ns = ras_clock_ns(CLOCK_MONOTONIC);
	n->cpu_ns = ras_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	n->queued_ns = queued_ns();
	n->tid = tl_tid;
	n->span = (uint8_t)span;
	n->begin = begin;
	/* Who waits: the frames above ras_tl_note and the waiting function. */
	if (begin && span >= RAS_TL_WAIT_ROOM && span <= RAS_TL_WAIT_COMMIT) {
		void *bt[TL_FRAMES + 2];
		int k = backtrace(bt, TL_FRAMES + 2);

		for (int j = 2; j < k; j++)
			n->caller[n->frames++] = bt[j];
	}
}

/* The file's name, "%p" in it replaced by the process id: one file per rasd a bench starts. */
static char *path_of(const char *p)
{
	const char *at = strstr(p, "%p");
	char *out;
	size_t n;

	if (!at)
		return strdup(p);
	n = strlen(p) + 24;
	if ((out = malloc(n)))
		snprintf(out, n, "%.*s%d%s", (int)(at - p), p, (int)getpid(), at + 2);
	return out;
}

void ras_tl_open(void)
{
	const char *p = getenv("RAS_FDR_TIMELINE");
	void *bt[1];

	if (!p || !*p || !(tl_path = path_of(p)))
		return;
	if (!(tl_notes = calloc(TL_NOTES, sizeof(*tl_notes)))) {
		free(tl_path);
		tl_path = NULL;
		return;
	}
	/* backtrace loads libgcc at its first call: not inside a measured wait. */
	backtrace(bt, 1);
	tl_start_ns = ras_clock_ns(CLOCK_MONOTONIC);
	ras_tl_on = true;
}

static void write_notes(FILE *f, uint32_t n)
{
	fprintf(f, "# ras-fdr timeline 2: B|E tid span ns cpu_ns queued_ns callers; start %lld ns (CLOCK_MONOTONIC), %u notes, %u dropped\n",
		(long long)tl_start_ns, n, tl_next > n ? tl_next - n : 0);
	for (uint32_t i = 0; i < tl_nthreads && i < TL_THREADS; i++)
		fprintf(f, "T %d %s\n", tl_threads[i].tid, tl_threads[i].name);
	for (uint32_t i = 0; i < n; i++) {
		const struct tl_note *t = &tl_notes[i];

		fprintf(f, "%c %d %s %lld %lld %lld", t->begin ? 'B' : 'E', t->tid, span_names[t->span],
			(long long)(t->mono_ns - tl_start_ns), (long long)t->cpu_ns, (long long)t->queued_ns);
		for (unsigned j = 0; j < t->frames; j++)
			fprintf(f, " %#lx", (unsigned long)((const char *)t->caller[j] - __executable_start));
		fputc('\n', f);
	}
}

void ras_tl_close(void)
{
	uint32_t n = tl_next < TL_NOTES ? tl_next : TL_NOTES;
	int fd;
	FILE *f;

	if (!ras_tl_on)
		return;
	ras_tl_on = false;
	/*
	 * rasd runs as root and the path comes from the environment: no link
	 * followed, no one else's file written (lib/safe_path.h); emptied only
	 * once it passed.
	 */
	fd = ras_open_safe(tl_path, O_WRONLY | O_CREAT);
	if (fd >= 0 && ftruncate(fd, 0) < 0) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0 && (f = fdopen(fd, "w"))) {
		write_notes(f, n);
		fclose(f);
	} else if (fd >= 0) {
		close(fd);
	}
	for (uint32_t i = 0; i < tl_nthreads && i < TL_THREADS; i++)
		if (tl_threads[i].fd >= 0)
			close(tl_threads[i].fd);
	free(tl_notes);
	free(tl_path);
	tl_notes = NULL;
}
