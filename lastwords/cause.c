/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "cause.h"

static const struct { const char *name, *words; } causes[LW_CAUSE_COUNT] = {
	[LW_CAUSE_UNKNOWN] = { "unknown", "a crash whose cause the log does not say" },
	[LW_CAUSE_MCE] = { "mce", "a fatal machine check" },
	[LW_CAUSE_OOPS] = { "oops", "a kernel Oops" },
	[LW_CAUSE_BUG] = { "bug", "a kernel BUG" },
	[LW_CAUSE_HUNG_TASK] = { "hung_task", "a hung task" },
	[LW_CAUSE_SOFT_LOCKUP] = { "soft_lockup", "a soft lockup" },
	[LW_CAUSE_HARD_LOCKUP] = { "hard_lockup", "a hard lockup (NMI watchdog)" },
	[LW_CAUSE_NMI] = { "nmi", "an unrecovered NMI" },
	[LW_CAUSE_OOM] = { "oom", "an out-of-memory panic" },
	[LW_CAUSE_PANIC] = { "panic", "a kernel panic" },
	[LW_CAUSE_SHUTDOWN] = { "shutdown", "a restart or power-off (not a crash)" },
};

const char *lw_cause_name(enum lw_cause c)
{
	return c < LW_CAUSE_COUNT ? causes[c].name : causes[LW_CAUSE_UNKNOWN].name;
}

const char *lw_cause_words(enum lw_cause c)
{
	return c < LW_CAUSE_COUNT ? causes[c].words : causes[LW_CAUSE_UNKNOWN].words;
}

enum lw_cause lw_cause_parse(const char *name)
{
	for (unsigned i = 0; i < LW_CAUSE_COUNT; i++)
		if (!strcmp(causes[i].name, name))
			return (enum lw_cause)i;
	return LW_CAUSE_UNKNOWN;
}

bool lw_cause_is_crash(enum lw_cause c)
{
	return c != LW_CAUSE_SHUTDOWN;
}

/* Whether word occurs in s[0..n); case-insensitive when fold. */
static bool has(const char *s, size_t n, const char *word, bool fold)
{
	size_t w = strlen(word);

	for (size_t i = 0; w && i + w <= n; i++) {
		size_t k = 0;

		while (k < w) {
			char a = s[i + k], b = word[k];

			if (fold && a >= 'A' && a <= 'Z')
				a = (char)(a - 'A' + 'a');
			if (a != b)
				break;
			k++;
		}
		if (k == w)
			return true;
	}
	return false;
}

static bool starts(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);

	return n >= w && !memcmp(s, word, w);
}

#define PANIC_PREFIX "Kernel panic - not syncing: "

/* What the panic's own message says (the words panic() was given). */
static enum lw_cause panic_message_cause(const char *m, size_t n)
{
	if (has(m, n, "machine check", true) || has(m, n, "Not all CPUs entered broadcast exception", false) ||
	    starts(m, n, "MCE"))
		return LW_CAUSE_MCE;
	if (has(m, n, "hung_task", false))
		return LW_CAUSE_HUNG_TASK;
	if (has(m, n, "softlockup", false) || has(m, n, "soft lockup", true))
		return LW_CAUSE_SOFT_LOCKUP;
	if (has(m, n, "hard lockup", true) || has(m, n, "hardlockup", false))
		return LW_CAUSE_HARD_LOCKUP;
	if (has(m, n, "NMI", false))
		return LW_CAUSE_NMI;
	if (has(m, n, "out of memory", true) || has(m, n, "deadlocked on memory", false) ||
	    has(m, n, "panic_on_oom", false))
		return LW_CAUSE_OOM;
	if (has(m, n, "Fatal exception", false) || has(m, n, "Oops", false))
		return LW_CAUSE_OOPS;
	return LW_CAUSE_PANIC;
}

/* The cause a line before the panic names, if any: the first such line is the root. */
static enum lw_cause line_hint(const char *s, size_t n)
{
	if (has(s, n, "Machine Check Exception", false) || starts(s, n, "Machine check: ") ||
	    has(s, n, "Fatal machine check", false) || has(s, n, "Machine check from unknown source", false))
		return LW_CAUSE_MCE;
	if (has(s, n, "kernel BUG at ", false))
		return LW_CAUSE_BUG;
	if (has(s, n, "BUG: soft lockup", false))
		return LW_CAUSE_SOFT_LOCKUP;
	if (has(s, n, "hard LOCKUP", false))
		return LW_CAUSE_HARD_LOCKUP;
	if (starts(s, n, "INFO: task ") && has(s, n, "blocked for more than", false))
		return LW_CAUSE_HUNG_TASK;
	if (starts(s, n, "BUG: unable to handle") || starts(s, n, "BUG: kernel NULL pointer dereference") ||
	    starts(s, n, "BUG: kernel paging request"))
		return LW_CAUSE_OOPS;
	if (starts(s, n, "BUG: "))
		return LW_CAUSE_BUG;
	if (starts(s, n, "Oops: ") || starts(s, n, "general protection fault") ||
	    starts(s, n, "invalid opcode: ") || has(s, n, "Internal error: Oops", false) ||
	    starts(s, n, "Unable to handle kernel"))
		return LW_CAUSE_OOPS;
	if (starts(s, n, "Uhhuh. NMI received") || starts(s, n, "NMI: PCI system error") ||
	    starts(s, n, "NMI: IOCK error"))
		return LW_CAUSE_NMI;
	return LW_CAUSE_UNKNOWN;
}

/*
 * A line about a hardware error: the kernel's "[Hardware Error]" prefix,
 * machine checks, memory failure, NMI reasons; EDAC and AER lines only when
 * they report an error (not "EDAC MC: Ver: 3.0.0", "AER: enabled with IRQ").
 */
static bool hardware_line(const char *s, size_t n)
{
	static const char *const words[] = {
		"[Hardware Error]", "Machine check", "Machine Check", "machine check", "PCIe Bus Error",
		"Memory failure", "NMI: PCI system error", "NMI: IOCK error", "Uhhuh. NMI",
	};

	if (starts(s, n, "mce: "))
		return true;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (has(s, n, words[i], false))
			return true;
	return (has(s, n, "EDAC ", false) || has(s, n, "AER: ", false)) && has(s, n, "error", true);
}

/* The line as dmesg shows it: "[  123.456789] text" (no timestamp: the text). */
static void format_line(char *out, size_t len, const struct lw_line *l)
{
	int text = l->len > 4000 ? 4000 : (int)l->len;

	if (l->uptime_ns >= 0)
		snprintf(out, len, "[%5lld.%06lld] %.*s", (long long)(l->uptime_ns / 1000000000),
			 (long long)(l->uptime_ns % 1000000000 / 1000), text, l->text);
	else
		snprintf(out, len, "%.*s", text, l->text);
}

/* A hardware error that can kill: uncorrected, fatal, a machine-check exception, a bus error NMI. */
static bool serious_line(const char *s, size_t n)
{
	return has(s, n, "uncorrect", true) || has(s, n, "fatal", true) ||
	       has(s, n, "Machine Check Exception", false) || has(s, n, "context corrupt", false) ||
	       has(s, n, "NMI: PCI system error", false) || has(s, n, "NMI: IOCK error", false);
}

static void add_hardware_line(struct lw_analysis *a, const struct lw_line *l)
{
	char line[LW_REASON_MAX];
	size_t n;

	a->hw_serious |= serious_line(l->text, l->len);
	format_line(line, sizeof(line), l);
	n = strlen(line);
	if (a->hw_lines >= LW_HW_LINES_MAX || a->hw_len + n + 2 > sizeof(a->hw)) {
		a->hw_dropped++;
		return;
	}
	memcpy(a->hw + a->hw_len, line, n);
	a->hw_len += n;
	a->hw[a->hw_len++] = '\n';
	a->hw[a->hw_len] = 0;
	a->hw_lines++;
}

/*
 * Whether a line naming hint becomes the cause: the first line of a report is
 * its root ("kernel BUG at" before its "invalid opcode"), so a line within a
 * second of the cause's is part of the same report; a later one is a new
 * event (an early warning is not what a later panic came from). A fatal
 * machine check outranks the rest.
 */
static bool takes_over(const struct lw_analysis *a, enum lw_cause hint, int64_t uptime_ns)
{
	if (a->hint == LW_CAUSE_UNKNOWN)
		return true;
	if (a->hint == LW_CAUSE_MCE || hint == LW_CAUSE_MCE)
		return hint == LW_CAUSE_MCE && a->hint != LW_CAUSE_MCE;
	return uptime_ns >= 0 && a->hint_uptime_ns >= 0 && uptime_ns - a->hint_uptime_ns > 1000000000;
}

void lw_analysis_init(struct lw_analysis *a)
{
	memset(a, 0, sizeof(*a));
	a->reason_uptime_ns = a->hint_uptime_ns = a->panic_uptime_ns = -1;
}

void lw_analysis_line(struct lw_analysis *a, const struct lw_line *l)
{
	enum lw_cause hint;

	a->lines++;
	if (hardware_line(l->text, l->len))
		add_hardware_line(a, l);
	/* The first panic is the one that ended the boot: a second one is its echo. */
	if (!a->have_panic && starts(l->text, l->len, PANIC_PREFIX)) {
		a->have_panic = true;
		a->panic_cause = panic_message_cause(l->text + strlen(PANIC_PREFIX),
						     l->len - strlen(PANIC_PREFIX));
		a->panic_uptime_ns = l->uptime_ns;
		format_line(a->panic, sizeof(a->panic), l);
		return;
	}
	if (a->have_panic)
		return;
	hint = line_hint(l->text, l->len);
	if (hint != LW_CAUSE_UNKNOWN && takes_over(a, hint, l->uptime_ns)) {
		a->hint = hint;
		a->hint_uptime_ns = l->uptime_ns;
		format_line(a->detail, sizeof(a->detail), l);
	}
	a->hw_mce |= hint == LW_CAUSE_MCE;
}

/* A dump taken at a restart, halt or power-off rather than at a panic or an oops. */
static bool shutdown_dump(const char *reason)
{
	static const char *const words[] = {
		"Emergency", "Shutdown", "Restart", "Halt", "Poweroff", "Kexec",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(reason, words[i]))
			return true;
	return false;
}

/* A panic whose message is generic (Fatal exception, other) takes the cause the lines before named. */
static enum lw_cause with_panic(const struct lw_analysis *a)
{
	if (a->panic_cause == LW_CAUSE_OOPS)
		return a->hint != LW_CAUSE_UNKNOWN ? a->hint : LW_CAUSE_OOPS;
	if (a->panic_cause == LW_CAUSE_PANIC && a->hint != LW_CAUSE_UNKNOWN)
		return a->hint;
	return a->panic_cause;
}

void lw_analysis_finish(struct lw_analysis *a, const char *dump_reason)
{
	const char *r = dump_reason ? dump_reason : "";

	if (a->have_panic) {
		a->cause = with_panic(a);
		snprintf(a->reason, sizeof(a->reason), "%s", a->panic);
		a->reason_uptime_ns = a->panic_uptime_ns;
		if (a->hint == LW_CAUSE_UNKNOWN)
			a->detail[0] = 0;
		return;
	}
	/* The whole log of a boot that ended normally: its warnings are not a crash. */
	if (shutdown_dump(r))
		a->cause = LW_CAUSE_SHUTDOWN;
	else if (a->hint != LW_CAUSE_UNKNOWN)
		a->cause = a->hint;
	else if (!strcmp(r, "Oops"))
		a->cause = LW_CAUSE_OOPS;
	else if (!strcmp(r, "Panic"))
		a->cause = LW_CAUSE_PANIC;
	else
		a->cause = LW_CAUSE_UNKNOWN;
	/* Without a panic line the line that named the cause is the reason. */
	snprintf(a->reason, sizeof(a->reason), "%s", a->detail);
	a->reason_uptime_ns = a->hint_uptime_ns;
	a->detail[0] = 0;
}
