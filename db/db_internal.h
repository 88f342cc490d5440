/* SPDX-License-Identifier: MIT */
#ifndef RAS_DB_INTERNAL_H
#define RAS_DB_INTERNAL_H

#include <sqlite3.h>
#include "db.h"

#define RAS_DB_N_COMMON 8
#define RAS_DB_MAX_COLS 128

struct ras_db_col {
	const char *name;
	const char *decl;
};

/*
 * An event table holds the common columns, one column per tracepoint field and
 * "dec", the id of its row in <table>_dec. That table holds each distinct
 * decoding once (a storm of one error repeats one decoding), keyed by a hash
 * of its values; the view <table>_decoded joins the two.
 */
struct ras_db_table {
	struct ras_db_col cols[RAS_DB_MAX_COLS];
	unsigned ncols;
	unsigned first_raw, dec_col;
	struct ras_db_col dcols[RAS_DB_MAX_COLS];
	short dfield[RAS_DB_MAX_COLS];      /* index into type->dfields; -1: the location */
	unsigned ndcols;
};

struct ras_db_dec_slot {
	uint64_t sig;
	int64_t id;
};

#define RAS_DB_DEC_CACHE 256

enum ras_db_stmt {
	STMT_BEGIN, STMT_COMMIT, STMT_ROLLBACK, STMT_LOST, STMT_STATS_GET,
	STMT_STATS_SET, STMT_COUNTER_ADD, STMT_MARK_GET, STMT_MARK_SET, STMT_COUNT_
};

struct ras_db {
	sqlite3 *h;
	bool readonly;
	bool in_txn;
	int64_t boot;                       /* boots.id of this boot */
	sqlite3_stmt *stmt[STMT_COUNT_];
	sqlite3_stmt *insert[64];           /* per event type */
	sqlite3_stmt *dec_insert[64], *dec_find[64];
	struct ras_db_dec_slot *dec_cache[64]; /* recent decodings per type, by hash */
	char err[256];
};

extern const char *const ras_db_common_columns[RAS_DB_N_COMMON];
const struct ras_db_table *ras_db_table_of(unsigned type_idx);

int ras_db_migrate(struct ras_db *db);
/* Schema steps owned by the modules that use them. */
extern const char ras_db_schema_edac[];
extern const char ras_db_schema_snapshot[];
int ras_db_exec(struct ras_db *db, const char *sql);
bool ras_db_table_exists(struct ras_db *db, const char *table);

#endif
