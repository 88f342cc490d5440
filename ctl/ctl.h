/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl: shared state and the commands. Each returns an exit status. */
#ifndef RAS_CTL_H
#define RAS_CTL_H

#include <stdio.h>
#include "lib/config.h"
#include "db/db_link.h"
#include "db/db_query.h"
#include "cli.h"
#include "lib/json.h"
#include "lib/text.h"

struct ctl {
	struct rasd_config cfg;
	const char *config_path;
	bool json;            /* the command was given --json: errors go to stdout as JSON too */
	/* The global options as given (-c FILE, -d PATH, ...), for a command line to suggest. */
	char *globals[16];
	int n_globals;
};

/*
 * The name -> function table (ctl.c). To give a plain { name, fn } entry --help,
 * completion and the man-page check: define a struct ctl_spec in its file, call
 * ctl_parse() instead of getopt_long, and add &spec as the entry's third field.
 */
struct ctl_command {
	const char *name;
	int (*fn)(struct ctl *c, int argc, char **argv);
	const struct ctl_spec *spec;	/* NULL: the command parses its own arguments */
};
extern const struct ctl_command ctl_commands[];
extern const size_t ctl_n_commands;
const struct ctl_command *ctl_command_find(const char *name);
int ctl_load_config(struct ctl *c, const char *db, const char *tdir, const char *inst, bool explicit);

/*
 * Opens the database read-only. A missing, empty, corrupt, truncated,
 * foreign, newer or unreadable file is an error (stderr, and with --json an
 * {"error":...} object on stdout); the caller exits non-zero. Never "empty".
 */
int ctl_open_db(struct ctl *c, struct ras_db **db);
/*
 * "ras-fdr-ctl" and the global options the user gave (-c, -d, -t, -i, -s),
 * each quoted for a shell where needed: the start of a command line to suggest.
 */
void ctl_command_line(const struct ctl *c, char *buf, size_t len);
/* Reports a query that failed part-way (a damaged page): same channels as ctl_open_db. */
void ctl_db_error(struct ctl *c, const char *what);
/* Accepts 2026-11-22, 2026-11-22T10:00[:00][Z], @UNIXSECONDS, -30s/-15m/-2h/-7d, now. */
int ctl_parse_time(const char *s, int64_t *ns);
/* The message of a time ctl_parse_time refused with r, for --option (stderr). */
void ctl_time_error(const char *option, int r, const char *arg);
/* Parses --since/--until/--type/--limit/--boot/--include-synthetic into f; see ctl_common_options. */
/* The filter options' table rows; their keys are what ctl_filter_option takes. */
#define CTL_OPT_SINCE { "since", 'S', "T", CTL_C_TIME, "only records at or after T (see TIMES)" }
#define CTL_OPT_UNTIL { "until", 'U', "T", CTL_C_TIME, "only records before T" }
#define CTL_OPT_TYPE { "type", 'T', "TYPE", CTL_C_TYPE, "one event type (mc_event, aer_event, mce:mce_record ...)" }
#define CTL_OPT_BOOT { "boot", 'B', "N", CTL_C_BOOT, "one boot: 0 the newest, -1 the one before, or a boot id" }
#define CTL_OPT_SYNTHETIC { "include-synthetic", 'I', NULL, CTL_C_NONE, \
			    "count records written by inject --synthetic too" }
#define CTL_OPT_JSON { "json", 'j', NULL, CTL_C_NONE, "JSON output (formats in ras-fdr-ctl(8))" }
int ctl_filter_option(struct ctl *c, struct ras_db_filter *f, int opt, const char *arg);
/*
 * JSON on stdout, every string and key through the one encoder (lib/json.h):
 * UTF-8 kept, control characters as \uXXXX, invalid bytes as \u00XX.
 */
void ctl_print_json_string(const char *s, size_t len);
/* "name": (a key from a table or a database column alike). */
void ctl_print_json_key(const char *name);
/* A 64-bit count or time: an unsigned decimal string. */
void ctl_print_json_u64(uint64_t v);
/* A register or address: "0x..." of its 64 bits, unsigned. */
void ctl_print_json_hex(uint64_t v);
/* "time":"ISO","wall_s":S,"wall_ns":"NS" (no comma around it). */
void ctl_print_json_wall(int64_t wall_ns);
void ctl_fprint_json_wall(FILE *o, int64_t wall_ns);
/* Version of every --json format documented in ras-fdr-ctl(8) and doc/schema/. */
#define CTL_JSON_VERSION RAS_JSON_VERSION

/*
 * Text from a record, a database, a file or the kernel as it may be printed
 * to a terminal (lib/text.h: control characters and invalid UTF-8 as \xNN),
 * for printf's %s: s itself when nothing needs escaping, else a copy that
 * stays valid for the next 15 calls. NULL stays NULL. ctl_textn (len bytes,
 * not terminated) always gives such a copy.
 */
const char *ctl_text(const char *s);
const char *ctl_textn(const char *s, size_t len);

extern const struct ctl_spec ctl_summary_spec, ctl_errors_spec, ctl_status_spec, ctl_inject_spec,
	ctl_decode_spec, ctl_edac_spec, ctl_layout_spec, ctl_labels_spec, ctl_reset_spec,
	ctl_snapshot_spec, ctl_boot_cmdline_spec, ctl_actions_spec, ctl_import_config_spec,
	ctl_metrics_spec, ctl_export_spec, ctl_import_spec, ctl_crashes_spec, ctl_ack_spec,
	ctl_trigger_relay_spec, ctl_health_spec, ctl_vendors_spec, ctl_report_spec;

/* Hidden helpers (complete.c): bash completion and the synopsis the man-page test checks. */
int ctl_complete(struct ctl *c, int argc, char **argv);
int ctl_synopsis_all(struct ctl *c, int argc, char **argv);
/*
 * What a row is linked to in other tables, found when it is read
 * (db/db_link.h): a memory-failure SIGBUS's memory failure. applies: the
 * row's type has such a link; found: one was found.
 */
struct ctl_link {
	bool applies, found;
	struct ras_db_memfail_link mf;
};
/* Looks the row's link up (query.c); a NULL db looks nothing up. */
void ctl_row_link(struct ras_db *db, const struct ras_db_row *row, struct ctl_link *l);
/* The row's sentence, with its link where it has one (l may be NULL). */
void ctl_render_row(const struct ras_db_row *row, const void *decoded, const struct ctl_link *l,
		    char *buf, size_t len);
/*
 * errors --json's line of a record (its sentence rendered here) or of a
 * folded period, built in b (json_line.h) and written to o (NULL: only
 * built). 0, -ENOMEM or -EIO.
 */
struct ctl_jbuf;
int ctl_fprint_json_row(FILE *o, struct ctl_jbuf *b, const struct ras_db_row *row,
			const void *decoded, const struct ctl_link *l);
int ctl_fprint_json_fold(FILE *o, struct ctl_jbuf *b, const struct ras_db_row *row);
/*
 * A decoding context for records decoded here (--redecode, import): nothing
 * looked up on this machine, the memory-failure names from the shipped format.
 */
void ctl_prepare_redecode(struct ctl *c, struct ras_decode_ctx *dctx);

int ctl_summary(struct ctl *c, int argc, char **argv);
int ctl_trigger_relay(struct ctl *c, int argc, char **argv);
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

/* Threshold decisions (actions.c); the counts line of summary and status. */
int ctl_actions(struct ctl *c, int argc, char **argv);
struct ras_db_action_window;
/* The summary's actions line, in the summary's window (NULL: every decision). */
void ctl_actions_counts(struct ras_db *db, const struct ras_db_action_window *w, bool json);
/* rasdaemon / mcelog settings as rasd.conf lines (import_config.c). */
int ctl_import_config(struct ctl *c, int argc, char **argv);
/*
 * The losses by origin (losses.c): JSON, the member "lost_by_origin":[...]
 * (no comma around it); text, "stats 17 records, malformed 1 gap of unknown size" or "none".
 */
struct ras_db_losses;
void ctl_print_losses(const struct ras_db_losses *l, bool json);
/*
 * Vendor sections (vendor.c): summary --by vendor, the rows errors --vendor
 * shows, and the vendors command.
 */
struct cper_vendor;
int ctl_summary_by_vendor(struct ctl *c, const struct ras_db_filter *f, bool json);
/* The vendor fields of a non_standard_event or arm_event row, else NULL. */
const struct cper_vendor *ctl_vendor_of(const struct ras_db_row *row);
/* The event types that carry vendor sections, as a ras_db_filter type_mask. */
uint64_t ctl_vendor_types(void);
/* A vendor row of that vendor or platform (NULL: any) whose module or sub-module names module. */
bool ctl_vendor_row_matches(const struct ras_db_row *row, const char *vendor, const char *module);
int ctl_vendors(struct ctl *c, int argc, char **argv);
/* The fleet: metrics, export with a cursor, import from rasdaemon. */
int ctl_metrics(struct ctl *c, int argc, char **argv);
/* Rewrites rasd's metrics_textfile (when configured) after a change made here (import). */
int ctl_metrics_refresh_textfile(struct ctl *c);
int ctl_export(struct ctl *c, int argc, char **argv);
int ctl_import(struct ctl *c, int argc, char **argv);
/* What killed each previous boot (crashes.c, issue 35). */
int ctl_crashes(struct ctl *c, int argc, char **argv);
/* A crash's cause in one sentence, as crashes lists it (the report uses it too). */
struct ras_db_crash;
void ctl_crash_sentence(struct ras_db *db, const struct ras_db_crash *c, char *out, size_t len);
/* The support-case report (report.c, issue 38). */
int ctl_report(struct ctl *c, int argc, char **argv);
/* Acknowledges the losses and a database replacement that status reports (ack.c). */
int ctl_ack(struct ctl *c, int argc, char **argv);
/* The diagnosis: each part's verdict (health.c); status's line about it (status.c). */
int ctl_health(struct ctl *c, int argc, char **argv);

#endif
