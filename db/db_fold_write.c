/* SPDX-License-Identifier: MIT */
/*
 * The batch's folds written at commit (or when its slots fill): each entry
 * is merged into the folds row of its key, if one is stored (counts added,
 * address range widened, distinct values joined, its seconds appended to the
 * delta-packed times), else inserted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "db_fold_internal.h"

/*
 * ORDER BY dec, the index's next column after the equalities, not ORDER BY
 * id: that sorted in a temporary B-tree on every write (callgrind, 300,000
 * varied records: 4.8 % of rasd's instructions). Rows matching one key
 * differ in dec (key_dec 0 takes any), so the first by dec is one row, always
 * the same.
 */
static const char get_sql[] =
	"SELECT id, records, errors, first_ns, last_ns, addr_lo, addr_hi, details, details_more,"
	" times, last_s FROM folds WHERE tbl = ?1 AND hour = ?2 AND subject = ?3 AND boot = ?4"
	" AND source = ?5 AND synthetic = ?6 AND severity = ?7 AND location = ?8"
	" AND (?24 = 0 OR dec = ?24) AND dims = ?10 AND fresh = ?22 AND ekey = ?23 ORDER BY dec LIMIT 1";
static const char ins_sql[] =
	"INSERT INTO folds (tbl, hour, subject, boot, source, synthetic, severity, location, dec,"
	" dims, records, errors, first_ns, last_ns, addr_lo, addr_hi, details, details_more,"
	" times, last_s, detail_name, fresh, ekey) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
	" ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)";
static const char upd_sql[] =
	"UPDATE folds SET records = ?11, errors = ?12, first_ns = ?13, last_ns = ?14,"
	" addr_lo = ?15, addr_hi = ?16, details = ?17, details_more = ?18, times = ?19,"
	" last_s = ?20 WHERE id = ?1";

static void bind_key(sqlite3_stmt *st, const struct fold_entry *e)
{
	sqlite3_bind_text(st, 1, ras_event_types[e->idx].table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, e->hour);
	sqlite3_bind_text(st, 3, e->subject, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, e->key.boot);
	sqlite3_bind_text(st, 5, e->key.source, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, e->key.synthetic);
	sqlite3_bind_text(st, 7, e->key.severity, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, e->key.location, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 9, e->key.dec);
	sqlite3_bind_text(st, 10, e->key.dims, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 22, e->key.fresh);
	sqlite3_bind_text(st, 23, e->key.ekey, -1, SQLITE_STATIC);
}

/* Merges a stored folds row (the get statement's current row) into e; returns its id. */
static int64_t merge_stored(sqlite3_stmt *st, struct fold_entry *e, int64_t *last_s,
			    uint8_t **times, size_t *ntimes, size_t *stored)
{
	const uint8_t *d = sqlite3_column_blob(st, 7);
	size_t nd = (size_t)sqlite3_column_bytes(st, 7) / 8;

	e->records += sqlite3_column_int64(st, 1);
	e->errors += sqlite3_column_int64(st, 2);
	if (sqlite3_column_int64(st, 3) < e->first_ns)
		e->first_ns = sqlite3_column_int64(st, 3);
	if (sqlite3_column_int64(st, 4) > e->last_ns)
		e->last_ns = sqlite3_column_int64(st, 4);
	if (sqlite3_column_type(st, 5) == SQLITE_INTEGER) {
		uint64_t lo = (uint64_t)sqlite3_column_int64(st, 5), hi = (uint64_t)sqlite3_column_int64(st, 6);

		e->addr_lo = !e->have_addr || lo < e->addr_lo ? lo : e->addr_lo;
		e->addr_hi = !e->have_addr || hi > e->addr_hi ? hi : e->addr_hi;
		e->have_addr = true;
	}
	for (size_t i = 0; d && i < nd; i++) {
		uint64_t v;

		memcpy(&v, d + 8 * i, 8);
		ras_db_fold_add_detail(e->details, &e->ndetails, &e->details_more, v);
	}
	e->details_more |= sqlite3_column_int(st, 8) != 0;
	*stored = (size_t)sqlite3_column_bytes(st, 9);
	*times = malloc(*stored + 1);
	if (*times && *stored)
		memcpy(*times, sqlite3_column_blob(st, 9), *stored);
	*ntimes = *times ? ras_db_fold_times_used(*times, *stored) : 0;
	*last_s = sqlite3_column_int64(st, 10);
	return sqlite3_column_int64(st, 0);
}

static int write_entry(struct ras_db *db, struct fold_entry *e)
{
	struct ras_db_fold *f = db->fold;
	uint8_t *times = NULL, *grown;
	size_t ntimes = 0, stored = 0;
	int64_t id = 0, prev = 0;
	sqlite3_stmt *st;
	int r;

	bind_key(f->get, e);
	sqlite3_bind_int64(f->get, 24, e->key.key_dec);   /* 0: any row's decoding will do */
	r = sqlite3_step(f->get);
	if (r == SQLITE_ROW)
		id = merge_stored(f->get, e, &prev, &times, &ntimes, &stored);
	sqlite3_reset(f->get);
	if ((r != SQLITE_ROW && r != SQLITE_DONE) || (id && !times)) {
		free(times);
		return -EIO;
	}
	/* At most ten bytes a second (about one at a steady rate), and room to pad to twice that. */
	grown = realloc(times, (stored > ntimes ? stored : ntimes) + 2 * (ntimes + e->nsecs * 10) + 16);
	if (!grown) {
		free(times);
		return -ENOMEM;
	}
	times = grown;
	for (size_t i = 0; i < e->nsecs; i++) {
		ntimes += ras_db_fold_put_delta(times + ntimes, e->secs[i] - prev);
		prev = e->secs[i];
	}
	ntimes = ras_db_fold_times_pad(times, ntimes, stored);
	st = id ? f->upd : f->ins;
	if (id)
		sqlite3_bind_int64(st, 1, id);
	else
		bind_key(st, e);
	sqlite3_bind_int64(st, 11, e->records);
	sqlite3_bind_int64(st, 12, e->errors);
	sqlite3_bind_int64(st, 13, e->first_ns);
	sqlite3_bind_int64(st, 14, e->last_ns);
	if (e->have_addr) {
		sqlite3_bind_int64(st, 15, (int64_t)e->addr_lo);
		sqlite3_bind_int64(st, 16, (int64_t)e->addr_hi);
	} else {
		sqlite3_bind_null(st, 15);
		sqlite3_bind_null(st, 16);
	}
	sqlite3_bind_blob(st, 17, e->details, (int)(e->ndetails * 8), SQLITE_STATIC);
	sqlite3_bind_int(st, 18, e->details_more);
	sqlite3_bind_blob(st, 19, times, (int)ntimes, SQLITE_STATIC);
	sqlite3_bind_int64(st, 20, prev);
	if (!id)
		sqlite3_bind_text(st, 21, f->t[e->idx].detail_name, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	sqlite3_reset(st);
	free(times);
	return r == SQLITE_DONE ? 0 : -EIO;
}

static int prepare_writes(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;

	if (f->get)
		return 0;
	if (sqlite3_prepare_v3(db->h, get_sql, -1, SQLITE_PREPARE_PERSISTENT, &f->get, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v3(db->h, ins_sql, -1, SQLITE_PREPARE_PERSISTENT, &f->ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v3(db->h, upd_sql, -1, SQLITE_PREPARE_PERSISTENT, &f->upd, NULL) != SQLITE_OK)
		return -EIO;
	return 0;
}

int ras_db_fold_write_entries(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;

	if (!f->used)
		return 0;
	if (prepare_writes(db) < 0)
		return -EIO;
	for (unsigned i = 0; i < FOLD_SLOTS; i++) {
		struct fold_entry *e = &f->e[i];

		if (!e->used)
			continue;
		if (write_entry(db, e) < 0)
			return -EIO;
		e->used = false;
		e->nsecs = 0;
	}
	f->used = 0;
	return 0;
}
