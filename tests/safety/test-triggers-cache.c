/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: ras_triggers_installed keeps its answer (rasd/triggers.c) instead
 * of walking trigger_dir from / at every uncorrected record, and the path
 * rule still holds: a trigger installed after start is found at the next
 * read of the buffers (ras_triggers_new_read), a kept "installed" is never
 * trusted once trigger_dir's mode changed, and running always checks in full.
 * Full checks are counted (ras_triggers_checks), not timed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "test_util.h"
#include "lib/config.h"
#include "rasd/refusals.h"
#include "rasd/triggers.h"

static char dir[256], trig[512], moved[600];
static struct rasd_config cfg;

/* A trigger that leaves DIR/ran-NAME when it runs. */
static void make_trigger(const char *name)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", trig, name);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "#!/bin/sh\necho ran > '%s/ran-%s'\n", dir, name);
		fclose(f);
	}
	chmod(path, 0755);
}

static void trigger_path(char *path, size_t len, const char *name)
{
	snprintf(path, len, "%s/%s", trig, name);
}

/* Whether NAME's trigger ran (it is waited for up to 30 s: a child, not the clock, decides). */
static bool ran(const char *name, bool wait)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/ran-%s", dir, name);
	for (int i = 0; wait && i < 3000 && access(path, F_OK) != 0; i++)
		usleep(10000);
	return access(path, F_OK) == 0;
}

static bool refused(const char *text)
{
	char buf[8192];

	rasd_refusals_text(buf, sizeof(buf));
	return strstr(buf, text) != NULL;
}

static unsigned long asked(struct ras_triggers *t, const char *condition, unsigned n, bool *all)
{
	unsigned long before = ras_triggers_checks(t);

	*all = true;
	for (unsigned i = 0; i < n; i++)
		*all &= ras_triggers_installed(t, condition);
	return ras_triggers_checks(t) - before;
}

/* Each condition asked once per read over n reads: the full checks made. */
static unsigned long reads(struct ras_triggers *t, const char *condition, unsigned n, bool *all,
			   bool *none)
{
	unsigned long before = ras_triggers_checks(t);

	*all = true;
	*none = true;
	for (unsigned i = 0; i < n; i++) {
		bool yes;

		ras_triggers_new_read(t);
		yes = ras_triggers_installed(t, condition);
		*all &= yes;
		*none &= !yes;
	}
	return ras_triggers_checks(t) - before;
}

/*
 * Across reads of the buffers (issue 39, the live path): nothing changed, no
 * walk; a trigger installed, made unsafe or removed between two reads is seen
 * by the second read's first record, and nothing unsafe runs.
 */
static void between_reads(struct ras_triggers *t)
{
	char path[600];
	unsigned long checks;
	bool all, none;

	ras_triggers_new_read(t);
	ras_triggers_installed(t, "uncorrected");
	ras_triggers_installed(t, "page-threshold");
	checks = reads(t, "uncorrected", 1000, &all, &none);
	tap_ok(all, "installed, nothing changed: installed in each of 1,000 reads");
	tap_is_int(checks, 0, "1,000 records over 1,000 reads, installed: no walk of trigger_dir");
	checks = reads(t, "page-threshold", 1000, &all, &none);
	tap_ok(none, "absent, nothing changed: not installed in each of 1,000 reads");
	tap_is_int(checks, 0, "1,000 records over 1,000 reads, absent: no walk of trigger_dir");
	checks = reads(t, "verdict-change", 1000, &all, &none);
	tap_ok(none && checks == 1, "verdict-change: %lu walks in 1,000 reads",
	       checks);

	make_trigger("page-threshold");
	ras_triggers_new_read(t);
	tap_ok(ras_triggers_installed(t, "page-threshold"), "installed between two reads: the second read's record sees it");
	tap_is_int(ras_triggers_run(t, "page-threshold", (char *[]){ NULL }), 0, "and runs it");
	tap_ok(ran("page-threshold", true), "it ran");
	checks = reads(t, "page-threshold", 100, &all, &none);
	tap_ok(all && checks == 0, "then kept: %lu walks in 100 reads", checks);

	trigger_path(path, sizeof(path), "page-threshold");
	chmod(path, 0757);
	ras_triggers_new_read(t);
	tap_ok(!ras_triggers_installed(t, "page-threshold"), "made writable by others between two reads: not installed");
	tap_ok(refused("is writable by other users"), "  the refusal is said");
	tap_is_int(ras_triggers_run(t, "page-threshold", (char *[]){ NULL }), -EPERM, "  running it is refused");
	if (geteuid() == 0) {
		chmod(path, 0755);
		ras_triggers_new_read(t);
		tap_ok(ras_triggers_installed(t, "page-threshold"), "safe again at the next read");
		if (chown(path, 0, 65534) == 0 && chmod(path, 0775) == 0) {
			ras_triggers_new_read(t);
			tap_ok(!ras_triggers_installed(t, "page-threshold"),
			       "made group-writable (group 65534) between two reads: not installed");
			tap_is_int(ras_triggers_run(t, "page-threshold", (char *[]){ NULL }), -EPERM,
				   "  running it is refused");
		}
		if (chown(path, 0, 0) != 0)
			tap_ok(0, "chown back");
	}
	chmod(path, 0755);
	ras_triggers_new_read(t);
	tap_ok(ras_triggers_installed(t, "page-threshold"), "safe again at the next read");
	chmod(trig, 0777);
	ras_triggers_new_read(t);
	tap_ok(!ras_triggers_installed(t, "page-threshold") && !ras_triggers_installed(t, "uncorrected"),
	       "trigger_dir made writable by others between two reads: neither is installed");
	tap_is_int(ras_triggers_run(t, "uncorrected", (char *[]){ NULL }), -EPERM, "  running one is refused");
	chmod(trig, 0755);
	ras_triggers_new_read(t);
	tap_ok(ras_triggers_installed(t, "uncorrected"), "safe again at the next read");

	/* A directory above trigger_dir: no lstat sees it; the full check before a run does. */
	chmod(dir, 0777);
	ras_triggers_new_read(t);
	unlink(strcat(strcpy(path, dir), "/ran-uncorrected"));
	tap_is_int(ras_triggers_run(t, "uncorrected", (char *[]){ NULL }), -EPERM,
		   "the directory above trigger_dir made writable by others: running is refused");
	tap_ok(!ras_triggers_installed(t, "uncorrected"), "  and it is not installed for the rest of the read");
	chmod(dir, 0755);
	ras_triggers_new_read(t);
	tap_ok(ras_triggers_installed(t, "uncorrected"), "  a refusal is kept one read: safe again, installed");

	trigger_path(path, sizeof(path), "page-threshold");
	unlink(path);
	unlink(strcat(strcpy(path, dir), "/ran-page-threshold"));
	ras_triggers_new_read(t);
	tap_ok(!ras_triggers_installed(t, "page-threshold"), "removed between two reads: not installed");
	tap_is_int(ras_triggers_run(t, "page-threshold", (char *[]){ NULL }), -ENOENT, "  and not run");
	checks = reads(t, "page-threshold", 100, &all, &none);
	tap_ok(none && checks == 0, "  then kept absent: %lu walks in 100 reads", checks);
	tap_ok(!ran("uncorrected", false) && !ran("page-threshold", false), "nothing refused or removed ran");

	test_rmtree(trig);
	checks = reads(t, "uncorrected", 100, &all, &none);
	tap_ok(none && checks == 1, "trigger_dir gone between two reads: not installed, %lu walk in 100 reads", checks);
	mkdir(trig, 0755);
	make_trigger("uncorrected");
	ras_triggers_new_read(t);
	tap_ok(ras_triggers_installed(t, "uncorrected"), "trigger_dir and its trigger back between two reads: installed");
}

int main(void)
{
	struct ras_triggers *t = NULL;
	unsigned long checks;
	bool all;

	if (test_tmpdir(dir, sizeof(dir)) < 0 || chmod(dir, 0755) != 0)
		return tap_ok(0, "a directory of our own"), tap_done();
	snprintf(trig, sizeof(trig), "%s/triggers", dir);
	rasd_config_defaults(&cfg);
	snprintf(cfg.trigger_dir, sizeof(cfg.trigger_dir), "%s", trig);
	tap_is_int(ras_triggers_open(&t, &cfg, -1, 0), 0, "opened without a loop, trigger_dir absent");
	if (!t)
		return tap_done();

	checks = asked(t, "uncorrected", 10000, &all);
	tap_ok(!ras_triggers_installed(t, "uncorrected"), "no trigger_dir: not installed");
	tap_is_int(checks, 0, "10,000 uncorrected records in one read: no walk of trigger_dir");

	mkdir(trig, 0755);
	make_trigger("uncorrected");
	tap_ok(!ras_triggers_installed(t, "uncorrected"), "installed during a read: not seen before the next read");
	ras_triggers_new_read(t);
	checks = asked(t, "uncorrected", 10000, &all);
	tap_ok(all, "installed after start: found at the next read of the buffers");
	tap_is_int(checks, 1, "10,000 records of that read: one full check");
	checks = asked(t, "row-threshold", 100, &all);
	tap_ok(!all && checks == 1, "another condition without its file: one check, not installed");

	chmod(trig, 0777);
	tap_ok(!ras_triggers_installed(t, "uncorrected"),
	       "trigger_dir made writable by others within the read: the kept answer is not trusted");
	tap_ok(refused("is writable by other users"), "and the refusal is said (ras-fdr-ctl status)");
	tap_is_int(ras_triggers_run(t, "uncorrected", (char *[]){ NULL }), -EPERM, "running it is refused");
	checks = asked(t, "uncorrected", 1000, &all);
	tap_ok(!all && checks == 0, "refused: kept as not installed until the next read (%lu checks)", checks);

	chmod(trig, 0755);
	ras_triggers_new_read(t);
	tap_ok(ras_triggers_installed(t, "uncorrected") && !refused("is writable by other users"),
	       "safe again: installed at the next read, the refusal gone");
	snprintf(moved, sizeof(moved), "%s.old", trig);
	rename(trig, moved);
	mkdir(trig, 0755);
	make_trigger("uncorrected");
	checks = asked(t, "uncorrected", 100, &all);
	tap_ok(all && checks == 1, "trigger_dir replaced by another directory: checked in full again, once");
	between_reads(t);
	ras_triggers_close(t);
	test_rmtree(dir);
	return tap_done();
}
