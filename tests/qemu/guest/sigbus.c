// SPDX-License-Identifier: MIT
/*
 * sigbus - a process that consumes poisoned memory (tests/qemu only).
 *
 *   sigbus late|early FILE
 *
 * Maps one anonymous page, writes to it, writes "pfn=0x..." (its page frame,
 * from /proc/self/pagemap; needs root) to FILE, then poisons the page with
 * madvise(MADV_HWPOISON), the kernel's memory_failure() on that frame.
 *
 *   late   the default kill policy: memory_failure() unmaps the page; the
 *          read that follows faults on it and the kernel sends SIGBUS with
 *          BUS_MCEERR_AR (on 6.11 and later MADV_HWPOISON itself acts as an
 *          action-required failure, and the SIGBUS comes inside madvise)
 *   early  prctl(PR_MCE_KILL_EARLY) first: memory_failure() sends SIGBUS
 *          with BUS_MCEERR_AO to the process that maps the page
 *
 * The process keeps SIGBUS's default action, so it dies of it. Should it
 * live on, it writes "alive" to FILE.after and exits with 3.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "guest_util.h"

int main(int argc, char **argv)
{
	long page_size = sysconf(_SC_PAGESIZE);
	char path[4200], text[64];
	volatile unsigned char *page;
	uint64_t pfn;
	int early;

	if (argc != 3 || (strcmp(argv[1], "late") && strcmp(argv[1], "early"))) {
		fprintf(stderr, "usage: sigbus late|early FILE\n");
		return 2;
	}
	early = !strcmp(argv[1], "early");
	page = mmap(NULL, (size_t)page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (page == MAP_FAILED)
		return 1;
	memset((void *)page, 0x5a, (size_t)page_size);
	if (frame_of((const void *)page, page_size, &pfn) < 0)
		return 1;
	snprintf(text, sizeof(text), "pfn=0x%llx\n", (unsigned long long)pfn);
	if (put(argv[2], text) < 0)
		return 1;
	if (early && prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0) < 0)
		return 1;
	if (madvise((void *)page, (size_t)page_size, MADV_HWPOISON) < 0) {
		perror("madvise(MADV_HWPOISON)");
		return 1;
	}
	/* The read that consumes the poison (late kill). */
	if (page[0] != 0x5a)
		return 4;
	snprintf(path, sizeof(path), "%s.after", argv[2]);
	put(path, "alive\n");
	return 3;
}
