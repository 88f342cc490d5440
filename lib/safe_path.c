/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "safe_path.h"

int ras_dir_is_safe(const char *dir, char *why, size_t whylen)
{
	struct stat st;

	if (stat(dir, &st) != 0) {
		snprintf(why, whylen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s is not a directory", dir);
		return -ENOTDIR;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(why, whylen, "directory %s belongs to another user (uid %u)", dir,
			 (unsigned)st.st_uid);
		return -EPERM;
	}
	if ((st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != 0)) {
		snprintf(why, whylen, "directory %s is writable by other users (mode %04o); "
			 "use a directory only root can write", dir, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int ras_parent_is_safe(const char *path, char *why, size_t whylen)
{
	char copy[PATH_MAX];

	if (snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return -ENAMETOOLONG;
	return ras_dir_is_safe(dirname(copy), why, whylen);
}

int ras_open_safe(const char *path, int flags)
{
	struct stat st;
	int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, RAS_FILE_MODE);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (st.st_uid != 0 && st.st_uid != geteuid())) {
		close(fd);
		return -EPERM;
	}
	/* Created just now (empty, ours): the umask does not decide its mode. */
	if (st.st_size == 0 && st.st_uid == geteuid() && (st.st_mode & 07777) != RAS_FILE_MODE &&
	    (flags & O_CREAT))
		fchmod(fd, RAS_FILE_MODE);
	return fd;
}

int ras_write_file_safe(const char *dir, const char *name, const char *text)
{
	char tmp[PATH_MAX], final[PATH_MAX];
	size_t len = strlen(text);
	int fd, r = 0;

	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name);
	snprintf(final, sizeof(final), "%s/%s", dir, name);
	unlink(tmp);
	fd = ras_open_safe(tmp, O_WRONLY | O_CREAT | O_EXCL);
	if (fd < 0)
		return fd;
	if (write(fd, text, len) != (ssize_t)len)
		r = errno ? -errno : -EIO;
	close(fd);
	if (r == 0 && rename(tmp, final) != 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}
