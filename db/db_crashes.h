/* SPDX-License-Identifier: MIT */
/*
 * What killed a boot (issue 35) in the database: the crashes table (one row
 * per kernel log a panic or an oops left in pstore, or per fatal machine
 * check the firmware kept without one), the links from a crash to the
 * records that explain it, and the fatal machine checks themselves, stored
 * as mce_record rows with source "erst". rasd/lastwords.c writes them at
 * start; ras-fdr-ctl crashes, status and metrics read them.
 */
#ifndef RAS_DB_CRASHES_H
#define RAS_DB_CRASHES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "db.h"
#include "db_query.h"

/* The source of a machine check the firmware kept (ERST), read back after the crash. */
#define RAS_DB_SOURCE_ERST "erst"

/* Link roles: the firmware's machine check, the boot's last records, its snapshots. */
#define RAS_CRASH_LINK_ERST "erst"
#define RAS_CRASH_LINK_LAST "last"
#define RAS_CRASH_LINK_SNAPSHOT "snapshot"

struct ras_db_crash {
	int64_t id;
	int64_t boot;                /* boots.id of the boot that ended */
	const char *boot_id;         /* read side: its boot id */
	int boot_number;             /* read side: its place among the boots, oldest 1 */
	int64_t found_ns;            /* when rasd found it (read side) */
	int64_t crash_ns;            /* when it happened, 0 when not known */
	int64_t uptime_ns;           /* the reason line's uptime, -1 when not known */
	const char *backend;         /* erst, efi, efi_pstore, ramoops, mcelog */
	const char *kind;            /* dmesg, console, mce */
	const char *dump_reason;     /* "Panic", "Oops"... of the dump's header, NULL none */
	unsigned dump_count, parts, parts_missing;
	const char *cause;           /* lw_cause_name() */
	const char *reason, *detail; /* the reason line and the line that started it (may be NULL) */
	const char *hw_lines;        /* '\n'-separated, NULL none */
	unsigned hw_dropped;
	bool explained;              /* a hardware error explains it */
	unsigned problems;           /* malformed, truncated or undecompressed parts */
	const char *files;           /* the files it came from, space-separated */
	uint64_t ident;              /* never 0 */
	const void *raw;             /* insert: the whole record; read side: NULL (ras_db_crash_raw) */
	size_t raw_len;
};

/*
 * The boot a crash ended (boots.id), from when it happened and, when known,
 * when that boot started (the crash's time less its uptime): the newest boot
 * rasd saw start before the crash. A crash whose boot rasd never saw (it
 * started after every boot rasd knows) goes to the "before:<this boot id>"
 * row, as does one whose time is unknown when rasd knows no other boot.
 * Times are compared with RAS_DB_CRASH_SLACK_NS of slack (clocks set late).
 */
#define RAS_DB_CRASH_SLACK_NS (120LL * 1000000000)
int ras_db_crash_boot(struct ras_db *db, int64_t crash_ns, int64_t boot_start_ns, int64_t *boot);
/* 1 and *id when a crash of that identity is stored, 0 when not, -errno. */
int ras_db_crash_find(struct ras_db *db, uint64_t ident, int64_t *id);
/*
 * A crash of that boot (the newest) within RAS_DB_CRASH_NEAR_NS of t_ns (any
 * time when t_ns is 0 or the crash's is not known), for a fatal machine check
 * to join; not a shutdown's dump nor bytes of unknown cause. 1, 0 or -errno.
 */
#define RAS_DB_CRASH_NEAR_NS (600LL * 1000000000)
int ras_db_crash_of_boot(struct ras_db *db, int64_t boot, int64_t t_ns, int64_t *id);
/* Stores c (raw compressed here) in the open transaction; *id its row. 0 or -errno. */
int ras_db_crash_insert(struct ras_db *db, const struct ras_db_crash *c, int64_t *id);
int ras_db_crash_set_explained(struct ras_db *db, int64_t id, bool explained);

/* What identifies a machine check, however it was read back. */
struct ras_db_mce_key {
	uint64_t ident;              /* lw_mce_identity(): the erst row's rec_hash */
	int64_t wall_ns;             /* the record's time (struct mce time) */
	uint64_t status, addr, tsc, walltime;
	int bank, cpu;
};
/*
 * 1 and *row_id when that machine check is stored already: read back before
 * (source erst, any boot), or recorded live in the boot given (from its
 * buffer or the persistent one: same registers, TSC and time). 0, -errno.
 */
int ras_db_crash_mce_find(struct ras_db *db, const struct ras_db_mce_key *k, int64_t boot,
			  int64_t *row_id);

int ras_db_crash_link(struct ras_db *db, int64_t crash, const char *tbl, int64_t row_id,
		      const char *role);
/*
 * Links the boot's last records (up to per_table of each event table, at
 * most an hour before crash_ns when known) and its flight-recorder snapshots.
 * *serious counts the linked records of severity srar, uncorrected or fatal.
 */
int ras_db_crash_link_last(struct ras_db *db, int64_t crash, int64_t boot, int64_t crash_ns,
			   unsigned per_table, unsigned *serious);

typedef int (*ras_db_crash_fn)(void *ctx, const struct ras_db_crash *c);
/*
 * Crashes newest first (boot_id: only that boot's, NULL: all), or the one of
 * id (id > 0). Returns how many were delivered, -ENOENT without the table
 * (an older database), -errno.
 */
int ras_db_crashes(struct ras_db *db, const char *boot_id, int64_t id, ras_db_crash_fn fn, void *ctx);
/* The whole record of a crash, decompressed (free it). 0, -ENOENT, -errno. */
int ras_db_crash_raw(struct ras_db *db, int64_t id, uint8_t **out, size_t *len);

/* A crash's link; row: the linked event row with its decoding (NULL: a snapshot, or gone). */
typedef int (*ras_db_crash_link_fn)(void *ctx, const char *tbl, int64_t row_id, const char *role,
				    const struct ras_db_row *row);
int ras_db_crash_links(struct ras_db *db, int64_t crash, ras_db_crash_link_fn fn, void *ctx);

/* Crashes per cause name: fn once per cause with its count. 0, -ENOENT (no table), -errno. */
typedef void (*ras_db_crash_count_fn)(void *ctx, const char *cause, int64_t count);
int ras_db_crash_counts(struct ras_db *db, ras_db_crash_count_fn fn, void *ctx);
/* The same into m->crashes (totals, counted again each time), for ras-fdr-ctl metrics and rasd's file. */
struct ras_metrics;
void ras_db_crash_metrics(struct ras_db *db, struct ras_metrics *m);

#endif
