/* SPDX-License-Identifier: MIT */
/*
 * import-config's model: the items a reader adds, trigger programs and the
 * safety of the trigger directory they go to. Nothing here reads the
 * settings file or prints.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "import_config.h"
#include "lib/safe_path.h"
#include "lib/threshold.h"

static char *dup_or_oom(struct imp *im, const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		im->oom = true;
	return d;
}

struct imp_item *imp_add(struct imp *im, enum imp_kind kind, const char *key, const char *value)
{
	struct imp_item *it;

	if (im->n == im->cap) {
		size_t cap = im->cap ? im->cap * 2 : 32;
		struct imp_item **items = realloc(im->items, cap * sizeof(*items));

		if (!items) {
			im->oom = true;
			return NULL;
		}
		im->items = items;
		im->cap = cap;
	}
	it = calloc(1, sizeof(*it));
	if (!it) {
		im->oom = true;
		return NULL;
	}
	im->items[im->n++] = it;
	it->kind = kind;
	it->key = dup_or_oom(im, key ? key : "");
	it->value = dup_or_oom(im, value ? value : "");
	return it;
}

void imp_from(struct imp *im, struct imp_item *it, unsigned line, const char *key, const char *value)
{
	struct imp_src *s;

	if (!it || it->n_src == IMP_SRC_MAX)
		return;
	s = &it->src[it->n_src++];
	s->line = line;
	s->key = dup_or_oom(im, key);
	s->value = dup_or_oom(im, value ? value : "");
}

static void vnote(struct imp *im, struct imp_item *it, const char *fmt, va_list ap)
{
	char *add, *joined;

	if (!it)
		return;
	if (vasprintf(&add, fmt, ap) < 0) {
		im->oom = true;
		return;
	}
	if (!it->note) {
		it->note = add;
		return;
	}
	if (asprintf(&joined, "%s; %s", it->note, add) < 0) {
		im->oom = true;
		free(add);
		return;
	}
	free(it->note);
	free(add);
	it->note = joined;
}

void imp_note(struct imp *im, struct imp_item *it, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(im, it, fmt, ap);
	va_end(ap);
}

static struct imp_item *one_source(struct imp *im, enum imp_kind kind, unsigned line,
				   const char *key, const char *value, const char *fmt, va_list ap)
{
	struct imp_item *it = imp_add(im, kind, NULL, NULL);

	imp_from(im, it, line, key, value);
	vnote(im, it, fmt, ap);
	return it;
}

struct imp_item *imp_skip(struct imp *im, unsigned line, const char *key, const char *value,
			  const char *fmt, ...)
{
	struct imp_item *it;
	va_list ap;

	va_start(ap, fmt);
	it = one_source(im, IMP_SKIP, line, key, value, fmt, ap);
	va_end(ap);
	return it;
}

struct imp_item *imp_error(struct imp *im, unsigned line, const char *key, const char *value,
			   const char *fmt, ...)
{
	struct imp_item *it;
	va_list ap;

	va_start(ap, fmt);
	it = one_source(im, IMP_ERROR, line, key, value, fmt, ap);
	va_end(ap);
	return it;
}

struct imp_item *imp_warn(struct imp *im, const char *fmt, ...)
{
	struct imp_item *it = imp_add(im, IMP_WARN, NULL, NULL);
	va_list ap;

	va_start(ap, fmt);
	vnote(im, it, fmt, ap);
	va_end(ap);
	return it;
}

struct imp_item *imp_find(struct imp *im, enum imp_kind kind, const char *key)
{
	for (size_t i = 0; i < im->n; i++)
		if (im->items[i]->kind == kind && im->items[i]->key && !strcmp(im->items[i]->key, key))
			return im->items[i];
	return NULL;
}

bool imp_has_errors(const struct imp *im)
{
	for (size_t i = 0; i < im->n; i++)
		if (im->items[i]->kind == IMP_ERROR)
			return true;
	return im->oom;
}

void imp_free(struct imp *im)
{
	for (size_t i = 0; i < im->n; i++) {
		struct imp_item *it = im->items[i];

		free(it->key);
		free(it->value);
		free(it->install);
		free(it->note);
		for (unsigned s = 0; s < it->n_src; s++) {
			free(it->src[s].key);
			free(it->src[s].value);
		}
		free(it);
	}
	free(im->items);
	im->items = NULL;
	im->n = im->cap = 0;
}

const char *imp_trigger_dir(struct imp *im)
{
	const struct imp_item *dir = imp_find(im, IMP_SET, "trigger_dir");

	return dir ? dir->value : im->cfg->trigger_dir;
}

/* A path printed in a shell command: only plain characters, else no command is given. */
static bool shell_plain(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || strchr("'\"\\$`;&|<>(){}*?[]!#~", *p))
			return false;
	return *s != 0;
}

struct imp_item *imp_trigger(struct imp *im, const char *condition, const char *program, bool exact)
{
	struct imp_item *prev = *condition ? imp_find(im, IMP_TRIGGER, condition) : NULL;
	struct imp_item *it = imp_add(im, IMP_TRIGGER, condition, program ? program : "");
	const char *dir = imp_trigger_dir(im);

	if (!it)
		return NULL;
	if (prev && strcmp(prev->value, it->value)) {
		/* Two installs to one name would leave the last: say so instead. */
		imp_note(im, it, "%s already takes %s: rasd runs one program per condition, so one "
			 "program has to do both", condition, *prev->value ? prev->value : "another program");
		return it;
	}
	/* A copy, not a link: rasd checks the file it runs, and a link's target can change. */
	if (*condition && exact && program && *program == '/' && shell_plain(program) && shell_plain(dir) &&
	    asprintf(&it->install, "install -o root -g root -m 0755 %s %s/%s", program, dir, condition) < 0) {
		it->install = NULL;
		im->oom = true;
	}
	return it;
}

/* One directory of the trigger path: the reasons rasd refuses it. */
static void check_one_dir(struct imp *im, const char *dir, const char *for_dir)
{
	char why[PATH_MAX + 160];
	struct stat st;
	int r = ras_dir_is_safe(dir, why, sizeof(why));

	if (r == -ENOENT) {
		if (!strcmp(dir, for_dir))
			imp_warn(im, "trigger_dir %s does not exist: create it owned by root, mode 0755 "
				 "(mkdir -m 0755 %s)", for_dir, for_dir);
		return;
	}
	if (r < 0) {
		imp_warn(im, "trigger_dir %s: %s; rasd refuses triggers there", for_dir, why);
		return;
	}
	/* ras_dir_is_safe lets our own directories pass; rasd runs as root and wants root's. */
	if (stat(dir, &st) == 0 && st.st_uid != 0)
		imp_warn(im, "trigger_dir %s: directory %s belongs to uid %u, not root; rasd refuses "
			 "triggers there", for_dir, dir, (unsigned)st.st_uid);
}

void imp_check_trigger_dir(struct imp *im, const char *dir)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
		return;
	/* The directory itself, then every one above it up to / (dir is absolute). */
	for (;;) {
		size_t len = strlen(path);
		char *slash;

		while (len > 1 && path[len - 1] == '/')
			path[--len] = 0;
		check_one_dir(im, path, dir);
		slash = strrchr(path, '/');
		if (!slash || !strcmp(path, "/"))
			break;
		slash[slash == path] = 0;
	}
}

int imp_threshold_text(uint64_t count, uint64_t seconds, char *buf, size_t len)
{
	struct ras_threshold check;

	if (count == 0 || count > 1000000000ULL || seconds == 0 ||
	    seconds > (uint64_t)INT64_MAX / 1000000000ULL)
		return -ERANGE;
	/* In hours where it can be, as rasdaemon's and mcelog's periods mostly are: 24h, not 1d. */
	if (seconds % 3600 == 0)
		snprintf(buf, len, "%llu/%lluh", (unsigned long long)count, (unsigned long long)(seconds / 3600));
	else if (seconds % 60 == 0)
		snprintf(buf, len, "%llu/%llum", (unsigned long long)count, (unsigned long long)(seconds / 60));
	else
		snprintf(buf, len, "%llu/%llus", (unsigned long long)count, (unsigned long long)seconds);
	/* What rasd's parser refuses (a period past its range) is out of range here too. */
	return ras_threshold_parse(buf, &check) < 0 ? -ERANGE : 0;
}
