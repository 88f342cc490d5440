/* SPDX-License-Identifier: MIT */
/*
 * A dump: the parts of one kernel log the kernel wrote at one panic or oops.
 * pstore_dump() writes the log from its newest end, one record per part
 * ("Panic#1 Part1" the newest), all at once: parts of one dump share the
 * backend, the reason and count of their header, and the record time (the
 * pstore file's mtime for ERST, EFI and ramoops; systemd-pstore puts one
 * dump's parts in one directory). The log reads from the highest part down.
 */
#ifndef LW_DUMP_H
#define LW_DUMP_H

#include <stdint.h>
#include "cause.h"
#include "dmesg.h"
#include "pstore_name.h"

/* One dmesg or console file as the caller read it (decompressed). */
struct lw_part {
	const char *name;            /* the file's name */
	unsigned owner;              /* the caller's: which of its files this is */
	unsigned dir;                /* the directory it was found in */
	struct lw_pstore_name pn;
	const uint8_t *data;
	size_t len;
	int64_t mtime_s;             /* the record's time, 0 when not known */
	/* Filled by lw_dump_group. */
	struct lw_dmesg_header hdr;
	size_t body;                 /* where its lines start */
	unsigned group;
};

/* Parts written within this many seconds of each other may be one dump. */
#define LW_DUMP_SLACK_S 10

/*
 * Sorts parts (in place) into dumps, each one's parts together and oldest
 * log first, and numbers them in group. Returns the number of dumps.
 */
unsigned lw_dump_group(struct lw_part *parts, unsigned n);
/* The run of parts of dump g: *first and the count (0 when none). */
unsigned lw_dump_parts(const struct lw_part *parts, unsigned n, unsigned g, unsigned *first);
/* Feeds every line of the n parts at p, in log order, to a; then decides. */
void lw_dump_analyze(const struct lw_part *p, unsigned n, struct lw_analysis *a);
/* Parts the header numbering says are missing (Part3 and Part1 without Part2: 1). */
unsigned lw_dump_missing(const struct lw_part *p, unsigned n);
/*
 * The dump's identity, wherever it was read (pstore or systemd-pstore's copy,
 * which keeps names and bytes, not times): its backend, kind, header and bytes.
 */
uint64_t lw_dump_identity(const struct lw_part *p, unsigned n);

#endif
