/* SPDX-License-Identifier: MIT */
#ifndef RAS_BENCH_QUERIES_H
#define RAS_BENCH_QUERIES_H

/* Builds databases of small and large varied records under dir and prints query times. */
int bench_queries(const char *dir, long small, long large);

#endif
