/* SPDX-License-Identifier: MIT */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* O_PATH: the fuzz targets build without config.h */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "safe_path.h"

static bool ours(const struct stat *st)
{
	return st->st_uid == 0 || st->st_uid == geteuid();
}

static bool others_can_write(const struct stat *st)
{
	return (st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && st->st_gid != 0);
}

/*
 * One directory of the walk. The last one is where names are created and
 * looked up: only root or we may write it, sticky or not (another user may
 * have made the name first). One above it needs only that nobody else can
 * replace what is below: not writable by others, or sticky.
 */
static int check_dir(const struct stat *st, const char *dir, bool last, unsigned flags,
		     char *why, size_t whylen)
{
	if (!last && (flags & RAS_SAFE_OTHERS_ABOVE))
		return 0;
	if (!ours(st)) {
		snprintf(why, whylen, "directory %s belongs to another user (uid %u)", dir,
			 (unsigned)st->st_uid);
		return -EPERM;
	}
	if (others_can_write(st) && (last || !(st->st_mode & S_ISVTX))) {
		snprintf(why, whylen, "directory %s is writable by other users (mode %04o); "
			 "use a directory only root can write", dir, (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* dir as an absolute path (the working directory before a relative one). */
static int absolute(const char *dir, char *out, size_t len)
{
	char cwd[PATH_MAX];

	if (dir[0] == '/')
		return snprintf(out, len, "%s", dir) < (int)len ? 0 : -ENAMETOOLONG;
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	return snprintf(out, len, "%s/%s", cwd, dir) < (int)len ? 0 : -ENAMETOOLONG;
}

/* Where a walk is: the directory reached (fd, its physical path) and what is left to walk. */
struct walk {
	int fd;
	char at[PATH_MAX];        /* "" for / */
	char todo[PATH_MAX];      /* components left, '/'-separated */
	unsigned links;
	unsigned flags;
	char *why;
	size_t whylen;
};

/* Takes the next component ("." skipped) off todo into comp; false when none is left. */
static bool next_component(struct walk *w, char *comp, size_t len)
{
	char *p = w->todo;
	size_t n;

	for (;;) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n != 1 || p[0] != '.')
			break;
		p += n;
	}
	if (!n) {
		w->todo[0] = '\0';
		return false;
	}
	/* Longer than a name can be: "" makes the step fail rather than open a shorter name. */
	snprintf(comp, len, "%.*s", n < len ? (int)n : 0, p);
	memmove(w->todo, p + n, strlen(p + n) + 1);
	return true;
}

static bool more_components(const struct walk *w)
{
	for (const char *p = w->todo; *p; p += strcspn(p, "/")) {
		while (*p == '/')
			p++;
		if (*p && (p[0] != '.' || (p[1] && p[1] != '/')))
			return true;
	}
	return false;
}

/*
 * A link above the last directory: followed when it belongs to root or us
 * in a directory that passed (only root or we can have made it, as
 * /var/run -> /run), where it points walked by the same rule.
 */
static int follow(struct walk *w, const char *comp, const struct stat *st, const char *path)
{
	char target[PATH_MAX], rest[PATH_MAX];
	ssize_t n;

	if (!ours(st)) {
		snprintf(w->why, w->whylen, "%s is a symbolic link of another user (uid %u)", path,
			 (unsigned)st->st_uid);
		return -EPERM;
	}
	n = readlinkat(w->fd, comp, target, sizeof(target) - 1);
	if (n <= 0 || ++w->links > 16) {
		snprintf(w->why, w->whylen, "%s: %s", path, n <= 0 ? strerror(errno) :
			 "too many symbolic links");
		return n <= 0 ? -errno : -ELOOP;
	}
	target[n] = '\0';
	snprintf(rest, sizeof(rest), "%s", w->todo);
	if (snprintf(w->todo, sizeof(w->todo), "%s/%s", target, rest) >= (int)sizeof(w->todo))
		return -ENAMETOOLONG;
	if (target[0] == '/') {
		int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

		if (root < 0)
			return -errno;
		close(w->fd);
		w->fd = root;
		w->at[0] = '\0';
	}
	return 0;
}

/* One step: comp opened from w->fd without following it, checked, made the current directory. */
static int step(struct walk *w, const char *comp)
{
	char path[PATH_MAX + NAME_MAX + 2];
	bool last = !more_components(w);
	struct stat st;
	int next, r;

	if (!comp[0]) {
		snprintf(w->why, w->whylen, "%s/...: %s", w->at, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	if (!strcmp(comp, "..")) {
		char *slash = strrchr(w->at, '/');

		snprintf(path, sizeof(path), "%s", w->at[0] ? w->at : "/");
		if (slash)
			*slash = '\0';
		next = openat(w->fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	} else {
		snprintf(path, sizeof(path), "%s/%s", w->at, comp);
		next = openat(w->fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	}
	if (next < 0 || fstat(next, &st) != 0) {
		r = -errno;
		snprintf(w->why, w->whylen, "%s: %s", path, strerror(-r));
		if (next >= 0)
			close(next);
		return r;
	}
	/* Not where directories above may be another user's: they could swap in a link of root's. */
	if (S_ISLNK(st.st_mode) && !last && !(w->flags & RAS_SAFE_OTHERS_ABOVE)) {
		close(next);
		return follow(w, comp, &st, path);
	}
	if (!S_ISDIR(st.st_mode)) {
		close(next);
		snprintf(w->why, w->whylen, "%s is %s", path, S_ISLNK(st.st_mode) ?
			 "a symbolic link; name the directory it points to" : "not a directory");
		return S_ISLNK(st.st_mode) ? -ELOOP : -ENOTDIR;
	}
	close(w->fd);
	w->fd = next;
	if (strcmp(comp, ".."))
		snprintf(w->at + strlen(w->at), sizeof(w->at) - strlen(w->at), "/%s", comp);
	return check_dir(&st, w->at[0] ? w->at : "/", last, w->flags, w->why, w->whylen);
}

int ras_safe_dir_open(const char *dir, unsigned flags, char *why, size_t whylen)
{
	struct walk w = { .flags = flags, .why = why, .whylen = whylen };
	char comp[NAME_MAX + 1];
	struct stat st;
	int r;

	if ((r = absolute(dir, w.todo, sizeof(w.todo))) < 0) {
		snprintf(why, whylen, "%s: %s", dir, strerror(-r));
		return r;
	}
	w.fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w.fd < 0 || fstat(w.fd, &st) != 0) {
		r = -errno;
		snprintf(why, whylen, "/: %s", strerror(-r));
		if (w.fd >= 0)
			close(w.fd);
		return r;
	}
	r = check_dir(&st, "/", !more_components(&w), flags, why, whylen);
	while (r == 0 && next_component(&w, comp, sizeof(comp)))
		r = step(&w, comp);
	if (r < 0) {
		close(w.fd);
		return r;
	}
	return w.fd;
}

int ras_dir_is_safe(const char *dir, char *why, size_t whylen)
{
	int fd = ras_safe_dir_open(dir, 0, why, whylen);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int ras_path_split(const char *path, char *dir, size_t dirlen, char *base, size_t baselen)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash) {
		snprintf(dir, dirlen, ".");
		return snprintf(base, baselen, "%s", path) < (int)baselen && path[0] ? 0 : -EINVAL;
	}
	if (!slash[1] || !strcmp(slash + 1, ".") || !strcmp(slash + 1, ".."))
		return -EINVAL;
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= dirlen || strlen(slash + 1) >= baselen)
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	snprintf(base, baselen, "%s", slash + 1);
	return 0;
}

int ras_parent_is_safe(const char *path, char *why, size_t whylen)
{
	char dir[PATH_MAX], base[NAME_MAX + 1];
	int r = ras_path_split(path, dir, sizeof(dir), base, sizeof(base));

	if (r < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(-r));
		return r;
	}
	return ras_dir_is_safe(dir, why, whylen);
}

int ras_safe_file_check(const struct stat *st, const char *path, char *why, size_t whylen)
{
	if (!S_ISREG(st->st_mode))
		snprintf(why, whylen, "%s is not a regular file", path);
	else if (!ours(st))
		snprintf(why, whylen, "%s belongs to another user (uid %u)", path, (unsigned)st->st_uid);
	else if (others_can_write(st))
		snprintf(why, whylen, "%s is writable by other users (mode %04o)", path,
			 (unsigned)(st->st_mode & 07777));
	else
		return 0;
	return -EPERM;
}

int ras_safe_file_openat(int dirfd, const char *dir, const char *name, int flags, char *why,
			 size_t whylen)
{
	char path[PATH_MAX + NAME_MAX + 2];
	struct stat st;
	int fd, r;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!ras_path_component_ok(name)) {
		snprintf(why, whylen, "%s: not a plain file name", path);
		return -EINVAL;
	}
	fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		r = -errno;
		snprintf(why, whylen, r == -ELOOP ? "%s is a symbolic link" : "%s: %s", path,
			 strerror(-r));
		return r;
	}
	/* O_PATH|O_NOFOLLOW opens a link itself rather than failing. */
	if (fstat(fd, &st) != 0 || S_ISLNK(st.st_mode)) {
		r = S_ISLNK(st.st_mode) ? -ELOOP : -errno;
		snprintf(why, whylen, r == -ELOOP ? "%s is a symbolic link" : "%s: %s", path,
			 strerror(-r));
		close(fd);
		return r;
	}
	if ((r = ras_safe_file_check(&st, path, why, whylen)) < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int ras_safe_execve(int exe, const char *path, char *const argv[], char *const env[])
{
	struct stat checked, now;

	if (fstat(exe, &checked) != 0 || lstat(path, &now) != 0)
		return -errno;
	if (!S_ISREG(now.st_mode) || now.st_dev != checked.st_dev || now.st_ino != checked.st_ino)
		return -ESTALE;
	execve(path, argv, env);
	return -errno;
}

int ras_open_safe_at(int dirfd, const char *name, int flags)
{
	struct stat st;
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, RAS_FILE_MODE);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !ours(&st) || others_can_write(&st)) {
		close(fd);
		return -EPERM;
	}
	/* Created just now (empty, ours): the umask does not decide its mode. */
	if (st.st_size == 0 && st.st_uid == geteuid() && (st.st_mode & 07777) != RAS_FILE_MODE &&
	    (flags & O_CREAT))
		fchmod(fd, RAS_FILE_MODE);
	return fd;
}

int ras_open_safe(const char *path, int flags)
{
	return ras_open_safe_at(AT_FDCWD, path, flags);
}

static uint64_t random_bits(void)
{
	uint64_t v;
	struct timespec ts;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	/* No entropy yet (early boot): O_EXCL still refuses a planted name. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ts.tv_sec ^
	       (uint64_t)getpid() << 32;
}

int ras_safe_tmp_create(int dirfd, const char *name, mode_t mode, char *tmp, size_t tmplen)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

	for (int tries = 0; tries < 16; tries++) {
		uint64_t bits = random_bits();
		char rnd[13];
		int fd;

		for (int i = 0; i < 12; i++, bits /= 62)
			rnd[i] = digits[bits % 62];
		rnd[12] = '\0';
		if (snprintf(tmp, tmplen, ".%s.%s", name, rnd) >= (int)tmplen || strlen(tmp) > NAME_MAX)
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
			    mode & 0600);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return -errno;
		/* The umask does not decide: readers such as node_exporter may need 0644. */
		if (fchmod(fd, mode) != 0) {
			int e = errno;

			close(fd);
			unlinkat(dirfd, tmp, 0);
			return -e;
		}
		return fd;
	}
	return -EEXIST;
}

int ras_safe_sync_dir(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) != 0)
		r = -errno;
	close(fd);
	return r;
}

int ras_write_file_safe(const char *dir, const char *name, const char *text)
{
	char tmp[NAME_MAX + 1], why[PATH_MAX + 200];
	size_t len = strlen(text);
	int dirfd = ras_safe_dir_open(dir, 0, why, sizeof(why));
	int fd, r = 0;

	if (dirfd < 0)
		return dirfd;
	fd = ras_safe_tmp_create(dirfd, name, RAS_FILE_MODE, tmp, sizeof(tmp));
	if (fd < 0) {
		close(dirfd);
		return fd;
	}
	if (write(fd, text, len) != (ssize_t)len)
		r = errno ? -errno : -EIO;
	close(fd);
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) != 0)
		r = -errno;
	if (r < 0)
		unlinkat(dirfd, tmp, 0);
	close(dirfd);
	return r;
}

bool ras_path_component_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (size_t i = 0; i < n; i++)
		if (name[i] == '/' || (unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return false;
	return true;
}
