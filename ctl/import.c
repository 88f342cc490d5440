/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl import rasdaemon [PATH]: rasdaemon's history into ras-fdr's database. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "db/db_import.h"
#include "lib/decode.h"
#include "lib/tracing.h"

#define RASDAEMON_DEFAULT_DB "/var/lib/rasdaemon/ras-mc_event.db"

static const struct option import_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct import_totals {
	long long imported, present;
};

static void print_count(void *ctx, const struct ras_import_count *c)
{
	struct import_totals *t = ctx;

	if (!c->dst_table) {
		printf("%-26s not imported: ras-fdr has no equivalent table\n", c->src_table);
		return;
	}
	printf("%-26s -> %-28s %6lld rows: %lld imported, %lld already present%s\n", c->src_table,
	       c->dst_table, c->rows, c->imported, c->present, c->failed ? ", FAILED" : "");
	t->imported += c->imported;
	t->present += c->present;
}

int ctl_import(struct ctl *c, int argc, char **argv)
{
	struct import_totals totals = { 0 };
	struct ras_decode_ctx *dctx;
	const char *path = RASDAEMON_DEFAULT_DB;
	char boot_id[64] = "", err[512] = "";
	struct ras_db *db;
	int opt, r;

	while ((opt = getopt_long(argc, argv, "h", import_opts, NULL)) != -1) {
		if (opt == 'h') {
			printf("Usage: ras-fdr-ctl import rasdaemon [PATH]   (default %s)\n",
			       RASDAEMON_DEFAULT_DB);
			return 0;
		}
		return 2;
	}
	if (optind >= argc || strcmp(argv[optind], "rasdaemon") || argc - optind > 2) {
		fprintf(stderr, "ras-fdr-ctl: usage: import rasdaemon [PATH]\n");
		return 2;
	}
	if (argc - optind == 2)
		path = argv[optind + 1];
	ras_boot_id(boot_id, sizeof(boot_id));
	if (ras_db_open_writer(&db, c->cfg.database, boot_id, err, sizeof(err)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", err);
		return 1;
	}
	dctx = calloc(1, sizeof(*dctx));
	if (!dctx) {
		ras_db_close(db);
		return 1;
	}
	/* Records of another machine: nothing of this one is looked up. */
	ctl_prepare_redecode(c, dctx);
	r = ras_db_import_rasdaemon(db, path, dctx, print_count, &totals, err, sizeof(err));
	ras_db_close(db);
	free(dctx);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: import: %s\n", err);
		return 1;
	}
	printf("Total: %lld imported, %lld already present.\n", totals.imported, totals.present);
	return 0;
}
