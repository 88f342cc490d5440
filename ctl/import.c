/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl import rasdaemon [PATH]: rasdaemon's history into ras-fdr's database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctl.h"
#include "db/db_import.h"
#include "lib/decode.h"
#include "lib/tracing.h"

#define RASDAEMON_DEFAULT_DB "/var/lib/rasdaemon/ras-mc_event.db"

const struct ctl_spec ctl_import_spec = {
	.name = "import", .args = "rasdaemon [PATH]", .opts = (const struct ctl_opt[]){ { NULL } },
	.positional = CTL_C_FILE, .words = "rasdaemon",
	.summary = "rasdaemon's database (default " RASDAEMON_DEFAULT_DB ") into this one",
};

struct import_totals {
	long long imported, present;
};

static void print_count(void *ctx, const struct ras_import_count *c)
{
	struct import_totals *t = ctx;

	if (c->not_a_table) {
		printf("%-26s not imported: a view or virtual table, not read\n", c->src_table);
		return;
	}
	if (!c->dst_table) {
		/* The name is the foreign file's: shown, never obeyed. */
		printf("%-26s not imported: ras-fdr has no equivalent table\n", ctl_text(c->src_table));
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
	int first, r;

	r = ctl_parse(&ctl_import_spec, argc, argv, NULL, NULL, &first);
	if (r != CTL_GO_ON)
		return r;
	if (first >= argc || strcmp(argv[first], "rasdaemon") || argc - first > 2)
		return ctl_usage_error("import", "takes rasdaemon [PATH]");
	if (argc - first == 2)
		path = argv[first + 1];
	ras_boot_id(boot_id, sizeof(boot_id));
	if (ras_db_open_writer(&db, c->cfg.database, boot_id, err, sizeof(err)) < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s\n", ctl_text(err));
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
		fprintf(stderr, "ras-fdr-ctl: import: %s\n", ctl_text(err));
		return 1;
	}
	printf("Total: %lld imported, %lld already present.\n", totals.imported, totals.present);
	/* node_exporter reads the counts from rasd's textfile: they include the import now. */
	if (totals.imported)
		ctl_metrics_refresh_textfile(c);
	return 0;
}
