/* SPDX-License-Identifier: MIT */
/* The flight-recorder instance: setting it up, rate limiting, and capturing it. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "snapshot.h"
#include "clock.h"
#include "fileio.h"
#include "fdr.h"
#include "fdr_blob.h"
#include "fdr_render.h"
#include "formats.h"
#include "tracing.h"

/* A CPU's drain stops here even if the kernel keeps producing: twice the buffer. */
#define DRAIN_FACTOR 2
#define DRAIN_FALLBACK_PAGES 1024

struct fdr {
	char tracing_dir[PATH_MAX];
	char instance_dir[PATH_MAX];
	char name[64];
	bool attached;        /* fdr_attach: never changed nor removed */
	struct fdr_rate rate;
	struct tep_handle *tep;   /* header_page only: sub-buffer geometry */
	unsigned page_size;
	char *header_page;
	size_t header_page_len;
	char warnings[2048];
};

void fdr_rate_init(struct fdr_rate *r, enum ras_severity threshold, unsigned interval_s)
{
	memset(r, 0, sizeof(*r));
	r->threshold = threshold;
	r->interval_ns = (int64_t)interval_s * 1000000000;
}

bool fdr_rate_allow(struct fdr_rate *r, enum ras_severity sev, int64_t now_ns)
{
	if (sev < r->threshold || sev == RAS_SEV_UNKNOWN)
		return false;
	/* A clock step backwards must not block captures for the length of the step. */
	if (r->taken && now_ns >= r->last_ns && now_ns - r->last_ns < r->interval_ns)
		return false;
	r->taken = true;
	r->last_ns = now_ns;
	return true;
}

bool fdr_should_capture(struct fdr *f, enum ras_severity sev, int64_t now_ns)
{
	return f && fdr_rate_allow(&f->rate, sev, now_ns);
}

static void warn(struct fdr *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct fdr *f, const char *fmt, ...)
{
	size_t used = strlen(f->warnings);
	va_list ap;

	if (used + 2 >= sizeof(f->warnings))
		return;
	va_start(ap, fmt);
	vsnprintf(f->warnings + used, sizeof(f->warnings) - used - 1, fmt, ap);
	va_end(ap);
	used = strlen(f->warnings);
	f->warnings[used] = '\n';
	f->warnings[used + 1] = 0;
}

const char *fdr_warnings(const struct fdr *f)
{
	return f->warnings;
}

const char *fdr_instance_dir(const struct fdr *f)
{
	return f->instance_dir;
}

static int write_instance(struct fdr *f, const char *rel, const char *value)
{
	char path[PATH_MAX + 128];

	snprintf(path, sizeof(path), "%s/%s", f->instance_dir, rel);
	return ras_write_file(path, value);
}

static int read_instance(struct fdr *f, const char *rel, char **buf)
{
	char path[PATH_MAX + 128];

	snprintf(path, sizeof(path), "%s/%s", f->instance_dir, rel);
	return ras_read_file(path, buf, NULL);
}

/* The sub-buffer geometry comes from the top-level header_page (see the notes, E.2). */
static int load_header_page(struct fdr *f, char *err, size_t errlen)
{
	unsigned page_size;
	int r;

	f->tep = tep_alloc();
	if (!f->tep)
		return -ENOMEM;
	r = ras_tracing_header_page(f->tep, f->tracing_dir, NULL, &f->header_page,
				    &f->header_page_len, &page_size);
	if (r < 0) {
		snprintf(err, errlen, "cannot read %s/events/header_page: %s", f->tracing_dir,
			 strerror(-r));
		return r;
	}
	f->page_size = page_size;
	return 0;
}

static int fdr_new(struct fdr **out, const char *tracing_dir, const char *name,
		   char *err, size_t errlen)
{
	struct fdr *f = calloc(1, sizeof(*f));
	int r;

	if (!f)
		return -ENOMEM;
	snprintf(f->tracing_dir, sizeof(f->tracing_dir), "%s", tracing_dir);
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->instance_dir, sizeof(f->instance_dir), "%s/instances/%s", tracing_dir, name);
	r = load_header_page(f, err, errlen);
	if (r < 0) {
		fdr_close(f, false);
		return r;
	}
	*out = f;
	return 0;
}

static bool is_dir(DIR *parent, const struct dirent *e)
{
	struct stat st;

	if (e->d_type != DT_UNKNOWN)
		return e->d_type == DT_DIR;
	return fstatat(dirfd(parent), e->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

/* Enables every event whose system and name match the two globs; returns how many. */
static int enable_matching(struct fdr *f, const char *sys_glob, const char *ev_glob)
{
	char dir[PATH_MAX + 64], rel[PATH_MAX];
	struct dirent *sd, *ed;
	DIR *sys_dir, *ev_dir;
	int matched = 0;

	snprintf(dir, sizeof(dir), "%s/events", f->instance_dir);
	sys_dir = opendir(dir);
	if (!sys_dir)
		return -errno;
	while ((sd = readdir(sys_dir))) {
		if (sd->d_name[0] == '.' || fnmatch(sys_glob, sd->d_name, 0))
			continue;
		snprintf(dir, sizeof(dir), "%s/events/%s", f->instance_dir, sd->d_name);
		ev_dir = opendir(dir);
		if (!ev_dir)
			continue;   /* header_page and friends are files */
		while ((ed = readdir(ev_dir))) {
			if (ed->d_name[0] == '.' || fnmatch(ev_glob, ed->d_name, 0) || !is_dir(ev_dir, ed))
				continue;
			/* "0" clears a filter an earlier configuration left on a reused instance. */
			snprintf(rel, sizeof(rel), "events/%s/%s/filter", sd->d_name, ed->d_name);
			write_instance(f, rel, "0");
			snprintf(rel, sizeof(rel), "events/%s/%s/enable", sd->d_name, ed->d_name);
			if (write_instance(f, rel, "1") == 0)
				matched++;
			else
				warn(f, "fdr_events: cannot enable %s:%s", sd->d_name, ed->d_name);
		}
		closedir(ev_dir);
	}
	closedir(sys_dir);
	return matched;
}

static void enable_events(struct fdr *f, const char *list)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		char *colon = strchr(tok, ':');
		int n;

		/* A bare name is an event name in any system. */
		if (colon)
			*colon = 0;
		n = enable_matching(f, colon ? tok : "*", colon ? colon + 1 : tok);
		if (colon)
			*colon = ':';
		if (n == 0)
			warn(f, "fdr_events: no event of this kernel matches '%s'", tok);
		else if (n < 0)
			warn(f, "fdr_events: cannot list %s/events: %s", f->instance_dir, strerror(-n));
	}
}

/* "system:event:FILTER;..." — the filter text itself may contain ':' but not ';'. */
static void apply_filters(struct fdr *f, const char *list)
{
	char buf[1024], *save = NULL, rel[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *item = strtok_r(buf, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
		char *sys = item, *ev, *filter;
		int r;

		while (isspace((unsigned char)*sys))
			sys++;
		if (!*sys)
			continue;
		ev = strchr(sys, ':');
		filter = ev ? strchr(ev + 1, ':') : NULL;
		/* The names become a path: no '/', no leading '.'. */
		if (!filter || memchr(sys, '/', (size_t)(filter - sys)) || *sys == '.' || ev[1] == '.') {
			warn(f, "fdr_filters: '%s' is not system:event:filter", sys);
			continue;
		}
		*ev++ = 0;
		*filter++ = 0;
		snprintf(rel, sizeof(rel), "events/%s/%s/filter", sys, ev);
		r = write_instance(f, rel, filter);
		if (r < 0)
			warn(f, "fdr_filters: the kernel refused '%s' for %s:%s: %s", filter, sys, ev,
			     strerror(-r));
	}
}

/* Overwrite mode: a recorder keeps the most recent history, not the first. */
static int configure(struct fdr *f, const struct rasd_config *cfg, char *err, size_t errlen)
{
	static const struct { const char *file; const char *value; } steps[] = {
		{ "tracing_on", "0" },
		{ "events/enable", "0" },
		{ "options/overwrite", "1" },
	};
	char size[32], *clock = NULL;
	int r;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		r = write_instance(f, steps[i].file, steps[i].value);
		if (r < 0) {
			snprintf(err, errlen, "cannot write %s/%s: %s", f->instance_dir, steps[i].file,
				 strerror(-r));
			return r;
		}
	}
	/* The "boot" clock makes recorder and rasd timestamps directly comparable. */
	if (read_instance(f, "trace_clock", &clock) == 0 && !strstr(clock, "[boot]") &&
	    write_instance(f, "trace_clock", "boot") < 0)
		warn(f, "cannot set the trace clock of %s to boot", f->instance_dir);
	free(clock);
	snprintf(size, sizeof(size), "%u", cfg->fdr_buffer_size_kb);
	r = write_instance(f, "buffer_size_kb", size);
	if (r < 0) {
		snprintf(err, errlen, "cannot set %s/buffer_size_kb to %s: %s", f->instance_dir, size,
			 strerror(-r));
		return r;
	}
	enable_events(f, cfg->fdr_events);
	apply_filters(f, cfg->fdr_filters);
	r = write_instance(f, "tracing_on", "1");
	if (r < 0)
		snprintf(err, errlen, "cannot turn on %s: %s", f->instance_dir, strerror(-r));
	return r;
}

int fdr_open(struct fdr **out, const char *tracing_dir, const struct rasd_config *cfg,
	     char *err, size_t errlen)
{
	enum ras_severity threshold;
	struct fdr *f;
	int r;

	if (ras_severity_parse(cfg->fdr_severity, &threshold) < 0) {
		snprintf(err, errlen, "unknown fdr_severity '%s'", cfg->fdr_severity);
		return -EINVAL;
	}
	/* Setting the recorder up resets events and modes: never on another instance of ours. */
	if (!strcmp(cfg->fdr_instance, cfg->instance) || !strcmp(cfg->fdr_instance, cfg->boot_instance) ||
	    !strcmp(cfg->fdr_instance, cfg->persistent_instance)) {
		snprintf(err, errlen, "fdr_instance '%s' must differ from instance, boot_instance and "
			 "persistent_instance", cfg->fdr_instance);
		return -EINVAL;
	}
	r = fdr_new(&f, tracing_dir, cfg->fdr_instance, err, errlen);
	if (r < 0)
		return r;
	fdr_rate_init(&f->rate, threshold, cfg->fdr_min_interval_s);
	/* An instance left by an earlier rasd is taken back and set up again. */
	if (mkdir(f->instance_dir, 0755) < 0 && errno != EEXIST) {
		r = -errno;
		snprintf(err, errlen, "cannot create tracing instance %s: %s", f->instance_dir,
			 strerror(errno));
		fdr_close(f, false);
		return r;
	}
	r = configure(f, cfg, err, errlen);
	if (r < 0) {
		fdr_close(f, true);
		return r;
	}
	*out = f;
	return 0;
}

int fdr_attach(struct fdr **out, const char *tracing_dir, const char *name,
	       char *err, size_t errlen)
{
	struct fdr *f;
	int r = fdr_new(&f, tracing_dir, name, err, errlen);

	if (r < 0)
		return r;
	f->attached = true;
	fdr_rate_init(&f->rate, RAS_SEV_FATAL, 0);
	if (access(f->instance_dir, F_OK) != 0) {
		r = -errno;
		snprintf(err, errlen, "no flight-recorder instance %s: %s", f->instance_dir,
			 strerror(errno));
		fdr_close(f, false);
		return r;
	}
	*out = f;
	return 0;
}

void fdr_close(struct fdr *f, bool remove)
{
	if (!f)
		return;
	if (remove && !f->attached) {
		write_instance(f, "tracing_on", "0");
		write_instance(f, "events/enable", "0");
		rmdir(f->instance_dir);
	}
	tep_free(f->tep);
	free(f->header_page);
	free(f);
}

/* Metadata the renderer needs besides header_page and formats. */
static void add_meta(struct fdr *f, struct fdr_blob *b, int64_t captured_ns)
{
	struct ras_tracing clock = { 0 };
	struct utsname un;
	char meta[1024];

	snprintf(clock.instance_dir, sizeof(clock.instance_dir), "%s", f->instance_dir);
	ras_tracing_read_clock(&clock);
	if (uname(&un) < 0)
		snprintf(un.release, sizeof(un.release), "unknown");
	snprintf(meta, sizeof(meta),
		 "version=1\ninstance=%s\nclock=%s\noffset_ns=%lld\ncaptured_ns=%lld\n"
		 "long_size=%zu\nbig_endian=%d\npage_size=%u\nkernel=%s\n",
		 f->name, clock.clock_name, (long long)clock.offset_ns, (long long)captured_ns,
		 sizeof(long), __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, f->page_size, un.release);
	fdr_blob_add(b, FDR_SEC_META, 0, meta, strlen(meta));
}

static void add_format(struct fdr *f, struct fdr_blob *b, const char *sys, const char *ev)
{
	char rel[PATH_MAX], *fmt;
	uint8_t *p;
	size_t syslen = strlen(sys) + 1, len;

	if (strchr(sys, '/') || strchr(ev, '/'))
		return;
	snprintf(rel, sizeof(rel), "events/%s/%s/format", sys, ev);
	if (read_instance(f, rel, &fmt) < 0)
		return;
	len = strlen(fmt);
	fdr_blob_begin(b, FDR_SEC_FORMAT, 0);
	p = fdr_blob_reserve(b, syslen + len);
	if (p) {
		memcpy(p, sys, syslen);
		memcpy(p + syslen, fmt, len);
		fdr_blob_commit(b, syslen + len);
	}
	fdr_blob_end(b, 0);
	free(fmt);
}

/* set_event lists every enabled event of the instance as system:event. */
static void add_formats(struct fdr *f, struct fdr_blob *b)
{
	char *list, *save = NULL;

	if (read_instance(f, "set_event", &list) < 0)
		return;
	for (char *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = 0;
		add_format(f, b, line, colon + 1);
	}
	free(list);
}

static unsigned drain_limit(struct fdr *f)
{
	char *buf;
	unsigned long kb = 0;

	/* "64", or "X" when CPUs differ, or "7 (expanded: 1410)" before first use. */
	if (read_instance(f, "buffer_size_kb", &buf) == 0) {
		kb = strtoul(buf, NULL, 10);
		free(buf);
	}
	if (!kb || kb > 16UL * 1024 * 1024)
		return DRAIN_FALLBACK_PAGES;
	return (unsigned)(kb * 1024 / f->page_size + 1) * DRAIN_FACTOR;
}

/* Reads one CPU's whole sub-buffers into a PAGES section; empty ones are dropped. */
static int drain_cpu(struct fdr *f, struct fdr_blob *b, int cpu, unsigned limit)
{
	char rel[64];
	char path[PATH_MAX + 64];
	unsigned pages = 0;
	int fd, ret = 0;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	snprintf(path, sizeof(path), "%s/%s", f->instance_dir, rel);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fdr_blob_begin(b, FDR_SEC_PAGES, (uint32_t)cpu);
	while (pages < limit) {
		uint8_t *page = fdr_blob_reserve(b, f->page_size);
		ssize_t got;

		if (!page) {
			ret = b->err;
			break;
		}
		got = read(fd, page, f->page_size);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			ret = got < 0 && errno != EAGAIN ? -errno : 0;
			break;
		}
		/* A partial sub-buffer declares its size in its header; zero the rest. */
		memset(page + got, 0, f->page_size - (size_t)got);
		if (fdr_page_data_size(f->tep, page, f->page_size) > 0) {
			fdr_blob_commit(b, f->page_size);
			pages++;
		}
	}
	fdr_blob_end(b, 1);
	close(fd);
	return ret;
}

struct drain {
	struct fdr *f;
	struct fdr_blob *b;
	unsigned limit;
};

static int drain_one(void *ctx, int cpu)
{
	struct drain *d = ctx;
	int r = drain_cpu(d->f, d->b, cpu, d->limit);

	return r == -ENOENT ? 0 : r;
}

static int drain_all(struct fdr *f, struct fdr_blob *b)
{
	struct drain d = { f, b, drain_limit(f) };
	int r = ras_tracing_for_each_cpu(f->instance_dir, drain_one, &d);

	if (r < 0)
		return r;
	return r > 0 ? 0 : -ENOENT;
}

static int pack(struct fdr *f, struct ras_snapshot *s, const struct fdr_blob *b)
{
	struct fdr_render_stats st;
	uint8_t *z;
	size_t zlen;
	int r;

	/* Counting walks the container exactly as 'snapshot show' will. */
	r = fdr_render(b->data, b->len, NULL, NULL, NULL, &st);
	if (r < 0)
		return r;
	r = fdr_blob_compress(b, &z, &zlen);
	if (r < 0)
		return r;
	snprintf(s->instance, sizeof(s->instance), "%s", f->name);
	s->data = z;
	s->data_len = zlen;
	s->raw_size = b->len;
	s->record_count = st.records;
	s->missed = st.missed;
	s->ncpus = st.cpus;
	return 0;
}

int fdr_capture(struct fdr *f, const char *reason, const char *trigger_table,
		int64_t trigger_row_id, int64_t trigger_wall_ns, uint64_t trigger_trace_ts,
		struct ras_snapshot *s)
{
	struct fdr_blob b;
	int64_t now = ras_clock_ns(CLOCK_REALTIME);
	int r;

	if (!f || !s)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->wall_ns = now;
	snprintf(s->reason, sizeof(s->reason), "%s", reason ? reason : "");
	snprintf(s->trigger_table, sizeof(s->trigger_table), "%s", trigger_table ? trigger_table : "");
	s->trigger_row_id = trigger_row_id;
	s->trigger_wall_ns = trigger_wall_ns ? trigger_wall_ns : now;
	s->trigger_trace_ts = trigger_trace_ts;
	fdr_blob_init(&b);
	add_meta(f, &b, now);
	fdr_blob_add(&b, FDR_SEC_HEADER_PAGE, 0, f->header_page, f->header_page_len);
	add_formats(f, &b);
	r = b.err ? b.err : drain_all(f, &b);
	if (r == 0)
		r = b.err ? b.err : pack(f, s, &b);
	fdr_blob_free(&b);
	return r;
}
