/* SPDX-License-Identifier: MIT */
/*
 * An output file that appears whole or not at all: written aside in its
 * directory, synced, then renamed over the name asked for (out_file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "out_file.h"
#include "lib/safe_path.h"

/* Written straight, as before: standard output, a device, a FIFO; a link refused (ELOOP). */
static int straight_open(struct ctl_out *o, const char *path, mode_t mode)
{
	int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode) : dup(1);
	int r;

	if (fd < 0)
		return -errno;
	if (!(o->f = fdopen(fd, "w"))) {
		r = -errno;
		close(fd);
		return r;
	}
	return 0;
}

/* ".NAME.XXXXXXXXXXXX" (NAME cut to fit NAME_MAX), the X's random: a name no one else can plan for. */
static void random_name(struct ctl_out *o)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char rnd[13];
	uint64_t bits;
	struct timespec ts;

	if (getrandom(&bits, sizeof(bits), GRND_NONBLOCK) != (ssize_t)sizeof(bits)) {
		/* No entropy yet: O_EXCL and linkat's EEXIST still refuse a name taken. */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		bits = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ts.tv_sec ^ (uint64_t)getpid() << 32;
	}
	for (int i = 0; i < 12; i++, bits /= 62)
		rnd[i] = digits[bits % 62];
	rnd[12] = '\0';
	snprintf(o->tmp, sizeof(o->tmp), ".%.*s.%s", NAME_MAX - 14, o->name, rnd);
}

/*
 * An unnamed file in the directory, given a name only once it is whole
 * (linkat of /proc/self/fd/N): a run killed midway leaves nothing. -errno
 * when the file system or kernel has no O_TMPFILE, or /proc is not there.
 */
static int open_unnamed(struct ctl_out *o, mode_t mode)
{
	char proc[32];
	int fd = openat(o->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode), r;

	if (fd < 0)
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (faccessat(AT_FDCWD, proc, F_OK, 0) != 0) {
		r = -errno;
		close(fd);
		return r;
	}
	o->unnamed = true;
	return fd;
}

/* A new named file, O_EXCL|O_NOFOLLOW: never one planted under the name, never through a link. */
static int open_named(struct ctl_out *o, mode_t mode)
{
	for (int tries = 0; tries < 16; tries++) {
		int fd;

		random_name(o);
		fd = openat(o->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
			    mode);
		if (fd >= 0)
			return fd;
		o->tmp[0] = '\0';     /* not ours: never removed */
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/*
 * Replacing a file of ours: the new one keeps its mode and group, as writing
 * into it did. When the group cannot be kept, the group gets nothing (the
 * bits were meant for the other group).
 */
static int keep_mode(int fd, const struct stat *old)
{
	struct stat now;
	mode_t mode = old->st_mode & 0777;

	if (fstat(fd, &now) != 0)
		return -errno;
	if (now.st_gid != old->st_gid && fchown(fd, (uid_t)-1, old->st_gid) != 0)
		mode &= ~(mode_t)070;
	return fchmod(fd, mode) == 0 ? 0 : -errno;
}

/* The temporary beside FILE (o->dirfd and o->name set); old: FILE's stat, or NULL. */
static int aside_open(struct ctl_out *o, const struct stat *old, mode_t mode)
{
	int fd = open_unnamed(o, mode), r = 0;

	if (fd < 0)
		fd = open_named(o, mode);
	if (fd < 0)
		return fd;
	if (old && old->st_uid == geteuid())
		r = keep_mode(fd, old);
	if (r == 0 && !(o->f = fdopen(fd, "w")))
		r = -errno;
	if (r < 0) {
		close(fd);
		if (o->tmp[0])
			unlinkat(o->dirfd, o->tmp, 0);
	}
	return r;
}

int ctl_out_open(struct ctl_out *o, const char *path, mode_t mode)
{
	char dir[PATH_MAX];
	struct stat st;
	bool old;
	int r;

	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	/* No last component to rename over ("dir/", "..", too long): open says why, as before. */
	if (!path || ras_path_split(path, dir, sizeof(dir), o->name, sizeof(o->name)) < 0 ||
	    !strcmp(o->name, ".") || !strcmp(o->name, ".."))
		return straight_open(o, path, mode);
	/* The directory followed as open() follows it; FILE itself never is. */
	if ((o->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	old = fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (!old && errno != ENOENT) {
		r = -errno;
	} else if (old && !S_ISREG(st.st_mode)) {
		close(o->dirfd);
		o->dirfd = -1;
		return straight_open(o, path, mode);
	} else if ((r = aside_open(o, old ? &st : NULL, mode)) == 0) {
		return 0;
	}
	close(o->dirfd);
	o->dirfd = -1;
	return r;
}

/* The unnamed file gets the temporary name (then renamed over FILE). */
static int link_unnamed(struct ctl_out *o)
{
	char proc[32];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fileno(o->f));
	for (int tries = 0; tries < 16; tries++) {
		random_name(o);
		if (linkat(AT_FDCWD, proc, o->dirfd, o->tmp, AT_SYMLINK_FOLLOW) == 0)
			return 0;
		o->tmp[0] = '\0';     /* not ours: never removed */
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Everything on the disk before FILE names it: a report is kept evidence. */
static int settle(struct ctl_out *o)
{
	if (fflush(o->f) != 0)
		return errno ? -errno : -EIO;
	if (fsync(fileno(o->f)) != 0)
		return -errno;
	return o->unnamed ? link_unnamed(o) : 0;
}

int ctl_out_close(struct ctl_out *o, int r)
{
	if (!o->f)
		return r;
	if (o->dirfd >= 0 && r == 0)
		r = settle(o);
	errno = 0;
	if (fclose(o->f) != 0 && r == 0)
		r = errno ? -errno : -EIO;
	o->f = NULL;
	if (o->dirfd < 0)
		return r;
	if (r == 0 && renameat(o->dirfd, o->tmp, o->dirfd, o->name) != 0)
		r = -errno;
	if (r < 0 && o->tmp[0])
		unlinkat(o->dirfd, o->tmp, 0);
	/* FILE is whole and in place now: a directory that cannot be synced cannot undo that. */
	if (r == 0)
		(void)ras_safe_sync_dir(o->dirfd);
	close(o->dirfd);
	o->dirfd = -1;
	return r;
}
