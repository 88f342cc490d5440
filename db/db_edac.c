/* SPDX-License-Identifier: MIT */
/*
 * EDAC topology snapshots and counting windows. A snapshot is stored only
 * when the topology differs from the last one of the boot, so each boot
 * keeps the layout its records were reported against: after a DIMM swap
 * or on another machine, old records still map to the DIMMs they hit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db_internal.h"
#include "db_rollup.h"
#include "db_edac.h"

/* Schema step 3. Absent layers are stored as -1 so that they compare equal. */

/* The snapshot a record maps through (db_rollup.h). */
#define SNAPSHOT_OF_RECORD RAS_DB_SNAPSHOT_AT("e.boot", "e.wall_ns")

/* Same parameters as db_query.c's filter: ?1 since, ?2 until, ?3 synthetic, ?4 boot id. */
#define RECORD_FILTER \
	" (?1 = 0 OR e.wall_ns >= ?1) AND (?2 = 0 OR e.wall_ns < ?2)" \
	" AND (?3 OR (e.source <> 'synthetic' AND e.synthetic = 0))" \
	" AND (?4 IS NULL OR e.boot = (SELECT id FROM boots WHERE boot_id = ?4))"

static int prepare(struct ras_db *db, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	return 0;
}

static int step_done(struct ras_db *db, sqlite3_stmt *st)
{
	int r = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (r != SQLITE_DONE) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		return -EIO;
	}
	return 0;
}

static void bind_text(sqlite3_stmt *st, int col, const char *s)
{
	sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
}

static const char *column_text(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	return s ? s : "";
}

int ras_db_edac_last_digest(struct ras_db *db, uint64_t *digest)
{
	sqlite3_stmt *st;
	int r = -ENOENT;

	if (!ras_db_table_exists(db, "edac_snapshots") ||
	    prepare(db, "SELECT digest FROM edac_snapshots WHERE boot = ? ORDER BY id DESC LIMIT 1",
		    &st) < 0)
		return -ENOENT;
	sqlite3_bind_int64(st, 1, db->boot);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*digest = (uint64_t)sqlite3_column_int64(st, 0);
		r = 0;
	}
	sqlite3_finalize(st);
	return r;
}

static int store_dimms(struct ras_db *db, sqlite3_stmt *st, int64_t snap, const struct edac_mc *mc)
{
	int r = 0;

	for (unsigned i = 0; i < mc->n_dimms && r == 0; i++) {
		const struct edac_dimm *d = &mc->dimms[i];

		sqlite3_bind_int64(st, 1, snap);
		sqlite3_bind_int(st, 2, (int)mc->index);
		sqlite3_bind_int(st, 3, (int)d->index);
		sqlite3_bind_int(st, 4, d->is_rank);
		for (int l = 0; l < EDAC_MAX_LAYERS; l++)
			sqlite3_bind_int(st, 5 + l, d->pos[l]);
		bind_text(st, 8, d->location);
		bind_text(st, 9, d->label);
		bind_text(st, 10, d->configured_label);
		sqlite3_bind_int64(st, 11, (int64_t)d->size_mb);
		bind_text(st, 12, d->mem_type);
		bind_text(st, 13, d->dev_type);
		bind_text(st, 14, d->edac_mode);
		sqlite3_bind_int(st, 15, d->csrow);
		sqlite3_bind_int(st, 16, d->cschannel);
		r = step_done(db, st);
	}
	return r;
}

static int store_csrow_channel(struct ras_db *db, sqlite3_stmt *st, int64_t snap,
			       const struct edac_mc *mc, const struct edac_csrow *cs, int ch)
{
	static const struct edac_csrow_channel none = { .pos = { -1, -1, -1 } };
	const struct edac_csrow_channel *c = ch >= 0 ? &cs->ch[ch] : &none;

	sqlite3_bind_int64(st, 1, snap);
	sqlite3_bind_int(st, 2, (int)mc->index);
	sqlite3_bind_int(st, 3, (int)cs->index);
	sqlite3_bind_int(st, 4, ch);
	sqlite3_bind_int64(st, 5, (int64_t)cs->size_mb);
	bind_text(st, 6, cs->mem_type);
	bind_text(st, 7, cs->dev_type);
	bind_text(st, 8, cs->edac_mode);
	bind_text(st, 9, c->dimm_label);
	bind_text(st, 10, c->configured_label);
	for (int l = 0; l < EDAC_MAX_LAYERS; l++)
		sqlite3_bind_int(st, 11 + l, c->pos[l]);
	return step_done(db, st);
}

static int store_csrows(struct ras_db *db, sqlite3_stmt *st, int64_t snap, const struct edac_mc *mc)
{
	int r = 0;

	for (unsigned i = 0; i < mc->n_csrows && r == 0; i++) {
		const struct edac_csrow *cs = &mc->csrows[i];

		/* A csrow without channel files is kept as channel -1 for its attributes. */
		if (!cs->n_channels)
			r = store_csrow_channel(db, st, snap, mc, cs, -1);
		for (unsigned c = 0; c < cs->n_channels && r == 0; c++)
			r = store_csrow_channel(db, st, snap, mc, cs, (int)c);
	}
	return r;
}

static int store_mcs(struct ras_db *db, int64_t snap, const struct edac_topology *t)
{
	sqlite3_stmt *mst = NULL, *dst = NULL, *cst = NULL;
	int r = prepare(db, "INSERT INTO edac_mcs (snapshot, mc, mc_name, size_mb, max_location)"
			" VALUES (?, ?, ?, ?, ?)", &mst);

	if (r == 0)
		r = prepare(db, "INSERT INTO edac_dimms (snapshot, mc, idx, is_rank, top, mid, low,"
			    " location, label, configured_label, size_mb, mem_type, dev_type,"
			    " edac_mode, csrow, cschannel)"
			    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", &dst);
	if (r == 0)
		r = prepare(db, "INSERT INTO edac_csrows (snapshot, mc, csrow, channel, size_mb,"
			    " mem_type, dev_type, edac_mode, dimm_label, configured_label, top, mid, low)"
			    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", &cst);
	for (unsigned m = 0; m < t->n_mcs && r == 0; m++) {
		const struct edac_mc *mc = &t->mcs[m];

		sqlite3_bind_int64(mst, 1, snap);
		sqlite3_bind_int(mst, 2, (int)mc->index);
		bind_text(mst, 3, mc->mc_name);
		sqlite3_bind_int64(mst, 4, (int64_t)mc->size_mb);
		bind_text(mst, 5, mc->max_location);
		r = step_done(db, mst);
		if (r == 0)
			r = store_dimms(db, dst, snap, mc);
		if (r == 0)
			r = store_csrows(db, cst, snap, mc);
	}
	sqlite3_finalize(mst);
	sqlite3_finalize(dst);
	sqlite3_finalize(cst);
	return r;
}

int ras_db_edac_store_snapshot(struct ras_db *db, const struct edac_topology *t, uint64_t digest,
			       const char *board_key, int64_t now_ns)
{
	bool own_txn = !db->in_txn;
	sqlite3_stmt *st;
	int r;

	if (ras_db_sync(db) < 0 || (own_txn && ras_db_begin(db) < 0))
		return -EIO;
	r = prepare(db, "INSERT INTO edac_snapshots (boot, taken_ns, digest, board) VALUES (?, ?, ?, ?)",
		    &st);
	if (r == 0) {
		sqlite3_bind_int64(st, 1, db->boot);
		sqlite3_bind_int64(st, 2, now_ns);
		sqlite3_bind_int64(st, 3, (int64_t)digest);
		bind_text(st, 4, board_key ? board_key : "");
		r = step_done(db, st);
		sqlite3_finalize(st);
	}
	if (r == 0)
		r = store_mcs(db, sqlite3_last_insert_rowid(db->h), t);
	if (r < 0 && own_txn) {
		sqlite3_step(db->stmt[STMT_ROLLBACK]);
		sqlite3_reset(db->stmt[STMT_ROLLBACK]);
		db->in_txn = false;
		return r;
	}
	if (own_txn)
		r = ras_db_commit(db);
	return r;
}

int ras_db_edac_snapshots(struct ras_db *db, const char *boot_id, ras_db_edac_snapshot_fn fn,
			  void *ctx)
{
	sqlite3_stmt *st;
	int n = 0, r = 0;

	if (!ras_db_table_exists(db, "edac_snapshots"))
		return 0;
	if (prepare(db, "SELECT s.id, s.taken_ns, b.boot_id, s.board, s.digest FROM edac_snapshots s"
		    " LEFT JOIN boots b ON b.id = s.boot WHERE ?1 IS NULL OR b.boot_id = ?1"
		    " ORDER BY s.id DESC", &st) < 0)
		return -EIO;
	if (boot_id)
		bind_text(st, 1, boot_id);
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW) {
		struct ras_db_edac_snapshot_info s = {
			.id = sqlite3_column_int64(st, 0),
			.taken_ns = sqlite3_column_int64(st, 1),
			.boot_id = column_text(st, 2),
			.board = column_text(st, 3),
			.digest = (uint64_t)sqlite3_column_int64(st, 4),
		};

		r = fn(ctx, &s);
		n++;
	}
	sqlite3_finalize(st);
	return r < 0 ? r : n;
}

static int take_id(void *ctx, const struct ras_db_edac_snapshot_info *s)
{
	*(int64_t *)ctx = s->id;
	return 1;  /* the first, newest, is enough */
}

int ras_db_edac_latest_snapshot(struct ras_db *db, const char *boot_id, int64_t *id)
{
	int r;

	*id = 0;
	r = ras_db_edac_snapshots(db, boot_id, take_id, id);
	if (r < 0)
		return r;
	return *id ? 0 : -ENOENT;
}

static int load_mcs(struct ras_db *db, int64_t id, struct edac_topology *out)
{
	sqlite3_stmt *st;
	unsigned n = 0;

	if (prepare(db, "SELECT mc, mc_name, size_mb, max_location FROM edac_mcs WHERE snapshot = ?"
		    " ORDER BY mc", &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW)
		n++;
	sqlite3_reset(st);
	out->mcs = calloc(n ? n : 1, sizeof(*out->mcs));
	if (!out->mcs) {
		sqlite3_finalize(st);
		return -ENOMEM;
	}
	while (out->n_mcs < n && sqlite3_step(st) == SQLITE_ROW) {
		struct edac_mc *mc = &out->mcs[out->n_mcs++];
		int pos[EDAC_MAX_LAYERS], layers;

		mc->index = (unsigned)sqlite3_column_int(st, 0);
		snprintf(mc->mc_name, sizeof(mc->mc_name), "%s", column_text(st, 1));
		mc->size_mb = (uint64_t)sqlite3_column_int64(st, 2);
		snprintf(mc->max_location, sizeof(mc->max_location), "%s", column_text(st, 3));
		layers = edac_parse_location(mc->max_location, mc->layer_name, pos);
		for (int l = 0; l < layers; l++)
			mc->layer_size[l] = (unsigned)pos[l] + 1;
		mc->n_layers = layers > 0 ? (unsigned)layers : 0;
	}
	sqlite3_finalize(st);
	return 0;
}

static struct edac_mc *mc_of(struct edac_topology *t, int index)
{
	for (unsigned i = 0; i < t->n_mcs; i++)
		if ((int)t->mcs[i].index == index)
			return &t->mcs[i];
	return NULL;
}

static int add_dimm_row(sqlite3_stmt *st, struct edac_topology *t)
{
	struct edac_mc *mc = mc_of(t, sqlite3_column_int(st, 0));
	struct edac_dimm *d, *grown;

	if (!mc)
		return 0;
	grown = realloc(mc->dimms, (mc->n_dimms + 1) * sizeof(*mc->dimms));
	if (!grown)
		return -ENOMEM;
	mc->dimms = grown;
	d = memset(&mc->dimms[mc->n_dimms++], 0, sizeof(*d));
	d->index = (unsigned)sqlite3_column_int(st, 1);
	d->is_rank = sqlite3_column_int(st, 2) != 0;
	for (int l = 0; l < EDAC_MAX_LAYERS; l++)
		d->pos[l] = sqlite3_column_int(st, 3 + l);
	snprintf(d->location, sizeof(d->location), "%s", column_text(st, 6));
	snprintf(d->label, sizeof(d->label), "%s", column_text(st, 7));
	snprintf(d->configured_label, sizeof(d->configured_label), "%s", column_text(st, 8));
	d->size_mb = (uint64_t)sqlite3_column_int64(st, 9);
	snprintf(d->mem_type, sizeof(d->mem_type), "%s", column_text(st, 10));
	snprintf(d->dev_type, sizeof(d->dev_type), "%s", column_text(st, 11));
	snprintf(d->edac_mode, sizeof(d->edac_mode), "%s", column_text(st, 12));
	d->csrow = sqlite3_column_int(st, 13);
	d->cschannel = sqlite3_column_int(st, 14);
	return 0;
}

static struct edac_csrow *csrow_of(struct edac_mc *mc, unsigned index)
{
	struct edac_csrow *grown;

	if (mc->n_csrows && mc->csrows[mc->n_csrows - 1].index == index)
		return &mc->csrows[mc->n_csrows - 1];
	grown = realloc(mc->csrows, (mc->n_csrows + 1) * sizeof(*mc->csrows));
	if (!grown)
		return NULL;
	mc->csrows = grown;
	memset(&mc->csrows[mc->n_csrows], 0, sizeof(*grown));
	mc->csrows[mc->n_csrows].index = index;
	return &mc->csrows[mc->n_csrows++];
}

static int add_csrow_row(sqlite3_stmt *st, struct edac_topology *t)
{
	struct edac_mc *mc = mc_of(t, sqlite3_column_int(st, 0));
	struct edac_csrow *cs;
	struct edac_csrow_channel *c;
	int ch = sqlite3_column_int(st, 2);

	if (!mc)
		return 0;
	cs = csrow_of(mc, (unsigned)sqlite3_column_int(st, 1));
	if (!cs)
		return -ENOMEM;
	cs->size_mb = (uint64_t)sqlite3_column_int64(st, 3);
	snprintf(cs->mem_type, sizeof(cs->mem_type), "%s", column_text(st, 4));
	snprintf(cs->dev_type, sizeof(cs->dev_type), "%s", column_text(st, 5));
	snprintf(cs->edac_mode, sizeof(cs->edac_mode), "%s", column_text(st, 6));
	if (ch < 0 || ch >= EDAC_MAX_CSROW_CHANNELS)
		return 0;
	c = &cs->ch[ch];
	snprintf(c->dimm_label, sizeof(c->dimm_label), "%s", column_text(st, 7));
	snprintf(c->configured_label, sizeof(c->configured_label), "%s", column_text(st, 8));
	for (int l = 0; l < EDAC_MAX_LAYERS; l++)
		c->pos[l] = sqlite3_column_int(st, 9 + l);
	if ((unsigned)ch + 1 > cs->n_channels)
		cs->n_channels = (unsigned)ch + 1;
	return 0;
}

static int load_rows(struct ras_db *db, const char *sql, int64_t id, struct edac_topology *t,
		     int (*add)(sqlite3_stmt *, struct edac_topology *))
{
	sqlite3_stmt *st;
	int r = 0;

	if (prepare(db, sql, &st) < 0)
		return -EIO;
	sqlite3_bind_int64(st, 1, id);
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW)
		r = add(st, t);
	sqlite3_finalize(st);
	return r;
}

int ras_db_edac_load_snapshot(struct ras_db *db, int64_t id, struct edac_topology *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	r = load_mcs(db, id, out);
	if (r == 0)
		r = load_rows(db, "SELECT mc, idx, is_rank, top, mid, low, location, label,"
			      " configured_label, size_mb, mem_type, dev_type, edac_mode, csrow, cschannel"
			      " FROM edac_dimms WHERE snapshot = ? ORDER BY mc, idx", id, out, add_dimm_row);
	if (r == 0)
		r = load_rows(db, "SELECT mc, csrow, channel, size_mb, mem_type, dev_type, edac_mode,"
			      " dimm_label, configured_label, top, mid, low"
			      " FROM edac_csrows WHERE snapshot = ? ORDER BY mc, csrow, channel",
			      id, out, add_csrow_row);
	if (r < 0)
		edac_topology_free(out);
	return r;
}

static char *counts_sql(unsigned n_bounds)
{
	size_t cap = 2048 + (size_t)n_bounds * 32, n;
	char *sql = malloc(cap);

	if (!sql)
		return NULL;
	n = (size_t)snprintf(sql, cap, "SELECT " SNAPSHOT_OF_RECORD " AS snap, coalesce(e.mc_index, -1),"
			     " coalesce(e.top_layer, -1), coalesce(e.middle_layer, -1),"
			     " coalesce(e.lower_layer, -1), coalesce(e.error_type, -1), 0");
	/* Placeholders only: the bounds themselves are bound below. */
	for (unsigned i = 0; i < n_bounds; i++)
		n += (size_t)snprintf(sql + n, cap - n, " + (e.wall_ns >= ?%u)", 5 + i);
	snprintf(sql + n, cap - n, " AS seg, sum(" RAS_DB_EDAC_ERRORS_SQL("e.error_count") "), count(*), max(e.wall_ns)"
		 " FROM mc_event e WHERE" RECORD_FILTER " GROUP BY 1, 2, 3, 4, 5, 6, 7");
	return sql;
}

static void bind_filter(sqlite3_stmt *st, const struct ras_db_filter *f)
{
	sqlite3_bind_int64(st, 1, f->since_ns);
	sqlite3_bind_int64(st, 2, f->until_ns);
	sqlite3_bind_int(st, 3, f->include_synthetic);
	if (f->boot_id)
		bind_text(st, 4, f->boot_id);
	else
		sqlite3_bind_null(st, 4);
}

static sqlite3_stmt *scan_stmt(struct ras_db *db, const struct ras_db_filter *f,
			       const int64_t *bounds, unsigned n_bounds)
{
	sqlite3_stmt *st;
	char *sql = counts_sql(n_bounds);
	int rc;

	if (!sql)
		return NULL;
	rc = prepare(db, sql, &st);
	free(sql);
	if (rc < 0)
		return NULL;
	bind_filter(st, f);
	for (unsigned i = 0; i < n_bounds; i++)
		sqlite3_bind_int64(st, (int)(5 + i), bounds[i]);
	return st;
}

static int deliver_counts(struct ras_db *db, sqlite3_stmt *st, ras_db_edac_count_fn fn, void *ctx)
{
	int r = 0, rc = SQLITE_DONE;

	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ras_db_edac_count c = {
			.snapshot = sqlite3_column_int64(st, 0),
			.mc = sqlite3_column_int(st, 1),
			.top = sqlite3_column_int(st, 2),
			.mid = sqlite3_column_int(st, 3),
			.low = sqlite3_column_int(st, 4),
			.error_type = sqlite3_column_int(st, 5),
			.segment = (unsigned)sqlite3_column_int(st, 6),
			.errors = sqlite3_column_int64(st, 7),
			.records = sqlite3_column_int64(st, 8),
			.last_ns = sqlite3_column_int64(st, 9),
		};

		r = fn(ctx, &c);
	}
	if (r == 0 && rc != SQLITE_DONE && rc != SQLITE_ROW) {
		snprintf(db->err, sizeof(db->err), "%s", sqlite3_errmsg(db->h));
		r = -EIO;
	}
	sqlite3_finalize(st);
	return r;
}

static int edac_counts(struct ras_db *db, const struct ras_db_filter *f, const int64_t *bounds,
		       unsigned n_bounds, ras_db_edac_count_fn fn, void *ctx, bool scan)
{
	sqlite3_stmt *st;

	if (n_bounds > RAS_DB_EDAC_MAX_BOUNDS)
		return -E2BIG;
	if (!ras_db_table_exists(db, "mc_event") || !ras_db_table_exists(db, "edac_snapshots"))
		return 0;
	/* An older database, opened read-only, has no roll-up: it is scanned. */
	st = scan || !ras_db_table_exists(db, "rollup_edac")
		     ? scan_stmt(db, f, bounds, n_bounds)
		     : ras_db_edac_rollup_counts_stmt(db, f, bounds, n_bounds);
	return st ? deliver_counts(db, st, fn, ctx) : -EIO;
}

int ras_db_edac_counts(struct ras_db *db, const struct ras_db_filter *f, const int64_t *bounds,
		       unsigned n_bounds, ras_db_edac_count_fn fn, void *ctx)
{
	return edac_counts(db, f, bounds, n_bounds, fn, ctx, false);
}

int ras_db_edac_counts_scan(struct ras_db *db, const struct ras_db_filter *f, const int64_t *bounds,
			    unsigned n_bounds, ras_db_edac_count_fn fn, void *ctx)
{
	return edac_counts(db, f, bounds, n_bounds, fn, ctx, true);
}

int ras_db_edac_windows(struct ras_db *db, ras_db_edac_window_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int r = 0;

	if (!ras_db_table_exists(db, "edac_windows"))
		return 0;
	if (prepare(db, "SELECT scope, start_ns FROM edac_windows ORDER BY start_ns", &st) < 0)
		return -EIO;
	while (r == 0 && sqlite3_step(st) == SQLITE_ROW)
		r = fn(ctx, column_text(st, 0), sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
	return r;
}

int ras_db_edac_record_label(struct ras_db *db, int mc, int top, int mid, int low, char *out, size_t len)
{
	/* Newest first, by row id: the scan stops at the DIMM's latest record. */
	static const char sql[] =
		"SELECT coalesce(nullif(dec_label, ''), nullif(label, ''), '') FROM mc_event_decoded"
		" WHERE coalesce(mc_index, -1) = ?1 AND coalesce(top_layer, -1) = ?2"
		" AND coalesce(middle_layer, -1) = ?3 AND coalesce(lower_layer, -1) = ?4"
		" ORDER BY id DESC LIMIT 1";
	sqlite3_stmt *st;
	int r;

	if (len)
		out[0] = '\0';
	if (!ras_db_table_exists(db, "mc_event"))
		return 0;
	if (prepare(db, sql, &st) < 0)
		return -EIO;
	sqlite3_bind_int(st, 1, mc);
	sqlite3_bind_int(st, 2, top);
	sqlite3_bind_int(st, 3, mid);
	sqlite3_bind_int(st, 4, low);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? 0 : -EIO;
}

int ras_db_edac_window_add(struct ras_db *db, const char *scope, int64_t start_ns)
{
	sqlite3_stmt *st;
	int r = prepare(db, "INSERT INTO edac_windows (scope, start_ns) VALUES (?, ?)", &st);

	if (r < 0)
		return r;
	bind_text(st, 1, scope);
	sqlite3_bind_int64(st, 2, start_ns);
	r = step_done(db, st);
	sqlite3_finalize(st);
	return r;
}

static const char *purge_sql(int mc, const char *kind)
{
	if (mc < 0)
		return "DELETE FROM mc_event WHERE wall_ns < ?1";
	if (!kind)
		return "DELETE FROM mc_event WHERE wall_ns < ?1 AND mc_index = ?2";
	if (!strcmp(kind, "csrow"))
		return "DELETE FROM mc_event WHERE id IN (SELECT e.id FROM mc_event e"
		       " WHERE e.wall_ns < ?1 AND e.mc_index = ?2 AND EXISTS (SELECT 1 FROM edac_csrows c"
		       " WHERE c.snapshot = " SNAPSHOT_OF_RECORD " AND c.mc = ?2 AND c.csrow = ?3"
		       " AND c.top = e.top_layer AND c.mid = e.middle_layer AND c.low = e.lower_layer))";
	return "DELETE FROM mc_event WHERE id IN (SELECT e.id FROM mc_event e"
	       " WHERE e.wall_ns < ?1 AND e.mc_index = ?2 AND EXISTS (SELECT 1 FROM edac_dimms d"
	       " WHERE d.snapshot = " SNAPSHOT_OF_RECORD " AND d.mc = ?2 AND d.idx = ?3"
	       " AND d.top = e.top_layer AND d.mid = e.middle_layer AND d.low = e.lower_layer))";
}

/* Deletes the folded mc_event records older than before_ns, adding how many to *deleted. */
static int purge_folds(struct ras_db *db, int64_t before_ns, int64_t *deleted)
{
	static const char *const sql[] = {
		"SELECT coalesce(sum(records), 0) FROM folds WHERE tbl = 'mc_event' AND last_ns < ?1",
		/* Their growth goes with them: a folds id handed out again must not inherit it. */
		"DELETE FROM fold_growth WHERE fold IN (SELECT id FROM folds WHERE tbl = 'mc_event'"
		" AND last_ns < ?1)",
		"DELETE FROM folds WHERE tbl = 'mc_event' AND last_ns < ?1",
	};
	sqlite3_stmt *st;
	int r = 0;

	for (int i = 0; i < 3 && r == 0; i++) {
		if (i == 1 && !ras_db_table_exists(db, "fold_growth"))
			continue;
		if ((r = prepare(db, sql[i], &st)) < 0)
			return r;
		sqlite3_bind_int64(st, 1, before_ns);
		if (i == 0 && sqlite3_step(st) == SQLITE_ROW)
			*deleted += sqlite3_column_int64(st, 0);
		else if (i > 0)
			r = step_done(db, st);
		sqlite3_finalize(st);
	}
	return r;
}

int ras_db_edac_purge(struct ras_db *db, int mc, const char *node_kind, int node_idx,
		      int64_t before_ns, int64_t *deleted)
{
	sqlite3_stmt *st;
	int64_t max_id = 0;
	int r;

	*deleted = 0;
	if (!ras_db_table_exists(db, "mc_event"))
		return 0;
	/* The newest rows may go: their ids are not handed out again (export counts on it). */
	if (ras_db_int(db, "SELECT coalesce(max(id), 0) FROM mc_event", &max_id) < 0 ||
	    ras_db_raise_id_floor(db, (unsigned)(ras_event_type_find("mc_event") - ras_event_types),
				  max_id) < 0)
		return -EIO;
	r = prepare(db, purge_sql(mc, node_kind), &st);
	if (r < 0)
		return r;
	sqlite3_bind_int64(st, 1, before_ns);
	if (mc >= 0)
		sqlite3_bind_int(st, 2, mc);
	if (mc >= 0 && node_kind)
		sqlite3_bind_int(st, 3, node_idx);
	r = step_done(db, st);
	sqlite3_finalize(st);
	if (r == 0)
		*deleted = sqlite3_changes(db->h);
	/* Folded storm records go with a purge of every memory controller (they name none). */
	if (r == 0 && mc < 0 && ras_db_table_exists(db, "folds"))
		r = purge_folds(db, before_ns, deleted);
	/* The counts follow the rows: a purge is rare, a recount of one table is fine. */
	if (r == 0 && *deleted)
		r = ras_db_rollup_rebuild(db, (unsigned)(ras_event_type_find("mc_event") - ras_event_types));
	return r;
}

int ras_db_edac_reset(struct ras_db *db, const char *scope, int mc, const char *node_kind,
		      int node_idx, int64_t now_ns, bool purge, int64_t *deleted)
{
	int r;

	*deleted = 0;
	if (ras_db_exec(db, "BEGIN IMMEDIATE") < 0)
		return -EIO;
	r = purge ? ras_db_edac_purge(db, mc, node_kind, node_idx, now_ns, deleted) : 0;
	if (r == 0)
		r = ras_db_edac_window_add(db, scope, now_ns);
	if (r == 0 && ras_db_exec(db, "COMMIT") < 0)
		r = -EIO;
	if (r < 0)
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return r;
}

int ras_db_edac_open_rw(struct ras_db **out, const char *path, char *err, size_t errlen)
{
	struct ras_db *db;

	int r = ras_db_check_usable(path, NULL, err, errlen);

	if (r < 0)
		return r;
	if (access(path, R_OK | W_OK) != 0) {
		snprintf(err, errlen, "cannot write database %s: %s", path, strerror(errno));
		return -errno;
	}
	db = calloc(1, sizeof(*db));
	if (!db)
		return -ENOMEM;
	ras_db_sqlite_setup();
	if (sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open database %s: %s", path,
			 db->h ? sqlite3_errmsg(db->h) : "out of memory");
		ras_db_close(db);
		return -EIO;
	}
	sqlite3_busy_timeout(db->h, 5000);
	if ((r = ras_db_check_usable(path, db->h, err, errlen)) < 0) {
		ras_db_close(db);
		return r;
	}
	if (!ras_db_table_exists(db, "edac_windows")) {
		snprintf(err, errlen, "database %s has no EDAC tables yet; start rasd once to upgrade it",
			 path);
		ras_db_close(db);
		return -ENOENT;
	}
	*out = db;
	return 0;
}
