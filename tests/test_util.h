/* SPDX-License-Identifier: MIT */
/* Helpers shared by the C tests: paths, running the built programs, temp dirs. */
#ifndef RAS_TEST_UTIL_H
#define RAS_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

/* $top_srcdir / $top_builddir, or "." */
const char *test_srcdir(void);
const char *test_builddir(void);
/* mkdtemp under /tmp; the caller removes it with test_rmtree. */
int test_tmpdir(char *out, size_t len);
void test_rmtree(const char *dir);
/* Runs argv (argv[0] a path) with stdout/stderr to log_path (or inherited when NULL). Exit status or -errno. */
int test_run(char *const argv[], const char *log_path);
/* CLOCK_REALTIME - CLOCK_BOOTTIME in ns, sampled now. */
int64_t test_boot_offset(void);
/* The first column of the first row of sql on the database file path (read-only), or -1. */
int64_t test_sql_int(const char *path, const char *sql);

#endif
