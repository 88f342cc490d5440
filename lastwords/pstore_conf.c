/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "pstore_conf.h"

void lw_pstore_conf_init(struct lw_pstore_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->unlink = -1;
	c->storage = LW_PSTORE_UNSET;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Trims s[0..*n) in place of the pointer and length. */
static const char *trim(const char *s, size_t *n)
{
	while (*n && is_space(*s)) {
		s++;
		(*n)--;
	}
	while (*n && is_space(s[*n - 1]))
		(*n)--;
	return s;
}

static bool equals_ci(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);

	if (n != w)
		return false;
	for (size_t i = 0; i < n; i++) {
		char a = s[i];

		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (a != word[i])
			return false;
	}
	return true;
}

/* systemd's parse_boolean(): 1, yes, y, true, t, on; 0, no, n, false, f, off. */
static int parse_bool(const char *v, size_t n)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (equals_ci(v, n, yes[i]))
			return 1;
		if (equals_ci(v, n, no[i]))
			return 0;
	}
	return -1;
}

static void apply(struct lw_pstore_conf *c, const char *k, size_t kn, const char *v, size_t vn)
{
	if (kn == 6 && !memcmp(k, "Unlink", 6)) {
		int b = parse_bool(v, vn);

		if (b < 0)
			c->bad_lines++;
		else
			c->unlink = b;
	} else if (kn == 7 && !memcmp(k, "Storage", 7)) {
		if (vn == 4 && !memcmp(v, "none", 4))
			c->storage = LW_PSTORE_NONE;
		else if (vn == 8 && !memcmp(v, "external", 8))
			c->storage = LW_PSTORE_EXTERNAL;
		else if (vn == 7 && !memcmp(v, "journal", 7))
			c->storage = LW_PSTORE_JOURNAL;
		else
			c->bad_lines++;
	}
}

void lw_pstore_conf_parse(const char *text, size_t len, struct lw_pstore_conf *c)
{
	bool in_section = false;
	size_t pos = 0;

	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos), *eq;
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		pos += n + (nl ? 1 : 0);
		line = trim(line, &n);
		if (!n || line[0] == '#' || line[0] == ';')
			continue;
		if (line[0] == '[') {
			in_section = n == 8 && !memcmp(line, "[PStore]", 8);
			continue;
		}
		eq = memchr(line, '=', n);
		if (!in_section || !eq)
			continue;
		size_t kn = (size_t)(eq - line), vn = n - kn - 1;
		const char *k = trim(line, &kn), *v = trim(eq + 1, &vn);

		apply(c, k, kn, v, vn);
	}
}

bool lw_pstore_conf_removes(const struct lw_pstore_conf *c)
{
	if (c->storage == LW_PSTORE_NONE)
		return false;
	return c->unlink != 0;
}
