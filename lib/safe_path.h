/* SPDX-License-Identifier: MIT */
/*
 * Files root writes into directories it does not fully control: the
 * database, its -wal/-shm, the lock and the state file. A directory that
 * another user can write into lets that user plant a symbolic link or a
 * file of their own under a name rasd is about to use, so such directories
 * are refused, and the files are opened without following a final link.
 */
#ifndef RAS_SAFE_PATH_H
#define RAS_SAFE_PATH_H

#include <stddef.h>
#include <sys/types.h>

/* The mode of every file rasd creates, whatever the umask. */
#define RAS_FILE_MODE 0640

/*
 * 0 when dir is a directory owned by root or by us and writable by nobody
 * else (group-writable only when the group is root's); -EPERM with why set
 * otherwise, or -errno when it cannot be examined. A sticky bit (as on /tmp)
 * does not make it safe: another user may have created the file first.
 */
int ras_dir_is_safe(const char *dir, char *why, size_t whylen);
/* As ras_dir_is_safe, for the directory that holds path. */
int ras_parent_is_safe(const char *path, char *why, size_t whylen);
/*
 * Opens path with O_NOFOLLOW | O_CLOEXEC (plus flags); a file it creates gets
 * RAS_FILE_MODE exactly. An existing file must be a regular file owned by
 * root or by us. Returns the fd or -errno (-ELOOP for a symbolic link).
 */
int ras_open_safe(const char *path, int flags);
/* Writes text to dir/name through a temporary file and rename(), never following a link. */
int ras_write_file_safe(const char *dir, const char *name, const char *text);

#endif
