/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fake_tree.h"
#include "lib/synthetic.h"

#define PAGE_HDR 16
#define MISSING_EVENTS (1ULL << 31)
#define MISSING_STORED (1ULL << 30)

static int copy_file(const char *from, const char *to)
{
	char *buf;
	size_t len;
	FILE *f;
	int r = ras_read_file(from, &buf, &len);

	if (r < 0)
		return r;
	f = fopen(to, "we");
	if (!f) {
		free(buf);
		return -errno;
	}
	fwrite(buf, 1, len, f);
	fclose(f);
	free(buf);
	return 0;
}

static int mkdirs(const char *path)
{
	char tmp[1024];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		mkdir(tmp, 0755);
		*p = '/';
	}
	return mkdir(tmp, 0755) == 0 || errno == EEXIST ? 0 : -errno;
}

/* Copies every <system>/<event>/format below formats_dir into events/, and a header_page. */
static int copy_formats(struct fake_tree *t, const char *formats_dir, const char *header_page)
{
	char cmd_from[1024], to[1024];
	int r;

	snprintf(to, sizeof(to), "%s/events", t->root);
	mkdirs(to);
	snprintf(cmd_from, sizeof(cmd_from), "%s", header_page);
	snprintf(to, sizeof(to), "%s/events/header_page", t->root);
	if ((r = copy_file(cmd_from, to)) < 0)
		return r;
	for (unsigned i = 0; i < ras_n_event_types + 1; i++) {
		const char *sys = i < ras_n_event_types ? ras_event_types[i].system : "ftrace";
		const char *ev = i < ras_n_event_types ? ras_event_types[i].event : "raw_data";

		snprintf(cmd_from, sizeof(cmd_from), "%s/%s/%s/format", formats_dir, sys, ev);
		if (access(cmd_from, R_OK) != 0)
			continue;
		snprintf(to, sizeof(to), "%s/events/%s/%s", t->root, sys, ev);
		mkdirs(to);
		strcat(to, "/format");
		if ((r = copy_file(cmd_from, to)) < 0)
			return r;
	}
	return 0;
}

static int write_text(const char *dir, const char *file, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fputs(text, f);
	fclose(f);
	return 0;
}

static int open_cpus(struct fake_tree *t)
{
	char path[1024];

	for (unsigned c = 0; c < t->ncpus; c++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u", t->instance, c);
		mkdirs(path);
		write_text(path, "stats", "entries: 0\noverrun: 0\ndropped events: 0\n");
		strcat(path, "/trace_pipe_raw");
		t->cpu[c].raw = fopen(path, "we");
		if (!t->cpu[c].raw)
			return -errno;
	}
	return 0;
}

int fake_tree_create(struct fake_tree *t, const char *formats_dir, unsigned ncpus,
		     const char *instance, const char *clock)
{
	char hp[1024];

	snprintf(hp, sizeof(hp), "%s/header_page", formats_dir);
	return fake_tree_create_hp(t, formats_dir, hp, ncpus, instance, clock);
}

static int tree_fill(struct fake_tree *t, const char *formats_dir, const char *header_page,
		     const char *instance, const char *clock)
{
	char line[64];
	int r;

	snprintf(t->instance, sizeof(t->instance), "%s/instances/%s", t->root, instance);
	if ((r = mkdirs(t->instance)) < 0 || (r = copy_formats(t, formats_dir, header_page)) < 0)
		return r;
	snprintf(line, sizeof(line), "local [%s] mono\n", clock);
	write_text(t->instance, "trace_clock", line);
	if ((r = ras_formats_load(&t->fmt, t->root, t->instance, NULL)) < 0)
		return r;
	t->page_size = t->fmt->page_size;
	if (t->page_size > sizeof(t->cpu[0].page))
		return -EFBIG;
	return open_cpus(t);
}

int fake_tree_create_hp(struct fake_tree *t, const char *formats_dir, const char *header_page,
			unsigned ncpus, const char *instance, const char *clock)
{
	char tmpl[] = "/tmp/ras-fdr-tree-XXXXXX";
	int r;

	memset(t, 0, sizeof(*t));
	if (ncpus > FAKE_MAX_CPUS || !mkdtemp(tmpl))
		return -EINVAL;
	snprintf(t->root, sizeof(t->root), "%s", tmpl);
	t->ncpus = ncpus;
	/* A tree that cannot be made is not left behind in /tmp (a test refusing it goes on). */
	if ((r = tree_fill(t, formats_dir, header_page, instance, clock)) < 0)
		fake_tree_destroy(t);
	return r;
}

int fake_tree_instance(struct fake_tree *t, const char *name, const char *clock)
{
	char line[64];
	int r;

	fake_tree_finish(t);
	memset(t->cpu, 0, sizeof(t->cpu));
	snprintf(t->instance, sizeof(t->instance), "%s/instances/%s", t->root, name);
	if ((r = mkdirs(t->instance)) < 0)
		return r;
	snprintf(line, sizeof(line), "local [%s] mono\n", clock);
	write_text(t->instance, "trace_clock", line);
	return open_cpus(t);
}

int fake_record(struct fake_tree *t, const char *name, char **assign, int n, uint8_t *out, size_t cap)
{
	const struct ras_event_type *type = ras_event_type_find(name);
	struct tep_event *ev = NULL;
	char err[256];
	int r;

	if (type)
		ev = t->fmt->type[type - ras_event_types].event;
	else if (!strcmp(name, "ftrace:raw_data"))
		ev = t->fmt->raw_data;
	if (!ev)
		return -ENOENT;
	r = ras_synth_record(ev, assign, n, out, cap, err, sizeof(err));
	if (r < 0)
		fprintf(stderr, "fake_record %s: %s\n", name, err);
	return r;
}

static void flush_page(struct fake_tree *t, struct fake_cpu *c)
{
	uint64_t commit = c->used;

	if (!c->used && !c->missed)
		return;
	if (c->missed) {
		commit |= MISSING_EVENTS;
		if (c->missed > 0 && c->used + 8 <= t->page_size - PAGE_HDR) {
			int64_t n = c->missed;

			memcpy(c->page + PAGE_HDR + c->used, &n, 8);
			commit |= MISSING_STORED;
		}
	}
	memcpy(c->page, &c->page_ts, 8);
	memcpy(c->page + 8, &commit, 8);
	fwrite(c->page, 1, t->page_size, c->raw);
	memset(c->page, 0, sizeof(c->page));
	c->used = 0;
	c->missed = 0;
	c->pages++;
}

int fake_add(struct fake_tree *t, unsigned cpu, uint64_t ts, const uint8_t *rec, uint32_t len)
{
	struct fake_cpu *c = &t->cpu[cpu];
	uint32_t padded = (len + 3) & ~3u, hdr, need;
	bool small = padded <= 28 * 4;

	need = padded + (small ? 4 : 8) + 8;   /* and room for a time extend */
	/* Keep 8 bytes free for a stored missed-events count. */
	if (c->used + need + 8 > t->page_size - PAGE_HDR)
		flush_page(t, c);
	if (!c->used)
		c->page_ts = c->last_ts = ts;
	if (ts < c->last_ts)
		return -ERANGE;
	if (ts - c->last_ts >= (1u << 27)) {
		/* A gap too long for the 27-bit delta: a time-extend entry (type_len 30) first. */
		uint64_t delta = ts - c->last_ts;
		uint32_t ext[2] = { 30u | (uint32_t)((delta & ((1u << 27) - 1)) << 5),
				    (uint32_t)(delta >> 27) };

		if (delta >> 59)
			return -ERANGE;
		memcpy(c->page + PAGE_HDR + c->used, ext, 8);
		c->used += 8;
		c->last_ts = ts;
	}
	hdr = (small ? padded / 4 : 0) | (uint32_t)((ts - c->last_ts) << 5);
	memcpy(c->page + PAGE_HDR + c->used, &hdr, 4);
	c->used += 4;
	if (!small) {
		uint32_t l = padded + 4;

		memcpy(c->page + PAGE_HDR + c->used, &l, 4);
		c->used += 4;
	}
	memcpy(c->page + PAGE_HDR + c->used, rec, len);
	c->used += padded;
	c->last_ts = ts;
	return 0;
}

void fake_mark_missed(struct fake_tree *t, unsigned cpu, long long count)
{
	flush_page(t, &t->cpu[cpu]);
	t->cpu[cpu].missed = count;
}

int fake_tree_finish(struct fake_tree *t)
{
	for (unsigned c = 0; c < t->ncpus; c++) {
		if (!t->cpu[c].raw)
			continue;
		flush_page(t, &t->cpu[c]);
		fclose(t->cpu[c].raw);
		t->cpu[c].raw = NULL;
	}
	return 0;
}

void fake_tree_destroy(struct fake_tree *t)
{
	char *argv[] = { "rm", "-rf", t->root, NULL };
	pid_t pid;

	fake_tree_finish(t);
	ras_formats_free(t->fmt);
	t->fmt = NULL;
	if (!t->root[0] || strncmp(t->root, "/tmp/ras-fdr-tree-", 18))
		return;
	pid = fork();
	if (pid == 0) {
		execvp("rm", argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}
