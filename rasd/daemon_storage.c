/* SPDX-License-Identifier: MIT */
/*
 * rasd's storage as it fails and recovers: the database opened at start
 * (waiting with back-off), the state reported once per change, reading
 * paused past the memory bound, a corrupt or moved database replaced, the
 * held records retried, and what a stop leaves unstored counted.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>
#include "lib/clock.h"
#include "lib/tracing.h"
#include "daemon_internal.h"
#include "log.h"

/* A stop asked for while rasd waits for its storage (signals stay blocked until the loop). */
bool daemon_stop_requested(void *ctx)
{
	struct rasd *d = ctx;
	sigset_t set;

	return d->stop || (sigpending(&set) == 0 &&
			   (sigismember(&set, SIGTERM) || sigismember(&set, SIGINT)));
}

struct ras_pipeline *daemon_failing_pipe(struct rasd *d)
{
	if (d->pipe.failing)
		return &d->pipe;
	if (d->boot && d->boot->pipe.failing)
		return &d->boot->pipe;
	return NULL;
}

uint64_t daemon_records_waiting(struct rasd *d)
{
	return d->pipe.pending.records + (d->boot ? d->boot->pipe.pending.records : 0);
}

static bool memory_bound_reached(struct rasd *d)
{
	return (d->pipe.failing && ras_pipeline_hold_full(&d->pipe)) ||
	       (d->boot && d->boot->pipe.failing && ras_pipeline_hold_full(&d->boot->pipe));
}

/* Past the memory bound the per-CPU fds leave epoll: records wait in the kernel buffer. */
static void pace_reading(struct rasd *d)
{
	bool pause = memory_bound_reached(d);

	if (pause == d->paused || !d->reader)
		return;
	d->paused = pause;
	if (pause) {
		ras_reader_unwatch(d->reader, d->epfd);
		if (d->boot)
			ras_reader_unwatch(d->boot->reader, d->epfd);
		ras_log(LOG_WARNING, "%llu records held in memory; reading paused, new records wait "
			"in the kernel buffer (what it cannot hold is counted as lost)",
			(unsigned long long)daemon_records_waiting(d));
		return;
	}
	ras_reader_watch(d->reader, d->epfd, TAG_CPU);
	if (d->boot)
		ras_reader_watch(d->boot->reader, d->epfd, TAG_BOOT_CPU);
}

/* Reports a change of state once (log, STATUS=, state file, and a row once it works again). */
void daemon_storage_update(struct rasd *d)
{
	struct ras_pipeline *f = daemon_failing_pipe(d);
	bool was = d->storage.failing;
	char detail[600], when[40];

	if (was && !f) {
		ras_format_time(d->storage.since_ns, when, sizeof(when));
		snprintf(detail, sizeof(detail), "failing from %s: %s", when, d->storage.reason);
	}
	rasd_storage_set(&d->storage, f != NULL, f ? f->fail_since_ns : 0, f ? f->fail_reason : "",
			 daemon_records_waiting(d));
	if (was && !f && ras_db_storage_event(d->db, "recovered", detail) < 0)
		ras_log(LOG_WARNING, "cannot record the recovery: %s", ras_db_errmsg(d->db));
	pace_reading(d);
}

/*
 * The writer thread's eventfd in the loop's epoll: a commit behind wakes the
 * loop when it is made or fails, instead of a look every millisecond. A
 * database closed took its fd (and its epoll entry) with it; one kept (a
 * replacement that failed) is in the set already.
 */
static void watch_commits(struct rasd *d)
{
	struct epoll_event ee = { .events = EPOLLIN, .data.u64 = TAG_COMMIT };
	int fd = d->db ? ras_db_commit_fd(d->db) : -1;

	d->commit_fd = -1;
	if (fd >= 0 && (epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ee) == 0 || errno == EEXIST))
		d->commit_fd = fd;
	d->pipe.commit_fd_polled = d->commit_fd >= 0;
}

/*
 * A storm's inserts run on a thread of their own (db_writer.c), SQLite's work
 * on one core while this loop reads and decodes on the other. Without the
 * thread everything stays on this one, as correct, only slower.
 */
static void start_write_behind(struct rasd *d)
{
	int r = d->db ? ras_db_write_behind_start(d->db) : 0;

	if (r < 0)
		ras_log(LOG_WARNING, "records are stored on the event loop's thread: no writer thread: %s",
			strerror(-r));
	watch_commits(d);
}

/*
 * Corruption found in use: a fresh database takes the held records (the old
 * one is kept aside). The file removed or replaced: the path is opened again.
 */
static void replace_lost_db(struct rasd *d)
{
	struct ras_pipeline *f = daemon_failing_pipe(d);
	char boot_id[64], err[PATH_MAX + 600];

	if (!f || (d->db && f->db_error != -EBADMSG && f->db_error != -ESTALE) ||
	    ras_boot_id(boot_id, sizeof(boot_id)) < 0)
		return;
	/* Its statements on the old database go first, or SQLite cannot close it. */
	ras_actions_set_db(d->actions, NULL);
	rasd_health_set_db(d->health, NULL);
	if (d->db && f->db_error == -ESTALE)
		rasd_storage_reopen_moved(&d->storage, boot_id, &d->db, f->fail_reason);
	else if (d->db)
		rasd_storage_replace_corrupt(&d->storage, boot_id, &d->db, f->fail_reason);
	else if (ras_db_open_writer(&d->db, d->storage.db_path, boot_id, err, sizeof(err)) < 0)
		d->db = NULL;  /* still no database: the records stay held */
	start_write_behind(d);
	rasd_storage_note_db(&d->storage, d->db);
	/* While failing the pipelines never touch it; they retry only once there is one. */
	d->pipe.db = d->db;
	if (d->boot)
		d->boot->pipe.db = d->db;
	if (ras_actions_set_db(d->actions, d->db) < 0)
		ras_log(LOG_WARNING, "thresholds cannot use the new database: %s", ras_db_errmsg(d->db));
	if (rasd_health_set_db(d->health, d->db) < 0)
		ras_log(LOG_WARNING, "the diagnosis cannot use the new database: %s", ras_db_errmsg(d->db));
	if (d->pipe.previous_boot)
		d->pipe.boot = 0;
}

/* When the back-off has passed: store everything held, in one transaction per pipeline. */
void daemon_storage_retry(struct rasd *d)
{
	if (!daemon_failing_pipe(d) || rasd_storage_timeout_ms(&d->storage) != 0)
		return;
	replace_lost_db(d);
	if (!d->db) {
		rasd_storage_backoff(&d->storage);
		return;
	}
	ras_pipeline_retry(&d->pipe, d->reader);
	if (d->boot)
		ras_pipeline_retry(&d->boot->pipe, d->boot->reader);
	if (daemon_failing_pipe(d)) {
		rasd_storage_backoff(&d->storage);
		d->storage.waiting = daemon_records_waiting(d);
		rasd_storage_write(&d->storage);
	}
	daemon_storage_update(d);
}

/* Before the loop runs (a boot buffer being harvested): wait here, with back-off, until stored. */
int daemon_hold_until_stored(struct rasd *d, struct ras_pipeline *p, struct ras_reader *r)
{
	while (p->failing) {
		rasd_storage_set(&d->storage, true, p->fail_since_ns, p->fail_reason,
				 p->pending.records);
		if (daemon_stop_requested(d)) {
			d->storage.unstored += p->pending.records;
			return -EINTR;
		}
		usleep((unsigned)rasd_storage_timeout_ms(&d->storage) * 1000u);
		if (ras_pipeline_retry(p, r) < 0)
			rasd_storage_backoff(&d->storage);
	}
	rasd_storage_set(&d->storage, false, 0, "", 0);
	return 0;
}

/* A stop while the database fails: one last try, then what is still held is counted. */
void daemon_settle_storage_at_exit(struct rasd *d)
{
	if (!daemon_failing_pipe(d))
		return;
	d->storage.retry_at_ms = 0;
	daemon_storage_retry(d);
	if (!daemon_failing_pipe(d))
		return;
	d->storage.unstored += daemon_records_waiting(d);
	ras_log(LOG_CRIT, "stopping while storage fails (%s): %llu records read but not stored are "
		"counted as lost at the next start; instance %s is kept with what it still holds",
		d->storage.reason, (unsigned long long)daemon_records_waiting(d), d->tr.instance_dir);
}

/* What a stop left unstored last time is counted as lost now (cpu -1, origin "storage"). */
static void count_previous_unstored(struct rasd *d)
{
	struct ras_db_lost lost = {
		.cpu = -1, .count = (long long)rasd_storage_previous_unstored(&d->storage),
		.origin = "storage", .instance = d->cfg->instance,
	};

	if (!lost.count)
		return;
	if (ras_db_begin(d->db) < 0 || ras_db_insert_lost(d->db, &lost) < 0 || ras_db_commit(d->db) < 0) {
		ras_db_rollback(d->db);
		d->storage.unstored = (uint64_t)lost.count;  /* still owed: kept in the state file */
		return;
	}
	ras_log(LOG_WARNING, "%lld records the last rasd read but could not store are counted "
		"as lost", lost.count);
}

/*
 * Between attempts to open the database at start. The instance records
 * already (its records wait in the kernel buffer), so systemd is told the
 * service is up, with the failure in STATUS=, and its watchdog is fed: a
 * full disk at boot must not hold up the boot or get rasd killed.
 */
static bool wait_for_storage(void *ctx)
{
	struct rasd *d = ctx;

	if (d->recording) {
		sd_notify(0, "READY=1");
		sd_notify(0, "WATCHDOG=1");
	}
	return daemon_stop_requested(d);
}

int daemon_open_db(struct rasd *d)
{
	char boot_id[64];
	int r = ras_boot_id(boot_id, sizeof(boot_id));

	if (r < 0) {
		ras_log(LOG_ERR, "cannot read the boot id: %s", strerror(-r));
		return r;
	}
	r = rasd_storage_open(&d->storage, d->cfg->database, boot_id, &d->db, wait_for_storage, d);
	if (r < 0)
		return r;
	start_write_behind(d);
	count_previous_unstored(d);
	rasd_storage_note_db(&d->storage, d->db);
	return 0;
}
