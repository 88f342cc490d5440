/* SPDX-License-Identifier: MIT */
/* The export cursor's content (export_cursor.h): parsed, rendered, and which database it follows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export_cursor.h"

const char *cursor_key_name(unsigned k)
{
	static const char *const extra[] = { "lost", "action", "fold", "action_repeat" };

	if (k < ras_n_event_types)
		return ras_event_types[k].table;
	if (k >= KEY_LOST && k < CURSOR_KEYS)
		return extra[k - KEY_LOST];
	return NULL;
}

int cursor_key_index(const char *name)
{
	for (unsigned k = 0; k < CURSOR_KEYS; k++)
		if (cursor_key_name(k) && !strcmp(cursor_key_name(k), name))
			return (int)k;
	return -1;
}

void cursor_init(struct cursor *c)
{
	memset(c, 0, sizeof(*c));
	c->n = 1;
	c->legacy = true;
}

/* "db ID key=N key=N ...": one database's position. */
static void parse_db(struct cursor *c, const char *line)
{
	struct export_position *p;
	char word[128], name[96];
	int used;
	long long v;

	if (!c->legacy && c->n >= CURSOR_DBS)
		return;
	p = c->legacy ? &c->pos[0] : &c->pos[c->n++];
	/* A legacy cursor's "TABLE N" lines seen so far give way to the db lines. */
	memset(p, 0, sizeof(*p));
	c->legacy = false;
	if (sscanf(line, "db %47s%n", p->db, &used) != 1)
		return;
	if (!strcmp(p->db, "-"))
		p->db[0] = 0;
	for (line += used; sscanf(line, " %127s%n", word, &used) == 1; line += used) {
		int k;

		if (sscanf(word, "%95[^=]=%lld", name, &v) == 2 && (k = cursor_key_index(name)) >= 0)
			p->last[k] = v;
	}
}

void cursor_parse_line(struct cursor *c, const char *line)
{
	char name[128];
	long long v;
	int k;

	if (sscanf(line, "output %llu %llu %lld", &c->dev, &c->ino, &c->offset) == 3)
		return;
	if (!strncmp(line, "state running", 13))
		c->running = true;
	else if (!strncmp(line, "db ", 3))
		parse_db(c, line);
	else if (c->legacy && sscanf(line, "%127s %lld", name, &v) == 2 &&
		 (k = cursor_key_index(name)) >= 0)
		c->pos[0].last[k] = v;
}

static size_t render_db(const struct export_position *p, char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "db %s", p->db[0] ? p->db : "-");

	for (unsigned k = 0; k < CURSOR_KEYS && n < cap; k++)
		if (cursor_key_name(k) && p->last[k] > 0)
			n += (size_t)snprintf(buf + n, cap - n, " %s=%lld", cursor_key_name(k),
					      (long long)p->last[k]);
	if (n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "\n");
	return n;
}

int cursor_render(const struct cursor *c, char *buf)
{
	size_t n = (size_t)snprintf(buf, CURSOR_PAGE,
				    "# ras-fdr-ctl export cursor: where the export of each database stopped\n"
				    "state %s\noutput %llu %llu %lld\n", c->running ? "running" : "clean",
				    c->dev, c->ino, c->offset);

	for (unsigned i = 0; i < c->n && n < CURSOR_PAGE; i++) {
		char line[CURSOR_PAGE];
		size_t len = render_db(&c->pos[i], line, sizeof(line));

		/* The oldest databases' positions go first when the page is full. */
		if (n + len >= CURSOR_PAGE - 1) {
			if (!i)
				return -ENOSPC;
			break;
		}
		memcpy(buf + n, line, len);
		n += len;
	}
	memset(buf + n, ' ', CURSOR_PAGE - 1 - n);
	buf[CURSOR_PAGE - 1] = '\n';
	return 0;
}

int cursor_select_db(struct cursor *c, const char *id, char *was, size_t len)
{
	struct export_position cur;
	unsigned i;

	snprintf(was, len, "%s", c->pos[0].db);
	if (c->legacy || !strcmp(c->pos[0].db, id)) {
		/* An earlier ras-fdr's cursor was made on the database it finds. */
		snprintf(c->pos[0].db, sizeof(c->pos[0].db), "%s", id);
		c->legacy = false;
		return 0;
	}
	for (i = 1; i < c->n && strcmp(c->pos[i].db, id); i++)
		;
	if (i < c->n) {
		cur = c->pos[i];
		memmove(&c->pos[1], &c->pos[0], i * sizeof(c->pos[0]));
		c->pos[0] = cur;
		return 1;
	}
	if (c->n < CURSOR_DBS)
		c->n++;
	memmove(&c->pos[1], &c->pos[0], (c->n - 1) * sizeof(c->pos[0]));
	memset(&c->pos[0], 0, sizeof(c->pos[0]));
	snprintf(c->pos[0].db, sizeof(c->pos[0].db), "%s", id);
	return 2;
}
