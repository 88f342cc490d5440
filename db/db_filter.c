/* SPDX-License-Identifier: MIT */
/* The filter every read of the event tables shares (db_filter.h). */
#include "db_filter.h"

void ras_db_bind_filter(sqlite3_stmt *st, const struct ras_db_filter *f)
{
	sqlite3_bind_int64(st, 1, f->since_ns);
	sqlite3_bind_int64(st, 2, f->until_ns);
	/* Out of range (a statement without them) is harmless: nothing is bound. */
	sqlite3_bind_int64(st, 10, f->since_ns ? f->since_ns : INT64_MIN);
	sqlite3_bind_int64(st, 11, f->until_ns ? f->until_ns : INT64_MAX);
	sqlite3_bind_int(st, 3, f->include_synthetic);
	if (f->boot_id)
		sqlite3_bind_text(st, 4, f->boot_id, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 4);
}

bool ras_db_filter_wants(struct ras_db *db, const struct ras_db_filter *f, unsigned i)
{
	if (f->type_idx >= 0 && (unsigned)f->type_idx != i)
		return false;
	if (f->type_idx < 0 && f->type_mask && (i >= 64 || !(f->type_mask & (UINT64_C(1) << i))))
		return false;
	/* Only a type with a count of errors (an mc_event) has records of several. */
	if (f->several_errors && !ras_event_types[i].errors)
		return false;
	return ras_db_table_exists(db, ras_event_types[i].table);
}
