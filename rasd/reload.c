/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include "reload.h"
#include "log.h"

static void log_config_error(void *ctx, const char *file, unsigned line, const char *reason)
{
	ras_log(LOG_ERR, "%s:%u: %s", file, line, reason);
}

/* The file as it is now, with the command line over it; false (logged) when not read whole. */
static bool read_fresh_config(const struct rasd_options *opt, struct rasd_config *fresh)
{
	const char *path = opt->config_path;
	int r;

	rasd_config_defaults(fresh);
	r = path ? rasd_config_load(fresh, path, log_config_error, NULL) : -ENOENT;
	if (r < 0) {
		ras_log(LOG_ERR, "configuration %s cannot be read (%s); keeping the running one",
			path ? path : "(none)", strerror(-r));
		return false;
	}
	if (r > 0) {
		ras_log(LOG_ERR, "configuration %s has %d error%s; keeping the running one", path, r,
			r == 1 ? "" : "s");
		return false;
	}
	for (int i = 0; i < opt->n_overrides; i++) {
		const char *why = NULL;

		if (rasd_config_set(fresh, opt->override_key[i], opt->override_value[i], &why) < 0)
			return false;
	}
	return true;
}

/* Whether what a crossing does (act, or not: dry run, synthetic records) changes. */
static bool action_settings_differ(const struct rasd_config *c, const struct rasd_config *f)
{
	return c->dry_run != f->dry_run || c->synthetic_actions != f->synthetic_actions ||
	       c->memory_repair != f->memory_repair || strcmp(c->page_ce_action, f->page_ce_action) ||
	       strcmp(c->cpu_ce_action, f->cpu_ce_action) ||
	       strcmp(c->page_ce_threshold, f->page_ce_threshold) ||
	       strcmp(c->cpu_ce_threshold, f->cpu_ce_threshold) ||
	       strcmp(c->row_ce_threshold, f->row_ce_threshold) ||
	       strcmp(c->dimm_ce_threshold, f->dimm_ce_threshold) ||
	       strcmp(c->device_ce_threshold, f->device_ce_threshold);
}

/*
 * One line with every action setting as it now stands, so an operator who
 * turned dry_run or an action on or off sees at once what rasd will do.
 */
static void log_action_settings(const struct rasd_config *c)
{
	ras_log(LOG_NOTICE, "actions now in force: dry_run=%s; page_ce_action=%s at %s;"
		" cpu_ce_action=%s at %s; rows at %s: %s; dimm at %s and device at %s: account;"
		" synthetic_actions=%s", c->dry_run ? "yes" : "no", c->page_ce_action,
		c->page_ce_threshold, c->cpu_ce_action, c->cpu_ce_threshold, c->row_ce_threshold,
		c->memory_repair ? "repair, else page_ce_action" : "page_ce_action",
		c->dimm_ce_threshold, c->device_ce_threshold, c->synthetic_actions ? "yes" : "no");
}

/* Thresholds, actions, their limits and triggers apply from the reload on (sysfs_root: restart). */
static void reload_actions(struct rasd_config *c, const struct rasd_config *f)
{
	bool changed = action_settings_differ(c, f);

#define TAKE(field) memcpy(&c->field, &f->field, sizeof(c->field))
	TAKE(page_ce_threshold);
	TAKE(page_ce_action);
	TAKE(cpu_ce_threshold);
	TAKE(cpu_ce_action);
	TAKE(cpu_offline_limit);
	TAKE(cpu_ue_offline);
	TAKE(ce_rate_threshold);
	TAKE(poison_threshold_kb);
	TAKE(register_labels);
	TAKE(dimm_ce_threshold);
	TAKE(device_ce_threshold);
	TAKE(row_ce_threshold);
	TAKE(memory_repair);
	TAKE(dry_run);
	TAKE(synthetic_actions);
	TAKE(action_min_interval_s);
	TAKE(action_max_per_day);
	TAKE(trigger_dir);
	TAKE(trigger_timeout_s);
	TAKE(trigger_max_children);
#undef TAKE
	if (changed)
		log_action_settings(c);
}

bool rasd_reload_config(struct rasd_config *running, const struct rasd_options *opt)
{
	struct rasd_config fresh;

	if (!read_fresh_config(opt, &fresh))
		return false;
	if (strcmp(fresh.database, running->database) || strcmp(fresh.instance, running->instance))
		ras_log(LOG_NOTICE, "database and instance changes take effect at restart");
	running->allow_synthetic = fresh.allow_synthetic;
	running->keep_instance = fresh.keep_instance;
	running->log_corrected_per_minute = fresh.log_corrected_per_minute;
	running->log_uncorrected_per_minute = fresh.log_uncorrected_per_minute;
	running->batch_max_records = fresh.batch_max_records;
	running->commit_delay_ms = fresh.commit_delay_ms;
	running->hold_max_kb = fresh.hold_max_kb;
	/* Storm and size limits: the pipelines read them again at their next commit. */
	memcpy(running->fold_threshold, fresh.fold_threshold, sizeof(fresh.fold_threshold));
	running->fold_keep = fresh.fold_keep;
	running->max_db_size_mb = fresh.max_db_size_mb;
	running->keep_raw_days = fresh.keep_raw_days;
	ras_log_set_rates(&(struct ras_log_rates){ fresh.log_corrected_per_minute,
						   fresh.log_uncorrected_per_minute });
	memcpy(running->events, fresh.events, sizeof(fresh.events));
	memcpy(running->labels_dirs, fresh.labels_dirs, sizeof(fresh.labels_dirs));
	reload_actions(running, &fresh);
	return true;
}
