/* SPDX-License-Identifier: MIT */
/*
 * What the tests of a commit refused part-way by the folds writer share
 * (test-fold-hold-fail, test-fold-news-fail, test-fold-write-fail): a stream
 * of EDAC records stored a batch a transaction, a trigger named poison that
 * refuses one row (made and dropped from a connection of its own, the writer
 * kept open), the writer's statements traced while a commit is refused, and
 * what two databases hold. Nothing here asserts (tap.h counts per file): the
 * tests do, with what these return.
 */
#ifndef RAS_FOLD_FAIL_FIXTURE_H
#define RAS_FOLD_FAIL_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "db/db.h"
#include "test_util.h"

/* The records' wall times' units. */
#define SEC 1000000000LL
#define HOUR (3600 * SEC)

/*
 * Record i (its trace_ts and rec_hash; address 0x4000 + 0x40 i) of the DIMM
 * r names, stored live at wall_ns under limits, decoded with the fixture's
 * context: ras_db_insert_event's result.
 */
int insert_record(struct ras_db *db, struct test_mc_rec r, unsigned i, int64_t wall_ns,
		  const struct ras_db_limits *limits);
/* The same for DIMM_<dimm / 8>_<dimm % 8> (mc dimm / 8, layer dimm % 8), its error count and syndrome its own. */
int insert_dimm_record(struct ras_db *db, unsigned dimm, unsigned i, int64_t wall_ns,
		       const struct ras_db_limits *limits);

/* A test's stream of records, a batch a transaction. */
struct batches {
	/* Record j of batch b inserted: ras_db_insert_event's result (1: stored). */
	int (*insert)(struct ras_db *db, const void *ctx, unsigned b, unsigned j);
	unsigned n;     /* batches */
	unsigned size;  /* records a batch, unless len says */
	unsigned (*len)(const void *ctx, unsigned b);      /* optional: batch b's records */
	bool (*left_out)(const void *ctx, unsigned b);     /* optional: not stored by store_db */
	const void *ctx;
};

/* Batch b in one transaction: 0, or < 0 (ras_db_commit's, or -1 for a record not stored). */
int store_batch(struct ras_db *db, const struct batches *s, unsigned b);
/* Batches first to s->n - 1 while they commit (a failure said with tap_diag): 0 or the first failure. */
int store_from(struct ras_db *db, const struct batches *s, unsigned first);
/* path opened as the writer (its thread when behind), every batch stored but those left out, closed. */
int store_db(const char *path, bool behind, const struct batches *s);

/* sql run on path from a connection of its own: 0, or -1. */
int exec_sql(const char *path, const char *sql);
/* The trigger poison made in path: "CREATE TRIGGER poison <when> BEGIN SELECT RAISE(ABORT, '<words>'); END". */
int poison_make(const char *path, const char *when, const char *words);
int poison_drop(const char *path);
/* The text the first row of sql holds in path, read only ("" when none). */
void sql_text(const char *path, const char *sql, char *out, size_t len);
/* Raw rows plus folded records in path; -1 when it cannot be read. */
int64_t raw_plus_folded(const char *path);
/* integrity_check's "ok" rows in path: 1 when it is whole. */
int64_t integrity_ok(const char *path);

/*
 * The writer connection's statements traced from trace_start() to
 * trace_stop(): the rows the poison trigger was tried on and the statement
 * of the last (as prepared), the INSERTs whose SQL starts with head (how
 * many, the VALUES tuples of the last), and the folds rows' UPDATEs by id
 * (upd_whole's, upd_known's appending in SQL).
 */
struct trace_seen {
	unsigned tried, inserts, last_rows, whole, known;
	char refused[256];
};
void trace_start(struct ras_db *db, const char *head);
void trace_stop(struct ras_db *db);
/* What was seen so far. */
struct trace_seen traced(void);

#endif
