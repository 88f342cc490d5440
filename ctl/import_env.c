/* SPDX-License-Identifier: MIT */
/*
 * An EnvironmentFile= reader following systemd.exec(5)'s description of the
 * syntax, one character at a time (import_env.h says what it accepts).
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "import_env.h"

struct text {
	char *p;
	size_t len, cap;
};

static int put(struct text *t, char c)
{
	if (t->len + 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char *p = realloc(t->p, cap);

		if (!p)
			return -ENOMEM;
		t->p = p;
		t->cap = cap;
	}
	t->p[t->len++] = c;
	t->p[t->len] = 0;
	return 0;
}

enum state { PRE_KEY, KEY, PRE_VALUE, VALUE, VALUE_ESCAPE, SINGLE, DOUBLE, DOUBLE_ESCAPE, COMMENT };

struct parser {
	enum state state;
	unsigned line, key_line;
	struct text key, value;
	size_t key_blank, value_blank;  /* where trailing blanks start; SIZE_MAX: none */
	bool has_value, hash;
	struct imp_env *env;
	size_t n, cap;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_newline(char c)
{
	return c == '\n' || c == '\r';
}

static bool valid_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* The entry read so far, with its trailing blanks cut and "export " taken off. */
static int finish(struct parser *p)
{
	struct imp_env *e;
	const char *key;

	if (p->key_blank != SIZE_MAX)
		p->key.p[p->key_blank] = 0;
	if (p->state == VALUE && p->value_blank != SIZE_MAX)
		p->value.p[p->value_blank] = 0;
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct imp_env *env = realloc(p->env, cap * sizeof(*env));

		if (!env)
			return -ENOMEM;
		p->env = env;
		p->cap = cap;
	}
	e = &p->env[p->n];
	memset(e, 0, sizeof(*e));
	e->line = p->key_line;
	key = p->key.p ? p->key.p : "";
	if (!strncmp(key, "export", 6) && is_blank(key[6])) {
		const char *name = key + 6;

		while (is_blank(*name))
			name++;
		if (valid_name(name)) {
			e->exported = true;
			key = name;
		}
	}
	e->key = strdup(key);
	e->value = p->has_value ? strdup(p->value.p ? p->value.p : "") : NULL;
	if (!e->key || (p->has_value && !e->value)) {
		free(e->key);
		free(e->value);
		return -ENOMEM;
	}
	e->bad_name = !valid_name(e->key);
	e->unquoted_hash = p->hash;
	p->n++;
	p->key.len = p->value.len = 0;
	if (p->key.p)
		p->key.p[0] = 0;
	if (p->value.p)
		p->value.p[0] = 0;
	p->has_value = p->hash = false;
	p->state = PRE_KEY;
	return 0;
}

/* A character of a value outside quotes: blanks at the end are dropped later. */
static int value_char(struct parser *p, char c)
{
	if (!is_blank(c))
		p->value_blank = SIZE_MAX;
	else if (p->value_blank == SIZE_MAX)
		p->value_blank = p->value.len;
	if (c == '#' && p->value.len && is_blank(p->value.p[p->value.len - 1]))
		p->hash = true;
	return put(&p->value, c);
}

/* The states of a value, from the '=' on. */
static int value_step(struct parser *p, char c)
{
	switch (p->state) {
	case PRE_VALUE:
		if (is_newline(c))
			return finish(p);
		if (c == '\'')
			p->state = SINGLE;
		else if (c == '"')
			p->state = DOUBLE;
		else if (c == '\\')
			p->state = VALUE_ESCAPE;
		else if (!is_blank(c)) {
			p->state = VALUE;
			p->value_blank = SIZE_MAX;
			return value_char(p, c);
		}
		return 0;
	case VALUE:
		if (is_newline(c))
			return finish(p);
		if (c == '\\') {
			p->state = VALUE_ESCAPE;
			p->value_blank = SIZE_MAX;
			return 0;
		}
		return value_char(p, c);
	case VALUE_ESCAPE:
		/* An escaped newline continues the line; any other character is kept as is. */
		p->state = VALUE;
		p->value_blank = SIZE_MAX;
		return is_newline(c) ? 0 : put(&p->value, c);
	case SINGLE:
		if (c == '\'') {
			p->state = PRE_VALUE;
			return 0;
		}
		return put(&p->value, c);
	case DOUBLE:
		if (c == '"' || c == '\\') {
			p->state = c == '"' ? PRE_VALUE : DOUBLE_ESCAPE;
			return 0;
		}
		return put(&p->value, c);
	default:  /* DOUBLE_ESCAPE */
		p->state = DOUBLE;
		if (strchr("\"\\`$", c))
			return put(&p->value, c);
		if (c == '\n')
			return 0;
		/* Like a shell: a backslash before another character stays. */
		return put(&p->value, '\\') < 0 ? -ENOMEM : put(&p->value, c);
	}
}

static int step(struct parser *p, char c)
{
	switch (p->state) {
	case PRE_KEY:
		if (c == '#' || c == ';')
			p->state = COMMENT;
		else if (!is_blank(c) && !is_newline(c)) {
			p->state = KEY;
			p->key_line = p->line;
			p->key_blank = SIZE_MAX;
			return put(&p->key, c);
		}
		return 0;
	case KEY:
		if (is_newline(c))
			return finish(p);
		if (c == '=') {
			p->state = PRE_VALUE;
			p->has_value = true;
			p->value_blank = SIZE_MAX;
			return 0;
		}
		if (!is_blank(c))
			p->key_blank = SIZE_MAX;
		else if (p->key_blank == SIZE_MAX)
			p->key_blank = p->key.len;
		return put(&p->key, c);
	case COMMENT:
		if (is_newline(c))
			p->state = PRE_KEY;
		return 0;
	default:
		return value_step(p, c);
	}
}

void imp_env_free(struct imp_env *env, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(env[i].key);
		free(env[i].value);
	}
	free(env);
}

int imp_env_parse(const char *text, struct imp_env **out, size_t *n)
{
	struct parser p = { .state = PRE_KEY, .line = 1, .key_blank = SIZE_MAX, .value_blank = SIZE_MAX };
	int r = 0;

	for (const char *c = text; *c && r == 0; c++) {
		r = step(&p, *c);
		if (*c == '\n')
			p.line++;
	}
	/* The last line without a newline. */
	if (r == 0 && p.state != PRE_KEY && p.state != COMMENT)
		r = finish(&p);
	free(p.key.p);
	free(p.value.p);
	if (r < 0) {
		imp_env_free(p.env, p.n);
		return r;
	}
	*out = p.env;
	*n = p.n;
	return 0;
}
