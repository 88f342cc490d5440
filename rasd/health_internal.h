/* SPDX-License-Identifier: MIT */
/* Private to rasd/health*.c: the parts table, the held observations, the changes to write. */
#ifndef RAS_HEALTH_INTERNAL_H
#define RAS_HEALTH_INTERNAL_H

#include "health.h"
#include "diag/cells.h"
#include "diag/rules.h"
#include "diag/state.h"
#include "db/db_parts.h"
#include "lib/subject.h"

/* Parts rasd keeps (past it, records are counted as untracked); the table has twice the slots. */
#define HEALTH_PARTS_MAX 4096
#define HEALTH_SLOTS (2 * HEALTH_PARTS_MAX)
/* Memory parts whose cells are kept (3.5 KiB each); others keep their counts alone. */
#define HEALTH_DRAM_MAX 1024
/* Parts a record names at most (a DIMM, an HBM channel or CXL device; a CPU; a device). */
#define HEALTH_ATTR_MAX 2
/* Unwritten state waits at most this long (monotonic) to be written. */
#define HEALTH_FLUSH_NS 1000000000LL

struct part_entry {
	uint64_t hash;
	bool synthetic;
	char key[128];
	char label[EDAC_LABEL_MAX];     /* the subject's, whole (decoders/edac.h) */
	struct diag_part st;
	struct diag_cells *cells;      /* memory parts: their cells, NULL past HEALTH_DRAM_MAX */
	/*
	 * The last judgement (the stored row's rule and why): its words are
	 * written from it only when read (why_due), not at every commit.
	 */
	struct diag_decision decided;
	bool why_due;
	char why[sizeof(((struct diag_judgement *)0)->why)];
	/* Change counts (rasd_health.change_seq): last changed, as last written, as last committed. */
	uint64_t changed, written, stored;
	bool faults_changed;           /* the classification changed since its faults were written */
	bool faults_in_flush;          /* its faults are written in the open transaction */
	bool touched;                  /* counted in the batch being applied */
	bool link_read;                /* pcie: its link was read (live records only) */
	int64_t classified_ns;         /* CLOCK_MONOTONIC of its cells' last classification */
	/*
	 * Rows, banks and ranks its cells touch, counted when it had touched_n - 1
	 * cells (0: not yet). Cells are only ever appended and keep their place,
	 * so a flush counts only the cells added since, each against those before.
	 */
	uint32_t touched_n;
	unsigned touched_rows, touched_banks, touched_ranks;
};

/*
 * A record's observation of one part, held until its transaction commits:
 * a struct diag_obs without its DRAM coordinates (40 bytes, not 168), which
 * only an observation with DIAG_OBS_COORDS has and keeps in the list's
 * coords, in the same order, packed (health_coords_put: the known ones,
 * 4 bytes each when they fit, not 128 bytes for 16). A storm's batch held one
 * per part a record names (make bench's 50,000-record batches: 11 MB at the
 * peak).
 */
struct held_obs {
	int64_t row_id, wall_ns, n;
	uint32_t part, flags;
	int32_t sev;
	uint16_t type_idx;
};

/* Grown by doubling. */
struct held_list {
	struct held_obs *v;
	size_t n, cap;
	uint8_t *coords;                   /* of the observations with DIAG_OBS_COORDS, packed, in order */
	size_t coords_len, coords_cap;
};

struct history_list {
	struct ras_db_verdict_change *v;
	size_t n, cap;
};

struct rasd_health {
	const struct rasd_config *cfg;
	struct ras_db *db;
	struct ras_db_parts *dbp;
	struct ras_triggers *trig;
	struct diag_rules rules;
	uint64_t page_size;
	struct part_entry *slot[HEALTH_SLOTS];
	uint32_t order[HEALTH_PARTS_MAX];  /* the parts by creation, for walks */
	unsigned n_parts, n_dram;
	unsigned long untracked;           /* observations of parts past the bound */
	bool untracked_logged;
	struct held_list held;             /* observations of the open transaction(s) */
	struct history_list history;       /* changes not written yet */
	struct history_list written;       /* changes written in a transaction not yet committed */
	uint64_t change_seq;
	uint32_t *touched;                 /* parts counted in the batch being applied */
	unsigned n_touched;
	int64_t applied_id[RAS_MAX_EVENT_TYPES];  /* newest row counted, per event table */
	int64_t marked_id[RAS_MAX_EVENT_TYPES];   /* as committed to health_marks */
	int64_t mark_written[RAS_MAX_EVENT_TYPES]; /* as written in the open transaction */
	bool flushed;                      /* the open transaction holds a flush */
	int64_t flushed_ns;                /* CLOCK_MONOTONIC of the last flush */
	bool replaying;                    /* counting stored rows at start: no triggers */
	bool rebuild;                      /* the stored state was unreadable: count every row */
	bool classify_pending;             /* a part's cells wait for their classification */
	uint64_t seq_at_flush;             /* change_seq when last flushed */
	uint8_t state[DIAG_STATE_MAX];     /* a part's state as it is written */
	struct rasd_health_work work;      /* what it did, for tests (rasd_health_work) */
};

/* health.c */
/* The slot of the part (made when create and there is room), or -1. */
int health_part(struct rasd_health *h, enum diag_kind kind, const char *key, bool synthetic,
		bool create);
/* Counts held observations [0, upto) into the parts, judges those touched, drops them. */
void health_apply(struct rasd_health *h, size_t upto);
/* Holds part's observation o by record row_id of type type_idx: 0 or -ENOMEM. */
int health_hold(struct rasd_health *h, uint32_t part, uint16_t type_idx, int64_t row_id,
		const struct diag_obs *o);
int health_history_push(struct history_list *l, const struct ras_db_verdict_change *c);
/* Classifies and judges the parts whose classification waits (at a flush). */
void health_judge_pending(struct rasd_health *h);
/* The part's why as last judged (its words written now when they wait). */
const char *health_why(struct rasd_health *h, struct part_entry *e);

/* health_attr.c: the parts a record names and what it says of each. */
struct health_attr {
	enum diag_kind kind;
	const char *key;               /* a subject's key, or own */
	const char *label;
	struct diag_obs obs;
	char own[128];                 /* a key made for the part (socket, disk, NIC) */
};
int health_attribute(const struct rasd_health *h, const struct ras_event_type *type,
		     const struct ras_value *values, const void *decoded,
		     const struct ras_subject *subj, int n_subj, struct health_attr *out);
/* The PCIe device's link as sysfs says now (current and maximum speed and width). */
void health_read_link(const char *sysfs_root, const char *dev, struct diag_link *out, int64_t now_ns);

/* health.c: a held observation's DRAM coordinates packed (at most 4 + 16 * 8 bytes) and read back. */
size_t health_coords_put(uint8_t *out, const struct diag_dram *d);
size_t health_coords_get(const uint8_t *p, struct diag_dram *d);

/* health_store.c */
void health_entry_row(struct rasd_health *h, struct part_entry *e, struct ras_db_part *row,
		      uint8_t *state);
int health_load(struct rasd_health *h);
int health_catch_up(struct rasd_health *h);

#endif
