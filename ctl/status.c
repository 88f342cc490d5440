/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl status: the daemon, its instance and buffers, and the database. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ctl.h"
#include "db/db_crashes.h"
#include "lastwords/cause.h"
#include "lib/formats.h"
#include "lib/hidden.h"
#include "lib/clock.h"
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

/* What status found, printed as text or JSON; attention[] sets exit status 3. */
struct status {
	bool json;
	unsigned n_items, n_attention;
	const char *attention[8];
};

/* Separators for the JSON arrays: the first item gets none. */
static const char *sep(struct status *st)
{
	return st->n_items++ ? "," : "";
}

static void attention(struct status *st, const char *why)
{
	if (st->n_attention < sizeof(st->attention) / sizeof(st->attention[0]))
		st->attention[st->n_attention++] = why;
}

static void print_events(struct status *st, const char *tracing_dir, const char *instance_dir)
{
	static const char *const words[] = { "absent from this kernel", "present, not enabled", "enabled" };
	static const char *const keys[] = { "absent", "present", "enabled" };

	printf(st->json ? ",\"events\":[" : "Events:\n");
	st->n_items = 0;
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];
		const char *sys = t->system;
		char path[PATH_MAX];
		int state;

		snprintf(path, sizeof(path), "%s/events/%s/%s", tracing_dir, sys, t->event);
		if (access(path, F_OK) != 0 && t->alt_system) {
			sys = t->alt_system;
			snprintf(path, sizeof(path), "%s/events/%s/%s", tracing_dir, sys, t->event);
		}
		state = access(path, F_OK) != 0 ? 0 : event_enabled(instance_dir, sys, t->event) ? 2 : 1;
		if (st->json)
			printf("%s{\"type\":\"%s\",\"state\":\"%s\"}", sep(st), t->table, keys[state]);
		else
			printf("  %-40s %s\n", t->table, words[state]);
	}
	if (st->json)
		putchar(']');
}

static void print_buffers(struct status *st, const char *inst)
{
	struct ras_cpu_stats cs;

	printf(st->json ? ",\"cpus\":[" : "Per-CPU buffers:\n");
	st->n_items = 0;
	for (int cpu = 0; ras_tracing_cpu_stats(inst, cpu, &cs) == 0; cpu++) {
		if (st->json)
			printf("%s{\"cpu\":%d,\"entries\":\"%llu\",\"overrun\":\"%llu\",\"dropped\":\"%llu\","
			       "\"read\":\"%llu\"}", sep(st), cpu, (unsigned long long)cs.entries,
			       (unsigned long long)cs.overrun, (unsigned long long)cs.dropped,
			       (unsigned long long)cs.read);
		else
			printf("  cpu%-4d entries %llu, overrun %llu, dropped %llu, read %llu\n", cpu,
			       (unsigned long long)cs.entries, (unsigned long long)cs.overrun,
			       (unsigned long long)cs.dropped, (unsigned long long)cs.read);
	}
	if (st->json)
		putchar(']');
}

static void print_tracing(struct status *st, struct ctl *c, bool running)
{
	char dir[PATH_MAX], inst[PATH_MAX], err[256];
	bool present;

	if (ras_tracing_find(c->cfg.tracing_dir, dir, sizeof(dir), err, sizeof(err)) < 0) {
		if (st->json) {
			printf(",\"tracing\":{\"error\":");
			ctl_print_json_string(err, strlen(err));
			putchar('}');
		} else {
			printf("Tracing: %s\n", err);
		}
		return;
	}
	snprintf(inst, sizeof(inst), "%s/instances/%s", dir, c->cfg.instance);
	present = access(inst, F_OK) == 0;
	if (running && !present)
		attention(st, "rasd's tracing instance is absent");
	if (st->json) {
		printf(",\"tracing\":{\"instance\":");
		ctl_print_json_string(inst, strlen(inst));
		printf(",\"present\":%s", present ? "true" : "false");
	} else {
		printf("Instance: %s%s\n", inst, present ? "" : " (absent)");
	}
	if (present) {
		print_events(st, dir, inst);
		print_buffers(st, inst);
	}
	if (st->json)
		putchar('}');
}

static void print_table_rows(struct status *st, struct ras_db *db, int64_t *total, int64_t *newest)
{
	if (st->json)
		printf(",\"rows\":{");
	st->n_items = 0;
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		int64_t rows, last;

		if (ras_db_table_stats(db, i, &rows, &last) < 0 || !rows)
			continue;
		if (st->json)
			printf("%s\"%s\":%lld", sep(st), ras_event_types[i].table, (long long)rows);
		else
			printf("  %-40s %lld rows\n", ras_event_types[i].table, (long long)rows);
		*total += rows;
		if (last > *newest)
			*newest = last;
	}
	if (st->json)
		putchar('}');
}

static void print_losses(struct status *st, struct ras_db *db, int64_t total)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	int64_t lost, gaps, boot_lost = 0, boot_gaps = 0;
	int64_t malformed = ras_db_counter(db, "malformed_records");
	int64_t refused = ras_db_counter(db, "synthetic_refused");
	char boot[64];

	ras_db_lost_totals(db, &f, &lost, &gaps);
	if (ras_boot_id(boot, sizeof(boot)) == 0) {
		f.boot_id = boot;
		ras_db_lost_totals(db, &f, &boot_lost, &boot_gaps);
	}
	if (boot_lost || boot_gaps)
		attention(st, "records lost since this boot");
	if (st->json)
		printf(",\"total\":%lld,\"lost\":%lld,\"lost_unknown_gaps\":%lld,\"lost_this_boot\":%lld,"
		       "\"lost_unknown_gaps_this_boot\":%lld,\"malformed\":%lld,\"synthetic_refused\":%lld",
		       (long long)total, (long long)lost, (long long)gaps, (long long)boot_lost,
		       (long long)boot_gaps, (long long)malformed, (long long)refused);
	else
		printf("  total %lld rows; lost %lld records, %lld gaps of unknown size (this boot: %lld, "
		       "%lld); malformed %lld; synthetic refused %lld\n", (long long)total,
		       (long long)lost, (long long)gaps, (long long)boot_lost, (long long)boot_gaps,
		       (long long)malformed, (long long)refused);
}

/* The newest crash of the boot before this one (crashes.c, db_crashes.h). */
struct last_crash {
	bool found, explained, crash;
	int64_t id;
	char cause[32], reason[256];
};

static int take_last_crash(void *ctx, const struct ras_db_crash *c)
{
	struct last_crash *l = ctx;

	if (l->found || !lw_cause_is_crash(lw_cause_parse(c->cause)))
		return 0;
	*l = (struct last_crash){ .found = true, .explained = c->explained, .id = c->id };
	snprintf(l->cause, sizeof(l->cause), "%s", c->cause);
	snprintf(l->reason, sizeof(l->reason), "%s", c->reason ? c->reason : "");
	return 0;
}

/*
 * Whether the last boot ended in a crash; one that no hardware error explains
 * (a kernel fault, or an error nothing recorded) asks for attention.
 */
static void print_last_crash(struct status *st, struct ras_db *db)
{
	struct last_crash l = { 0 };
	char boot[64];

	if (ras_db_boot_by_offset(db, 1, boot, sizeof(boot)) == 0)
		ras_db_crashes(db, boot, 0, take_last_crash, &l);
	if (l.found && !l.explained)
		attention(st, "the last boot ended in a crash no hardware error explains");
	if (st->json && !l.found) {
		printf(",\"last_boot_crash\":null");
	} else if (st->json) {
		printf(",\"last_boot_crash\":{\"id\":%lld,\"cause\":\"%s\",\"explained\":%s,\"reason\":",
		       (long long)l.id, l.cause, l.explained ? "true" : "false");
		ctl_print_json_string(l.reason, strlen(l.reason));
		putchar('}');
	} else if (l.found) {
		printf("Last boot: ended in a crash (%s), %s; see ras-fdr-ctl crashes show %lld\n", l.cause,
		       l.explained ? "explained by a hardware error" : "no hardware error explains it",
		       (long long)l.id);
	}
}

static void print_database(struct status *st, struct ctl *c)
{
	struct ras_db *db;
	struct stat sb;
	int64_t total = 0, newest = 0;
	char when[40];
	bool json = c->json, readable;

	/* ctl_open_db says why on stderr; the status is one JSON object either way. */
	c->json = false;
	readable = stat(c->cfg.database, &sb) == 0 && ctl_open_db(c, &db) == 0;
	c->json = json;

	if (st->json) {
		printf(",\"database\":{\"path\":");
		ctl_print_json_string(c->cfg.database, strlen(c->cfg.database));
		printf(",\"readable\":%s", readable ? "true" : "false");
	} else {
		printf("Database: %s", c->cfg.database);
	}
	if (!readable) {
		attention(st, "the database is not readable");
		printf(st->json ? "}" : " (not readable)\n");
		return;
	}
	if (st->json)
		printf(",\"bytes\":%lld", (long long)sb.st_size);
	else
		printf(" (%lld bytes)\n", (long long)sb.st_size);
	print_table_rows(st, db, &total, &newest);
	print_losses(st, db, total);
	ras_format_time(newest, when, sizeof(when));
	if (st->json && newest)
		printf(",\"last_record\":\"%s\"}", when);
	else if (st->json)
		printf(",\"last_record\":null}");
	else if (newest)
		printf("  last record %s\n", when);
	if (!st->json) {
		printf("  ");
		ctl_actions_counts(db, NULL, false);
	}
	print_last_crash(st, db);
	ras_db_close(db);
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

/* How long rasd's records waited to be durable (its histogram, in the state file). */
static void print_durability(struct status *st, const char *text)
{
	static const char *const keys[] = { "durable_p50_us", "durable_p99_us", "durable_max_us" };
	char v[64];
	double ms[3];
	long long n = strtoll(state_value(text, "durable_records", v, sizeof(v)), NULL, 10);

	if (n <= 0)
		return;
	for (int i = 0; i < 3; i++)
		ms[i] = (double)strtoll(state_value(text, keys[i], v, sizeof(v)), NULL, 10) / 1000.0;
	if (st->json)
		printf(",\"durability\":{\"records\":%lld,\"p50_ms\":%.1f,\"p99_ms\":%.1f,"
		       "\"max_ms\":%.1f}", n, ms[0], ms[1], ms[2]);
	else
		printf("Durable after arrival: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%lld records)\n",
		       ms[0], ms[1], ms[2], n);
}

/* What rasd last said about its storage, from the state file it writes beside its lock. */
static void print_storage(struct status *st, struct ctl *c, int pid)
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
		attention(st, "storage failing");
		ras_format_time(strtoll(state_value(text, "since_ns", v, sizeof(v)), NULL, 10), when,
				sizeof(when));
		if (st->json) {
			printf(",\"storage\":{\"state\":\"failing\",\"since\":\"%s\",\"reason\":", when);
			state_value(text, "reason", v, sizeof(v));
			ctl_print_json_string(v, strlen(v));
			printf(",\"held\":%lld}", strtoll(state_value(text, "waiting", v, sizeof(v)), NULL, 10));
		} else {
			printf("Storage: failing since %s: %s", when, state_value(text, "reason", v, sizeof(v)));
			printf(" (%s records held in memory)%s\n", state_value(text, "waiting", v, sizeof(v)),
			       pid ? "" : " [rasd not running: as it last reported]");
		}
	} else if (st->json) {
		printf(",\"storage\":{\"state\":\"working\"}");
	} else {
		printf("Storage: working\n");
	}
	print_durability(st, text);
	if (st->json) {
		free(text);
		free(buf);
		return;
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
	struct status *st = ctx;

	if (st->json) {
		printf("%s{\"condition\":", sep(st));
		ctl_print_json_string(condition, strlen(condition));
		printf(",\"advice\":");
		ctl_print_json_string(advice, strlen(advice));
		putchar('}');
		return;
	}
	if (!st->n_items++)
		printf("Conditions that can hide errors:\n");
	printf("  %s; %s\n", condition, advice);
}

static void print_attention(struct status *st)
{
	if (st->json)
		printf(",\"attention\":[");
	for (unsigned i = 0; i < st->n_attention; i++) {
		if (st->json)
			printf("%s\"%s\"", i ? "," : "", st->attention[i]);
		else
			printf("%s%s", i ? "; " : "Attention: ", st->attention[i]);
	}
	printf(st->json ? "]}\n" : st->n_attention ? ".\n" : "Attention: none.\n");
}

static const struct ctl_opt status_opts[] = {
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_status_spec = {
	.name = "status", .args = "", .opts = status_opts,
	.summary = "rasd, its instance, events, buffers and database; exit 3 when attention is needed",
	.more = "Exit status 3 (attention) when rasd is not running, its instance is absent, the\n"
		"database is not readable, records were lost in this boot, or the last boot ended\n"
		"in a crash no hardware error explains (ras-fdr-ctl crashes).\n",
};

static int status_opt(void *ctx, int key, const char *arg)
{
	struct status *st = ctx;

	(void)arg;
	st->json = key == 'j';
	return CTL_GO_ON;
}

int ctl_status(struct ctl *c, int argc, char **argv)
{
	struct status st = { 0 };
	int first, pid, r = ctl_parse(&ctl_status_spec, argc, argv, status_opt, &st, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("status", "unexpected argument '%s'", argv[first]);
	pid = daemon_pid(&c->cfg);
	if (!pid)
		attention(&st, "rasd is not running");
	if (st.json)
		printf("{\"version\":%d,\"rasd\":{\"running\":%s,\"pid\":%d}", CTL_JSON_VERSION,
		       pid ? "true" : "false", pid);
	else if (pid)
		printf("rasd: running (pid %d)\n", pid);
	else
		printf("rasd: not running\n");
	print_tracing(&st, c, pid != 0);
	if (st.json)
		printf(",\"hidden\":[");
	st.n_items = 0;
	hidden_conditions(c->cfg.sysfs_root, NULL,
			  c->cfg.tracing_dir[0] ? c->cfg.tracing_dir : "/sys/kernel/tracing",
			  print_hidden, &st);
	if (st.json)
		putchar(']');
	else if (!st.n_items)
		printf("Conditions that can hide errors: none found\n");
	print_storage(&st, c, pid);
	print_database(&st, c);
	print_attention(&st);
	return st.n_attention ? CTL_EXIT_ATTENTION : CTL_EXIT_OK;
}
