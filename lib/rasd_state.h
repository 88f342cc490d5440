/* SPDX-License-Identifier: MIT */
/*
 * What rasd says about itself in the state file it keeps beside its lock
 * (<lock_dir>/rasd-<instance>.state, written by rasd/storage.c), read for
 * ras-fdr-ctl status and metrics, and whether the rasd that wrote it still
 * runs: the file is believed only while that pid holds the lock, so a rasd
 * killed with SIGKILL is never taken for a working one. Also the
 * acknowledgement ras-fdr-ctl ack leaves beside them (rasd-<instance>.ack).
 */
#ifndef RAS_RASD_STATE_H
#define RAS_RASD_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* instance_unread when not known (a CPU's stats could not be read at the stop). */
#define RAS_UNREAD_UNKNOWN UINT64_MAX

struct ras_rasd_state {
	bool present;                 /* the file exists */
	int lock_pid;                 /* the pid holding rasd's lock; 0: none */
	long pid;                     /* the pid that wrote the file */
	bool alive;                   /* that pid holds the lock: what the file says is current */
	bool stopped;                 /* the writer stopped and said so (state=stopped) */
	bool running;                 /* the writer said it runs (state=running) */
	bool killed;                  /* it said it runs, and no longer holds the lock: it died */
	bool failing;                 /* storage=failing */
	int64_t since_ns, start_ns, stop_ns, replaced_ns;
	uint64_t waiting, unstored;
	char reason[512];             /* why storage fails */
	char exit_reason[512];        /* why a stopped rasd stopped; "" after a clean stop */
	char database[PATH_MAX];      /* the file rasd records into */
	char database_id[48], replaced_from[48];
	char moved_log[PATH_MAX + 64];  /* the replaced (moved) database's log kept aside, "" none */
	long long durable_records, durable_p50_us, durable_p99_us, durable_max_us;
	/* What the path rule refused (rasd/refusals.c): "WHAT: WHY" lines, "" when none. */
	char refused[8192];
	/* bmc_sel= (rasd/bmc_sel.h): "off", the IPMI device and its counts, or why there is none. */
	char bmc_sel[PATH_MAX + 200];
	/*
	 * The live instance at the stop: kept (left in tracefs with what it
	 * holds, in boot instance_boot, its inode instance_ident, unread records
	 * then, RAS_UNREAD_UNKNOWN when a CPU's count could not be read: the
	 * file says instance_unread=unknown) or removed; neither when the file
	 * does not say.
	 */
	bool instance_kept, instance_removed;
	char instance_boot[40];
	uint64_t instance_ident, instance_unread;
};

/* The pid holding rasd's lock for instance in lock_dir (F_GETLK), 0 when none. */
int ras_rasd_lock_holder(const char *lock_dir, const char *instance);
/* Reads the state file (st->present false without one) and judges it against the lock. */
void ras_rasd_state_read(const char *lock_dir, const char *instance, struct ras_rasd_state *st);
/*
 * The file alone, for rasd itself: opening and closing the lock file from the
 * process that holds the lock would release it (POSIX record locks go with
 * any close of the file). killed is set when the file says its writer runs.
 */
void ras_rasd_state_parse(const char *lock_dir, const char *instance, struct ras_rasd_state *st);

/* What ras-fdr-ctl ack acknowledged: losses up to a lost_events id, a replacement up to a time. */
struct ras_rasd_ack {
	bool present;
	char database_id[48];
	int64_t lost_id, replaced_ns, at_ns;
};
void ras_rasd_ack_read(const char *lock_dir, const char *instance, struct ras_rasd_ack *ack);
/* 0 or -errno. */
int ras_rasd_ack_write(const char *lock_dir, const char *instance, const struct ras_rasd_ack *ack);

#endif
