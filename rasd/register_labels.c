/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "register_labels.h"
#include "act_sysfs.h"
#include "db/db_actions.h"
#include "log.h"
#include "lib/edac_sysfs.h"

/* The kernel keeps 31 bytes of a label (EDAC_MC_LABEL_LEN) and refuses a longer one. */
#define KERNEL_LABEL_MAX 31

static void label_one(const struct rasd_config *cfg, struct ras_actions *a, const char *rel,
		      const char *label, const char *was, int *written)
{
	struct ras_db_action act = { .count = 0, .event_id = 0 };
	struct timespec now;
	char path[4096];
	int r = 0;

	if (!label || !*label || !strcmp(label, was))
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	act.wall_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	snprintf(act.kind, sizeof(act.kind), "dimm");
	snprintf(act.subject, sizeof(act.subject), "%s", label);
	snprintf(act.action, sizeof(act.action), "label");
	snprintf(act.threshold, sizeof(act.threshold), "register_labels");
	snprintf(act.event_table, sizeof(act.event_table), "edac");
	snprintf(path, sizeof(path), "%s/devices/system/edac/mc/%s", cfg->sysfs_root, rel);
	snprintf(act.target, sizeof(act.target), "%s <- %s (was %s)", path, label, *was ? was : "empty");
	if (strlen(label) > KERNEL_LABEL_MAX) {
		snprintf(act.result, sizeof(act.result), "too-long");
		act.error = ENAMETOOLONG;
	} else if (cfg->dry_run) {
		snprintf(act.result, sizeof(act.result), "dry-run");
		(*written)++;
	} else if ((r = act_write_sysfs(path, label)) < 0) {
		snprintf(act.result, sizeof(act.result), "failed");
		act.error = -r;
	} else {
		snprintf(act.result, sizeof(act.result), "done");
		(*written)++;
	}
	if (act.error)
		ras_log(LOG_WARNING, "cannot register DIMM label %s in %s: %s", label, path,
			act.error == ENAMETOOLONG ? "longer than the kernel's 31 bytes" : strerror(act.error));
	ras_actions_note(a, &act);
}

static void label_mc(const struct rasd_config *cfg, const struct dimm_labels *l,
		     struct ras_actions *a, const struct edac_mc *mc, int *written)
{
	char rel[96];

	for (unsigned i = 0; i < mc->n_dimms; i++) {
		const struct edac_dimm *d = &mc->dimms[i];
		const char *label = dimm_labels_lookup(l, NULL, (int)mc->index, d->pos[0], d->pos[1],
						       d->pos[2]);

		snprintf(rel, sizeof(rel), "mc%u/%s%u/dimm_label", mc->index, d->is_rank ? "rank" : "dimm",
			 d->index);
		label_one(cfg, a, rel, label, d->label, written);
	}
	/* The csrow files show the same labels as the dimm ones: only where those are absent. */
	for (unsigned i = 0; !mc->n_dimms && i < mc->n_csrows; i++)
		for (unsigned c = 0; c < mc->csrows[i].n_channels; c++) {
			const struct edac_csrow_channel *ch = &mc->csrows[i].ch[c];
			const char *label = dimm_labels_lookup(l, NULL, (int)mc->index, ch->pos[0],
							       ch->pos[1], ch->pos[2]);

			snprintf(rel, sizeof(rel), "mc%u/csrow%u/ch%u_dimm_label", mc->index,
				 mc->csrows[i].index, c);
			label_one(cfg, a, rel, label, ch->dimm_label, written);
		}
}

int rasd_register_labels(const struct rasd_config *cfg, const struct dimm_labels *labels,
			 struct ras_actions *a)
{
	struct edac_topology t;
	int written = 0, r;

	if (!cfg->register_labels || !labels)
		return 0;
	r = edac_sysfs_read(cfg->sysfs_root, &t);
	if (r < 0)
		return r;
	for (unsigned m = 0; m < t.n_mcs; m++)
		label_mc(cfg, labels, a, &t.mcs[m], &written);
	edac_topology_free(&t);
	if (written)
		ras_log(LOG_INFO, "%d DIMM labels %s EDAC sysfs", written,
			cfg->dry_run ? "would be registered in (dry run)" : "registered in");
	return written;
}
