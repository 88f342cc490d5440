/* SPDX-License-Identifier: MIT */
/*
 * A flight-recorder snapshot: the compressed container of raw sub-buffers
 * and formats (lib/fdr_blob.h), with the record that triggered it. Made by
 * fdr_capture(), stored and read back by db/db_snapshot.c.
 */
#ifndef RAS_SNAPSHOT_H
#define RAS_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct ras_snapshot {
	int64_t id;                 /* set when stored, read by list and get */
	char boot_id[64];           /* list and get only */
	int64_t wall_ns;            /* when it was taken */
	char reason[256];
	char trigger_table[64];     /* empty: manual */
	int64_t trigger_row_id;
	uint64_t trigger_trace_ts;  /* trace clock "boot", 0: unknown */
	int64_t trigger_wall_ns;
	char instance[64];
	const void *data;           /* compressed; owned: freed by ras_snapshot_free */
	size_t data_len;
	uint64_t raw_size;
	int64_t record_count;
	int64_t missed;             /* records the kernel reported lost; -1 some, unknown count */
	unsigned ncpus;             /* CPUs with data */
};

/* Frees the data a snapshot owns. */
static inline void ras_snapshot_free(struct ras_snapshot *s)
{
	free((void *)s->data);
	s->data = NULL;
	s->data_len = 0;
}

#endif
