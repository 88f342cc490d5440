/* SPDX-License-Identifier: MIT */
/* Read-side queries used by ras-fdr-ctl. */
#ifndef RAS_DB_QUERY_H
#define RAS_DB_QUERY_H

#include "db.h"

struct ras_db_filter {
	int64_t since_ns, until_ns;   /* 0: unbounded */
	int type_idx;                 /* -1: every type (or those of type_mask) */
	uint64_t type_mask;           /* with type_idx -1: only the types whose bit (1 << index) is set; 0: all */
	unsigned limit;               /* 0: no limit */
	bool include_synthetic;
	const char *boot_id;          /* NULL: every boot */
	bool with_folds;              /* errors: folded storm periods too, one row each */
	bool several_errors;          /* only records of more than one error (type->errors > 1) */
	/*
	 * errors: only the rows whose summary location (the one summary counts
	 * by) is one of these, and the folded periods listed with one of them
	 * (found in SQL by the rows' decodings: report --part). NULL: any.
	 */
	const char *const *locations;
	unsigned nlocations;          /* at most RAS_DB_LOCATIONS_MAX */
	/*
	 * summary and its columns: only the summary locations that hold this
	 * piece (report --part's parts, named exactly or by a piece), from the
	 * roll-ups; a scan may still deliver others. NULL: any.
	 */
	const char *location_holds;
};
#define RAS_DB_LOCATIONS_MAX 1000

#define RAS_DB_FOLD_DETAILS 8

/* A folded period of one subject's storm (db_fold.c), as ras_db_errors delivers it. */
struct ras_db_fold_info {
	const char *subject;          /* e.g. "dimm mc0 1:0:-1"; "" when a size or age limit folded */
	int64_t records, errors, first_ns, last_ns;
	bool have_addr, details_more;
	uint64_t addr_lo, addr_hi;
	const char *detail_name;      /* the raw field of the distinct values: "syndrome"..., or "" */
	uint64_t details[RAS_DB_FOLD_DETAILS];
	unsigned ndetails;
};

struct ras_db_row {
	unsigned type_idx;
	int64_t id, wall_ns, trace_ts;
	int trace_cpu;
	const char *boot_id, *source, *severity, *location;
	bool synthetic;   /* written by inject --synthetic (source "synthetic" or the flag) */
	struct ras_value values[RAS_MAX_FIELDS];   /* raw fields, type->fields order */
	/*
	 * The decoding stored with the row, rebuilt as the decoder's output
	 * struct (a ras_decoded_head first): render it, print its fields.
	 */
	const void *decoded;
	/*
	 * Set for a folded period (with_folds): values are absent; decoded has the
	 * head and the stored decoding of the period's first record.
	 */
	const struct ras_db_fold_info *fold;
};

typedef int (*ras_db_row_fn)(void *ctx, const struct ras_db_row *row);
typedef int (*ras_db_count_fn)(void *ctx, unsigned type_idx, const char *severity,
			       const char *location, int64_t count, int64_t first_ns, int64_t last_ns);

/* Rows newest first across all event tables. Returns rows delivered or -errno. */
int ras_db_errors(struct ras_db *db, const struct ras_db_filter *f, ras_db_row_fn fn, void *ctx);
/* Counts per type x severity x location, from the hourly roll-ups and the window's edges. */
int ras_db_summary(struct ras_db *db, const struct ras_db_filter *f, ras_db_count_fn fn, void *ctx);
/*
 * The summary's counts cut into columns of time in one pass per type (the
 * report's timelines): starts[0..n] are n + 1 increasing times, column c is
 * [starts[c], starts[c + 1]); fn gets each type x severity x location x
 * column's count (records outside every column are not delivered). The
 * counts of a column are those ras_db_summary gives for its window.
 */
#define RAS_DB_COLUMNS_MAX 64
typedef int (*ras_db_column_fn)(void *ctx, unsigned type_idx, const char *severity,
				const char *location, unsigned column, int64_t count);
int ras_db_summary_columns(struct ras_db *db, const struct ras_db_filter *f, const int64_t *starts,
			   unsigned n, ras_db_column_fn fn, void *ctx);
/*
 * The window's records as ras_db_summary counts them (location_holds aside),
 * summed only until they pass stop_above (0: to the end): report --part asks
 * whether its window is a large one without counting every other part.
 */
int ras_db_summary_records(struct ras_db *db, const struct ras_db_filter *f, int64_t stop_above,
			   int64_t *records);
/* The same counted by scanning every row: for databases without roll-ups, and tests. */
int ras_db_summary_scan(struct ras_db *db, const struct ras_db_filter *f, ras_db_count_fn fn,
			void *ctx);
/*
 * Every loss, from one definition (ras_db_losses): each lost_events row is
 * records of a known count, or a gap of unknown size (count NULL), whatever
 * its origin, those of today (RAS_DB_LOSS_ORIGINS) and any a later ras-fdr
 * adds. One exception keeps a loss from counting twice: a "subbuffer" row's
 * count, where the kernel's sub-buffer header gave one, is the same records
 * the kernel's drop counters (origin "stats") count on a live kernel, so it
 * is shown by origin and not added to the total again; its gaps are.
 */
#define RAS_DB_LOSS_ORIGINS { "stats", "subbuffer", "storage", "crash", "malformed" }
#define RAS_DB_LOSS_ORIGINS_MAX 16
struct ras_db_loss_origin {
	char origin[32];
	int64_t records;              /* the known counts */
	int64_t gaps;                 /* rows of unknown size */
	int64_t rows;
	bool in_total;                /* its records add to the total (all but subbuffer's) */
};
struct ras_db_losses {
	int64_t records, gaps;        /* the totals */
	int64_t max_id;               /* the newest lost_events row counted (0: none) */
	unsigned n;                   /* the known origins first, then any other, by name */
	struct ras_db_loss_origin o[RAS_DB_LOSS_ORIGINS_MAX];
};
/* The losses in f's window and boot (since: rows with an id above after_id too). */
int ras_db_losses(struct ras_db *db, const struct ras_db_filter *f, int64_t after_id,
		  struct ras_db_losses *out);
/* Its totals: counted records and gaps whose size is unknown. */
int ras_db_lost_totals(struct ras_db *db, const struct ras_db_filter *f, int64_t *counted,
		       int64_t *unknown_gaps);
/* The last crash's cost: the origin "crash" rows of the newest crash accounted, and when. */
int ras_db_last_crash(struct ras_db *db, int64_t *records, int64_t *at_ns);
/* Rows and newest time of one table; -ENOENT when the table does not exist. */
int ras_db_table_stats(struct ras_db *db, unsigned type_idx, int64_t *rows, int64_t *last_ns);
/* Boot id of the n-th most recent boot (0 = newest, 1 = the one before). */
int ras_db_boot_by_offset(struct ras_db *db, unsigned back, char *out, size_t len);
int64_t ras_db_counter(struct ras_db *db, const char *name);

#endif
