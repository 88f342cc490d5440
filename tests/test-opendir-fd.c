/* SPDX-License-Identifier: MIT */
/*
 * lib/fileio.h ras_opendir_fd: the stream's fd is a close-on-exec copy, the
 * caller's fd stays open, and a failure leaves no fd behind. The
 * fdopendir(dup(fd)) it replaces leaked the copy on failure (check 8 fails
 * with it); glibc's fdopendir sets FD_CLOEXEC itself, so check 3 holds either way.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/fileio.h"
#include "tap.h"

/* The process's open fds, counted in /proc/self/fd (less the one reading it). */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

static int count_entries(DIR *d)
{
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	return n;
}

int main(void)
{
	char dir[] = "/tmp/test-opendir-fd.XXXXXX", path[64];
	int fd, file, before;
	DIR *d;

	if (!mkdtemp(dir))
		return 99;
	snprintf(path, sizeof(path), "%s/one", dir);
	file = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	close(file);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	before = open_fds();

	d = ras_opendir_fd(fd);
	tap_ok(d != NULL, "a stream over a directory's fd");
	tap_ok(d && dirfd(d) != fd, "over a copy, not the caller's fd");
	tap_ok(d && (fcntl(dirfd(d), F_GETFD) & FD_CLOEXEC), "the copy is close-on-exec");
	tap_is_int(d ? count_entries(d) : -1, 1, "it reads the directory");
	if (d)
		closedir(d);
	tap_ok(fcntl(fd, F_GETFD) >= 0, "the caller's fd stays open after closedir");
	tap_is_int(open_fds(), before, "no fd left behind");

	/* A file's fd: fdopendir refuses it (ENOTDIR) after the copy was made. */
	file = open(path, O_RDONLY | O_CLOEXEC);
	before = open_fds();
	errno = 0;
	d = ras_opendir_fd(file);
	tap_ok(!d && errno == ENOTDIR, "a file's fd refused with ENOTDIR (errno %d)", errno);
	tap_is_int(open_fds(), before, "the refused copy closed");
	errno = 0;
	tap_ok(!ras_opendir_fd(-1) && errno == EBADF, "a bad fd refused with EBADF");

	close(file);
	close(fd);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
