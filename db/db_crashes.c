/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zlib.h>
#include "db_crashes.h"
#include "db_internal.h"

#define HOUR_NS (3600LL * 1000000000)

static int prepare(struct ras_db *db, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	return 0;
}

/* Steps a one-integer query: 1 and *out when a row came, 0 when none, -EIO. */
static int one_int(sqlite3_stmt *st, int64_t *out)
{
	int r = sqlite3_step(st);

	if (r == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return r == SQLITE_ROW ? 1 : r == SQLITE_DONE ? 0 : -EIO;
}

static const char *mce_table(void)
{
	const struct ras_event_type *t = ras_event_type_find("mce:mce_record");

	return t ? t->table : "mce_record";
}

/* The row standing for the boot before this one, never seen by rasd: "before:<this boot id>". */
static int unseen_boot(struct ras_db *db, int64_t *boot)
{
	static const char add[] = "INSERT OR IGNORE INTO boots (boot_id, first_seen_ns)"
				  " SELECT 'before:' || boot_id, first_seen_ns - 1 FROM boots WHERE id = ?1";
	static const char named[] = "SELECT id FROM boots WHERE boot_id ="
				    " (SELECT 'before:' || boot_id FROM boots WHERE id = ?1)";
	sqlite3_stmt *st;
	int r;

	if (prepare(db, add, &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, db->boot);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	if (r != SQLITE_DONE || prepare(db, named, &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, db->boot);
	r = one_int(st, boot);
	return r < 0 ? r : r ? 0 : -ENOENT;
}

int ras_db_crash_boot(struct ras_db *db, int64_t crash_ns, int64_t boot_start_ns, int64_t *boot)
{
	static const char newest[] = "SELECT id, first_seen_ns FROM boots WHERE id <> ?1 AND first_seen_ns <= ?2"
				     " ORDER BY first_seen_ns DESC, id DESC LIMIT 1";
	sqlite3_stmt *st;
	int64_t seen = 0;
	int r;

	if (ras_db_sync(db) < 0)
		return -EIO;
	if (crash_ns <= 0)
		return ras_db_previous_boot(db, boot);
	if (prepare(db, newest, &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, db->boot);
	sqlite3_bind_int64(st, 2, crash_ns + RAS_DB_CRASH_SLACK_NS);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		*boot = sqlite3_column_int64(st, 0);
		seen = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (r != SQLITE_ROW && r != SQLITE_DONE)
		return -EIO;
	/* rasd saw that boot start before this one did: it is the boot that crashed. */
	if (r == SQLITE_ROW && (boot_start_ns <= 0 || seen >= boot_start_ns - RAS_DB_CRASH_SLACK_NS))
		return 0;
	return unseen_boot(db, boot);
}

int ras_db_crash_find(struct ras_db *db, uint64_t ident, int64_t *id)
{
	sqlite3_stmt *st;

	if (ras_db_sync(db) < 0 || prepare(db, "SELECT id FROM crashes WHERE ident = ?", &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, (int64_t)ident);
	return one_int(st, id);
}

int ras_db_crash_of_boot(struct ras_db *db, int64_t boot, int64_t t_ns, int64_t *id)
{
	sqlite3_stmt *st;

	if (ras_db_sync(db) < 0 ||
	    prepare(db, "SELECT id FROM crashes WHERE boot = ?1 AND cause NOT IN ('shutdown', 'unknown')"
		    " AND (?2 <= 0 OR crash_ns IS NULL OR crash_ns BETWEEN ?2 - ?3 AND ?2 + ?3)"
		    " ORDER BY id DESC LIMIT 1", &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, boot);
	sqlite3_bind_int64(st, 2, t_ns);
	sqlite3_bind_int64(st, 3, RAS_DB_CRASH_NEAR_NS);
	return one_int(st, id);
}

static void bind_text_or_null(sqlite3_stmt *st, int col, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static void bind_crash(sqlite3_stmt *st, struct ras_db *db, const struct ras_db_crash *c)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	sqlite3_bind_int64(st, 1, c->boot);
	sqlite3_bind_int64(st, 2, db->boot);
	sqlite3_bind_int64(st, 3, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
	if (c->crash_ns > 0)
		sqlite3_bind_int64(st, 4, c->crash_ns);
	if (c->uptime_ns >= 0)
		sqlite3_bind_int64(st, 5, c->uptime_ns);
	sqlite3_bind_text(st, 6, c->backend, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, c->kind, -1, SQLITE_STATIC);
	bind_text_or_null(st, 8, c->dump_reason);
	sqlite3_bind_int(st, 9, (int)c->dump_count);
	sqlite3_bind_int(st, 10, (int)c->parts);
	sqlite3_bind_int(st, 11, (int)c->parts_missing);
	sqlite3_bind_text(st, 12, c->cause, -1, SQLITE_STATIC);
	bind_text_or_null(st, 13, c->reason);
	bind_text_or_null(st, 14, c->detail);
	bind_text_or_null(st, 15, c->hw_lines);
	sqlite3_bind_int(st, 16, (int)c->hw_dropped);
	sqlite3_bind_int(st, 17, c->explained);
	sqlite3_bind_int(st, 18, (int)c->problems);
	bind_text_or_null(st, 19, c->files);
	sqlite3_bind_int64(st, 20, (int64_t)c->ident);
}

int ras_db_crash_insert(struct ras_db *db, const struct ras_db_crash *c, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO crashes (boot, found_boot, found_ns, crash_ns, uptime_ns, backend, kind,"
		" dump_reason, dump_count, parts, parts_missing, cause, reason, detail, hw_lines,"
		" hw_dropped, explained, problems, files, ident, raw, raw_size)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"
		" ?18, ?19, ?20, ?21, ?22)";
	uLongf zlen = compressBound((uLong)c->raw_len);
	Bytef *z = c->raw_len ? malloc(zlen) : NULL;
	sqlite3_stmt *st;
	int r;

	if (c->raw_len && (!z || compress2(z, &zlen, c->raw, (uLong)c->raw_len, 6) != Z_OK)) {
		free(z);
		return -ENOMEM;
	}
	if (ras_db_begin(db) < 0 || ras_db_sync(db) < 0 || prepare(db, sql, &st) < 0) {
		free(z);
		return -EIO;
	}
	bind_crash(st, db, c);
	if (z) {
		sqlite3_bind_blob(st, 21, z, (int)zlen, SQLITE_STATIC);
		sqlite3_bind_int64(st, 22, (int64_t)c->raw_len);
	}
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	free(z);
	if (r != SQLITE_DONE) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return ras_db_errno_of(r);
	}
	*id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

int ras_db_crash_set_explained(struct ras_db *db, int64_t id, bool explained)
{
	sqlite3_stmt *st;
	int r;

	if (ras_db_sync(db) < 0 || prepare(db, "UPDATE crashes SET explained = ? WHERE id = ?", &st) < 0)
		return -EIO;
	sqlite3_bind_int(st, 1, explained);
	sqlite3_bind_int64(st, 2, id);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? 0 : ras_db_errno_of(r);
}

int ras_db_crash_mce_find(struct ras_db *db, const struct ras_db_mce_key *k, int64_t boot,
			  int64_t *row_id)
{
	char sql[512];
	sqlite3_stmt *st;
	int r;

	if (ras_db_sync(db) < 0)
		return -EIO;
	/* Read back before: the time index finds it, whatever boot it was given. */
	snprintf(sql, sizeof(sql), "SELECT id FROM %s WHERE wall_ns = ?1 AND source = '%s'"
		 " AND rec_hash = ?2 LIMIT 1", mce_table(), RAS_DB_SOURCE_ERST);
	if (prepare(db, sql, &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, k->wall_ns);
	sqlite3_bind_int64(st, 2, (int64_t)k->ident);
	r = one_int(st, row_id);
	if (r != 0 || boot <= 0)
		return r;
	/* Recorded live in that boot: the tracepoint carries the same registers, TSC and time. */
	snprintf(sql, sizeof(sql), "SELECT id FROM %s WHERE boot = ?1 AND status = ?2 AND bank = ?3"
		 " AND cpu = ?4 AND tsc = ?5 AND walltime = ?6 AND addr = ?7 AND source <> '%s' LIMIT 1",
		 mce_table(), RAS_DB_SOURCE_ERST);
	if (prepare(db, sql, &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, boot);
	sqlite3_bind_int64(st, 2, (int64_t)k->status);
	sqlite3_bind_int(st, 3, k->bank);
	sqlite3_bind_int(st, 4, k->cpu);
	sqlite3_bind_int64(st, 5, (int64_t)k->tsc);
	sqlite3_bind_int64(st, 6, (int64_t)k->walltime);
	sqlite3_bind_int64(st, 7, (int64_t)k->addr);
	return one_int(st, row_id);
}

int ras_db_crash_link(struct ras_db *db, int64_t crash, const char *tbl, int64_t row_id,
		      const char *role)
{
	sqlite3_stmt *st;
	int r;

	if (ras_db_sync(db) < 0 ||
	    prepare(db, "INSERT OR IGNORE INTO crash_links (crash, tbl, row_id, role) VALUES (?, ?, ?, ?)",
		    &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, crash);
	sqlite3_bind_text(st, 2, tbl, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, row_id);
	sqlite3_bind_text(st, 4, role, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? 0 : ras_db_errno_of(r);
}

/* Links the newest rows of one table (snapshots too) of the boot in [from, to]. */
static int link_table(struct ras_db *db, int64_t crash, const char *tbl, bool event, int64_t boot,
		      int64_t from, int64_t to, unsigned limit, unsigned *serious)
{
	char sql[512];
	sqlite3_stmt *st;
	int r;

	snprintf(sql, sizeof(sql), "SELECT id, %s FROM %s WHERE boot = ?1 AND wall_ns BETWEEN ?2 AND ?3%s"
		 " ORDER BY wall_ns DESC LIMIT ?4", event ? "severity IN ('srar', 'uncorrected', 'fatal')" : "0",
		 tbl, event ? " AND source <> '" RAS_DB_SOURCE_ERST "'" : "");
	if (prepare(db, sql, &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, boot);
	sqlite3_bind_int64(st, 2, from);
	sqlite3_bind_int64(st, 3, to);
	sqlite3_bind_int(st, 4, (int)limit);
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		*serious += (unsigned)sqlite3_column_int(st, 1);
		if (ras_db_crash_link(db, crash, tbl, id, event ? RAS_CRASH_LINK_LAST : RAS_CRASH_LINK_SNAPSHOT) < 0)
			break;
	}
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_crash_link_last(struct ras_db *db, int64_t crash, int64_t boot, int64_t crash_ns,
			   unsigned per_table, unsigned *serious)
{
	int64_t to = crash_ns > 0 ? crash_ns + RAS_DB_CRASH_SLACK_NS : INT64_MAX;
	int64_t from = crash_ns > 0 ? crash_ns - HOUR_NS : INT64_MIN;

	*serious = 0;
	if (ras_db_sync(db) < 0)
		return -EIO;
	for (unsigned i = 0; i < ras_n_event_types; i++)
		if (link_table(db, crash, ras_event_types[i].table, true, boot, from, to, per_table,
			       serious) < 0)
			return -EIO;
	if (!ras_db_table_exists(db, "snapshots"))
		return 0;
	return link_table(db, crash, "snapshots", false, boot, from, to, per_table, serious);
}
