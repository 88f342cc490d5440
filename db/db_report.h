/* SPDX-License-Identifier: MIT */
/*
 * What ras-fdr-ctl report (issue 38) reads that no other command asks for.
 * The rest of the report comes from the queries the other commands use
 * (ras_db_summary, ras_db_losses, ras_db_action_list, ras_db_crashes,
 * ras_db_errors), so its counts are theirs.
 */
#ifndef RAS_DB_REPORT_H
#define RAS_DB_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include "db.h"

/* The database's schema version (PRAGMA user_version), or -errno. */
int ras_db_report_schema(struct ras_db *db);
/*
 * Every boot rasd saw, in the order ras-fdr-ctl crashes numbers them (the
 * first seen is 1). first_seen_ns 0: not known. Returns how many, or -errno.
 */
typedef int (*ras_db_boot_fn)(void *ctx, const char *boot_id, int64_t first_seen_ns);
int ras_db_report_boots(struct ras_db *db, ras_db_boot_fn fn, void *ctx);
/*
 * The summary location (ras_db_sumloc_sql, the one summary counts by) of
 * row id of table idx, into out. 1 found, 0 no such row (folded or gone),
 * -errno.
 */
int ras_db_report_record_place(struct ras_db *db, unsigned idx, int64_t id, char *out, size_t len);
/*
 * Readies the connection for --part's rows, which lie all over their table
 * (each a page of its own): a page cache of 32 MiB, so the table's inner
 * pages are read once and the rows' sort (ras_db_errors) stays in memory.
 */
int ras_db_report_for_rows(struct ras_db *db);

#endif
