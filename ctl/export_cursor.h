/* SPDX-License-Identifier: MIT */
/*
 * The content of an export cursor (ctl/export.c keeps the file): where the
 * export of each database stopped, and what the output holds.
 *
 *   # ras-fdr-ctl export cursor
 *   state running|clean
 *   output DEV INO SIZE
 *   db ID fold=N action_repeat=N mc_event=N ... lost=N action=N
 *   db ID ...                       (databases exported before, newest first)
 *
 * A position is the last id delivered per event table and per lost_events
 * and actions, and the last entry of the folds' and the decisions' growth
 * logs (db/db_export.h). Only positions above zero are written. The first db
 * line is the database being exported; up to CURSOR_DBS - 1 earlier ones are
 * kept so that a database put back (moved away and restored) resumes where
 * its export stopped instead of starting again. A cursor of an earlier
 * ras-fdr (lines "TABLE N", no db line) belongs to the database it finds.
 */
#ifndef RAS_CTL_EXPORT_CURSOR_H
#define RAS_CTL_EXPORT_CURSOR_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/event_table.h"

/* The cursor's text, padded to one page so that it can be rewritten in place. */
#define CURSOR_PAGE 4096
#define CURSOR_DBS 6

/* Positions: the event tables by index, then these. */
enum { KEY_LOST = RAS_MAX_EVENT_TYPES, KEY_ACTION, KEY_FOLD, KEY_ACTION_REPEAT, CURSOR_KEYS };

struct export_position {
	char db[48];                  /* the database's identity; "" before schema 17 */
	int64_t last[CURSOR_KEYS];
};

struct cursor {
	struct export_position pos[CURSOR_DBS];   /* pos[0]: the database being exported */
	unsigned n;
	bool legacy;                  /* no db line: an earlier ras-fdr's cursor */
	unsigned long long dev, ino;
	long long offset;
	bool running;
};

/* The line "type" of a key ("mc_event", "lost", "action", "fold", "action_repeat"), or NULL. */
const char *cursor_key_name(unsigned k);
int cursor_key_index(const char *name);
void cursor_init(struct cursor *c);
/* Takes one line of a cursor file. */
void cursor_parse_line(struct cursor *c, const char *line);
/* The page to write; -ENOSPC only if the current database alone does not fit. */
int cursor_render(const struct cursor *c, char *buf);
/*
 * Makes id the database being exported: its position if the cursor knows it
 * (a database put back), else a new one from its start (a database replaced).
 * Returns 0 unchanged, 1 resumed, 2 started anew; *was gets the identity the
 * cursor had.
 */
int cursor_select_db(struct cursor *c, const char *id, char *was, size_t len);

#endif
