/* SPDX-License-Identifier: MIT */
/*
 * rasd/reload.c at SIGHUP: a reload that changes what a crossing does
 * (dry_run, an action, a threshold) logs every action setting now in force,
 * once; a reload that changes none of them logs nothing about them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rasd/reload.h"
#include "tests/tap.h"
#include "tests/test_util.h"

static FILE *captured;

/* Everything logged since the last call, from the file stderr points at. */
static const char *take_stderr(void)
{
	static char buf[1 << 16];
	size_t n;

	fflush(stderr);
	rewind(captured);
	n = fread(buf, 1, sizeof(buf) - 1, captured);
	buf[n] = '\0';
	if (ftruncate(fileno(captured), 0) < 0)
		buf[0] = '\0';
	rewind(captured);
	return buf;
}

/* The last occurrence of needle in s, or NULL. */
static const char *strrstr_last(const char *s, const char *needle)
{
	const char *last = NULL;

	for (const char *p = s; (p = strstr(p, needle)); p++)
		last = p;
	return last;
}

static void no_error(void *ctx, const char *file, unsigned line, const char *reason)
{
	(void)ctx;
	tap_diag("%s:%u: %s", file, line, reason);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	char dir[256], conf[512];
	struct rasd_options opt = { 0 };
	struct rasd_config running;
	const char *out;

	captured = tmpfile();
	if (!captured || dup2(fileno(captured), STDERR_FILENO) < 0)
		return 99;
	setvbuf(stderr, NULL, _IONBF, 0);
	test_tmpdir(dir, sizeof(dir));
	snprintf(conf, sizeof(conf), "%s/rasd.conf", dir);
	opt.config_path = conf;
	write_file(conf, "page_ce_action = soft\ncpu_ce_action = offline\n");
	rasd_config_defaults(&running);
	rasd_config_load(&running, conf, no_error, NULL);
	take_stderr();

	write_file(conf, "page_ce_action = soft\ncpu_ce_action = offline\ndry_run = yes\n");
	tap_ok(rasd_reload_config(&running, &opt), "a reload turning dry_run on is taken");
	out = take_stderr();
	tap_ok(strstr(out, "actions now in force: dry_run=yes; page_ce_action=soft at 50/24h;"
		      " cpu_ce_action=offline at 18/24h;") != NULL,
	       "it logs dry_run and each action now in force (%s)", out);
	tap_ok(running.dry_run, "and dry_run is on");

	write_file(conf, "page_ce_action = soft\ncpu_ce_action = offline\ndry_run = yes\n"
		   "log_corrected_per_minute = 20\n");
	tap_ok(rasd_reload_config(&running, &opt), "a reload changing no action setting");
	out = take_stderr();
	tap_ok(!strstr(out, "actions now in force"), "logs no action settings (%s)", out);

	write_file(conf, "page_ce_action = hard\ncpu_ce_action = offline\ndry_run = no\n"
		   "page_ce_threshold = 5/1h\n");
	tap_ok(rasd_reload_config(&running, &opt), "a reload turning dry_run off and the page action to hard");
	out = take_stderr();
	tap_ok(strstr(out, "actions now in force: dry_run=no; page_ce_action=hard at 5/1h;") != NULL,
	       "logs the new settings (%s)", out);
	tap_ok(strstr(out, "actions now in force") == strrstr_last(out, "actions now in force"),
	       "once");
	test_rmtree(dir);
	return tap_done();
}
