/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "formats.h"
#include "event_table.h"
#include "threshold.h"

enum key_kind {
	K_PATH, K_NAME, K_NAME_OR_EMPTY, K_UINT, K_BOOL, K_EVENTS, K_TEXT, K_SEVERITY,
	K_THRESHOLD, K_CHOICE, K_DURATION, K_RULE
};

struct key_desc {
	const char *key;
	enum key_kind kind;
	size_t offset;
	size_t size;          /* strings: buffer size */
	unsigned min, max;    /* unsigned values */
	const char *choices;  /* K_CHOICE: the allowed values, '|'-separated */
};

#define STR(k, kind, m) { k, kind, offsetof(struct rasd_config, m), sizeof(((struct rasd_config *)0)->m), 0, 0, NULL }
#define UINT(k, m, lo, hi) { k, K_UINT, offsetof(struct rasd_config, m), 0, lo, hi, NULL }
#define BOOL(k, m) { k, K_BOOL, offsetof(struct rasd_config, m), 0, 0, 0, NULL }
/* A verdict rule's key: min holds the rule (diag/rules.h). */
#define RULE(k, r) { "health_rule_" k, K_RULE, offsetof(struct rasd_config, health_rule[r]), \
		     sizeof(((struct rasd_config *)0)->health_rule[r]), r, 0, NULL }
#define CHOICE(k, m, list) { k, K_CHOICE, offsetof(struct rasd_config, m), sizeof(((struct rasd_config *)0)->m), 0, 0, list }

const char *const rasd_trigger_conditions[] = {
	"page-threshold", "dimm-threshold", "cpu-threshold", "device-threshold",
	"row-threshold", "ce-rate-threshold", "poison-threshold", "uncorrected", "lost-records", "crash",
	"verdict-change",
};
const size_t rasd_n_trigger_conditions = sizeof(rasd_trigger_conditions) / sizeof(rasd_trigger_conditions[0]);

static const struct key_desc keys[] = {
	STR("database", K_PATH, database),
	STR("instance", K_NAME, instance),
	UINT("buffer_size_kb", buffer_size_kb, 8, 1048576),
	BOOL("keep_instance", keep_instance),
	BOOL("allow_synthetic", allow_synthetic),
	UINT("log_corrected_per_minute", log_corrected_per_minute, 0, 1000000),
	UINT("log_uncorrected_per_minute", log_uncorrected_per_minute, 0, 1000000),
	UINT("batch_max_records", batch_max_records, 1, 10000000),
	UINT("commit_delay_ms", commit_delay_ms, 0, 1000),
	UINT("hold_max_kb", hold_max_kb, 64, 4194304),
	STR("fold_threshold", K_THRESHOLD, fold_threshold),
	UINT("fold_keep", fold_keep, 1, 100000),
	UINT("max_db_size_mb", max_db_size_mb, 0, 16777216),
	UINT("keep_raw_days", keep_raw_days, 0, 36500),
	STR("tracing_dir", K_PATH, tracing_dir),
	STR("lock_dir", K_PATH, lock_dir),
	STR("formats_dir", K_PATH, formats_dir),
	STR("events", K_EVENTS, events),
	STR("pretend_absent", K_EVENTS, pretend_absent),
	STR("sysfs_root", K_PATH, sysfs_root),
	STR("labels_dirs", K_TEXT, labels_dirs),
	BOOL("register_labels", register_labels),
	STR("boot_instance", K_NAME_OR_EMPTY, boot_instance),
	BOOL("boot_instance_adopt", boot_instance_adopt),
	BOOL("boot_instance_remove", boot_instance_remove),
	STR("persistent_instance", K_NAME_OR_EMPTY, persistent_instance),
	BOOL("fdr_enable", fdr_enable),
	STR("fdr_instance", K_NAME, fdr_instance),
	UINT("fdr_buffer_size_kb", fdr_buffer_size_kb, 8, 1048576),
	STR("fdr_events", K_TEXT, fdr_events),
	STR("fdr_filters", K_TEXT, fdr_filters),
	STR("fdr_severity", K_SEVERITY, fdr_severity),
	UINT("fdr_min_interval_s", fdr_min_interval_s, 0, 86400),
	STR("page_ce_threshold", K_THRESHOLD, page_ce_threshold),
	CHOICE("page_ce_action", page_ce_action, "off|account|soft|hard|soft-then-hard"),
	STR("cpu_ce_threshold", K_THRESHOLD, cpu_ce_threshold),
	CHOICE("cpu_ce_action", cpu_ce_action, "off|account|offline"),
	BOOL("cpu_ue_offline", cpu_ue_offline),
	UINT("cpu_offline_limit", cpu_offline_limit, 0, 65535),
	STR("dimm_ce_threshold", K_THRESHOLD, dimm_ce_threshold),
	STR("device_ce_threshold", K_THRESHOLD, device_ce_threshold),
	STR("row_ce_threshold", K_THRESHOLD, row_ce_threshold),
	UINT("row_pages_max", row_pages_max, 1, 65536),
	STR("ce_rate_threshold", K_THRESHOLD, ce_rate_threshold),
	UINT("poison_threshold_kb", poison_threshold_kb, 0, 1073741824),
	STR("proc_root", K_PATH, proc_root),
	BOOL("memory_repair", memory_repair),
	BOOL("dry_run", dry_run),
	BOOL("synthetic_actions", synthetic_actions),
	UINT("action_min_interval_s", action_min_interval_s, 0, 86400),
	UINT("action_max_per_day", action_max_per_day, 0, 1000000),
	STR("trigger_dir", K_PATH, trigger_dir),
	UINT("trigger_timeout_s", trigger_timeout_s, 1, 3600),
	UINT("trigger_max_children", trigger_max_children, 1, 64),
	BOOL("bmc_sel", bmc_sel),
	CHOICE("bmc_sel_events", bmc_sel_events, "all|uncorrected|thresholds"),
	STR("bmc_sel_limit", K_THRESHOLD, bmc_sel_limit),
	STR("bmc_sel_device", K_PATH, bmc_sel_device),
	STR("metrics_textfile", K_PATH, metrics_textfile),
	BOOL("crash_harvest", crash_harvest),
	STR("pstore_dir", K_PATH, pstore_dir),
	STR("pstore_archive_dir", K_PATH, pstore_archive_dir),
	CHOICE("pstore_remove", pstore_remove, "auto|yes|no"),
	STR("systemd_pstore_conf", K_PATH, systemd_pstore_conf),
	STR("mcelog_device", K_PATH, mcelog_device),
	BOOL("health", health),
	STR("health_permanent_after", K_DURATION, health_permanent_after),
	UINT("health_wide_cells", health_wide_cells, 2, DIAG_CELLS),
	RULE("mem_uncorrected", DIAG_R_MEM_UNCORRECTED), RULE("cxl_replace", DIAG_R_CXL_REPLACE),
	RULE("mem_multi_rank", DIAG_R_MEM_MULTI_RANK), RULE("mem_multi_bank", DIAG_R_MEM_MULTI_BANK),
	RULE("mem_single_bank", DIAG_R_MEM_BANK), RULE("mem_row_column", DIAG_R_MEM_ROW_COLUMN),
	RULE("mem_transient", DIAG_R_MEM_TRANSIENT), RULE("mem_storm", DIAG_R_MEM_STORM),
	RULE("mem_cell", DIAG_R_MEM_CELL), RULE("cpu_fatal", DIAG_R_CPU_FATAL),
	RULE("cache_corrected", DIAG_R_CACHE_CORRECTED), RULE("cpu_corrected", DIAG_R_CPU_CORRECTED),
	RULE("pcie_fatal", DIAG_R_PCIE_FATAL), RULE("pcie_uncorrected", DIAG_R_PCIE_UNCORRECTED),
	RULE("pcie_link", DIAG_R_PCIE_LINK), RULE("pcie_corrected", DIAG_R_PCIE_CORRECTED),
	RULE("disk_medium", DIAG_R_DISK_MEDIUM), RULE("disk_errors", DIAG_R_DISK_ERRORS),
	RULE("nic_reports", DIAG_R_NIC_REPORTS), RULE("mem_single_lane", DIAG_R_MEM_LANE),
};

void rasd_config_defaults(struct rasd_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->database, sizeof(c->database), "%s", RASD_DEFAULT_DATABASE);
	snprintf(c->instance, sizeof(c->instance), "rasd");
	c->buffer_size_kb = 256;
	c->log_corrected_per_minute = 10;
	c->log_uncorrected_per_minute = 600;
	c->batch_max_records = 100000;
	c->commit_delay_ms = 65;
	c->hold_max_kb = 32768;
	snprintf(c->fold_threshold, sizeof(c->fold_threshold), "100/1h");
	c->fold_keep = 10;
	c->max_db_size_mb = 1024;
	c->keep_raw_days = 0;
	snprintf(c->lock_dir, sizeof(c->lock_dir), "%s/ras-fdr", RUNSTATEDIR);
	snprintf(c->formats_dir, sizeof(c->formats_dir), "%s/formats", PKGDATADIR);
	snprintf(c->events, sizeof(c->events), "all");
	snprintf(c->sysfs_root, sizeof(c->sysfs_root), "/sys");
	snprintf(c->labels_dirs, sizeof(c->labels_dirs), "/etc/ras/dimm_labels.d %s/ras-fdr/labels.d",
		 SYSCONFDIR);
	snprintf(c->boot_instance, sizeof(c->boot_instance), "rasd_boot");
	c->boot_instance_adopt = false;
	snprintf(c->persistent_instance, sizeof(c->persistent_instance), "rasd_persist");
	snprintf(c->fdr_instance, sizeof(c->fdr_instance), "rasd_fdr");
	c->fdr_buffer_size_kb = 64;
	snprintf(c->fdr_events, sizeof(c->fdr_events), "block:block_rq_error sched:sched_process_exit");
	snprintf(c->fdr_severity, sizeof(c->fdr_severity), "uncorrected");
	c->fdr_min_interval_s = 60;
	/* rasdaemon's defaults: PAGE_CE_THRESHOLD=50 per PAGE_CE_REFRESH_CYCLE=24h,
	 * CPU_CE_THRESHOLD=18 per CPU_ISOLATION_CYCLE=24h; acting is opted into. */
	snprintf(c->page_ce_threshold, sizeof(c->page_ce_threshold), "50/24h");
	snprintf(c->page_ce_action, sizeof(c->page_ce_action), "account");
	snprintf(c->cpu_ce_threshold, sizeof(c->cpu_ce_threshold), "18/24h");
	snprintf(c->cpu_ce_action, sizeof(c->cpu_ce_action), "account");
	/* rasdaemon.env's CPU_ISOLATION_LIMIT. */
	c->cpu_offline_limit = 10;
	snprintf(c->dimm_ce_threshold, sizeof(c->dimm_ce_threshold), "100/24h");
	snprintf(c->device_ce_threshold, sizeof(c->device_ce_threshold), "100/24h");
	snprintf(c->row_ce_threshold, sizeof(c->row_ce_threshold), "20/24h");
	/* A DRAM row is 8 KiB of a rank's data: at most 128 pages of 4 KiB; room for keys without a bank. */
	c->row_pages_max = 512;
	snprintf(c->ce_rate_threshold, sizeof(c->ce_rate_threshold), "off");
	c->poison_threshold_kb = 0;
	snprintf(c->proc_root, sizeof(c->proc_root), "/proc");
	c->action_min_interval_s = 1;
	c->action_max_per_day = 64;
	snprintf(c->trigger_dir, sizeof(c->trigger_dir), "%s/ras-fdr/triggers", SYSCONFDIR);
	c->trigger_timeout_s = 30;
	c->trigger_max_children = 4;
	snprintf(c->bmc_sel_events, sizeof(c->bmc_sel_events), "all");
	snprintf(c->bmc_sel_limit, sizeof(c->bmc_sel_limit), "20/1h");
	c->crash_harvest = true;
	snprintf(c->pstore_dir, sizeof(c->pstore_dir), "/sys/fs/pstore");
	snprintf(c->pstore_archive_dir, sizeof(c->pstore_archive_dir), "/var/lib/systemd/pstore");
	snprintf(c->pstore_remove, sizeof(c->pstore_remove), "auto");
	snprintf(c->systemd_pstore_conf, sizeof(c->systemd_pstore_conf), "/etc/systemd/pstore.conf");
	snprintf(c->mcelog_device, sizeof(c->mcelog_device), "/dev/mcelog");
	c->health = true;
	snprintf(c->health_permanent_after, sizeof(c->health_permanent_after), "24h");
	c->health_wide_cells = DIAG_WIDE_CELLS;
}

static bool in_choices(const char *choices, const char *v)
{
	size_t len = strlen(v);

	for (const char *p = choices; p && *p; ) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		if (n == len && !strncmp(p, v, n))
			return true;
		p = bar ? bar + 1 : NULL;
	}
	return false;
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (unsigned i = 0; i < 4; i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

/* An instance name becomes a directory name under tracefs: keep it plain. */
static bool valid_name(const char *v)
{
	if (!*v)
		return false;
	for (const char *p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return false;
	return true;
}

static bool valid_events(const char *v)
{
	char buf[1024], *save = NULL;

	if (!strcmp(v, "all"))
		return true;
	snprintf(buf, sizeof(buf), "%s", v);
	for (char *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save))
		if (!ras_event_type_find(tok))
			return false;
	return true;
}

static int set_string(const struct key_desc *k, char *dst, const char *value, const char **why)
{
	if (strlen(value) >= k->size) {
		*why = "value too long";
		return -EINVAL;
	}
	if (k->kind == K_SEVERITY) {
		enum ras_severity sev;

		if (ras_severity_parse(value, &sev) < 0) {
			*why = "unknown severity (info, corrected, deferred, ucna, srao, srar, uncorrected, fatal)";
			return -EINVAL;
		}
	}
	if (k->kind == K_THRESHOLD && ras_threshold_parse(value, &(struct ras_threshold){ 0 }) < 0) {
		*why = "expected count/period (10/24h, 3/1h) or off";
		return -EINVAL;
	}
	if (k->kind == K_DURATION && rasd_duration_parse(value, &(int64_t){ 0 }) < 0) {
		*why = "expected a duration (24h, 30m, 2d)";
		return -EINVAL;
	}
	if (k->kind == K_RULE && rasd_health_rule_check((int)k->min, value, why) < 0)
		return -EINVAL;
	if (k->kind == K_CHOICE && !in_choices(k->choices, value)) {
		*why = "not one of the allowed values (see rasd.conf(5))";
		return -EINVAL;
	}
	if (k->kind == K_NAME_OR_EMPTY && *value && !valid_name(value)) {
		*why = "must be empty, or letters, digits, '_' or '-'";
		return -EINVAL;
	}
	if (k->kind == K_NAME && !valid_name(value)) {
		*why = "must be letters, digits, '_' or '-'";
		return -EINVAL;
	}
	if (k->kind == K_EVENTS && !valid_events(value)) {
		*why = "unknown event (expected \"all\" or system:event names from the event table)";
		return -EINVAL;
	}
	if (k->kind == K_PATH && *value && *value != '/') {
		*why = "must be an absolute path";
		return -EINVAL;
	}
	strcpy(dst, value);
	return 0;
}

int rasd_config_set(struct rasd_config *c, const char *key, const char *value, const char **why)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct key_desc *k = &keys[i];
		char *field = (char *)c + k->offset;

		if (strcmp(k->key, key))
			continue;
		if (k->kind == K_BOOL) {
			*why = "expected yes or no";
			return parse_bool(value, (bool *)field);
		}
		if (k->kind == K_UINT) {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(value, &end, 10);
			if (errno || end == value || *end || v < k->min || v > k->max) {
				*why = "expected a whole number in range";
				return -EINVAL;
			}
			*(unsigned *)field = (unsigned)v;
			return 0;
		}
		return set_string(k, field, value, why);
	}
	*why = "unknown key";
	return -EINVAL;
}

/*
 * Edits (insertions, deletions, substitutions, swaps of neighbours, case
 * ignored) from a to b, counted up to limit + 1: the optimal string
 * alignment distance, rows kept for keys of at most 63 bytes.
 */
static unsigned edits(const char *a, const char *b, unsigned limit)
{
	unsigned prev2[64], prev[64], cur[64];
	size_t la = strlen(a), lb = strlen(b);

	if (la > 63 || lb > 63)
		return limit + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned best = cur[0] = (unsigned)i;

		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			unsigned v = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
			if (v < best)
				best = v;
		}
		if (best > limit)
			return limit + 1;
		memcpy(prev2, prev, sizeof(prev));
		memcpy(prev, cur, sizeof(cur));
	}
	return prev[lb];
}

const char *rasd_config_suggest(const char *key)
{
	/* A third of the word, at least one edit and at most three: "dryrun", "page_ce_treshold". */
	unsigned limit = (unsigned)strlen(key) / 3, best = 0;
	const char *found = NULL;

	limit = limit < 1 ? 1 : limit > 3 ? 3 : limit;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		unsigned d = edits(key, keys[i].key, limit);

		if (d <= limit && (!found || d < best)) {
			found = keys[i].key;
			best = d;
		}
	}
	return found;
}

char *rasd_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

static int parse_line(struct rasd_config *c, char *line, const char **why)
{
	char *eq, *key, *value;

	line = rasd_trim(line);
	if (!*line || *line == '#')
		return 0;
	eq = strchr(line, '=');
	if (!eq) {
		*why = "expected key = value";
		return -EINVAL;
	}
	*eq = 0;
	key = rasd_trim(line);
	value = rasd_trim(eq + 1);
	return rasd_config_set(c, key, value, why);
}

/* "unknown key 'KEY'", and the key meant when one is a few edits away. */
static void unknown_key_reason(char *line, char *reason, size_t len)
{
	char *eq = strchr(line, '='), *key;
	const char *near;

	if (eq)
		*eq = 0;
	key = rasd_trim(line);
	near = rasd_config_suggest(key);
	snprintf(reason, len, "unknown key '%.200s'%s%s%s", key, near ? " (did you mean '" : "",
		 near ? near : "", near ? "'?)" : "");
}

int rasd_config_load(struct rasd_config *c, const char *path, config_error_fn on_error, void *ctx)
{
	char *buf, *save = NULL;
	unsigned lineno = 0;
	int errors = 0, r = ras_read_file(path, &buf, NULL);

	if (r < 0)
		return r;
	for (char *p = buf; p; ) {
		char *nl = strchr(p, '\n');
		const char *why = NULL;

		if (nl)
			*nl = 0;
		lineno++;
		if (parse_line(c, p, &why) < 0) {
			char reason[256];

			snprintf(reason, sizeof(reason), "%s", why ? why : "invalid");
			if (!strcmp(reason, "unknown key"))
				unknown_key_reason(p, reason, sizeof(reason));
			on_error(ctx, path, lineno, reason);
			errors++;
		}
		p = nl ? nl + 1 : NULL;
	}
	(void)save;
	free(buf);
	return errors;
}

bool rasd_config_event_wanted(const struct rasd_config *c, const char *system,
			      const char *event, const char *table)
{
	char buf[1024], *save = NULL;

	if (!strcmp(c->events, "all"))
		return true;
	snprintf(buf, sizeof(buf), "%s", c->events);
	for (char *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		const struct ras_event_type *t = ras_event_type_find(tok);

		if (t && !strcmp(t->event, event) && !strcmp(t->table, table))
			return true;
	}
	(void)system;
	return false;
}
