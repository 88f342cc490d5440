/* SPDX-License-Identifier: MIT */
#ifndef RAS_DB_INTERNAL_H
#define RAS_DB_INTERNAL_H

#include <sqlite3.h>
#include <string.h>
#include <sys/types.h>
#include "db.h"

#define RAS_DB_N_COMMON 8
#define RAS_DB_MAX_COLS 128

struct ras_db_col {
	const char *name;
	const char *decl;
};

/*
 * An event table holds the common columns, one column per tracepoint field,
 * "dec", the id of its row in <table>_dec, and the decoded values that differ
 * per record (struct ras_dfield per_record). <table>_dec holds each distinct
 * rest of a decoding once (a storm of one error repeats one decoding), keyed
 * by a hash of its values; the view <table>_decoded joins the two.
 */
/* Where decoded_sig (db/db_insert.c) reads a decoding column: the decoded struct's member. */
struct ras_db_sig_col {
	uint32_t offset, size;      /* the member: an int64_t, or a char array of size bytes */
	bool is_int;
};

struct ras_db_table {
	struct ras_db_col cols[RAS_DB_MAX_COLS];
	unsigned ncols;
	unsigned first_raw, dec_col;
	unsigned first_rec, nrec;           /* the per-record decoded columns, after dec */
	short rfield[RAS_DB_MAX_COLS];      /* their index into type->dfields */
	struct ras_db_col dcols[RAS_DB_MAX_COLS];
	short dfield[RAS_DB_MAX_COLS];      /* index into type->dfields; -1: the location */
	unsigned ndcols;
	struct ras_db_sig_col sig[RAS_DB_MAX_COLS];   /* dcols' members, as dfield names them */
	/* By index into type->dfields: the raw field it restates (ras_db_restated_raw), or -1. */
	short restated[RAS_DB_MAX_COLS];
};

struct ras_db_dec_slot {
	uint64_t sig;
	int64_t id;
};

/*
 * Per event table, allocated at its first record: 1 MiB (and the signatures
 * sent, 512 KiB), resident as a storm fills it. A varied machine-check storm
 * has some 22,000 distinct decodings: with 32,768 slots, 19,000 of its
 * lookups found theirs taken by another and asked the database again.
 */
#define RAS_DB_DEC_CACHE 65536
#define RAS_DB_DEC_WAYS 4
/*
 * Rows stored together (a table's gathered rows, their new decodings, the
 * held records at commit) go RAS_DB_ROWS_PER_INSERT, 8, 4 or 2 to an INSERT
 * (run k: RAS_DB_ROWS_PER_INSERT >> k rows), a last one alone: a table's 13
 * rows left when the writer thread goes idle are three statements, not 13.
 */
#define RAS_DB_RUNS 4
#define RAS_DB_ROWS_PER_INSERT 16u
/* The run for the next of left rows: the largest that fits; RAS_DB_RUNS when one row is left. */
static inline unsigned ras_db_run_of(unsigned left)
{
	unsigned k = 0;

	while (k < RAS_DB_RUNS && (RAS_DB_ROWS_PER_INSERT >> k) > left)
		k++;
	return k;
}

/* The rows of run k: RAS_DB_ROWS_PER_INSERT >> k, or 1 for RAS_DB_RUNS (the one-row INSERT). */
static inline unsigned ras_db_run_rows(unsigned k)
{
	return k < RAS_DB_RUNS ? RAS_DB_ROWS_PER_INSERT >> k : 1;
}

#define RAS_DB_TABLES_SEEN 64

/* The VFS of the writer's connection (db_vfs.c): its log written in large pieces. */
#define RAS_DB_LOG_VFS "ras-fdr-log"
/* Its name, registered at the first call; NULL when it cannot be (the system's is used). */
const char *ras_db_log_vfs(void);

/* A deferred call run by the writer thread (db_writer.c): SQLITE_OK or the SQLite code of its failure. */
struct ras_db_col_val;
typedef int (*ras_db_job_fn)(struct ras_db *db, const void *arg);
/* A job with values (ras_db_defer_vals_put): its argument, and n values read back (none now). */
typedef int (*ras_db_vals_job_fn)(struct ras_db *db, const void *arg, const struct ras_db_col_val *vals,
				  unsigned n);

enum ras_db_stmt {
	STMT_BEGIN, STMT_COMMIT, STMT_ROLLBACK, STMT_LOST, STMT_STATS_GET,
	STMT_STATS_SET, STMT_COUNTER_ADD, STMT_MARK_GET, STMT_MARK_SET, STMT_COUNT_
};

struct ras_db_row_job;
struct ras_db {
	sqlite3 *h;
	bool readonly;
	bool in_txn;
	int64_t boot;                       /* boots.id of this boot */
	sqlite3_stmt *stmt[STMT_COUNT_];
	sqlite3_stmt *insert[RAS_MAX_EVENT_TYPES];        /* per event type */
	/* The INSERT of each run's rows at once (RAS_DB_ROWS_PER_INSERT >> k; db_rows.c), what each has bound. */
	sqlite3_stmt *insert_rows[RAS_MAX_EVENT_TYPES][RAS_DB_RUNS];
	struct ras_db_bound *bound[RAS_MAX_EVENT_TYPES][RAS_DB_RUNS];
	struct ras_db_bound *row_bound[RAS_MAX_EVENT_TYPES]; /* what insert has bound (db_insert.c) */
	struct ras_db_bound *dec_bound[RAS_MAX_EVENT_TYPES]; /* what dec_insert has bound */
	sqlite3_stmt *dec_insert[RAS_MAX_EVENT_TYPES], *dec_find[RAS_MAX_EVENT_TYPES];
	/* The same for the decodings (db_insert.c). */
	sqlite3_stmt *dec_inserts[RAS_MAX_EVENT_TYPES][RAS_DB_RUNS];
	struct ras_db_bound *dec_runs_bound[RAS_MAX_EVENT_TYPES][RAS_DB_RUNS];
	struct ras_db_dec_slot *dec_cache[RAS_MAX_EVENT_TYPES]; /* recent decodings, by hash */
	struct ras_db_rollup *rollup;       /* the open batch's hourly counts (db_rollup.c) */
	struct ras_db_edac_acc *edac_acc;   /* its rollup_edac counts (db_edac_rollup.c) */
	struct ras_db_metrics_acc *subjects_acc;  /* its rollup_subjects counts (db_metrics.c) */
	/*
	 * The three roll-ups' counts of a commit behind, handed to the writer
	 * thread with it (ras_db_commit_behind swaps them with the open batch's,
	 * the writer flushes and empties them before that COMMIT): the event
	 * loop's thread touches them again only once commit rollups_ticket is
	 * made, or after ras_db_sync.
	 */
	struct ras_db_rollup *rollup_out;
	struct ras_db_edac_acc *edac_acc_out;
	struct ras_db_metrics_acc *subjects_acc_out;
	uint64_t rollups_ticket;
	struct ras_db_ckpt *ckpt;           /* the checkpoint thread (db_checkpoint.c), or NULL */
	struct ras_db_fold *fold;           /* storms being folded, the batch's folds (db_fold.c) */
	/*
	 * Each event table's next row id in the open transaction (0: not read
	 * yet): ids are reserved in arrival order, so a record held for folding
	 * (db_fold_hold.c) and inserted at commit keeps its place.
	 */
	int64_t next_id[RAS_MAX_EVENT_TYPES];
	bool moved;                         /* the path no longer names the open file */
	/* The writer's -wal and -shm as opened (st_dev, st_ino): told from another file's at that path. */
	dev_t log_dev, shm_dev;
	ino_t log_ino, shm_ino;
	struct ras_db_wb *wb;               /* the writer thread (db_writer.c), or NULL */
	/*
	 * The raw-rows stage's store of a table's deferred rows (db_insert.c),
	 * which the writer thread runs: set at open, so that the writer calls up
	 * into no stage (tests/test-db-calls.sh).
	 */
	int (*rows_store)(struct ras_db *db, unsigned idx, unsigned n, const struct ras_db_row_job *rows);
	/* Folding's rows gathered not held (ras_db_fold_store_unheld), stored where rows_store's are. */
	int (*unheld_store)(struct ras_db *db);
	int wb_failed;                      /* SQLite code of a deferred write that failed, as last synced */
	unsigned long sync_waits;           /* ras_db_sync calls that waited for the writer thread (tests) */
	unsigned long rollbacks;            /* ras_db_rollback calls: ras_db_rollbacks */
	bool wb_engaged;                    /* the last record went to the writer thread: so do its writes */
	uint64_t *dec_sent[RAS_MAX_EVENT_TYPES]; /* signatures whose decodings went to the writer thread */
	int64_t last_event_id;              /* the last record's row id (ras_db_last_row_id) */
	int page_bytes;                     /* the writer's page size */
	uint64_t commit_ticket;             /* the last commit handed to the writer thread */
	bool commit_behind;                 /* one was, and the thread has not been waited for since */
	int64_t age_checked_ns;             /* the age limit was last applied (CLOCK_MONOTONIC) */
	/*
	 * Storm folding's state (db->fold) is the writer thread's while jobs
	 * that use it are out (a record folding decides on, a flush): the event
	 * loop's thread touches it again only after ras_db_sync, which clears this.
	 */
	bool fold_out;
	/* The limits the last record brought, the event loop's copy (limit_due, db_txn.c). */
	struct ras_db_limits limits;
	bool have_limits;
	/* Tables found (ras_db_table_exists): none is ever dropped, so a storm's flushes ask nothing. */
	char tables_seen[RAS_DB_TABLES_SEEN][48];
	unsigned n_tables_seen;
	char err[256];
};

extern const char *const ras_db_common_columns[RAS_DB_N_COMMON];
const struct ras_db_table *ras_db_table_of(unsigned type_idx);
/*
 * A column of the <table>_decoded view read off an event in C, as the insert
 * binds it (db_columns.c): the SQL over the view and these give one value.
 */
struct ras_db_col_ref {
	enum { RAS_DB_COL_NONE, RAS_DB_COL_RAW, RAS_DB_COL_REC, RAS_DB_COL_DEC, RAS_DB_COL_LOC } kind;
	int i;                      /* the raw field's or the decoded field's index */
};
/* type: SQLITE_NULL, SQLITE_INTEGER (i), SQLITE_TEXT or SQLITE_BLOB (p, len; not terminated). */
struct ras_db_col_val {
	int type;
	int64_t i;
	const char *p;
	size_t len;
};
static inline struct ras_db_col_val ras_db_val_int(int64_t i)
{
	return (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = i };
}

/* s must outlive the statement's step (or the job's packing). */
static inline struct ras_db_col_val ras_db_val_text(const char *s)
{
	return (struct ras_db_col_val){ .type = SQLITE_TEXT, .p = s, .len = strlen(s) };
}

/* The view column name of table idx: a raw field, a per-record or stored decoded value, or none. */
struct ras_db_col_ref ras_db_col_resolve(unsigned idx, const char *name);
struct ras_db_col_val ras_db_col_value(const struct ras_db_col_ref *c, const struct ras_db_event *ev);
/* The values the insert binds (db_insert.c), so that the C and the SQL read the same ones. */
static inline struct ras_db_col_val ras_db_raw_value(const struct ras_field *f, const struct ras_value *r)
{
	if (!r->present)
		return (struct ras_db_col_val){ .type = SQLITE_NULL };
	if (f->type == RAS_FT_INT)
		return (struct ras_db_col_val){ .type = SQLITE_INTEGER, .i = r->i };
	return (struct ras_db_col_val){ .type = f->type == RAS_FT_TEXT ? SQLITE_TEXT : SQLITE_BLOB,
					.p = r->p ? r->p : "", .len = r->len };
}
/* A decoded value: RAS_DF_NONE and "" are NULL. */
struct ras_db_col_val ras_db_decoded_value(const struct ras_dfield *f, const void *decoded);
/* Binds v to st's parameter col (text and blobs static: v's bytes outlive the step). */
void ras_db_bind_value(sqlite3_stmt *st, int col, const struct ras_db_col_val *v);

/* The same subject and weight in C, over an event as the insert binds it (db_metrics.c, for db_fold_hold.c). */
struct ras_db_subject_cols {
	unsigned src;
	struct ras_db_col_ref key[3], key2, weight;
};
/* Resolves table idx's subject columns; false for a table without subjects (dims '', weight 1). */
bool ras_db_metrics_subject_cols(unsigned idx, struct ras_db_subject_cols *c);
/* ev's dims, as ras_db_metrics_subject_sql's text would read back (cut to len), and weight. */
void ras_db_metrics_subject_text(const struct ras_db_subject_cols *c, const struct ras_db_event *ev,
				 char *dims, size_t len, int64_t *weight);
/* A column's value as read from ctx (an event, or a held copy's values). */
typedef struct ras_db_col_val ras_db_col_get(const struct ras_db_col_ref *c, const void *ctx);
/* The same, each value read by get from ctx. */
void ras_db_metrics_subject_text_get(const struct ras_db_subject_cols *c, ras_db_col_get *get,
				     const void *ctx, char *dims, size_t len, int64_t *weight);

/* The raw field a decoded field restates (read back from its column), or -1. */
int ras_db_restated_raw(const struct ras_event_type *type, const struct ras_dfield *d);

/*
 * An event row (db_rows.c, below db_insert.c and db_fold_hold.c, which both
 * store rows): the values its INSERT binds (t->ncols of them, the id apart).
 */
void ras_db_row_values(struct ras_db *db, const struct ras_db_event *ev, int64_t dec,
		       struct ras_db_col_val *v);
/*
 * db_moved.c: the writer's -wal and -shm noted at open; whether the file at the
 * path is still the one open (false once told: db->err says so); at close, the
 * moved file's frames copied into it (true when all were) and, once closed, its
 * log and index at the path removed or, with frames not copied, put aside.
 */
void ras_db_note_log_files(struct ras_db *db, const char *path);
bool ras_db_file_moved(struct ras_db *db);
bool ras_db_empty_moved_log(struct ras_db *db);
void ras_db_forget_moved_log(const struct ras_db *db, const char *path, bool copied,
			     char *kept, size_t len);
/*
 * A statement's record of what it has bound (db_rows.c): ras_db_bind_kept binds v
 * as parameter col unless the same integer or NULL is bound there already.
 */
struct ras_db_bound;
void ras_db_bind_kept(struct ras_db_bound *b, sqlite3_stmt *st, int col, const struct ras_db_col_val *v);
/* st's record, allocated at its first use; NULL without memory (then every value is bound). */
struct ras_db_bound *ras_db_bound_of(struct ras_db_bound **b, sqlite3_stmt *st);
/* Binds ev's row (decoding dec) to st's parameters 1.., numbered as the event INSERT's. */
void ras_db_bind_row(struct ras_db *db, sqlite3_stmt *st, const struct ras_db_event *ev, int64_t dec);
/*
 * Inserts ev's row as row *id (0: the next free one, then set): 1 stored,
 * 0 a duplicate ignored, -EIO. Nothing else: no roll-ups, no folding.
 */
int ras_db_insert_row(struct ras_db *db, const struct ras_db_event *ev, int64_t dec, int64_t *id);
/* Whether the identity index covers ev's source, so that an insert may refuse it as stored. */
bool ras_db_may_be_duplicate(const struct ras_db_event *ev);
/* The same sources as an SQL list, "('boot', 'previous-boot')", for the index's WHERE. */
void ras_db_identity_sources_sql(char *out, size_t len);

/*
 * Records that the rows of table idx up to id may be gone (a purge, the size
 * or age limits): the next id handed out is above it, so an id names one
 * record for good (export's cursor counts on it). 0 or -EIO.
 */
int ras_db_raise_id_floor(struct ras_db *db, unsigned idx, int64_t id);

int ras_db_migrate(struct ras_db *db);
/* SQLite's result code as -errno: -EBUSY, -ENOSPC, -EBADMSG or -EIO (db_base.c, the leaf). */
/*
 * SQLite's process-wide settings, made before anything initialises it (the
 * first sqlite3_vfs_find or open): once initialised it refuses them.
 */
void ras_db_sqlite_setup(void);
int ras_db_errno_of(int code);

/*
 * The writer thread (db_writer.c). ras_db_sync waits until every write handed
 * to it has run; then, and only then, the caller's thread may use the
 * connection. It returns 0, or the -errno of a deferred write that failed,
 * every time until ras_db_sync_clear (the rollback). Without a writer thread,
 * and on it, it returns 0 at once.
 */
int ras_db_sync(struct ras_db *db);
void ras_db_sync_clear(struct ras_db *db);
/*
 * Whether writes may be handed over now: a writer thread, an open transaction,
 * no failure seen, and the last record handed over too (a record stored here,
 * one storm folding holds, keeps its writes here: handing them over would
 * only make the next record wait for them).
 */
bool ras_db_deferring(const struct ras_db *db);
/*
 * Hands the writer thread an event row of table idx under id: row holds its
 * ncols values (the dec column's is filled in there), dec the ndec values of
 * its decoding (0 when sent lately), of signature sig. 0 or -errno.
 */
int ras_db_defer_row(struct ras_db *db, unsigned idx, int64_t id, uint64_t sig,
		     const struct ras_db_col_val *row, unsigned ncols,
		     const struct ras_db_col_val *dec, unsigned ndec);
/*
 * Hands the writer thread a call of fn with a copy of arg_len bytes at arg
 * (the rows handed over before it stored first). 0 or -errno.
 */
int ras_db_defer_call(struct ras_db *db, ras_db_job_fn fn, const void *arg, size_t arg_len);
/*
 * The same for a record of table idx (that table's rows handed over before
 * it are stored first), fn called with no values, its argument packed in
 * place: room for it (*room bytes, a multiple of 8) in the writer thread's
 * chunk being filled, the chunk handed over first when fresh (an argument
 * that did not fit); NULL: -ENOMEM. Then ras_db_defer_vals_put hands over
 * the arg_len bytes written there (at most *room), before anything else is
 * deferred.
 */
uint8_t *ras_db_defer_vals_room(struct ras_db *db, bool fresh, size_t *room);
void ras_db_defer_vals_put(struct ras_db *db, unsigned idx, ras_db_vals_job_fn fn, size_t arg_len);
/*
 * Runs the prepared statement st with v[0..n) bound as its parameters 1..n:
 * handed to the writer thread while writes are (ras_db_deferring), else here,
 * after a sync. A write whose result nobody reads. 0 or -errno.
 */
int ras_db_run(struct ras_db *db, sqlite3_stmt *st, const struct ras_db_col_val *v, unsigned n);
/* The writer thread's BEGIN, and its COMMIT of the given ticket (handed over at once). */
int ras_db_defer_begin(struct ras_db *db);
int ras_db_defer_commit(struct ras_db *db, uint64_t ticket);
/* After a commit made on the caller's thread: the pages in use, for ras_db_used_bytes. */
void ras_db_note_committed(struct ras_db *db);
/* The pages in use after the writer thread's last commit, in bytes; -1 when not known. */
int64_t ras_db_used_bytes(const struct ras_db *db);
/* The INSERT of rows rows of table idx at once, parameters numbered as the one-row INSERT's, row after row. */
int ras_db_prepare_insert(struct ras_db *db, unsigned idx, unsigned rows, sqlite3_stmt **st);
/*
 * A deferred event row (on the writer thread), as its job holds it: its id,
 * its decoding's signature, its values (the dec column's filled in here) and
 * its decoding's values (NULL: stored before).
 */
struct ras_db_row_job {
	int64_t id;
	uint64_t sig;
	struct ras_db_col_val *row;
	const struct ras_db_col_val *dec;
};
/*
 * Stores n deferred rows of table idx: finds or stores each one's decoding,
 * inserts them, in one statement when n is RAS_DB_ROWS_PER_INSERT. SQLITE_OK
 * or SQLite's code (a row not inserted: SQLITE_CONSTRAINT).
 */
int ras_db_rows_store(struct ras_db *db, unsigned idx, unsigned n, const struct ras_db_row_job *rows);
/*
 * Inserts n rows of table idx whose values are complete (the dec column's
 * too) under their ids (db_rows.c): in one statement when n is
 * RAS_DB_ROWS_PER_INSERT, else one by one. SQLITE_OK or SQLite's code (a row
 * not inserted: SQLITE_CONSTRAINT); then some of them may be stored, and the
 * transaction is the caller's to roll back.
 */
int ras_db_store_rows(struct ras_db *db, unsigned idx, unsigned n, const struct ras_db_row_job *rows);
void ras_db_write_behind_stop(struct ras_db *db);
void ras_db_write_behind_trim(struct ras_db *db);
/*
 * Checkpoints in a thread of their own once a commit leaves frames or more
 * in the log (db_checkpoint.c); 0 or -errno (then SQLite's own apply).
 */
int ras_db_checkpointer_start(struct ras_db *db, int frames);
/* Stops and joins it; nothing when none runs. Before the writer's handle closes. */
void ras_db_checkpointer_stop(struct ras_db *db);
/* 0 when path (and, with h, its schema) is a ras-fdr database to use; else -errno and err. */
int ras_db_check_usable(const char *path, sqlite3 *h, char *err, size_t errlen);
/* Classifies path (and, with h, its schema); why says what is wrong. */
enum ras_db_state ras_db_inspect(const char *path, sqlite3 *h, char *why, size_t whylen);
int ras_db_exec(struct ras_db *db, const char *sql);
/* The errors an mc_event row stands for, in SQL: decoders/edac.h edac_errors_of(). */
#define RAS_DB_EDAC_ERRORS_SQL(col) "max(coalesce(" col ", 1), 1)"
/* Schema step 17: stored machine-check decodings' cache levels as Linux numbers them (db_migrate_levels.c). */
int ras_db_migrate_cache_levels(struct ras_db *db);
/* The integer in the first column of sql's first row: 0, -ENOENT (no row, or not an integer), -EIO. */
int ras_db_int(struct ras_db *db, const char *sql, int64_t *out);
bool ras_db_table_exists(struct ras_db *db, const char *table);
/*
 * Appends a multi-row INSERT's VALUES list, rows tuples of marks parameters
 * ("(?,?),(?,?)"), to the sql of cap bytes whose first n are written: the
 * new length, cap or more when it did not fit (db_sql.c).
 */
size_t ras_db_sql_values(char *sql, size_t cap, size_t n, unsigned rows, unsigned marks);
/*
 * One event table's row by id, with its raw fields and its stored decoding
 * rebuilt (db_row_read.c). The statement's columns are found once per table.
 */
struct ras_db_row;
struct ras_db_row_keys;
struct ras_db_row_cols {
	int raw[RAS_MAX_FIELDS];
	int dec[RAS_DB_MAX_COLS];   /* by index into the type's dfields; -1: absent */
	int location;
	/*
	 * Set by the caller before ras_db_row_select: the SELECT reads the
	 * table, not its view, with the row's boot and dec numbers; each boot id
	 * and each decoding is then looked up once (keys), not joined to every
	 * row. Released by ras_db_row_cols_release.
	 */
	bool by_key;
	int dec_key;                /* the dec column, when by_key */
	struct ras_db_row_keys *keys;
};
/* Frees what by_key's reads kept (rc->keys). */
void ras_db_row_cols_release(struct ras_db_row_cols *rc);
sqlite3_stmt *ras_db_row_stmt(struct ras_db *db, unsigned idx, struct ras_db_row_cols *rc);
/*
 * The row statement's SELECT list appended at sql[n] (the row's id is column
 * 7), for a caller's own FROM and WHERE. Returns the length, or -1.
 */
int ras_db_row_select(struct ras_db *db, unsigned idx, struct ras_db_row_cols *rc, char *sql,
		      size_t cap, size_t n);
/* decoded: a buffer of RAS_DECODED_MAX bytes that row->decoded will point to. */
int ras_db_deliver_row(sqlite3_stmt *st, unsigned idx, int64_t id, const struct ras_db_row_cols *rc,
		       void *decoded, int (*fn)(void *ctx, const struct ras_db_row *row), void *ctx);
/* The same for the row st (of ras_db_row_select's columns) stands on. */
int ras_db_row_read(sqlite3_stmt *st, unsigned idx, const struct ras_db_row_cols *rc, void *decoded,
		    int (*fn)(void *ctx, const struct ras_db_row *row), void *ctx);
/* The decoded fields of table idx's stored decoding dec into out (a folded period's). */
void ras_db_dec_read(struct ras_db *db, unsigned idx, int64_t dec, void *out);

#endif
