/* SPDX-License-Identifier: MIT */
/*
 * What the QEMU guests' test programs share (built in the guest's runner by
 * gcc alone, so static functions in a header): the frame a page is in, and
 * a result file written whole.
 */
#ifndef RAS_QEMU_GUEST_UTIL_H
#define RAS_QEMU_GUEST_UTIL_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

/* p's page frame from /proc/self/pagemap; -1 when not present or hidden (no CAP_SYS_ADMIN). */
static int frame_of(const void *p, long page_size, uint64_t *pfn)
{
	uint64_t entry;
	off_t off = (off_t)((uintptr_t)p / (uintptr_t)page_size * sizeof(entry));
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, &entry, sizeof(entry), off);
	close(fd);
	/* bit 63: present; bits 0-54: the frame (zero without CAP_SYS_ADMIN) */
	if (n != (ssize_t)sizeof(entry) || !(entry >> 63) || !(entry & ((1ULL << 55) - 1)))
		return -1;
	*pfn = entry & ((1ULL << 55) - 1);
	return 0;
}

/* text into path through path.tmp and a rename: the runner never reads half of it. */
static int put(const char *path, const char *text)
{
	char tmp[4200];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -1;
	fputs(text, f);
	if (fclose(f) != 0)
		return -1;
	return rename(tmp, path);
}

#endif
