/* SPDX-License-Identifier: MIT */
/*
 * Repeated decisions folded (schema step 13) and their roll-up: a stream of
 * decisions on a few subjects, some identical and consecutive, some not, some
 * that may never fold (an action performed), is stored through the writer
 * and checked against a model of what each row must hold; the roll-up that
 * status and metrics read must equal a full scan of the rows after every
 * commit, a rollback, a restart, a new boot, and an upgrade of a database
 * written before the step (its rows kept, each counting one). ras-fdr-ctl
 * actions, status and metrics must show the same numbers.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db_actions.h"
#include "rng.h"
#include "tap.h"
#include "test_util.h"

#define T0 1795000000000000000LL
#define SEC 1000000000LL

static char dir[256], path[512];

/* "action|result|decisions|rows;..." from the roll-up, or from a full scan of the rows. */
static void table_text(const char *sql, char *out, size_t len)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	size_t n = 0;

	out[0] = 0;
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(out, len, "(%s)", sqlite3_errmsg(h));
		sqlite3_close(h);
		return;
	}
	while (sqlite3_step(st) == SQLITE_ROW && n < len)
		n += (size_t)snprintf(out + n, len - n, "%s|%s|%lld|%lld;", sqlite3_column_text(st, 0),
				      sqlite3_column_text(st, 1), sqlite3_column_int64(st, 2),
				      sqlite3_column_int64(st, 3));
	sqlite3_finalize(st);
	sqlite3_close(h);
}

static bool rollup_equals_scan(const char *when)
{
	char rolled[2048], scanned[2048];

	table_text("SELECT action, result, decisions, nrows FROM rollup_actions WHERE nrows > 0"
		   " ORDER BY 1, 2", rolled, sizeof(rolled));
	table_text("SELECT action, result, sum(repeats), count(*) FROM actions GROUP BY 1, 2"
		   " ORDER BY 1, 2", scanned, sizeof(scanned));
	return tap_ok(rolled[0] && !strcmp(rolled, scanned), "%s: roll-up %s = full scan %s", when,
		      rolled, scanned);
}

/* What the rows must hold: the decisions stored and the rows they took. */
struct model {
	int64_t decisions, rows;
	char last[4][64];       /* per subject: "action/result" of its latest row */
};

struct variant {
	const char *action, *result;
	bool fold;              /* what ras_decision_foldable() (rasd/decision.c) says of it */
};

static const struct variant variants[] = {
	{ "account", "done", true }, { "soft", "dry-run", true }, { "soft", "rate-limited", true },
	{ "soft", "done", false }, { "soft", "failed", false },
};

/* One decision of variant v on subject s (0..3); 1 folded, 0 a new row, or -errno. */
static int one(struct ras_db_actions *dba, unsigned s, const struct variant *v, int64_t *t,
	       int64_t event_id)
{
	struct ras_db_action a = { .wall_ns = (*t += SEC), .count = 10, .event_id = event_id };

	snprintf(a.kind, sizeof(a.kind), "page");
	snprintf(a.subject, sizeof(a.subject), "0x%u000", s + 1);
	snprintf(a.threshold, sizeof(a.threshold), "10/1h");
	snprintf(a.action, sizeof(a.action), "%s", v->action);
	snprintf(a.result, sizeof(a.result), "%s", v->result);
	snprintf(a.event_table, sizeof(a.event_table), "mc_event");
	a.error = !strcmp(v->result, "failed") ? 16 : 0;
	return ras_db_action_insert(dba, &a, v->fold);
}

/* n decisions, mostly accounting, stored in the open transaction; decisions folded or -errno. */
static int store(struct ras_db_actions *dba, struct model *m, int n, uint64_t *seed, int64_t *t,
		 bool keep_model)
{
	int folded = 0;

	for (int i = 0; i < n; i++) {
		unsigned s = (unsigned)(rng_next(seed) % 4);
		const struct variant *v = &variants[rng_next(seed) % 8 < 6 ? 0 : rng_next(seed) % 5];
		char key[64];
		int r;

		if (s == 3)   /* one subject only ever accounted: long folds */
			v = &variants[0];
		r = one(dba, s, v, t, i + 1);
		if (r < 0)
			return r;
		folded += r;
		snprintf(key, sizeof(key), "%s/%s", v->action, v->result);
		if (!keep_model)
			continue;
		m->decisions++;
		/* Folds exactly when allowed and identical to the subject's latest row. */
		if (!(v->fold && !strcmp(m->last[s], key)))
			m->rows++;
		snprintf(m->last[s], sizeof(m->last[s]), "%s", key);
	}
	return folded;
}

static void check_model(const struct model *m, const char *when)
{
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM actions"), m->rows, "%s: %lld rows", when,
		   (long long)m->rows);
	tap_is_int(test_sql_int(path, "SELECT sum(repeats) FROM actions"), m->decisions,
		   "%s: %lld decisions", when, (long long)m->decisions);
	rollup_equals_scan(when);
}

struct sums {
	int64_t total;
};

static void add(void *ctx, const char *result, int64_t n)
{
	(void)result;
	((struct sums *)ctx)->total += n;
}

static void check_counts(struct ras_db *db, const struct model *m)
{
	struct sums all = { 0 }, win = { 0 };
	int64_t since = T0 + 200 * SEC;   /* in the middle of the stream */
	char sql[128];

	struct ras_db_action_window w = { .since_ns = since };
	struct sums until = { 0 }, typed = { 0 }, other = { 0 }, booted = { 0 };

	tap_is_int(ras_db_action_counts(db, NULL, add, &all), 0, "counts read");
	tap_is_int(all.total, m->decisions, "every decision counted from the roll-up");
	ras_db_action_counts(db, &w, add, &win);
	snprintf(sql, sizeof(sql), "SELECT sum(repeats) FROM actions WHERE last_ns >= %lld",
		 (long long)since);
	tap_ok(win.total > 0 && win.total < m->decisions && win.total == test_sql_int(path, sql),
	       "a window counts the rows last decided in it, with their repeats (%lld)",
	       (long long)win.total);
	/* The summary's --until, --type and --boot narrow the line too. */
	w = (struct ras_db_action_window){ .until_ns = since };
	ras_db_action_counts(db, &w, add, &until);
	tap_is_int(until.total + win.total, m->decisions, "--until: the rows last decided before it");
	w = (struct ras_db_action_window){ .event_table = "mc_event" };
	ras_db_action_counts(db, &w, add, &typed);
	w.event_table = "aer_event";
	ras_db_action_counts(db, &w, add, &other);
	tap_ok(typed.total == m->decisions && other.total == 0,
	       "--type: decisions on records of that type only (%lld, %lld)",
	       (long long)typed.total, (long long)other.total);
	w = (struct ras_db_action_window){ .boot_id = "boot-1" };
	ras_db_action_counts(db, &w, add, &booted);
	snprintf(sql, sizeof(sql), "SELECT coalesce(sum(repeats), 0) FROM actions WHERE boot ="
		 " (SELECT id FROM boots WHERE boot_id = 'boot-1')");
	tap_ok(booted.total > 0 && booted.total == test_sql_int(path, sql),
	       "--boot: decisions of that boot only (%lld)", (long long)booted.total);
}

static struct ras_db *open_writer(const char *boot, struct ras_db_actions **dba)
{
	struct ras_db *db = NULL;
	char err[512];

	if (ras_db_open_writer(&db, path, boot, err, sizeof(err)) < 0) {
		tap_ok(0, "open %s: %s", path, err);
		return NULL;
	}
	if (ras_db_actions_open(db, dba) < 0) {
		ras_db_close(db);
		return NULL;
	}
	return db;
}

static void close_writer(struct ras_db *db, struct ras_db_actions *dba)
{
	ras_db_actions_close(dba);
	ras_db_close(db);
}

/* The stream, a rollback, a restart in the same boot and a new boot. */
static void test_stream(struct model *m, int64_t *t)
{
	struct ras_db_actions *dba;
	struct ras_db *db = open_writer("boot-1", &dba);
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int folded = 0;

	if (!db)
		return;
	for (int batch = 0; batch < 4; batch++) {
		folded += store(dba, m, 100, &seed, t, true);
		ras_db_commit(db);
	}
	tap_ok(folded > 200, "%d of 400 decisions folded", folded);
	check_model(m, "after 4 commits");
	check_counts(db, m);
	/* A rolled-back batch leaves neither rows nor counts behind. */
	store(dba, m, 50, &seed, t, false);
	ras_db_rollback(db);
	check_model(m, "after a rollback");
	close_writer(db, dba);

	/* A restart in the same boot goes on folding into the same rows. */
	db = open_writer("boot-1", &dba);
	if (!db)
		return;
	tap_is_int(one(dba, 3, &variants[0], t, 1000), 1, "after a restart an identical decision"
		   " folds into the subject's row");
	/* An action performed never folds, even identical to the row before. */
	tap_is_int(one(dba, 2, &variants[3], t, 1001), 0, "an action performed: a row of its own");
	tap_is_int(one(dba, 2, &variants[3], t, 1002), 0, "and the next one too");
	ras_db_commit(db);
	m->decisions += 3;
	m->rows += 2;
	check_model(m, "after a restart");
	close_writer(db, dba);

	/* A new boot starts new rows. */
	db = open_writer("boot-2", &dba);
	if (!db)
		return;
	tap_is_int(one(dba, 3, &variants[0], t, 1003), 0, "a new boot starts a new row");
	ras_db_commit(db);
	m->rows++;
	m->decisions++;
	check_model(m, "after a new boot");
	check_counts(db, m);
	close_writer(db, dba);
}

/* A database as schema 12 left it: the step-13 columns, index, table and triggers gone (and step 17's). */
static void downgrade(void)
{
	static const char sql[] =
		"DROP TRIGGER actions_growth;"
		"DROP TRIGGER actions_rollup_insert; DROP TRIGGER actions_last_fill;"
		"DROP TRIGGER actions_rollup_update; DROP TRIGGER actions_rollup_delete;"
		"DROP TABLE rollup_actions; DROP INDEX actions_last; DROP INDEX actions_subject;"
		"DELETE FROM actions;"
		"ALTER TABLE actions DROP COLUMN repeats; ALTER TABLE actions DROP COLUMN last_ns;"
		"ALTER TABLE actions DROP COLUMN last_event_id;"
		"CREATE INDEX actions_time ON actions (wall_ns);"
		"INSERT INTO actions (boot, wall_ns, kind, subject, count, threshold, action, target,"
		" result, synthetic, event_table, event_id) VALUES"
		" (1, 1795000000000000000, 'dimm', 'mc0 0:3:-1', 6, '6/1h', 'account', '', 'done', 0,"
		"  'mc_event', 7),"
		" (1, 1795000001000000000, 'dimm', 'mc0 0:3:-1', 6, '6/1h', 'account', '', 'done', 0,"
		"  'mc_event', 8),"
		" (1, 1795000002000000000, 'page', '0x1000', 3, '3/1h', 'soft', 'x', 'done', 0,"
		"  'mc_event', 9);"
		"PRAGMA user_version = 12;";
	sqlite3 *h;

	tap_is_int(sqlite3_open(path, &h) == SQLITE_OK ? sqlite3_exec(h, sql, NULL, NULL, NULL) : -1,
		   SQLITE_OK, "a schema-12 database with three decisions, two of them identical");
	sqlite3_close(h);
}

static void test_upgrade(void)
{
	struct ras_db_actions *dba;
	struct ras_db *db;
	struct ras_db_action a = { .wall_ns = T0 + 9 * SEC, .count = 6, .event_id = 12 };
	struct model m = { .decisions = 3, .rows = 3 };
	sqlite3 *h;

	downgrade();
	db = open_writer("boot-1", &dba);
	if (!db)
		return;
	check_model(&m, "upgraded from schema 12: every row kept, counting one");
	tap_is_int(test_sql_int(path, "SELECT count(*) FROM actions WHERE repeats = 1 AND"
				" last_ns = wall_ns AND last_event_id = event_id"), 3,
		   "old rows: first and last are the same decision");
	snprintf(a.kind, sizeof(a.kind), "dimm");
	snprintf(a.subject, sizeof(a.subject), "mc0 0:3:-1");
	snprintf(a.threshold, sizeof(a.threshold), "6/1h");
	snprintf(a.action, sizeof(a.action), "account");
	snprintf(a.result, sizeof(a.result), "done");
	snprintf(a.event_table, sizeof(a.event_table), "mc_event");
	tap_is_int(ras_db_action_insert(dba, &a, true), 1, "a new identical decision folds into the"
		   " latest old row");
	ras_db_commit(db);
	m.decisions++;
	check_model(&m, "after the upgrade");
	tap_is_int(test_sql_int(path, "SELECT repeats FROM actions WHERE event_id = 8"
				" AND last_event_id = 12"), 2, "the row names its last record");
	close_writer(db, dba);

	/* The step run again on a database that has it (version set back) changes nothing. */
	sqlite3_open(path, &h);
	sqlite3_exec(h, "PRAGMA user_version = 12", NULL, NULL, NULL);
	sqlite3_close(h);
	db = open_writer("boot-1", &dba);
	if (!db)
		return;
	check_model(&m, "the step run again");
	tap_is_int(test_sql_int(path, "SELECT repeats FROM actions WHERE event_id = 8"
				" AND last_event_id = 12"), 2, "the folded row kept its repeats and last record");
	close_writer(db, dba);
}

/* ras-fdr-ctl's output, into buf. */
static void ctl(char *buf, size_t len, const char *a1, const char *a2)
{
	char bin[1024], log[600];
	char *argv[] = { bin, "--config", "/dev/null", "--db", path, (char *)a1, (char *)a2, NULL };
	FILE *f;
	size_t n = 0;

	snprintf(bin, sizeof(bin), "%s/ctl/ras-fdr-ctl", test_builddir());
	snprintf(log, sizeof(log), "%s/ctl.out", dir);
	test_run(argv, log);
	buf[0] = 0;
	if ((f = fopen(log, "re"))) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = 0;
}

static void test_ctl(void)
{
	static char out[1 << 16];
	char want[256];

	ctl(out, sizeof(out), "actions", "--json");
	tap_ok(strstr(out, "\"event_id\":8,\"repeats\":2,\"first_time\":\"2026-11-18T") &&
	       strstr(out, "\"last_event_id\":12}"), "actions --json: repeats, first and last");
	ctl(out, sizeof(out), "actions", NULL);
	tap_ok(strstr(out, "REPEATS") && strstr(out, " decided 2 times, first 2026-11-18T") &&
	       strstr(out, "(mc_event row 12)"), "actions: repeats, first and last");
	ctl(out, sizeof(out), "status", NULL);
	snprintf(want, sizeof(want), "Actions: %lld decided (done %lld)",
		 (long long)test_sql_int(path, "SELECT sum(repeats) FROM actions"),
		 (long long)test_sql_int(path, "SELECT sum(repeats) FROM actions"));
	tap_ok(strstr(out, want) != NULL, "status: '%s'", want);
	ctl(out, sizeof(out), "metrics", NULL);
	snprintf(want, sizeof(want), "ras_fdr_actions_total{action=\"account\",result=\"done\"} %lld",
		 (long long)test_sql_int(path, "SELECT sum(repeats) FROM actions WHERE action = 'account'"));
	tap_ok(strstr(out, want) != NULL, "metrics: '%s'", want);
}

int main(void)
{
	struct model m = { 0 };
	int64_t t = T0;

	if (test_tmpdir(dir, sizeof(dir)) < 0)
		return 1;
	snprintf(path, sizeof(path), "%s/fold.db", dir);
	test_stream(&m, &t);
	test_upgrade();
	test_ctl();
	test_rmtree(dir);
	return tap_done();
}
