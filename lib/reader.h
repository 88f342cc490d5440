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

/*
 * What was wrong with a sub-buffer. Pages are checked before libtraceevent
 * reads them; a page with a problem is cut at the first bad header and its
 * records before that point are still delivered.
 */
enum ras_page_problem {
	RAS_PAGE_OK = 0,
	RAS_PAGE_COMMIT,         /* commit (data length) beyond the page */
	RAS_PAGE_HEADER,         /* a record header cut off by the commit */
	RAS_PAGE_LENGTH,         /* a data record's length impossible or past the commit */
	RAS_PAGE_PADDING,        /* a padding record's length impossible or past the page */
	RAS_PAGE_TIME,           /* a time-extend or time-stamp record cut off by the commit */
	RAS_PAGE_MISSED_COUNT,   /* the stored missed-events count lies outside the page */
	RAS_PAGE_N_PROBLEMS
};

/* One line naming each problem, for logs. */
const char *ras_page_problem_name(enum ras_page_problem p);

struct ras_page_check {
	enum ras_page_problem problem;
	unsigned records;        /* data records before the cut (all of them when OK) */
	unsigned valid_end;      /* bytes of data kept */
	uint64_t page_ts;
};

/* Bytes before a sub-buffer's data: u64 timestamp, long commit (as kbuffer assumes). */
#define RAS_PAGE_HEADER_SIZE (8u + (unsigned)sizeof(long))

/*
 * Walks every record header of a page_size sub-buffer with bounds checks
 * (the kernel's layout: type_len 1..28 data of type_len*4 bytes, 0 data
 * with its length in array[0], 29 padding, 30 time extend, 31 time stamp)
 * and rewrites the page's commit so that libtraceevent sees only what was
 * checked. Returns the problem found (RAS_PAGE_OK for a sound page).
 */
enum ras_page_problem ras_page_check(uint8_t *page, unsigned page_size,
				     struct ras_page_check *out);

struct ras_reader_ops {
	/* One record, in timestamp order across CPUs. */
	void (*record)(void *ctx, int cpu, uint64_t ts, const void *data, uint32_t size);
	/* The kernel dropped records on cpu between prev_ts and ts; count -1 = unknown. */
	void (*missed)(void *ctx, int cpu, long long count, uint64_t prev_ts, uint64_t ts);
	/*
	 * A page with a problem: records skipped after the cut (-1: unknown).
	 * ts: the page's timestamp. Called when the page is read.
	 */
	void (*malformed)(void *ctx, int cpu, enum ras_page_problem problem, long long skipped,
			  uint64_t ts);
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

/*
 * Records of the i-th per-CPU buffer that were read from the kernel but not
 * yet delivered (the kernel counts them as read already).
 */
uint64_t ras_reader_pending(const struct ras_reader *r, unsigned i);

/* Records delivered (and malformed ones met) since the reader was opened. */
uint64_t ras_reader_delivered(const struct ras_reader *r);

unsigned ras_reader_ncpus(const struct ras_reader *r);
/* The CPU number of the i-th per-CPU buffer. */
int ras_reader_cpu_at(const struct ras_reader *r, unsigned i);
/* True when the per-CPU files are regular files (a replayed tree). */
bool ras_reader_is_replay(const struct ras_reader *r);
/* True when every regular file has been read to its end. */
bool ras_reader_replay_done(const struct ras_reader *r);

#endif
