/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <event-parse.h>
#include <tracefs.h>
#include <unistd.h>
#include "formats.h"
#include "tracing.h"
#include "clock.h"
#include "fileio.h"
#include "safe_path.h"

#define TRACEFS_MAGIC_NR 0x74726163
#define DEBUGFS_MAGIC_NR 0x64626720

static bool has_events(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events", dir);
	return access(path, F_OK) == 0;
}

int ras_tracing_find(const char *dir, char *out, size_t outlen, char *err, size_t errlen)
{
	static const char sys[] = "/sys/kernel/tracing", dbg[] = "/sys/kernel/debug/tracing";

	if (dir && *dir) {
		if (!has_events(dir)) {
			snprintf(err, errlen, "%s is not a tracing directory (no events/)", dir);
			return -ENOENT;
		}
		snprintf(out, outlen, "%s", dir);
		return 0;
	}
	if (!has_events(sys) && access(sys, F_OK) == 0)
		mount("nodev", sys, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	if (has_events(sys)) {
		snprintf(out, outlen, "%s", sys);
		return 0;
	}
	if (has_events(dbg)) {
		snprintf(out, outlen, "%s", dbg);
		return 0;
	}
	snprintf(err, errlen, "tracefs not found: mount it with 'mount -t tracefs nodev %s'", sys);
	return -ENOENT;
}

static bool is_tracefs(const char *dir)
{
	struct statfs sf;

	if (statfs(dir, &sf) != 0)
		return false;
	return sf.f_type == TRACEFS_MAGIC_NR || sf.f_type == DEBUGFS_MAGIC_NR;
}

int ras_tracing_open(struct ras_tracing *t, const char *tracing_dir, const char *name,
		     char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s", tracing_dir);
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(t->instance_dir, sizeof(t->instance_dir), "%s/instances/%s", tracing_dir, name);
	t->real = is_tracefs(tracing_dir);
	t->clock = CLOCK_BOOTTIME;
	if (tracefs_set_tracing_dir(t->dir) < 0) {
		snprintf(err, errlen, "libtracefs rejected %s", t->dir);
		return -EINVAL;
	}
	if (!t->real) {
		/* A replayed tree: the instance must already be there, nothing is changed. */
		if (access(t->instance_dir, F_OK) != 0) {
			snprintf(err, errlen, "%s: no such instance in the replayed tree", t->instance_dir);
			return -ENOENT;
		}
		return ras_tracing_read_clock(t);
	}
	t->inst = tracefs_instance_create(name);
	if (!t->inst) {
		snprintf(err, errlen, "cannot create tracing instance %s: %s", t->instance_dir,
			 strerror(errno));
		return -errno ? -errno : -EIO;
	}
	t->created = tracefs_instance_is_new(t->inst);
	return ras_tracing_read_clock(t);
}

static int write_file(struct ras_tracing *t, const char *file, const char *value,
		      char *err, size_t errlen)
{
	if (tracefs_instance_file_write(t->inst, file, value) < 0) {
		snprintf(err, errlen, "cannot write '%s' to %s/%s: %s", value, t->instance_dir,
			 file, strerror(errno));
		return -EIO;
	}
	return 0;
}

/*
 * Writing buffer_size_kb makes the kernel refuse new records for some
 * milliseconds, even for the size it has (seen on 6.18: trace_marker_raw
 * writes fail with EBADF, counted nowhere). A taken-back instance usually
 * has the size already; the kernel shows it rounded up to whole sub-buffers.
 */
static bool buffer_size_is(const struct ras_tracing *t, unsigned kb)
{
	char path[PATH_MAX], *buf;
	unsigned long cur;

	snprintf(path, sizeof(path), "%s/buffer_size_kb", t->instance_dir);
	if (ras_read_file(path, &buf, NULL) < 0)
		return false;
	cur = strtoul(buf, NULL, 10);
	free(buf);
	return cur >= kb && cur - kb < kb / 64 + 64;
}

int ras_tracing_configure(struct ras_tracing *t, unsigned buffer_size_kb, char *err, size_t errlen)
{
	char buf[32];
	int r;

	if (!t->real)
		return 0;
	/* Only rewrite the clock when it differs: changing it resets the buffer. */
	if (strcmp(t->clock_name, "boot") != 0) {
		r = write_file(t, "trace_clock", "boot", err, errlen);
		if (r < 0)
			return r;
		ras_tracing_read_clock(t);
	}
	snprintf(buf, sizeof(buf), "%u", buffer_size_kb);
	r = buffer_size_is(t, buffer_size_kb) ? 0 : write_file(t, "buffer_size_kb", buf, err, errlen);
	if (r == 0 && tracefs_option_disable(t->inst, TRACEFS_OPTION_OVERWRITE) < 0) {
		snprintf(err, errlen, "cannot turn off overwrite in %s", t->instance_dir);
		r = -EIO;
	}
	/* Without this the kernel wakes a reader only when the buffer is half full. */
	if (r == 0)
		r = write_file(t, "buffer_percent", "0", err, errlen);
	return r;
}

int ras_tracing_enable(struct ras_tracing *t, const char *system, const char *event)
{
	if (!t->real)
		return 0;
	return tracefs_event_enable(t->inst, system, event) < 0 ? -EIO : 0;
}

int ras_tracing_disable(struct ras_tracing *t, const char *system, const char *event)
{
	if (!t->real)
		return 0;
	return tracefs_event_disable(t->inst, system, event) < 0 ? -EIO : 0;
}

int ras_tracing_set_filter(struct ras_tracing *t, const char *system, const char *event,
			   const char *filter)
{
	if (!t->real)
		return 0;
	/* "0" is the kernel's word for no filter. */
	errno = 0;
	if (tracefs_event_file_write(t->inst, system, event, "filter", *filter ? filter : "0") < 0)
		return -(errno ? errno : EIO);
	return 0;
}

int ras_tracing_filter_is(struct ras_tracing *t, const char *system, const char *event,
			  const char *filter)
{
	char *now;
	size_t n;
	int r;

	if (!t->real)
		return 1;
	now = tracefs_event_file_read(t->inst, system, event, "filter", NULL);
	if (!now)
		return -EIO;
	/* The file reads back the expression and a newline; "none" when there is none. */
	n = strcspn(now, "\n");
	r = *filter ? strlen(filter) == n && !strncmp(now, filter, n) : !strncmp(now, "none", n);
	free(now);
	return r;
}

int ras_tracing_on(struct ras_tracing *t, bool on)
{
	if (!t->real)
		return 0;
	return (on ? tracefs_trace_on(t->inst) : tracefs_trace_off(t->inst)) < 0 ? -EIO : 0;
}

int ras_tracing_event_is_on(struct ras_tracing *t, const char *system, const char *event)
{
	enum tracefs_enable_state st;

	if (!t->real)
		return 1;
	st = tracefs_event_is_enabled(t->inst, system, event);
	return st == TRACEFS_ERROR ? -EIO : st == TRACEFS_ALL_ENABLED;
}

int ras_tracing_is_on(struct ras_tracing *t)
{
	int r;

	if (!t->real)
		return 1;
	r = tracefs_trace_is_on(t->inst);
	return r < 0 ? -EIO : r > 0;
}

int ras_tracing_keep_overwrite_off(struct ras_tracing *t)
{
	if (!t->real || !tracefs_option_is_enabled(t->inst, TRACEFS_OPTION_OVERWRITE))
		return 0;
	return tracefs_option_disable(t->inst, TRACEFS_OPTION_OVERWRITE) < 0 ? -EIO : 1;
}

void ras_tracing_close(struct ras_tracing *t, bool remove)
{
	if (!t->inst)
		return;
	if (remove) {
		tracefs_event_disable(t->inst, NULL, NULL);
		tracefs_instance_destroy(t->inst);
	}
	tracefs_instance_free(t->inst);
	t->inst = NULL;
}

static uint64_t stat_value(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

int ras_tracing_cpu_stats(const char *instance_dir, int cpu, struct ras_cpu_stats *st)
{
	char path[PATH_MAX], *buf;
	int r;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", instance_dir, cpu);
	r = ras_read_file(path, &buf, NULL);
	if (r < 0)
		return r;
	st->entries = stat_value(buf, "entries:");
	st->overrun = stat_value(buf, "\noverrun:");
	st->dropped = stat_value(buf, "dropped events:");
	st->read = stat_value(buf, "read events:");
	free(buf);
	return 0;
}

struct entries_sum {
	const char *instance_dir;
	uint64_t sum;
};

/* Adds one CPU's "entries:" line to the sum; a file unread or without it fails the whole. */
static int add_entries(void *ctx, int cpu)
{
	struct entries_sum *e = ctx;
	char path[PATH_MAX], *buf, *p;
	int r;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", e->instance_dir, cpu);
	r = ras_read_file(path, &buf, NULL);
	if (r < 0)
		return r;
	p = !strncmp(buf, "entries:", 8) ? buf : strstr(buf, "\nentries:");
	if (p)
		e->sum += strtoull(p + (*p == '\n' ? 9 : 8), NULL, 10);
	free(buf);
	return p ? 0 : -EIO;
}

int ras_tracing_instance_entries(const char *instance_dir, uint64_t *entries)
{
	struct entries_sum e = { instance_dir, 0 };
	int r = ras_tracing_for_each_cpu(instance_dir, add_entries, &e);

	if (r < 0)
		return r;
	if (r == 0)
		return -ENOENT;
	*entries = e.sum;
	return 0;
}

int ras_tracing_instance_ident(const char *instance_dir, uint64_t *ident)
{
	struct stat sb;

	if (stat(instance_dir, &sb) < 0)
		return -errno;
	*ident = (uint64_t)sb.st_ino;
	return 0;
}

/*
 * Which userspace clock reads the same time base as each trace clock. Only
 * "boot" is exact and keeps counting through suspend, which is why rasd sets
 * it; the others appear on instances that rasd adopts.
 */
static const struct { const char *name; clockid_t id; bool exact; } clock_map[] = {
	{ "boot", CLOCK_BOOTTIME, true },
	{ "mono", CLOCK_MONOTONIC, true },
	{ "mono_raw", CLOCK_MONOTONIC_RAW, true },
	{ "tai", CLOCK_TAI, true },
	{ "local", CLOCK_MONOTONIC, true },   /* sched_clock: close to monotonic */
	{ "global", CLOCK_MONOTONIC, true },
	{ "perf", CLOCK_MONOTONIC, true },
};

int ras_tracing_read_clock(struct ras_tracing *t)
{
	char path[PATH_MAX], *buf, *open_b, *close_b;

	snprintf(path, sizeof(path), "%s/trace_clock", t->instance_dir);
	snprintf(t->clock_name, sizeof(t->clock_name), "boot");
	if (ras_read_file(path, &buf, NULL) == 0) {
		open_b = strchr(buf, '[');
		close_b = open_b ? strchr(open_b, ']') : NULL;
		if (open_b && close_b)
			snprintf(t->clock_name, sizeof(t->clock_name), "%.*s",
				 (int)(close_b - open_b - 1), open_b + 1);
		free(buf);
	}
	t->clock_exact = false;
	for (size_t i = 0; i < sizeof(clock_map) / sizeof(clock_map[0]); i++) {
		if (!strcmp(clock_map[i].name, t->clock_name)) {
			t->clock = clock_map[i].id;
			t->clock_exact = clock_map[i].exact;
		}
	}
	ras_tracing_sync_clock(t);
	return 0;
}

void ras_tracing_sync_clock(struct ras_tracing *t)
{
	int64_t before = ras_clock_ns(CLOCK_REALTIME);
	int64_t trace = ras_clock_ns(t->clock);
	int64_t after = ras_clock_ns(CLOCK_REALTIME);

	t->offset_ns = before + (after - before) / 2 - trace;
}

int64_t ras_tracing_wall_ns(const struct ras_tracing *t, uint64_t ts)
{
	if (!t->clock_exact)
		return ras_clock_ns(CLOCK_REALTIME);
	return (int64_t)ts + t->offset_ns;
}

int ras_lock_take(const char *lock_dir, const char *instance, int *holder_pid,
		  char *path, size_t pathlen)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char pid[32];
	int fd;

	*holder_pid = 0;
	mkdir(lock_dir, 0755);
	snprintf(path, pathlen, "%s/rasd-%s.lock", lock_dir, instance);
	/* Never through a planted link; 0640 whatever the umask. */
	fd = ras_open_safe(path, O_RDWR | O_CREAT);
	if (fd < 0)
		return fd;
	/* fcntl locks name their holder, which the refusal message reports. */
	if (fcntl(fd, F_SETLK, &fl) < 0) {
		int e = errno;

		if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
			*holder_pid = fl.l_pid;
		close(fd);
		return e == EACCES || e == EAGAIN ? -EBUSY : -e;
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && write(fd, pid, strlen(pid)) < 0)
		return fd;
	return fd;
}

int ras_boot_id(char *out, size_t len)
{
	char *buf;
	int r = ras_read_file("/proc/sys/kernel/random/boot_id", &buf, NULL);

	if (r < 0)
		return r;
	buf[strcspn(buf, "\n")] = 0;
	snprintf(out, len, "%s", buf);
	free(buf);
	return 0;
}

int ras_tracing_attach(struct ras_tracing *t, const char *tracing_dir, const char *name)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s", tracing_dir);
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(t->instance_dir, sizeof(t->instance_dir), "%s/instances/%s", tracing_dir, name);
	t->real = is_tracefs(tracing_dir);
	if (access(t->instance_dir, F_OK) != 0)
		return -ENOENT;
	t->inst = tracefs_instance_alloc(tracing_dir, name);
	if (!t->inst)
		return -ENOMEM;
	return ras_tracing_read_clock(t);
}

int ras_tracing_clear(struct ras_tracing *t)
{
	return t->inst && tracefs_instance_file_clear(t->inst, "trace") == 0 ? 0 : -EIO;
}

int ras_tracing_disable_all(struct ras_tracing *t)
{
	return t->inst && tracefs_event_disable(t->inst, NULL, NULL) == 0 ? 0 : -EIO;
}

int ras_tracing_set_watermark(struct ras_tracing *t, unsigned percent)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", percent);
	return t->inst && tracefs_instance_file_write(t->inst, "buffer_percent", buf) > 0 ? 0 : -EIO;
}

int ras_tracing_set_watermark_zero(struct ras_tracing *t)
{
	return ras_tracing_set_watermark(t, 0);
}

int ras_tracing_header_page(struct tep_handle *tep, const char *tracing_dir,
			    const char *fallback_dir, char **text, size_t *len, unsigned *page_size)
{
	char path[PATH_MAX + 32];
	int r;

	snprintf(path, sizeof(path), "%s/events/header_page", tracing_dir);
	r = ras_read_file(path, text, len);
	if (r < 0 && fallback_dir) {
		snprintf(path, sizeof(path), "%s/header_page", fallback_dir);
		r = ras_read_file(path, text, len);
	}
	if (r < 0)
		return r;
	if (tep_parse_header_page(tep, *text, *len, sizeof(long)) < 0 ||
	    tep_get_sub_buffer_size(tep) < 64) {
		free(*text);
		*text = NULL;
		return -EINVAL;
	}
	*page_size = (unsigned)tep_get_sub_buffer_size(tep);
	return 0;
}

int ras_tracing_for_each_cpu(const char *instance_dir, ras_cpu_fn fn, void *ctx)
{
	char path[PATH_MAX + 32];
	int last = -1, found = 0;

	/* CPU numbers may have gaps (CPUs not present); stop after a long run of none. */
	for (int cpu = 0; cpu < 8192 && cpu <= last + 64; cpu++) {
		int r;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", instance_dir, cpu);
		if (access(path, F_OK) != 0)
			continue;
		last = cpu;
		found++;
		r = fn ? fn(ctx, cpu) : 0;
		if (r < 0)
			return r;
	}
	return found;
}
