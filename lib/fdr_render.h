/* SPDX-License-Identifier: MIT */
/*
 * Prints a flight-recorder snapshot: rebuilds a libtraceevent handle from
 * the formats stored in it, walks every CPU's sub-buffers merged by
 * timestamp and formats each record with the kernel's print format, with
 * times relative to the error that triggered the snapshot.
 */
#ifndef RAS_FDR_RENDER_H
#define RAS_FDR_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <traceevent/event-parse.h>
#include "snapshot.h"

struct fdr_trigger {
	const char *label;   /* text of the line at time 0 */
	uint64_t trace_ts;   /* trace clock "boot"; 0: unknown */
	int64_t wall_ns;     /* 0: unknown, then the capture time is used */
};

struct fdr_render_stats {
	unsigned records;
	unsigned cpus;           /* CPUs with at least one sub-buffer */
	long long missed;        /* records the kernel reported lost; -1 when only "some" */
	unsigned bad_pages;      /* sub-buffers skipped because their header is inconsistent */
	unsigned unknown_events; /* records whose format is not in the snapshot */
};

/* Receives each output line, without a newline. */
typedef void (*fdr_line_fn)(void *ctx, const char *line);

/*
 * Renders an uncompressed container. line may be NULL to only count.
 * Returns 0 or -EINVAL for a malformed container, -ENOMEM.
 */
int fdr_render(const uint8_t *raw, size_t len, const struct fdr_trigger *trig,
	       fdr_line_fn line, void *ctx, struct fdr_render_stats *st);
/* Decompresses a stored snapshot and renders it with its trigger line. */
int fdr_render_snapshot(const struct ras_snapshot *s, fdr_line_fn line, void *ctx,
			struct fdr_render_stats *st);

/*
 * Size of the data in one sub-buffer after checking its header against the
 * sub-buffer size, or -EINVAL. tep must have the header_page parsed.
 */
int fdr_page_data_size(struct tep_handle *tep, const uint8_t *page, unsigned page_size);

#endif
