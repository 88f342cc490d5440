/* SPDX-License-Identifier: MIT */
/*
 * One rule for every file rasd or ras-fdr-ctl runs, opens or writes as root
 * (OpenSSH's safe_path()): the file and every directory above it, up to /,
 * belong to root or to us and no one else can write them (group-writable
 * only when the group is root's), and neither the file nor its directory is
 * a symbolic link. A directory another user can write lets that user plant a
 * link or a file of their own under a name rasd is about to use; a directory
 * above it that another user owns or can write lets that user put another
 * directory in its place. Directories above the last one may have the sticky
 * bit instead (as /tmp has): nobody but its owner can rename or remove the
 * root-owned directory below, which the rule checks in turn. A link above
 * the last directory is followed only when it is root's (or ours) in a
 * directory that passed, so that only root can have made it (/var/run ->
 * /run, merged /usr); where it points is walked by the same rule.
 *
 * Paths are walked one component at a time from / with O_PATH|O_NOFOLLOW and
 * each directory is checked through its descriptor, so what is checked is
 * what is used: files are then opened, created, run and renamed relative to
 * the directory's descriptor, never by their path again. Temporary files get
 * a name no one can guess and are created O_EXCL|O_NOFOLLOW, then renamed.
 * Every descriptor is O_CLOEXEC.
 */
#ifndef RAS_SAFE_PATH_H
#define RAS_SAFE_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The mode of every file rasd creates, whatever the umask. */
#define RAS_FILE_MODE 0640

/*
 * Directories above the last one may belong to another user or be writable
 * by others; then no component may be a link at all. For a file that root only
 * writes, in a directory of its own that sits in another user's (Debian's
 * /var/lib/prometheus/node-exporter): that user can at most take the
 * directory away or put one of their own in its place, which is refused.
 */
#define RAS_SAFE_OTHERS_ABOVE 0x1u

/*
 * Opens dir (an absolute path, or relative to the working directory) by the
 * rule: an O_PATH descriptor of the directory, to use with the *at() calls.
 * -ENOENT when a component does not exist; -ELOOP for a symbolic link,
 * -ENOTDIR, -EPERM for an owner or mode the rule refuses; why says which
 * component and why in each case.
 */
int ras_safe_dir_open(const char *dir, unsigned flags, char *why, size_t whylen);
/* 0 when dir passes the rule (as ras_safe_dir_open, strictly); -errno with why set otherwise. */
int ras_dir_is_safe(const char *dir, char *why, size_t whylen);
/* As ras_dir_is_safe, for the directory that holds path. */
int ras_parent_is_safe(const char *path, char *why, size_t whylen);
/*
 * Whether st, a file's, passes the rule: a regular file owned by root or by us
 * that no one else can write. 0, or -EPERM with why naming path.
 */
int ras_safe_file_check(const struct stat *st, const char *path, char *why, size_t whylen);
/*
 * Opens dirfd/name (dir names dirfd in messages) with O_NOFOLLOW|O_CLOEXEC
 * plus flags (O_PATH to run it, O_RDONLY to read it) and checks it by the
 * rule. The descriptor, -ENOENT when there is none, -ELOOP for a link,
 * -EPERM otherwise, why set.
 */
int ras_safe_file_openat(int dirfd, const char *dir, const char *name, int flags, char *why,
			 size_t whylen);
/*
 * execve(path) of the file exe (an O_PATH descriptor from
 * ras_safe_file_openat) if path still names exe's file (same inode, not a
 * link); returns only on failure (-errno, -ESTALE for another file). Run by
 * its path, not by descriptor (fexecve), so that a script's $0 is its path;
 * every directory on a path that passed the rule is root's (or ours) and
 * writable by no one else, so no one else can change what path names after
 * the comparison (OpenSSH's argument for safe_path()).
 */
int ras_safe_execve(int exe, const char *path, char *const argv[], char *const env[]);
/*
 * Opens path with O_NOFOLLOW | O_CLOEXEC (plus flags); a file it creates gets
 * RAS_FILE_MODE exactly. An existing file must be a regular file owned by
 * root or by us that no one else can write. Returns the fd or -errno (-ELOOP
 * for a symbolic link, -EPERM for the rest). ras_open_safe_at: relative to
 * dirfd.
 */
int ras_open_safe(const char *path, int flags);
int ras_open_safe_at(int dirfd, const char *name, int flags);
/*
 * A new file in dirfd for name's contents: ".NAME.XXXXXXXXXXXX", the X's
 * random, created O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC with mode exactly (the
 * umask aside). The descriptor (write-only), its name in tmp, or -errno.
 */
int ras_safe_tmp_create(int dirfd, const char *name, mode_t mode, char *tmp, size_t tmplen);
/* fsync of the directory dirfd (an O_PATH descriptor will do): 0 or -errno. */
int ras_safe_sync_dir(int dirfd);
/*
 * Writes text to dir/name through a temporary file (ras_safe_tmp_create) and
 * renameat(), in dir checked by the rule; never through a link.
 */
int ras_write_file_safe(const char *dir, const char *name, const char *text);
/*
 * Splits path into its directory and its last component (dir "." for a bare
 * name); -EINVAL when there is no last component, -ENAMETOOLONG.
 */
int ras_path_split(const char *path, char *dir, size_t dirlen, char *base, size_t baselen);
/*
 * Whether name, text from a record (a CXL memdev, a PCI device), can be one
 * component of a path: not empty, not "." or "..", no '/', no control
 * character, at most NAME_MAX bytes.
 */
bool ras_path_component_ok(const char *name);

#endif
