/* SPDX-License-Identifier: MIT */
/*
 * What killed the previous boot, harvested at this one's start (issue 35):
 * the pstore records (/sys/fs/pstore and systemd-pstore's copies in
 * /var/lib/systemd/pstore), the fatal machine checks the firmware kept in
 * ERST (pstore's mce-* files, /dev/mcelog where the kernel has it), parsed by
 * lastwords/, stored by db/db_crashes.c in one transaction: the crashes, the
 * machine checks as mce_record rows with source "erst", the links between.
 * Only once that transaction is committed are the pstore files removed (which
 * erases their records from the firmware), and only when configured to.
 */
#ifndef RASD_LASTWORDS_H
#define RASD_LASTWORDS_H

#include "db/db.h"
#include "lib/config.h"
#include "lib/decode.h"
#include "actions.h"
#include "triggers.h"

struct rasd_lastwords;

/*
 * Reads what the previous boots left into memory (*out NULL when nothing).
 * Never fails the start: what cannot be read is logged, left where it is and
 * counted. Reading /dev/mcelog empties ERST as it goes (the kernel clears each
 * record inside the read that returns it): it is read only when removal is
 * configured and pstore does not show the same records (its backend is not
 * erst), and what is read is held here until it is committed.
 */
int rasd_lastwords_collect(struct rasd_lastwords **out, const struct rasd_config *cfg);
/*
 * Stores what was collected and not stored yet, in one transaction, and
 * commits; then removes the committed pstore files when configured. 0 when
 * stored, -errno when the database failed (rolled back, nothing removed: call
 * again).
 */
int rasd_lastwords_store(struct rasd_lastwords *lw, struct ras_db *db, struct ras_decode_ctx *dctx,
			 struct ras_actions *actions);
/*
 * For a replayed tree (not this machine's kernel): the machine's own pstore,
 * systemd-pstore's copies and /dev/mcelog (the default paths) are not read;
 * directories configured elsewhere are.
 */
void rasd_lastwords_replay_paths(struct rasd_config *cfg);
/* Runs trigger_dir/crash for each crash the last store found new. */
void rasd_lastwords_trigger(struct rasd_lastwords *lw, struct ras_db *db, struct ras_triggers *trig);
/* Frees; a /dev/mcelog record never stored is logged in full first (it is gone from ERST). */
void rasd_lastwords_free(struct rasd_lastwords *lw);

#endif
