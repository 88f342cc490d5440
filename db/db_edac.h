/* SPDX-License-Identifier: MIT */
/*
 * EDAC topology snapshots (one per change per boot), counting windows
 * started by "ras-fdr-ctl reset", and mc_event counts grouped so that the
 * caller can map them onto the DIMMs of each record's own boot.
 */
#ifndef RAS_DB_EDAC_H
#define RAS_DB_EDAC_H

#include "db_query.h"
#include "lib/edac_sysfs.h"

#define RAS_DB_EDAC_MAX_BOUNDS 64

/* Digest of the newest snapshot stored for this boot; -ENOENT if none. */
int ras_db_edac_last_digest(struct ras_db *db, uint64_t *digest);
/* Stores t as a new snapshot of this boot (in the caller's transaction if one is open). */
int ras_db_edac_store_snapshot(struct ras_db *db, const struct edac_topology *t, uint64_t digest,
			       const char *board_key, int64_t now_ns);

struct ras_db_edac_snapshot_info {
	int64_t id, taken_ns;
	const char *boot_id, *board;
	uint64_t digest;
};
typedef int (*ras_db_edac_snapshot_fn)(void *ctx, const struct ras_db_edac_snapshot_info *s);
/* Snapshots newest first; only those of boot_id if not NULL. Returns the number delivered. */
int ras_db_edac_snapshots(struct ras_db *db, const char *boot_id, ras_db_edac_snapshot_fn fn,
			  void *ctx);
/* Newest snapshot (of boot_id if not NULL); -ENOENT if none. */
int ras_db_edac_latest_snapshot(struct ras_db *db, const char *boot_id, int64_t *id);
/* Fills *out (free with edac_topology_free) from a stored snapshot; counters are zero. */
int ras_db_edac_load_snapshot(struct ras_db *db, int64_t id, struct edac_topology *out);

/* One group of stored mc_event records. */
struct ras_db_edac_count {
	int64_t snapshot;            /* 0 when the record's boot has no snapshot */
	int mc, top, mid, low;
	int error_type;
	unsigned segment;            /* how many bounds are <= the records' times */
	int64_t errors;              /* sum of error_count */
	int64_t records;
	int64_t last_ns;
};
typedef int (*ras_db_edac_count_fn)(void *ctx, const struct ras_db_edac_count *c);
/*
 * mc_event records that pass f (from the roll-up, db_edac_rollup.c),
 * grouped by the snapshot of their boot,
 * controller, layers, error type and segment of the time line cut at
 * bounds (ascending, at most RAS_DB_EDAC_MAX_BOUNDS).
 */
int ras_db_edac_counts(struct ras_db *db, const struct ras_db_filter *f, const int64_t *bounds,
		       unsigned n_bounds, ras_db_edac_count_fn fn, void *ctx);
/* The same counted by scanning every record: what the roll-up must equal (tests). */
int ras_db_edac_counts_scan(struct ras_db *db, const struct ras_db_filter *f, const int64_t *bounds,
			    unsigned n_bounds, ras_db_edac_count_fn fn, void *ctx);

/*
 * The DIMM label the newest stored mc_event of controller mc and layers
 * top:mid:low names (the decoded label: the configured one where the kernel
 * had none), into out ("" when none): what places a record on a DIMM where
 * no EDAC topology was stored. 0, or -EIO.
 */
int ras_db_edac_record_label(struct ras_db *db, int mc, int top, int mid, int low, char *out, size_t len);

/* Counting windows: scope "" (everything), "mc0", "mc0/dimm3", "mc0/csrow1". */
typedef int (*ras_db_edac_window_fn)(void *ctx, const char *scope, int64_t start_ns);
int ras_db_edac_windows(struct ras_db *db, ras_db_edac_window_fn fn, void *ctx);
int ras_db_edac_window_add(struct ras_db *db, const char *scope, int64_t start_ns);

/*
 * Deletes mc_event records older than before_ns in a scope: mc < 0 all;
 * node_kind NULL the whole controller, else "dimm"/"rank"/"csrow" with
 * node_idx, mapped through each record's boot snapshot. *deleted is the count.
 */
int ras_db_edac_purge(struct ras_db *db, int mc, const char *node_kind, int node_idx,
		      int64_t before_ns, int64_t *deleted);

/*
 * "reset": in one transaction, optionally purges the scope's records older
 * than now_ns (as ras_db_edac_purge) and starts a counting window for scope.
 */
int ras_db_edac_reset(struct ras_db *db, const char *scope, int mc, const char *node_kind,
		      int node_idx, int64_t now_ns, bool purge, int64_t *deleted);

/* Opens read-write without registering a boot (ras-fdr-ctl reset); needs schema >= 3. */
int ras_db_edac_open_rw(struct ras_db **out, const char *path, char *err, size_t errlen);

#endif
