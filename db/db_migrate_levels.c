/* SPDX-License-Identifier: MIT */
/*
 * Schema step 17: machine-check cache levels as Linux numbers the caches.
 * Decodings stored before it keep the MCA LL field as is in cache_level, the
 * SDM's level words in error_text ("L0 data cache data read error", where
 * lscpu says L1d) and ", cache level N" at the end of their location, while
 * the CPU buckets already counted Intel's LL 00 as the sysfs level 1. Each is
 * rewritten as today's decoder writes it (decoders/mce_intel.c: Intel's level
 * is LL + 1, AMD's LL), and the hourly roll-ups and folds keyed by an old
 * location follow it, so old and new records of one cache sum in one place.
 * Rows already rewritten hold no "cache level" words: running it again
 * changes nothing.
 */
#include <stdio.h>
#include <string.h>
#include "db_internal.h"
#include "decoders/mce.h"

#define OLD_WORDS ", cache level "

/* "L<ll> " at the start (cache, TLB and generic forms), or ", L<ll>" before ")" or ", timed out)" (bus). */
static void rewrite_text(const char *text, int64_t ll, const char *now, char *out, size_t len)
{
	char was[8], *at;

	snprintf(was, sizeof(was), "L%lld", (long long)ll);
	snprintf(out, len, "%s", text);
	if (!strncmp(text, was, strlen(was)) && text[strlen(was)] == ' ') {
		snprintf(out, len, "%s%s", now, text + strlen(was));
		return;
	}
	snprintf(was, sizeof(was), ", L%lld", (long long)ll);
	at = strstr(out, was);
	if (at && (at[strlen(was)] == ')' || at[strlen(was)] == ','))
		snprintf(at, len - (size_t)(at - out), ", %s%s", now, text + (at - out) + strlen(was));
}

/* The level's word as the decoder writes it now. */
static const char *level_word(int64_t level, int64_t ll, bool amd)
{
	static const char *const words[4] = { "generic-level", "L1", "L2", "L3" };

	if (level == RAS_DF_NONE)
		return amd && ll == 0 ? "reserved-level" : words[0];
	return words[level];
}

/* The hourly roll-ups and folds of an old location moved to the new one. */
static int move_location(struct ras_db *db, const char *was, const char *now)
{
	static const char *const sql[] = {
		"INSERT INTO rollup_hourly (tbl, hour, boot, source, synthetic, severity, location,"
		" records, first_ns, last_ns) SELECT tbl, hour, boot, source, synthetic, severity, ?2,"
		" records, first_ns, last_ns FROM rollup_hourly WHERE tbl = 'mce_record' AND location = ?1"
		" ON CONFLICT DO UPDATE SET records = records + excluded.records,"
		" first_ns = min(first_ns, excluded.first_ns), last_ns = max(last_ns, excluded.last_ns)",
		"DELETE FROM rollup_hourly WHERE tbl = 'mce_record' AND location = ?1",
		"UPDATE OR IGNORE folds SET location = ?2 WHERE tbl = 'mce_record' AND location = ?1",
	};

	for (size_t i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		sqlite3_stmt *st;
		int r;

		if (sqlite3_prepare_v2(db->h, sql[i], -1, &st, NULL) != SQLITE_OK)
			return -1;
		sqlite3_bind_text(st, 1, was, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, now, -1, SQLITE_TRANSIENT);
		r = sqlite3_step(st);
		sqlite3_finalize(st);
		if (r != SQLITE_DONE)
			return -1;
	}
	return 0;
}

/* One stored decoding rewritten; its old and new locations in was/now. */
static int rewrite_row(struct ras_db *db, sqlite3_stmt *row, char *was, char *now, size_t len)
{
	struct mce_decoded m = { 0 };
	const char *vendor = (const char *)sqlite3_column_text(row, 1);
	const char *text = (const char *)sqlite3_column_text(row, 5);
	bool amd = vendor && (!strcmp(vendor, "AMD") || !strcmp(vendor, "Hygon"));
	int64_t ll = sqlite3_column_int64(row, 4);
	char name[32], new_text[MCE_TEXT_LEN], *cut;
	sqlite3_stmt *st;
	int r;

	snprintf(m.error_class, sizeof(m.error_class), "%s", sqlite3_column_text(row, 2) ?
		 (const char *)sqlite3_column_text(row, 2) : "");
	snprintf(m.transaction, sizeof(m.transaction), "%s", sqlite3_column_text(row, 3) ?
		 (const char *)sqlite3_column_text(row, 3) : "");
	m.cache_level = ll >= 0 && ll <= 2 ? mce_ll_level((unsigned)ll, amd) : RAS_DF_NONE;
	snprintf(was, len, "%s", sqlite3_column_text(row, 6));
	snprintf(now, len, "%s", was);
	cut = strstr(now, OLD_WORDS);
	if (cut) {
		*cut = 0;
		if (mce_cache_name(&m, name, sizeof(name)))
			snprintf(cut, len - (size_t)(cut - now), ", %s", name);
	}
	rewrite_text(text ? text : "", ll, level_word(m.cache_level, ll, amd), new_text, sizeof(new_text));
	if (sqlite3_prepare_v2(db->h, "UPDATE mce_record_dec SET cache_level = ?1, error_text = ?2,"
			       " location = ?3 WHERE id = ?4", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (m.cache_level == RAS_DF_NONE)
		sqlite3_bind_null(st, 1);
	else
		sqlite3_bind_int64(st, 1, m.cache_level);
	sqlite3_bind_text(st, 2, new_text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, sqlite3_column_int64(row, 0));
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? 0 : -1;
}

int ras_db_migrate_cache_levels(struct ras_db *db)
{
	sqlite3_stmt *row;
	char was[RAS_LOCATION_LEN], now[RAS_LOCATION_LEN];
	int r = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT id, vendor, error_class, \"transaction\", cache_level,"
			       " error_text, location FROM mce_record_dec WHERE cache_level IS NOT NULL"
			       " AND location LIKE '%" OLD_WORDS "%'", -1, &row, NULL) != SQLITE_OK)
		return -1;
	while (r == 0 && sqlite3_step(row) == SQLITE_ROW) {
		r = rewrite_row(db, row, was, now, sizeof(was));
		if (r == 0 && strcmp(was, now))
			r = move_location(db, was, now);
	}
	sqlite3_finalize(row);
	return r;
}
