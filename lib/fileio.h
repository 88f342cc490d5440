/* SPDX-License-Identifier: MIT */
/*
 * Whole-file reads and writes of small pseudo-files (tracefs, sysfs, debugfs,
 * /proc), and directory streams over an fd.
 */
#ifndef RAS_FILEIO_H
#define RAS_FILEIO_H

#include <dirent.h>
#include <stddef.h>

/* Reads a whole small file into a NUL-terminated malloc'd buffer; 0 or -errno. */
int ras_read_file(const char *path, char **buf, size_t *len);
/*
 * Writes value in one write(2) (pseudo-files act on each write), without
 * O_CREAT or O_TRUNC; 0 or -errno, including an error reported at close.
 */
int ras_write_file(const char *path, const char *value);
/*
 * A directory stream over a copy of fd, close-on-exec from the moment it is
 * made (glibc's fdopendir sets the flag too, but only after a dup(2) has left
 * it open to a fork on another thread). fd stays the caller's. NULL and errno
 * when it cannot be made; the copy is closed then (fdopendir does not).
 */
DIR *ras_opendir_fd(int fd);

#endif
