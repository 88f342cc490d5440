/* SPDX-License-Identifier: MIT */
/*
 * The names pstore gives its files (fs/pstore/inode.c, pstore_mkfile):
 * TYPE-BACKEND-ID, then ".enc.z" when pstore kept the record compressed
 * because it could not decompress it. TYPE is pstore's name of the record
 * type (dmesg, mce, console, ftrace, pmsg, rtas, powerpc-ofw, ...: some hold
 * a '-'), BACKEND the backend's name (erst, efi, efi_pstore, ramoops, ...),
 * ID the backend's record id in decimal. systemd-pstore keeps the names when
 * it moves the files to /var/lib/systemd/pstore/.
 */
#ifndef LW_PSTORE_NAME_H
#define LW_PSTORE_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The records lastwords reads; the others are left where they are. */
enum lw_kind {
	LW_KIND_OTHER,      /* ftrace, pmsg, rtas, ...: not read */
	LW_KIND_DMESG,      /* the kernel log at a panic or oops: "Panic#1 Part1" and lines */
	LW_KIND_CONSOLE,    /* the console output (ramoops): lines only */
	LW_KIND_MCE,        /* the kernel's struct mce of a fatal machine check (ERST) */
};

struct lw_pstore_name {
	enum lw_kind kind;
	char type[24];
	char backend[24];
	uint64_t id;
	bool compressed;    /* ".enc.z": still deflated */
};

/* 0 when name is a pstore record's name (out filled); -EINVAL otherwise. */
int lw_pstore_name_parse(const char *name, struct lw_pstore_name *out);
/* "dmesg", "console", "mce", "other". */
const char *lw_kind_name(enum lw_kind k);

#endif
