/* SPDX-License-Identifier: MIT */
/* The diagnosis's tables: schema step 20 (db_upgrades.h) and their statements. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"
#include "db_parts.h"
#include "diag/part.h"

enum { ST_PUT, ST_FAULTS_DEL, ST_FAULT_ADD, ST_VERDICT, ST_MARK, ST_N };

/* A part's id from its identity: the writes need not know it (they may run on the writer thread). */
#define PART_ID "(SELECT id FROM parts WHERE kind = ?1 AND part = ?2 AND synthetic = ?3)"

static const char *const sql[ST_N] = {
	[ST_PUT] = "INSERT INTO parts (kind, part, synthetic, label, first_ns, last_ns, records,"
		   " corrected, uncorrected, fatal, coord_records, cells, beyond, dram_rows, banks, ranks,"
		   " mode, permanent, link, verdict, rule, since_ns, why, state) VALUES (?1, ?2, ?3, ?4,"
		   " ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22,"
		   " ?23, ?24) ON CONFLICT (kind, part, synthetic) DO UPDATE SET label = excluded.label,"
		   " first_ns = excluded.first_ns, last_ns = excluded.last_ns, records = excluded.records,"
		   " corrected = excluded.corrected, uncorrected = excluded.uncorrected,"
		   " fatal = excluded.fatal, coord_records = excluded.coord_records,"
		   " cells = excluded.cells, beyond = excluded.beyond, dram_rows = excluded.dram_rows,"
		   " banks = excluded.banks, ranks = excluded.ranks, mode = excluded.mode,"
		   " permanent = excluded.permanent, link = excluded.link, verdict = excluded.verdict,"
		   " rule = excluded.rule, since_ns = excluded.since_ns, why = excluded.why,"
		   " state = excluded.state",
	[ST_FAULTS_DEL] = "DELETE FROM part_faults WHERE part = " PART_ID,
	[ST_FAULT_ADD] = "INSERT INTO part_faults (part, idx, mode, permanent, dram_rank, bank_group,"
			 " bank, dram_row, dram_column, cells, ranks, banks, dram_rows, dram_columns,"
			 " errors, first_ns, last_ns, description) VALUES (" PART_ID ", ?4, ?5, ?6, ?7,"
			 " ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
	[ST_VERDICT] = "INSERT INTO verdicts (part, at_ns, decided_ns, boot, was, verdict, rule, mode,"
		       " why) VALUES (" PART_ID ", ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	[ST_MARK] = "INSERT INTO health_marks (tbl, last_id) VALUES (?, ?) ON CONFLICT (tbl)"
		    " DO UPDATE SET last_id = max(last_id, excluded.last_id)",
};

struct ras_db_parts {
	struct ras_db *db;
	sqlite3_stmt *st[ST_N];
};

int ras_db_parts_open(struct ras_db *db, struct ras_db_parts **out)
{
	struct ras_db_parts *p;

	*out = NULL;
	if (!db)
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return -ENOMEM;
	p->db = db;
	for (int i = 0; i < ST_N; i++) {
		if (sqlite3_prepare_v3(db->h, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &p->st[i],
				       NULL) != SQLITE_OK) {
			ras_db_parts_close(p);
			return -EIO;
		}
	}
	*out = p;
	return 0;
}

void ras_db_parts_close(struct ras_db_parts *p)
{
	if (!p)
		return;
	for (int i = 0; i < ST_N; i++)
		sqlite3_finalize(p->st[i]);
	free(p);
}

/* A value as the tables keep it: RAS_DF_NONE and "" as NULL. */
static struct ras_db_col_val ival(int64_t v)
{
	return v == RAS_DF_NONE ? (struct ras_db_col_val){ .type = SQLITE_NULL } : ras_db_val_int(v);
}

static struct ras_db_col_val tval(const char *s)
{
	return s[0] ? ras_db_val_text(s) : (struct ras_db_col_val){ .type = SQLITE_NULL };
}

/* The three values naming a part (?1..?3 of every write). */
static void identity(const struct ras_db_part *r, struct ras_db_col_val *v)
{
	v[0] = ras_db_val_text(r->kind);
	v[1] = ras_db_val_text(r->part);
	v[2] = ras_db_val_int(r->synthetic);
}

static int run(struct ras_db_parts *p, int which, const struct ras_db_col_val *v, unsigned n)
{
	if (!p)
		return 0;
	if (ras_db_begin(p->db) < 0)
		return -EIO;
	return ras_db_run(p->db, p->st[which], v, n) < 0 ? -EIO : 0;
}

int ras_db_part_put(struct ras_db_parts *p, const struct ras_db_part *r)
{
	struct ras_db_col_val v[24];

	identity(r, v);
	v[3] = tval(r->label);
	v[4] = ival(r->first_ns);
	v[5] = ival(r->last_ns);
	v[6] = ras_db_val_int(r->records);
	v[7] = ras_db_val_int(r->corrected);
	v[8] = ras_db_val_int(r->uncorrected);
	v[9] = ras_db_val_int(r->fatal);
	v[10] = ras_db_val_int(r->coord_records);
	v[11] = ival(r->cells);
	v[12] = ival(r->beyond);
	v[13] = ival(r->rows);
	v[14] = ival(r->banks);
	v[15] = ival(r->ranks);
	v[16] = tval(r->mode);
	v[17] = ival(r->permanent < 0 ? RAS_DF_NONE : r->permanent);
	v[18] = tval(r->link);
	v[19] = ras_db_val_text(r->verdict);
	v[20] = tval(r->rule);
	v[21] = ival(r->since_ns);
	v[22] = tval(r->why);
	v[23] = r->state ? (struct ras_db_col_val){ .type = SQLITE_BLOB, .p = (const char *)r->state,
						    .len = r->state_len }
			 : (struct ras_db_col_val){ .type = SQLITE_NULL };
	return run(p, ST_PUT, v, 24);
}

int ras_db_part_faults_put(struct ras_db_parts *p, const struct ras_db_part *r,
			   const struct ras_db_fault *f, unsigned n)
{
	struct ras_db_col_val v[20];

	identity(r, v);
	if (run(p, ST_FAULTS_DEL, v, 3) < 0)
		return -EIO;
	for (unsigned i = 0; i < n; i++) {
		v[3] = ras_db_val_int(f[i].idx);
		v[4] = ras_db_val_text(f[i].mode);
		v[5] = ras_db_val_int(f[i].permanent);
		v[6] = ival(f[i].rank);
		v[7] = ival(f[i].bank_group);
		v[8] = ival(f[i].bank);
		v[9] = ival(f[i].row);
		v[10] = ival(f[i].column);
		v[11] = ras_db_val_int(f[i].cells);
		v[12] = ras_db_val_int(f[i].ranks);
		v[13] = ras_db_val_int(f[i].banks);
		v[14] = ras_db_val_int(f[i].rows);
		v[15] = ras_db_val_int(f[i].columns);
		v[16] = ras_db_val_int(f[i].errors);
		v[17] = ras_db_val_int(f[i].first_ns);
		v[18] = ras_db_val_int(f[i].last_ns);
		v[19] = tval(f[i].description);
		if (run(p, ST_FAULT_ADD, v, 20) < 0)
			return -EIO;
	}
	return 0;
}

int ras_db_verdict_add(struct ras_db_parts *p, const struct ras_db_verdict_change *c)
{
	struct ras_db_col_val v[11] = {
		ras_db_val_text(c->kind), ras_db_val_text(c->part), ras_db_val_int(c->synthetic),
		ras_db_val_int(c->at_ns), ras_db_val_int(c->decided_ns),
		p ? ras_db_val_int(p->db->boot) : ival(RAS_DF_NONE), ras_db_val_text(c->was),
		ras_db_val_text(c->verdict), tval(c->rule), tval(c->mode), tval(c->why),
	};

	return run(p, ST_VERDICT, v, 11);
}

int ras_db_health_mark_set(struct ras_db_parts *p, const char *table, int64_t last_id)
{
	struct ras_db_col_val v[2] = { ras_db_val_text(table), ras_db_val_int(last_id) };

	return run(p, ST_MARK, v, 2);
}

/* ---- readers ------------------------------------------------------------ */

static int64_t col_int(sqlite3_stmt *st, int c)
{
	return sqlite3_column_type(st, c) == SQLITE_NULL ? RAS_DF_NONE : sqlite3_column_int64(st, c);
}

static void col_text(sqlite3_stmt *st, int c, char *out, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, c);

	snprintf(out, len, "%s", t ? (const char *)t : "");
}

/* Prepares sql on a readable database holding table: the statement, or NULL and *r. */
static sqlite3_stmt *prepare(struct ras_db *db, const char *table, const char *text, int *r)
{
	sqlite3_stmt *st = NULL;

	*r = 0;
	if (ras_db_sync(db) < 0)
		*r = -EIO;
	else if (!ras_db_table_exists(db, table))
		*r = -ENOENT;
	else if (sqlite3_prepare_v2(db->h, text, -1, &st, NULL) != SQLITE_OK)
		*r = -EIO;
	return st;
}

/* Steps st to its end, handing each row to one(): the rows delivered, or -EIO. */
static int each_row(sqlite3_stmt *st, int (*one)(sqlite3_stmt *st, void *ctx), void *ctx)
{
	int n = 0, r, stop = 0;

	while (!stop && (r = sqlite3_step(st)) == SQLITE_ROW) {
		stop = one(st, ctx);
		n++;
	}
	if (!stop && r != SQLITE_DONE)
		n = -EIO;
	sqlite3_finalize(st);
	return n;
}

struct part_read {
	ras_db_part_fn fn;
	void *ctx;
	bool with_state;
};

static int read_part(sqlite3_stmt *st, void *ctx)
{
	struct part_read *pr = ctx;
	struct ras_db_part r;

	memset(&r, 0, sizeof(r));
	r.id = sqlite3_column_int64(st, 0);
	col_text(st, 1, r.kind, sizeof(r.kind));
	col_text(st, 2, r.part, sizeof(r.part));
	r.synthetic = sqlite3_column_int(st, 3) != 0;
	col_text(st, 4, r.label, sizeof(r.label));
	r.first_ns = col_int(st, 5);
	r.last_ns = col_int(st, 6);
	r.records = sqlite3_column_int64(st, 7);
	r.corrected = sqlite3_column_int64(st, 8);
	r.uncorrected = sqlite3_column_int64(st, 9);
	r.fatal = sqlite3_column_int64(st, 10);
	r.coord_records = sqlite3_column_int64(st, 11);
	r.cells = col_int(st, 12);
	r.beyond = col_int(st, 13);
	r.rows = col_int(st, 14);
	r.banks = col_int(st, 15);
	r.ranks = col_int(st, 16);
	col_text(st, 17, r.mode, sizeof(r.mode));
	r.permanent = sqlite3_column_type(st, 18) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 18);
	col_text(st, 19, r.link, sizeof(r.link));
	col_text(st, 20, r.verdict, sizeof(r.verdict));
	col_text(st, 21, r.rule, sizeof(r.rule));
	r.since_ns = col_int(st, 22);
	col_text(st, 23, r.why, sizeof(r.why));
	if (pr->with_state) {
		r.state = sqlite3_column_blob(st, 24);
		r.state_len = (size_t)sqlite3_column_bytes(st, 24);
	}
	return pr->fn(pr->ctx, &r);
}

int ras_db_part_list(struct ras_db *db, bool include_synthetic, bool with_state, ras_db_part_fn fn,
		     void *ctx)
{
	struct part_read pr = { fn, ctx, with_state };
	int r;
	sqlite3_stmt *st = prepare(db, "parts",
		"SELECT id, kind, part, synthetic, label, first_ns, last_ns, records, corrected,"
		" uncorrected, fatal, coord_records, cells, beyond, dram_rows, banks, ranks, mode,"
		" permanent, link, verdict, rule, since_ns, why, state FROM parts"
		" WHERE ?1 OR synthetic = 0 ORDER BY CASE verdict WHEN 'replace' THEN 0"
		" WHEN 'watch' THEN 1 ELSE 2 END, kind, part, synthetic", &r);

	if (!st)
		return r;
	sqlite3_bind_int(st, 1, include_synthetic);
	return each_row(st, read_part, &pr);
}

struct fault_read {
	ras_db_fault_fn fn;
	void *ctx;
};

static int read_fault(sqlite3_stmt *st, void *ctx)
{
	struct fault_read *fr = ctx;
	struct ras_db_fault f;

	memset(&f, 0, sizeof(f));
	f.idx = sqlite3_column_int(st, 0);
	col_text(st, 1, f.mode, sizeof(f.mode));
	f.permanent = sqlite3_column_int(st, 2);
	f.rank = col_int(st, 3);
	f.bank_group = col_int(st, 4);
	f.bank = col_int(st, 5);
	f.row = col_int(st, 6);
	f.column = col_int(st, 7);
	f.cells = sqlite3_column_int64(st, 8);
	f.ranks = sqlite3_column_int64(st, 9);
	f.banks = sqlite3_column_int64(st, 10);
	f.rows = sqlite3_column_int64(st, 11);
	f.columns = sqlite3_column_int64(st, 12);
	f.errors = sqlite3_column_int64(st, 13);
	f.first_ns = sqlite3_column_int64(st, 14);
	f.last_ns = sqlite3_column_int64(st, 15);
	col_text(st, 16, f.description, sizeof(f.description));
	return fr->fn(fr->ctx, &f);
}

int ras_db_part_faults(struct ras_db *db, int64_t part_id, ras_db_fault_fn fn, void *ctx)
{
	struct fault_read fr = { fn, ctx };
	int r;
	sqlite3_stmt *st = prepare(db, "part_faults",
		"SELECT idx, mode, permanent, dram_rank, bank_group, bank, dram_row, dram_column, cells,"
		" ranks, banks, dram_rows, dram_columns, errors, first_ns, last_ns, description"
		" FROM part_faults WHERE part = ? ORDER BY idx", &r);

	if (!st)
		return r;
	sqlite3_bind_int64(st, 1, part_id);
	return each_row(st, read_fault, &fr);
}

struct verdict_read {
	ras_db_verdict_fn fn;
	void *ctx;
};

static int read_verdict(sqlite3_stmt *st, void *ctx)
{
	struct verdict_read *vr = ctx;
	struct ras_db_verdict_change v;

	memset(&v, 0, sizeof(v));
	v.id = sqlite3_column_int64(st, 0);
	col_text(st, 1, v.kind, sizeof(v.kind));
	col_text(st, 2, v.part, sizeof(v.part));
	v.synthetic = sqlite3_column_int(st, 3) != 0;
	v.at_ns = sqlite3_column_int64(st, 4);
	v.decided_ns = sqlite3_column_int64(st, 5);
	col_text(st, 6, v.boot_id, sizeof(v.boot_id));
	col_text(st, 7, v.was, sizeof(v.was));
	col_text(st, 8, v.verdict, sizeof(v.verdict));
	col_text(st, 9, v.rule, sizeof(v.rule));
	col_text(st, 10, v.mode, sizeof(v.mode));
	col_text(st, 11, v.why, sizeof(v.why));
	return vr->fn(vr->ctx, &v);
}

int ras_db_verdict_history(struct ras_db *db, int64_t part_id, ras_db_verdict_fn fn, void *ctx)
{
	struct verdict_read vr = { fn, ctx };
	int r;
	sqlite3_stmt *st = prepare(db, "verdicts",
		"SELECT v.id, p.kind, p.part, p.synthetic, v.at_ns, v.decided_ns,"
		" (SELECT boot_id FROM boots WHERE id = v.boot), v.was, v.verdict, v.rule, v.mode, v.why"
		" FROM verdicts v JOIN parts p ON p.id = v.part WHERE ?1 = 0 OR v.part = ?1"
		" ORDER BY v.id", &r);

	if (!st)
		return r;
	sqlite3_bind_int64(st, 1, part_id);
	return each_row(st, read_verdict, &vr);
}

int ras_db_table_max_id(struct ras_db *db, unsigned type_idx, int64_t *id)
{
	char text[160];
	int r;

	*id = 0;
	if (type_idx >= ras_n_event_types)
		return 0;
	snprintf(text, sizeof(text), "SELECT max(id) FROM %s", ras_event_types[type_idx].table);
	r = ras_db_sync(db) < 0 ? -EIO : !ras_db_table_exists(db, ras_event_types[type_idx].table) ? 0
		: ras_db_int(db, text, id);
	return r == -ENOENT ? 0 : r;
}

int ras_db_health_mark_get(struct ras_db *db, const char *table, int64_t *id)
{
	int r;
	sqlite3_stmt *st = prepare(db, "health_marks", "SELECT last_id FROM health_marks WHERE tbl = ?",
				   &r);

	if (!st)
		return r == -ENOENT ? 0 : r;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	r = r == SQLITE_ROW ? 1 : r == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	return r;
}

struct action_read {
	ras_db_part_action_fn fn;
	void *ctx;
};

static int read_action(sqlite3_stmt *st, void *ctx)
{
	struct action_read *ar = ctx;
	char action[48], result[48];

	col_text(st, 0, action, sizeof(action));
	col_text(st, 1, result, sizeof(result));
	ar->fn(ar->ctx, action, result, sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
	       sqlite3_column_int64(st, 4));
	return 0;
}

int ras_db_part_actions(struct ras_db *db, const char *part, ras_db_part_action_fn fn, void *ctx)
{
	struct action_read ar = { fn, ctx };
	int r;
	/* The part's own subject and those keyed under it ("mc0 1:0:-1 rank 1 ... row 0x1a2b"). */
	sqlite3_stmt *st = prepare(db, "actions",
		"SELECT action, result, sum(repeats), min(wall_ns), max(coalesce(last_ns, wall_ns))"
		" FROM actions WHERE subject = ?1 OR substr(subject, 1, length(?1) + 1) = ?1 || ' '"
		" GROUP BY action, result ORDER BY action, result", &r);

	if (!st)
		return r;
	sqlite3_bind_text(st, 1, part, -1, SQLITE_STATIC);
	return each_row(st, read_action, &ar);
}

struct metrics_read {
	struct ras_metrics_part *v;
	unsigned n, cap;
	bool nomem;
};

static int part_metric(void *ctx, const struct ras_db_part *p)
{
	struct metrics_read *mr = ctx;
	struct ras_metrics_part *x;
	int v = diag_verdict_parse(p->verdict), mode = p->mode[0] ? diag_mode_parse(p->mode) : 0;

	if (mr->n == mr->cap) {
		unsigned cap = mr->cap ? mr->cap * 2 : 64;

		if (!(x = realloc(mr->v, cap * sizeof(*x)))) {
			mr->nomem = true;
			return 1;
		}
		mr->v = x;
		mr->cap = cap;
	}
	x = &mr->v[mr->n++];
	memset(x, 0, sizeof(*x));
	snprintf(x->kind, sizeof(x->kind), "%s", p->kind);
	snprintf(x->part, sizeof(x->part), "%s", p->part);
	snprintf(x->label, sizeof(x->label), "%s", p->label);
	x->synthetic = p->synthetic;
	x->verdict = v < 0 ? 0 : v;
	x->mode = mode < 0 ? 0 : mode;
	return 0;
}

int ras_db_parts_metrics(struct ras_db *db, struct ras_metrics *m)
{
	struct metrics_read mr = { 0 };
	int r = ras_db_part_list(db, true, false, part_metric, &mr);

	if (r < 0 || mr.nomem) {
		free(mr.v);
		return r < 0 ? r : -ENOMEM;
	}
	free(m->parts);
	m->parts = mr.v;
	m->n_parts = mr.n;
	return 0;
}
