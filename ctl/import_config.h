/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl import-config: what a rasdaemon or mcelog settings file becomes.
 * A reader (import_rasdaemon.c, import_mcelog.c) reads the file the way its
 * program does and adds items to a struct imp: rasd.conf settings, trigger
 * programs to install under a condition name, settings not converted and
 * why, warnings and errors, each naming the lines it comes from. The command
 * (import_config.c) checks every setting with rasd's own parser and prints
 * the items as rasd.conf text or as JSON.
 */
#ifndef RAS_CTL_IMPORT_CONFIG_H
#define RAS_CTL_IMPORT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/config.h"

enum imp_kind {
	IMP_SET,        /* a rasd.conf line: key = value */
	IMP_TRIGGER,    /* a program to install as trigger_dir/<key> ("" key: no condition fits) */
	IMP_SKIP,       /* read from the file, not converted */
	IMP_WARN,       /* the result works, but something needs the operator's eye */
	IMP_ERROR,      /* an invalid value: nothing is printed but the errors, exit 1 */
};

/* Where an item comes from: a line of the file, or a key the file leaves out. */
#define IMP_SRC_MAX 4
struct imp_src {
	unsigned line;          /* 0: absent from the file; value is then the program's default */
	char *key;              /* PAGE_CE_ACTION, [page] memory-ce-action */
	char *value;            /* as the program reads it (quotes and escapes resolved) */
};

struct imp_item {
	enum imp_kind kind;
	char *key;              /* SET: rasd.conf key; TRIGGER: condition or "" */
	char *value;            /* SET: value; TRIGGER: the program as its daemon ran it, or "" */
	char *install;          /* TRIGGER: a command installing it, or NULL when no path is known */
	char *note;             /* why, and how rasd differs; may be NULL */
	struct imp_src src[IMP_SRC_MAX];
	unsigned n_src;
};

struct imp {
	const char *file;
	const char *format;             /* "rasdaemon" or "mcelog" */
	const char *dialect;            /* how the file was read, one line */
	const struct rasd_config *cfg;  /* ras-fdr-ctl's own: rasd's trigger_dir when none is imported */
	struct imp_item **items;     /* each allocated alone: a pointer to one stays valid */
	size_t n, cap;
	bool oom;
};

/* Readers. text is the whole file, modified in place. */
int imp_read_rasdaemon(struct imp *im, char *text);
int imp_read_mcelog(struct imp *im, char *text);

/* The model (import_model.c). Every function tolerates a failed allocation: im->oom. */
struct imp_item *imp_add(struct imp *im, enum imp_kind kind, const char *key, const char *value);
/* A setting of the file (line > 0) or a key it leaves out (line 0, value its default). */
void imp_from(struct imp *im, struct imp_item *it, unsigned line, const char *key, const char *value);
/* Appends a sentence to the item's note. */
void imp_note(struct imp *im, struct imp_item *it, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Shorthands: an item with one source and a note. */
struct imp_item *imp_skip(struct imp *im, unsigned line, const char *key, const char *value,
			  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
struct imp_item *imp_error(struct imp *im, unsigned line, const char *key, const char *value,
			   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
struct imp_item *imp_warn(struct imp *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The first SET or TRIGGER item with that key, or NULL. */
struct imp_item *imp_find(struct imp *im, enum imp_kind kind, const char *key);
bool imp_has_errors(const struct imp *im);
void imp_free(struct imp *im);

/*
 * A trigger program: program is the path its daemon ran (NULL or "" when it
 * cannot be told), exact whether that path is one the file wrote (an absolute
 * path, or an absolute directory and a name): only then is an install command
 * given. condition "" when rasd has none for it. Two programs for one
 * condition are reported, as rasd runs one.
 */
struct imp_item *imp_trigger(struct imp *im, const char *condition, const char *program, bool exact);
/*
 * Warns about each reason rasd would refuse a trigger in dir: the directory or
 * one above it missing, not a directory, not root's, or writable by others
 * (ras_dir_is_safe, lib/safe_path.c).
 */
void imp_check_trigger_dir(struct imp *im, const char *dir);
/* The directory rasd will look in: the imported trigger_dir, else ras-fdr-ctl's configured one. */
const char *imp_trigger_dir(struct imp *im);

/* "50/24h" from a count and a period in seconds; -ERANGE past what rasd takes. */
int imp_threshold_text(uint64_t count, uint64_t seconds, char *buf, size_t len);

#endif
