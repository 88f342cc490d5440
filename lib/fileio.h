/* SPDX-License-Identifier: MIT */
/* Whole-file reads and writes of small pseudo-files (tracefs, sysfs, debugfs, /proc). */
#ifndef RAS_FILEIO_H
#define RAS_FILEIO_H

#include <stddef.h>

/* Reads a whole small file into a NUL-terminated malloc'd buffer; 0 or -errno. */
int ras_read_file(const char *path, char **buf, size_t *len);
/*
 * Writes value in one write(2) (pseudo-files act on each write), without
 * O_CREAT or O_TRUNC; 0 or -errno, including an error reported at close.
 */
int ras_write_file(const char *path, const char *value);

#endif
