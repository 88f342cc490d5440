/* SPDX-License-Identifier: MIT */
/*
 * Storm folding behind the event loop. With a writer thread (db_writer.c),
 * a live record folding decides on is not held, folded or stored on the
 * event loop's thread: the event loop reserves its row id, finds its
 * subject and packs a copy of it (db_fold_hold.c's packing: its values, not
 * its fold columns, which the writer thread computes if it folds the record)
 * with, when its decoding was not handed over lately, its decoded struct,
 * and hands it over. The writer thread finds or stores the decoding, makes
 * the decision ras_db_fold_note makes (ras_db_fold_note_req: the same code),
 * then holds the copy, folds it from memory, or inserts it under its
 * reserved id, in the order the records came.
 *
 * The event loop reads nothing back: the row id is the reserved one, the
 * roll-ups count the record on the event loop as before, and folding's
 * state (db->fold) is the writer thread's until the next ras_db_sync
 * (db->fold_out). The fold flush before COMMIT and the end of the
 * transaction after it are jobs too, at every commit (db_txn.c's stages).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db_fold_internal.h"

/*
 * What the writer thread needs of the record besides its copy. The job is
 * this, then the subject's key (key bytes, its NUL included; 0: none), the
 * copy (db_fold_hold.c's packing) and, when the decoding's values were not
 * handed over lately, the decoded struct itself (decoded bytes): the writer
 * thread reads the decoding's values from it, the event loop only copies it.
 * Each part starts at a multiple of 8.
 */
struct fold_job {
	int64_t id, wall_ns;
	uint64_t sig;
	uint32_t copy, decoded;
	uint16_t idx, key;
	struct ras_db_limits limits;
};

static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

#define KEY_AT round8(sizeof(struct fold_job))
#define KEY_MAX 160

int ras_db_fold_pack(struct ras_db *db, const struct ras_db_event *ev, int64_t id, uint64_t sig,
		     uint8_t *buf, size_t cap, size_t *len)
{
	const struct ras_db_limits *l = ev->limits;
	struct fold_job j = { .id = id, .wall_ns = ev->wall_ns, .sig = sig, .idx = (uint16_t)ev->type_idx,
			      .limits = *l };
	size_t at, bytes;
	int r;

	if (cap < KEY_AT + KEY_MAX)
		return -ENOSPC;
	/* The key written where the job carries it (KEY_MAX, as the subject's slot keeps it). */
	if (l->fold_threshold && l->fold_period_ns > 0 &&
	    ras_db_fold_subject(ev, l, (char *)buf + KEY_AT, KEY_MAX))
		j.key = (uint16_t)(strlen((char *)buf + KEY_AT) + 1);
	at = round8(KEY_AT + j.key);
	if ((r = ras_db_hold_pack_in(db->fold->hold, ev, buf, cap, at, &bytes)) < 0)
		return r;
	j.copy = (uint32_t)bytes;
	memcpy(buf, &j, sizeof(j));
	*len = at + bytes;
	return 0;
}

int ras_db_fold_pack_decoded(struct ras_db *db, const struct ras_db_event *ev, uint8_t *buf,
			     size_t cap, size_t *len)
{
	uint32_t *bytes = &db->fold->decoded_bytes[ev->type_idx];
	size_t at = round8(*len);
	struct fold_job j;

	if (!*bytes) {
		/* The decoding's fields end within its struct: its bytes up to the last of them. */
		const struct ras_event_type *type = &ras_event_types[ev->type_idx];
		size_t end = sizeof(struct ras_decoded_head);

		for (size_t k = 0; k < *type->n_dfields; k++)
			if (type->dfields[k].offset + type->dfields[k].size > end)
				end = type->dfields[k].offset + type->dfields[k].size;
		*bytes = (uint32_t)end;
	}
	if (at + *bytes > cap)
		return -ENOSPC;
	memcpy(buf + at, ev->decoded, *bytes);
	memcpy(&j, buf, sizeof(j));
	j.decoded = *bytes;
	memcpy(buf, &j, sizeof(j));
	*len = at + *bytes;
	return 0;
}

void ras_db_fold_packed_of(const void *packed, unsigned *idx, uint64_t *sig, const void **decoded)
{
	struct fold_job j;

	memcpy(&j, packed, sizeof(j));
	*idx = j.idx;
	*sig = j.sig;
	*decoded = j.decoded ? (const uint8_t *)packed + round8(round8(KEY_AT + j.key) + j.copy) : NULL;
}

int ras_db_fold_run(struct ras_db *db, const void *packed, int64_t dec)
{
	struct fold_job j;
	const uint8_t *copy;
	struct ras_db_hold_req hr;
	int r;

	memcpy(&j, packed, sizeof(j));
	copy = (const uint8_t *)packed + round8(KEY_AT + j.key);
	hr = (struct ras_db_hold_req){ .packed = copy, .bytes = j.copy, .dec = dec };
	/* Noted before it is stored, as ras_db_insert_event does a record it may hold. */
	r = ras_db_fold_note_req(db, j.idx, j.wall_ns, &j.limits,
				 j.key ? (const char *)packed + KEY_AT : NULL, j.id, &hr);
	if (r != 0)
		return r < 0 ? r : 0;
	return ras_db_hold_insert_packed(db, db->fold->hold, j.idx, j.id, dec, copy, j.copy);
}
