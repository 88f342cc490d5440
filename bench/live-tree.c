/* SPDX-License-Identifier: MIT */
/*
 * make bench-live's records as a replayed tracing tree, for callgrind on
 * `rasd --once` (HACKING.md, "Profiling the storm path"): records FIRST to
 * FIRST + N - 1 of the live stream (bench/live_pool.c), each unwrapped from
 * its trace_marker_raw wrapper and laid in the tree as the kernel lays a
 * native record, on CPU k % 2, 1 µs apart (as make bench's tree). FIRST 0
 * gives make bench's own tree (bench_stream_add, any N; the pool is its first
 * 65,536 records); FIRST 65536 (the default) gives what the live harness
 * writes past its pool, every field a storm varies drawn afresh. So the two
 * streams are measured on the same path, the same size and the same times:
 * only their variety differs.
 *
 *   bench/live-tree N [FIRST]   prints the tree's path; remove it when done
 */
#include <stdio.h>
#include <stdlib.h>
#include "live_pool.h"
#include "stream.h"
#include "tests/fake_tree.h"
#include "tests/test_util.h"

#define POOL_RECORDS 65536   /* bench-live.c's pool */

int main(int argc, char **argv)
{
	static uint8_t buf[RAS_SYNTH_MAX];
	char formats[1024];
	struct fake_tree t;
	struct live_pool p;
	long n = argc > 1 ? atol(argv[1]) : 0, first = argc > 2 ? atol(argv[2]) : POOL_RECORDS;

	if (n < 1 || first < 0) {
		fprintf(stderr, "usage: live-tree N [FIRST]\n");
		return 2;
	}
	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	if (fake_tree_create(&t, formats, 2, "rasd", "boot") < 0)
		return 1;
	if (first == 0) {
		uint64_t seed = 0x9e3779b97f4a7c15ULL;   /* make bench's tree, record for record */

		for (long i = 0; i < n; i++)
			if (bench_stream_add(&t, i, &seed) < 0) {
				fake_tree_destroy(&t);
				return 1;
			}
		if (fake_tree_finish(&t) < 0)
			return 1;
		printf("%s\n", t.root);
		return 0;
	}
	/* The tree's own formats, so the records' type ids are the tree's. */
	if (live_pool_build(&p, POOL_RECORDS, t.root, formats) < 0) {
		fake_tree_destroy(&t);
		return 1;
	}
	for (long k = 0; k < n; k++) {
		size_t len;
		long i = first + k;
		const uint8_t *rec = live_pool_record(&p, i, buf, &len);
		uint16_t at = p.rec[i % p.n];

		if (fake_add(&t, (unsigned)(k % 2), 1000000000ULL + (uint64_t)k * 1000, rec + at,
			     (uint32_t)(len - at)) < 0) {
			live_pool_free(&p);
			fake_tree_destroy(&t);
			return 1;
		}
	}
	live_pool_free(&p);
	if (fake_tree_finish(&t) < 0)
		return 1;
	printf("%s\n", t.root);
	return 0;
}
