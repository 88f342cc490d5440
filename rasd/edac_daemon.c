/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "db/db_edac.h"
#include "edac_daemon.h"
#include "lib/clock.h"
#include "lib/edac_sysfs.h"

/* Error storms call us after every batch; sysfs is not re-read more often than this. */
#define RESCAN_INTERVAL_NS (2LL * 1000000000)

static struct {
	struct dimm_labels *labels;
	uint64_t last_digest;
	bool have_digest;
	bool force_scan;
	int64_t last_scan_ns;
} state = { .force_scan = true };

struct dimm_labels *edac_daemon_labels(void)
{
	return state.labels;
}

int edac_daemon_load_labels(const struct rasd_config *cfg,
			    void (*on_error)(void *ctx, const char *file, unsigned line,
					     const char *reason),
			    void *ctx)
{
	struct dimm_labels *l = dimm_labels_new();
	struct dmi_ident id;
	int r;

	if (!l)
		return -ENOMEM;
	dmi_ident_read(cfg->sysfs_root, &id);
	dimm_labels_set_machine(l, &id);
	r = dimm_labels_load_dirs(l, cfg->labels_dirs, on_error, ctx);
	if (r < 0) {
		dimm_labels_free(l);
		return r;
	}
	dimm_labels_free(state.labels);
	state.labels = l;
	/* New labels may change the stored snapshot: look again at the next call. */
	state.force_scan = true;
	return r;
}

static void fill_configured_labels(struct edac_topology *t, const struct dimm_labels *l)
{
	for (unsigned m = 0; m < t->n_mcs; m++) {
		struct edac_mc *mc = &t->mcs[m];
		const char *label;

		for (unsigned i = 0; i < mc->n_dimms; i++) {
			const int *p = mc->dimms[i].pos;

			label = dimm_labels_lookup(l, NULL, (int)mc->index, p[0], p[1], p[2]);
			snprintf(mc->dimms[i].configured_label, EDAC_LABEL_LEN, "%s", label ? label : "");
		}
		for (unsigned i = 0; i < mc->n_csrows; i++) {
			for (unsigned c = 0; c < mc->csrows[i].n_channels; c++) {
				struct edac_csrow_channel *ch = &mc->csrows[i].ch[c];

				label = dimm_labels_lookup(l, NULL, (int)mc->index, ch->pos[0], ch->pos[1],
							   ch->pos[2]);
				snprintf(ch->configured_label, EDAC_LABEL_LEN, "%s", label ? label : "");
			}
		}
	}
}

int edac_daemon_snapshot(struct ras_db *db, const struct rasd_config *cfg,
			 struct ras_decode_ctx *dctx)
{
	struct edac_topology t;
	int64_t now = ras_clock_ns(CLOCK_MONOTONIC);
	uint64_t digest;
	int r;

	if (!state.force_scan && now - state.last_scan_ns < RESCAN_INTERVAL_NS)
		return 0;
	state.force_scan = false;
	state.last_scan_ns = now;
	r = edac_sysfs_read(cfg->sysfs_root, &t);
	if (r < 0)
		return 0;  /* no EDAC driver loaded: nothing to describe */
	ras_decode_ctx_set_layers(dctx, &t);
	if (state.labels)
		fill_configured_labels(&t, state.labels);
	digest = edac_topology_digest(&t);
	if (!state.have_digest)
		state.have_digest = ras_db_edac_last_digest(db, &state.last_digest) == 0;
	if (state.have_digest && digest == state.last_digest) {
		edac_topology_free(&t);
		return 0;
	}
	r = ras_db_edac_store_snapshot(db, &t, digest,
				       state.labels ? dimm_labels_board_key(state.labels) : "",
				       ras_clock_ns(CLOCK_REALTIME));
	edac_topology_free(&t);
	if (r < 0)
		return r;
	state.last_digest = digest;
	state.have_digest = true;
	return 1;
}

void edac_daemon_cleanup(void)
{
	dimm_labels_free(state.labels);
	state.labels = NULL;
	state.have_digest = false;
	state.force_scan = true;
}
