/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl status: the daemon, its instance and buffers, and the database. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ctl.h"
#include "lib/formats.h"
#include "lib/hidden.h"
#include "lib/log.h"
#include "lib/tracing.h"

static int daemon_pid(const struct rasd_config *cfg)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/rasd-%s.lock", cfg->lock_dir, cfg->instance);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* F_GETLK needs a mode matching the lock type; retry read-write when allowed. */
	if (fcntl(fd, F_GETLK, &fl) < 0) {
		close(fd);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0 || fcntl(fd, F_GETLK, &fl) < 0)
			fl.l_type = F_UNLCK;
	}
	if (fd >= 0)
		close(fd);
	return fl.l_type == F_UNLCK ? 0 : fl.l_pid;
}

static bool event_enabled(const char *instance_dir, const char *system, const char *event)
{
	char path[PATH_MAX], *buf;
	bool on = false;

	snprintf(path, sizeof(path), "%s/events/%s/%s/enable", instance_dir, system, event);
	if (ras_read_file(path, &buf, NULL) == 0) {
		on = buf[0] == '1';
		free(buf);
	}
	return on;
}

static void print_events(const char *tracing_dir, const char *instance_dir)
{
	printf("Events:\n");
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];
		const char *sys = t->system;
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/events/%s/%s", tracing_dir, sys, t->event);
		if (access(path, F_OK) != 0 && t->alt_system) {
			sys = t->alt_system;
			snprintf(path, sizeof(path), "%s/events/%s/%s", tracing_dir, sys, t->event);
		}
		if (access(path, F_OK) != 0)
			printf("  %-40s absent from this kernel\n", t->table);
		else
			printf("  %-40s %s\n", t->table,
			       event_enabled(instance_dir, sys, t->event) ? "enabled" : "present, not enabled");
	}
}

static void print_tracing(struct ctl *c)
{
	char dir[PATH_MAX], inst[PATH_MAX], err[256];
	struct ras_cpu_stats st;

	if (ras_tracing_find(c->cfg.tracing_dir, dir, sizeof(dir), err, sizeof(err)) < 0) {
		printf("Tracing: %s\n", err);
		return;
	}
	snprintf(inst, sizeof(inst), "%s/instances/%s", dir, c->cfg.instance);
	if (access(inst, F_OK) != 0) {
		printf("Instance: %s (absent)\n", inst);
		return;
	}
	printf("Instance: %s\n", inst);
	print_events(dir, inst);
	printf("Per-CPU buffers:\n");
	for (int cpu = 0; ras_tracing_cpu_stats(inst, cpu, &st) == 0; cpu++)
		printf("  cpu%-4d entries %llu, overrun %llu, dropped %llu, read %llu\n", cpu,
		       (unsigned long long)st.entries, (unsigned long long)st.overrun,
		       (unsigned long long)st.dropped, (unsigned long long)st.read);
}

static void print_database(struct ctl *c)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	struct ras_db *db;
	struct stat sb;
	int64_t total = 0, newest = 0, lost, gaps;
	char when[40];

	printf("Database: %s", c->cfg.database);
	if (stat(c->cfg.database, &sb) != 0 || ctl_open_db(c, &db) < 0) {
		printf(" (not readable)\n");
		return;
	}
	printf(" (%lld bytes)\n", (long long)sb.st_size);
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		int64_t rows, last;

		if (ras_db_table_stats(db, i, &rows, &last) < 0 || !rows)
			continue;
		printf("  %-40s %lld rows\n", ras_event_types[i].table, (long long)rows);
		total += rows;
		if (last > newest)
			newest = last;
	}
	ras_db_lost_totals(db, &f, &lost, &gaps);
	printf("  total %lld rows; lost %lld records, %lld gaps of unknown size; malformed %lld; "
	       "synthetic refused %lld\n", (long long)total, (long long)lost, (long long)gaps,
	       (long long)ras_db_counter(db, "malformed_records"),
	       (long long)ras_db_counter(db, "synthetic_refused"));
	if (newest) {
		ras_format_time(newest, when, sizeof(when));
		printf("  last record %s\n", when);
	}
	printf("  ");
	ctl_actions_counts(db, 0, false);
	ras_db_close(db);
}

static void print_hidden(void *ctx, const char *condition, const char *advice)
{
	int *n = ctx;

	if (!(*n)++)
		printf("Conditions that can hide errors:\n");
	printf("  %s; %s\n", condition, advice);
}

int ctl_status(struct ctl *c, int argc, char **argv)
{
	int hidden = 0;
	int pid = daemon_pid(&c->cfg);

	if (argc > 1) {
		fprintf(stderr, "ras-fdr-ctl status: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	if (pid)
		printf("rasd: running (pid %d)\n", pid);
	else
		printf("rasd: not running\n");
	print_tracing(c);
	hidden_conditions(c->cfg.sysfs_root, NULL,
			  c->cfg.tracing_dir[0] ? c->cfg.tracing_dir : "/sys/kernel/tracing",
			  print_hidden, &hidden);
	if (!hidden)
		printf("Conditions that can hide errors: none found\n");
	print_database(c);
	return 0;
}
