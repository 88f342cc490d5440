/* SPDX-License-Identifier: MIT */
/*
 * The batch's folds written at commit (or when its slots fill): each entry
 * is merged into the folds row of its key, if one is stored (counts added,
 * address range widened, distinct values joined, its seconds appended to the
 * delta-packed times), else inserted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_fold_internal.h"
#include "lib/grow.h"

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
/* ins_sql's columns: a run of new rows binds row j's at j * NEW_COLS + 1 on. */
#define NEW_COLS 23
static const char upd_sql[] =
	"UPDATE folds SET records = ?11, errors = ?12, first_ns = ?13, last_ns = ?14,"
	" addr_lo = ?15, addr_hi = ?16, details = ?17, details_more = ?18, times = ?19,"
	" last_s = ?20 WHERE id = ?1";

/* e's key bound to parameters at + 1 to at + 10, at + 22 and at + 23 (ins_sql's numbers, from at). */
static void bind_key(sqlite3_stmt *st, int at, const struct fold_entry *e)
{
	sqlite3_bind_text(st, at + 1, ras_event_types[e->idx].table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, at + 2, e->hour);
	sqlite3_bind_text(st, at + 3, e->subject, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, at + 4, e->key.boot);
	sqlite3_bind_text(st, at + 5, e->key.source, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, at + 6, e->key.synthetic);
	sqlite3_bind_text(st, at + 7, e->key.severity, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, at + 8, e->key.location, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, at + 9, e->key.dec);
	sqlite3_bind_text(st, at + 10, e->key.dims, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, at + 22, e->key.fresh);
	sqlite3_bind_text(st, at + 23, e->key.ekey, -1, SQLITE_STATIC);
}

/*
 * The update of a row known from the last write (fold_stored): it applies
 * only if the row still has what that write left (a rollback, a purge or
 * another writer since: 0 rows changed, and the row is read). The seconds
 * are appended where the last write's end, inside the stored blob. By id
 * alone, the key columns not compared again (4 % of the writer thread on the
 * 1M-record bench): the key was compared in memory (write_entry), and a
 * folds id is never handed out again (schema step 25), so a row of that id
 * is the key's row or none.
 */
static const char upd_known_sql[] =
	"UPDATE folds SET records = ?11, errors = ?12, first_ns = ?13, last_ns = ?14,"
	" addr_lo = ?15, addr_hi = ?16, details = ?17, details_more = ?18,"
	" times = CAST(substr(times, 1, ?31) || ?19 AS BLOB), last_s = ?20"
	" WHERE id = ?30 AND records = ?32 AND last_s = ?33 AND length(times) = ?34";
/* The same with the row's times kept (fold_stored.times): the whole new blob bound. */
static const char upd_whole_sql[] =
	"UPDATE folds SET records = ?11, errors = ?12, first_ns = ?13, last_ns = ?14,"
	" addr_lo = ?15, addr_hi = ?16, details = ?17, details_more = ?18, times = ?19, last_s = ?20"
	" WHERE id = ?30 AND records = ?32 AND last_s = ?33 AND length(times) = ?34";

/*
 * The growth log (schema step 17, db_export.c reads it): what each write
 * added to folds row fold, its seconds at bytes times_from to times_to of
 * the row's times (deltas from prev_s) and, for records that were committed
 * rows, their row ids. Only a database without the table (none a writer
 * opens) skips it. The rows wait and go RAS_DB_ROWS_PER_INSERT to an INSERT
 * (a one-row INSERT a write was 6,000 instructions, 181,417 of them on the
 * 1M-record bench), in the order written: the same seq each.
 */
#define GROW_COLS 9

static int grow_prepare(struct ras_db *db, unsigned k)
{
	char sql[2048];
	size_t n = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO fold_growth (fold, records, errors,"
				    " first_ns, last_ns, times_from, times_to, prev_s, ids) VALUES ");

	n = ras_db_sql_values(sql, sizeof(sql), n, ras_db_run_rows(k), GROW_COLS);
	if (n >= sizeof(sql) || sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT,
						   &db->fold->grow[k], NULL) != SQLITE_OK)
		return -EIO;
	return 0;
}

static int news_flush(struct ras_db *db);

/*
 * Inserts the waiting growth rows, as many at once as a run takes, after the
 * waiting new rows (their ids): 0 or -EIO (none wait after).
 */
static int grow_flush(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;
	int r = news_flush(db);

	for (unsigned i = 0, k, rows; r == 0 && i < f->ngrows; i += rows) {
		sqlite3_stmt *st;

		k = ras_db_run_of(f->ngrows - i);
		rows = ras_db_run_rows(k);
		if (!f->grow[k] && grow_prepare(db, k) < 0) {
			r = -EIO;
			break;
		}
		st = f->grow[k];
		for (unsigned j = 0; j < rows; j++) {
			const struct fold_grow_row *g = &f->grows[i + j];
			int col = (int)(j * GROW_COLS);

			for (int c = 0; c < 8; c++)
				sqlite3_bind_int64(st, col + c + 1, g->v[c]);
			if (g->ids)
				sqlite3_bind_blob(st, col + 9, f->grow_ids + g->ids_at, (int)g->ids_len,
						  SQLITE_STATIC);
			else
				sqlite3_bind_null(st, col + 9);
		}
		r = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
		sqlite3_reset(st);
	}
	f->ngrows = 0;
	f->grow_ids_len = 0;
	return r;
}

/* Room for n more bytes of ids: 0 or -ENOMEM. */
static int grow_ids_room(struct ras_db_fold *f, size_t n)
{
	size_t grown;

	if (ras_grow_room(&f->grow_ids, &f->grow_ids_cap, f->grow_ids_len, n, 256, &grown) < 0)
		return -ENOMEM;
	if (grown) {
		f->buf_bytes += grown;
		ras_db_fold_count_bytes(f);
	}
	return 0;
}

static int log_growth(struct ras_db *db, const struct fold_entry *e, int64_t fold_id, size_t from,
		      size_t to, int64_t prev_s)
{
	struct ras_db_fold *f = db->fold;
	struct fold_grow_row *g;
	int64_t prev = 0;

	if (!f->growth_log)
		f->growth_log = ras_db_table_exists(db, "fold_growth") ? 1 : -1;
	if (f->growth_log < 0)
		return 0;
	if (!e->key.fresh && grow_ids_room(f, e->nsecs * 20 + 1) < 0)
		return -ENOMEM;
	g = &f->grows[f->ngrows++];
	*g = (struct fold_grow_row){ .v = { fold_id, e->records, e->errors, e->first_ns, e->last_ns,
					    (int64_t)from, (int64_t)to, prev_s },
				     .ids_at = f->grow_ids_len, .ids = !e->key.fresh };
	for (size_t i = 0; g->ids && i < e->nsecs; i++) {
		uint8_t *out = f->grow_ids + f->grow_ids_len;

		f->grow_ids_len += ras_db_fold_put_delta(out, e->ids[2 * i] - prev);
		f->grow_ids_len += ras_db_fold_put_delta(f->grow_ids + f->grow_ids_len, e->ids[2 * i + 1] - 1);
		prev = e->ids[2 * i];
	}
	g->ids_len = f->grow_ids_len - g->ids_at;
	return f->ngrows == RAS_DB_ROWS_PER_INSERT ? grow_flush(db) : 0;
}

/* Merges what a folds row holds into m, the batch's entry (the row's details after the batch's). */
static void merge_stored(struct fold_entry *m, const struct fold_stored *s)
{
	m->records += s->records;
	m->errors += s->errors;
	m->first_ns = s->first_ns < m->first_ns ? s->first_ns : m->first_ns;
	m->last_ns = s->last_ns > m->last_ns ? s->last_ns : m->last_ns;
	if (s->have_addr) {
		m->addr_lo = !m->have_addr || s->addr_lo < m->addr_lo ? s->addr_lo : m->addr_lo;
		m->addr_hi = !m->have_addr || s->addr_hi > m->addr_hi ? s->addr_hi : m->addr_hi;
		m->have_addr = true;
	}
	for (unsigned i = 0; i < s->ndetails; i++)
		ras_db_fold_add_detail(m->details, &m->ndetails, &m->details_more, s->details[i]);
	m->details_more |= s->details_more;
}

/* The get statement's current row as stored state; its times copied to *times. */
static int read_stored(sqlite3_stmt *st, struct fold_stored *s, uint8_t **times)
{
	const uint8_t *d = sqlite3_column_blob(st, 7);
	size_t nd = (size_t)sqlite3_column_bytes(st, 7) / 8;

	*s = (struct fold_stored){ .id = sqlite3_column_int64(st, 0),
				   .records = sqlite3_column_int64(st, 1),
				   .errors = sqlite3_column_int64(st, 2),
				   .first_ns = sqlite3_column_int64(st, 3),
				   .last_ns = sqlite3_column_int64(st, 4),
				   .details_more = sqlite3_column_int(st, 8) != 0,
				   .last_s = sqlite3_column_int64(st, 10) };
	if (sqlite3_column_type(st, 5) == SQLITE_INTEGER) {
		s->addr_lo = (uint64_t)sqlite3_column_int64(st, 5);
		s->addr_hi = (uint64_t)sqlite3_column_int64(st, 6);
		s->have_addr = true;
	}
	/* Every stored value, as the row lists them: a set of more than FOLD_DETAILS says so in more. */
	for (size_t i = 0; d && i < nd; i++) {
		uint64_t v;

		memcpy(&v, d + 8 * i, 8);
		ras_db_fold_add_detail(s->details, &s->ndetails, &s->details_more, v);
	}
	s->room = (size_t)sqlite3_column_bytes(st, 9);
	if (!(*times = malloc(s->room + 1)))
		return -ENOMEM;
	if (s->room)
		memcpy(*times, sqlite3_column_blob(st, 9), s->room);
	s->used = ras_db_fold_times_used(*times, s->room);
	return 0;
}

/*
 * m's seconds appended to times (stored->used bytes of them, stored->room
 * with the padding; NULL when only the appended part is wanted), padded:
 * the new blob in *out (its first stored->used bytes undefined when times
 * is NULL), its length in *len, the bytes of seconds in *used, the last
 * second in *last_s.
 */
static int append_seconds(const struct fold_entry *m, const struct fold_stored *stored,
			  const uint8_t *times, uint8_t **out, size_t *len, size_t *used,
			  int64_t *last_s)
{
	size_t n = stored->used;
	int64_t prev = stored->last_s;
	/* At most ten bytes a second (about one at a steady rate), and room to pad to twice that. */
	uint8_t *b = malloc((stored->room > n ? stored->room : n) + 2 * (n + m->nsecs * 10) + 16);

	if (!b)
		return -ENOMEM;
	if (times && n)
		memcpy(b, times, n);
	for (size_t i = 0; i < m->nsecs; i++) {
		n += ras_db_fold_put_delta(b + n, m->secs[i] - prev);
		prev = m->secs[i];
	}
	*used = n;
	*len = ras_db_fold_times_pad(b, n, stored->room);
	*out = b;
	*last_s = prev;
	return 0;
}

/* m's sums bound to parameters at + 11 to at + 18. */
static void bind_sums(sqlite3_stmt *st, int at, const struct fold_entry *m)
{
	sqlite3_bind_int64(st, at + 11, m->records);
	sqlite3_bind_int64(st, at + 12, m->errors);
	sqlite3_bind_int64(st, at + 13, m->first_ns);
	sqlite3_bind_int64(st, at + 14, m->last_ns);
	if (m->have_addr) {
		sqlite3_bind_int64(st, at + 15, (int64_t)m->addr_lo);
		sqlite3_bind_int64(st, at + 16, (int64_t)m->addr_hi);
	} else {
		sqlite3_bind_null(st, at + 15);
		sqlite3_bind_null(st, at + 16);
	}
	sqlite3_bind_blob(st, at + 17, m->details, (int)(m->ndetails * 8), SQLITE_STATIC);
	sqlite3_bind_int(st, at + 18, m->details_more);
}

/* What the row says after m was written: the next batch's merge starts from it. */
static void remember(struct fold_stored *k, const struct fold_entry *m, int64_t id, size_t used,
		     size_t room, int64_t last_s)
{
	*k = (struct fold_stored){ .hash = m->hash, .id = id, .records = m->records,
				   .key_at = k->key_at, .key_len = k->key_len, .key_room = k->key_room,
				   .times = k->times,
				   .errors = m->errors, .first_ns = m->first_ns,
				   .last_ns = m->last_ns, .last_s = last_s,
				   .have_addr = m->have_addr, .details_more = m->details_more,
				   .addr_lo = m->addr_lo, .addr_hi = m->addr_hi,
				   .ndetails = m->ndetails, .used = used, .room = room };
	memcpy(k->details, m->details, sizeof(k->details));
}

/* k's kept times given back (the row is read again, or another key takes k). */
static void times_drop(struct ras_db_fold *f, struct fold_stored *k)
{
	if (!k->times)
		return;
	free(k->times);
	k->times = NULL;
	f->known_times -= k->room;
	ras_db_fold_count_bytes(f);
}

/*
 * The blob of len bytes just stored as k's times kept in k's place (k->room
 * not yet len), or freed when it is too long or the known rows keep enough.
 */
static void times_keep(struct ras_db_fold *f, struct fold_stored *k, uint8_t *blob, size_t len)
{
	uint8_t *shrunk;

	times_drop(f, k);
	if (len > FOLD_KNOWN_TIMES_ROW || f->known_times + len > FOLD_KNOWN_TIMES_MAX) {
		free(blob);
		return;
	}
	/* Its room for more seconds given back: about three times len was taken. */
	shrunk = realloc(blob, len);
	k->times = shrunk ? shrunk : blob;
	f->known_times += len;
	ras_db_fold_count_bytes(f);
}

/*
 * Merges e into the row its last write left: 0 done, 1 the row is not as
 * left, -errno. Its times kept, the whole new blob is bound; else the new
 * seconds, appended in SQL.
 */
static int write_known(struct ras_db *db, const struct fold_entry *e, struct fold_stored *k)
{
	struct ras_db_fold *f = db->fold;
	const struct fold_stored *s = k;
	struct fold_entry m = *e;
	bool whole = k->times != NULL;
	sqlite3_stmt *st = whole ? f->upd_whole : f->upd_known;
	uint8_t *blob;
	size_t len, used;
	int64_t last_s, used_before = (int64_t)s->used, records = s->records, prev_s = s->last_s;
	int r;

	merge_stored(&m, s);
	if (append_seconds(&m, s, k->times, &blob, &len, &used, &last_s) < 0)
		return -ENOMEM;
	bind_sums(st, 0, &m);
	if (whole) {
		sqlite3_bind_blob(st, 19, blob, (int)len, SQLITE_STATIC);
	} else {
		sqlite3_bind_blob(st, 19, blob + s->used, (int)(len - s->used), SQLITE_STATIC);
		sqlite3_bind_int64(st, 31, used_before);
	}
	sqlite3_bind_int64(st, 20, last_s);
	sqlite3_bind_int64(st, 30, s->id);
	sqlite3_bind_int64(st, 32, records);
	sqlite3_bind_int64(st, 33, prev_s);
	sqlite3_bind_int64(st, 34, (int64_t)s->room);
	r = sqlite3_step(st);
	sqlite3_reset(st);
	if (r != SQLITE_DONE || sqlite3_changes(db->h) != 1) {
		free(blob);
		times_drop(f, k);
		return r != SQLITE_DONE ? -EIO : 1;
	}
	if (whole)
		times_keep(f, k, blob, len);
	else
		free(blob);
	r = log_growth(db, e, s->id, (size_t)used_before, used, prev_s);
	remember(k, &m, s->id, used, len, last_s);
	return r;
}

/*
 * The INSERT of run k's new rows (ins_sql's columns, in its order): 0 or
 * -EIO. The one-row run is ins itself.
 */
static int news_prepare(struct ras_db *db, unsigned k)
{
	char sql[8192];
	size_t n = (size_t)snprintf(sql, sizeof(sql), "%.*s", (int)(strchr(ins_sql, ')') + 9 - ins_sql),
				    ins_sql);

	n = ras_db_sql_values(sql, sizeof(sql), n, ras_db_run_rows(k), NEW_COLS);
	if (n >= sizeof(sql) || sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT,
						   &db->fold->ins_run[k], NULL) != SQLITE_OK)
		return -EIO;
	return 0;
}

/*
 * The waiting new rows from..from + rows stored with the ids from first
 * (one INSERT's rows take consecutive ids, AUTOINCREMENT, in the order of
 * its VALUES): each known row still waiting for it (not another key's since,
 * nor forgotten) and each growth row given its id, the blob kept or freed.
 */
static void news_stored(struct ras_db_fold *f, unsigned from, unsigned rows, int64_t first)
{
	for (unsigned j = from; j < from + rows; j++) {
		struct fold_new_row *n = &f->news[j];
		int64_t wait = -(int64_t)j - 1, id = first + (j - from);

		for (unsigned g = 0; g < f->ngrows; g++)
			if (f->grows[g].v[0] == wait)
				f->grows[g].v[0] = id;
		if (n->known < f->nknown && f->known[n->known].id == wait) {
			f->known[n->known].id = id;
			times_keep(f, &f->known[n->known], n->blob, n->len);
		} else {
			free(n->blob);
		}
		n->blob = NULL;
	}
}

/* The waiting new rows' blobs freed from the from-th, their known rows forgotten (a failed write is rolled back). */
static void news_drop(struct ras_db_fold *f, unsigned from)
{
	for (unsigned j = from; j < f->nnews; j++) {
		struct fold_new_row *n = &f->news[j];

		if (n->known < f->nknown && f->known[n->known].id == -(int64_t)j - 1)
			f->known[n->known].id = 0;
		free(n->blob);
	}
	f->nnews = 0;
}

/*
 * Inserts the waiting new rows, as many at once as a run takes (a one-row
 * INSERT was 28,000 instructions on the 1M-record bench, 18,818 of them;
 * 16 to a statement, about 8,000 less a row): 0 or -EIO (none wait after).
 */
static int news_flush(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;
	unsigned i = 0, k, rows;

	while (i < f->nnews) {
		sqlite3_stmt *st;
		int step;

		k = ras_db_run_of(f->nnews - i);
		rows = ras_db_run_rows(k);
		if (k < RAS_DB_RUNS && !f->ins_run[k] && news_prepare(db, k) < 0)
			break;
		st = k < RAS_DB_RUNS ? f->ins_run[k] : f->ins;
		for (unsigned j = 0; j < rows; j++) {
			const struct fold_new_row *n = &f->news[i + j];
			int at = (int)(j * NEW_COLS);

			bind_key(st, at, n->e);
			bind_sums(st, at, n->e);
			sqlite3_bind_blob(st, at + 19, n->blob, (int)n->len, SQLITE_STATIC);
			sqlite3_bind_int64(st, at + 20, n->last_s);
			sqlite3_bind_text(st, at + 21, f->t[n->e->idx].detail_name, -1, SQLITE_STATIC);
		}
		step = sqlite3_step(st);
		sqlite3_reset(st);
		if (step != SQLITE_DONE)
			break;
		news_stored(f, i, rows, sqlite3_last_insert_rowid(db->h) - (int64_t)rows + 1);
		i += rows;
	}
	if (i < f->nnews) {
		news_drop(f, i);
		return -EIO;
	}
	f->nnews = 0;
	return 0;
}

/*
 * e's new row (m as e, its times blob of len bytes, used of them seconds up
 * to last_s) waiting for its INSERT: its id, in k and in its growth row, says
 * -(its place + 1) until then. The key is not in the batch twice, so no
 * write before the INSERT asks for that row. 0 or -errno.
 */
static int write_new(struct ras_db *db, const struct fold_entry *m, const struct fold_entry *e,
		     struct fold_stored *k, uint8_t *blob, size_t len, size_t used, int64_t last_s)
{
	struct ras_db_fold *f = db->fold;
	int64_t wait = -(int64_t)f->nnews - 1;
	int r;

	f->news[f->nnews++] = (struct fold_new_row){ .e = e, .blob = blob, .len = len, .last_s = last_s,
						     .known = (unsigned)(k - f->known) };
	remember(k, m, wait, used, len, last_s);
	r = log_growth(db, e, wait, 0, used, 0);
	if (r < 0)
		return r;
	return f->nnews == RAS_DB_ROWS_PER_INSERT ? news_flush(db) : 0;
}

/*
 * Whether a folds row of e's key may be stored: 1, 0 when none can be, or
 * -EIO. None is when e's hour is past every row of its table as this write
 * began: the rows this write inserted are other keys' (a key has one entry
 * in a batch), and it runs in the write's transaction. A new key looked up
 * was 11,000 instructions (18,818 of them on the 1M-record bench, none
 * found); a storm's keys are new mostly when its hour is.
 */
static int may_be_stored(struct ras_db *db, const struct fold_entry *e)
{
	struct ras_db_fold *f = db->fold;
	unsigned t = e->idx;
	int r;

	if (!f->hour_asked[t]) {
		if (!f->max_hour && sqlite3_prepare_v3(db->h, "SELECT max(hour) FROM folds WHERE tbl = ?1", -1,
						       SQLITE_PREPARE_PERSISTENT, &f->max_hour, NULL) != SQLITE_OK)
			return -EIO;
		sqlite3_bind_text(f->max_hour, 1, ras_event_types[t].table, -1, SQLITE_STATIC);
		r = sqlite3_step(f->max_hour);
		f->hour_any[t] = r == SQLITE_ROW && sqlite3_column_type(f->max_hour, 0) != SQLITE_NULL;
		f->hour_max[t] = f->hour_any[t] ? sqlite3_column_int64(f->max_hour, 0) : 0;
		sqlite3_reset(f->max_hour);
		if (r != SQLITE_ROW)
			return -EIO;
		f->hour_asked[t] = true;
	}
	return f->hour_any[t] && e->hour <= f->hour_max[t];
}

/* Merges e into its folds row as read, or inserts the row; what it wrote kept in *k. */
static int write_read(struct ras_db *db, const struct fold_entry *e, struct fold_stored *k)
{
	struct ras_db_fold *f = db->fold;
	struct fold_stored s = { 0 };
	struct fold_entry m = *e;
	uint8_t *times = NULL, *blob;
	size_t len, used;
	int64_t last_s;
	int r = may_be_stored(db, e);

	if (r < 0)
		return r;
	if (r) {
		bind_key(f->get, 0, e);
		sqlite3_bind_int64(f->get, 24, e->key.key_dec);   /* 0: any row's decoding will do */
		r = sqlite3_step(f->get);
		if (r == SQLITE_ROW && read_stored(f->get, &s, &times) < 0)
			r = SQLITE_NOMEM;
		sqlite3_reset(f->get);
		if (r != SQLITE_ROW && r != SQLITE_DONE) {
			free(times);
			return -EIO;
		}
	}
	if (s.id)
		merge_stored(&m, &s);
	r = append_seconds(&m, &s, times, &blob, &len, &used, &last_s);
	free(times);
	if (r < 0)
		return r;
	if (!s.id)
		return write_new(db, &m, e, k, blob, len, used, last_s);
	sqlite3_bind_int64(f->upd, 1, s.id);
	bind_sums(f->upd, 0, &m);
	sqlite3_bind_blob(f->upd, 19, blob, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(f->upd, 20, last_s);
	r = sqlite3_step(f->upd);
	sqlite3_reset(f->upd);
	if (r != SQLITE_DONE) {
		free(blob);
		k->id = 0;
		return -EIO;
	}
	times_keep(f, k, blob, len);
	remember(k, &m, s.id, used, len, last_s);
	return log_growth(db, e, k->id, s.used, used, s.last_s);
}

/* The first place of hash, the high bits folded into the low ones the mask keeps. */
static unsigned known_home(const struct ras_db_fold *f, uint64_t hash)
{
	return (unsigned)(hash ^ hash >> 32) & (f->known_places - 1);
}

/* The place naming hash's row, or the free one it would take. */
static unsigned known_place(const struct ras_db_fold *f, uint64_t hash)
{
	unsigned mask = f->known_places - 1, place = known_home(f, hash);

	while (f->known_at[place] && f->known[f->known_at[place] - 1].hash != hash)
		place = (place + 1) & mask;
	return place;
}

/*
 * Room for one more known row: the list doubled, and its places (twice as
 * many, so a probe is short) made again from it. At FOLD_KNOWN_MAX rows
 * every one is forgotten instead (read again when next written).
 */
static int known_room(struct ras_db_fold *f)
{
	struct fold_stored *k;
	uint16_t *at;
	unsigned cap;

	if (f->nknown == FOLD_KNOWN_MAX) {
		for (unsigned i = 0; i < f->nknown; i++)
			free(f->known[i].times);
		f->known_times = 0;
		f->nknown = 0;
		f->known_keys_len = 0;
		memset(f->known_at, 0, f->known_places * sizeof(*f->known_at));
		ras_db_fold_count_bytes(f);
	}
	if (f->nknown < f->cap_known)
		return 0;
	cap = f->cap_known ? 2 * f->cap_known : 16;
	if (!(k = realloc(f->known, cap * sizeof(*k))))
		return -ENOMEM;
	f->known = k;
	if (!(at = calloc(2 * cap, sizeof(*at))))
		return -ENOMEM;
	free(f->known_at);
	f->known_at = at;
	f->known_places = 2 * cap;
	f->cap_known = cap;
	for (unsigned i = 0; i < f->nknown; i++)
		f->known_at[known_place(f, f->known[i].hash)] = (uint16_t)(i + 1);
	ras_db_fold_count_bytes(f);
	return 0;
}

/*
 * The row last written for a key of this hash: a new one (id 0) the first
 * time the hash is asked for. Every key written is kept (up to
 * FOLD_KNOWN_MAX): a slot shared by hash places made about 62,000 of the
 * 1M-record bench's 81,000 reads keys its connection had written (19,000
 * keys in 16,384 places evicting each other). The list grows as keys come,
 * so a storm of a few keys keeps a few rows.
 */
static struct fold_stored *known_of(struct ras_db_fold *f, uint64_t hash)
{
	struct fold_stored *k;
	unsigned place;

	if (f->known_places) {
		place = known_place(f, hash);
		if (f->known_at[place])
			return &f->known[f->known_at[place] - 1];
	}
	if (known_room(f) < 0)
		return NULL;
	place = known_place(f, hash);
	k = &f->known[f->nknown];
	*k = (struct fold_stored){ .hash = hash };
	f->known_at[place] = (uint16_t)++f->nknown;
	return k;
}

_Static_assert(sizeof(struct fold_entry) <= 65535, "a known row's key length in 16 bits");

/* e's key as bytes (fold_entries.c same_entry's fields): its numbers, then each text with its NUL. */
static size_t key_bytes(const struct fold_entry *e, char *out)
{
	const char *text[] = { e->subject, e->key.source, e->key.severity, e->key.location,
			       e->key.ekey, e->key.dims };
	int64_t num[] = { e->idx, e->hour, e->key.boot, e->key.key_dec, e->key.synthetic,
			  e->key.fresh };
	size_t n = sizeof(num);

	memcpy(out, num, n);
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		size_t len = strlen(text[i]) + 1;

		memcpy(out + n, text[i], len);
		n += len;
	}
	return n;
}

/* k's key set to key (its bytes kept in place if they fit, else appended): 0 or -ENOMEM. */
static int known_key(struct ras_db_fold *f, struct fold_stored *k, const char *key, size_t len)
{
	if (len > k->key_room) {
		size_t cap = f->known_keys_cap ? f->known_keys_cap : 4096;
		char *b;

		while (cap < f->known_keys_len + len)
			cap *= 2;
		if (cap != f->known_keys_cap) {
			if (!(b = realloc(f->known_keys, cap)))
				return -ENOMEM;
			f->known_keys = b;
			f->known_keys_cap = cap;
			ras_db_fold_count_bytes(f);
		}
		k->key_at = (uint32_t)f->known_keys_len;
		k->key_room = (uint16_t)len;
		f->known_keys_len += len;
	}
	memcpy(f->known_keys + k->key_at, key, len);
	k->key_len = (uint16_t)len;
	return 0;
}

/*
 * The row last written for e's key, if known (else read as before): the
 * known row of e's hash is e's if its key's bytes are e's (another key of
 * the same hash takes its place).
 */
static int write_entry(struct ras_db *db, const struct fold_entry *e)
{
	struct ras_db_fold *f = db->fold;
	struct fold_stored *k = known_of(f, e->hash);
	char key[sizeof(struct fold_entry)];    /* more than its texts and numbers */
	size_t len = key_bytes(e, key);
	int r = 1;

	if (!k)
		return -ENOMEM;
	if (k->id && k->key_len == len && !memcmp(f->known_keys + k->key_at, key, len))
		r = write_known(db, e, k);
	if (r != 1)
		return r;
	k->id = 0;
	times_drop(f, k);
	if (known_key(f, k, key, len) < 0)
		return -ENOMEM;
	return write_read(db, e, k);
}

static int prepare(struct ras_db *db, const char *sql, sqlite3_stmt **st)
{
	if (*st)
		return 0;
	return sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) == SQLITE_OK ?
		       0 : -EIO;
}

static int prepare_writes(struct ras_db *db)
{
	struct ras_db_fold *f = db->fold;

	if (prepare(db, get_sql, &f->get) < 0 || prepare(db, ins_sql, &f->ins) < 0 ||
	    prepare(db, upd_sql, &f->upd) < 0 || prepare(db, upd_known_sql, &f->upd_known) < 0 ||
	    prepare(db, upd_whole_sql, &f->upd_whole) < 0)
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
	memset(f->hour_asked, 0, sizeof(f->hour_asked));
	/* The batch's entries only, by their list (a failure is rolled back: ras_db_fold_discard). */
	for (unsigned i = 0; i < f->used; i++)
		if (write_entry(db, &f->e[i]) < 0) {
			news_drop(f, 0);
			f->ngrows = 0;
			f->grow_ids_len = 0;
			return -EIO;
		}
	if (grow_flush(db) < 0)
		return -EIO;
	ras_db_fold_entries_empty(f);
	return 0;
}

void ras_db_fold_add_detail(uint64_t *set, unsigned *n, bool *more, uint64_t v)
{
	for (unsigned i = 0; i < *n; i++)
		if (set[i] == v)
			return;
	if (*n < FOLD_DETAILS)
		set[(*n)++] = v;
	else
		*more = true;
}
