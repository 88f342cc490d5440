/* SPDX-License-Identifier: MIT */
/*
 * The window, boot and synthetic filter every read of the event tables
 * shares (struct ras_db_filter), and which tables a filter wants. Internal
 * to db/; a leaf: it calls only db.c's table lookup.
 */
#ifndef RAS_DB_FILTER_H
#define RAS_DB_FILTER_H

#include <stdbool.h>
#include "db_internal.h"
#include "db_query.h"

/*
 * WHERE clause shared by every query of rows; its parameters are bound by
 * ras_db_bind_filter(). The window is a plain range, ?10 and ?11 with an open
 * end bound as the extreme value, so SQLite searches the time index: "?1 = 0
 * OR wall_ns >= ?1" made it walk the whole index, even for a window with no
 * record in it. (Numbered: a named parameter would take the number of the
 * next ?N.)
 */
#define RAS_DB_FILTER_SQL \
	" wall_ns >= ?10 AND wall_ns < ?11" \
	" AND (?3 OR (source <> 'synthetic' AND synthetic = 0))" \
	" AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4))"
/* The same without the window: folded periods and roll-up rows, windowed by the caller. */
#define RAS_DB_FILTER_NO_WINDOW_SQL \
	" (?3 OR (source <> 'synthetic' AND synthetic = 0))" \
	" AND (?4 IS NULL OR boot = (SELECT id FROM boots WHERE boot_id = ?4))"

/* Binds ?1 to ?4, ?10 and ?11 from f. */
void ras_db_bind_filter(sqlite3_stmt *st, const struct ras_db_filter *f);
/* Whether f reads event table i (its type, its mask, several errors) and it exists. */
bool ras_db_filter_wants(struct ras_db *db, const struct ras_db_filter *f, unsigned i);

#endif
