/* SPDX-License-Identifier: MIT */
/* The refused-commit tests' fixture: see fold_fail_fixture.h. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "db/db_internal.h"
#include "fold_fail_fixture.h"
#include "lib/decode.h"
#include "tap.h"
#include "writer_fixture.h"

static struct ras_decode_ctx dctx;   /* all zero: as ras_decode_ctx_init leaves it */

int insert_record(struct ras_db *db, struct test_mc_rec r, unsigned i, int64_t wall_ns,
		  const struct ras_db_limits *limits)
{
	struct ras_db_event ev = {
		.wall_ns = wall_ns, .trace_ts = i, .source = "live", .rec_hash = i, .limits = limits,
	};

	r.address = 0x4000 + 0x40 * (int64_t)i;
	return test_mc_insert(db, &dctx, &r, ev);
}

int insert_dimm_record(struct ras_db *db, unsigned dimm, unsigned i, int64_t wall_ns,
		       const struct ras_db_limits *limits)
{
	char label[32];
	struct test_mc_rec r = {
		.error_count = 1 + dimm % 3, .mc_index = dimm / 8, .top_layer = dimm % 8,
		.syndrome = dimm % 5, .label = label,
	};

	snprintf(label, sizeof(label), "DIMM_%u_%u", dimm / 8, dimm % 8);
	return insert_record(db, r, i, wall_ns, limits);
}

int store_batch(struct ras_db *db, const struct batches *s, unsigned b)
{
	unsigned len = s->len ? s->len(s->ctx, b) : s->size;
	int r = ras_db_begin(db);

	for (unsigned j = 0; j < len && r >= 0; j++)
		r = s->insert(db, s->ctx, b, j) == 1 ? 0 : -1;
	return r < 0 ? r : ras_db_commit(db);
}

int store_from(struct ras_db *db, const struct batches *s, unsigned first)
{
	int r = 0;

	for (unsigned b = first; b < s->n && r == 0; b++)
		if ((r = store_batch(db, s, b)) < 0)
			tap_diag("batch %u: %s", b, ras_db_errmsg(db));
	return r;
}

int store_db(const char *path, bool behind, const struct batches *s)
{
	struct ras_db *db = open_db(path, behind);
	int r = 0;

	if (!db)
		return -1;
	for (unsigned b = 0; b < s->n && r == 0; b++)
		if (!s->left_out || !s->left_out(s->ctx, b))
			r = store_batch(db, s, b);
	ras_db_close(db);
	return r;
}

int exec_sql(const char *path, const char *sql)
{
	sqlite3 *h;
	int r = sqlite3_open(path, &h) == SQLITE_OK ? sqlite3_exec(h, sql, NULL, NULL, NULL) : SQLITE_ERROR;

	sqlite3_close(h);
	return r == SQLITE_OK ? 0 : -1;
}

int poison_make(const char *path, const char *when, const char *words)
{
	char sql[1024];

	snprintf(sql, sizeof(sql), "CREATE TRIGGER poison %s BEGIN SELECT RAISE(ABORT, '%s'); END", when, words);
	return exec_sql(path, sql);
}

int poison_drop(const char *path)
{
	return exec_sql(path, "DROP TRIGGER poison");
}

void sql_text(const char *path, const char *sql, char *out, size_t len)
{
	sqlite3 *h;
	sqlite3_stmt *st;

	*out = 0;
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
}

int64_t raw_plus_folded(const char *path)
{
	return test_sql_int(path, "SELECT (SELECT count(*) FROM mc_event) + (SELECT sum(records) FROM folds)");
}

int64_t integrity_ok(const char *path)
{
	return test_sql_int(path, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'");
}

static struct trace_seen seen;
static const char *seen_head;

static int note_stmt(unsigned type, void *ctx, void *p, void *x)
{
	const char *sql = sqlite3_sql(p);
	unsigned rows = 0;

	(void)type, (void)ctx;
	if (!sql)
		return 0;
	/* The trigger's program starting (x "-- TRIGGER poison"): a row tried, in the statement refused if the last. */
	if (!strncmp(x, "-- TRIGGER poison", 17)) {
		snprintf(seen.refused, sizeof(seen.refused), "%s", sql);
		__atomic_add_fetch(&seen.tried, 1, __ATOMIC_RELAXED);
		return 0;
	}
	if (!strncmp(x, "--", 2))
		return 0;
	if (!strncmp(sql, seen_head, strlen(seen_head))) {
		/* A "(" a row after the columns' own. */
		for (const char *c = strchr(sql, '(') + 1; (c = strchr(c, '(')); c++)
			rows++;
		__atomic_store_n(&seen.last_rows, rows, __ATOMIC_RELAXED);
		__atomic_add_fetch(&seen.inserts, 1, __ATOMIC_RELAXED);
	} else if (!strncmp(sql, "UPDATE folds SET", 16) && strstr(sql, "?30")) {
		__atomic_add_fetch(strstr(sql, "substr(times") ? &seen.known : &seen.whole, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

void trace_start(struct ras_db *db, const char *head)
{
	memset(&seen, 0, sizeof(seen));
	seen_head = head;
	sqlite3_trace_v2(db->h, SQLITE_TRACE_STMT, note_stmt, NULL);
}

void trace_stop(struct ras_db *db)
{
	sqlite3_trace_v2(db->h, 0, NULL, NULL);
}

struct trace_seen traced(void)
{
	struct trace_seen t = seen;

	t.tried = __atomic_load_n(&seen.tried, __ATOMIC_RELAXED);
	t.inserts = __atomic_load_n(&seen.inserts, __ATOMIC_RELAXED);
	t.last_rows = __atomic_load_n(&seen.last_rows, __ATOMIC_RELAXED);
	t.whole = __atomic_load_n(&seen.whole, __ATOMIC_RELAXED);
	t.known = __atomic_load_n(&seen.known, __ATOMIC_RELAXED);
	return t;
}
