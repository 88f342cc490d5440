/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: ras_triggers_installed keeps its answer (rasd/triggers.c) instead
 * of walking trigger_dir from / at every uncorrected record, and the path
 * rule still holds: a trigger installed after start is found at the next
 * read of the buffers (ras_triggers_recheck), a kept "installed" is never
 * trusted once trigger_dir's mode changed, and running always checks in full.
 * Full checks are counted (ras_triggers_checks), not timed.
 */
#include <errno.h>
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

static void make_trigger(const char *name)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", trig, name);
	f = fopen(path, "w");
	if (f) {
		fputs("#!/bin/sh\nexit 0\n", f);
		fclose(f);
	}
	chmod(path, 0755);
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
	ras_triggers_recheck(t);
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
	ras_triggers_recheck(t);
	tap_ok(ras_triggers_installed(t, "uncorrected") && !refused("is writable by other users"),
	       "safe again: installed at the next read, the refusal gone");
	snprintf(moved, sizeof(moved), "%s.old", trig);
	rename(trig, moved);
	mkdir(trig, 0755);
	make_trigger("uncorrected");
	checks = asked(t, "uncorrected", 100, &all);
	tap_ok(all && checks == 1, "trigger_dir replaced by another directory: checked in full again, once");
	ras_triggers_close(t);
	test_rmtree(dir);
	return tap_done();
}
