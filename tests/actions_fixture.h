/* SPDX-License-Identifier: MIT */
/*
 * The fixture shared by the actions tests (test-actions, test-actions-limits):
 * a temporary directory holding a fake sysfs tree (regular files where the
 * kernel has soft_offline_page, cpuN/online, shared_cpu_list and
 * mem_repairN, laid out per Documentation/ABI/testing/sysfs-edac-memory-repair),
 * a trigger directory, rasd.conf and the database; records added to a fake
 * tracing tree built from the shipped formats; rasd --once run on it.
 */
#ifndef RAS_ACTIONS_FIXTURE_H
#define RAS_ACTIONS_FIXTURE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fake_tree.h"

#define MS 1000000ULL
#define MIN (60000 * MS)

/* The temporary directory, the sysfs root and trigger directory in it, and the database. */
extern char tmp[256], sysfs[512], trig[512], dbpath[512];
/* Ten minutes before the start on the boot clock: the records' wall times are recent. */
extern uint64_t base_ts;

/* Makes the directory and paths above; done removes it (kept with RAS_TEST_KEEP set). */
void actions_fixture_init(void);
void actions_fixture_done(void);

/* A file under the sysfs root written, or read ("(missing)" when absent). */
void put(const char *rel, const char *text);
void get(const char *rel, char *out, size_t len);
/* A machine with 4 CPUs (cpu0 without an online file), L1 shared by SMT siblings 1-2. */
void make_sysfs(bool with_hard);
/* rasd.conf with the tests' thresholds and limits, extra lines appended. */
void write_conf(const char *extra);
/* The trigger writes its RAS_ environment, sorted, one file per run. */
void make_trigger(const char *name);
/* That trigger for every threshold condition and for uncorrected records. */
void make_triggers(void);
/* rasd --once on a tracing tree, into dbpath; its output to tmp/rasd.log. Exit status. */
int run_rasd(const char *tree, bool synthetic);
/* rasd --rebuild-buckets on dbpath with the fixture's configuration; output to tmp/rasd.log. */
int rebuild_buckets(void);

/* A fake tracing tree with one CPU and rasd's instance (false when it cannot be made). */
bool tree(struct fake_tree *t);
/* A record of event name ("system:event") with the fields assigned, at ts on CPU 0. */
int add(struct fake_tree *t, const char *name, char **assign, int n, uint64_t ts);
/* A corrected memory error on DIMM_A1 (mc0 0:3:-1) at address, error_count count. */
int add_mc(struct fake_tree *t, const char *address, const char *count, uint64_t ts);
/* A corrected L1 data-cache read error (MCACOD 0x0134: DRD, data, level 0) on cpu 1. */
int add_cache_mce(struct fake_tree *t, uint64_t ts);

/*
 * ras-fdr-ctl on the fixture's database and sysfs root with the arguments
 * (NULL-terminated), its output and errors read into out. Exit status.
 */
int ctl_run(char *out, size_t len, const char *const *args);

/* The first column of the first row (-1 none, -2 the SQL failed), or as text ("" none). */
int64_t scalar(sqlite3 *db, const char *sql);
void text(sqlite3 *db, const char *sql, char *out, size_t len);
/* sql run on dbpath (errors ignored: the test's next check sees them). */
void exec_sql(const char *sql);
/* Removes the database and its WAL files. */
void fresh_db(void);

#endif
