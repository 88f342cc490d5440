/* SPDX-License-Identifier: MIT */
/*
 * make bench-live's records (live_pool.c): make bench's varied stream
 * (bench/stream.c) wrapped for trace_marker_raw ahead of time, and past the
 * pool's end the same records with every field a storm varies drawn afresh,
 * so a step of any length writes no record twice and names no subject again
 * more often than a real varied storm does.
 */
#ifndef RAS_BENCH_LIVE_POOL_H
#define RAS_BENCH_LIVE_POOL_H

#include <stddef.h>
#include <stdint.h>
#include "lib/synthetic.h"

/* A field a variant rewrites: where it lies in the wrapped record, and its size. */
struct live_field {
	uint16_t off, size;
};

/* The fields one event type's variants rewrite (offsets from the record's start). */
struct live_kind {
	int kind;   /* LIVE_MC, LIVE_MCE, ... (live_pool.c); 0: rewritten never */
	struct live_field f[8];
};

struct live_pool {
	uint8_t *data;
	size_t *off;
	uint16_t *len, *rec;     /* the wrapped record's length; where its record starts */
	uint8_t *kind;           /* index into kinds[] */
	struct live_kind kinds[8];
	long n;
	size_t bytes, max_len;
};

/* Builds n records of the stream from the formats in formats_dir (tracing_dir's first). 0 or -1. */
int live_pool_build(struct live_pool *p, long n, const char *tracing_dir, const char *formats_dir);
void live_pool_free(struct live_pool *p);

/*
 * Record number i of the live stream: the pool's own record below n (make
 * bench's stream, as it is), past it record i % n with its varied fields
 * drawn from i, written into buf (RAS_SYNTH_MAX bytes). Its start; its length in *len.
 */
const uint8_t *live_pool_record(const struct live_pool *p, long i, uint8_t *buf, size_t *len);

#endif
