/* SPDX-License-Identifier: MIT */
/*
 * What rasd refused to run or write because its path failed the rule of
 * lib/safe_path.h: trigger_dir, a trigger, the metrics textfile. Each is
 * logged once, again only when its reason changes (and at most 10 such lines
 * a minute), and kept until the same thing passes, so that the state file
 * (rasd/storage.c) carries it to ras-fdr-ctl status, which then exits 3. A
 * storm of records meeting one refusal logs nothing more.
 */
#ifndef RASD_REFUSALS_H
#define RASD_REFUSALS_H

#include <stdbool.h>
#include <stddef.h>

/* what: "trigger page-threshold", "trigger_dir", "metrics_textfile". */
void rasd_refuse(const char *what, const char *why);
/* what passes the rule again (or is gone): no longer refused. */
void rasd_refusal_clear(const char *what);
/* "refused=WHAT: WHY\n" per refusal, for the state file; the length written. */
size_t rasd_refusals_text(char *buf, size_t len);
/* Whether the set changed since the last call. */
bool rasd_refusals_changed(void);

#endif
