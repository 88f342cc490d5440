/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder: a second tracefs instance in overwrite mode holding
 * the last moments of whatever events the administrator chose (block
 * errors, process exits, NFS...). Nothing reads it in normal running; when
 * a serious error is stored, its per-CPU raw sub-buffers are drained into a
 * compressed snapshot in the database, together with the header_page and
 * event formats needed to print them later on any machine.
 *
 * Drained, not copied: the kernel's per-instance "snapshot" file is absent
 * on kernels without CONFIG_TRACER_SNAPSHOT, so the design does not rely on
 * it. Draining empties the recorder, so two snapshots never overlap.
 */
#ifndef RAS_FDR_H
#define RAS_FDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "config.h"
#include "snapshot.h"
#include "decoders/severity.h"

struct fdr;

/* Automatic captures: at most one per interval, and only from a threshold up. */
struct fdr_rate {
	enum ras_severity threshold;
	int64_t interval_ns;
	int64_t last_ns;
	bool taken;          /* one capture has been allowed already */
};

void fdr_rate_init(struct fdr_rate *r, enum ras_severity threshold, unsigned interval_s);
/* True, and the slot taken, when sev qualifies and the interval has passed. */
bool fdr_rate_allow(struct fdr_rate *r, enum ras_severity sev, int64_t now_ns);

/*
 * Creates (or takes back) cfg->fdr_instance under tracing_dir, in overwrite
 * mode with cfg->fdr_buffer_size_kb per CPU and the trace clock "boot",
 * enables cfg->fdr_events and writes cfg->fdr_filters. Events or filters
 * the kernel refuses are not fatal: see fdr_warnings.
 */
int fdr_open(struct fdr **out, const char *tracing_dir, const struct rasd_config *cfg,
	     char *err, size_t errlen);
/*
 * Attaches to an existing instance without changing it (ras-fdr-ctl
 * snapshot take while rasd runs). -ENOENT when it does not exist.
 */
int fdr_attach(struct fdr **out, const char *tracing_dir, const char *name,
	       char *err, size_t errlen);
/* remove: disable its events and delete the instance (ignored for fdr_attach). */
void fdr_close(struct fdr *f, bool remove);
/* Problems found by fdr_open, one per line; "" when none. */
const char *fdr_warnings(const struct fdr *f);
/* The instance's directory, e.g. /sys/kernel/tracing/instances/rasd_fdr. */
const char *fdr_instance_dir(const struct fdr *f);

/* Rate limiting for automatic captures; false when f is NULL. */
bool fdr_should_capture(struct fdr *f, enum ras_severity sev, int64_t now_ns);

/*
 * Drains the recorder into *out, for the caller to store. trigger_table NULL
 * or "" means a manual capture. trigger_trace_ts is in the trace clock "boot"
 * (rasd's own instance); pass 0 when unknown, and the wall time is used.
 * Returns 0 with out filled (free its data with ras_snapshot_free), or -errno.
 */
int fdr_capture(struct fdr *f, const char *reason, const char *trigger_table,
		int64_t trigger_row_id, int64_t trigger_wall_ns, uint64_t trigger_trace_ts,
		struct ras_snapshot *out);

#endif
