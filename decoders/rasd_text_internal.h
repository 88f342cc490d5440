/* SPDX-License-Identifier: MIT */
/* The rasdaemon text parser's state and helpers, shared by rasd_text.c and rasd_text_mce.c. */
#ifndef RAS_RASD_TEXT_INTERNAL_H
#define RAS_RASD_TEXT_INTERNAL_H

#include <stdbool.h>
#include "rasd_text.h"

struct rasd_parser {
	int (*on_record)(void *ctx, const struct rasd_text_rec *rec, unsigned line);
	void (*on_error)(void *ctx, unsigned line, const char *reason);
	void *ctx;
	unsigned line;
	int count, stop;
	bool in_error_count;      /* after the "Label CE UE" header of --error-count */
	struct rasd_text_rec rec;
};

/* Reports a recognised but malformed line. */
void rasd_refuse(struct rasd_parser *p, const char *reason);
/* Hands p->rec over as a record of kind; form names rasdaemon's output. */
void rasd_emit(struct rasd_parser *p, enum rasd_text_kind kind, const char *form);
/* Sets note i to s[0..n) without trailing spaces and commas; nothing if empty. */
void rasd_note(struct rasd_parser *p, unsigned i, const char *key, const char *s, size_t n);
/* "<id> " at the start of a ras-mc-ctl row: its end, or NULL. */
const char *rasd_row_id(const char *s);
/* After "<event>[:] [LEVEL] ": the end of the timestamp (its start in *stamp), or NULL. */
const char *rasd_journal_start(const char *line, const char *event, const char **stamp);
/* True if name (may be NULL) is exactly s[0..n). */
bool rasd_name_is(const char *name, const char *s, size_t n);

/* ras-mc-ctl --errors MCE rows and mce_record log lines (rasd_text_mce.c). */
bool rasd_mce_row(struct rasd_parser *p, const char *line);
bool rasd_journal_mce(struct rasd_parser *p, const char *line);
/* Extlog, devlink, disk and memory failure rows and log lines (rasd_text_other.c). */
bool rasd_other_line(struct rasd_parser *p, const char *line);

#endif
