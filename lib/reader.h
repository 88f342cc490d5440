/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU raw ring-buffer reader: reads whole sub-buffers from every
 * per_cpu/cpuN/trace_pipe_raw of an instance without blocking, and hands
 * their records to the caller merged across CPUs in timestamp order.
 */
#ifndef RAS_READER_H
#define RAS_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <traceevent/event-parse.h>

struct ras_reader;

struct ras_reader_ops {
	/* One record, in timestamp order across CPUs. */
	void (*record)(void *ctx, int cpu, uint64_t ts, const void *data, uint32_t size);
	/* The kernel dropped records on cpu between prev_ts and ts; count -1 = unknown. */
	void (*missed)(void *ctx, int cpu, long long count, uint64_t prev_ts, uint64_t ts);
};

/*
 * Opens every per_cpu/cpuN/trace_pipe_raw below instance_dir non-blocking.
 * replay: the files are plain files of a replayed tree (tracefs files look
 * regular to stat too, so the caller says which), read to their end.
 */
int ras_reader_open(struct ras_reader **out, struct tep_handle *tep,
		    const char *instance_dir, unsigned page_size, bool replay);
/*
 * Registers each per-CPU file with epoll, data.u64 = tag + cpu. Call it only
 * after buffer_percent is 0: the kernel takes the watermark when the waiter
 * registers, and a waiter registered at 50 % is not woken by single records.
 * Regular files (a replayed tree) cannot be polled; they are read to their end.
 */
int ras_reader_watch(struct ras_reader *r, int epoll_fd, uint64_t tag);
/* Takes the per-CPU fds out of epoll_fd again: records then wait in the kernel buffer. */
int ras_reader_unwatch(struct ras_reader *r, int epoll_fd);
void ras_reader_close(struct ras_reader *r);

/*
 * Reads what is buffered now (at most max_pages sub-buffers in all) and
 * delivers it. Returns the number of records delivered or -errno; *more is
 * set when the page budget ran out before the buffers were empty.
 */
int ras_reader_drain(struct ras_reader *r, unsigned max_pages,
		     const struct ras_reader_ops *ops, void *ctx, bool *more);

unsigned ras_reader_ncpus(const struct ras_reader *r);
/* The CPU number of the i-th per-CPU buffer. */
int ras_reader_cpu_at(const struct ras_reader *r, unsigned i);
/* True when the per-CPU files are regular files (a replayed tree). */
bool ras_reader_is_replay(const struct ras_reader *r);
/* True when every regular file has been read to its end. */
bool ras_reader_replay_done(const struct ras_reader *r);

#endif
