/* SPDX-License-Identifier: MIT */
/*
 * Subjects seen once spilled while a writer thread takes the writes, as in
 * rasd under a storm (issue 39): with the once-seen set shrunk to a few
 * hundred, a storm over fresh pages spills thousands, and neither the spill
 * nor the look-up of a page never spilled waits for the writer thread. That
 * is shown with the writer thread held inside a job until the storm is
 * counted: a wait for it (ras_db_sync) would never return while it is held.
 * A stream of fresh and returning pages then ends with the same buckets and
 * crossings as with a set big enough for every page and no writer thread;
 * so it does with the spill's index in memory bounded to a few keys (every
 * take asks the table). With the temporary storage full, a spill handed to
 * the writer thread fails its transaction: the spill is given up with its
 * warning, the batch is given again, and each page is counted once.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "db/db.h"
#include "db/db_actions.h"
#include "db/db_internal.h"
#include "db/db_writer_internal.h"
#include "lib/config.h"
#include "rasd/actions_internal.h"
#include "spill_fixture.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define SEC 1000000000LL
#define MS 1000000LL
#define HELD 300
#define STORM 5000
#define BATCH 1000

static char dir[512];

/* Opens path with actions at 3/24h on pages; a once-seen set for held subjects (0: rasd's). */
static int open_all(const char *name, struct rasd_config *cfg, size_t held, bool behind,
		    struct ras_db **db, struct ras_actions **a)
{
	return spill_open_held(dir, name, "boot-spill", "3/24h", held, behind, cfg, db, a);
}

/* The pipeline's commit: on any failure rolled back, for the batch to be given again. */
static int commit(struct ras_actions *a, struct ras_db *db)
{
	if (ras_actions_flush(a) < 0 || ras_db_commit(db) < 0) {
		ras_db_rollback(db);
		ras_actions_rolled_back(a);
		return -1;
	}
	ras_actions_committed(a);
	return 0;
}

static void test_no_wait(void)
{
	struct rasd_config cfg;
	struct ras_actions *a = NULL;
	struct ras_db *db = NULL;
	int64_t t0 = (int64_t)1795000000 * SEC;
	int crossed = 0;

	if (!tap_ok(open_all("nowait.db", &cfg, HELD, true, &db, &a) == 0 && spill_begin(db) == 0,
		    "a database with a writer thread, a once-seen set for %d", HELD))
		return;
	if (!tap_ok(writer_hold_start(db) == 0, "the writer thread is held inside a job"))
		return;
	for (unsigned i = 0; i < STORM; i++) {
		struct ras_subject s = page(i);

		crossed += actions_count_errors(a, &s, t0 + (int64_t)i * MS, COUNT_LIVE) != NULL;
	}
	tap_ok(writer_hold_release(), "%d fresh pages counted while it was held: none waited for it", STORM);
	tap_is_int(crossed, 0, "none crosses");
	tap_is_int(commit(a, db), 0, "the batch commits");
	tap_is_int(spill_held(a), STORM,
		   "memory and spill hold every page once");
	tap_ok(spilled(a) > STORM / 2, "most in the spill (%d)", spilled(a));
	spill_close_actions(db, a);
}

/*
 * The stream: STORM fresh pages, then every third again and every ninth a
 * third time (3/24h: it crosses), in batches of BATCH records. The buckets
 * left and the crossings, as "crossings:rows:sum(level):sum(total)", and the
 * pages still held (memory and spill).
 */
static int run_stream(struct ras_actions *a, struct ras_db *db, int64_t t0, int *crossed)
{
	unsigned n = 0;

	*crossed = 0;
	for (unsigned pass = 0; pass < 3; pass++) {
		for (unsigned i = 0; i < STORM; i++) {
			struct ras_subject s = page(i);
			struct entry *e;

			if ((pass == 1 && i % 3) || (pass == 2 && i % 9))
				continue;
			if (n % BATCH == 0 && spill_begin(db) < 0)
				return -1;
			e = actions_count_errors(a, &s, t0 + (int64_t)(pass * STORM + i) * MS, COUNT_LIVE);
			if (e) {
				e->b.level = 0;
				(*crossed)++;
			}
			if (++n % BATCH == 0 && commit(a, db) < 0)
				return -1;
		}
	}
	return n % BATCH ? commit(a, db) : 0;
}

static void test_same_counts(void)
{
	struct rasd_config cfg[3];
	struct ras_actions *a = NULL;
	struct ras_db *db = NULL;
	int64_t t0 = (int64_t)1795000000 * SEC;
	struct spill_outcome out[3] = { { .db = "big.db" }, { .db = "small.db" }, { .db = "bound.db" } };
	char path[700];

	if (!tap_ok(open_all("big.db", &cfg[0], 0, false, &db, &a) == 0 &&
		    run_stream(a, db, t0, &out[0].crossed) == 0, "the stream with rasd's set, no writer thread"))
		return;
	out[0].held = spill_held(a);
	tap_is_int(spilled(a), 0, "nothing spilled");
	spill_close_actions(db, a);
	if (!tap_ok(open_all("small.db", &cfg[1], HELD, true, &db, &a) == 0 &&
		    run_stream(a, db, t0, &out[1].crossed) == 0,
		    "the same stream with a set for %d and a writer thread", HELD))
		return;
	out[1].held = spill_held(a);
	tap_ok(spilled(a) > 0, "spilled (%d still)", spilled(a));
	spill_close_actions(db, a);
	if (!tap_ok(open_all("bound.db", &cfg[2], HELD, true, &db, &a) == 0, "once more"))
		return;
	ras_db_once_spill_bound(a->dba, 16);
	tap_ok(run_stream(a, db, t0, &out[2].crossed) == 0,
	       "with the spill's index in memory bounded to 16 keys");
	out[2].held = spill_held(a);
	spill_close_actions(db, a);
	tap_ok(out[0].crossed > 0, "pages cross (%d)", out[0].crossed);
	spill_same_as(dir, &out[0], &out[1], "spilled");
	spill_same_as(dir, &out[0], &out[2], "bounded");
	snprintf(path, sizeof(path), "%s/big.db", dir);
	tap_ok(test_sql_int(path, "SELECT count(*) FROM buckets") > 0, "(there are bucket rows: %lld)",
	       (long long)test_sql_int(path, "SELECT count(*) FROM buckets"));
}

/* The batch of the spill-full test: given once, rolled back, given again. */
struct full_run {
	struct ras_actions *a;
	struct ras_db *db;
	int64_t t0;
	int first, second;
};

static void count_batch(struct full_run *r, unsigned from)
{
	for (unsigned i = 0; i < STORM; i++) {
		struct ras_subject s = page(from + i);

		actions_count_errors(r->a, &s, r->t0 + (int64_t)i * MS, COUNT_LIVE);
	}
}

static void full_batch(struct full_run *r)
{
	r->first = spill_begin(r->db) < 0 ? -2 : (count_batch(r, 10 * STORM), commit(r->a, r->db));
	r->second = spill_begin(r->db) < 0 ? -2 : (count_batch(r, 10 * STORM), commit(r->a, r->db));
}

/* stderr into path while r's batch runs; what it wrote there. */
static void with_stderr(const char *path, struct full_run *r, char *out, size_t len)
{
	int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t n = 0;
	FILE *f;

	fflush(stderr);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
	full_batch(r);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if ((f = fopen(path, "r"))) {
		n = fread(out, 1, len - 1, f);
		fclose(f);
	}
	out[n] = 0;
}

static int count_in(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/*
 * The temporary storage full (temp.max_page_count): the spill handed to the
 * writer thread fails there, and SQLite rolls the transaction back, so the
 * commit fails and the batch is rolled back; the spill is given up with its
 * one warning, and the batch given again commits, each page counted once.
 */
static void test_spill_full(void)
{
	struct rasd_config cfg;
	struct full_run r = { .t0 = (int64_t)1795000000 * SEC };
	char sql[80], log[700], text[4096];
	int64_t pages = 0;
	int held;

	if (!tap_ok(open_all("full.db", &cfg, HELD, true, &r.db, &r.a) == 0, "a database for the full spill"))
		return;
	ras_db_int(r.db, "PRAGMA temp.page_count", &pages);
	snprintf(sql, sizeof(sql), "PRAGMA temp.max_page_count = %lld", (long long)pages);
	ras_db_exec(r.db, sql);
	snprintf(log, sizeof(log), "%s/full.log", dir);
	with_stderr(log, &r, text, sizeof(text));
	tap_ok(r.first == -1, "the spill fails on the writer thread: the batch is rolled back (%d)", r.first);
	tap_is_int(count_in(text, "cannot hold subjects seen once"), 1, "the spill's warning, once");
	tap_ok(r.a->spill_off, "the spill is given up");
	tap_is_int(r.second, 0, "the batch given again commits, without the spill");
	held = spill_held(r.a);
	snprintf(log, sizeof(log), "%s/full.db", dir);
	tap_is_int(held + (int)test_sql_int(log, "SELECT count(*) FROM buckets WHERE total = 1"), STORM,
		   "memory holds %d, the rest have bucket rows: each page counted once", held);
	tap_is_int(spilled(r.a), 0, "nothing in the spill");
	spill_close_actions(r.db, r.a);
}

int main(void)
{
	if (test_tmpdir(dir, sizeof(dir)) < 0) {
		tap_ok(0, "a temporary directory");
		return tap_done();
	}
	test_no_wait();
	test_same_counts();
	test_spill_full();
	test_rmtree(dir);
	return tap_done();
}
