/* SPDX-License-Identifier: MIT */
/*
 * rasd's start: the lock, the signals and the loop's fds, the instance, the
 * database, the modules every pipeline feeds, the records from before it
 * started (daemon_boot.c), and the events turned on.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>
#include "lib/clock.h"
#include "lib/hidden.h"
#include "lib/rasd_state.h"
#include "lib/safe_path.h"
#include "lib/timeline.h"
#include "daemon_internal.h"
#include "edac_daemon.h"
#include "instance.h"
#include "log.h"
#include "metrics_file.h"
#include "register_labels.h"

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
void daemon_refresh_edac(struct rasd *d, bool reload_labels)
{
	if (reload_labels) {
		edac_daemon_load_labels(d->cfg, log_label_error, NULL);
		d->dctx.labels = edac_daemon_labels();
		if (rasd_register_labels(d->cfg, d->dctx.labels, d->actions) < 0 && d->cfg->register_labels)
			ras_log(LOG_INFO, "register_labels: no EDAC memory controller to label");
	}
	/* Not while the database fails: the held records go first, at the retry. */
	if (!d->db || daemon_failing_pipe(d))
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

/* What every pipeline feeds: triggers, thresholds and actions, the BMC's SEL, the diagnosis. */
static int open_modules(struct rasd *d)
{
	int r;

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
	return 0;
}

/* This rasd's instance, kept should it stop without removing it (teardown in daemon.c says). */
static void note_instance(struct rasd *d)
{
	struct rasd_instance_stop *in = &d->storage.instance;

	if (!d->tr.real)
		return;
	*in = (struct rasd_instance_stop){ .fate = RASD_INSTANCE_KEPT };
	if (ras_boot_id(in->boot_id, sizeof(in->boot_id)) < 0)
		in->boot_id[0] = 0;
	if (ras_tracing_instance_ident(d->tr.instance_dir, &in->ident) < 0)
		in->ident = 0;
}

/*
 * The last rasd stopped and kept its instance in this boot, and it is gone
 * (made here, or another identity: removed and made again): what it held
 * then and since went with it, a gap as after a killed rasd. One kept in
 * another boot is not this buffer (the persistent instance, daemon_boot.c,
 * holds that boot's records); one killed rasd's is stats_left_gone already
 * (but with no counters stored in this boot, a killed rasd's instance cannot
 * be told from another boot's: no gap).
 */
static bool kept_instance_gone(struct rasd *d)
{
	const struct rasd_instance_stop *prev = &d->storage.previous_instance;
	const struct rasd_instance_stop *now = &d->storage.instance;
	char unread[48] = "an unknown number of";

	if (!d->tr.real || d->storage.previous_killed || prev->fate != RASD_INSTANCE_KEPT ||
	    !prev->boot_id[0] || strcmp(prev->boot_id, now->boot_id))
		return false;
	if (!d->tr.created && (!prev->ident || !now->ident || prev->ident == now->ident))
		return false;
	if (prev->unread != RAS_UNREAD_UNKNOWN)
		snprintf(unread, sizeof(unread), "%llu", (unsigned long long)prev->unread);
	ras_log(LOG_WARNING, "instance %s, kept at its stop by the last rasd (inode %llu, %s "
		"records unread then), is gone%s: what it held then and since is lost, stored as "
		"a gap of unknown size", d->tr.instance_dir, (unsigned long long)prev->ident,
		unread, d->tr.created ? "" : " (made again since)");
	return true;
}

struct rasd_instance_stop daemon_instance_at_stop(struct rasd *d, bool remove)
{
	struct rasd_instance_stop in = d->storage.instance;

	if (!d->tr.real || !d->tr.inst)
		return (struct rasd_instance_stop){ .fate = RASD_INSTANCE_UNSAID };
	/*
	 * Every CPU of the instance, read from tracefs, whether or not a reader
	 * was opened (a rasd whose database never opened has none, and its
	 * instance holds what the kernel logged meanwhile).
	 */
	in.unread = 0;
	if (!remove && ras_tracing_instance_entries(d->tr.instance_dir, &in.unread) < 0)
		in.unread = RAS_UNREAD_UNKNOWN;
	return in;
}

void daemon_instance_stopped(struct rasd *d, struct rasd_instance_stop *in)
{
	uint64_t ident;

	if (in->fate == RASD_INSTANCE_UNSAID)
		return;
	/* What is there now, whatever was asked: a removal that failed left it. */
	if (ras_tracing_instance_ident(d->tr.instance_dir, &ident) == 0)
		in->ident = ident;
	else
		in->fate = RASD_INSTANCE_REMOVED;
	d->storage.instance = *in;
	/* Only a stopping rasd's own state file: rasd_storage_stop wrote state=stopped. */
	if (d->storage.stopped && d->storage.state_dir[0] && d->lockfd >= 0)
		rasd_storage_write(&d->storage);
}

/* The live instance's reader and pipeline, and the flight recorder beside it. */
static int open_live_pipeline(struct rasd *d)
{
	int r = ras_reader_open(&d->reader, d->fmt->tep, d->tr.instance_dir, d->fmt->page_size,
				!d->tr.real);

	if (r < 0) {
		ras_log(LOG_ERR, "cannot open the per-CPU buffers of %s: %s", d->tr.instance_dir,
			strerror(-r));
		return r;
	}
	open_flight_recorder(d);
	daemon_refresh_edac(d, true);
	ras_pipeline_init(&d->pipe, d->fmt, d->db, &d->tr, d->cfg, &d->dctx, "live");
	d->pipe.commit_fd_polled = d->commit_fd >= 0;
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
	d->pipe.stats_left_gone = d->pipe.stats_fresh && d->storage.previous_killed;
	/*
	 * The kept one gone: the same gap. One made again and taken back counts
	 * from 0 too (its counters started after the kept one went), and with no
	 * counters of this boot stored to judge each CPU by (its rasd's database
	 * never opened), the gap is the whole instance's (pipeline.c).
	 */
	if (kept_instance_gone(d))
		d->pipe.stats_fresh = d->pipe.stats_left_gone = d->pipe.stats_kept_gone = true;
	return 0;
}

int daemon_setup(struct rasd *d)
{
	int r;

	if ((r = take_lock(d)) < 0 || (r = rasd_instance_open(&d->tr, &d->fmt, &d->dctx, d->cfg)) < 0 ||
	    (r = setup_loop(d)) < 0)
		return r;
	note_instance(d);
	/* A new instance records before the database opens: a failing open loses nothing. */
	if (d->tr.real && d->tr.created && (r = start_recording(d)) < 0)
		return r;
	ras_tl_begin(RAS_TL_OPEN_DB);
	r = daemon_open_db(d);
	ras_tl_end(RAS_TL_OPEN_DB);
	if (r < 0 || (r = open_modules(d)) < 0 || (r = open_live_pipeline(d)) < 0)
		return r;
	/* Errors from before rasd started come first: the previous boot's, then this boot's. */
	if ((r = daemon_harvest(d, d->cfg->persistent_instance, "previous-boot", true)) < 0 ||
	    (r = daemon_harvest(d, d->cfg->boot_instance, "boot", false)) < 0 ||
	    (r = daemon_harvest_lastwords(d)) < 0)
		return r;
	if ((r = account_crash(d)) < 0)
		return r;
	/* A taken-back instance may hold records: store them before changing anything. */
	ras_tl_begin(RAS_TL_TAKEN_BACK);
	r = d->tr.created ? 0 : daemon_drain_reader(&d->tr, d->reader, &d->pipe, true);
	ras_tl_end(RAS_TL_TAKEN_BACK);
	if (r < 0)
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
	daemon_storage_update(d);
	log_recording(d);
	return 0;
}
