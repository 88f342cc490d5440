/* SPDX-License-Identifier: MIT */
/*
 * What killed a boot, read off the kernel log it left: the reason line (the
 * panic's "Kernel panic - not syncing: ...", else the line that started it:
 * an Oops, a BUG, a watchdog), its class, and the hardware-error lines
 * ("[Hardware Error]", machine checks, EDAC, AER, memory failure, NMI
 * reasons). Lines are fed in log order, oldest first; the words matched are
 * the kernel's own messages (arch/x86/kernel/cpu/mce/core.c mce_panic(),
 * kernel/hung_task.c, kernel/watchdog*.c, arch/x86/kernel/nmi.c,
 * mm/oom_kill.c, arch/x86/kernel/dumpstack.c, lib/bug.c).
 */
#ifndef LW_CAUSE_H
#define LW_CAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dmesg.h"

enum lw_cause {
	LW_CAUSE_UNKNOWN,      /* no line says why */
	LW_CAUSE_MCE,          /* a fatal machine check */
	LW_CAUSE_OOPS,         /* an Oops: page fault, general protection fault, invalid opcode */
	LW_CAUSE_BUG,          /* BUG()/BUG_ON() ("kernel BUG at"), or another "BUG:" */
	LW_CAUSE_HUNG_TASK,    /* hung_task_panic */
	LW_CAUSE_SOFT_LOCKUP,  /* softlockup_panic */
	LW_CAUSE_HARD_LOCKUP,  /* the NMI watchdog's hard lockup */
	LW_CAUSE_NMI,          /* an NMI the kernel would not continue from */
	LW_CAUSE_OOM,          /* panic_on_oom, or nothing left to kill */
	LW_CAUSE_PANIC,        /* another panic (a driver's, sysrq-c, no init...) */
	LW_CAUSE_SHUTDOWN,     /* a dump at a restart, halt or power-off: not a crash */
	LW_CAUSE_COUNT
};

/* Stable key ("mce", "oops", "hung_task", ...) for the database, JSON and metrics. */
const char *lw_cause_name(enum lw_cause c);
/* Words for a sentence: "a fatal machine check", "an Oops", ... */
const char *lw_cause_words(enum lw_cause c);
/* The key back to the class; LW_CAUSE_UNKNOWN for an unknown key. */
enum lw_cause lw_cause_parse(const char *name);
/* Every class but a shutdown dump is a crash. */
bool lw_cause_is_crash(enum lw_cause c);

#define LW_REASON_MAX 512
#define LW_HW_MAX 8192
#define LW_HW_LINES_MAX 64

struct lw_analysis {
	enum lw_cause cause;
	char reason[LW_REASON_MAX];   /* the panic line, else the first line of the cause */
	int64_t reason_uptime_ns;     /* its timestamp, -1 when not known */
	char detail[LW_REASON_MAX];   /* the line that started it when the reason is the panic */
	char hw[LW_HW_MAX];           /* hardware-error lines, '\n' after each, in log order */
	size_t hw_len;
	unsigned hw_lines, hw_dropped;
	bool hw_serious;              /* one says uncorrected or fatal: a hardware error that can kill */
	unsigned lines;
	/* While reading: the first line that names a cause, and the panic's. */
	enum lw_cause hint;
	int64_t hint_uptime_ns;
	bool have_panic, hw_mce;
	enum lw_cause panic_cause;
	int64_t panic_uptime_ns;
	char panic[LW_REASON_MAX];
};

void lw_analysis_init(struct lw_analysis *a);
void lw_analysis_line(struct lw_analysis *a, const struct lw_line *l);
/* After the last line: decides, with the dump's header reason ("Panic", "Oops"...; "" none). */
void lw_analysis_finish(struct lw_analysis *a, const char *dump_reason);

#endif
