/* SPDX-License-Identifier: MIT */
/*
 * A held record's copy (db_fold_hold.c holds, folds and stores them): packed
 * by the event loop, unpacked by the thread that holds or stores it
 * (db_hold_pack.c). Internal to db/.
 */
#ifndef RAS_DB_HOLD_PACK_H
#define RAS_DB_HOLD_PACK_H

#include "db_fold_internal.h"

/*
 * One held record: the event's columns and its values: the raw ones, its
 * per-record decoded ones (db_internal.h: the event row holds them), the
 * decoded ones its fold columns read from its decoding (plan.dec) and its
 * location; their bytes after the struct. The fold columns are computed
 * from them when the record is folded (ras_db_hold_take), on the thread
 * that folds, never when it is packed.
 */
struct held {
	size_t bytes;               /* of this copy, values' bytes included */
	int64_t dec, wall_ns, boot;
	uint64_t trace_ts, rec_hash;
	int trace_cpu, severity;
	bool synthetic;
	char source[24];
	unsigned nvals;
	struct ras_value values[];
};

/*
 * ev packed at *buf + at (grown as needed): its columns, raw values, per-record
 * decoded ones, the decoded ones plan's columns read, its location; *bytes
 * its length. 0, -ENAMETOOLONG for a source too long for the copy, -ENOMEM.
 */
int ras_db_held_pack(const struct ras_db_fold_plan *plan, const struct ras_db_event *ev, uint8_t **buf,
		     size_t *cap, size_t at, size_t *bytes);
/* The same into buf's cap bytes, never grown: -ENOSPC when it does not fit. */
int ras_db_held_pack_in(const struct ras_db_fold_plan *plan, const struct ras_db_event *ev, uint8_t *buf,
			size_t cap, size_t at, size_t *bytes);
/* The bytes of the struct held a packed record unpacks into. */
size_t ras_db_held_bytes(const void *packed);
/* Unpacks a packed record into c (ras_db_held_bytes of it), its values' bytes after them. */
void ras_db_held_read(struct held *c, int64_t dec, const void *packed);
/*
 * The same, its values' bytes left where they are: c reads packed, which
 * must outlive it (a copy folded: its fold columns are copied out).
 */
void ras_db_held_view(struct held *c, int64_t dec, const void *packed);

/*
 * c's fold columns the general way: over the event and decoding (in scratch,
 * RAS_DECODED_MAX bytes) held_event builds, as ras_db_fold_plan_cols_held's
 * fast way must give them (tests/test-fold-cols). 0 or -ENOTSUP.
 */
int ras_db_held_cols_general(const struct ras_db_fold_plan *plan, void *scratch, const struct held *c,
			     unsigned idx, struct ras_db_fold_cols *out);

#endif
