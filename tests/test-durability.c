/* SPDX-License-Identifier: MIT */
/*
 * Group commits and what rasd reports of them: the durability histogram's
 * quantiles (never below the true value, at most 1/16 above), when a group is
 * due, and the checkpoint thread keeping the log bounded while the writer
 * commits.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "rasd/durability.h"
#include "rasd/pipeline.h"

static void histogram(void)
{
	struct rasd_durability h = { 0 };
	int64_t p50, p99;

	tap_is_int(rasd_durability_quantile_us(&h, 0.99), 0, "an empty histogram says 0");
	for (int ms = 1; ms <= 1000; ms++)
		rasd_durability_add(&h, (int64_t)ms * 1000000);
	p50 = rasd_durability_quantile_us(&h, 0.5);
	p99 = rasd_durability_quantile_us(&h, 0.99);
	tap_ok(p50 >= 500000 && p50 <= 500000 + 500000 / 16, "p50 of 1..1000 ms is 500 ms (%lld us)",
	       (long long)p50);
	tap_ok(p99 >= 990000 && p99 <= 990000 + 990000 / 16, "p99 of 1..1000 ms is 990 ms (%lld us)",
	       (long long)p99);
	tap_is_int(h.max_us, 1000000, "the maximum is exact");
	tap_is_int(rasd_durability_quantile_us(&h, 1.0), 1000000, "the 1.0 quantile is the maximum");
	tap_is_int(h.count, 1000, "one sample per record");
	rasd_durability_add(&h, -5000000);
	tap_is_int(h.bucket[0], 1, "a clock step backwards counts as 0, not as a huge wait");
}

static void group_due(void)
{
	struct rasd_config cfg = { .commit_delay_ms = 50 };
	struct ras_pipeline p = { .cfg = &cfg };
	int64_t now = 1000 * 1000000000LL;

	tap_ok(ras_pipeline_commit_due(&p, now), "nothing waiting: commit what there is");
	tap_is_int(ras_pipeline_commit_timeout_ms(&p, now), -1, "nothing waiting: no timer");
	p.group_first_ns = now - 10 * 1000000LL;
	p.in_txn = 3;
	tap_ok(!ras_pipeline_commit_due(&p, now), "a 10 ms old group of 3 waits");
	tap_is_int(ras_pipeline_commit_timeout_ms(&p, now), 40, "for the 40 ms it has left");
	tap_ok(ras_pipeline_commit_due(&p, now + 40 * 1000000LL), "and is due at 50 ms");
	tap_is_int(ras_pipeline_commit_timeout_ms(&p, now + 60 * 1000000LL), 0, "late: now");
	p.in_txn = 256;
	tap_ok(!ras_pipeline_commit_due(&p, now), "a group of 256 waits too: a storm's group grows");
	p.in_txn = 3;
	p.group_first_ns = now + 10 * 1000000000LL;
	tap_is_int(ras_pipeline_commit_timeout_ms(&p, now), 50, "a clock stepped back: no more than the delay");
	p.failing = true;
	tap_is_int(ras_pipeline_commit_timeout_ms(&p, now), -1, "failing: the storage back-off decides");
	cfg.commit_delay_ms = 0;
	p.failing = false;
	p.group_first_ns = now;
	tap_ok(ras_pipeline_commit_due(&p, now), "commit_delay_ms 0: every wake-up commits");
}

static off_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : 0;
}

/* 8 MB committed 16 KB at a time by the writer: a thread copies the log into the database. */
static void checkpoints(void)
{
	char dir[] = "/tmp/ras-fdr-durability-XXXXXX", path[128], wal[140], err[512];
	static char detail[16384];
	struct ras_db *db;
	int stored = 0;
	off_t copied = 0;

	if (!tap_ok(mkdtemp(dir) != NULL, "temporary directory"))
		return;
	chmod(dir, 0700);
	snprintf(path, sizeof(path), "%s/ras.db", dir);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (!tap_ok(ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) == 0, "db: %s", err))
		return;
	memset(detail, 'x', sizeof(detail) - 1);
	/* Outside a transaction each row is a commit of its own, on the writer's connection. */
	for (int i = 0; i < 512; i++)
		stored += ras_db_storage_event(db, "filler", detail) == 0;
	tap_is_int(stored, 512, "512 commits of 16 KB");
	/*
	 * The thread copies the log each time it holds 4 MiB; a pass that ran late copies
	 * more and the log restarts, so what is left uncopied is under one threshold, and
	 * how much was copied depends on timing. Wait until the copies settle (1 s with no
	 * growth, 30 s at most), then compare with what closing copies.
	 */
	for (int i = 0, still = 0; i < 600 && still < 20; i++) {
		off_t now;

		usleep(50000);
		now = size_of(path);
		still = now == copied && now >= 4 << 20 ? still + 1 : 0;
		copied = now;
	}
	tap_ok(copied >= 4 << 20, "the log was copied into the database while the writer kept it "
	       "open (%lld bytes)", (long long)copied);
	/* Past four times the 4 MiB threshold the writer checkpoints itself. */
	tap_ok(size_of(wal) <= 4 * (4 << 20) + (1 << 20), "the log stays bounded (%lld bytes)",
	       (long long)size_of(wal));
	ras_db_close(db);
	tap_ok(size_of(wal) == 0, "closing the writer leaves no log behind");
	tap_ok(size_of(path) - copied <= (4 << 20) + (64 << 10), "at most one threshold of log waited "
	       "uncopied (%lld of %lld bytes)", (long long)(size_of(path) - copied), (long long)size_of(path));
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	histogram();
	group_due();
	checkpoints();
	tap_done();
	return 0;
}
