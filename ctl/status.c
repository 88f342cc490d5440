/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl status: the daemon, its instance and buffers, and the database. */
#include <errno.h>
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

/* 0 when the database answered in full; 1 when it is absent, unusable or failed part-way. */
static int print_database(struct ctl *c)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	struct ras_db *db;
	struct stat sb;
	int64_t total = 0, newest = 0, lost, gaps;
	char when[40];

	printf("Database: %s", c->cfg.database);
	if (stat(c->cfg.database, &sb) == 0)
		printf(" (%lld bytes)", (long long)sb.st_size);
	printf("\n");
	fflush(stdout);
	if (ctl_open_db(c, &db) < 0) {
		printf("  not usable: see the error above\n");
		return 1;
	}
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		int64_t rows, last;
		int r = ras_db_table_stats(db, i, &rows, &last);

		if (r == -EIO)
			goto failed;
		if (r < 0 || !rows)
			continue;
		printf("  %-40s %lld rows\n", ras_event_types[i].table, (long long)rows);
		total += rows;
		if (last > newest)
			newest = last;
	}
	if (ras_db_lost_totals(db, &f, &lost, &gaps) < 0)
		goto failed;
	printf("  total %lld rows; lost %lld records, %lld gaps of unknown size; malformed %lld; "
	       "synthetic refused %lld\n", (long long)total, (long long)lost, (long long)gaps,
	       (long long)ras_db_counter(db, "malformed_records"),
	       (long long)ras_db_counter(db, "synthetic_refused"));
	if (newest) {
		ras_format_time(newest, when, sizeof(when));
		printf("  last record %s\n", when);
	}
	ras_db_close(db);
	return 0;
failed:
	ctl_db_error(c, ras_db_errmsg(db));
	ras_db_close(db);
	return 1;
}

static const char *state_value(const char *buf, const char *key, char *out, size_t len)
{
	char k[40];
	const char *p;

	snprintf(k, sizeof(k), "\n%s=", key);
	p = strstr(buf, k);
	out[0] = 0;
	if (p) {
		p += strlen(k);
		snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
	}
	return out;
}

/* What rasd last said about its storage, from the state file it writes beside its lock. */
static void print_storage(struct ctl *c, int pid)
{
	char path[PATH_MAX + 160], *buf, *text, v[1024], when[40], db[PATH_MAX];

	snprintf(path, sizeof(path), "%s/rasd-%s.state", c->cfg.lock_dir, c->cfg.instance);
	if (ras_read_file(path, &buf, NULL) < 0)
		return;
	/* A leading newline lets every key, the first too, be found as "\nkey=". */
	text = malloc(strlen(buf) + 2);
	if (!text) {
		free(buf);
		return;
	}
	sprintf(text, "\n%s", buf);
	if (!strcmp(state_value(text, "storage", v, sizeof(v)), "failing")) {
		ras_format_time(strtoll(state_value(text, "since_ns", v, sizeof(v)), NULL, 10), when,
				sizeof(when));
		printf("Storage: failing since %s: %s", when, state_value(text, "reason", v, sizeof(v)));
		printf(" (%s records held in memory)%s\n", state_value(text, "waiting", v, sizeof(v)),
		       pid ? "" : " [rasd not running: as it last reported]");
	} else {
		printf("Storage: working\n");
	}
	if (strcmp(state_value(text, "unstored", v, sizeof(v)), "0") && v[0])
		printf("Storage: %s records read by a stopped rasd could not be stored; "
		       "they are counted as lost at its next start\n", v);
	state_value(text, "database", db, sizeof(db));
	if (db[0] && strcmp(db, c->cfg.database))
		printf("Storage: rasd records into %s (the configured file was left alone)\n", db);
	free(text);
	free(buf);
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
	print_storage(c, pid);
	return print_database(c);
}
