/* SPDX-License-Identifier: MIT */
/*
 * An event row: its INSERT statements, the values they bind, one row
 * inserted now (db_insert.c's records), rows with their ids inserted
 * RAS_DB_ROWS_PER_INSERT at a time (the writer thread's, db_insert.c, and
 * the held records at commit, db_fold_hold.c), the identity sources, the id
 * floor. Below the stages that store
 * rows (raw rows, folding), above only the statement helpers (db_sql.c), so
 * both may call it without calling each other.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"

/*
 * The sources the identity index covers (db_schema.c): buffers rasd did not
 * consume itself, which can be read again. Changing them needs a schema step
 * that rebuilds the index.
 */
static const char *const identity_sources[] = { "boot", "previous-boot" };

int ras_db_prepare_insert(struct ras_db *db, unsigned idx, unsigned rows, sqlite3_stmt **st)
{
	const struct ras_db_table *t = ras_db_table_of(idx);
	size_t cap = 4096 + (size_t)rows * (2 * t->ncols + 8), n;
	char *sql = malloc(cap);
	int r;

	if (!sql)
		return -1;
	n = (size_t)snprintf(sql, cap, "INSERT OR IGNORE INTO %s (", ras_event_types[idx].table);
	for (unsigned i = 0; i < t->ncols && n < cap; i++)
		n += (size_t)snprintf(sql + n, cap - n, "%s\"%s\"", i ? "," : "", t->cols[i].name);
	/* The id last: reserved by the writer (ras_db_insert_event), or NULL for SQLite to pick. */
	n += (size_t)snprintf(sql + n, cap - n, ",id) VALUES ");
	n = ras_db_sql_values(sql, cap, n, rows, t->ncols + 1);
	r = n < cap ? sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) : SQLITE_TOOBIG;
	free(sql);
	return r == SQLITE_OK ? 0 : -1;
}

/* The values the event INSERT binds, in its parameters' order (t->ncols; the id apart). */
void ras_db_row_values(struct ras_db *db, const struct ras_db_event *ev, int64_t dec,
		       struct ras_db_col_val *v)
{
	const struct ras_event_type *type = &ras_event_types[ev->type_idx];
	const struct ras_db_table *t = ras_db_table_of(ev->type_idx);
	const char *sev = ras_severity_name(((const struct ras_decoded_head *)ev->decoded)->severity);

	v[0] = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = ev->wall_ns };
	v[1] = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = (int64_t)ev->trace_ts };
	v[2] = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = ev->trace_cpu };
	v[3] = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = ev->boot ? ev->boot : db->boot };
	v[4] = (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = ev->source, .len = strlen(ev->source) };
	v[5] = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = (int64_t)ev->rec_hash };
	v[6] = (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = sev, .len = strlen(sev) };
	v[7] = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = ev->synthetic };
	for (unsigned i = 0; i < type->n_fields; i++)
		v[t->first_raw + i] = ras_db_raw_value(&type->fields[i], &ev->values[i]);
	v[t->dec_col] = (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = dec };
	for (unsigned i = 0; i < t->nrec; i++)
		v[t->first_rec + i] = ras_db_decoded_value(&type->dfields[t->rfield[i]], ev->decoded);
}

/*
 * What an INSERT (a row, rows, a decoding) has bound to each parameter, where
 * it was an integer or NULL: bound again with the same, it is left as it is
 * (SQLite keeps a binding across a reset). A storm's rows repeat most of
 * their integers (boot, CPU, bank, layers, flags) and a decoding most of its
 * NULLs, and each bind is some 70 to 100 instructions of SQLite's. Text and
 * blobs are bound every time: SQLite keeps a pointer to them, into a record
 * or a job that goes away. A statement with such a record is bound only
 * through ras_db_bind_kept (a parameter bound otherwise is never passed to it).
 */
struct ras_db_bound {
	unsigned n;
	struct {
		int type;               /* SQLITE_INTEGER or SQLITE_NULL; 0: anything else, or not yet */
		int64_t i;
	} v[];
};

void ras_db_bind_kept(struct ras_db_bound *b, sqlite3_stmt *st, int col, const struct ras_db_col_val *v)
{
	bool keep = v->type == SQLITE_INTEGER || v->type == SQLITE_NULL;

	if (b && (unsigned)col <= b->n) {
		if (keep && b->v[col - 1].type == v->type && (v->type == SQLITE_NULL || b->v[col - 1].i == v->i))
			return;
		b->v[col - 1].type = keep ? v->type : 0;
		b->v[col - 1].i = v->i;
	}
	ras_db_bind_value(st, col, v);
}

/* What st has bound, allocated at its first use; NULL without memory (then every value is bound). */
struct ras_db_bound *ras_db_bound_of(struct ras_db_bound **b, sqlite3_stmt *st)
{
	unsigned n;

	if (*b || !st)
		return *b;
	n = (unsigned)sqlite3_bind_parameter_count(st);
	if ((*b = calloc(1, sizeof(**b) + n * sizeof((*b)->v[0]))))
		(*b)->n = n;
	return *b;
}


void ras_db_bind_row(struct ras_db *db, sqlite3_stmt *st, const struct ras_db_event *ev, int64_t dec)
{
	const struct ras_db_table *t = ras_db_table_of(ev->type_idx);
	struct ras_db_col_val v[RAS_DB_MAX_COLS];

	ras_db_row_values(db, ev, dec, v);
	for (unsigned i = 0; i < t->ncols; i++)
		ras_db_bind_value(st, (int)i + 1, &v[i]);
}

/* The INSERT of run k's rows of table idx (RAS_DB_ROWS_PER_INSERT >> k), prepared at its first use, with what it has bound. */
static sqlite3_stmt *rows_stmt(struct ras_db *db, unsigned idx, unsigned k)
{
	if (db->insert_rows[idx][k])
		return db->insert_rows[idx][k];
	if (ras_db_prepare_insert(db, idx, RAS_DB_ROWS_PER_INSERT >> k, &db->insert_rows[idx][k]) < 0)
		return NULL;
	ras_db_bound_of(&db->bound[idx][k], db->insert_rows[idx][k]);
	return db->insert_rows[idx][k];
}

/* Binds row j as row k of st (the k-th ncols + 1 parameters, its id last), b what st has. */
static void bind_row_at(sqlite3_stmt *st, struct ras_db_bound *b, const struct ras_db_table *t, unsigned k,
			const struct ras_db_row_job *j)
{
	int base = (int)(k * (t->ncols + 1));

	for (unsigned i = 0; i < t->ncols; i++)
		ras_db_bind_kept(b, st, base + (int)i + 1, &j->row[i]);
	sqlite3_bind_int64(st, base + (int)t->ncols + 1, j->id);
}

/* Steps st, which inserts n rows: all of them, or an error (a row ignored: its id was taken). */
static int step_rows(struct ras_db *db, sqlite3_stmt *st, unsigned n)
{
	int r = sqlite3_step(st);

	sqlite3_reset(st);
	if (r != SQLITE_DONE)
		return r;
	return sqlite3_changes(db->h) == (int)n ? SQLITE_OK : SQLITE_CONSTRAINT;
}

/* Stores the rows of run k in one INSERT (k RAS_DB_RUNS: one row, the one-row INSERT). */
static int store_run(struct ras_db *db, unsigned idx, unsigned k, const struct ras_db_row_job *rows)
{
	const struct ras_db_table *t = ras_db_table_of(idx);
	sqlite3_stmt *st = k < RAS_DB_RUNS ? db->insert_rows[idx][k] : db->insert[idx];
	struct ras_db_bound *b = k < RAS_DB_RUNS ? db->bound[idx][k] : ras_db_bound_of(&db->row_bound[idx], st);

	for (unsigned r = 0; r < ras_db_run_rows(k); r++)
		bind_row_at(st, b, t, r, &rows[r]);
	return step_rows(db, st, ras_db_run_rows(k));
}

int ras_db_store_rows(struct ras_db *db, unsigned idx, unsigned n, const struct ras_db_row_job *rows)
{
	unsigned done = 0;
	int r = SQLITE_OK;

	while (done < n && r == SQLITE_OK) {
		unsigned k = ras_db_run_of(n - done);

		/* A run's INSERT not prepared (no memory): its rows one by one. */
		if (k < RAS_DB_RUNS && !rows_stmt(db, idx, k))
			k = RAS_DB_RUNS;
		r = store_run(db, idx, k, rows + done);
		done += ras_db_run_rows(k);
	}
	return r;
}

int ras_db_insert_row(struct ras_db *db, const struct ras_db_event *ev, int64_t dec, int64_t *id)
{
	sqlite3_stmt *st = db->insert[ev->type_idx];
	struct ras_db_bound *b = ras_db_bound_of(&db->row_bound[ev->type_idx], st);
	const struct ras_db_table *t = ras_db_table_of(ev->type_idx);
	struct ras_db_col_val v[RAS_DB_MAX_COLS];
	int r;

	ras_db_row_values(db, ev, dec, v);
	for (unsigned i = 0; i < t->ncols; i++)
		ras_db_bind_kept(b, st, (int)i + 1, &v[i]);
	if (*id)
		sqlite3_bind_int64(st, (int)t->ncols + 1, *id);
	else
		sqlite3_bind_null(st, (int)t->ncols + 1);
	r = sqlite3_step(st);
	/* Every parameter is bound (or kept) on each insert, so no clear_bindings. */
	sqlite3_reset(st);
	if (r != SQLITE_DONE)
		return -EIO;
	if (sqlite3_changes(db->h) == 0)
		return 0;
	*id = sqlite3_last_insert_rowid(db->h);
	return 1;
}

int ras_db_raise_id_floor(struct ras_db *db, unsigned idx, int64_t id)
{
	char sql[256];

	if (!ras_db_table_exists(db, "meta"))
		return 0;
	snprintf(sql, sizeof(sql), "INSERT INTO meta (key, value) VALUES ('id_floor:%s', %lld)"
		 " ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)",
		 ras_event_types[idx].table, (long long)id);
	return ras_db_exec(db, sql);
}

bool ras_db_may_be_duplicate(const struct ras_db_event *ev)
{
	for (size_t i = 0; i < sizeof(identity_sources) / sizeof(identity_sources[0]); i++)
		if (!strcmp(ev->source, identity_sources[i]))
			return true;
	return false;
}

void ras_db_identity_sources_sql(char *out, size_t len)
{
	size_t used = 0;

	for (size_t i = 0; i < sizeof(identity_sources) / sizeof(identity_sources[0]); i++) {
		int n = snprintf(out + used, len - used, "%s'%s'", i ? ", " : "(", identity_sources[i]);

		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	snprintf(out + used, len - used, ")");
}
