/* SPDX-License-Identifier: MIT */
/*
 * Storm folding's state, shared by db_fold.c (which rows fold, their reading
 * back), db_fold_entries.c (the batch's folds by key) and db_fold_write.c
 * (the batch's folds merged into the folds table).
 * Internal to db/.
 */
#ifndef RAS_DB_FOLD_INTERNAL_H
#define RAS_DB_FOLD_INTERNAL_H

#include <stdlib.h>
#include "db_fold.h"

#define FOLD_SUBJECTS 1024
/*
 * The batch's folds' hash places (a batch writes its folds at three quarters
 * full, 12,288 keys). A key written twice in one commit costs a second folds
 * UPDATE: at 8,192 places the 1M-record storm's commits (9,000-12,000 keys
 * each) wrote 180,173 times instead of 100,540, 15 % of the writer thread's
 * instructions. An entry is 848 bytes: 10.4 MiB at most, taken as used.
 */
#define FOLD_SLOTS 16384
/*
 * Folds rows known from their last write, by key hash (db_fold_write.c): at
 * most this many keys, about 5.5 MiB of them and their keys' bytes (144 a
 * key on the bench: 4.5 MiB more; the 1M-record storm writes 19,060 keys);
 * the next key after that forgets them all, and each is read once again.
 */
#define FOLD_KNOWN_MAX 32768
/* A place's entry as its index + 1 (0: free), in 16 bits: half the bytes to clear a batch. */
/*
 * A known row's times as last written, kept whole (db_fold_write.c): the
 * next write binds the blob, instead of SQL cutting the stored one and
 * joining the new seconds to it (reading it back, two functions and two
 * copies in SQLite). A row's blob longer than FOLD_KNOWN_TIMES_ROW, or past
 * FOLD_KNOWN_TIMES_MAX bytes kept in all, is not kept: it is appended to in
 * SQL as before. The 1M-record bench keeps 1.6 MB, its longest row 16 KiB.
 */
#define FOLD_KNOWN_TIMES_ROW (32 * 1024)
#define FOLD_KNOWN_TIMES_MAX (8 * 1024 * 1024)
_Static_assert(FOLD_SLOTS <= 65535 && FOLD_KNOWN_MAX <= 65535, "fold places index 16-bit entries");
#define FOLD_DETAILS 8
#define LIMIT_BATCH 500
/* Stored rows of a storm folded together (db_fold.c fold_or_queue). */
#define FOLD_DEFER 64
#define SEC_NS 1000000000LL
#define HOUR_NS (3600LL * SEC_NS)

/* FNV-1a over n bytes of p, from h: the subjects' hash places. */
static inline uint64_t fold_fnv(uint64_t h, const void *p, size_t n)
{
	for (const unsigned char *s = p; n--; s++)
		h = (h ^ *s) * 0x100000001b3ULL;
	return h;
}

/* a / b rounded down (b > 0): a time before 1970 falls in the period or second it is in. */
static inline int64_t fold_floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* A subject's storm in the current period: how many seen, the ids held after the first ones. */
struct fold_subject {
	bool used;
	unsigned idx;
	int64_t period;
	uint64_t seen;
	char key[160];
	int64_t *held;              /* ring of row ids, oldest first from head */
	size_t head, n, cap;
	int64_t *deferred;          /* stored rows past the last fold_keep, to fold together */
	size_t ndeferred;
	unsigned hint;              /* the batch's entry its last folded record went to, + 1 (0: none) */
};

/* What one stored row says, read back when it is folded. */
struct folded_row {
	int64_t wall_ns, boot, dec, weight;
	int64_t id;                 /* the row's id: kept for a committed one (fresh 0), fold_growth.ids */
	int64_t key_dec;            /* dec when the summary location needs it, else 0 (fold_key) */
	int synthetic, fresh;
	bool have_addr, have_detail;
	uint64_t addr, detail;
	char source[16], severity[16], location[RAS_LOCATION_LEN], dims[160];
	char ekey[96];              /* mc_event: [mc, top, mid, low, error_type, error_count] */
};

/* A row to fold at commit, once the roll-ups counted it (db_txn.c flushes them first). */
struct fold_pending {
	unsigned idx;
	char subject[160];
	int64_t id;
};

/*
 * A folds row as this connection last wrote it, kept by its key's hash: the
 * next batch's folds of the key merge into it without reading the row back
 * (db_fold_write.c). The update checks that the row still says so; the key
 * itself is checked here, from its bytes (the hash may name another key).
 */
struct fold_stored {
	uint64_t hash;              /* the key's (fold_entry.hash) */
	int64_t id;                 /* 0: none known */
	int64_t records, errors, first_ns, last_ns, last_s;
	bool have_addr, details_more;
	uint64_t addr_lo, addr_hi, details[FOLD_DETAILS];
	unsigned ndetails;
	size_t used, room;          /* times: its seconds' bytes, and with the padding */
	uint8_t *times;             /* the room bytes stored, when kept (FOLD_KNOWN_TIMES_ROW); else NULL */
	uint32_t key_at;            /* the key's bytes in ras_db_fold.known_keys: key_len of key_room */
	uint16_t key_len, key_room;
};

/* The batch's folds of one key: written (merged into its folds row) at commit. */
struct fold_entry {
	unsigned place;             /* its hash place in ras_db_fold.at */
	unsigned idx;
	uint64_t hash;
	int64_t hour;
	char subject[160];
	struct folded_row key;      /* boot, source, synthetic, severity, location, dec, dims */
	int64_t records, errors, first_ns, last_ns;
	bool have_addr, details_more;
	uint64_t addr_lo, addr_hi, details[FOLD_DETAILS];
	unsigned ndetails;
	int64_t *secs;
	size_t nsecs, cap;
	int64_t *ids;               /* key.fresh 0: each record's row id and errors, as secs (fold_growth.ids) */
	size_t cap_ids;
};

/*
 * A fold_growth row waiting for its INSERT (db_fold_write.c): fold, records,
 * errors, first_ns, last_ns, times_from, times_to, prev_s, and its ids at
 * ids_at of the waiting rows' bytes (ids false: NULL).
 */
struct fold_grow_row {
	int64_t v[8];
	size_t ids_at, ids_len;
	bool ids;
};

/*
 * A new key's folds row waiting for its INSERT (db_fold_write.c): its entry,
 * its times blob (len bytes, last second last_s) and its known row's index;
 * that row's id, and its growth row's fold, say -(its place + 1) until then.
 */
struct fold_new_row {
	const struct fold_entry *e;
	uint8_t *blob;
	size_t len;
	int64_t last_s;
	unsigned known;
};

struct fold_table {
	bool probed;
	sqlite3_stmt *sel, *del, *oldest;
	sqlite3_stmt *del_known;    /* the row of a kept copy, deleted if it is still the one stored */
	char detail_name[32];
};

/*
 * The batch's folds are a list, in the order taken, with a table of hash
 * places naming them: a commit writes and empties the entries the batch used
 * and nothing else (it walked all 8,192 places at each commit, 22 % of a live
 * storm's commit time), and a storm that folds into a few keys takes a few
 * entries, not 6.9 MiB of slots paged in again after each idle's trim.
 */
struct ras_db_fold {
	struct fold_subject subj[FOLD_SUBJECTS];
	uint16_t *at;               /* FOLD_SLOTS places: entry index + 1, 0 free; allocated by the first fold */
	struct fold_entry *e;       /* the batch's entries, used of cap; the first made own buffers kept */
	unsigned used, cap, made;
	unsigned taken;             /* entries taken since the last trim */
	/*
	 * The known rows, nknown of cap_known, freed with e (and at a rollback),
	 * and known_places places naming them by hash (open addressing, twice
	 * cap_known, a power of two): known index + 1, 0 free.
	 */
	struct fold_stored *known;
	uint16_t *known_at;
	unsigned nknown, cap_known, known_places;
	char *known_keys;           /* the known rows' keys, emptied when they are forgotten */
	size_t known_keys_len, known_keys_cap;
	size_t known_times;         /* the bytes of the known rows' times kept */
	size_t buf_bytes;           /* the entries' secs and ids buffers */
	size_t bytes;               /* all of the above: atomic, read by ras_db_fold_slot_bytes */
	int64_t txn_first[RAS_MAX_EVENT_TYPES];     /* first row id of the open transaction; 0 none */
	struct fold_table t[RAS_MAX_EVENT_TYPES];
	sqlite3_stmt *get, *ins, *upd, *upd_known, *upd_whole, *crossed;
	int growth_log;             /* fold_growth exists: 1, not: -1, not asked yet: 0 */
	/*
	 * The growth rows of the writes so far, inserted RAS_DB_ROWS_PER_INSERT
	 * at once (then 8, 4, 2, 1 at the end of a write): grow[k] the INSERT of
	 * run k's rows; their ids' bytes in grow_ids (counted in buf_bytes).
	 */
	sqlite3_stmt *grow[RAS_DB_RUNS + 1];
	struct fold_grow_row grows[RAS_DB_ROWS_PER_INSERT];
	unsigned ngrows;
	uint8_t *grow_ids;
	size_t grow_ids_len, grow_ids_cap;
	/*
	 * The new keys' rows, inserted RAS_DB_ROWS_PER_INSERT at once like the
	 * growth rows (ins_run[k] run k's INSERT, the one-row run ins), before them.
	 */
	sqlite3_stmt *ins_run[RAS_DB_RUNS];
	struct fold_new_row news[RAS_DB_ROWS_PER_INSERT];
	unsigned nnews;
	/*
	 * Each table's latest folds hour as the write began (hour_asked set: asked
	 * this write; hour_any: a row stored): a new key of a later hour is no
	 * stored row's, not looked up (db_fold_write.c).
	 */
	sqlite3_stmt *max_hour;
	int64_t hour_max[RAS_MAX_EVENT_TYPES];
	bool hour_asked[RAS_MAX_EVENT_TYPES], hour_any[RAS_MAX_EVENT_TYPES];
	/* A copy: the pipeline that handed them over may be gone by the commit (an adopted one). */
	struct ras_db_limits limits;
	bool have_limits;
	int64_t newest_ns;
	struct fold_pending *pending;
	size_t npending, cap_pending;
	struct ras_db_hold *hold;   /* records held for folding (db_fold_hold.c) */
	bool ready[RAS_MAX_EVENT_TYPES];  /* the event loop's: ras_db_fold_ready done */
	/* The event loop's: the bytes of each table's decoded struct a fold job carries (0: not sized yet). */
	uint32_t decoded_bytes[RAS_MAX_EVENT_TYPES];
};

/* The bytes the batch's folds hold, published for the event loop's thread (ras_db_fold_slot_bytes). */
static inline void ras_db_fold_count_bytes(struct ras_db_fold *f)
{
	size_t n = (f->at ? FOLD_SLOTS * sizeof(*f->at) : 0) + f->cap * sizeof(*f->e) +
		   f->known_places * sizeof(*f->known_at) +
		   f->cap_known * sizeof(*f->known) + f->known_keys_cap + f->known_times + f->buf_bytes;

	__atomic_store_n(&f->bytes, n, __ATOMIC_RELAXED);
}

/* The known rows forgotten and given back: what a rollback took back must be read again. */
static inline void ras_db_fold_known_free(struct ras_db_fold *f)
{
	for (unsigned i = 0; i < f->nknown; i++)
		free(f->known[i].times);
	f->known_times = 0;
	free(f->known);
	free(f->known_at);
	free(f->known_keys);
	f->known = NULL;
	f->known_at = NULL;
	f->known_keys = NULL;
	f->nknown = f->cap_known = f->known_places = 0;
	f->known_keys_len = f->known_keys_cap = 0;
	ras_db_fold_count_bytes(f);
}

/* The batch's entries emptied, by their list (written, or rolled back); their buffers kept. */
static inline void ras_db_fold_entries_empty(struct ras_db_fold *f)
{
	for (unsigned i = 0; i < f->used; i++) {
		f->at[f->e[i].place] = 0;
		f->e[i].nsecs = 0;
	}
	f->used = 0;
}

/* A record to hold, if folding holds it: the event itself, or its copy packed (db_fold_job.c). */
struct ras_db_hold_req {
	const struct ras_db_event *ev;
	const void *packed;
	size_t bytes;
	int64_t dec;
};
/* ras_db_fold_note's decision for a record of table idx at wall_ns, its subject key (NULL: none). */
int ras_db_fold_note_req(struct ras_db *db, unsigned idx, int64_t wall_ns, const struct ras_db_limits *l,
			 const char *key, int64_t id, const struct ras_db_hold_req *hr);
/* The subject a record folds into (its coarsest), as a key: false when it names none. */
bool ras_db_fold_subject(const struct ras_db_event *ev, const struct ras_db_limits *l, char *key,
			 size_t len);

/* Adds v to a set of at most FOLD_DETAILS distinct values; *more once one did not fit. */
void ras_db_fold_add_detail(uint64_t *set, unsigned *n, bool *more, uint64_t v);
/* Writes the batch's folds entries into their folds rows (merged with stored ones); 0 or -errno. */
int ras_db_fold_write_entries(struct ras_db *db);
/* A row of the fold columns' statement (db_fold.c table_sql: list) as a folded row. */
void ras_db_fold_read_row(sqlite3_stmt *st, struct folded_row *r);

/*
 * Prepares table idx's fold columns for held records: list, SQL over its
 * view, and the view's address and detail columns it names (NULL: none).
 * False: the table holds none.
 */
bool ras_db_hold_prepare(struct ras_db *db, struct ras_db_hold **hp, unsigned idx, const char *list,
			 const char *addr, const char *detail);
/*
 * Takes the record held as row id of table idx out, its fold columns in *r
 * (all but fresh): 1, 0 when no such record is held, or -errno.
 */
int ras_db_hold_take(struct ras_db *db, struct ras_db_hold *h, unsigned idx, int64_t id,
		     struct folded_row *r);
/*
 * The same for the copy of a record stored as row id at a commit, kept since
 * (its row may have gone or changed since: the caller checks): 1, 0 when no
 * copy is kept, or -errno. ras_db_hold_forget drops every copy kept (and
 * the blocks kept for new copies).
 */
int ras_db_hold_take_stored(struct ras_db *db, struct ras_db_hold *h, unsigned idx, int64_t id,
			    struct folded_row *r);
void ras_db_hold_forget(struct ras_db_hold *h);

/*
 * The fold columns of a record computed in C (db_fold_row.c), the same as
 * the list's SQL over its row: what a held record is folded with, instead
 * of a statement per record.
 */
#define RAS_DB_FOLD_PLAN_DEC 16
struct ras_db_fold_plan {
	bool ok;                        /* false: the SQL computes them */
	struct ras_db_col_ref addr, detail;
	bool subjects;                  /* a metrics subject (dims, weight) */
	struct ras_db_subject_cols subj;
	bool ekey;                      /* mc_event's EDAC key */
	struct ras_db_col_ref ek[6];
	/*
	 * The decoded fields the columns read that a record's row does not hold
	 * (they are its <table>_dec row's): a held copy keeps them, with the
	 * location, so that its columns are computed when it is folded.
	 */
	short dec[RAS_DB_FOLD_PLAN_DEC];
	unsigned ndec;
};
/* The columns a record of ev's table folds with, beyond its own wall_ns, boot, source, ... */
struct ras_db_fold_cols {
	int64_t weight;
	bool have_addr, have_detail;
	uint64_t addr, detail;
	char dims[160], ekey[96];
};
/* Resolves the plan of table idx, whose list names addr and detail (NULL: none). */
void ras_db_fold_plan_make(unsigned idx, const char *addr, const char *detail,
			   struct ras_db_fold_plan *p);
/* ev's fold columns: 0, or -ENOTSUP for a value the SQL would render otherwise (it folds ev). */
int ras_db_fold_plan_cols(const struct ras_db_fold_plan *p, const struct ras_db_event *ev,
			  struct ras_db_fold_cols *out);
/*
 * The same from a held copy's values v (struct held, db_hold_pack.h) of table
 * idx, without the event and decoding held_event builds for the general one,
 * into r's own fields (have_addr, addr, have_detail, detail, weight, dims,
 * ekey); -ENOTSUP also for a copy not packed with plan p. tests/test-fold-cols
 * compares the two on random copies.
 */
int ras_db_fold_plan_cols_held(const struct ras_db_fold_plan *p, unsigned idx, const struct ras_value *v,
			       unsigned nvals, struct folded_row *r);

#endif
