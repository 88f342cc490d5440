/* SPDX-License-Identifier: MIT */
/* rasd.conf: "key = value" lines; every key is documented in rasd.conf(5). */
#ifndef RAS_CONFIG_H
#define RAS_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "diag/rules.h"

#define RASD_DEFAULT_CONFIG SYSCONFDIR "/ras-fdr/rasd.conf"
#define RASD_DEFAULT_DATABASE LOCALSTATEDIR "/lib/ras-fdr/ras-fdr.db"

struct rasd_config {
	char database[PATH_MAX];
	char instance[64];
	unsigned buffer_size_kb;
	bool keep_instance;
	bool allow_synthetic;
	unsigned log_corrected_per_minute;
	unsigned log_uncorrected_per_minute;
	unsigned batch_max_records;
	unsigned commit_delay_ms;    /* longest a trickle's record waits for its group commit */
	unsigned hold_max_kb;        /* records held in memory while the database fails */
	/* Storms and limits on disk (db/db_fold.c): the counts are always kept */
	char fold_threshold[32];     /* "count/period" of one subject before folding, or "off" */
	unsigned fold_keep;          /* first and last records of a period kept in full */
	unsigned max_db_size_mb;     /* 0: no limit */
	unsigned keep_raw_days;      /* 0: forever */
	char tracing_dir[PATH_MAX];  /* empty: find or mount tracefs */
	char lock_dir[PATH_MAX];
	char formats_dir[PATH_MAX];
	char events[1024];           /* "all" or a list of system:event / table names */
	char pretend_absent[256];    /* tests only: tracepoints treated as absent from the kernel */
	/* EDAC topology and DIMM labels */
	char sysfs_root[PATH_MAX];
	char labels_dirs[1024];      /* space-separated directories of label files */
	bool register_labels;        /* write the labels known into EDAC sysfs (dimm_label) */
	/* Early-boot and previous-boot buffers */
	char boot_instance[64];      /* instance made by trace_instance=; empty: none */
	bool boot_instance_adopt;    /* keep reading it live (yes) or stop its events (no) */
	bool boot_instance_remove;   /* remove it once drained */
	char persistent_instance[64];
	/* Flight recorder */
	bool fdr_enable;
	char fdr_instance[64];
	unsigned fdr_buffer_size_kb;
	char fdr_events[1024];       /* globs: block:block_rq_error sched:sched_process_exit nfs4:* */
	char fdr_filters[1024];      /* system:event:filter;... */
	char fdr_severity[32];       /* lowest severity that takes a snapshot */
	unsigned fdr_min_interval_s; /* at most one automatic snapshot per interval */
	/* Thresholds ("count/period" leaky buckets, lib/threshold.h) and actions */
	char page_ce_threshold[32];
	char page_ce_action[24];     /* off, account, soft, hard, soft-then-hard */
	char cpu_ce_threshold[32];
	char cpu_ce_action[24];      /* off, account, offline */
	bool cpu_ue_offline;         /* a CPU's own recoverable ARM error offlines it at once */
	unsigned cpu_offline_limit;  /* no CPU offlined once this many are offline; 0: no limit */
	char dimm_ce_threshold[32];
	char device_ce_threshold[32];
	char row_ce_threshold[32];
	unsigned row_pages_max;      /* pages kept, and acted on, per DRAM row (rasd/actions_rows.c) */
	/* Machine-wide warnings (rasd/actions_stats.c): rasdaemon's two statistics */
	char ce_rate_threshold[32];   /* corrected errors of every record, machine-wide */
	unsigned poison_threshold_kb; /* HardwareCorrupted reaching this; 0: off */
	char proc_root[PATH_MAX];     /* where meminfo is read ("/proc"; tests point elsewhere) */
	bool memory_repair;          /* a crossed row asks EDAC mem_repair first */
	bool dry_run;                /* decide and record, touch nothing */
	bool synthetic_actions;      /* synthetic records may act (else dry-run) */
	unsigned action_min_interval_s; /* per kind of subject */
	unsigned action_max_per_day;    /* per kind of subject, done or failed */
	char trigger_dir[PATH_MAX];
	unsigned trigger_timeout_s;
	unsigned trigger_max_children;
	/* The BMC's System Event Log (rasd/bmc_sel.c) */
	bool bmc_sel;                /* add SEL entries for what bmc_sel_events names */
	char bmc_sel_events[16];     /* all, uncorrected, thresholds */
	char bmc_sel_limit[32];      /* "count/period": at most count entries a period */
	char bmc_sel_device[PATH_MAX]; /* empty: /dev/ipmi0, /dev/ipmi/0, /dev/ipmidev/0 */
	/* Fleet */
	char metrics_textfile[PATH_MAX]; /* rewritten after each batch; empty: none */
	/* The last words of a crashed boot, read at start (rasd/lastwords.c) */
	bool crash_harvest;
	char pstore_dir[PATH_MAX];          /* pstore's mount; empty: not read */
	char pstore_archive_dir[PATH_MAX];  /* systemd-pstore's copies; empty: not read */
	char pstore_remove[8];              /* auto (as systemd-pstore), yes, no */
	char systemd_pstore_conf[PATH_MAX]; /* read for auto, with its FILE.d drop-ins */
	char mcelog_device[PATH_MAX];       /* /dev/mcelog; empty: not read */
	/* Diagnosis (lib/health_config.c): a verdict per part from its errors' pattern */
	bool health;
	char health_permanent_after[32]; /* a fault's errors this far apart: permanent */
	unsigned health_wide_cells;      /* scattered cells that make a bank-wide or wider fault */
	char health_rule[DIAG_R_N][48];  /* "VERDICT [COUNT/PERIOD]" per rule; "": its default */
};

typedef void (*config_error_fn)(void *ctx, const char *file, unsigned line, const char *reason);

void rasd_config_defaults(struct rasd_config *c);
/*
 * Reads a configuration file over *c. Every error is reported through
 * on_error as (file, line, reason); returns the number of errors, or -errno
 * if the file cannot be read (-ENOENT is left to the caller to judge).
 */
int rasd_config_load(struct rasd_config *c, const char *path, config_error_fn on_error, void *ctx);
/* Applies one "key = value" setting, e.g. from the command line; 0 or -EINVAL with *why set. */
int rasd_config_set(struct rasd_config *c, const char *key, const char *value, const char **why);
/* The configuration key a mistyped one most likely meant (a few edits away, any case), or NULL. */
const char *rasd_config_suggest(const char *key);
/* The verdict rules as configured (rasd.conf has been checked: every value parses). */
void rasd_config_health_rules(const struct rasd_config *c, struct diag_rules *out);
/* Checks a health_rule_* value for rule r; 0, or -EINVAL with *why set. */
int rasd_health_rule_check(int r, const char *value, const char **why);
/* Parses a duration ("24h", "30m", "2d", seconds without a unit); 0 or -EINVAL. */
int rasd_duration_parse(const char *value, int64_t *ns);
/* Strips leading and trailing white space in place; returns the new start. */
char *rasd_trim(char *s);
/* True when the event table entry named by system/event/table is enabled by c->events. */
bool rasd_config_event_wanted(const struct rasd_config *c, const char *system,
			      const char *event, const char *table);
/*
 * The conditions a trigger is named after (trigger_dir/CONDITION): rasd checks
 * each at start and SIGHUP, ras-fdr-ctl trigger-relay runs only these.
 */
extern const char *const rasd_trigger_conditions[];
extern const size_t rasd_n_trigger_conditions;

#endif
