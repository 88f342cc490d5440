/* SPDX-License-Identifier: MIT */
/*
 * The records from before rasd started: the persistent instance of the
 * previous boot, the early-boot instance (adopted as a live one when
 * configured), and what killed the previous boot (lastwords.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tracefs.h>
#include "lib/clock.h"
#include "daemon_internal.h"
#include "lastwords.h"
#include "log.h"

void daemon_release_adopted(struct adopted *a, bool remove)
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
	daemon_release_adopted(a, d->cfg->boot_instance_remove);
}

/*
 * Stores the records of an instance rasd did not make: the early-boot one
 * (source "boot") or the persistent one from before the last reboot
 * (source "previous-boot", emptied afterwards so nothing is imported twice).
 */
int daemon_harvest(struct rasd *d, const char *name, const char *source, bool previous)
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
		daemon_release_adopted(a, false);
		return 0;
	}
	/* No snapshots for these: the recorder holds what happens now, not then. */
	ras_pipeline_init(&a->pipe, d->fmt, d->db, &a->tr, d->cfg, &d->dctx, source);
	a->pipe.previous_boot = previous;
	a->pipe.actions = d->actions;
	a->pipe.health = d->health;
	r = daemon_drain_reader(&a->tr, a->reader, &a->pipe, true);
	if (r == 0)
		r = daemon_hold_until_stored(d, &a->pipe, a->reader);
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
		daemon_release_adopted(a, false);
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
int daemon_harvest_lastwords(struct rasd *d)
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
		if (daemon_stop_requested(d)) {
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
