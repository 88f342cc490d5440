/* SPDX-License-Identifier: MIT */
/*
 * Reading in bursts under a storm. Idle, the instance's buffer_percent is 0:
 * the kernel wakes rasd at every record, so a lone record is read at once.
 * When rasd reads RASD_BURST_START records within one tick (RASD_BURST_TICK_NS)
 * it raises the watermark to RASD_BURST_PERCENT and reads once a tick instead
 * of at every record: the kernel still wakes it at once when one CPU's buffer
 * is that full, so a storm faster than the tick is read before the buffer
 * can overflow. A tick that reads fewer than RASD_BURST_STOP records puts the
 * watermark back to 0. Where buffer_percent cannot be written, rasd is woken
 * at every record as before (before Linux 6.1 poll ignores the watermark:
 * the level-triggered epoll then wakes rasd whenever the buffer holds data,
 * and the tick changes nothing).
 */
#ifndef RASD_READER_BURST_H
#define RASD_READER_BURST_H

#include <stdbool.h>
#include <stdint.h>

struct ras_tracing;
struct ras_reader;

#define RASD_BURST_TICK_NS (4 * 1000000LL)
/*
 * Enter at 6 records a tick (1,500/s), leave below 2 (500/s): a wake and a
 * tick cost the same (each reads every CPU's file), so the tick is cheaper
 * from about one record a tick on, and the gap of three keeps a steady rate
 * from flapping (a switch writes buffer_percent and registers every CPU's
 * file again). Entered at 64 (16,000/s) before: at 2,000-8,000/s rasd was
 * woken for every record or two. A record waits at most one tick (4 ms)
 * more to be read; its group is timed from its arrival in the kernel, so its
 * commit is not delayed. No loss risk: the rates newly read by the tick
 * (1,500-16,000/s) leave at most 64 records in the buffers at a tick; all on
 * one CPU and 256 bytes each (the bench's stream: 148 on average) that is
 * 16 KiB, 6 % of the default buffer_size_kb (256 per CPU, 64 sub-buffers of
 * 4 KiB). Faster, the watermark (RASD_BURST_PERCENT) wakes rasd at once when
 * a CPU's buffer is a quarter full (64 KiB, 256 such records, which a tick
 * holds only past 64,000/s on one CPU), as before. A buffer_size_kb under
 * 64 relies on that wake-up at these rates too, as it did above 16,000/s.
 */
#define RASD_BURST_START 6
#define RASD_BURST_STOP 2
/* A quarter full leaves three quarters of the buffer for the wake-up's latency. */
#define RASD_BURST_PERCENT 25

enum rasd_burst_step {
	RASD_BURST_STAY,         /* the window goes on */
	RASD_BURST_NEXT_WINDOW,  /* a tick is over, the mode stays: a new window */
	RASD_BURST_BEGIN,        /* storm: raise the watermark, read by the tick */
	RASD_BURST_END,          /* quiet again: watermark 0, woken at every record */
};

/*
 * The rule, pure: on, the mode now; records read in the window so far;
 * window_ns, how long it has lasted.
 */
enum rasd_burst_step rasd_burst_rule(bool on, uint64_t records, int64_t window_ns);

struct rasd_burst {
	bool on;                 /* watermark raised, read by the tick */
	bool unsupported;        /* buffer_percent cannot be written: never on */
	int64_t window_ns;       /* the window's start, monotonic; 0: none yet */
	uint64_t window_mark;    /* ras_reader_delivered at its start */
};

/* Milliseconds until the next tick's read, -1 when reading is not by the tick. */
int rasd_burst_timeout_ms(const struct rasd_burst *b, int64_t now_ns);
/* The tick is due: read now even though the kernel woke no one. */
bool rasd_burst_tick_due(const struct rasd_burst *b, int64_t now_ns);
/*
 * After a read of the instance: applies the rule, writes buffer_percent and
 * watches the per-CPU files again (their watermark is taken at registration)
 * unless paused (the files are out of epoll; they are watched again later
 * with the watermark written here).
 */
void rasd_burst_after_read(struct rasd_burst *b, struct ras_tracing *tr, struct ras_reader *r,
			   int epfd, uint64_t tag, bool paused, int64_t now_ns);

#endif
