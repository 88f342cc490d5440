/* SPDX-License-Identifier: MIT */
/*
 * Trigger programs: trigger_dir/<condition> (page-threshold, dimm-threshold,
 * cpu-threshold, device-threshold, row-threshold; ce-rate-threshold and
 * poison-threshold, the machine-wide warnings, rasd/actions_stats.c;
 * uncorrected, lost-records,
 * verdict-change: a part's verdict changed, rasd/health.c; crash: at start, once
 * per crash of a previous boot found, rasd/lastwords.c)
 * run with fork + execve, the facts in their environment, stdout and stderr
 * to the log, a time limit and a cap on concurrent children. The daemon's
 * epoll loop watches each child's pidfd and output pipe and one timerfd;
 * nothing here ever blocks the reading loop.
 */
#ifndef RAS_TRIGGERS_H
#define RAS_TRIGGERS_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/config.h"

struct ras_triggers;

/* Epoll tags: tag_base | slot << 1 | (0 pidfd, 1 output); tag_base | 0xffff the timer. */
#define RAS_TRIGGER_TAG_MASK 0xffffULL

/* epfd < 0: no loop (rasd --once); children are waited for at close. */
int ras_triggers_open(struct ras_triggers **out, const struct rasd_config *cfg, int epfd,
		      uint64_t tag_base);
/*
 * Whether trigger_dir/condition is an executable file that passes the rule of
 * lib/safe_path.h (so its environment is worth making): it and every
 * directory above it belong to root (or rasd's user), no one else can write
 * them, and none is a symbolic link. What the rule refuses is logged once
 * and kept for ras-fdr-ctl status (rasd/refusals.h), never run.
 * The answer of each condition is kept: within one read of the buffers
 * (ras_triggers_new_read), "not installed" as it is and "installed" while
 * trigger_dir is the same directory with the same owner, group, mode and
 * ctime (one lstat); into the next read while lstat shows trigger_dir and
 * trigger_dir/condition as the full check found them (inode, owner, group,
 * mode, ctime; or absent), so a trigger added, removed, replaced, chmod or
 * chown'd since the last read is seen by the next one's records. A refusal
 * is kept one read. ras_triggers_run always checks in full: a kept answer
 * only decides whether a run is prepared.
 */
bool ras_triggers_installed(struct ras_triggers *t, const char *condition);
/* A new read of the buffers: each kept answer is confirmed (two lstats) at its next question. */
void ras_triggers_new_read(struct ras_triggers *t);
/* Full checks by the rule made so far (each a walk of trigger_dir from /). */
unsigned long ras_triggers_checks(const struct ras_triggers *t);
/*
 * Runs trigger_dir/condition when it passes the rule, with env ("NAME=value",
 * NULL-terminated): the file checked is the file run (rasd/triggers.c). 0
 * started, -ENOENT none, -EPERM or -ELOOP refused, -EBUSY at the cap
 * (logged), or -errno.
 */
int ras_triggers_run(struct ras_triggers *t, const char *condition, char *const env[]);
/* Checks every condition's trigger (at start and reload): refusals are said now. */
void ras_triggers_check_all(struct ras_triggers *t);
/* An epoll event carrying one of our tags. */
void ras_triggers_handle(struct ras_triggers *t, uint64_t tag);
/* Waits for running children (each up to its time limit), then frees. */
void ras_triggers_close(struct ras_triggers *t);

#endif
