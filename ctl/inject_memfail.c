/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl inject memory-failure: poisons a page of its own (see inject_kernel.c). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "inject_kernel.h"
#include "inject_util.h"

/* ---- memory-failure ----------------------------------------------------- */

/* PFN of the page at p from /proc/self/pagemap (0 when not visible). */
static uint64_t page_pfn(const void *p, long pagesz)
{
	uint64_t ent = 0;
	off_t off = (off_t)((uintptr_t)p / (uintptr_t)pagesz) * 8;
	int fd;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (pread(fd, &ent, sizeof(ent), off) != (ssize_t)sizeof(ent))
		ent = 0;
	close(fd);
	if (!(ent >> 63))
		return 0;
	return ent & ((1ULL << 55) - 1);
}

static int hwpoison_own_page(void)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	uint64_t pfn;
	char *p;

	p = mmap(NULL, (size_t)pagesz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	memset(p, 0x5a, (size_t)pagesz);
	pfn = page_pfn(p, pagesz);
	if (madvise(p, (size_t)pagesz, MADV_HWPOISON)) {
		int err = -errno;

		munmap(p, (size_t)pagesz);
		return err;
	}
	/* The page is poisoned: it must not be touched again. */
	if (pfn)
		printf("poisoned pfn 0x%" PRIx64 " (page at %p)\n", pfn, (void *)p);
	else
		printf("poisoned one page (pfn not visible)\n");
	munmap(p, (size_t)pagesz);
	return 0;
}

int inject_memory_failure(int argc, char **argv)
{
	bool yes = false;
	int r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--yes"))
			yes = true;
		else if (!strcmp(argv[i], "--help")) {
			ctl_inject_kernel_usage(stdout);
			return 0;
		} else
			return inj_usage_error("inject memory-failure: unexpected argument '%s'", argv[i]);
	}
	if (inj_check_common(yes))
		return yes ? 1 : EXIT_USAGE;
	r = hwpoison_own_page();
	if (r == -EINVAL || r == -ENOSYS)
		fputs("ras-fdr-ctl inject: the kernel has no memory-failure support "
		      "(CONFIG_MEMORY_FAILURE)\n", stderr);
	else if (r)
		fprintf(stderr, "ras-fdr-ctl inject: madvise(MADV_HWPOISON): %s\n", strerror(-r));
	return r ? 1 : 0;
}
