/* SPDX-License-Identifier: MIT */
/*
 * Inside db/: the spill of subjects seen once (db_actions.h documents the
 * ras_db_once_spill_* calls), owned by the actions' statements. Its table
 * is on the writer's connection; an exact copy of it in memory
 * (lib/spill_rows.h) answers the event loop's takes, so that a take never
 * waits for the writer thread (issue 39).
 */
#ifndef RAS_DB_ONCE_SPILL_H
#define RAS_DB_ONCE_SPILL_H

#include <stddef.h>
#include <stdint.h>

struct ras_db;
struct ras_db_spill;

/* The temporary table made and its statements prepared: 0, -ENOMEM or -EIO. */
int ras_db_spill_open(struct ras_db *db, struct ras_db_spill **out);
void ras_db_spill_close(struct ras_db_spill *s);
/*
 * The transaction was rolled back (after its sync): the table is as of the
 * last commit, and the copy is read again from it.
 */
void ras_db_spill_discard(struct ras_db_spill *s);
/* db_actions.h's ras_db_once_spill_* calls, on the actions' spill (NULL: none). */
int ras_db_spill_add(struct ras_db_spill *s, int kind, uint64_t key, int64_t wall_ns, unsigned n);
int ras_db_spill_take(struct ras_db_spill *s, int kind, uint64_t key, int64_t *wall_ns, unsigned *n);
int ras_db_spill_prune(struct ras_db_spill *s, int kind, int64_t leaked_before_ns, int64_t leak_ns);
int ras_db_spill_empty(struct ras_db_spill *s);
int ras_db_spill_keys(struct ras_db_spill *s, void (*fn)(void *ctx, uint64_t key), void *ctx);
int ras_db_spill_trouble(struct ras_db_spill *s);
void ras_db_spill_bound(struct ras_db_spill *s, size_t max_keys);

#endif
