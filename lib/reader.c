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
};

struct ras_reader {
	struct tep_handle *tep;
	unsigned page_size;
	unsigned ncpus;
	bool replay;
	struct cpu_buf *cpus;
};

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

/* Reads up to budget sub-buffers of one CPU. Returns pages read or -errno. */
static int fill_cpu(struct ras_reader *r, struct cpu_buf *c, unsigned budget)
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

static int fill_all(struct ras_reader *r, unsigned max_pages, bool *more)
{
	unsigned per_cpu = max_pages / r->ncpus;

	if (per_cpu < 2)
		per_cpu = 2;
	*more = false;
	for (unsigned i = 0; i < r->ncpus; i++) {
		int got = fill_cpu(r, &r->cpus[i], per_cpu);

		if (got < 0)
			return got;
		if ((unsigned)got == per_cpu)
			*more = true;
	}
	return 0;
}

int ras_reader_drain(struct ras_reader *r, unsigned max_pages,
		     const struct ras_reader_ops *ops, void *ctx, bool *more)
{
	struct cpu_buf *c;
	int delivered = 0, ret = fill_all(r, max_pages, more);

	if (ret < 0)
		return ret;
	for (unsigned i = 0; i < r->ncpus; i++)
		load_pages_from(&r->cpus[i], 0, r->page_size, ops, ctx);
	while ((c = earliest(r))) {
		uint32_t size = (uint32_t)kbuffer_event_size(c->kbuf);

		c->last_ts = c->ts;
		delivered++;
		ops->record(ctx, c->cpu, c->ts, c->ev, size);
		next_record(c, r->page_size, ops, ctx);
	}
	return delivered;
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
