/* SPDX-License-Identifier: MIT */
/* The benchmark's varied record stream (stream.c). */
#ifndef RAS_BENCH_STREAM_H
#define RAS_BENCH_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include "tests/fake_tree.h"

/* Appends record number i of the stream (CPU i % ncpus, 1 µs apart); 0 or -errno. */
int bench_stream_add(struct fake_tree *t, long i, uint64_t *seed);

#endif
