/* SPDX-License-Identifier: MIT */
/*
 * Reading in bursts under a storm (reader_burst.h): the rule, and the
 * watermark and epoll registration it switches.
 */
#include <string.h>
#include "lib/reader.h"
#include "lib/tracing.h"
#include "log.h"
#include "reader_burst.h"

enum rasd_burst_step rasd_burst_rule(bool on, uint64_t records, int64_t window_ns)
{
	if (on) {
		/* Reads woken by the watermark within a tick add to the tick's count. */
		if (window_ns < RASD_BURST_TICK_NS)
			return RASD_BURST_STAY;
		return records < RASD_BURST_STOP ? RASD_BURST_END : RASD_BURST_NEXT_WINDOW;
	}
	if (records >= RASD_BURST_START && window_ns <= RASD_BURST_TICK_NS)
		return RASD_BURST_BEGIN;
	return window_ns >= RASD_BURST_TICK_NS ? RASD_BURST_NEXT_WINDOW : RASD_BURST_STAY;
}

int rasd_burst_timeout_ms(const struct rasd_burst *b, int64_t now_ns)
{
	int64_t left;

	if (!b->on)
		return -1;
	left = b->window_ns + RASD_BURST_TICK_NS - now_ns;
	if (left <= 0)
		return 0;
	/* A clock never waits longer than a tick. */
	return (int)(((left < RASD_BURST_TICK_NS ? left : RASD_BURST_TICK_NS) + 999999) / 1000000);
}

bool rasd_burst_tick_due(const struct rasd_burst *b, int64_t now_ns)
{
	return b->on && rasd_burst_timeout_ms(b, now_ns) == 0;
}

/* The per-CPU files registered again, so that the kernel takes the new watermark. */
static void rewatch(struct ras_reader *r, int epfd, uint64_t tag)
{
	int e;

	ras_reader_unwatch(r, epfd);
	e = ras_reader_watch(r, epfd, tag);
	if (e < 0)
		ras_log(LOG_ERR, "cannot watch the per-CPU buffers again: %s", strerror(-e));
}

static void switch_mode(struct rasd_burst *b, struct ras_tracing *tr, struct ras_reader *r,
			int epfd, uint64_t tag, bool paused, bool on)
{
	if (ras_tracing_set_watermark(tr, on ? RASD_BURST_PERCENT : 0) < 0) {
		/* Tried once: off, woken at every record; on, read by the tick from now on. */
		b->unsupported = true;
		if (on)
			ras_log(LOG_INFO, "buffer_percent cannot be set in %s: under a storm rasd is "
				"still woken at every record", tr->instance_dir);
		else
			ras_log(LOG_WARNING, "cannot put buffer_percent back to 0 in %s: rasd reads "
				"its buffers every %lld ms", tr->instance_dir,
				(long long)(RASD_BURST_TICK_NS / 1000000));
		return;
	}
	b->on = on;
	if (!paused)
		rewatch(r, epfd, tag);
}

void rasd_burst_after_read(struct rasd_burst *b, struct ras_tracing *tr, struct ras_reader *r,
			   int epfd, uint64_t tag, bool paused, int64_t now_ns)
{
	uint64_t records = ras_reader_delivered(r) - b->window_mark;
	enum rasd_burst_step step;

	if (!tr->real || b->unsupported)
		return;
	step = rasd_burst_rule(b->on, records, b->window_ns ? now_ns - b->window_ns : INT64_MAX);
	if (step == RASD_BURST_STAY)
		return;
	if (step == RASD_BURST_BEGIN || step == RASD_BURST_END)
		switch_mode(b, tr, r, epfd, tag, paused, step == RASD_BURST_BEGIN);
	b->window_ns = now_ns;
	b->window_mark = ras_reader_delivered(r);
}
