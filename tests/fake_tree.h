/* SPDX-License-Identifier: MIT */
/*
 * A replayed tracing tree for tests and the benchmark: real format files
 * copied from a kernel's set, and per-CPU trace_pipe_raw files holding
 * ring-buffer sub-buffers laid out the way the kernel writes them
 * (header page: u64 timestamp, u64 commit with the missed-events flags;
 * each record: u32 type_len:5/time_delta:27 header, then data).
 */
#ifndef RAS_FAKE_TREE_H
#define RAS_FAKE_TREE_H

#include <stdint.h>
#include <stdio.h>
#include "lib/formats.h"

#define FAKE_MAX_CPUS 8

struct fake_cpu {
	FILE *raw;
	uint8_t page[65536];  /* up to a 64 KiB sub-buffer (arm64 kernels with 64 KiB pages) */
	unsigned used;        /* bytes of data in the current page */
	uint64_t page_ts;     /* absolute timestamp of the page */
	uint64_t last_ts;
	long long missed;     /* missed-events mark for the next page: 0 none, -1 unknown */
	unsigned pages;
};

struct fake_tree {
	char root[256];
	char instance[300];
	unsigned ncpus;
	unsigned page_size;
	struct ras_formats *fmt;
	struct fake_cpu cpu[FAKE_MAX_CPUS];
};

/* Makes the tree from a kernel format set (e.g. tests/formats/linux-6.1) under a temp dir. */
int fake_tree_create(struct fake_tree *t, const char *formats_dir, unsigned ncpus,
		     const char *instance, const char *clock);
/*
 * The same with another kernel's header_page (its sub-buffer size): the 64 KiB
 * pages of tests/formats/arm64-64k/header_page, say.
 */
int fake_tree_create_hp(struct fake_tree *t, const char *formats_dir, const char *header_page,
			unsigned ncpus, const char *instance, const char *clock);
/* Finishes the current instance's files and continues in another one (made if missing). */
int fake_tree_instance(struct fake_tree *t, const char *name, const char *clock);
/* Builds a record of "system:event" from field=value strings; returns its length or -errno. */
int fake_record(struct fake_tree *t, const char *name, char **assign, int n, uint8_t *out, size_t cap);
/* Appends a record to a CPU's buffer at absolute timestamp ts (ts must not go back). */
int fake_add(struct fake_tree *t, unsigned cpu, uint64_t ts, const uint8_t *rec, uint32_t len);
/* The next page of this CPU starts with the kernel's missed-events mark. */
void fake_mark_missed(struct fake_tree *t, unsigned cpu, long long count);
/* Writes out partial pages and closes the files. */
int fake_tree_finish(struct fake_tree *t);
void fake_tree_destroy(struct fake_tree *t);

#endif
