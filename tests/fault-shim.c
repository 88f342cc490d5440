/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD shim for storage fault tests: makes chosen writes or syncs of
 * chosen files fail with a chosen errno, switched on and off while the process
 * runs. RAS_FAULT_CTL names a control file; each write/sync reads it. Its
 * one line "OP SUFFIX ERRNO [AFTER]" (OP: pwrite, write or fsync; fsync covers
 * fdatasync) fails that call on files whose path ends with SUFFIX; an empty
 * or missing file means no fault. With AFTER, the fault starts only once the
 * process has read() from a file whose path ends with AFTER (a point in its
 * work a test cannot time from outside). Test code only, never installed.
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

static int armed;   /* the AFTER file was read */

struct fault {
	char op[16], suffix[128], after[128];
	int err;
};

/* The control file's line; 0 when there is none. */
static int read_ctl(struct fault *f)
{
	const char *ctl = getenv("RAS_FAULT_CTL");
	char line[512];
	ssize_t n;
	int cfd;

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
	f->after[0] = 0;
	return sscanf(line, "%15s %127s %d %127s", f->op, f->suffix, &f->err, f->after) >= 3;
}

static int fd_path_ends(int fd, const char *suffix)
{
	char link[64], path[4096];
	size_t sl = strlen(suffix);
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = 0;
	return (size_t)n >= sl && !strcmp(path + n - sl, suffix);
}

static int injected(const char *op, int fd)
{
	struct fault f;

	if (!read_ctl(&f) || strcmp(f.op, op) || (f.after[0] && !armed))
		return 0;
	return fd_path_ends(fd, f.suffix) ? f.err : 0;
}

ssize_t read(int fd, void *b, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);
	struct fault f;

	if (!armed && read_ctl(&f) && f.after[0] && fd_path_ends(fd, f.after))
		armed = 1;
	if (!real)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	return real(fd, b, n);
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
