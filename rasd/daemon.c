/* SPDX-License-Identifier: MIT */
/*
 * rasd's one event loop: epoll over every per-CPU raw buffer, a signalfd,
 * the writer thread's eventfd (a commit behind made) and, under a systemd
 * watchdog, a timerfd. Nothing wakes it when idle.
 * Start-up is daemon_setup.c's, storage failures daemon_storage.c's.
 */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>
#include "lib/clock.h"
#include "lib/timeline.h"
#include "daemon_internal.h"
#include "edac_daemon.h"
#include "instance.h"
#include "log.h"
#include "loop_wait.h"
#include "metrics_file.h"
#include "reload.h"

/*
 * Stores everything buffered now in one instance, in the open group: it is
 * committed before returning when force is set or the group is due
 * (ras_pipeline_commit_due), otherwise when the loop's timer says so.
 * A storage failure is not an error here: the pipeline holds the records read
 * and, past its bound, reading stops so the rest waits in the kernel buffer.
 */
int daemon_drain_reader(struct ras_tracing *tr, struct ras_reader *reader, struct ras_pipeline *pipe,
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
	/* The drop counters now, or before the group's commit (rasd/stats_due.h). */
	if (tr->real)
		ras_pipeline_after_read(pipe, reader);
	if (force)
		ras_pipeline_commit(pipe);
	else if (ras_pipeline_commit_due(pipe, ras_clock_ns(CLOCK_REALTIME)))
		ras_pipeline_commit_group(pipe);
	return 0;
}

/*
 * force: commit now whatever the group's age. An adopted boot instance shares
 * the database handle, so with one both pipelines commit at every wake-up.
 */
static int drain(struct rasd *d, bool force)
{
	uint64_t before = d->pipe.stored;
	int r;

	/* A trigger installed since the last read is found by this one's records (rasd/triggers.h). */
	ras_triggers_new_read(d->trig);
	r = daemon_drain_reader(&d->tr, d->reader, &d->pipe, force || d->boot);
	if (r == 0 && d->boot)
		r = daemon_drain_reader(&d->boot->tr, d->boot->reader, &d->boot->pipe, true);
	/* A memory error may follow a DIMM swap or a driver reload: keep the topology current. */
	if (r == 0 && d->pipe.stored != before && !daemon_failing_pipe(d))
		daemon_refresh_edac(d, false);
	return r;
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
	daemon_refresh_edac(d, true);
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

/*
 * After a real idle (rasd/give_back.h): the page cache, a storm's batch slots,
 * the pending list and freed heap go back, so idle costs little memory.
 */
static void go_idle(struct rasd *d)
{
	ras_tl_begin(RAS_TL_GIVE_BACK);
	rasd_give_back_done(&d->give_back, ras_clock_ns(CLOCK_MONOTONIC));
	ras_db_release_memory(d->db);
	ras_pipeline_trim(&d->pipe);
	if (d->boot)
		ras_pipeline_trim(&d->boot->pipe);
	malloc_trim(0);
	ras_tl_end(RAS_TL_GIVE_BACK);
}

/*
 * When what the last give-back kept can go, or -1: the slots of a storm-sized
 * batch are kept at the idle that follows it (the next batch would take them
 * again) and freed at the next, a second later.
 */
static int64_t held_ns(struct rasd *d)
{
	return ras_db_slot_bytes(d->db) ? d->give_back.given_ns + RASD_GIVE_BACK_IDLE_NS : -1;
}

static bool quiet(const struct rasd *d)
{
	return !d->pipe.group_first_ns && !d->pipe.behind.ticket;
}

/*
 * After a wake: subjects seen once a minute ago are forgotten (at most once
 * a minute, rasd/actions_txn.c) between groups, as before; memory goes back
 * only after a real idle, never between a storm's groups.
 */
static void after_wake(struct rasd *d, bool busy)
{
	int64_t now = ras_clock_ns(CLOCK_MONOTONIC);

	if (busy || !quiet(d))
		rasd_give_back_busy(&d->give_back, now);
	if (!quiet(d))
		return;
	if (busy || ras_actions_trim_timeout_ms(d->actions) == 0)
		ras_actions_trim(d->actions);
	if (!busy && rasd_give_back_due(&d->give_back, held_ns(d), now))
		go_idle(d);
}

/*
 * Idle costs nothing; a group waiting for its commit, a failing database or a
 * storm's memory wakes rasd. What only a quiet loop does counts only then
 * (rasd/loop_wait.h): a due "now" met by nothing made the loop spin.
 */
static int loop_timeout_ms(struct rasd *d)
{
	int64_t mono = ras_clock_ns(CLOCK_MONOTONIC);
	int64_t left = d->checked_ns + INSTANCE_CHECK_NS - mono;
	struct rasd_loop_waits w = {
		.check = left <= 0 ? 0 : (int)(left / 1000000) + 1,
		.group = ras_pipeline_commit_timeout_ms(&d->pipe, ras_clock_ns(CLOCK_REALTIME)),
		.burst = rasd_burst_timeout_ms(&d->burst, mono),
		.sel = rasd_bmc_sel_timeout_ms(d->sel),
		.retry = rasd_storage_timeout_ms(&d->storage),
		.give_back = rasd_give_back_timeout_ms(&d->give_back, held_ns(d), mono),
		.trim = ras_actions_trim_timeout_ms(d->actions),
		.health = rasd_health_timeout_ms(d->health),
		.quiet = quiet(d),
		.failing = daemon_failing_pipe(d) != NULL,
	};

	return rasd_loop_timeout_ms(&w);
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

/*
 * Handles the n events epoll gave: signals, the BMC, triggers, the watchdog.
 * True when any other woke it: a ring buffer (rasd's or the boot one) to read.
 */
static bool handle_events(struct rasd *d, const struct epoll_event *evs, int n)
{
	bool data = false;

	for (int i = 0; i < n; i++) {
		if (evs[i].data.u64 == TAG_SIGNAL)
			handle_signal(d);
		else if (evs[i].data.u64 == TAG_BMC)
			d->sel_rows += rasd_bmc_sel_handle(d->sel, ras_actions_dba(d->actions));
		else if ((evs[i].data.u64 & ~RAS_TRIGGER_TAG_MASK) == TAG_TRIGGER)
			ras_triggers_handle(d->trig, evs[i].data.u64);
		else if (evs[i].data.u64 == TAG_COMMIT) {
			/* A commit behind made or failed: this turn's ras_pipeline_commit_if_due meets it. */
			if (d->db)
				ras_db_commit_fd_drain(d->db);
		} else if (evs[i].data.u64 == TAG_WATCHDOG) {
			uint64_t ticks;

			if (read(d->wdfd, &ticks, sizeof(ticks)) > 0)
				sd_notify(0, "WATCHDOG=1");
		} else
			data = true;
	}
	return data;
}

static int loop(struct rasd *d)
{
	struct epoll_event evs[64];

	while (!d->stop) {
		bool data, committed;
		int64_t mono;
		int timeout = loop_timeout_ms(d), n;

		ras_tl_begin(RAS_TL_POLL);
		n = epoll_wait(d->epfd, evs, 64, timeout);
		ras_tl_end(RAS_TL_POLL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		data = handle_events(d, evs, n);
		mono = ras_clock_ns(CLOCK_MONOTONIC);
		if (rasd_burst_tick_due(&d->burst, mono))
			data = true;
		/* Ages the decoding's cached PCI names (lib/pci_names.h): this read's time is near enough. */
		d->dctx.now_ns = mono;
		if (data && drain(d, false) < 0)
			return -EIO;
		if (data)
			rasd_burst_after_read(&d->burst, &d->tr, d->reader, d->epfd, TAG_CPU, d->paused,
					      ras_clock_ns(CLOCK_MONOTONIC));
		d->sel_rows += rasd_bmc_sel_expire(d->sel, ras_actions_dba(d->actions));
		committed = ras_pipeline_commit_if_due(&d->pipe, ras_clock_ns(CLOCK_REALTIME));
		/* The diagnosis's changes and the BMC's answers after the last batch: a commit of their own. */
		if (!committed && !d->pipe.group_first_ns && !d->pipe.behind.ticket && !daemon_failing_pipe(d) &&
		    (rasd_health_timeout_ms(d->health) == 0 || d->sel_rows))
			committed = ras_pipeline_commit(&d->pipe) == 0;
		if (committed)
			d->sel_rows = 0;
		daemon_storage_retry(d);
		daemon_storage_update(d);
		rasd_storage_tick(&d->storage);
		check_instance(d);
		/* An idle or failing rasd still says it is alive, and how its storage is. */
		if (!d->pipe.group_first_ns && !d->pipe.behind.ticket)
			rasd_metrics_file_heartbeat(daemon_failing_pipe(d) ? NULL : d->db, d->cfg);
		/* Not while a group is open (its pages are written at the commit) or a commit is behind. */
		after_wake(d, data || committed);
	}
	return 0;
}

static int run_once(struct rasd *d)
{
	int r;

	do {
		r = drain(d, true);
		if (r == 0)
			r = daemon_hold_until_stored(d, &d->pipe, d->reader);
	} while (r == 0 && ras_reader_is_replay(d->reader) && !ras_reader_replay_done(d->reader));
	return r;
}

/* clean: stopped as asked with everything stored; otherwise the instance keeps what it holds. */
static void teardown(struct rasd *d, bool clean)
{
	bool remove = d->tr.real && !d->cfg->keep_instance && clean;
	/* What the next rasd must know to tell a kept instance removed from its own clean stop. */
	struct rasd_instance_stop at_stop = daemon_instance_at_stop(d, remove);

	if (d->reader)
		ras_reader_close(d->reader);
	ras_pipeline_free(&d->pipe);
	daemon_release_adopted(d->boot, false);
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
	ras_tracing_close(&d->tr, remove);
	daemon_instance_stopped(d, &at_stop);
	ras_formats_free(d->fmt);
	ras_decode_ctx_release(&d->dctx);
	ras_tl_begin(RAS_TL_DB_CLOSE);
	ras_db_close(d->db);
	ras_tl_end(RAS_TL_DB_CLOSE);
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

	if (r < 0 || !d->db || daemon_failing_pipe(d) || d->pipe.in_txn)
		return;
	ras_tl_begin(RAS_TL_SETTLE_FOLDS);
	f = ras_db_fold_settle(d->db);
	ras_tl_end(RAS_TL_SETTLE_FOLDS);
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
	struct rasd d = { .cfg = cfg, .opt = opt, .epfd = -1, .sigfd = -1, .wdfd = -1, .lockfd = -1,
			.commit_fd = -1 };
	int r;

	ras_tl_begin(RAS_TL_SETUP);
	r = daemon_setup(&d);
	ras_tl_end(RAS_TL_SETUP);
	ras_tl_begin(RAS_TL_RUN);
	if (r == 0 && opt->once) {
		r = run_once(&d);
		/* No loop to hear the BMC: its answers are waited for here, each up to its deadline. */
		if (rasd_bmc_sel_finish(d.sel, ras_actions_dba(d.actions)) && r == 0 && !daemon_failing_pipe(&d))
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
		    !daemon_failing_pipe(&d))
			ras_pipeline_commit(&d.pipe);
	}
	ras_tl_end(RAS_TL_RUN);
	ras_tl_begin(RAS_TL_STOP);
	daemon_settle_storage_at_exit(&d);
	settle_folds(&d, r);
	ras_log_flush_suppressed();
	if (d.reader)
		log_summary(&d);
	if (d.storage.state_dir[0] && d.lockfd >= 0) {
		rasd_storage_stop(&d.storage, r < 0 ? "rasd stopped on an error (see its log)" : "");
		rasd_metrics_file_stop(daemon_failing_pipe(&d) ? NULL : d.db, cfg);
	}
	/* Its records are for the next rasd, which takes the instance back and stores them first. */
	if (r < 0 && d.recording && !cfg->keep_instance)
		ras_log(LOG_WARNING, "instance %s is kept, recording: the next rasd stores what it "
			"holds", d.tr.instance_dir);
	ras_tl_end(RAS_TL_STOP);
	ras_tl_begin(RAS_TL_TEARDOWN);
	teardown(&d, r == 0 && !daemon_failing_pipe(&d));
	ras_tl_end(RAS_TL_TEARDOWN);
	return r < 0 ? 1 : 0;
}
