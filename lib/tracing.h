/* SPDX-License-Identifier: MIT */
/* The tracefs side: finding tracefs, owning an instance, its settings and counters. */
#ifndef RAS_TRACING_H
#define RAS_TRACING_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "event_table.h"

struct tracefs_instance;
struct tep_handle;

struct ras_tracing {
	char dir[PATH_MAX];           /* tracefs root */
	char instance_dir[PATH_MAX];  /* its instances/NAME */
	char name[64];
	bool real;                    /* a mounted tracefs, not a replayed tree */
	bool created;                 /* we made the instance (false: reclaimed or adopted) */
	struct tracefs_instance *inst;
	clockid_t clock;              /* the userspace clock matching the trace clock */
	bool clock_exact;             /* false: wall times are the time of reading */
	char clock_name[32];
	int64_t offset_ns;            /* realtime - trace clock, refreshed per batch */
	/* Per event type, its keep terms (event_table.h) in the kernel: 1 set, -1 refused, 0 none. */
	signed char filter[RAS_MAX_EVENT_TYPES];
};

struct ras_cpu_stats {
	uint64_t overrun;
	uint64_t dropped;
	uint64_t entries;
	uint64_t read;
};

/* Uses dir if given, else /sys/kernel/tracing (mounting tracefs there if needed), else debugfs. */
int ras_tracing_find(const char *dir, char *out, size_t outlen, char *err, size_t errlen);
/* Creates the instance, or takes back one left by a crashed rasd. */
int ras_tracing_open(struct ras_tracing *t, const char *tracing_dir, const char *name,
		     char *err, size_t errlen);
/* Attaches to an instance that someone else made (never creates one). */
int ras_tracing_attach(struct ras_tracing *t, const char *tracing_dir, const char *name);
/* Empties the instance's buffer, so its records are never read twice. */
int ras_tracing_clear(struct ras_tracing *t);
/* Turns off every event of the instance. */
int ras_tracing_disable_all(struct ras_tracing *t);
int ras_tracing_set_watermark_zero(struct ras_tracing *t);
/*
 * The instance's buffer_percent: a reader's poll is woken when a CPU's buffer
 * is that full (0: at every record). -EIO when the kernel has no such file.
 * The kernel takes it when the waiter registers: watch the per-CPU files again.
 */
int ras_tracing_set_watermark(struct ras_tracing *t, unsigned percent);
/* Sets buffer size, overwrite off, buffer_percent 0 and the boot clock (real tracefs only). */
int ras_tracing_configure(struct ras_tracing *t, unsigned buffer_size_kb, char *err, size_t errlen);
int ras_tracing_enable(struct ras_tracing *t, const char *system, const char *event);
int ras_tracing_disable(struct ras_tracing *t, const char *system, const char *event);
int ras_tracing_on(struct ras_tracing *t, bool on);
/*
 * Writes an event's filter in the instance ("" clears it). 0, or -errno of
 * the write: -EINVAL when the kernel refuses the expression. A replayed tree
 * has none (0).
 */
int ras_tracing_set_filter(struct ras_tracing *t, const char *system, const char *event,
			   const char *filter);
/* Whether the event's filter in the instance is filter: 1 yes, 0 no, -EIO unknown. */
int ras_tracing_filter_is(struct ras_tracing *t, const char *system, const char *event,
			  const char *filter);
/*
 * Whether an event is on in the instance, and whether the instance traces at
 * all: 1 yes, 0 no, -EIO unknown. A replayed tree is always on.
 */
int ras_tracing_event_is_on(struct ras_tracing *t, const char *system, const char *event);
int ras_tracing_is_on(struct ras_tracing *t);
/* Overwrite back off if something turned it on: 1 it was on (now off), 0 it was off, -EIO. */
int ras_tracing_keep_overwrite_off(struct ras_tracing *t);
/* Disables what we enabled and removes the instance if we own it and may. */
void ras_tracing_close(struct ras_tracing *t, bool remove);
int ras_tracing_cpu_stats(const char *instance_dir, int cpu, struct ras_cpu_stats *st);
/*
 * The identity of an instance's ring buffers: its directory's inode number,
 * which tracefs gives anew at every mkdir of an instance and keeps while it
 * exists (its counters start at 0 with it). 0, or -errno.
 */
int ras_tracing_instance_ident(const char *instance_dir, uint64_t *ident);
/*
 * The records the instance holds unread: the sum of every per_cpu/cpuN/stats
 * "entries" line. 0, or -errno when one CPU's cannot be read (the sum would
 * be too small: unknown) or the instance has no CPU.
 */
int ras_tracing_instance_entries(const char *instance_dir, uint64_t *entries);
/* Reads the instance's trace_clock and picks the matching clock for conversion. */
int ras_tracing_read_clock(struct ras_tracing *t);
/* Samples realtime against the trace clock; call once per batch. */
void ras_tracing_sync_clock(struct ras_tracing *t);
/* Converts a trace timestamp to UTC nanoseconds using the last sample. */
int64_t ras_tracing_wall_ns(const struct ras_tracing *t, uint64_t ts);

/*
 * Reads events/header_page under tracing_dir (else fallback_dir/header_page),
 * parses it into tep and gives the sub-buffer size. *text is malloc'd.
 */
int ras_tracing_header_page(struct tep_handle *tep, const char *tracing_dir,
			    const char *fallback_dir, char **text, size_t *len, unsigned *page_size);
/*
 * Calls fn for every per_cpu/cpuN of an instance (numbers may have gaps), in
 * order; fn may be NULL to count. Returns the number of CPUs, or fn's error.
 */
typedef int (*ras_cpu_fn)(void *ctx, int cpu);
int ras_tracing_for_each_cpu(const char *instance_dir, ras_cpu_fn fn, void *ctx);

/* Exclusive per-instance lock under lock_dir; returns an fd, or -EBUSY with the holder's pid. */
int ras_lock_take(const char *lock_dir, const char *instance, int *holder_pid, char *path, size_t pathlen);
/* The boot id of the running kernel (/proc/sys/kernel/random/boot_id). */
int ras_boot_id(char *out, size_t len);

#endif
