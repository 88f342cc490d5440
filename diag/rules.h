/* SPDX-License-Identifier: MIT */
/*
 * The verdict rules: one table, each rule a condition on a part's state, a
 * configurable verdict (ok, watch, replace, or off) and, for a rate, a
 * configurable "count/period". A part's verdict is the highest its fired
 * rules give; the first of those in the table is the rule that decided it.
 * rasd.conf(5) lists every rule, its default and where it comes from:
 * published field studies, or our own judgement. Pure: no I/O, no
 * allocation, no globals.
 */
#ifndef RAS_DIAG_RULES_H
#define RAS_DIAG_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cells.h"
#include "part.h"

enum diag_rule {
	DIAG_R_NONE,            /* nothing fired: ok */
	DIAG_R_MEM_UNCORRECTED,
	DIAG_R_CXL_REPLACE,
	DIAG_R_MEM_MULTI_RANK,
	DIAG_R_MEM_MULTI_BANK,
	DIAG_R_MEM_BANK,
	DIAG_R_MEM_ROW_COLUMN,
	DIAG_R_MEM_TRANSIENT,
	DIAG_R_MEM_STORM,
	DIAG_R_MEM_CELL,
	DIAG_R_CPU_FATAL,
	DIAG_R_CACHE_CORRECTED,
	DIAG_R_CPU_CORRECTED,
	DIAG_R_PCIE_FATAL,
	DIAG_R_PCIE_UNCORRECTED,
	DIAG_R_PCIE_LINK,
	DIAG_R_PCIE_CORRECTED,
	DIAG_R_DISK_MEDIUM,
	DIAG_R_DISK_ERRORS,
	DIAG_R_NIC_REPORTS,
	DIAG_R_MEM_LANE,        /* last: part->fired's bits keep their rules across versions */
	DIAG_R_N
};

/* A rule's verdict when configured off. */
#define DIAG_OFF (-1)

/* What a rate rule counts. */
enum diag_counts { DIAG_C_NONE, DIAG_C_CORRECTED, DIAG_C_MEDIUM, DIAG_C_RECORDS };

struct diag_rule_info {
	const char *name;       /* "mem-multi-bank"; rasd.conf key: health_rule_mem_multi_bank */
	unsigned kinds;         /* bit per enum diag_kind it applies to */
	int verdict;            /* default */
	uint32_t count;         /* rate rules: default count/period; 0: not a rate */
	int64_t period_ns;
	int slot;               /* rate rules: the part's bucket (diag_part.rate) */
	enum diag_counts counts;
	const char *source;     /* "published" or "judgement" */
	const char *when;       /* the condition, in words */
	const char *advice;     /* what to do about a part it decided */
};

/* Configured rules: verdict (DIAG_OFF: never fires) and a rate's threshold. */
struct diag_rule_conf {
	int verdict;
	uint32_t count;
	int64_t period_ns;
};

struct diag_rules {
	struct diag_rule_conf r[DIAG_R_N];
	uint8_t rates[DIAG_K_N][4];  /* each kind's rate rules, 0-terminated (from the table) */
	int64_t permanent_after_ns;  /* a fault's errors this far apart: permanent */
	unsigned wide_cells;         /* scattered cells that make a bank-wide or wider fault */
};

#define DIAG_PERMANENT_AFTER_NS (24LL * 3600 * 1000000000)
#define DIAG_WIDE_CELLS 4

const struct diag_rule_info *diag_rule_info(enum diag_rule r);
/* By name ("mem-multi-bank"); -1 when unknown. */
int diag_rule_find(const char *name);
void diag_rules_defaults(struct diag_rules *rules);

/*
 * Feeds the observation to the part's rate rules (after diag_part_count):
 * a bucket crossing its threshold fires its rule for good (part->fired).
 */
void diag_rules_observe(const struct diag_rules *rules, struct diag_part *p, const struct diag_obs *o);

struct diag_judgement {
	enum diag_verdict verdict;
	enum diag_rule rule;
	char why[320];
};

/*
 * The part's verdict now, from its counters, fired rules, link and (memory)
 * its classified cells (may be NULL). The rule and why say what decided it;
 * an ok part names the rule that found nothing worse (mem-cell) or none.
 * diag_decide then diag_why.
 */
void diag_judge(const struct diag_rules *rules, const struct diag_part *p,
		const struct diag_cells *cells, struct diag_judgement *out);

/* What a why adds after the deciding rule's evidence. */
enum diag_note { DIAG_NOTE_NONE, DIAG_NOTE_NO_COORDS, DIAG_NOTE_MISSING };

/*
 * A judgement without its words: the verdict and rule, and a copy of all the
 * words are made of (the part's counts, the deciding fault), so that they
 * can be written later, only when read (rasd judges every part a batch
 * touched at each commit and writes its row at most once a second).
 */
struct diag_decision {
	enum diag_verdict verdict;
	enum diag_rule rule;
	enum diag_note note;
	uint8_t missing;           /* DIAG_NOTE_MISSING: bit 0 rank, 1 bank, 2 row, 3 column */
	bool has_fault;            /* a fault's rule decided: fault is it */
	struct diag_fault fault;
	struct diag_part p;        /* the part as decided */
};

/* As diag_judge, without the words: no formatting, O(faults + rules) (O(cells) without a mode). */
void diag_decide(const struct diag_rules *rules, const struct diag_part *p,
		 const struct diag_cells *cells, struct diag_decision *out);
/* The words of a decision (rules: as decided; only a rate's count/period is read). */
void diag_why(const struct diag_rules *rules, const struct diag_decision *d, char *why, size_t len);

#endif
