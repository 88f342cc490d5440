/* SPDX-License-Identifier: MIT */
/*
 * What rasd's daemon files share: its state (struct rasd) and the calls
 * between them. daemon.c runs the event loop and the stop; daemon_setup.c
 * starts rasd (lock, signals, instance, database, modules); daemon_storage.c
 * meets a failing or lost database; daemon_boot.c stores the instances rasd
 * did not make (the boot and previous-boot buffers) and the last words.
 */
#ifndef RASD_DAEMON_INTERNAL_H
#define RASD_DAEMON_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/decode.h"
#include "lib/fdr.h"
#include "daemon.h"
#include "actions.h"
#include "bmc_sel.h"
#include "durability.h"
#include "give_back.h"
#include "health.h"
#include "pipeline.h"
#include "reader_burst.h"
#include "storage.h"
#include "triggers.h"

#define TAG_SIGNAL 1
#define TAG_WATCHDOG 2
#define TAG_BMC 3
#define TAG_COMMIT 4
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
	int commit_fd;                   /* the database's ras_db_commit_fd in epfd, or -1 */
	bool stop;
	int sel_rows;                 /* SEL outcomes written since the last commit */
	struct rasd_storage storage;  /* failing or not, as last reported */
	bool paused;                  /* per-CPU fds out of epoll: records wait in the kernel */
	struct rasd_burst burst;      /* under a storm, read by a tick, not at every record */
	bool recording;               /* the instance's events are on */
	unsigned enabled;             /* how many: said once rasd is ready */
	int64_t checked_ns;           /* the last instance check (all was right): monotonic */
	struct rasd_give_back give_back; /* memory given back after a real idle: monotonic */
	int64_t checked_wall_ns;      /* the same, on the wall clock, to say since when */
	struct rasd_durability durability; /* live records: commit − arrival */
	struct rasd_durability commit_cost; /* the part of it spent committing */
};

/* daemon.c: stores what one instance buffers now (force: commit at once). */
int daemon_drain_reader(struct ras_tracing *tr, struct ras_reader *reader, struct ras_pipeline *pipe,
			bool force);

/* daemon_setup.c */
int daemon_setup(struct rasd *d);
void daemon_refresh_edac(struct rasd *d, bool reload_labels);
/*
 * At the stop, before the reader closes: this rasd's instance (fate KEPT, the
 * records it holds unread when it will not be removed, RAS_UNREAD_UNKNOWN when
 * a CPU's count cannot be read), or UNSAID when it has none. After
 * ras_tracing_close, daemon_instance_stopped looks whether it is still there
 * and says so in the state file, for the next rasd of the boot.
 */
struct rasd_instance_stop daemon_instance_at_stop(struct rasd *d, bool remove);
void daemon_instance_stopped(struct rasd *d, struct rasd_instance_stop *in);

/* daemon_storage.c */
bool daemon_stop_requested(void *ctx);
struct ras_pipeline *daemon_failing_pipe(struct rasd *d);
uint64_t daemon_records_waiting(struct rasd *d);
void daemon_storage_update(struct rasd *d);
void daemon_storage_retry(struct rasd *d);
int daemon_hold_until_stored(struct rasd *d, struct ras_pipeline *p, struct ras_reader *r);
void daemon_settle_storage_at_exit(struct rasd *d);
int daemon_open_db(struct rasd *d);

/* daemon_boot.c */
int daemon_harvest(struct rasd *d, const char *name, const char *source, bool previous);
int daemon_harvest_lastwords(struct rasd *d);
void daemon_release_adopted(struct adopted *a, bool remove);

#endif
