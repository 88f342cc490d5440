/* SPDX-License-Identifier: MIT */
/* Small file-tree helpers shared by the flight-recorder tests. Header-only. */
#ifndef RAS_FDR_TESTUTIL_H
#define RAS_FDR_TESTUTIL_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The kernel's header_page on 64-bit x86 (6.18), as tracefs prints it. */
static const char test_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

/* Creates every directory of path's parent, then path's file with text (NULL: a directory). */
static inline int test_put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	if (!text)
		return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -errno;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0) {
		close(fd);
		return -errno;
	}
	close(fd);
	return 0;
}

static inline int test_rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	remove(path);
	return 0;
}

static inline void test_rm_rf(const char *root)
{
	if (root && *root)
		nftw(root, test_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
