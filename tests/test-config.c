/* SPDX-License-Identifier: MIT */
/* Configuration parser: good and bad files, command-line settings, event selection. */
#include <stdio.h>
#include <string.h>
#include "lib/config.h"
#include "tap.h"
#include "test_util.h"

struct errors {
	unsigned n;
	unsigned line[16];
	char reason[16][160];
};

static void collect(void *ctx, const char *file, unsigned line, const char *reason)
{
	struct errors *e = ctx;

	if (e->n < 16) {
		e->line[e->n] = line;
		snprintf(e->reason[e->n], sizeof(e->reason[0]), "%s", reason);
	}
	e->n++;
}

static void test_good(void)
{
	struct rasd_config c;
	struct errors e = { 0 };
	char path[1024];

	snprintf(path, sizeof(path), "%s/tests/data/config/good.conf", test_srcdir());
	rasd_config_defaults(&c);
	tap_is_int(rasd_config_load(&c, path, collect, &e), 0, "good file has no errors");
	tap_is_str(c.database, "/var/lib/ras-fdr/test.db", "database");
	tap_is_str(c.instance, "rasd_test", "instance");
	tap_is_int(c.buffer_size_kb, 512, "buffer_size_kb");
	tap_ok(c.keep_instance && c.allow_synthetic, "booleans yes/true");
	tap_is_int(c.log_corrected_per_minute, 5, "log_corrected_per_minute");
	tap_is_int(c.log_uncorrected_per_minute, 50, "log_uncorrected_per_minute");
	tap_is_int(c.batch_max_records, 1000, "batch_max_records");
	tap_ok(rasd_config_event_wanted(&c, "ras", "mc_event", "mc_event"), "listed event wanted");
	tap_ok(rasd_config_event_wanted(&c, "ras", "aer_event", "aer_event"), "bare event name accepted");
	tap_ok(!rasd_config_event_wanted(&c, "ras", "arm_event", "arm_event"), "unlisted event not wanted");
}

static void test_bad(void)
{
	static const struct { unsigned line; const char *words; } want[] = {
		{ 2, "absolute" }, { 3, "whole number" }, { 4, "unknown key 'bogus_key'" },
		{ 5, "yes or no" }, { 6, "letters" }, { 7, "unknown event" }, { 8, "key = value" },
		{ 9, "unknown severity" },
	};
	struct rasd_config c;
	struct errors e = { 0 };
	char path[1024];

	snprintf(path, sizeof(path), "%s/tests/data/config/bad.conf", test_srcdir());
	rasd_config_defaults(&c);
	tap_is_int(rasd_config_load(&c, path, collect, &e), 8, "bad file: every bad line is an error");
	for (unsigned i = 0; i < 8 && i < e.n; i++) {
		tap_is_int(e.line[i], want[i].line, "error %u on line %u", i, want[i].line);
		tap_ok(strstr(e.reason[i], want[i].words) != NULL, "line %u says '%s' (%s)",
		       want[i].line, want[i].words, e.reason[i]);
	}
	tap_is_str(c.database, RASD_DEFAULT_DATABASE, "a bad value leaves the default");
}

static void test_set(void)
{
	struct rasd_config c;
	const char *why = NULL;

	rasd_config_defaults(&c);
	tap_is_int(rasd_config_set(&c, "buffer_size_kb", "4", &why), -22, "buffer below minimum refused");
	tap_is_int(rasd_config_set(&c, "buffer_size_kb", "64", &why), 0, "buffer 64 accepted");
	tap_is_int(rasd_config_set(&c, "nope", "1", &why), -22, "unknown key refused");
	tap_is_str(why, "unknown key", "reason given");
	tap_is_int(rasd_config_load(&c, "/nonexistent/rasd.conf", collect, NULL), -2,
		   "missing file is -ENOENT for the caller to judge");
	tap_is_int(c.buffer_size_kb, 64, "value kept");
	tap_is_int(rasd_config_set(&c, "log_uncorrected_per_minute", "1000001", &why), -22,
		   "log_uncorrected_per_minute above 1000000 refused");
	tap_is_int(rasd_config_set(&c, "log_uncorrected_per_minute", "many", &why), -22,
		   "log_uncorrected_per_minute not a number refused");
	tap_is_int(c.log_uncorrected_per_minute, 600, "its default kept");
	tap_is_int(rasd_config_set(&c, "log_uncorrected_per_minute", "0", &why), 0,
		   "log_uncorrected_per_minute 0 (no such lines) accepted");
	tap_is_str(c.events, "all", "events default to all");
}

/* The threshold and action keys: defaults, accepted and refused values. */
static void test_actions_keys(void)
{
	struct rasd_config c;
	const char *why = NULL;

	rasd_config_defaults(&c);
	tap_is_str(c.page_ce_threshold, "50/24h", "page_ce_threshold defaults to rasdaemon's 50 per 24h");
	tap_is_str(c.page_ce_action, "account", "page_ce_action defaults to account");
	tap_is_str(c.cpu_ce_threshold, "18/24h", "cpu_ce_threshold defaults to rasdaemon's 18 per 24h");
	tap_is_str(c.cpu_ce_action, "account", "cpu_ce_action defaults to account");
	tap_ok(!c.dry_run && !c.synthetic_actions && !c.memory_repair, "dry_run, synthetic_actions, memory_repair off");
	tap_is_int(c.trigger_timeout_s, 30, "trigger_timeout_s 30");
	tap_is_int(c.trigger_max_children, 4, "trigger_max_children 4");
	tap_is_int(rasd_config_set(&c, "page_ce_threshold", "10 / 24h", &why), 0, "'10 / 24h' accepted");
	tap_is_int(rasd_config_set(&c, "page_ce_threshold", "10", &why), -22, "a count without period refused");
	tap_is_str(why, "expected count/period (10/24h, 3/1h) or off", "with the reason");
	tap_is_int(rasd_config_set(&c, "dimm_ce_threshold", "off", &why), 0, "off accepted");
	tap_is_int(rasd_config_set(&c, "page_ce_action", "soft-then-hard", &why), 0, "soft-then-hard accepted");
	tap_is_int(rasd_config_set(&c, "page_ce_action", "offline", &why), -22, "offline is no page action");
	tap_is_int(rasd_config_set(&c, "cpu_ce_action", "offline", &why), 0, "cpu offline accepted");
	tap_is_int(rasd_config_set(&c, "cpu_ce_action", "soft", &why), -22, "soft is no CPU action");
	tap_is_int(rasd_config_set(&c, "trigger_dir", "triggers", &why), -22, "a relative trigger_dir refused");
	tap_is_int(rasd_config_set(&c, "trigger_max_children", "0", &why), -22, "trigger_max_children 0 refused");
}

/* The storage keys of group commits and storm folding: defaults, accepted and refused values. */
static void test_storage_keys(void)
{
	struct rasd_config c;
	const char *why = NULL;

	rasd_config_defaults(&c);
	tap_is_int(c.commit_delay_ms, 65, "commit_delay_ms defaults to 65");
	tap_is_str(c.fold_threshold, "100/1h", "fold_threshold defaults to 100/1h");
	tap_is_int(c.fold_keep, 10, "fold_keep defaults to 10");
	tap_is_int(rasd_config_set(&c, "commit_delay_ms", "0", &why), 0, "commit_delay_ms 0 accepted");
	tap_is_int(rasd_config_set(&c, "commit_delay_ms", "1001", &why), -22, "commit_delay_ms past 1 s refused");
	tap_is_int(rasd_config_set(&c, "commit_delay_ms", "5abc", &why), -22, "commit_delay_ms '5abc' refused");
	tap_is_int(rasd_config_set(&c, "fold_threshold", "off", &why), 0, "fold_threshold off accepted");
	tap_is_int(rasd_config_set(&c, "fold_threshold", "100", &why), -22, "fold_threshold without a period refused");
	tap_is_int(rasd_config_set(&c, "fold_keep", "0", &why), -22, "fold_keep 0 refused");
	tap_is_int(rasd_config_set(&c, "keep_raw_days", "-1", &why), -22, "keep_raw_days -1 refused");
	tap_is_int(rasd_config_set(&c, "max_db_size_mb", "1e3", &why), -22, "max_db_size_mb '1e3' refused");
	tap_is_int(rasd_config_set(&c, "max_db_size_mb", "0", &why), 0, "max_db_size_mb 0 (no limit) accepted");
}

int main(void)
{
	test_good();
	test_bad();
	test_set();
	test_actions_keys();
	test_storage_keys();
	return tap_done();
}
