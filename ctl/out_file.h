/* SPDX-License-Identifier: MIT */
/*
 * An output file that appears whole or not at all (report -o FILE). A report
 * is evidence sent to a vendor: a truncated one that looks whole is a wrong
 * answer, and a failed run must not destroy the good file already there.
 * Not for export: it has no -o, and it appends to its standard output run
 * after run, its cursor recording how far each got (ctl/export.c), which a
 * file replaced whole would undo. metrics -o writes through lib/metrics.c,
 * which rasd shares (written aside, fsynced, renamed in a checked directory).
 *
 * When FILE is a regular file or does not exist, the output is written aside
 * in FILE's directory: an unnamed O_TMPFILE, else (a file system or kernel
 * without it, no /proc) a new ".FILE.XXXXXXXXXXXX" created
 * O_EXCL|O_NOFOLLOW. Only when every write, the fsync and the close have
 * succeeded is it given a name and renamed over FILE; on any failure it is
 * removed and FILE is as it was (absent, or the previous file). The rename
 * replaces FILE's directory entry: nothing is ever written through a link or
 * into another user's file. The new file gets the mode a new file got before
 * (MODE less the umask), or, replacing a file of ours, that file's mode and
 * group.
 *
 * Everything else is written straight, as before: standard output (path
 * NULL), a character device (/dev/null, /dev/full: renamed over, the device
 * would be replaced), a FIFO, and a symbolic link, which O_NOFOLLOW refuses
 * (ELOOP) as it always did.
 */
#ifndef RAS_CTL_OUT_FILE_H
#define RAS_CTL_OUT_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct ctl_out {
	FILE *f;                      /* write here */
	int dirfd;                    /* FILE's directory; -1 when written straight */
	bool unnamed;                 /* O_TMPFILE: named only once it is whole */
	char name[NAME_MAX + 1];      /* FILE's last component */
	char tmp[NAME_MAX + 1];       /* the temporary's name; "" while it has none */
};

/* Opens the output for path (NULL: standard output). 0, or -errno (o->f NULL). */
int ctl_out_open(struct ctl_out *o, const char *path, mode_t mode);
/*
 * Ends the output. r < 0 (the writer failed): the temporary is removed, FILE
 * left as it was, r returned. Otherwise flush, fsync, close, rename: 0, or the
 * first error with the temporary removed. o->f is closed in every case.
 */
int ctl_out_close(struct ctl_out *o, int r);

#endif
