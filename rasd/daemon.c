/* SPDX-License-Identifier: MIT */
/*
 * rasd's one event loop: epoll over every per-CPU raw buffer, a signalfd
 * and, under a systemd watchdog, a timerfd. Nothing wakes it when idle.
 */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <tracefs.h>
#include <systemd/sd-daemon.h>
#include "lib/decode.h"
#include "daemon.h"
#include "lib/fdr.h"
#include "lib/hidden.h"
#include "lib/dimm_labels.h"
#include "edac_daemon.h"
#include "log.h"
#include "lib/safe_path.h"
#include "lib/clock.h"
#include "metrics_file.h"
#include "pipeline.h"
#include "storage.h"
#include "bmc_sel.h"
#include "actions.h"
#include "health.h"
#include "triggers.h"
#include "instance.h"
#include "lastwords.h"
#include "reload.h"
#include "reader_burst.h"
#include "register_labels.h"

#define TAG_SIGNAL 1
#define TAG_WATCHDOG 2
#define TAG_BMC 3
#define TAG_CPU 0x100000000ULL
#define TAG_BOOT_CPU 0x200000000ULL
#define TAG_TRIGGER 0x400000000ULL
#define PAGES_PER_DRAIN 256
/* How often the instance is checked for events or tracing someone else turned off. */
#define INSTANCE_CHECK_NS (10 * 1000000000LL)

/* An instance read by rasd other than its own: the boot buffer it adopted. */
struct adopted {
	struct ras_tracing tr;
	struct ras_reader *reader;
	struct ras_pipeline pipe;
};

struct rasd {
	struct rasd_config *cfg;
	const struct rasd_options *opt;
	struct ras_tracing tr;
	struct ras_formats *fmt;
	struct ras_db *db;
	struct ras_reader *reader;
	struct ras_pipeline pipe;
	struct adopted *boot;         /* the boot instance, when adopted */
	struct fdr *fdr;
	struct ras_triggers *trig;
	struct ras_actions *actions;  /* thresholds, actions, triggers: every pipeline feeds it */
	struct rasd_bmc_sel *sel;     /* SEL entries for the BMC (bmc_sel = yes) */
	struct rasd_health *health;   /* the diagnosis: every pipeline feeds it too */
	struct ras_decode_ctx dctx;   /* the lookups every pipeline decodes with */
	int epfd, sigfd, wdfd, lockfd;
	bool stop;
	int sel_rows;                 /* SEL outcomes written since the last commit */
	struct rasd_storage storage;  /* failing or not, as last reported */
	bool paused;                  /* per-CPU fds out of epoll: records wait in the kernel */
	struct rasd_burst burst;      /* under a storm, read by a tick, not at every record */
	bool recording;               /* the instance's events are on */
	unsigned enabled;             /* how many: said once rasd is ready */
	int64_t checked_ns;           /* the last instance check (all was right): monotonic */
	int64_t idled_ns;             /* the last go_idle: monotonic */
	int64_t checked_wall_ns;      /* the same, on the wall clock, to say since when */
	struct rasd_durability durability; /* live records: commit − arrival */
	struct rasd_durability commit_cost; /* the part of it spent committing */
};

/*
 * Stores everything buffered now in one instance, in the open group: it is
 * committed before returning when force is set or the group is due
 * (ras_pipeline_commit_due), otherwise when the loop's timer says so.
 * A storage failure is not an error here: the pipeline holds the records read
 * and, past its bound, reading stops so the rest waits in the kernel buffer.
 */
static int drain_reader(struct ras_tracing *tr, struct ras_reader *reader, struct ras_pipeline *pipe,
			bool force)
{
	bool more = true;

	ras_tracing_sync_clock(tr);
	/* A replayed tree's files are read to their end in one go. */
	while (more || (ras_reader_is_replay(reader) && !ras_reader_replay_done(reader))) {
		int r;

		if (pipe->failing && ras_pipeline_hold_full(pipe))
			break;
		r = ras_reader_drain(reader, PAGES_PER_DRAIN, &ras_pipeline_ops, pipe, &more);
		if (r < 0) {
			ras_log(LOG_ERR, "reading the ring buffer of %s failed: %s", tr->instance_dir,
				strerror(-r));
			return r;
		}
	}
	if (tr->real)
		ras_pipeline_check_stats(pipe, reader);
	if (force)
		ras_pipeline_commit(pipe);
	else if (ras_pipeline_commit_due(pipe, ras_clock_ns(CLOCK_REALTIME)))
		ras_pipeline_commit_group(pipe);
	return 0;
}

/* A stop asked for while rasd waits for its storage (signals stay blocked until the loop). */
static bool stop_requested(void *ctx)
{
	struct rasd *d = ctx;
	sigset_t set;

	return d->stop || (sigpending(&set) == 0 &&
			   (sigismember(&set, SIGTERM) || sigismember(&set, SIGINT)));
}

static struct ras_pipeline *failing_pipe(struct rasd *d)
{
	if (d->pipe.failing)
		return &d->pipe;
	if (d->boot && d->boot->pipe.failing)
		return &d->boot->pipe;
	return NULL;
}

static uint64_t records_waiting(struct rasd *d)
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
			(unsigned long long)records_waiting(d));
		return;
	}
	ras_reader_watch(d->reader, d->epfd, TAG_CPU);
	if (d->boot)
		ras_reader_watch(d->boot->reader, d->epfd, TAG_BOOT_CPU);
}

/* Reports a change of state once (log, STATUS=, state file, and a row once it works again). */
static void storage_update(struct rasd *d)
{
	struct ras_pipeline *f = failing_pipe(d);
	bool was = d->storage.failing;
	char detail[600], when[40];

	if (was && !f) {
		ras_format_time(d->storage.since_ns, when, sizeof(when));
		snprintf(detail, sizeof(detail), "failing from %s: %s", when, d->storage.reason);
	}
	rasd_storage_set(&d->storage, f != NULL, f ? f->fail_since_ns : 0, f ? f->fail_reason : "",
			 records_waiting(d));
	if (was && !f && ras_db_storage_event(d->db, "recovered", detail) < 0)
		ras_log(LOG_WARNING, "cannot record the recovery: %s", ras_db_errmsg(d->db));
	pace_reading(d);
}

/*
 * A storm's inserts run on a thread of their own (db_writer.c), SQLite's work
 * on one core while this loop reads and decodes on the other. Without the
 * thread everything stays on this one, as correct, only slower.
 */
static void start_write_behind(struct ras_db *db)
{
	int r = db ? ras_db_write_behind_start(db) : 0;

	if (r < 0)
		ras_log(LOG_WARNING, "records are stored on the event loop's thread: no writer thread: %s",
			strerror(-r));
}

/*
 * Corruption found in use: a fresh database takes the held records (the old
 * one is kept aside). The file removed or replaced: the path is opened again.
 */
static void replace_lost_db(struct rasd *d)
{
	struct ras_pipeline *f = failing_pipe(d);
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
	start_write_behind(d->db);
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
static void storage_retry(struct rasd *d)
{
	if (!failing_pipe(d) || rasd_storage_timeout_ms(&d->storage) != 0)
		return;
	replace_lost_db(d);
	if (!d->db) {
		rasd_storage_backoff(&d->storage);
		return;
	}
	ras_pipeline_retry(&d->pipe, d->reader);
	if (d->boot)
		ras_pipeline_retry(&d->boot->pipe, d->boot->reader);
	if (failing_pipe(d)) {
		rasd_storage_backoff(&d->storage);
		d->storage.waiting = records_waiting(d);
		rasd_storage_write(&d->storage);
	}
	storage_update(d);
}

/* Before the loop runs (a boot buffer being harvested): wait here, with back-off, until stored. */
static int hold_until_stored(struct rasd *d, struct ras_pipeline *p, struct ras_reader *r)
{
	while (p->failing) {
		rasd_storage_set(&d->storage, true, p->fail_since_ns, p->fail_reason,
				 p->pending.records);
		if (stop_requested(d)) {
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

static void refresh_edac(struct rasd *d, bool reload_labels);

/*
 * force: commit now whatever the group's age. An adopted boot instance shares
 * the database handle, so with one both pipelines commit at every wake-up.
 */
static int drain(struct rasd *d, bool force)
{
	uint64_t before = d->pipe.stored;
	int r = drain_reader(&d->tr, d->reader, &d->pipe, force || d->boot);

	if (r == 0 && d->boot)
		r = drain_reader(&d->boot->tr, d->boot->reader, &d->boot->pipe, true);
	/* A memory error may follow a DIMM swap or a driver reload: keep the topology current. */
	if (r == 0 && d->pipe.stored != before && !failing_pipe(d))
		refresh_edac(d, false);
	return r;
}

static void release_adopted(struct adopted *a, bool remove)
{
	if (!a)
		return;
	ras_reader_close(a->reader);
	ras_pipeline_free(&a->pipe);
	if (remove && a->tr.inst)
		tracefs_instance_destroy(a->tr.inst);
	ras_tracing_close(&a->tr, false);
	free(a);
}

/* After the drain: keep reading the boot buffer, or stop its events and leave it. */
static void settle_boot_instance(struct rasd *d, struct adopted *a)
{
	if (d->cfg->boot_instance_adopt && ras_tracing_set_watermark_zero(&a->tr) == 0 &&
	    ras_reader_watch(a->reader, d->epfd, TAG_BOOT_CPU) == 0) {
		ras_pipeline_free(&a->pipe);
		ras_pipeline_init(&a->pipe, d->fmt, d->db, &a->tr, d->cfg, &d->dctx, "live");
		a->pipe.fdr = d->fdr;
		a->pipe.actions = d->actions;
		a->pipe.health = d->health;
		d->boot = a;
		ras_log(LOG_INFO, "reading boot instance %s as a live one", a->tr.instance_dir);
		return;
	}
	ras_tracing_disable_all(&a->tr);
	release_adopted(a, d->cfg->boot_instance_remove);
}

/*
 * Stores the records of an instance rasd did not make: the early-boot one
 * (source "boot") or the persistent one from before the last reboot
 * (source "previous-boot", emptied afterwards so nothing is imported twice).
 */
static int harvest(struct rasd *d, const char *name, const char *source, bool previous)
{
	struct adopted *a;
	int r;

	if (!name[0] || !strcmp(name, d->cfg->instance))
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	if (ras_tracing_attach(&a->tr, d->tr.dir, name) < 0 ||
	    ras_reader_open(&a->reader, d->fmt->tep, a->tr.instance_dir, d->fmt->page_size,
			    !a->tr.real) < 0) {
		release_adopted(a, false);
		return 0;
	}
	/* No snapshots for these: the recorder holds what happens now, not then. */
	ras_pipeline_init(&a->pipe, d->fmt, d->db, &a->tr, d->cfg, &d->dctx, source);
	a->pipe.previous_boot = previous;
	a->pipe.actions = d->actions;
	a->pipe.health = d->health;
	r = drain_reader(&a->tr, a->reader, &a->pipe, true);
	if (r == 0)
		r = hold_until_stored(d, &a->pipe, a->reader);
	ras_log(LOG_INFO, "stored %llu records from %s instance %s (clock %s)",
		(unsigned long long)a->pipe.stored, source, a->tr.instance_dir, a->tr.clock_name);
	if (r < 0 || previous || !a->tr.real) {
		/*
		 * Emptied, the persistent buffer starts recording this boot for the
		 * next one; it was kept off (^traceoff) so two boots never mix.
		 */
		if (previous && a->tr.real && r == 0 &&
		    (ras_tracing_clear(&a->tr) < 0 || ras_tracing_on(&a->tr, true) < 0))
			ras_log(LOG_WARNING, "cannot re-arm persistent instance %s", a->tr.instance_dir);
		release_adopted(a, false);
		return r;
	}
	settle_boot_instance(d, a);
	return 0;
}

/*
 * What killed the previous boot (lastwords.h), stored before the loop runs,
 * waiting with back-off while the database fails, as a boot buffer is:
 * nothing leaves pstore until it is stored.
 */
static int harvest_lastwords(struct rasd *d)
{
	struct rasd_lastwords *lw;
	struct rasd_config cfg = *d->cfg;
	int r;

	/* A replayed tree is not this machine's kernel: its pstore is left to the rasd that records it. */
	if (!d->tr.real)
		rasd_lastwords_replay_paths(&cfg);
	if (!cfg.crash_harvest || rasd_lastwords_collect(&lw, &cfg) < 0 || !lw)
		return 0;
	while ((r = rasd_lastwords_store(lw, d->db, &d->dctx, d->actions)) < 0) {
		rasd_storage_set(&d->storage, true, ras_clock_ns(CLOCK_REALTIME), ras_db_errmsg(d->db), 0);
		if (stop_requested(d)) {
			r = -EINTR;
			break;
		}
		usleep((unsigned)rasd_storage_timeout_ms(&d->storage) * 1000u);
		rasd_storage_backoff(&d->storage);
	}
	if (r == 0) {
		rasd_storage_set(&d->storage, false, 0, "", 0);
		rasd_lastwords_trigger(lw, d->db, d->trig);
	}
	rasd_lastwords_free(lw);
	return r;
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
	return stop_requested(d);
}

static int open_db(struct rasd *d)
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
	start_write_behind(d->db);
	count_previous_unstored(d);
	rasd_storage_note_db(&d->storage, d->db);
	return 0;
}

static int take_lock(struct rasd *d)
{
	char path[PATH_MAX], why[PATH_MAX + 200];
	int pid;

	/* The lock and state file are root's: nobody else may plant links in their directory. */
	mkdir(d->cfg->lock_dir, 0755);
	if (ras_dir_is_safe(d->cfg->lock_dir, why, sizeof(why)) < 0) {
		ras_log(LOG_ERR, "refusing lock directory: %s", why);
		return -EPERM;
	}
	d->lockfd = ras_lock_take(d->cfg->lock_dir, d->cfg->instance, &pid, path, sizeof(path));
	/* With the lock: the state file left there is an earlier rasd's, never a running one's. */
	if (d->lockfd >= 0) {
		rasd_storage_init(&d->storage, d->cfg->lock_dir, d->cfg->instance);
		rasd_metrics_file_set_storage(&d->storage);
	}
	if (d->lockfd == -EBUSY) {
		ras_log(LOG_ERR, "another rasd (pid %d) already records into instance '%s' "
			"(lock %s); refusing to start a second one", pid, d->cfg->instance, path);
		return -EBUSY;
	}
	if (d->lockfd < 0)
		ras_log(LOG_ERR, "cannot take lock %s: %s", path, strerror(-d->lockfd));
	return d->lockfd < 0 ? d->lockfd : 0;
}

static int add_fd(struct rasd *d, int fd, uint64_t tag)
{
	struct epoll_event ee = { .events = EPOLLIN, .data.u64 = tag };

	return epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ee) < 0 ? -errno : 0;
}

static int setup_loop(struct rasd *d)
{
	sigset_t mask;
	uint64_t usec = 0;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	d->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (d->epfd < 0 || d->sigfd < 0 || add_fd(d, d->sigfd, TAG_SIGNAL) < 0)
		return -errno;
	d->wdfd = -1;
	if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0) {
		struct itimerspec its = { 0 };

		its.it_interval.tv_sec = (time_t)(usec / 2 / 1000000);
		its.it_interval.tv_nsec = (long)(usec / 2 % 1000000) * 1000;
		its.it_value = its.it_interval;
		d->wdfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (d->wdfd < 0 || timerfd_settime(d->wdfd, 0, &its, NULL) < 0 ||
		    add_fd(d, d->wdfd, TAG_WATCHDOG) < 0)
			return -errno;
	}
	return 0;
}

static void log_label_error(void *ctx, const char *file, unsigned line, const char *reason)
{
	ras_log(LOG_WARNING, "%s:%u: %s (the other label files still apply)", file, line, reason);
}

/* DIMM labels and the EDAC topology: at start, on SIGHUP, and after records arrive. */
static void refresh_edac(struct rasd *d, bool reload_labels)
{
	if (reload_labels) {
		edac_daemon_load_labels(d->cfg, log_label_error, NULL);
		d->dctx.labels = edac_daemon_labels();
		if (rasd_register_labels(d->cfg, d->dctx.labels, d->actions) < 0 && d->cfg->register_labels)
			ras_log(LOG_INFO, "register_labels: no EDAC memory controller to label");
	}
	/* Not while the database fails: the held records go first, at the retry. */
	if (!d->db || failing_pipe(d))
		return;
	if (edac_daemon_snapshot(d->db, d->cfg, &d->dctx) < 0)
		ras_log(LOG_WARNING, "could not store the EDAC topology: %s", ras_db_errmsg(d->db));
}

static void log_hidden(void *ctx, const char *condition, const char *advice)
{
	ras_log(LOG_WARNING, "%s; %s", condition, advice);
}

static void open_flight_recorder(struct rasd *d)
{
	char err[512] = "";
	const char *w;

	hidden_conditions(d->cfg->sysfs_root, NULL, d->tr.dir, log_hidden, NULL);
	if (!d->cfg->fdr_enable || !d->tr.real)
		return;
	if (fdr_open(&d->fdr, d->tr.dir, d->cfg, err, sizeof(err)) < 0) {
		ras_log(LOG_WARNING, "flight recorder not started: %s", err);
		d->fdr = NULL;
		return;
	}
	w = fdr_warnings(d->fdr);
	if (w && *w)
		ras_log(LOG_WARNING, "flight recorder: %s", w);
	ras_log(LOG_INFO, "flight recorder running in %s", fdr_instance_dir(d->fdr));
}

/*
 * Read marks are kept for rasd's own instance on a real tracefs. A taken-back
 * instance is checked against them before anything is read from it.
 */
static int account_crash(struct rasd *d)
{
	if (!d->tr.real)
		return ras_pipeline_resume_replay(&d->pipe, d->reader);
	d->pipe.reader = d->reader;
	return d->tr.created ? 0 : ras_pipeline_account_crash(&d->pipe);
}

/* Buffer size and overwrite off first, then the events: from here records wait in the kernel. */
static int start_recording(struct rasd *d)
{
	char err[512];
	int r = ras_tracing_configure(&d->tr, d->cfg->buffer_size_kb, err, sizeof(err));

	if (r < 0) {
		ras_log(LOG_ERR, "%s", err);
		return r;
	}
	d->enabled = rasd_instance_enable_events(&d->tr, d->fmt, d->cfg);
	d->checked_ns = ras_clock_ns(CLOCK_MONOTONIC);
	d->checked_wall_ns = ras_clock_ns(CLOCK_REALTIME);
	if (ras_tracing_on(&d->tr, true) < 0)
		ras_log(LOG_WARNING, "cannot turn tracing on in %s", d->tr.instance_dir);
	d->recording = true;
	return 0;
}

/*
 * The start-up line, with what the last rasd's end cost when it did not stop
 * (killed, or the machine went down under it): the records it had read and
 * not stored, counted as lost (origin crash).
 */
static void log_recording(struct rasd *d)
{
	char more[160] = "";

	if (d->storage.previous_killed || d->pipe.crash_lost)
		snprintf(more, sizeof(more), "; the last rasd did not stop cleanly: it cost %llu "
			 "records (counted as lost, origin crash)", (unsigned long long)d->pipe.crash_lost);
	rasd_instance_log_recording(&d->tr, d->enabled, more);
}

static int setup(struct rasd *d)
{
	int r;

	if ((r = take_lock(d)) < 0 || (r = rasd_instance_open(&d->tr, &d->fmt, &d->dctx, d->cfg)) < 0 ||
	    (r = setup_loop(d)) < 0)
		return r;
	/* A new instance records before the database opens: a failing open loses nothing. */
	if (d->tr.real && d->tr.created && (r = start_recording(d)) < 0)
		return r;
	if ((r = open_db(d)) < 0)
		return r;
	/* --once has no loop to watch triggers: they are waited for at exit. */
	if ((r = ras_triggers_open(&d->trig, d->cfg, d->opt->once ? -1 : d->epfd, TAG_TRIGGER)) < 0 ||
	    (r = ras_actions_open(&d->actions, d->cfg, d->db, d->trig)) < 0 ||
	    (r = rasd_bmc_sel_open(&d->sel, d->cfg)) < 0 ||
	    (r = rasd_health_open(&d->health, d->cfg, d->db, d->trig)) < 0) {
		ras_log(LOG_ERR, "cannot set up actions, triggers and the diagnosis: %s", strerror(-r));
		return r;
	}
	ras_actions_set_bmc_sel(d->actions, d->sel);
	if (!d->opt->once)
		rasd_bmc_sel_watch(d->sel, d->epfd, TAG_BMC);
	d->storage.bmc_sel = rasd_bmc_sel_state;
	d->storage.bmc_sel_ctx = d->sel;
	r = ras_reader_open(&d->reader, d->fmt->tep, d->tr.instance_dir, d->fmt->page_size,
			    !d->tr.real);
	if (r < 0) {
		ras_log(LOG_ERR, "cannot open the per-CPU buffers of %s: %s", d->tr.instance_dir,
			strerror(-r));
		return r;
	}
	open_flight_recorder(d);
	refresh_edac(d, true);
	ras_pipeline_init(&d->pipe, d->fmt, d->db, &d->tr, d->cfg, &d->dctx, "live");
	/* A replayed tree's records arrived long ago: only a live kernel's are timed. */
	if (d->tr.real) {
		d->pipe.durability = &d->durability;
		d->pipe.commit_cost = &d->commit_cost;
		d->storage.durability = &d->durability;
	}
	d->pipe.fdr = d->fdr;
	d->pipe.actions = d->actions;
	d->pipe.health = d->health;
	d->pipe.stats_fresh = d->tr.real && d->tr.created;
	/* Errors from before rasd started come first: the previous boot's, then this boot's. */
	if ((r = harvest(d, d->cfg->persistent_instance, "previous-boot", true)) < 0 ||
	    (r = harvest(d, d->cfg->boot_instance, "boot", false)) < 0 ||
	    (r = harvest_lastwords(d)) < 0)
		return r;
	if ((r = account_crash(d)) < 0)
		return r;
	/* A taken-back instance may hold records: store them before changing anything. */
	if (!d->tr.created && (r = drain_reader(&d->tr, d->reader, &d->pipe, true)) < 0)
		return r;
	if (!d->recording && (r = start_recording(d)) < 0)
		return r;
	r = ras_reader_watch(d->reader, d->epfd, TAG_CPU);
	if (r < 0) {
		ras_log(LOG_ERR, "cannot watch the per-CPU buffers: %s", strerror(-r));
		return r;
	}
	if (d->tr.real)
		ras_pipeline_check_stats(&d->pipe, d->reader);
	ras_pipeline_commit(&d->pipe);
	storage_update(d);
	log_recording(d);
	return 0;
}

/* SIGHUP: what changed in the configuration applies from now on. */
static void reload(struct rasd *d)
{
	if (!rasd_reload_config(d->cfg, d->opt))
		return;
	ras_actions_reload(d->actions);
	rasd_bmc_sel_reload(d->sel);
	ras_triggers_check_all(d->trig);
	rasd_health_reload(d->health);
	rasd_instance_log_recording(&d->tr, rasd_instance_enable_events(&d->tr, d->fmt, d->cfg), "");
	refresh_edac(d, true);
	ras_log(LOG_INFO, "configuration %s reloaded", d->opt->config_path);
}

static void handle_signal(struct rasd *d)
{
	struct signalfd_siginfo si;

	while (read(d->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			sd_notify(0, "RELOADING=1");
			reload(d);
			sd_notify(0, "READY=1");
		} else {
			d->stop = true;
		}
	}
}

/* Before sleeping: return the page cache and freed heap, so idle costs little memory. */
static void go_idle(struct rasd *d)
{
	d->idled_ns = ras_clock_ns(CLOCK_MONOTONIC);
	ras_actions_trim(d->actions);
	ras_db_release_memory(d->db);
	ras_pipeline_trim(&d->pipe);
	if (d->boot)
		ras_pipeline_trim(&d->boot->pipe);
	malloc_trim(0);
}

/*
 * After a storm: memory to give back once rasd is idle (a batch's slots, the
 * subjects seen once), in ms (0: now), or -1 when it holds none. The slots of
 * a storm-sized batch are kept at the idle that follows it (the next batch
 * would take them again) and freed at the next: a second later.
 */
static int give_back_timeout_ms(struct rasd *d)
{
	int trim = ras_actions_trim_timeout_ms(d->actions);
	int64_t left = d->idled_ns + 1000000000LL - ras_clock_ns(CLOCK_MONOTONIC);
	int slots = left <= 0 ? 0 : (int)(left / 1000000) + 1;

	if (!ras_db_slot_bytes(d->db))
		return trim;
	return trim >= 0 && trim < slots ? trim : slots;
}

/* Idle costs nothing; a group waiting for its commit, a failing database or a storm's memory wakes rasd. */
static int loop_timeout_ms(struct rasd *d)
{
	int64_t left = d->checked_ns + INSTANCE_CHECK_NS - ras_clock_ns(CLOCK_MONOTONIC);
	int group = ras_pipeline_commit_timeout_ms(&d->pipe, ras_clock_ns(CLOCK_REALTIME));
	int retry = rasd_storage_timeout_ms(&d->storage);
	int give_back = give_back_timeout_ms(d);
	int health = rasd_health_timeout_ms(d->health);
	int sel = rasd_bmc_sel_timeout_ms(d->sel);
	int burst = rasd_burst_timeout_ms(&d->burst, ras_clock_ns(CLOCK_MONOTONIC));
	int check = left <= 0 ? 0 : (int)(left / 1000000) + 1;

	if (group >= 0 && group < check)
		check = group;
	if (burst >= 0 && burst < check)
		check = burst;
	if (health >= 0 && health < check)
		check = health;
	if (sel >= 0 && sel < check)
		check = sel;
	if (give_back >= 0 && give_back < check)
		check = give_back;
	return retry >= 0 && retry < check ? retry : check;
}

/* Every INSTANCE_CHECK_NS: what someone else turned off in the instance is turned on again. */
static void check_instance(struct rasd *d)
{
	int64_t now = ras_clock_ns(CLOCK_MONOTONIC);
	char since[40];

	if (now - d->checked_ns < INSTANCE_CHECK_NS)
		return;
	ras_format_time(d->checked_wall_ns, since, sizeof(since));
	rasd_instance_check(&d->tr, d->fmt, d->cfg, since);
	d->checked_ns = now;
	d->checked_wall_ns = ras_clock_ns(CLOCK_REALTIME);
}

static int loop(struct rasd *d)
{
	struct epoll_event evs[64];

	while (!d->stop) {
		bool data = false, committed;
		int n = epoll_wait(d->epfd, evs, 64, loop_timeout_ms(d));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		for (int i = 0; i < n; i++) {
			if (evs[i].data.u64 == TAG_SIGNAL)
				handle_signal(d);
			else if (evs[i].data.u64 == TAG_BMC)
				d->sel_rows += rasd_bmc_sel_handle(d->sel, ras_actions_dba(d->actions));
			else if ((evs[i].data.u64 & ~RAS_TRIGGER_TAG_MASK) == TAG_TRIGGER)
				ras_triggers_handle(d->trig, evs[i].data.u64);
			else if (evs[i].data.u64 == TAG_WATCHDOG) {
				uint64_t ticks;

				if (read(d->wdfd, &ticks, sizeof(ticks)) > 0)
					sd_notify(0, "WATCHDOG=1");
			} else
				data = true;
		}
		if (rasd_burst_tick_due(&d->burst, ras_clock_ns(CLOCK_MONOTONIC)))
			data = true;
		if (data && drain(d, false) < 0)
			return -EIO;
		if (data)
			rasd_burst_after_read(&d->burst, &d->tr, d->reader, d->epfd, TAG_CPU, d->paused,
					      ras_clock_ns(CLOCK_MONOTONIC));
		d->sel_rows += rasd_bmc_sel_expire(d->sel, ras_actions_dba(d->actions));
		committed = ras_pipeline_commit_if_due(&d->pipe, ras_clock_ns(CLOCK_REALTIME));
		/* The diagnosis's changes and the BMC's answers after the last batch: a commit of their own. */
		if (!committed && !d->pipe.group_first_ns && !d->pipe.behind.ticket && !failing_pipe(d) &&
		    (rasd_health_timeout_ms(d->health) == 0 || d->sel_rows))
			committed = ras_pipeline_commit(&d->pipe) == 0;
		if (committed)
			d->sel_rows = 0;
		storage_retry(d);
		storage_update(d);
		rasd_storage_tick(&d->storage);
		check_instance(d);
		/* An idle or failing rasd still says it is alive, and how its storage is. */
		if (!d->pipe.group_first_ns && !d->pipe.behind.ticket)
			rasd_metrics_file_heartbeat(failing_pipe(d) ? NULL : d->db, d->cfg);
		/* Not while a group is open (its pages are written at the commit) or a commit is behind. */
		if ((data || committed || give_back_timeout_ms(d) == 0) && !d->pipe.group_first_ns &&
		    !d->pipe.behind.ticket)
			go_idle(d);
	}
	return 0;
}

static int run_once(struct rasd *d)
{
	int r;

	do {
		r = drain(d, true);
		if (r == 0)
			r = hold_until_stored(d, &d->pipe, d->reader);
	} while (r == 0 && ras_reader_is_replay(d->reader) && !ras_reader_replay_done(d->reader));
	return r;
}

/* A stop while the database fails: one last try, then what is still held is counted. */
static void settle_storage_at_exit(struct rasd *d)
{
	if (!failing_pipe(d))
		return;
	d->storage.retry_at_ms = 0;
	storage_retry(d);
	if (!failing_pipe(d))
		return;
	d->storage.unstored += records_waiting(d);
	ras_log(LOG_CRIT, "stopping while storage fails (%s): %llu records read but not stored are "
		"counted as lost at the next start; instance %s is kept with what it still holds",
		d->storage.reason, (unsigned long long)records_waiting(d), d->tr.instance_dir);
}

/* clean: stopped as asked with everything stored; otherwise the instance keeps what it holds. */
static void teardown(struct rasd *d, bool clean)
{
	if (d->reader)
		ras_reader_close(d->reader);
	ras_pipeline_free(&d->pipe);
	release_adopted(d->boot, false);
	edac_daemon_cleanup();
	fdr_close(d->fdr, !d->cfg->keep_instance);
	/* Written only when nothing is held: a failing database keeps what was committed. */
	rasd_health_close(d->health, clean && d->db && !d->pipe.in_txn);
	ras_triggers_close(d->trig);
	ras_actions_close(d->actions);
	d->storage.bmc_sel = NULL;
	rasd_bmc_sel_close(d->sel);
	d->sel = NULL;
	/*
	 * Remove the instance only when it is ours, we were not told to keep it,
	 * and nothing in it is unstored: after a failure the next rasd takes it back.
	 */
	ras_tracing_close(&d->tr, d->tr.real && !d->cfg->keep_instance && clean);
	ras_formats_free(d->fmt);
	ras_decode_ctx_release(&d->dctx);
	ras_db_close(d->db);
	if (d->sigfd >= 0)
		close(d->sigfd);
	if (d->wdfd >= 0)
		close(d->wdfd);
	if (d->epfd >= 0)
		close(d->epfd);
	if (d->lockfd >= 0)
		close(d->lockfd);
}

/* A clean stop leaves each storm's period with its last fold_keep raw rows, none waiting. */
static void settle_folds(struct rasd *d, int r)
{
	int f;

	if (r < 0 || !d->db || failing_pipe(d) || d->pipe.in_txn)
		return;
	f = ras_db_fold_settle(d->db);
	if (f < 0)
		ras_log(LOG_WARNING, "storm rows waiting to be folded stay in full: %s", strerror(-f));
}

static void log_summary(struct rasd *d)
{
	ras_log(LOG_INFO, "stored %llu records (%llu duplicates skipped, %llu malformed, "
		"%llu synthetic refused)", (unsigned long long)d->pipe.stored,
		(unsigned long long)d->pipe.duplicates, (unsigned long long)d->pipe.malformed,
		(unsigned long long)d->pipe.synthetic_refused);
	rasd_durability_log(&d->durability, "durable after arrival", "records");
	rasd_durability_log(&d->commit_cost, "commit duration", "commits");
}

int rasd_run(struct rasd_config *cfg, const struct rasd_options *opt)
{
	struct rasd d = { .cfg = cfg, .opt = opt, .epfd = -1, .sigfd = -1, .wdfd = -1, .lockfd = -1 };
	int r = setup(&d);

	if (r == 0 && opt->once) {
		r = run_once(&d);
		/* No loop to hear the BMC: its answers are waited for here, each up to its deadline. */
		if (rasd_bmc_sel_finish(d.sel, ras_actions_dba(d.actions)) && r == 0 && !failing_pipe(&d))
			ras_pipeline_commit(&d.pipe);
	} else if (r == 0) {
		go_idle(&d);
		sd_notify(0, "READY=1");
		r = loop(&d);
		sd_notify(0, "STOPPING=1");
		/* Whatever arrived before the signal is stored before we go. */
		if (r == 0)
			r = drain(&d, true);
		/* And what the BMC did not answer yet: said as such, not lost. */
		if (rasd_bmc_sel_settle(d.sel, ras_actions_dba(d.actions)) && r == 0 &&
		    !failing_pipe(&d))
			ras_pipeline_commit(&d.pipe);
	}
	settle_storage_at_exit(&d);
	settle_folds(&d, r);
	ras_log_flush_suppressed();
	if (d.reader)
		log_summary(&d);
	if (d.storage.state_dir[0] && d.lockfd >= 0) {
		rasd_storage_stop(&d.storage, r < 0 ? "rasd stopped on an error (see its log)" : "");
		rasd_metrics_file_stop(failing_pipe(&d) ? NULL : d.db, cfg);
	}
	/* Its records are for the next rasd, which takes the instance back and stores them first. */
	if (r < 0 && d.recording && !cfg->keep_instance)
		ras_log(LOG_WARNING, "instance %s is kept, recording: the next rasd stores what it "
			"holds", d.tr.instance_dir);
	teardown(&d, r == 0 && !failing_pipe(&d));
	return r < 0 ? 1 : 0;
}
