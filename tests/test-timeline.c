/* SPDX-License-Identifier: MIT */
/*
 * RAS_FDR_TIMELINE (lib/timeline.c): rasd --once over a replayed stream with
 * the variable set writes a timeline whose every span ends where it began, on
 * the thread it began on; the event loop's phases are there once each, in
 * order; the writer thread's waits are its own; the event loop's waits name a
 * caller; nothing was dropped. Without the variable no file is written, and
 * rasd stores the same records either way.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/stream.h"
#include "tap.h"
#include "test_util.h"

#define STREAM 3000
#define MAX_OPEN 64

static const char *const phases[] = { "setup", "open_db", "taken_back", "run", "stop", "teardown",
				      "db_close" };
#define N_PHASES (sizeof(phases) / sizeof(phases[0]))

static int build(struct fake_tree *t)
{
	char formats[1024];
	uint64_t seed = 0x9e3779b97f4a7c15ULL;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	if (fake_tree_create(t, formats, 2, "rasd", "boot") < 0)
		return -1;
	for (long i = 0; i < STREAM; i++)
		if (bench_stream_add(t, i, &seed) < 0)
			return -1;
	return fake_tree_finish(t);
}

static int run(const char *tree, const char *dir, const char *name, const char *timeline)
{
	char rasd[1024], db[600], lock[600], log[600];
	char *argv[] = { rasd, "--config", "/dev/null", "--tracing-dir", (char *)tree, "--db", db,
			 "--lock-dir", lock, "--once", NULL };
	int r;

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(db, sizeof(db), "%s/%s.db", dir, name);
	snprintf(lock, sizeof(lock), "%s/lock-%s", dir, name);
	snprintf(log, sizeof(log), "%s/%s.log", dir, name);
	if (timeline)
		setenv("RAS_FDR_TIMELINE", timeline, 1);
	else
		unsetenv("RAS_FDR_TIMELINE");
	r = test_run(argv, log);
	unsetenv("RAS_FDR_TIMELINE");
	return r;
}

/* The log's summary line says every record of the stream was stored. */
static bool stored_all(const char *dir, const char *name)
{
	char path[600], line[512], want[64];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.log", dir, name);
	snprintf(want, sizeof(want), "stored %d records (0 duplicates", STREAM);
	if (!(f = fopen(path, "re")))
		return false;
	while (fgets(line, sizeof(line), f))
		found |= strstr(line, want) != NULL;
	fclose(f);
	return found;
}

struct check {
	int notes, unmatched, wrong_thread, backwards, uncalled_waits, dropped;
	int phase_seen[N_PHASES], phase_order_ok, writer_idles, loop_tid, writer_on_loop;
};

static int phase_index(const char *span)
{
	for (size_t i = 0; i < N_PHASES; i++)
		if (!strcmp(phases[i], span))
			return (int)i;
	return -1;
}

/* One note: "B|E tid span ns cpu_ns queued_ns [callers]"; open spans kept in o. */
static void note(struct check *c, char (*o)[2][32], long long (*at)[2], int *n_open, const char *line)
{
	char be, span[32];
	int tid, used, last_phase = -1;
	long long ns, cpu, queued;

	if (sscanf(line, "%c %d %31s %lld %lld %lld%n", &be, &tid, span, &ns, &cpu, &queued, &used) != 6)
		return;
	c->notes++;
	if (be == 'B') {
		int p = phase_index(span);

		if (!strcmp(span, "setup"))
			c->loop_tid = tid;
		if (p >= 0) {
			for (size_t i = 0; i < N_PHASES; i++)
				if (c->phase_seen[i])
					last_phase = (int)i;
			c->phase_seen[p]++;
			/* Each begins after the last: open_db and taken_back inside setup, db_close inside teardown. */
			if (p <= last_phase)
				c->phase_order_ok = 0;
		}
		if (!strcmp(span, "writer_idle") && tid == c->loop_tid)
			c->writer_on_loop++;
		c->writer_idles += !strcmp(span, "writer_idle");
		if (!strncmp(span, "wait_", 5) && !line[used])
			c->uncalled_waits++;
		if (*n_open < MAX_OPEN) {
			snprintf(o[*n_open][0], 32, "%s", span);
			snprintf(o[*n_open][1], 32, "%d", tid);
			at[*n_open][0] = ns;
			at[(*n_open)++][1] = cpu;
		}
		return;
	}
	for (int i = *n_open - 1; i >= 0; i--) {
		if (strcmp(o[i][0], span))
			continue;
		c->wrong_thread += atoi(o[i][1]) != tid;
		c->backwards += ns < at[i][0] || cpu < at[i][1];
		memmove(&o[i], &o[i + 1], sizeof(o[0]) * (size_t)(*n_open - i - 1));
		memmove(&at[i], &at[i + 1], sizeof(at[0]) * (size_t)(*n_open - i - 1));
		(*n_open)--;
		return;
	}
	c->unmatched++;
}

static int read_timeline(const char *path, struct check *c)
{
	char line[512], open_[MAX_OPEN][2][32];
	long long at[MAX_OPEN][2];
	int n_open = 0;
	unsigned notes, dropped;
	FILE *f = fopen(path, "re");

	memset(c, 0, sizeof(*c));
	c->phase_order_ok = 1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "# ras-fdr timeline 2: %*[^,], %u notes, %u dropped", &notes, &dropped) == 2)
			c->dropped = (int)dropped;
		else if (line[0] == 'B' || line[0] == 'E')
			note(c, open_, at, &n_open, line);
	}
	fclose(f);
	c->unmatched += n_open;
	return 0;
}

int main(void)
{
	struct fake_tree t;
	char dir[256], timeline[600];
	struct check c;
	int all_once = 1;

	test_tmpdir(dir, sizeof(dir));
	snprintf(timeline, sizeof(timeline), "%s/timeline.txt", dir);
	tap_ok(build(&t) == 0, "a %d-record stream written to rasd's instance", STREAM);
	tap_is_int(run(t.root, dir, "on", timeline), 0, "rasd --once with RAS_FDR_TIMELINE set");
	tap_is_int(read_timeline(timeline, &c), 0, "it wrote the timeline");
	tap_ok(c.notes > 20, "%d notes", c.notes);
	tap_is_int(c.unmatched, 0, "every span that began ended");
	tap_is_int(c.wrong_thread, 0, "on the thread it began on");
	tap_is_int(c.backwards, 0, "at or after its begin, in wall and CPU time");
	tap_is_int(c.dropped, 0, "no note dropped");
	for (size_t i = 0; i < N_PHASES; i++)
		if (c.phase_seen[i] != 1 && strcmp(phases[i], "run"))
			all_once = 0;
	tap_ok(all_once && c.phase_order_ok, "the event loop's phases, once each, in order");
	tap_ok(c.writer_idles > 0 && !c.writer_on_loop, "the writer's waits (%d), none on the event loop",
	       c.writer_idles);
	tap_is_int(c.uncalled_waits, 0, "every wait of the event loop names its caller");
	unlink(timeline);
	tap_is_int(run(t.root, dir, "off", NULL), 0, "rasd --once without it");
	tap_ok(access(timeline, F_OK) != 0, "no timeline written");
	tap_ok(stored_all(dir, "on") && stored_all(dir, "off"), "every record stored, with it and without");
	/* rasd runs as root: a link planted at the path is not followed, its target not written. */
	char target[700], got[16] = "";
	FILE *f;

	snprintf(target, sizeof(target), "%s/target", dir);
	f = fopen(target, "w");
	if (f) {
		fputs("kept\n", f);
		fclose(f);
	}
	tap_ok(symlink(target, timeline) == 0, "a link planted at the timeline's path");
	tap_is_int(run(t.root, dir, "link", timeline), 0, "rasd --once with the link as RAS_FDR_TIMELINE");
	f = fopen(target, "r");
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = '\0';
		fclose(f);
	}
	tap_ok(!strcmp(got, "kept\n") && stored_all(dir, "link"),
	       "the link's target is as it was (%s), every record stored", got);
	fake_tree_destroy(&t);
	test_rmtree(dir);
	return tap_done();
}
