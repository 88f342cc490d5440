/* SPDX-License-Identifier: MIT */
/*
 * Storm folding behind the event loop. With a writer thread (db_writer.c),
 * a live record folding decides on is not held, folded or stored on the
 * event loop's thread: the event loop reserves its row id, finds its
 * subject and packs a copy of it, the held copy db_fold_hold.c would have
 * made (its fold columns computed), and hands it over. The writer thread
 * makes the decision ras_db_fold_note makes (ras_db_fold_note_req: the
 * same code), then holds the copy, folds it from memory, or inserts it
 * under its reserved id, in the order the records came.
 *
 * The event loop reads nothing back: the row id is the reserved one, the
 * roll-ups count the record on the event loop as before, and folding's
 * state (db->fold) is the writer thread's until the next ras_db_sync
 * (db->fold_out). The fold flush before COMMIT and the end of the
 * transaction after it are jobs too, at every commit (db.c's stages).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_fold_internal.h"

/* What the writer thread needs of the record besides its copy (which follows, at PACK_COPY). */
struct fold_job {
	int64_t id, wall_ns;
	uint64_t sig;
	uint64_t bytes;             /* the copy's */
	unsigned idx;
	bool have_key;
	struct ras_db_limits limits;
	char key[160];
};

#define PACK_COPY ((sizeof(struct fold_job) + 7) & ~(size_t)7)

int ras_db_fold_pack(struct ras_db *db, const struct ras_db_event *ev, int64_t id, uint64_t sig,
		     uint8_t **buf, size_t *cap, size_t *len)
{
	const struct ras_db_limits *l = ev->limits;
	struct fold_job j = { .id = id, .wall_ns = ev->wall_ns, .sig = sig, .idx = ev->type_idx,
			      .limits = *l };
	size_t bytes;
	int r;

	if ((r = ras_db_fold_ready(db, ev->type_idx)) < 0)
		return r;
	j.have_key = l->fold_threshold && l->fold_period_ns > 0 &&
		     ras_db_fold_subject(ev, l, j.key, sizeof(j.key));
	if ((r = ras_db_hold_pack(db->fold->hold, ev, buf, cap, PACK_COPY, &bytes)) < 0)
		return r;
	j.bytes = bytes;
	memcpy(*buf, &j, sizeof(j));
	*len = PACK_COPY + bytes;
	return 0;
}

void ras_db_fold_packed_of(const void *packed, unsigned *idx, uint64_t *sig)
{
	struct fold_job j;

	memcpy(&j, packed, sizeof(j));
	*idx = j.idx;
	*sig = j.sig;
}

int ras_db_fold_run(struct ras_db *db, const void *packed, int64_t dec)
{
	const uint8_t *copy = (const uint8_t *)packed + PACK_COPY;
	struct fold_job j;
	struct ras_db_hold_req hr;
	int r;

	memcpy(&j, packed, sizeof(j));
	hr = (struct ras_db_hold_req){ .packed = copy, .bytes = j.bytes, .dec = dec };
	/* Noted before it is stored, as ras_db_insert_event does a record it may hold. */
	r = ras_db_fold_note_req(db, j.idx, j.wall_ns, &j.limits, j.have_key ? j.key : NULL, j.id, &hr);
	if (r != 0)
		return r < 0 ? r : 0;
	return ras_db_hold_insert_packed(db, db->fold->hold, j.idx, j.id, dec, copy, j.bytes);
}
