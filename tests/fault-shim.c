/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD shim for storage fault tests: makes chosen writes or syncs of
 * chosen files fail with a chosen errno, switched on and off while the process
 * runs. RAS_FAULT_CTL names a control file; each write/sync reads it. Its
 * one line "OP SUFFIX ERRNO" (OP: pwrite, write or fsync; fsync covers
 * fdatasync) fails that call on files whose path ends with SUFFIX; an empty
 * or missing file means no fault. Test code only, never installed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int injected(const char *op, int fd)
{
	const char *ctl = getenv("RAS_FAULT_CTL");
	char line[256], want_op[16], suffix[128], link[64], path[4096];
	ssize_t n;
	int cfd, e;
	size_t pl, sl;

	if (!ctl)
		return 0;
	cfd = (int)syscall(SYS_openat, AT_FDCWD, ctl, O_RDONLY | O_CLOEXEC);
	if (cfd < 0)
		return 0;
	n = syscall(SYS_read, cfd, line, sizeof(line) - 1);
	syscall(SYS_close, cfd);
	if (n <= 0)
		return 0;
	line[n] = 0;
	if (sscanf(line, "%15s %127s %d", want_op, suffix, &e) != 3 || strcmp(want_op, op))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = 0;
	pl = (size_t)n;
	sl = strlen(suffix);
	if (pl < sl || strcmp(path + pl - sl, suffix))
		return 0;
	return e;
}

#define PASS(name, ret, params, args, op, fd)                              \
	ret name params                                                    \
	{                                                                  \
		static ret (*real) params;                                 \
		int e = injected(op, fd);                                  \
		if (e) {                                                   \
			errno = e;                                         \
			return -1;                                         \
		}                                                          \
		if (!real)                                                 \
			real = (ret (*) params)dlsym(RTLD_NEXT, #name);    \
		return real args;                                          \
	}

PASS(pwrite64, ssize_t, (int fd, const void *b, size_t n, off_t o), (fd, b, n, o), "pwrite", fd)
PASS(pwrite, ssize_t, (int fd, const void *b, size_t n, off_t o), (fd, b, n, o), "pwrite", fd)
PASS(write, ssize_t, (int fd, const void *b, size_t n), (fd, b, n), "write", fd)
PASS(fsync, int, (int fd), (fd), "fsync", fd)
PASS(fdatasync, int, (int fd), (fd), "fsync", fd)
