/* SPDX-License-Identifier: MIT */
/* The benchmark's varied record stream (stream.c). */
#ifndef RAS_BENCH_STREAM_H
#define RAS_BENCH_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include "tests/fake_tree.h"

/* One record of the stream: its "system:event" and "field=value" assignments. */
#define BENCH_FIELDS_MAX 12
struct bench_fields {
	const char *name;
	char text[BENCH_FIELDS_MAX][128];
	char *assign[BENCH_FIELDS_MAX];
	int n;
};

/* Record number i of the stream, drawn from seed (the live benchmark writes it). */
void bench_stream_fields(struct bench_fields *f, long i, uint64_t *seed);
/* Appends record number i of the stream (CPU i % ncpus, 1 µs apart); 0 or -errno. */
int bench_stream_add(struct fake_tree *t, long i, uint64_t *seed);

/*
 * Writes dir/unfolded.conf: rasd's defaults with storm folding and the size
 * limit off, so the benchmark stores and queries every record raw, as before
 * folding existed (make bench-year measures folding). Its path goes to out.
 */
int bench_unfolded_conf(const char *dir, char *out, size_t len);
/* Writes dir/default.conf, empty: every key at its default (storm folding on). */
int bench_default_conf(const char *dir, char *out, size_t len);
/*
 * Writes dir/thresholds-off.conf: the default with every threshold off, a
 * diagnostic of what the per-subject buckets cost (make bench-live).
 */
int bench_thresholds_off_conf(const char *dir, char *out, size_t len);

#endif
