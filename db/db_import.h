/* SPDX-License-Identifier: MIT */
/* Importing another recorder's database: rasdaemon's ras-mc_event.db. */
#ifndef RAS_DB_IMPORT_H
#define RAS_DB_IMPORT_H

#include "db.h"

struct ras_decode_ctx;

/* What happened to one source table. */
struct ras_import_count {
	const char *src_table;
	const char *dst_table;   /* NULL: no equivalent, not imported */
	bool not_a_table;        /* a view or virtual table of that name: not read */
	long long rows, imported, present, failed;
};

typedef void (*ras_import_report_fn)(void *ctx, const struct ras_import_count *c);

/*
 * Reads every table of the rasdaemon database at path and stores its rows in
 * db (opened for writing) with source "imported", decoded with dctx. Each row
 * is remembered in imported_rows by (origin, table, id, timestamp), so a
 * second import adds nothing. report is called once per source table.
 * Returns 0 or -errno (err filled).
 */
int ras_db_import_rasdaemon(struct ras_db *db, const char *path, struct ras_decode_ctx *dctx,
			    ras_import_report_fn report, void *ctx, char *err, size_t errlen);

#endif
