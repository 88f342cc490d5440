/* SPDX-License-Identifier: MIT */
/*
 * rasdaemon's settings file as rasdaemon 0.8.5 gets it: rasdaemon.service
 * loads it with systemd's EnvironmentFile=, whose syntax is systemd.exec(5)'s:
 * KEY=VALUE lines, # and ; comment lines, '...' literal and "..." escaped
 * quoting, a backslash escaping the next character (a newline: the line
 * goes on), blanks around the value dropped, the last assignment of a key
 * winning. A line "export KEY=VALUE" is a shell's: systemd ignores it (the
 * name holds a blank); a shell that sources the file exports KEY.
 */
#ifndef RAS_CTL_IMPORT_ENV_H
#define RAS_CTL_IMPORT_ENV_H

#include <stdbool.h>
#include <stddef.h>

struct imp_env {
	unsigned line;          /* where the key starts */
	char *key;              /* without a leading "export " */
	char *value;            /* NULL: the line has no '=' (systemd ignores it) */
	bool exported;          /* written "export KEY=VALUE" */
	bool bad_name;          /* not a variable name: systemd ignores the line */
	bool unquoted_hash;     /* an unquoted value holding " #": systemd keeps the rest as value */
};

/* Parses text; *out is an array of *n entries in file order. 0 or -ENOMEM. */
int imp_env_parse(const char *text, struct imp_env **out, size_t *n);
void imp_env_free(struct imp_env *env, size_t n);

#endif
