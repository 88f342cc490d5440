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
/* Removes a database and its -wal and -shm files, where they exist. */
void test_remove_db(const char *path);
/* Runs argv (argv[0] a path) with stdout/stderr to log_path (or inherited when NULL). Exit status or -errno. */
int test_run(char *const argv[], const char *log_path);
/* CLOCK_REALTIME - CLOCK_BOOTTIME in ns, sampled now. */
int64_t test_boot_offset(void);
/* The first column of the first row of sql on the database file path (read-only), or -1. */
int64_t test_sql_int(const char *path, const char *sql);
/* The same with the database at other attached as p (read only as path is); -1 on any failure. */
int64_t test_sql_int_with(const char *path, const char *other, const char *sql);
/* The line of text holding needle, copied into a static buffer ("" when none). */
const char *test_line_with(const char *text, const char *needle);
struct ras_event_type;
struct ras_value;
/* Sets the raw field `name` of type t in v: the text when given, else the integer i; unknown names are skipped. */
void test_set_field(const struct ras_event_type *t, struct ras_value *v, const char *name, int64_t i,
		    const char *text);

struct ras_db;
/* A writer opened on dir/name with boot "test-boot"; NULL (said with tap_diag) when it cannot be. */
struct ras_db *test_db_open(const char *dir, const char *name);

/*
 * An EDAC record (ras:mc_event) as the fold tests make them: these fields,
 * and msg "memory read error", middle layer 0, lower layer -1, 6 grain bits,
 * an empty driver_detail.
 */
struct test_mc_rec {
	int64_t error_type, error_count, mc_index, top_layer, address, syndrome;
	const char *label;
};
struct ras_db_event;
struct ras_decode_ctx;
/*
 * Decodes r (ctx as ras_decode_values takes it) and inserts it with ev's
 * time, source, hash and limits (its type, values and decoding are set
 * here). ras_db_insert_event's result.
 */
int test_mc_insert(struct ras_db *db, struct ras_decode_ctx *ctx, const struct test_mc_rec *r,
		   struct ras_db_event ev);

#endif
