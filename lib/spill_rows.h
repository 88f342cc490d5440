/* SPDX-License-Identifier: MIT */
/*
 * An exact copy, in memory, of a table of 64-bit keys, each with a kind, a
 * time and a count: db/db_actions.c's spill of subjects seen once, whose
 * table is on the writer's connection. With the copy the event loop answers
 * a take itself, never waiting for the writer thread to empty its queue.
 *
 * The key alone is the table's primary key: a put replaces the row of its
 * key whatever its kind, and a take matches key and kind, as the table's
 * statements do. 24 bytes a row, at most three quarters full; it starts
 * small and grows. Past its bound, or when memory runs out, it is
 * overflowed: it cannot tell (-EAGAIN) until it is cleared. Pure memory.
 */
#ifndef RAS_SPILL_ROWS_H
#define RAS_SPILL_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ras_spill_rows;

/* A copy of at most max_rows (at least 16). */
int ras_spill_rows_new(struct ras_spill_rows **out, size_t max_rows);
void ras_spill_rows_free(struct ras_spill_rows *s);
/* key's row is now (kind, wall_ns, n). 0; -ENOSPC at the bound or -ENOMEM, and it is overflowed. */
int ras_spill_rows_put(struct ras_spill_rows *s, uint64_t key, int kind, int64_t wall_ns,
		       unsigned n);
/* 1 and its time and count when key is held with kind (it is removed); 0 when not; -EAGAIN overflowed. */
int ras_spill_rows_take(struct ras_spill_rows *s, uint64_t key, int kind, int64_t *wall_ns,
			unsigned *n);
/* key's row, of whatever kind, is gone. */
void ras_spill_rows_remove(struct ras_spill_rows *s, uint64_t key);
/* Overflowed now (the rows it should hold cannot be told). */
void ras_spill_rows_give_up(struct ras_spill_rows *s);
/* Empty, exact again, and its memory given back. */
void ras_spill_rows_clear(struct ras_spill_rows *s);
bool ras_spill_rows_overflowed(const struct ras_spill_rows *s);
size_t ras_spill_rows_count(const struct ras_spill_rows *s);
size_t ras_spill_rows_bytes(const struct ras_spill_rows *s);

#endif
