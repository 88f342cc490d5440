/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/kbuffer.h>
#include "reader.h"
#include "timeline.h"
#include "tracing.h"

struct cpu_buf {
	int cpu;
	int fd;
	bool regular;
	bool eof;
	struct kbuffer *kbuf;
	uint8_t *pages;     /* up to cap sub-buffers read in this batch */
	unsigned cap, n;    /* capacity and count of pages */
	unsigned cur;       /* page being walked */
	void *ev;           /* current record in that page, NULL when done */
	unsigned long long ts;
	uint64_t last_ts;   /* timestamp of the last record delivered */
	uint64_t pending;   /* records read from the kernel, not yet delivered */
};

struct ras_reader {
	struct tep_handle *tep;
	unsigned page_size;
	unsigned ncpus;
	bool replay;
	struct cpu_buf *cpus;
	uint64_t delivered; /* records delivered since the reader opened */
};

/*
 * The kernel's ring-buffer layout (include/linux/ring_buffer.h,
 * kernel/trace/ring_buffer.c): a sub-buffer starts with a u64 timestamp
 * and a long "commit", the bytes of data in use, whose bits 31 and 30 say
 * that events were missed before this page and that their count is stored
 * as a long right after the data. Each record starts with a u32 holding
 * type_len (low 5 bits) and time_delta (upper 27).
 */
#define MISSED_EVENTS (1ULL << 31)
#define MISSED_STORED (1ULL << 30)
#define TYPE_DATA_MAX 28
#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
/* The kernel pads a page's last bytes with a bare header (delta 0) only
 * when less than a minimal event (header + array[0]) is left. */
#define MIN_EVENT 8u

static const char *const problem_names[RAS_PAGE_N_PROBLEMS] = {
	[RAS_PAGE_OK] = "sound",
	[RAS_PAGE_COMMIT] = "data length (commit) beyond the page",
	[RAS_PAGE_HEADER] = "record header cut off by the end of the data",
	[RAS_PAGE_LENGTH] = "record length impossible or past the end of the data",
	[RAS_PAGE_PADDING] = "padding record with an impossible length",
	[RAS_PAGE_TIME] = "time-extend or time-stamp record cut off by the end of the data",
	[RAS_PAGE_MISSED_COUNT] = "missed-events count stored outside the page",
};

const char *ras_page_problem_name(enum ras_page_problem p)
{
	return (unsigned)p < RAS_PAGE_N_PROBLEMS ? problem_names[p] : "unknown problem";
}

static uint64_t read_commit(const uint8_t *page)
{
	unsigned long v;

	memcpy(&v, page + 8, sizeof(v));
	return v;
}

static void write_commit(uint8_t *page, uint64_t word)
{
	unsigned long v = (unsigned long)word;

	memcpy(page + 8, &v, sizeof(v));
}

/* A padding record: its size, 0 at a clean end of the page, or -problem. */
static int padding_size(uint32_t hdr, const uint8_t *d, unsigned avail, unsigned to_end)
{
	uint32_t len;

	if (!(hdr >> 5))
		return to_end < MIN_EVENT ? 0 : -RAS_PAGE_PADDING;
	if (avail < 8)
		return -RAS_PAGE_PADDING;
	/* array[0]: bytes after the header, itself included. */
	memcpy(&len, d + 4, 4);
	if (len < 4 || len % 4 || len > to_end - 4)
		return -RAS_PAGE_PADDING;
	/* The padding that fills the rest of the page may lie past the commit. */
	if (len > avail - 4)
		return len == to_end - 4 ? 0 : -RAS_PAGE_PADDING;
	return (int)(4 + len);
}

/*
 * Size of the record at d: avail bytes of data left before the commit,
 * to_end before the end of the page. 0 at a clean end, or -problem.
 */
static int record_size(const uint8_t *d, unsigned avail, unsigned to_end, bool *data)
{
	uint32_t hdr, len, type;

	*data = false;
	if (avail < 4)
		return -RAS_PAGE_HEADER;
	memcpy(&hdr, d, 4);
	type = hdr & 31;
	if (type == TYPE_PADDING)
		return padding_size(hdr, d, avail, to_end);
	if (type == TYPE_TIME_EXTEND || type == TYPE_TIME_STAMP)
		return avail >= 8 ? 8 : -RAS_PAGE_TIME;
	*data = true;
	if (type >= 1 && type <= TYPE_DATA_MAX)
		return type * 4 + 4 <= avail ? (int)(type * 4 + 4) : -RAS_PAGE_LENGTH;
	/* type_len 0: array[0] holds the length after the header, itself included. */
	if (avail < 8)
		return -RAS_PAGE_LENGTH;
	memcpy(&len, d + 4, 4);
	if (len < 8 || len % 4 || len > avail - 4)
		return -RAS_PAGE_LENGTH;
	return (int)(4 + len);
}

/* A stored missed count follows the data: keep it readable after a cut, or drop it. */
static uint64_t fix_missed_count(uint8_t *d, uint64_t flags, uint64_t commit, unsigned end,
				 unsigned data_size, enum ras_page_problem *problem)
{
	if (!(flags & MISSED_EVENTS))
		return 0;
	if (!(flags & MISSED_STORED))
		return flags;
	if (commit + sizeof(long) > data_size) {
		if (*problem == RAS_PAGE_OK)
			*problem = RAS_PAGE_MISSED_COUNT;
		return MISSED_EVENTS;   /* count unknown */
	}
	if (end != commit)
		memmove(d + end, d + commit, sizeof(long));
	return flags;
}

enum ras_page_problem ras_page_check(uint8_t *page, unsigned page_size,
				     struct ras_page_check *out)
{
	const unsigned data_size = page_size - RAS_PAGE_HEADER_SIZE;
	uint8_t *d = page + RAS_PAGE_HEADER_SIZE;
	uint64_t word = read_commit(page);
	uint64_t flags = word & (MISSED_EVENTS | MISSED_STORED);
	uint64_t commit = word & ~(MISSED_EVENTS | MISSED_STORED);
	enum ras_page_problem problem = RAS_PAGE_OK;
	unsigned o = 0;

	memset(out, 0, sizeof(*out));
	memcpy(&out->page_ts, page, 8);
	if (commit > data_size) {
		/* Nothing on the page can be trusted, its flags included. */
		write_commit(page, 0);
		return out->problem = RAS_PAGE_COMMIT;
	}
	while (o < commit) {
		bool data;
		int n = record_size(d + o, (unsigned)commit - o, data_size - o, &data);

		if (n <= 0) {
			problem = (enum ras_page_problem)-n;
			break;
		}
		out->records += data;
		o += (unsigned)n;
	}
	flags = fix_missed_count(d, flags, commit, o, data_size, &problem);
	write_commit(page, o | flags);
	out->valid_end = o;
	return out->problem = problem;
}

static int open_cpu(struct ras_reader *r, struct cpu_buf *c, const char *dir, int cpu)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, cpu);
	c->cpu = cpu;
	c->regular = r->replay;
	c->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0)
		return -errno;
	/* tep_kbuffer() hands out one shared kbuffer; each CPU needs its own. */
	c->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!c->kbuf)
		return -ENOMEM;
	return 0;
}

int ras_reader_watch(struct ras_reader *r, int epoll_fd, uint64_t tag)
{
	for (unsigned i = 0; i < r->ncpus; i++) {
		struct cpu_buf *c = &r->cpus[i];
		struct epoll_event ee = { .events = EPOLLIN, .data.u64 = tag + (uint64_t)c->cpu };

		if (c->regular)
			continue;
		if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &ee) < 0)
			return -errno;
	}
	return 0;
}

int ras_reader_unwatch(struct ras_reader *r, int epoll_fd)
{
	for (unsigned i = 0; i < r->ncpus; i++)
		if (!r->cpus[i].regular && epoll_ctl(epoll_fd, EPOLL_CTL_DEL, r->cpus[i].fd, NULL) < 0)
			return -errno;
	return 0;
}

struct open_ctx {
	struct ras_reader *r;
	const char *dir;
	unsigned cap;
};

static int open_next_cpu(void *ctx, int cpu)
{
	struct open_ctx *o = ctx;
	struct ras_reader *r = o->r;

	/* A CPU that appeared since counting is not opened: the array holds cap. */
	if (r->ncpus >= o->cap)
		return 0;
	r->cpus[r->ncpus].fd = -1;
	return open_cpu(r, &r->cpus[r->ncpus++], o->dir, cpu);
}

int ras_reader_open(struct ras_reader **out, struct tep_handle *tep,
		    const char *instance_dir, unsigned page_size, bool replay)
{
	struct ras_reader *r;
	int n = ras_tracing_for_each_cpu(instance_dir, NULL, NULL), ret;

	if (n <= 0)
		return -ENOENT;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->tep = tep;
	r->page_size = page_size;
	r->replay = replay;
	r->cpus = calloc((size_t)n, sizeof(*r->cpus));
	if (!r->cpus) {
		free(r);
		return -ENOMEM;
	}
	ret = ras_tracing_for_each_cpu(instance_dir, open_next_cpu,
				       &(struct open_ctx){ r, instance_dir, (unsigned)n });
	if (ret < 0) {
		ras_reader_close(r);
		return ret;
	}
	*out = r;
	return 0;
}

void ras_reader_close(struct ras_reader *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->ncpus; i++) {
		if (r->cpus[i].fd >= 0)
			close(r->cpus[i].fd);
		if (r->cpus[i].kbuf)
			kbuffer_free(r->cpus[i].kbuf);
		free(r->cpus[i].pages);
	}
	free(r->cpus);
	free(r);
}

/*
 * Checks a page just read, before anything else looks at it. The kernel
 * counted every record on it as read; those after a cut are reported here.
 */
static void check_page(struct ras_reader *r, struct cpu_buf *c, uint8_t *page,
		       const struct ras_reader_ops *ops, void *ctx)
{
	struct ras_page_check chk;

	if (ras_page_check(page, r->page_size, &chk) != RAS_PAGE_OK && ops->malformed)
		ops->malformed(ctx, c->cpu, chk.problem, -1, chk.page_ts);
	c->pending += chk.records;
}

/* Reads up to budget sub-buffers of one CPU. Returns pages read or -errno. */
static int fill_cpu(struct ras_reader *r, struct cpu_buf *c, unsigned budget,
		    const struct ras_reader_ops *ops, void *ctx)
{
	if (budget > c->cap) {
		uint8_t *p = realloc(c->pages, (size_t)budget * r->page_size);

		if (!p)
			return -ENOMEM;
		c->pages = p;
		c->cap = budget;
	}
	c->n = 0;
	while (c->n < budget && !c->eof) {
		uint8_t *page = c->pages + (size_t)c->n * r->page_size;
		ssize_t got = read(c->fd, page, r->page_size);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			break;
		if (got < 0)
			return -errno;
		if (got == 0) {
			c->eof = c->regular;
			break;
		}
		/* A partial sub-buffer carries its own commit size; zero the tail anyway. */
		if ((size_t)got < r->page_size)
			memset(page + got, 0, r->page_size - (size_t)got);
		check_page(r, c, page, ops, ctx);
		c->n++;
	}
	return (int)c->n;
}

/*
 * Loads pages from index first on until one holds a record, reporting the
 * kernel's missed-events mark of each page loaded.
 */
static void load_pages_from(struct cpu_buf *c, unsigned first, unsigned page_size,
			    const struct ras_reader_ops *ops, void *ctx)
{
	c->ev = NULL;
	for (c->cur = first; c->cur < c->n; c->cur++) {
		int missed;

		if (kbuffer_load_subbuffer(c->kbuf, c->pages + (size_t)c->cur * page_size) < 0)
			continue;
		c->ev = kbuffer_read_event(c->kbuf, &c->ts);
		missed = kbuffer_missed_events(c->kbuf);
		if (missed && ops->missed)
			ops->missed(ctx, c->cpu, missed < 0 ? -1 : missed, c->last_ts,
				    c->ev ? c->ts : c->last_ts);
		if (c->ev)
			return;
	}
}

static void next_record(struct cpu_buf *c, unsigned page_size,
			const struct ras_reader_ops *ops, void *ctx)
{
	c->ev = kbuffer_next_event(c->kbuf, &c->ts);
	if (!c->ev)
		load_pages_from(c, c->cur + 1, page_size, ops, ctx);
}

static struct cpu_buf *earliest(struct ras_reader *r)
{
	struct cpu_buf *best = NULL;

	for (unsigned i = 0; i < r->ncpus; i++) {
		struct cpu_buf *c = &r->cpus[i];

		if (c->ev && (!best || c->ts < best->ts))
			best = c;
	}
	return best;
}

static int fill_all(struct ras_reader *r, unsigned max_pages, bool *more,
		    const struct ras_reader_ops *ops, void *ctx)
{
	unsigned per_cpu = max_pages / r->ncpus;

	if (per_cpu < 2)
		per_cpu = 2;
	*more = false;
	for (unsigned i = 0; i < r->ncpus; i++) {
		int got = fill_cpu(r, &r->cpus[i], per_cpu, ops, ctx);

		if (got < 0)
			return got;
		if ((unsigned)got == per_cpu)
			*more = true;
	}
	return 0;
}

/* Checked pages never fail this; it keeps a libtraceevent surprise from reading past the page. */
static bool within_page(const struct ras_reader *r, const struct cpu_buf *c, uint32_t size)
{
	const uint8_t *page = c->pages + (size_t)c->cur * r->page_size, *ev = c->ev;

	return ev >= page + RAS_PAGE_HEADER_SIZE && ev <= page + r->page_size &&
	       size <= (size_t)(page + r->page_size - ev);
}

int ras_reader_drain(struct ras_reader *r, unsigned max_pages,
		     const struct ras_reader_ops *ops, void *ctx, bool *more)
{
	struct cpu_buf *c;
	int delivered = 0, ret;

	ras_tl_begin(RAS_TL_FILL);
	ret = fill_all(r, max_pages, more, ops, ctx);
	ras_tl_end(RAS_TL_FILL);

	if (ret < 0)
		return ret;
	for (unsigned i = 0; i < r->ncpus; i++)
		load_pages_from(&r->cpus[i], 0, r->page_size, ops, ctx);
	while ((c = earliest(r))) {
		uint32_t size = (uint32_t)kbuffer_event_size(c->kbuf);

		c->last_ts = c->ts;
		delivered++;
		if (within_page(r, c, size))
			ops->record(ctx, c->cpu, c->ts, c->ev, size);
		else if (ops->malformed)
			ops->malformed(ctx, c->cpu, RAS_PAGE_LENGTH, 1, c->ts);
		/* After: a commit made inside record() still counts this one as pending. */
		if (c->pending)
			c->pending--;
		next_record(c, r->page_size, ops, ctx);
	}
	r->delivered += (unsigned)delivered;
	return delivered;
}

uint64_t ras_reader_delivered(const struct ras_reader *r)
{
	return r->delivered;
}

uint64_t ras_reader_pending(const struct ras_reader *r, unsigned i)
{
	return i < r->ncpus ? r->cpus[i].pending : 0;
}

unsigned ras_reader_ncpus(const struct ras_reader *r)
{
	return r->ncpus;
}

bool ras_reader_is_replay(const struct ras_reader *r)
{
	return r->replay;
}

bool ras_reader_replay_done(const struct ras_reader *r)
{
	for (unsigned i = 0; i < r->ncpus; i++)
		if (r->cpus[i].regular && !r->cpus[i].eof)
			return false;
	return true;
}

int ras_reader_cpu_at(const struct ras_reader *r, unsigned i)
{
	return i < r->ncpus ? r->cpus[i].cpu : -1;
}
