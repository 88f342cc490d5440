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

static long page_size;

static int frame_of(const void *p, uint64_t *pfn)
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
	if (frame_of(page, &pfn) < 0) {
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
	if (frame_of(page, &after) < 0)
		after = 0;
	snprintf(text, sizeof(text), "pfn=0x%llx intact=%d\n", (unsigned long long)after, intact);
	snprintf(path, sizeof(path), "%s.after", argv[1]);
	return put(path, text) < 0;
}
