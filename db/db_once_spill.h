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

struct ras_db;
struct ras_db_actions;
struct ras_db_spill;

/* The temporary table made and its statements prepared: 0, -ENOMEM or -EIO. */
int ras_db_spill_open(struct ras_db *db, struct ras_db_spill **out);
void ras_db_spill_close(struct ras_db_spill *s);
/*
 * The transaction was rolled back (after its sync): the table is as of the
 * last commit, and the copy is read again from it.
 */
void ras_db_spill_discard(struct ras_db_spill *s);
/* The actions' spill (db_actions.c). */
struct ras_db_spill *ras_db_actions_spill(struct ras_db_actions *a);

#endif
