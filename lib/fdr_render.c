/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/kbuffer.h>
#include <traceevent/trace-seq.h>
#include "fdr_blob.h"
#include "fdr_render.h"

/* Commit word of a sub-buffer header: data size below bit 27, loss flags on top. */
#define COMMIT_SIZE_MASK ((1ULL << 27) - 1)
#define COMMIT_MISSED_STORED (1ULL << 30)

/*
 * Records are copied into a scratch area this large before libtraceevent
 * reads them: a field offset (16 bits) plus a __data_loc offset and length
 * (16 bits each) cannot then reach past it, whatever a stored format says.
 */
#define SCRATCH_SIZE (3u * 65536u + 64u)
#define MAX_FIELD_END 65536
/*
 * kbuffer reads an event's header words before knowing whether they fit, so
 * each sub-buffer is walked from a copy with this much zeroed room after it.
 */
#define PAGE_SLACK 64

struct stream {
	int cpu;
	const uint8_t *pages;
	size_t npages, cur;
	uint8_t *page;            /* the current sub-buffer, copied with a zeroed tail */
	struct kbuffer *kbuf;
	void *ev;                 /* current record, NULL when this CPU is done */
	unsigned long long ts;
	unsigned long long last_ts;
	long long pending_missed; /* loss mark not yet shown; -1: count unknown */
};

struct render {
	struct tep_handle *tep;
	unsigned page_size, header_size;
	const struct fdr_section *meta;
	struct stream *streams;
	unsigned nstreams;
	bool by_trace_ts;         /* relative to the trigger's trace timestamp */
	int64_t offset_ns;        /* realtime - trace clock at capture */
	int64_t origin;           /* trigger, as trace ts or as wall ns */
	uint8_t *scratch;
	size_t scratch_used;
	struct fdr_render_stats *st;
	fdr_line_fn line;
	void *ctx;
};

int fdr_page_data_size(struct tep_handle *tep, const uint8_t *page, unsigned page_size)
{
	int ts_size = tep_get_header_timestamp_size(tep);
	int commit_size = tep_get_header_page_size(tep);
	unsigned long long commit, data;
	unsigned header;

	if (ts_size != 8 || (commit_size != 4 && commit_size != 8))
		return -EINVAL;
	header = (unsigned)(ts_size + commit_size);
	if (page_size <= header)
		return -EINVAL;
	commit = tep_read_number(tep, page + ts_size, commit_size);
	data = commit & COMMIT_SIZE_MASK;
	/* A stored loss count sits right after the data. */
	if (commit & COMMIT_MISSED_STORED)
		data += (unsigned)commit_size;
	if (data > page_size - header)
		return -EINVAL;
	return (int)(commit & COMMIT_SIZE_MASK);
}

static unsigned header_size(struct tep_handle *tep)
{
	return (unsigned)(tep_get_header_timestamp_size(tep) + tep_get_header_page_size(tep));
}

static long meta_number(const struct fdr_section *meta, const char *key, long dflt)
{
	char buf[32], *end;
	long v;

	if (!meta || fdr_meta_get(meta, key, buf, sizeof(buf)) < 0)
		return dflt;
	v = strtol(buf, &end, 10);
	return end == buf || *end ? dflt : v;
}

static int64_t meta_int64(const struct fdr_section *meta, const char *key)
{
	char buf[32];

	if (!meta || fdr_meta_get(meta, key, buf, sizeof(buf)) < 0)
		return 0;
	return strtoll(buf, NULL, 10);
}

/* Every field of a stored format must end inside MAX_FIELD_END. */
static bool fields_in_bounds(struct tep_format_field *f)
{
	for (; f; f = f->next)
		if (f->offset < 0 || f->size < 0 || f->offset + f->size > MAX_FIELD_END)
			return false;
	return true;
}

static int add_format(struct render *r, const struct fdr_section *s)
{
	const char *sys = (const char *)s->data;
	const uint8_t *nul = memchr(s->data, 0, s->len);
	struct tep_event *ev = NULL;
	size_t syslen;

	if (!nul)
		return -EINVAL;
	syslen = (size_t)(nul - s->data) + 1;
	if (tep_parse_format(r->tep, &ev, (const char *)s->data + syslen, s->len - syslen,
			     sys) != 0 || !ev)
		return 0;   /* an event libtraceevent cannot parse prints as unknown */
	if (!fields_in_bounds(ev->format.common_fields) || !fields_in_bounds(ev->format.fields))
		return -EINVAL;
	return 0;
}

static int setup_tep(struct render *r, const struct fdr_section *header)
{
	long long_size = meta_number(r->meta, "long_size", (long)sizeof(long));
	long big = meta_number(r->meta, "big_endian", 0);
	char *copy;
	int ret;

	if (long_size != 4 && long_size != 8)
		return -EINVAL;
	tep_set_long_size(r->tep, (int)long_size);
	tep_set_file_bigendian(r->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(r->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	/* The parser wants a NUL-terminated, writable copy. */
	copy = malloc((size_t)header->len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, header->data, header->len);
	copy[header->len] = 0;
	ret = tep_parse_header_page(r->tep, copy, header->len, (int)long_size);
	free(copy);
	if (ret < 0)
		return -EINVAL;
	ret = tep_get_sub_buffer_size(r->tep);
	if (ret < 64 || ret > 16 * 1024 * 1024)
		return -EINVAL;
	r->page_size = (unsigned)ret;
	r->header_size = header_size(r->tep);
	return 0;
}

static int add_stream(struct render *r, const struct fdr_section *s)
{
	struct stream *n;

	if (s->len % r->page_size)
		return -EINVAL;
	if (!s->len)
		return 0;
	n = realloc(r->streams, (r->nstreams + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->streams = n;
	n = &r->streams[r->nstreams];
	memset(n, 0, sizeof(*n));
	n->cpu = (int)s->aux;
	n->pages = s->data;
	n->npages = s->len / r->page_size;
	r->nstreams++;
	n->kbuf = tep_kbuffer(r->tep);
	n->page = calloc(1, (size_t)r->page_size + PAGE_SLACK);
	if (!n->kbuf || !n->page)
		return -ENOMEM;
	return 0;
}

/* Two passes: metadata and header_page first, then formats and pages, which need them. */
static int load_sections(struct render *r, const uint8_t *raw, size_t len,
			 struct fdr_section *meta)
{
	struct fdr_section s, header = { 0 };
	size_t pos = FDR_BLOB_MAGIC_LEN;
	int ret;

	while ((ret = fdr_blob_next(raw, len, &pos, &s)) > 0) {
		if (s.kind == FDR_SEC_META)
			*meta = s;
		else if (s.kind == FDR_SEC_HEADER_PAGE)
			header = s;
	}
	if (ret < 0 || !header.data)
		return -EINVAL;
	r->meta = meta->data ? meta : NULL;
	ret = setup_tep(r, &header);
	for (pos = FDR_BLOB_MAGIC_LEN; ret == 0 && fdr_blob_next(raw, len, &pos, &s) > 0; ) {
		if (s.kind == FDR_SEC_FORMAT)
			ret = add_format(r, &s);
		else if (s.kind == FDR_SEC_PAGES)
			ret = add_stream(r, &s);
	}
	return ret;
}

static void emit(struct render *r, int64_t rel_ns, const char *text)
{
	char buf[4096];
	uint64_t mag = rel_ns < 0 ? (uint64_t)0 - (uint64_t)rel_ns : (uint64_t)rel_ns;

	if (!r->line)
		return;
	snprintf(buf, sizeof(buf), "%c%llu.%06llu %s", rel_ns < 0 ? '-' : '+',
		 (unsigned long long)(mag / 1000000000u),
		 (unsigned long long)(mag % 1000000000u / 1000u), text);
	r->line(r->ctx, buf);
}

static int64_t relative(const struct render *r, unsigned long long ts)
{
	if (r->by_trace_ts)
		return (int64_t)(ts - (unsigned long long)r->origin);
	return (int64_t)ts + r->offset_ns - r->origin;
}

/* The kernel's loss mark of the page just loaded, shown before its first record. */
static void note_missed(struct render *r, struct stream *s)
{
	int missed = kbuffer_missed_events(s->kbuf);

	if (!missed)
		return;
	if (missed < 0 || r->st->missed < 0)
		r->st->missed = -1;
	else
		r->st->missed += missed;
	if (missed < 0 || s->pending_missed < 0)
		s->pending_missed = -1;
	else
		s->pending_missed += missed;
}

static void show_missed(struct render *r, struct stream *s, unsigned long long ts)
{
	char text[96];

	if (!s->pending_missed)
		return;
	if (s->pending_missed > 0)
		snprintf(text, sizeof(text), "cpu%d [the kernel lost %lld records here]", s->cpu,
			 s->pending_missed);
	else
		snprintf(text, sizeof(text), "cpu%d [the kernel lost records here]", s->cpu);
	s->pending_missed = 0;
	emit(r, relative(r, ts), text);
}

/* Loads pages from s->cur on until one has a record. */
static void load_from(struct render *r, struct stream *s)
{
	for (s->ev = NULL; s->cur < s->npages; s->cur++) {
		memcpy(s->page, s->pages + s->cur * r->page_size, r->page_size);
		if (fdr_page_data_size(r->tep, s->page, r->page_size) < 0 ||
		    kbuffer_load_subbuffer(s->kbuf, s->page) < 0) {
			r->st->bad_pages++;
			continue;
		}
		s->ev = kbuffer_read_event(s->kbuf, &s->ts);
		note_missed(r, s);
		if (s->ev)
			return;
	}
}

static void advance(struct render *r, struct stream *s)
{
	s->ev = kbuffer_next_event(s->kbuf, &s->ts);
	if (!s->ev) {
		s->cur++;
		load_from(r, s);
	}
}

static struct stream *earliest(struct render *r)
{
	struct stream *best = NULL;

	for (unsigned i = 0; i < r->nstreams; i++)
		if (r->streams[i].ev && (!best || r->streams[i].ts < best->ts))
			best = &r->streams[i];
	return best;
}

/* The record must lie inside the data its sub-buffer's header declares. */
static bool record_in_page(const struct render *r, const struct stream *s, int size)
{
	const uint8_t *page = s->page;
	const uint8_t *data = s->ev;
	int used = fdr_page_data_size(r->tep, page, r->page_size);

	if (size <= 0 || used < 0 || data < page + r->header_size)
		return false;
	return (size_t)(data - page) + (size_t)size <= r->header_size + (size_t)used;
}

static void print_record(struct render *r, struct stream *s)
{
	int size = kbuffer_event_size(s->kbuf);
	struct tep_record rec = { .ts = s->ts, .cpu = s->cpu };
	struct trace_seq seq;
	char text[80];

	if (!record_in_page(r, s, size)) {
		r->st->bad_pages++;
		return;
	}
	r->st->records++;
	if (!r->line)
		return;
	/* Clear what a longer previous record left, then copy this one in. */
	if (r->scratch_used > (size_t)size)
		memset(r->scratch + size, 0, r->scratch_used - (size_t)size);
	memcpy(r->scratch, s->ev, (size_t)size);
	r->scratch_used = (size_t)size;
	rec.data = r->scratch;
	rec.size = size;
	if (!tep_find_event(r->tep, tep_data_type(r->tep, &rec))) {
		r->st->unknown_events++;
		snprintf(text, sizeof(text), "cpu%d event id %d (format not in the snapshot)",
			 s->cpu, tep_data_type(r->tep, &rec));
		emit(r, relative(r, s->ts), text);
		return;
	}
	trace_seq_init(&seq);
	trace_seq_printf(&seq, "cpu%d ", s->cpu);
	tep_print_event(r->tep, &seq, &rec, "%s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	emit(r, relative(r, s->ts), seq.buffer);
	trace_seq_destroy(&seq);
}

/* Picks the time base: the trigger's own trace timestamp when comparable, else wall time. */
static void set_origin(struct render *r, const struct fdr_trigger *trig)
{
	char clock[32] = "";

	if (r->meta)
		fdr_meta_get(r->meta, "clock", clock, sizeof(clock));
	r->offset_ns = meta_int64(r->meta, "offset_ns");
	r->by_trace_ts = trig && trig->trace_ts && !strcmp(clock, "boot");
	if (r->by_trace_ts)
		r->origin = (int64_t)trig->trace_ts;
	else if (trig && trig->wall_ns)
		r->origin = trig->wall_ns;
	else
		r->origin = meta_int64(r->meta, "captured_ns");
}

static void walk(struct render *r, const struct fdr_trigger *trig)
{
	const char *label = trig && trig->label ? trig->label : "snapshot taken";
	bool trigger_shown = false;
	struct stream *s;

	for (unsigned i = 0; i < r->nstreams; i++)
		load_from(r, &r->streams[i]);
	while ((s = earliest(r))) {
		if (!trigger_shown && relative(r, s->ts) > 0) {
			emit(r, 0, label);
			trigger_shown = true;
		}
		show_missed(r, s, s->ts);
		print_record(r, s);
		s->last_ts = s->ts;
		advance(r, s);
	}
	/* A loss mark on a CPU's last, empty sub-buffer. */
	for (unsigned i = 0; i < r->nstreams; i++)
		show_missed(r, &r->streams[i], r->streams[i].last_ts);
	if (!trigger_shown)
		emit(r, 0, label);
}

static void count_cpus(struct render *r)
{
	for (unsigned i = 0; i < r->nstreams; i++) {
		bool seen = false;

		for (unsigned j = 0; j < i; j++)
			seen |= r->streams[j].cpu == r->streams[i].cpu;
		r->st->cpus += !seen;
	}
}

int fdr_render(const uint8_t *raw, size_t len, const struct fdr_trigger *trig,
	       fdr_line_fn line, void *ctx, struct fdr_render_stats *st)
{
	struct fdr_render_stats local;
	struct fdr_section meta = { 0 };
	struct render r = { .line = line, .ctx = ctx, .st = st ? st : &local };
	int ret;

	memset(r.st, 0, sizeof(*r.st));
	if (fdr_blob_check(raw, len) < 0)
		return -EINVAL;
	r.tep = tep_alloc();
	r.scratch = calloc(1, SCRATCH_SIZE);
	ret = r.tep && r.scratch ? load_sections(&r, raw, len, &meta) : -ENOMEM;
	if (ret == 0) {
		count_cpus(&r);
		set_origin(&r, trig);
		walk(&r, trig);
	}
	for (unsigned i = 0; i < r.nstreams; i++) {
		if (r.streams[i].kbuf)
			kbuffer_free(r.streams[i].kbuf);
		free(r.streams[i].page);
	}
	free(r.streams);
	free(r.scratch);
	tep_free(r.tep);
	return ret;
}

int fdr_render_snapshot(const struct ras_snapshot *s, fdr_line_fn line, void *ctx,
			struct fdr_render_stats *st)
{
	struct fdr_trigger trig = { .trace_ts = s->trigger_trace_ts, .wall_ns = s->trigger_wall_ns };
	char label[512];
	uint8_t *raw;
	int ret;

	if (s->raw_size > FDR_BLOB_MAX_RAW)
		return -EINVAL;
	ret = fdr_blob_decompress(s->data, s->data_len, (size_t)s->raw_size, &raw);
	if (ret < 0)
		return ret;
	if (s->trigger_table[0])
		snprintf(label, sizeof(label), "======== trigger: %s #%lld (%s)", s->trigger_table,
			 (long long)s->trigger_row_id, s->reason);
	else
		snprintf(label, sizeof(label), "======== snapshot taken (%s)", s->reason);
	trig.label = label;
	ret = fdr_render(raw, (size_t)s->raw_size, &trig, line, ctx, st);
	free(raw);
	return ret;
}
