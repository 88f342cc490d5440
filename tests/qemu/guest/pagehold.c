// SPDX-License-Identifier: MIT
/*
 * pagehold - a page the QEMU actions scenario owns (tests/qemu only).
 *
 *   pagehold FILE
 *
 * Maps one anonymous page, fills it with a pattern, and writes "pfn=0x..."
 * (its page frame, from /proc/self/pagemap; needs root) to FILE. It then
 * waits, holding the page, until FILE.go exists (at most 120 s), and writes
 * "pfn=0x... intact=0|1" to FILE.after: the frame the page is in now and
 * whether its content survived. A soft offline migrates an in-use page, so
 * the frame changes and the content stays.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "guest_util.h"

static long page_size;

int main(int argc, char **argv)
{
	char path[4200], text[128];
	unsigned char *page;
	uint64_t pfn, after;
	int intact = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: pagehold FILE\n");
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, (size_t)page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (page == MAP_FAILED)
		return 1;
	for (long i = 0; i < page_size; i++)
		page[i] = (unsigned char)(i * 7 + 3);
	if (frame_of(page, page_size, &pfn) < 0) {
		fprintf(stderr, "pagehold: no frame in /proc/self/pagemap\n");
		return 1;
	}
	snprintf(text, sizeof(text), "pfn=0x%llx\n", (unsigned long long)pfn);
	if (put(argv[1], text) < 0)
		return 1;
	snprintf(path, sizeof(path), "%s.go", argv[1]);
	for (int i = 0; i < 1200 && access(path, F_OK) != 0; i++)
		usleep(100000);
	for (long i = 0; i < page_size; i++)
		intact &= page[i] == (unsigned char)(i * 7 + 3);
	if (frame_of(page, page_size, &after) < 0)
		after = 0;
	snprintf(text, sizeof(text), "pfn=0x%llx intact=%d\n", (unsigned long long)after, intact);
	snprintf(path, sizeof(path), "%s.after", argv[1]);
	return put(path, text) < 0;
}
