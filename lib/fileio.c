/* SPDX-License-Identifier: MIT */
/*
 * Whole-file reads and writes of small pseudo-files (tracefs, sysfs, debugfs,
 * /proc), and directory streams over an fd.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fileio.h"

int ras_read_file(const char *path, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	b = malloc(cap + 1);
	for (;;) {
		ssize_t r;

		if (!b) {
			close(fd);
			return -ENOMEM;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			free(b);
			close(fd);
			return e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == cap) {
			char *nb = realloc(b, cap * 2 + 1);

			if (!nb)
				free(b);
			b = nb;
			cap *= 2;
		}
	}
	close(fd);
	b[n] = 0;
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

/* Replaces the number on the format's "ID:" line so shipped events never clash. */

int ras_write_file(const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	/* sysfs and debugfs handlers may report their error only at close. */
	if (close(fd) && !err)
		err = -errno;
	return err;
}

DIR *ras_opendir_fd(int fd)
{
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d;
	int e;

	if (copy < 0)
		return NULL;
	if ((d = fdopendir(copy)))
		return d;
	e = errno;
	close(copy);
	errno = e;
	return NULL;
}
