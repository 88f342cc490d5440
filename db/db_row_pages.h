/* SPDX-License-Identifier: MIT */
/*
 * The pages seen in each DRAM row (schema step 21, issue 36): a crossed row
 * acts on every page recorded in it, not only on the page of the record that
 * crossed. row_pages holds a row's pages (at most the caller's bound, each
 * with its first record, its last time and the result of the last page
 * action on it); row_state holds, per row, when it crossed and how many
 * records of pages the bound kept out (and how many of those were told). All the SQL is
 * here; rasd/actions_rows.c decides.
 */
#ifndef RAS_DB_ROW_PAGES_H
#define RAS_DB_ROW_PAGES_H

#include <stdbool.h>
#include <stdint.h>
#include "db.h"

struct ras_db_row_pages;

int ras_db_row_pages_open(struct ras_db *db, struct ras_db_row_pages **out);
void ras_db_row_pages_close(struct ras_db_row_pages *rp);
/*
 * A record of the row named the page: its last time is moved on, or (a page
 * new to the row) it is kept with the record, or, when the row holds max
 * pages already, counted in the row's overflow instead. A write whose result
 * nobody reads (handed to the writer thread while it takes the writes).
 * 0 or -errno.
 */
int ras_db_row_page_note(struct ras_db_row_pages *rp, const char *row, uint64_t page,
			 int64_t seen_ns, const char *event_table, int64_t event_id, unsigned max);
/* The row crossed at when_ns: its later new pages act too. 0 or -errno. */
int ras_db_row_crossed(struct ras_db_row_pages *rp, const char *row, int64_t when_ns);
/* The result of the page action taken on the row's page in this boot ("done": not acted on again in it). */
int ras_db_row_page_acted(struct ras_db_row_pages *rp, const char *row, uint64_t page,
			  const char *result);
/*
 * The row's pages to act on, in address order: never acted on or offlined
 * in an earlier boot (in use again since), or with again, every one not
 * offlined in this boot. fn returns non-zero to stop.
 * The pages seen, or -EIO.
 */
typedef int (*ras_db_row_page_fn)(void *ctx, uint64_t page, const char *event_table,
				  int64_t event_id);
int ras_db_row_pages_pending(struct ras_db_row_pages *rp, const char *row, bool again,
			     ras_db_row_page_fn fn, void *ctx);
/* Pages the bound kept out of the row and not yet told (*n), then counted as told. 0 or -EIO. */
int ras_db_row_over_take(struct ras_db_row_pages *rp, const char *row, int64_t *n);
/* The rows that crossed, for fn each. The rows seen, or -EIO. */
int ras_db_rows_crossed(struct ras_db_row_pages *rp, void (*fn)(void *ctx, const char *row),
			void *ctx);
/*
 * Whether the page's own threshold offlined the page in this boot (a page
 * decision done, in the actions table): a crossed row does not offline it
 * again. Offlining is not kept across a reboot: an earlier boot's decision
 * is no answer. 1, 0 or -EIO.
 */
int ras_db_page_offlined(struct ras_db_row_pages *rp, uint64_t page);
/* Whether a row's page action offlined the page in this boot (its own threshold does not again). 1, 0 or -EIO. */
int ras_db_page_row_offlined(struct ras_db_row_pages *rp, uint64_t page);
/*
 * Forgets the pages last seen before seen_before_ns of rows that have not
 * crossed: their errors have leaked out of the row's bucket. The pages
 * removed, or -EIO.
 */
int ras_db_row_pages_prune(struct ras_db_row_pages *rp, int64_t seen_before_ns);

#endif
