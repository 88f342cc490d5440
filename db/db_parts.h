/* SPDX-License-Identifier: MIT */
/*
 * The diagnosis's tables (schema step 20): parts, one row per part rasd
 * has attributed errors to, with its counts, its worst fault mode and its
 * verdict, and rasd's classifier state (diag/state.h); part_faults, the
 * faults its DRAM cells make up; verdicts, every change of a part's verdict
 * (the history); health_marks, the last row of each event table the stored
 * state has counted, so a restart after a crash counts only the rows after.
 */
#ifndef RAS_DB_PARTS_H
#define RAS_DB_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "db.h"
#include "lib/metrics.h"

/* One parts row. Integers RAS_DF_NONE where there is nothing to say (NULL). */
struct ras_db_part {
	int64_t id;                 /* readers only */
	char kind[16];              /* diag_kind_name */
	char part[128];             /* the subject key: "mc0 1:0:-1", "cpu 3 L2 cache", "0000:3b:00.0" */
	bool synthetic;             /* made of synthetic records */
	char label[EDAC_LABEL_MAX];  /* DIMM label (whole: decoders/edac.h), memdev, disk name; "" */
	int64_t first_ns, last_ns, records, corrected, uncorrected, fatal, coord_records;
	int64_t cells, beyond, rows, banks, ranks;   /* memory: its cells; RAS_DF_NONE otherwise */
	char mode[16];              /* the worst fault's mode ("" none) */
	int permanent;              /* of that fault; -1 none */
	char link[64];              /* pcie: "8.0 GT/s x4 (capable of 16.0 GT/s x16)", "" */
	char verdict[16];           /* ok, watch, replace */
	char rule[32];
	int64_t since_ns;           /* the record that brought the verdict */
	char why[320];
	const uint8_t *state;       /* writer: rasd's state to keep; reader (load): as stored */
	size_t state_len;
};

/* One part_faults row. */
struct ras_db_fault {
	int idx;
	char mode[16];
	int permanent;
	int64_t rank, bank_group, bank, row, column;  /* what its cells share; RAS_DF_NONE when not */
	int64_t cells, ranks, banks, rows, columns, errors, first_ns, last_ns;
	char description[200];
};

/* One change of verdict. */
struct ras_db_verdict_change {
	int64_t id;                 /* readers only */
	char kind[16], part[128];
	bool synthetic;
	int64_t at_ns;              /* the record that changed it */
	int64_t decided_ns;         /* when rasd decided (wall clock) */
	char boot_id[64];           /* readers only */
	char was[16], verdict[16], rule[32], mode[16];
	char why[320];
};

struct ras_db_parts;

/* The writer's statements (rasd). NULL db: none (writes then do nothing). 0 or -errno. */
int ras_db_parts_open(struct ras_db *db, struct ras_db_parts **out);
void ras_db_parts_close(struct ras_db_parts *p);
/* In the open transaction (begun if none), on the writer thread when it takes the writes. */
int ras_db_part_put(struct ras_db_parts *p, const struct ras_db_part *row);
/* Replaces the part's faults with f[0..n). */
int ras_db_part_faults_put(struct ras_db_parts *p, const struct ras_db_part *row,
			   const struct ras_db_fault *f, unsigned n);
int ras_db_verdict_add(struct ras_db_parts *p, const struct ras_db_verdict_change *v);
int ras_db_health_mark_set(struct ras_db_parts *p, const char *table, int64_t last_id);

/* Readers. fn returns non-zero to stop. The count delivered, -ENOENT without the tables, or -EIO. */
typedef int (*ras_db_part_fn)(void *ctx, const struct ras_db_part *part);
typedef int (*ras_db_fault_fn)(void *ctx, const struct ras_db_fault *fault);
typedef int (*ras_db_verdict_fn)(void *ctx, const struct ras_db_verdict_change *v);
/* Every part, worst verdict first, then by kind and name; with_state: the state too (rasd). */
int ras_db_part_list(struct ras_db *db, bool include_synthetic, bool with_state, ras_db_part_fn fn,
		     void *ctx);
int ras_db_part_faults(struct ras_db *db, int64_t part_id, ras_db_fault_fn fn, void *ctx);
/* A part's verdict changes, oldest first (part_id 0: every part's). */
int ras_db_verdict_history(struct ras_db *db, int64_t part_id, ras_db_verdict_fn fn, void *ctx);
/* The newest row id of an event table (0: empty or absent), or -EIO. */
int ras_db_table_max_id(struct ras_db *db, unsigned type_idx, int64_t *id);
/* The last row of table the stored state counted: 1 and *id, 0 none, -EIO. */
int ras_db_health_mark_get(struct ras_db *db, const char *table, int64_t *id);
/*
 * The threshold decisions on the part's subjects (its own key, and the rows
 * and pages keyed under it): per action and result, with the times. n and
 * fn's count are decisions (a folded row's repeats).
 */
typedef void (*ras_db_part_action_fn)(void *ctx, const char *action, const char *result,
				      int64_t decisions, int64_t first_ns, int64_t last_ns);
int ras_db_part_actions(struct ras_db *db, const char *part, ras_db_part_action_fn fn, void *ctx);

/* Every part's verdict and worst fault mode into m->parts (replacing them). 0, -ENOENT, -errno. */
int ras_db_parts_metrics(struct ras_db *db, struct ras_metrics *m);

#endif
