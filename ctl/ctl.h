/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl: shared state and the commands. Each returns an exit status. */
#ifndef RAS_CTL_H
#define RAS_CTL_H

#include "lib/config.h"
#include "db/db_query.h"

struct ctl {
	struct rasd_config cfg;
	const char *config_path;
};

int ctl_open_db(struct ctl *c, struct ras_db **db);
/* Accepts 2026-11-22, 2026-11-22T10:00[:00][Z], @UNIXSECONDS, -30s/-15m/-2h/-7d, now. */
int ctl_parse_time(const char *s, int64_t *ns);
/* Parses --since/--until/--type/--limit/--boot/--include-synthetic into f; see ctl_common_options. */
int ctl_filter_option(struct ctl *c, struct ras_db_filter *f, int opt, const char *arg);
void ctl_print_json_string(const char *s, size_t len);
/* errors --json (query.c): one record as a JSON line; the decoding context it needs. */
struct ras_decode_ctx;
struct ras_decoded_head;
void ctl_print_json_row(const struct ras_db_row *row, const struct ras_decoded_head *h);
void ctl_prepare_decoders(struct ctl *c, struct ras_decode_ctx *dctx);

int ctl_summary(struct ctl *c, int argc, char **argv);
int ctl_errors(struct ctl *c, int argc, char **argv);
int ctl_status(struct ctl *c, int argc, char **argv);
int ctl_inject(struct ctl *c, int argc, char **argv);
int ctl_decode(struct ctl *c, int argc, char **argv);

/* EDAC views (ctl_edac.c): sysfs-shaped counts, layout, DIMM labels, counting windows. */
int ctl_edac(struct ctl *c, int argc, char **argv);
int ctl_layout(struct ctl *c, int argc, char **argv);
int ctl_labels(struct ctl *c, int argc, char **argv);
int ctl_reset(struct ctl *c, int argc, char **argv);
int ctl_summary_by_dimm(struct ctl *c, const struct ras_db_filter *f, bool json);

/* Flight recorder and boot buffers (ctl_fdr.c). */
int ctl_snapshot(struct ctl *c, int argc, char **argv);
int ctl_boot_cmdline(struct ctl *c, int argc, char **argv);

/* The fleet: metrics, export with a cursor, import from rasdaemon. */
int ctl_metrics(struct ctl *c, int argc, char **argv);
int ctl_export(struct ctl *c, int argc, char **argv);
int ctl_import(struct ctl *c, int argc, char **argv);

#endif
