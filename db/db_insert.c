/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include "db_internal.h"

static void bind_raw(sqlite3_stmt *st, int col, const struct ras_field *f,
		     const struct ras_value *v)
{
	if (!v->present) {
		sqlite3_bind_null(st, col);
		return;
	}
	switch (f->type) {
	case RAS_FT_INT:
		sqlite3_bind_int64(st, col, v->i);
		break;
	case RAS_FT_TEXT:
		sqlite3_bind_text(st, col, v->p ? v->p : "", (int)v->len, SQLITE_STATIC);
		break;
	default:
		sqlite3_bind_blob(st, col, v->p ? v->p : "", (int)v->len, SQLITE_STATIC);
		break;
	}
}

static void bind_decoded(sqlite3_stmt *st, int col, const struct ras_dfield *f,
			 const void *decoded)
{
	if (f->type == RAS_DF_INT) {
		int64_t v = ras_dfield_int(decoded, f);

		if (v == RAS_DF_NONE)
			sqlite3_bind_null(st, col);
		else
			sqlite3_bind_int64(st, col, v);
		return;
	}
	const char *s = ras_dfield_str(decoded, f);

	if (*s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static void bind_common(struct ras_db *db, sqlite3_stmt *st, const struct ras_db_event *ev)
{
	const struct ras_decoded_head *h = ev->decoded;

	sqlite3_bind_int64(st, 1, ev->wall_ns);
	sqlite3_bind_int64(st, 2, (int64_t)ev->trace_ts);
	sqlite3_bind_int(st, 3, ev->trace_cpu);
	sqlite3_bind_int64(st, 4, ev->boot ? ev->boot : db->boot);
	sqlite3_bind_text(st, 5, ev->source, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (int64_t)ev->rec_hash);
	sqlite3_bind_text(st, 7, ras_severity_name(h->severity), -1, SQLITE_STATIC);
	if (h->location[0])
		sqlite3_bind_text(st, 8, h->location, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 8);
	sqlite3_bind_int(st, 9, ev->synthetic);
}

int ras_db_insert_event(struct ras_db *db, const struct ras_db_event *ev)
{
	const struct ras_event_type *type = &ras_event_types[ev->type_idx];
	const struct ras_db_table *t = ras_db_table_of(ev->type_idx);
	sqlite3_stmt *st = db->insert[ev->type_idx];
	int r;

	bind_common(db, st, ev);
	for (unsigned i = 0; i < type->n_fields; i++)
		bind_raw(st, (int)(t->first_raw + i + 1), &type->fields[i], &ev->values[i]);
	for (size_t i = 0; i < *type->n_dfields; i++)
		bind_decoded(st, (int)(t->first_decoded + i + 1), &type->dfields[i], ev->decoded);
	r = sqlite3_step(st);
	/* Every parameter is bound on each insert, so no clear_bindings. */
	sqlite3_reset(st);
	if (r != SQLITE_DONE)
		return -EIO;
	return sqlite3_changes(db->h) > 0 ? 1 : 0;
}

int ras_db_insert_lost(struct ras_db *db, const struct ras_db_lost *lost)
{
	sqlite3_stmt *st = db->stmt[STMT_LOST];
	int r;

	sqlite3_bind_int64(st, 1, db->boot);
	sqlite3_bind_text(st, 2, lost->instance, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, lost->cpu);
	if (lost->count < 0)
		sqlite3_bind_null(st, 4);
	else
		sqlite3_bind_int64(st, 4, lost->count);
	sqlite3_bind_int64(st, 5, lost->from_ns);
	sqlite3_bind_int64(st, 6, lost->to_ns);
	sqlite3_bind_text(st, 7, lost->origin, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	sqlite3_reset(st);
	return r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_cpu_stats_get(struct ras_db *db, const char *instance, int cpu,
			 uint64_t *overrun, uint64_t *dropped)
{
	sqlite3_stmt *st = db->stmt[STMT_STATS_GET];
	int r;

	*overrun = *dropped = 0;
	sqlite3_bind_int64(st, 1, db->boot);
	sqlite3_bind_text(st, 2, instance, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, cpu);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		*overrun = (uint64_t)sqlite3_column_int64(st, 0);
		*dropped = (uint64_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_cpu_stats_set(struct ras_db *db, const char *instance, int cpu,
			 uint64_t overrun, uint64_t dropped)
{
	sqlite3_stmt *st = db->stmt[STMT_STATS_SET];
	int r;

	sqlite3_bind_int64(st, 1, db->boot);
	sqlite3_bind_text(st, 2, instance, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, cpu);
	sqlite3_bind_int64(st, 4, (int64_t)overrun);
	sqlite3_bind_int64(st, 5, (int64_t)dropped);
	r = sqlite3_step(st);
	sqlite3_reset(st);
	return r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_counter_add(struct ras_db *db, const char *name, int64_t delta)
{
	sqlite3_stmt *st = db->stmt[STMT_COUNTER_ADD];
	int r;

	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, delta);
	r = sqlite3_step(st);
	sqlite3_reset(st);
	return r == SQLITE_DONE ? 0 : -EIO;
}
