/* SPDX-License-Identifier: MIT */
/*
 * The writer thread's rows (db_writer.c runs the jobs): a table's row jobs
 * gathered and stored RAS_DB_ROWS_PER_INSERT at a time by the raw-rows
 * stage's store (db->rows_store, db_insert.c), carried over when their chunk
 * goes back before they are stored.
 */
#include <stdlib.h>
#include <string.h>
#include "db_writer_internal.h"

const uint8_t *ras_db_wb_get_value(const uint8_t *p, struct ras_db_col_val *v)
{
	uint32_t n;

	v->type = *p++;
	if (v->type == SQLITE_INTEGER) {
		memcpy(&v->i, p, sizeof(v->i));
		return p + sizeof(v->i);
	}
	if (v->type != SQLITE_TEXT && v->type != SQLITE_BLOB)
		return p;
	memcpy(&n, p, sizeof(n));
	v->p = (const char *)p + sizeof(n);
	v->len = n;
	return p + sizeof(n) + n;
}

/* Stores the rows gathered for table idx, in one INSERT when there are enough. */
int ras_db_wb_store_gathered(struct ras_db_wb *wb, unsigned idx)
{
	struct ras_db_row_job jobs[RAS_DB_ROWS_PER_INSERT];
	unsigned n = wb->gathered[idx].n;

	for (unsigned k = 0; k < n; k++) {
		const uint8_t *p = wb->gathered[idx].job[k];
		struct job_head h;

		memcpy(&h, p, sizeof(h));
		p += sizeof(h);
		for (unsigned i = 0; i < h.ncols; i++)
			p = ras_db_wb_get_value(p, &wb->row[k][i]);
		for (unsigned i = 0; i < h.ndec; i++)
			p = ras_db_wb_get_value(p, &wb->dec[k][i]);
		jobs[k] = (struct ras_db_row_job){ .id = h.id, .sig = h.sig, .row = wb->row[k],
						   .dec = h.ndec ? wb->dec[k] : NULL };
	}
	wb->gathered[idx].n = 0;
	return n ? wb->db->rows_store(wb->db, idx, n, jobs) : SQLITE_OK;
}

/* After a failure the rows gathered are dropped with the rest of the transaction. */
void ras_db_wb_drop_gathered(struct ras_db_wb *wb)
{
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++)
		wb->gathered[i].n = 0;
}

int ras_db_wb_store_all_gathered(struct ras_db_wb *wb)
{
	int r = SQLITE_OK;

	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES && r == SQLITE_OK; i++)
		r = ras_db_wb_store_gathered(wb, i);
	ras_db_wb_drop_gathered(wb);
	/* Folding's records not held, gathered the same way: read by the same jobs (folding's flush). */
	if (r == SQLITE_OK && wb->db->unheld_store)
		r = wb->db->unheld_store(wb->db);
	return r;
}

/*
 * A chunk is done with while rows of it are still gathered (more chunks are
 * queued): they are copied into the carry buffer not in use, and gathered
 * from there. ENOMEM: stored now instead.
 */
int ras_db_wb_carry_gathered(struct ras_db_wb *wb)
{
	unsigned next = !wb->carry_now;
	size_t need = 0, off = 0;

	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++)
		for (unsigned k = 0; k < wb->gathered[i].n; k++)
			need += ((const struct job_head *)(const void *)wb->gathered[i].job[k])->len;
	if (need > wb->carry[next].cap) {
		uint8_t *b = realloc(wb->carry[next].buf, need);

		if (!b)
			return ras_db_wb_store_all_gathered(wb);
		wb->carry[next].buf = b;
		wb->carry[next].cap = need;
	}
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES; i++) {
		for (unsigned k = 0; k < wb->gathered[i].n; k++) {
			struct job_head h;

			memcpy(&h, wb->gathered[i].job[k], sizeof(h));
			memcpy(wb->carry[next].buf + off, wb->gathered[i].job[k], h.len);
			wb->gathered[i].job[k] = wb->carry[next].buf + off;
			off += h.len;
		}
	}
	wb->carry_now = next;
	return SQLITE_OK;
}

/*
 * A row: gathered with its table's, stored once RAS_DB_ROWS_PER_INSERT are
 * (one statement: cursors opened and the statement run once for them all).
 * Nothing handed over reads a row before it, so the order between tables
 * does not matter; the transaction's BEGIN and COMMIT, and the thread going
 * idle (a sync may be waiting), store what is gathered first.
 */
int ras_db_wb_gather_row(struct ras_db_wb *wb, const struct job_head *h, const uint8_t *job)
{
	if (h->idx >= RAS_MAX_EVENT_TYPES || h->ncols > RAS_DB_MAX_COLS || h->ndec > RAS_DB_MAX_COLS)
		return SQLITE_MISUSE;
	wb->gathered[h->idx].job[wb->gathered[h->idx].n++] = job;
	return wb->gathered[h->idx].n == RAS_DB_ROWS_PER_INSERT ? ras_db_wb_store_gathered(wb, h->idx) : SQLITE_OK;
}
