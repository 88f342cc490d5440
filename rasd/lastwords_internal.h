/* SPDX-License-Identifier: MIT */
/* Shared by rasd/lastwords_scan.c (reading) and rasd/lastwords.c (storing). */
#ifndef RASD_LASTWORDS_INTERNAL_H
#define RASD_LASTWORDS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "lastwords/mce_layout.h"
#include "lastwords/pstore_name.h"
#include "lastwords.h"

/* Bytes read of one pstore file at most: ERST records are a few KiB, ramoops' up to a MiB or so. */
#define LW_FILE_MAX ((size_t)4 << 20)
/* A struct mce is 128 bytes today: room for layouts to come. */
#define LW_MCE_RECORD_MAX 512
/* Records of one boot linked to its crash, per event table. */
#define LW_LINK_LAST 8
#define LW_NEW_MAX 16

/* One pstore file (a dmesg, console or mce record). */
struct lw_file {
	char name[256];
	char where[48];            /* "pstore" or the archive's subdirectory, for the log */
	unsigned dir;              /* 0: pstore_dir, 1: the archive, 2..: its subdirectories */
	bool removable;            /* in pstore_dir: unlinking it erases the record */
	bool stored;               /* committed: in the database, stored now or before */
	bool done;                 /* stored in the open transaction */
	struct lw_pstore_name pn;
	uint8_t *data;
	size_t len;
	bool truncated;            /* longer than LW_FILE_MAX: the rest was not read */
	bool undecompressed;       /* ".enc.z" that would not inflate: kept as it is */
	int64_t mtime_s;
};

/* A fatal machine check read back, from a pstore mce file or /dev/mcelog. */
struct lw_mce_item {
	uint8_t data[LW_MCE_RECORD_MAX];
	size_t len;
	struct lw_file *file;      /* NULL: from /dev/mcelog */
	bool stored, done;
	/* Filled while storing. */
	int usable;                /* lw_mce_parse() == 0 */
	struct lw_mce m;
	int64_t boot, row_id;
	bool linked;
};

struct rasd_lastwords {
	const struct rasd_config *cfg;
	bool remove;
	char remove_why[160];
	int pstore_fd;             /* pstore_dir, for unlinkat; -1 none */
	struct lw_file *files;
	unsigned n_files, cap_files;
	struct lw_mce_item *mces;
	unsigned n_mces, cap_mces;
	unsigned unreadable;       /* files that could not be read */
	/* The crashes the last store found new, for the trigger. */
	int64_t new_crash[LW_NEW_MAX];
	unsigned n_new;
};

/* Decides removal, reads pstore_dir, the archive and /dev/mcelog (lastwords_scan.c). */
int lw_scan(struct rasd_lastwords *lw);
/* After the commit: unlinks what is stored and removable, when configured. */
void lw_remove_stored(struct rasd_lastwords *lw);
/*
 * Reads /dev/mcelog's ERST records from fd, reclen bytes a read (the running
 * kernel's struct mce): the number read. The device itself is read only by
 * lw_scan, under the conditions rasd_lastwords_collect() says; tests give a
 * file of records.
 */
int lw_read_mcelog_fd(struct rasd_lastwords *lw, int fd, size_t reclen);
/* Adds a machine check's bytes (copied); 0 or -ENOMEM. */
int lw_add_mce(struct rasd_lastwords *lw, const void *data, size_t len, struct lw_file *file);

#endif
