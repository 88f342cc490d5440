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
#include "db/db_export.h"
#include "db/db_parts.h"
#include "lastwords/cause.h"
#include "lib/formats.h"
#include "lib/rasd_state.h"
#include "lib/hidden.h"
#include "lib/clock.h"
#include "lib/tracing.h"

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
	const char *attention[12];
	struct ras_rasd_state rasd;   /* the state file, judged against the lock */
	struct ras_rasd_ack ack;      /* what ras-fdr-ctl ack acknowledged */
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

/* The system the kernel has an event under (its alternative name, or NULL when it has neither). */
static const char *kernel_system(const char *tracing_dir, const struct ras_event_type *t)
{
	const char *systems[2] = { t->system, t->alt_system };
	char path[PATH_MAX];

	for (int i = 0; i < 2 && systems[i]; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s", tracing_dir, systems[i], t->event);
		if (access(path, F_OK) == 0)
			return systems[i];
	}
	return NULL;
}

/*
 * An enabled type with keep terms: filtered in the kernel, or (the filter
 * file says none: refused, or cleared) by rasd on every record.
 */
static const char *filter_state(const char *instance_dir, const char *sys, const struct ras_event_type *t)
{
	char path[PATH_MAX], *buf;
	bool kernel = false;

	if (!t->keep)
		return NULL;
	snprintf(path, sizeof(path), "%s/events/%s/%s/filter", instance_dir, sys, t->event);
	if (ras_read_file(path, &buf, NULL) == 0) {
		kernel = strncmp(buf, "none", 4) != 0;
		free(buf);
	}
	return kernel ? "kernel" : "rasd";
}

static void print_events(struct status *st, const char *tracing_dir, const char *instance_dir)
{
	static const char *const words[] = { "absent from this kernel", "present, not enabled", "enabled" };
	static const char *const keys[] = { "absent", "present", "enabled" };

	printf(st->json ? ",\"events\":[" : "Events:\n");
	st->n_items = 0;
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];
		const char *sys = kernel_system(tracing_dir, t), *filter = NULL, *instead = NULL;
		const struct ras_event_type *o = t->fallback_for ? ras_event_type_find(t->fallback_for) : NULL;
		int state = !sys ? 0 : event_enabled(instance_dir, sys, t->event) ? 2 : 1;

		if (state == 2)
			filter = filter_state(instance_dir, sys, t);
		/* A stand-in is not enabled where what it stands in for is there. */
		if (state == 1 && o && kernel_system(tracing_dir, o))
			instead = o->table;
		if (st->json) {
			printf("%s{\"type\":\"%s\",\"state\":\"%s\"", sep(st), t->table, keys[state]);
			if (filter)
				printf(",\"filter\":\"%s\"", filter);
			if (instead)
				printf(",\"instead\":\"%s\"", instead);
			putchar('}');
			continue;
		}
		printf("  %-40s %s", t->table, words[state]);
		if (filter)
			printf(", %s", !strcmp(filter, "kernel") ? "filtered in the kernel" :
			       "no kernel filter: rasd keeps what it would have kept");
		if (instead)
			printf(": %s records these", instead);
		putchar('\n');
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

/*
 * Every loss by origin (db_query.h ras_db_losses), this boot's, and those
 * stored since the last ras-fdr-ctl ack: they alone need attention.
 */
static void print_losses(struct status *st, struct ras_db *db, const char *db_id, int64_t total)
{
	struct ras_db_filter f = { .type_idx = -1, .include_synthetic = true };
	struct ras_db_losses all, boot = { 0 }, fresh = { 0 };
	int64_t malformed = ras_db_counter(db, "malformed_records");
	int64_t refused = ras_db_counter(db, "synthetic_refused");
	/* An acknowledgement holds for the database it was made on. */
	int64_t acked = st->ack.present && !strcmp(st->ack.database_id, db_id) ? st->ack.lost_id : 0;
	char boot_id[64];

	ras_db_losses(db, &f, 0, &all);
	if (ras_boot_id(boot_id, sizeof(boot_id)) == 0) {
		f.boot_id = boot_id;
		ras_db_losses(db, &f, 0, &boot);
		ras_db_losses(db, &f, acked, &fresh);
	}
	if (fresh.records || fresh.gaps)
		attention(st, "records lost in this boot (ras-fdr-ctl ack acknowledges them)");
	if (st->json) {
		printf(",\"total\":%lld,\"lost\":%lld,\"lost_unknown_gaps\":%lld,\"lost_this_boot\":%lld,"
		       "\"lost_unknown_gaps_this_boot\":%lld,\"lost_unacknowledged\":%lld,"
		       "\"lost_unknown_gaps_unacknowledged\":%lld,", (long long)total,
		       (long long)all.records, (long long)all.gaps, (long long)boot.records,
		       (long long)boot.gaps, (long long)fresh.records, (long long)fresh.gaps);
		ctl_print_losses(&all, true);
		printf(",\"malformed\":%lld,\"synthetic_refused\":%lld", (long long)malformed,
		       (long long)refused);
		return;
	}
	printf("  total %lld rows; lost %lld records, %lld gaps of unknown size (this boot: %lld, "
	       "%lld; not acknowledged: %lld, %lld); malformed %lld; synthetic refused %lld\n",
	       (long long)total, (long long)all.records, (long long)all.gaps, (long long)boot.records,
	       (long long)boot.gaps, (long long)fresh.records, (long long)fresh.gaps,
	       (long long)malformed, (long long)refused);
	printf("  lost by origin: ");
	ctl_print_losses(&all, false);
	putchar('\n');
}

/* What rasd's last crash (a rasd that died with records read and not stored) cost. */
static void print_rasd_crash(struct status *st, struct ras_db *db)
{
	int64_t records, at;
	char when[40];

	if (ras_db_last_crash(db, &records, &at) < 0 || !at) {
		if (st->json)
			printf(",\"last_crash\":null");
		return;
	}
	ras_format_time(at, when, sizeof(when));
	if (st->json)
		printf(",\"last_crash\":{\"counted\":\"%s\",\"records\":%lld}", when, (long long)records);
	else
		printf("  the last crash (counted at %s) cost %lld records\n", when, (long long)records);
}

/* A database rasd found replaced (removed, moved aside, another put in its place). */
static void print_replaced(struct status *st)
{
	char when[40];

	if (!st->rasd.replaced_ns) {
		if (st->json)
			printf(",\"replaced\":null");
		return;
	}
	ras_format_time(st->rasd.replaced_ns, when, sizeof(when));
	if (st->rasd.replaced_ns > st->ack.replaced_ns)
		attention(st, "the database was replaced (ras-fdr-ctl ack acknowledges it)");
	if (st->json) {
		printf(",\"replaced\":{\"at\":\"%s\",\"was\":", when);
		ctl_print_json_string(st->rasd.replaced_from, strlen(st->rasd.replaced_from));
		printf(",\"acknowledged\":%s,\"moved_log\":",
		       st->rasd.replaced_ns > st->ack.replaced_ns ? "false" : "true");
		if (st->rasd.moved_log[0])
			ctl_print_json_string(st->rasd.moved_log, strlen(st->rasd.moved_log));
		else
			printf("null");
		printf("}");
	} else {
		printf("  replaced at %s: rasd records into another database than before (it was %s)%s\n",
		       when, st->rasd.replaced_from[0] ? st->rasd.replaced_from : "unknown",
		       st->rasd.replaced_ns > st->ack.replaced_ns ? "" : "; acknowledged");
		if (st->rasd.moved_log[0])
			printf("  the replaced database's log, with records not copied into it, is kept as %s:"
			       " put it back beside that file as its -wal\n", ctl_text(st->rasd.moved_log));
	}
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
		printf(",\"last_boot_crash\":{\"id\":%lld,\"cause\":", (long long)l.id);
		ctl_print_json_string(l.cause, strlen(l.cause));
		printf(",\"explained\":%s,\"reason\":", l.explained ? "true" : "false");
		ctl_print_json_string(l.reason, strlen(l.reason));
		putchar('}');
	} else if (l.found) {
		printf("Last boot: ended in a crash (%s), %s; see ras-fdr-ctl crashes show %lld\n",
		       ctl_text(l.cause),
		       l.explained ? "explained by a hardware error" : "no hardware error explains it",
		       (long long)l.id);
	}
}

/* The file and its write-ahead log: what the database takes on disk. */
static long long file_size(const char *path, const char *suffix)
{
	char p[PATH_MAX + 8];
	struct stat sb;

	snprintf(p, sizeof(p), "%s%s", path, suffix);
	return stat(p, &sb) == 0 ? (long long)sb.st_size : 0;
}

static void print_database(struct status *st, struct ctl *c)
{
	struct ras_db *db;
	struct stat sb;
	int64_t total = 0, newest = 0;
	long long bytes, wal;
	char when[40], id[48] = "";
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
	bytes = file_size(c->cfg.database, "");
	wal = file_size(c->cfg.database, "-wal");
	ras_db_identity(db, id, sizeof(id));
	if (st->json) {
		printf(",\"id\":");
		ctl_print_json_string(id, strlen(id));
		printf(",\"bytes\":%lld,\"wal_bytes\":%lld", bytes + wal, wal);
	} else {
		printf(" (%lld bytes, %lld of them its write-ahead log)%s%s\n", bytes + wal, wal,
		       id[0] ? ", identity " : "", id);
	}
	print_table_rows(st, db, &total, &newest);
	print_losses(st, db, id, total);
	print_rasd_crash(st, db);
	print_replaced(st);
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

/* How long rasd's records waited to be durable (its histogram, in the state file). */
static void print_durability(struct status *st)
{
	const struct ras_rasd_state *r = &st->rasd;

	if (r->durable_records <= 0)
		return;
	if (st->json)
		printf(",\"durability\":{\"records\":%lld,\"p50_ms\":%.1f,\"p99_ms\":%.1f,"
		       "\"max_ms\":%.1f}", r->durable_records, r->durable_p50_us / 1000.0,
		       r->durable_p99_us / 1000.0, r->durable_max_us / 1000.0);
	else
		printf("Durable after arrival: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%lld records)\n",
		       r->durable_p50_us / 1000.0, r->durable_p99_us / 1000.0,
		       r->durable_max_us / 1000.0, r->durable_records);
}

/*
 * The storage state the state file gives, believed only from the rasd that
 * holds the lock: after a kill the file is history, and says so.
 */
static const char *storage_state(const struct ras_rasd_state *r)
{
	if (!r->present)
		return "unknown";
	if (r->alive)
		return r->failing ? "failing" : "working";
	if (r->stopped)
		return "stopped";
	return r->killed ? "killed" : "unknown";
}

static void print_storage_json(struct status *st, const char *state)
{
	const struct ras_rasd_state *r = &st->rasd;
	char when[40];

	printf(",\"storage\":{\"state\":\"%s\"", state);
	ras_format_time(r->failing ? r->since_ns : r->stop_ns, when, sizeof(when));
	if (!strcmp(state, "failing") || (!strcmp(state, "stopped") && r->stop_ns))
		printf(",\"since\":\"%s\"", when);
	else
		printf(",\"since\":null");
	printf(",\"reason\":");
	if (!strcmp(state, "failing"))
		ctl_print_json_string(r->reason, strlen(r->reason));
	else if (!strcmp(state, "stopped") && r->exit_reason[0])
		ctl_print_json_string(r->exit_reason, strlen(r->exit_reason));
	else
		printf("null");
	printf(",\"pid\":%ld,\"held\":%lld,\"unstored\":%lld,\"database\":", r->pid,
	       (long long)r->waiting, (long long)r->unstored);
	ctl_print_json_string(r->database, strlen(r->database));
	putchar('}');
}

static void print_storage_text(struct status *st, struct ctl *c, const char *state)
{
	const struct ras_rasd_state *r = &st->rasd;
	char when[40];

	if (!strcmp(state, "failing")) {
		ras_format_time(r->since_ns, when, sizeof(when));
		printf("Storage: failing since %s: %s (%llu records held in memory)\n", when, ctl_text(r->reason),
		       (unsigned long long)r->waiting);
	} else if (!strcmp(state, "working")) {
		printf("Storage: working\n");
	} else if (!strcmp(state, "stopped")) {
		ras_format_time(r->stop_ns, when, sizeof(when));
		printf("Storage: rasd (pid %ld) stopped at %s%s%s\n", r->pid, when,
		       r->exit_reason[0] ? ": " : "", ctl_text(r->exit_reason));
	} else if (!strcmp(state, "killed")) {
		printf("Storage: unknown: rasd (pid %ld) ended without stopping (killed?); its last "
		       "report is history\n", r->pid);
	} else if (r->present) {
		printf("Storage: unknown: the state file is not from a running rasd\n");
	}
	if (r->unstored)
		printf("Storage: %llu records read by a stopped rasd could not be stored; "
		       "they are counted as lost at its next start\n", (unsigned long long)r->unstored);
	if (r->database[0] && strcmp(r->database, c->cfg.database))
		printf("Storage: rasd records into %s (the configured file was left alone)\n", r->database);
}

/*
 * What rasd refused to run or write because its path failed the rule of
 * lib/safe_path.h (a trigger, trigger_dir, the metrics textfile): one
 * "refused=WHAT: WHY" line each in its state file, believed only from the
 * rasd holding the lock. Any is attention.
 */
static void print_refusals(struct status *st)
{
	const char *p = st->rasd.refused;
	unsigned n = 0;

	if (!st->rasd.alive)
		return;
	for (; *p; p += strcspn(p, "\n") + 1) {
		int len = (int)strcspn(p, "\n");

		if (!n++)
			attention(st, "rasd refused an unsafe path");
		if (st->json) {
			printf("%s", n == 1 ? ",\"refused\":[" : ",");
			ctl_print_json_string(p, (size_t)len);
		} else {
			printf("Refused: %.*s\n", len, p);
		}
	}
	if (st->json && n)
		putchar(']');
}

/*
 * Whether rasd tells the BMC (bmc_sel = yes, rasd/bmc_sel.h): the IPMI device
 * and its counts, or why there is none, which is attention: the operator asked.
 */
static void print_bmc_sel(struct status *st)
{
	const char *v = st->rasd.bmc_sel;

	if (!st->rasd.alive || !v[0] || !strcmp(v, "off"))
		return;
	if (!strncmp(v, "no IPMI device", 14) || !strncmp(v, "cannot open", 11))
		attention(st, "no IPMI device for bmc_sel");
	if (st->json) {
		printf(",\"bmc_sel\":");
		ctl_print_json_string(v, strlen(v));
	} else {
		printf("BMC SEL: %s\n", v);
	}
}

/* What rasd last said about its storage, from the state file it writes beside its lock. */
static void print_storage(struct status *st, struct ctl *c)
{
	const char *state = storage_state(&st->rasd);

	if (!strcmp(state, "failing"))
		attention(st, "storage failing");
	if (!strcmp(state, "stopped") && st->rasd.exit_reason[0])
		attention(st, "rasd stopped on an error");
	if (st->json)
		print_storage_json(st, state);
	else if (st->rasd.present)
		print_storage_text(st, c, state);
	print_durability(st);
	print_refusals(st);
	print_bmc_sel(st);
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

/* The diagnosis's verdicts (ras-fdr-ctl health): a part to replace needs attention. */
struct part_counts {
	unsigned replace, watch, ok;
	char first[160];              /* the first parts to replace, named */
};

static int count_part(void *ctx, const struct ras_db_part *p)
{
	struct part_counts *pc = ctx;
	size_t n = strlen(pc->first);

	if (!strcmp(p->verdict, "replace")) {
		if (pc->replace++ < 3 && n < sizeof(pc->first))
			snprintf(pc->first + n, sizeof(pc->first) - n, "%s%s %s", n ? ", " : "", p->kind,
				 p->part);
	} else if (!strcmp(p->verdict, "watch")) {
		pc->watch++;
	} else {
		pc->ok++;
	}
	return 0;
}

static void print_parts(struct status *st, struct ctl *c)
{
	struct part_counts pc = { .first = "" };
	struct ras_db *db;
	bool json = c->json;
	int r;

	c->json = false;
	r = ctl_open_db(c, &db);
	c->json = json;
	if (r < 0)
		return;
	r = ras_db_part_list(db, false, false, count_part, &pc);
	ras_db_close(db);
	if (r < 0)
		return;
	if (pc.replace)
		attention(st, "parts to replace");
	if (st->json)
		printf(",\"parts\":{\"replace\":%u,\"watch\":%u,\"ok\":%u}", pc.replace, pc.watch, pc.ok);
	else if (pc.replace + pc.watch + pc.ok)
		printf("Parts: %u to replace%s%s%s, %u to watch, %u ok; see ras-fdr-ctl health.\n",
		       pc.replace, pc.replace ? " (" : "", pc.first,
		       pc.replace > 3 ? ", ...)" : pc.replace ? ")" : "", pc.watch, pc.ok);
	else
		printf("Parts: none with errors.\n");
}

static const struct ctl_opt status_opts[] = {
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_status_spec = {
	.name = "status", .args = "", .opts = status_opts,
	.summary = "rasd, its instance, events, buffers and database; exit 3 when attention is needed",
	.more = "Exit status 3 (attention) when rasd is not running, its instance is absent, its\n"
		"storage fails, it stopped on an error, the database is not readable, records were\n"
		"lost in this boot or the database replaced since the last ras-fdr-ctl ack, the\n"
		"last boot ended in a crash no hardware error explains (ras-fdr-ctl crashes), rasd\n"
		"refused a trigger or file whose path others could change (\"Refused:\" lines), or a\n"
		"part is to be replaced (ras-fdr-ctl health).\n",
};

static int status_opt(void *ctx, int key, const char *arg)
{
	struct status *st = ctx;

	(void)arg;
	st->json = key == 'j';
	return CTL_GO_ON;
}

static void print_rasd(struct status *st)
{
	const struct ras_rasd_state *r = &st->rasd;
	char when[40];

	ras_format_time(r->start_ns, when, sizeof(when));
	if (st->json) {
		printf("{\"version\":%d,\"rasd\":{\"running\":%s,\"pid\":%d,\"started\":", CTL_JSON_VERSION,
		       r->lock_pid ? "true" : "false", r->lock_pid);
		if (r->alive && r->start_ns)
			printf("\"%s\"}", when);
		else
			printf("null}");
	} else if (r->lock_pid) {
		printf("rasd: running (pid %d)%s%s\n", r->lock_pid, r->alive && r->start_ns ? " since " : "",
		       r->alive && r->start_ns ? when : "");
	} else {
		printf("rasd: not running\n");
	}
}

int ctl_status(struct ctl *c, int argc, char **argv)
{
	struct status *st = calloc(1, sizeof(*st));
	int first, r;

	if (!st)
		return 1;
	r = ctl_parse(&ctl_status_spec, argc, argv, status_opt, st, &first);
	if (r == CTL_GO_ON && first < argc)
		r = ctl_usage_error("status", "unexpected argument '%s'", argv[first]);
	if (r != CTL_GO_ON) {
		free(st);
		return r;
	}
	ras_rasd_state_read(c->cfg.lock_dir, c->cfg.instance, &st->rasd);
	ras_rasd_ack_read(c->cfg.lock_dir, c->cfg.instance, &st->ack);
	if (!st->rasd.lock_pid)
		attention(st, "rasd is not running");
	print_rasd(st);
	print_tracing(st, c, st->rasd.lock_pid != 0);
	if (st->json)
		printf(",\"hidden\":[");
	st->n_items = 0;
	hidden_conditions(c->cfg.sysfs_root, NULL,
			  c->cfg.tracing_dir[0] ? c->cfg.tracing_dir : "/sys/kernel/tracing",
			  print_hidden, st);
	if (st->json)
		putchar(']');
	else if (!st->n_items)
		printf("Conditions that can hide errors: none found\n");
	print_storage(st, c);
	print_database(st, c);
	print_parts(st, c);
	print_attention(st);
	r = st->n_attention ? CTL_EXIT_ATTENTION : CTL_EXIT_OK;
	free(st);
	return r;
}
