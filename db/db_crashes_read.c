/* SPDX-License-Identifier: MIT */
/* The read side of db_crashes.h: ras-fdr-ctl crashes, status and metrics. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "db_crashes.h"
#include "db_internal.h"
#include "lib/metrics.h"

#define CRASH_RAW_MAX ((size_t)64 << 20)

static const char list_sql[] =
	"SELECT c.id, c.boot, b.boot_id, (SELECT count(*) FROM boots b2 WHERE b2.first_seen_ns < b.first_seen_ns"
	" OR (b2.first_seen_ns = b.first_seen_ns AND b2.id <= b.id)), c.found_ns, c.crash_ns, c.uptime_ns,"
	" c.backend, c.kind, c.dump_reason, c.dump_count, c.parts, c.parts_missing, c.cause, c.reason,"
	" c.detail, c.hw_lines, c.hw_dropped, c.explained, c.problems, c.files, c.ident"
	" FROM crashes c LEFT JOIN boots b ON b.id = c.boot"
	" WHERE (?1 IS NULL OR b.boot_id = ?1) AND (?2 <= 0 OR c.id = ?2)"
	" ORDER BY coalesce(c.crash_ns, c.found_ns) DESC, c.id DESC";

static const char *text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

static void read_crash(sqlite3_stmt *st, struct ras_db_crash *c)
{
	*c = (struct ras_db_crash){
		.id = sqlite3_column_int64(st, 0), .boot = sqlite3_column_int64(st, 1),
		.boot_id = text(st, 2), .boot_number = sqlite3_column_int(st, 3),
		.found_ns = sqlite3_column_int64(st, 4), .crash_ns = sqlite3_column_int64(st, 5),
		.uptime_ns = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 6),
		.backend = text(st, 7), .kind = text(st, 8), .dump_reason = text(st, 9),
		.dump_count = (unsigned)sqlite3_column_int(st, 10), .parts = (unsigned)sqlite3_column_int(st, 11),
		.parts_missing = (unsigned)sqlite3_column_int(st, 12), .cause = text(st, 13),
		.reason = text(st, 14), .detail = text(st, 15), .hw_lines = text(st, 16),
		.hw_dropped = (unsigned)sqlite3_column_int(st, 17), .explained = sqlite3_column_int(st, 18),
		.problems = (unsigned)sqlite3_column_int(st, 19), .files = text(st, 20),
		.ident = (uint64_t)sqlite3_column_int64(st, 21),
	};
	if (!c->backend)
		c->backend = "";
	if (!c->kind)
		c->kind = "";
	if (!c->cause)
		c->cause = "unknown";
}

int ras_db_crashes(struct ras_db *db, const char *boot_id, int64_t id, ras_db_crash_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int n = 0, r, step;

	if (ras_db_sync(db) < 0)
		return -EIO;
	if (!ras_db_table_exists(db, "crashes"))
		return -ENOENT;
	if (sqlite3_prepare_v2(db->h, list_sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	if (boot_id)
		sqlite3_bind_text(st, 1, boot_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	r = 0;
	while (r == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct ras_db_crash c;

		read_crash(st, &c);
		r = fn(ctx, &c);
		n++;
	}
	if (r == 0 && step != SQLITE_DONE) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		r = -EIO;
	}
	sqlite3_finalize(st);
	return r < 0 ? r : n;
}

int ras_db_crash_raw(struct ras_db *db, int64_t id, uint8_t **out, size_t *len)
{
	sqlite3_stmt *st;
	int r = -ENOENT;

	*out = NULL;
	*len = 0;
	if (ras_db_sync(db) < 0 ||
	    sqlite3_prepare_v2(db->h, "SELECT raw, raw_size FROM crashes WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const void *z = sqlite3_column_blob(st, 0);
		int zlen = sqlite3_column_bytes(st, 0);
		int64_t size = sqlite3_column_int64(st, 1);
		uLongf got = (uLongf)size;

		r = -EBADMSG;
		if (!z || size <= 0) {
			r = 0;
		} else if ((size_t)size <= CRASH_RAW_MAX && (*out = malloc((size_t)size + 1)) &&
			   uncompress(*out, &got, z, (uLong)zlen) == Z_OK && got == (uLongf)size) {
			(*out)[size] = 0;
			*len = (size_t)size;
			r = 0;
		} else {
			free(*out);
			*out = NULL;
		}
	}
	sqlite3_finalize(st);
	return r;
}

struct link_ctx {
	ras_db_crash_link_fn fn;
	void *ctx;
	const char *tbl, *role;
	int64_t row_id;
	bool delivered;
};

static int deliver_link(void *p, const struct ras_db_row *row)
{
	struct link_ctx *l = p;

	l->delivered = true;
	return l->fn(l->ctx, l->tbl, l->row_id, l->role, row);
}

/* One link: an event row with its decoding, or (a snapshot, a row gone) without. */
static int one_link(struct ras_db *db, struct link_ctx *l, void *decoded)
{
	const struct ras_event_type *t = ras_event_type_find(l->tbl);
	struct ras_db_row_cols cols;
	sqlite3_stmt *row;
	int r;

	if (!t || strcmp(t->table, l->tbl))
		return l->fn(l->ctx, l->tbl, l->row_id, l->role, NULL);
	row = ras_db_row_stmt(db, (unsigned)(t - ras_event_types), &cols);
	if (!row)
		return l->fn(l->ctx, l->tbl, l->row_id, l->role, NULL);
	l->delivered = false;
	r = ras_db_deliver_row(row, (unsigned)(t - ras_event_types), l->row_id, &cols, decoded, deliver_link, l);
	sqlite3_finalize(row);
	/* A linked row folded or deleted since: the link is still told. */
	return r == 0 && !l->delivered ? l->fn(l->ctx, l->tbl, l->row_id, l->role, NULL) : r;
}

int ras_db_crash_links(struct ras_db *db, int64_t crash, ras_db_crash_link_fn fn, void *ctx)
{
	static const char sql[] = "SELECT tbl, row_id, role FROM crash_links WHERE crash = ?"
				  " ORDER BY CASE role WHEN 'erst' THEN 0 WHEN 'last' THEN 1 ELSE 2 END, tbl, row_id DESC";
	struct link_ctx l = { .fn = fn, .ctx = ctx };
	sqlite3_stmt *st;
	void *decoded;
	int r = 0;

	if (ras_db_sync(db) < 0)
		return -EIO;
	if (!ras_db_table_exists(db, "crash_links"))
		return 0;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	decoded = aligned_alloc(16, RAS_DECODED_MAX);
	if (!decoded) {
		sqlite3_finalize(st);
		return -ENOMEM;
	}
	sqlite3_bind_int64(st, 1, crash);
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
		l.tbl = text(st, 0);
		l.row_id = sqlite3_column_int64(st, 1);
		l.role = text(st, 2);
		r = one_link(db, &l, decoded);
	}
	sqlite3_finalize(st);
	free(decoded);
	return r;
}

int ras_db_crash_counts(struct ras_db *db, ras_db_crash_count_fn fn, void *ctx)
{
	sqlite3_stmt *st;

	if (ras_db_sync(db) < 0)
		return -EIO;
	if (!ras_db_table_exists(db, "crashes"))
		return -ENOENT;
	if (sqlite3_prepare_v2(db->h, "SELECT cause, count(*) FROM crashes GROUP BY cause", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	while (sqlite3_step(st) == SQLITE_ROW)
		fn(ctx, text(st, 0) ? text(st, 0) : "unknown", sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
	return 0;
}

static void count_cause(void *ctx, const char *cause, int64_t n)
{
	struct ras_metrics *m = ctx;

	m->crashes[lw_cause_parse(cause)] += n;
}

void ras_db_crash_metrics(struct ras_db *db, struct ras_metrics *m)
{
	memset(m->crashes, 0, sizeof(m->crashes));
	m->have_crashes = ras_db_crash_counts(db, count_cause, m) == 0;
}
