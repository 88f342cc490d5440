/* SPDX-License-Identifier: MIT */
/* block:block_rq_error: a block request completed with an error. */
#ifndef RAS_BLOCKERR_H
#define RAS_BLOCKERR_H

#include <stddef.h>
#include <stdint.h>
#include "severity.h"
#include "dfield.h"

struct blockerr_in {
	uint32_t dev;              /* kernel dev_t: major << 20 | minor */
	uint64_t sector;
	uint32_t nr_sector;
	int32_t error;             /* negative errno from blk_status_to_errno() */
	unsigned has_ioprio : 1;
	uint16_t ioprio;
	const char *rwbs;          /* char[10], not necessarily NUL-terminated */
	size_t rwbs_len;
	const char *cmd;
	size_t cmd_len;
	const char *disk_name;     /* optional, e.g. "sda" resolved by the caller */
	size_t disk_name_len;
};

struct blockerr_decoded {
	RAS_DECODED_HEAD;
	int64_t major;
	int64_t minor;
	char disk_name[32];
	int64_t sector;
	int64_t nr_sector;
	int64_t error;
	char status_name[48];      /* "critical medium error", "I/O error", ... */
	char rwbs[12];             /* the kernel's char rwbs[RWBS_LEN]: 8 (6.1), 10 (6.18) */
	char operation[24];        /* "read", "write", "discard", ... */
	int64_t ioprio;
	char ioprio_class[8];
	/*
	 * block_rq_error's cmd is a one-byte dynamic array the kernel always sets
	 * to "" (include/trace/events/block.h: __get_str(cmd)[0] = '\0'); held
	 * up to 63 bytes should a kernel ever fill it.
	 */
	char cmd[64];
};
RAS_DECODED_CHECK(struct blockerr_decoded);

extern const struct ras_dfield blockerr_dfields[];
extern const size_t blockerr_n_dfields;

int blockerr_decode(const struct blockerr_in *in, struct blockerr_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in blockerr_dfields alone (pure). Always NUL-terminates buf.
 */
void blockerr_render(const struct blockerr_decoded *d, char *buf, size_t len);
/* Linux's blk_status name for a (negative) errno, without " error"; NULL if none. */
const char *blockerr_status_name(int error);

#endif
