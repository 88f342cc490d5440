/* SPDX-License-Identifier: MIT */
/* The once-spill tests' fixture: see spill_fixture.h. */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include "db/db_actions.h"
#include "db/db_internal.h"
#include "spill_fixture.h"
#include "tap.h"

struct ras_subject page(unsigned i)
{
	struct ras_subject s = { .kind = RAS_SUBJ_PAGE, .n = 1, .have_addr = true, .cpu = -1 };

	s.addr = 0x100000000ULL + (uint64_t)i * 4096;
	snprintf(s.key, sizeof(s.key), "0x%llx", (unsigned long long)s.addr);
	return s;
}

static void count_key(void *ctx, uint64_t key)
{
	(void)key;
	(*(int *)ctx)++;
}

int spilled(struct ras_actions *a)
{
	int n = 0;

	return ras_db_once_spill_keys(a->dba, count_key, &n) < 0 ? -1 : n;
}

int spill_held(struct ras_actions *a)
{
	return (int)ras_once_seen_count(a->once) + spilled(a);
}

struct entry *spill_count(struct ras_actions *a, unsigned i, int64_t ns)
{
	struct ras_subject s = page(i);
	struct entry *e = actions_count_errors(a, &s, ns, COUNT_LIVE);

	if (e)
		e->b.level = 0;
	return e;
}

/* Batch k's records, the failing one only up to 70 % of it; its crossings. */
static int count_batch(struct spill_run *r, const unsigned *stream, unsigned len, unsigned k, bool fails)
{
	unsigned end = k * r->batch + (fails ? r->batch * 7 / 10 : r->batch);
	int crossed = 0;

	for (unsigned i = k * r->batch; i < end && i < len; i++)
		crossed += spill_count(r->a, stream[i], r->t0 + (int64_t)i * 1000000) != NULL;
	return crossed;
}

static void fail_batch(struct spill_run *r, unsigned k)
{
	spill_settle(r->a, r->db, &r->b);
	if (r->noted)
		r->noted(r, k, false);
	ras_db_rollback(r->db);
	ras_actions_rolled_back(r->a);
	if (r->noted)
		r->noted(r, k, true);
}

int spill_run_stream(struct spill_run *r, const unsigned *stream, unsigned len)
{
	for (unsigned k = 0; k * r->batch < len; k++) {
		int crossed;

		if (k < 32 && (r->fails & (1u << k))) {
			if (spill_begin(r->db) < 0)
				return -1;
			count_batch(r, stream, len, k, true);
			fail_batch(r, k);
		}
		if (spill_begin(r->db) < 0)
			return -1;
		crossed = count_batch(r, stream, len, k, false);
		if (spill_settle(r->a, r->db, &r->b) < 0 || spill_commit_behind(r->a, r->db, &r->b) < 0)
			return -1;
		r->crossed += crossed;
	}
	return spill_settle(r->a, r->db, &r->b);
}

/* Rows of one database's buckets not in the other's, both ways (every column but the label). */
int64_t buckets_differ(const char *dir, const char *x, const char *y)
{
	char path[700], sql[1800];
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int64_t n = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, x);
	snprintf(sql, sizeof(sql), "ATTACH '%s/%s' AS y", dir, y);
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	snprintf(sql, sizeof(sql),
		 "SELECT (SELECT count(*) FROM (SELECT kind, subject, level, last_ns, total FROM main.buckets"
		 " EXCEPT SELECT kind, subject, level, last_ns, total FROM y.buckets))"
		 " + (SELECT count(*) FROM (SELECT kind, subject, level, last_ns, total FROM y.buckets"
		 " EXCEPT SELECT kind, subject, level, last_ns, total FROM main.buckets))");
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
out:
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

int spill_open_actions(const char *dir, const char *name, const char *boot, const char *threshold,
		       bool behind, struct rasd_config *cfg, struct ras_db **db, struct ras_actions **a)
{
	char path[700], err[256] = "";

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rasd_config_defaults(cfg);
	snprintf(cfg->page_ce_action, sizeof(cfg->page_ce_action), "account");
	snprintf(cfg->page_ce_threshold, sizeof(cfg->page_ce_threshold), "%s", threshold);
	if (ras_db_open_writer(db, path, boot, err, sizeof(err)) < 0 ||
	    ras_actions_open(a, cfg, *db, NULL) < 0) {
		tap_diag("open %s: %s", path, err);
		return -1;
	}
	return behind ? ras_db_write_behind_start(*db) : 0;
}

void spill_close_actions(struct ras_db *db, struct ras_actions *a)
{
	ras_actions_close(a);
	ras_db_close(db);
}

int spill_open_held(const char *dir, const char *name, const char *boot, const char *threshold,
		    size_t held, bool behind, struct rasd_config *cfg, struct ras_db **db,
		    struct ras_actions **a)
{
	if (spill_open_actions(dir, name, boot, threshold, behind, cfg, db, a) < 0)
		return -1;
	if (!held)
		return 0;
	ras_once_seen_free((*a)->once);
	if (ras_once_seen_new(&(*a)->once, held) < 0)
		return -1;
	for (int k = 0; k < RAS_SUBJ_KINDS; k++)
		ras_once_seen_set_leak((*a)->once, (unsigned)k, actions_once_leak_ns(&(*a)->th[k]));
	return 0;
}

int spill_begin(struct ras_db *db)
{
	if (ras_db_begin(db) < 0)
		return -1;
	db->wb_engaged = db->wb != NULL;
	return 0;
}

int spill_commit_behind(struct ras_actions *a, struct ras_db *db, struct spill_behind *b)
{
	if (ras_actions_flush(a) < 0 || ras_db_commit_behind(db, &b->ticket) < 0)
		return -1;
	if (b->ticket)
		ras_actions_mark(a, &b->mark);
	else
		ras_actions_committed(a);
	return 0;
}

int spill_settle(struct ras_actions *a, struct ras_db *db, struct spill_behind *b)
{
	uint64_t ticket = b->ticket;

	b->ticket = 0;
	if (!ticket)
		return 0;
	if (ras_db_commit_wait(db, ticket) < 0)
		return -1;
	ras_actions_committed_to(a, &b->mark);
	return 0;
}
