/* SPDX-License-Identifier: MIT */
/* The once-spill tests' fixture: see spill_fixture.h. */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include "db/db_actions.h"
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
