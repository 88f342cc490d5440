/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl ack: the losses and the database replacement status reports
 * are acknowledged, so status exits 0 again until the next one. It writes
 * rasd-<instance>.ack beside rasd's lock (lib/rasd_state.h): the newest
 * lost_events row and the replacement time acknowledged, for that database.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "ctl.h"
#include "db/db_export.h"
#include "lib/clock.h"
#include "lib/rasd_state.h"

static const struct ctl_opt ack_opts[] = {
	{ NULL },
};

const struct ctl_spec ctl_ack_spec = {
	.name = "ack", .args = "", .opts = ack_opts,
	.summary = "acknowledge the losses and database replacement status reports (exit 3 until then)",
	.more = "Writes rasd-INSTANCE.ack in rasd's lock directory: status then reports only losses\n"
		"stored after it, and a database replaced after it.\n",
};

static int ack_opt(void *ctx, int key, const char *arg)
{
	(void)ctx;
	(void)key;
	(void)arg;
	return CTL_GO_ON;
}

int ctl_ack(struct ctl *c, int argc, char **argv)
{
	struct ras_db_filter all = { .type_idx = -1, .include_synthetic = true };
	struct ras_rasd_ack ack = { .present = true };
	struct ras_rasd_state st;
	struct ras_db_losses l;
	struct ras_db *db;
	int first, r = ctl_parse(&ctl_ack_spec, argc, argv, ack_opt, NULL, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("ack", "unexpected argument '%s'", argv[first]);
	if (ctl_open_db(c, &db) < 0)
		return 1;
	r = ras_db_losses(db, &all, 0, &l);
	ras_db_identity(db, ack.database_id, sizeof(ack.database_id));
	ras_db_close(db);
	if (r < 0) {
		ctl_db_error(c, "cannot read the losses");
		return 1;
	}
	ras_rasd_state_read(c->cfg.lock_dir, c->cfg.instance, &st);
	ack.lost_id = l.max_id;
	ack.replaced_ns = st.replaced_ns;
	ack.at_ns = ras_clock_ns(CLOCK_REALTIME);
	r = ras_rasd_ack_write(c->cfg.lock_dir, c->cfg.instance, &ack);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: ack: %s/rasd-%s.ack: %s\n", c->cfg.lock_dir,
			c->cfg.instance, strerror(-r));
		return 1;
	}
	printf("Acknowledged: losses up to lost_events row %lld%s.\n", (long long)ack.lost_id,
	       st.replaced_ns ? " and the database replacement" : "");
	return 0;
}
